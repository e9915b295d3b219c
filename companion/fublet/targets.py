"""Where the ball or a figure may go now, and what each place would mean, for the tablet to
show before a coach touches anything; and a refused touch said in a coach's words.

Nothing here is a second copy of the rules: every target is a command the rules accept
(``FubletRules.decide`` on the state as it stands, which changes nothing), tried for each
place the action could name. A place the rules refuse is not a target; a touch on it is
answered by ``refusal``: what was asked, why the rules refuse it (their own reason), and
what they would take instead.

Kinds (``Target.kind``): "short_pass", "long_pass", "cross", "shot" (finalization or long
shot, at a goal-line PS), "run" (keep and run or speed dribbling, to an MS), "kick_off" (the
teammate who receives it), "move" (a single movement), "tackle" (a single movement that
ends next to the ball carrier and engages him), "tactical_move", "place" (free or ordered
positioning before a kick-off or a restart), "volley" (a goal-line PS for a volley).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square, grid_distance
from ..commands import PlaceFigure
from ..errors import RuleViolation
from ..ruleset import Command
from ..sightings import Sighting
from ..teams import PlayerRef
from . import commands as c
from . import queries as q
from .components import Action, Skill
from .model import FREE_KICK_DISTANCE_MS, FubletState, Phase, RestartKind, RoundKind, ShotPlan, Status
from .open_actions import open_actions
from .restarts import in_penalty_area, kicker_off_the_spot, too_close
from .rules import FubletRules
from .sightings import command_for

RULES = FubletRules()

# What a place would mean, in the words the panel's legend uses.
KIND_WORDS = {
    "short_pass": "Short pass", "long_pass": "Long pass", "cross": "Cross", "shot": "Shot at goal",
    "run": "Run with the ball", "kick_off": "Kick-off to him", "move": "Move", "tackle": "Move and tackle",
    "tactical_move": "Tactical move", "place": "Place him here", "volley": "Volley at goal",
}
PASS_KINDS = {Action.SHORT_PASS: "short_pass", Action.LONG_PASS: "long_pass", Action.CROSS: "cross"}
# A shot's place is tried with a plain plan (one -5 token, a central save token, the keeper's
# dive given): the tokens are the shot form's business, the place is the target's.
PLAIN_SHOT = ShotPlan(tokens=(5,), save_token=5, gk_dive=0)


@dataclass(frozen=True, slots=True)
class Target:
    """A place the rules accept now: ``place`` on the pass grid (``unit`` "PS") or the
    movement grid ("MS"), what it would mean (``kind``, ``words``), and the command a touch
    there sends."""

    kind: str
    place: Square
    unit: str
    command: Command
    words: str
    action: Action | None = None

    def cells(self, s: FubletState) -> tuple[Square, ...]:
        """The movement squares it covers on the board (a PS is four of them)."""
        return q.board(s).ps_cells(self.place) if self.unit == "PS" else (self.place,)


def accepted(s: FubletState, command: Command) -> bool:
    try:
        RULES.decide(s, command)
    except RuleViolation:
        return False
    return True


def why(s: FubletState, command: Command) -> str | None:
    """The rules' own reason for refusing ``command`` now (None: they take it)."""
    try:
        RULES.decide(s, command)
    except RuleViolation as exc:
        return exc.reason
    return None


# --- the ball -------------------------------------------------------------------------------------

def declarer(s: FubletState) -> PlayerRef | None:
    """Who may declare an action now (the ball carrier, or a restart's taker), from the
    rules' open actions."""
    for a in open_actions(s) if s.created else ():
        if a.id == "declare":
            return a.arg("player")
    return None


def start_ps(s: FubletState, player: PlayerRef) -> Square | None:
    """Where the declared ball starts: the restart's spot, else the player's PS."""
    r = s.restart
    if s.phase is Phase.RESTART and r is not None and r.spot_ps is not None:
        return r.spot_ps
    return q.ps_of(s, player)


def penalty_kick(s: FubletState) -> bool:
    """A penalty kick is being taken (its shot has no shot-on-goal tokens)."""
    return s.phase is Phase.RESTART and s.restart is not None and s.restart.kind is RestartKind.PENALTY


def ball_targets(s: FubletState, action: Action | None = None) -> tuple[Target, ...]:
    """Every place the declarer may send the ball (or run with it) now, by action; only
    ``action``'s when given. Empty when nobody may declare or where the ball starts is
    not known (the coach then gives the distance in words)."""
    player = declarer(s)
    if player is None:
        return ()
    begin = start_ps(s, player)
    if begin is None:
        return ()
    b = q.board(s)
    out: list[Target] = []
    actions = (action,) if action is not None else tuple(Action)
    for act in actions:
        if act.is_pass:
            for col in range(b.ps_cols):
                for row in range(b.ps_rows):
                    ps = (col, row)
                    cmd = c.Declare(player, act, target_ps=ps)
                    if accepted(s, cmd):
                        n = grid_distance(begin, ps)
                        words = f"{act.label.lower()}, {n} PS" if act is not Action.CROSS else "cross into the box"
                        out.append(Target(PASS_KINDS[act], ps, "PS", cmd, words, act))
        elif act.is_shot:
            end = q.attacked_end(s, player.team)
            plan = None if penalty_kick(s) else PLAIN_SHOT   # a penalty kick uses no tokens
            for ps in b.area_squares(f"goal_line_{end}"):
                cmd = c.Declare(player, act, target_ps=ps, shot=plan)
                if accepted(s, cmd):
                    out.append(Target("shot", ps, "PS", cmd, f"{act.label.lower()} at goal", act))
        elif act is Action.KEEP_AND_RUN:
            # Speed dribbling runs to the same squares (it names the opponents challenged too).
            out.extend(_runs(s, player))
    return tuple(out)


def _runs(s: FubletState, player: PlayerRef) -> list[Target]:
    p = s.players[player]
    if p.ms is None:
        return []
    out = []
    for ms in _box(s, p.ms, p.speed + 2):
        if ms == p.ms:
            continue
        cmd = c.Declare(player, Action.KEEP_AND_RUN, target_ms=ms)
        if accepted(s, cmd):
            out.append(Target("run", ms, "MS", cmd, f"run with the ball, {q.move_cost(s, p, ms)} MS",
                              Action.KEEP_AND_RUN))
    return out


def _box(s: FubletState, centre: Square, radius: int):
    b = q.board(s)
    for col in range(max(0, centre[0] - radius), min(b.ms_cols, centre[0] + radius + 1)):
        for row in range(max(0, centre[1] - radius), min(b.ms_rows, centre[1] + radius + 1)):
            yield (col, row)


def kick_off_targets(s: FubletState) -> tuple[Target, ...]:
    """The teammates the kick-off may go to (in the kicker's midfield zone)."""
    if s.phase is not Phase.KICK_OFF or s.restart is None:
        return ()
    out = []
    for p in sorted(q.on_pitch(s, s.restart.team), key=lambda p: p.ref.number):
        cmd = c.KickOff(p.ref)
        if p.ms is not None and accepted(s, cmd):
            # The whole PS he stands in: a figure covers his own MS.
            out.append(Target("kick_off", q.board(s).ms_to_ps(p.ms), "PS", cmd, f"kick-off to #{p.ref.number}"))
    return tuple(out)


def kick_off_problem(s: FubletState) -> str | None:
    """Why nobody may receive the kick-off now, in one phrase (None: someone may, or the
    figures' places are not known)."""
    if s.phase is not Phase.KICK_OFF or s.restart is None or kick_off_targets(s):
        return None
    reasons = [why(s, c.KickOff(p.ref)) for p in q.on_pitch(s, s.restart.team) if p.ms is not None]
    # The line-up's own fault first (a figure in the other half), then the zone.
    other = [r for r in reasons if r and "midfield zone" not in r]
    if other:
        return other[0]
    if reasons:
        return f"no {s.restart.team.label} player stands in his midfield zone to receive it"
    return None


def volley_targets(s: FubletState, player: PlayerRef) -> tuple[Target, ...]:
    """The goal-line PS a volley by ``player`` may fly to."""
    b = q.board(s)
    out = []
    for ps in b.area_squares(f"goal_line_{q.attacked_end(s, player.team)}"):
        cmd = c.Volley(player, PLAIN_SHOT, target_ps=ps)
        if accepted(s, cmd):
            out.append(Target("volley", ps, "PS", cmd, "volley at goal"))
    return tuple(out)


def nearest_to_ball(s: FubletState) -> tuple[tuple[PlayerRef, ...], int] | None:
    """A transition round the rules could not start alone (a figure's place unknown, such
    as a corner's or a throw-in's taker outside the field): of the figures whose places are
    known, those nearest the loose ball and the MS they run, as the rules count it
    (``flow.begin_transition``: the nearest MS of the ball's PS; stunned and injured players
    do not run). None when the ball's PS or every place is unknown."""
    ps = s.ball.ps
    if ps is None or s.ball.carrier is not None:
        return None
    b = q.board(s)
    dist = {p.ref: b.ms_to_ps_distance(p.ms, ps) for p in q.on_pitch(s)
            if p.ms is not None and not p.injured and p.status is not Status.STUNNED}
    if not dist:
        return None
    best = min(dist.values())
    return tuple(sorted((r for r, d in dist.items() if d == best), key=lambda r: (r.team.value, r.number))), best


def reach_distance(s: FubletState, players) -> int:
    """The MS the named players ran to the loose ball (the nearest of them), 1 when their
    places are not known."""
    ps = s.ball.ps
    b = q.board(s)
    known = [b.ms_to_ps_distance(s.players[r].ms, ps) for r in players if s.players[r].ms is not None]
    return min(known) if known and ps is not None else 1


# --- a figure -------------------------------------------------------------------------------------

def figure_targets(s: FubletState, player: PlayerRef) -> tuple[Target, ...]:
    """Where ``player``'s figure may go now and what it would mean: his runs with the ball
    when he declares, his single or tactical movements (a tackle where he ends next to the
    ball carrier), his placements before a kick-off or a restart."""
    if not s.created or player not in s.players or not s.players[player].on_pitch:
        return ()
    phase = s.phase
    if phase in (Phase.DECLARATION, Phase.RESTART) and declarer(s) == player:
        return tuple(_runs(s, player))
    if phase is Phase.MOVEMENT and s.round_kind is RoundKind.REGULAR and not s.queue:
        return tuple(_moves(s, player))
    if phase is Phase.TACTICAL_MOVEMENT and not s.queue:
        return tuple(_limited(s, player, lambda ms: c.TacticalMove(player, ms), "tactical_move", "tactical move"))
    if phase in (Phase.KICK_OFF, Phase.RESTART) and not s.queue:
        return tuple(_placements(s, player))
    return ()


def _limited(s: FubletState, player: PlayerRef, make, kind: str, words: str) -> list[Target]:
    p = s.players[player]
    if p.ms is None:
        return []
    out = []
    for ms in _box(s, p.ms, p.speed + 2):
        if ms == p.ms:
            continue
        cmd = make(ms)
        if accepted(s, cmd):
            out.append(Target(kind, ms, "MS", cmd, f"{words}, {q.move_cost(s, p, ms)} MS"))
    return out


def _moves(s: FubletState, player: PlayerRef) -> list[Target]:
    out = _limited(s, player, lambda ms: c.Move(player, ms), "move", "move")
    carrier = s.ball.carrier
    if carrier is None or carrier.team is player.team or s.players[carrier].ms is None:
        return out
    cm = s.players[carrier].ms
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            ms = (cm[0] + dx, cm[1] + dy)
            if ms == cm:
                continue
            for tackle in (Skill.TACKLE, Skill.SLIDING_TACKLE):
                cmd = c.Move(player, ms, engage=True, tackle=tackle.value)
                if accepted(s, cmd):
                    out.append(Target("tackle", ms, "MS", cmd, f"move next to #{carrier.number} and "
                                                                f"{tackle.label.lower()} him"))
    return out


def _placements(s: FubletState, player: PlayerRef) -> list[Target]:
    """Before a kick-off: anywhere free in his own half (where the kick-off needs him).
    At a restart: where the rules take his move now and the restart is no further from
    being taken (a defender stays 5 MS from a free kick, the penalty area stays clear)."""
    b = q.board(s)
    out = []
    r = s.restart
    for col in range(b.ms_cols):
        for row in range(b.ms_rows):
            ms = (col, row)
            if ms == s.players[player].ms:
                continue
            if s.phase is Phase.KICK_OFF:
                if not q.in_own_half(s, player.team, ms):
                    continue
                cmd: Command = PlaceFigure(player, square=ms)
            else:
                cmd = _restart_command(s, player, ms)
            try:
                events = RULES.decide(s, cmd)
            except RuleViolation:
                continue
            if s.phase is Phase.RESTART and r is not None and _blocks(s, events, player) is not None:
                continue
            out.append(Target("place", ms, "MS", cmd, "place him here"))
    return out


def _restart_command(s: FubletState, player: PlayerRef, ms: Square) -> Command:
    """What a figure put down at a restart is to the rules (as the camera or a tap says it:
    sightings.command_for)."""
    x, y = q.board(s).ms_center_mm(ms)
    return command_for(s, Sighting(player, x, y)) or PlaceFigure(player, square=ms)


def _blocks(s: FubletState, events, player: PlayerRef) -> str | None:
    """Why a placement the rules take would still hold the restart up (None: it would not)."""
    after = s
    for payload in events:
        after = RULES.transaction.evolve(after, payload)
    r = after.restart
    if r is None:
        return None
    if player in too_close(after, r):
        return f"a defender stays more than {FREE_KICK_DISTANCE_MS} MS from the {r.kind.label} spot"
    if r.kind is RestartKind.PENALTY and player in in_penalty_area(after, r):
        return "at a penalty nobody but the goalkeeper and the kicker stands in the penalty area and its arc"
    if r.kind is RestartKind.PENALTY and player == r.taker and kicker_off_the_spot(after, r):
        return "the kicker stands on one of the two MS by the penalty spot (outlined)"
    return None


def placement_reason(s: FubletState, command: Command) -> str | None:
    """Why a placement the rules would take is still not what the kick-off or the restart
    needs (a figure in the other half before a kick-off, a defender too near a free kick)."""
    if not isinstance(command, (PlaceFigure, c.Move)):
        return None
    ms = command.square if isinstance(command, PlaceFigure) else command.to
    if s.phase is Phase.KICK_OFF and ms is not None and not q.in_own_half(s, command.player.team, ms):
        return "at kick-off every player stands in his own half"
    if s.phase is Phase.RESTART:
        try:
            events = RULES.decide(s, command)
        except RuleViolation:
            return None
        return _blocks(s, events, command.player)
    return None


# --- a refused touch, in a coach's words ----------------------------------------------------------

def asked(s: FubletState, command: Command) -> str:
    """What a touch asked for, as a coach would say it."""
    if isinstance(command, c.Declare):
        who = f"{command.player}"
        if command.action.is_pass and command.target_ps is not None:
            begin = start_ps(s, command.player)
            far = f" ({grid_distance(begin, command.target_ps)} PS away)" if begin is not None else ""
            return f"{command.action.label} by {who} to that PS{far}"
        if command.action.is_shot:
            return f"{command.action.label} by {who}"
        return f"{command.action.label} by {who} to that MS"
    if isinstance(command, c.KickOff):
        return f"Kick-off to {command.player}"
    if isinstance(command, c.Volley):
        return f"Volley by {command.player}"
    if isinstance(command, c.Move):
        return f"{'Tackle by' if command.engage else 'Move'} {command.player} to that MS"
    if isinstance(command, c.TacticalMove):
        return f"Tactical move of {command.player} to that MS"
    if isinstance(command, PlaceFigure):
        return f"{command.player} placed on that MS"
    return type(command).__name__


def instead(s: FubletState, targets: tuple[Target, ...], command: Command) -> str:
    """What the rules would take instead: the highlighted places, and another action that
    reaches the place asked for."""
    if not targets:
        return "Nothing like it is open now: see the buttons for what is."
    kinds = sorted({t.kind for t in targets}, key=list(KIND_WORDS).index)
    unit = targets[0].unit
    out = f"Touch a highlighted {unit} ({', '.join(KIND_WORDS[k].lower() for k in kinds)})"
    if isinstance(command, c.Declare) and command.target_ps is not None:
        other = [t for t in ball_targets(s) if t.place == command.target_ps and t.action != command.action]
        if other:
            out += f"; to reach that PS declare {' or '.join(sorted({t.action.label.lower() for t in other}))}"
    return out + "."


def refusal(s: FubletState, command: Command, targets: tuple[Target, ...]) -> str:
    """A refused touch said whole: what was asked, why not (the rules' reason), what would
    be taken."""
    reason = why(s, command) or placement_reason(s, command) or "the rules do not take it now"
    return f"{asked(s, command)}: not possible, {reason}. {instead(s, targets, command)}"
