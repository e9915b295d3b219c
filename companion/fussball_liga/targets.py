"""Where a selected figure or the ball may legally go now, and what each square would mean:
the squares the tablet lights when a coach selects a figure or aims a kick.

Every square is checked by the rules themselves: the command a tap there would send is
decided (``FussballLigaRules.decide``, which changes nothing) and a refused one is left out;
the events of an accepted one say what the square means (a pass to #11, a shot at goal, the
ball out of play, an off-side). Nothing here re-states a rule; the texts only put the
rules' answer in a coach's words.

Kinds (what the tablet colours): "pass", "shot", "loose" (the ball lies free there),
"opponent" (it goes to an opponent), "out" (out of play), "offside", "own_goal", "move",
"dribble" (the carrier runs with the ball), "take" (he takes the loose ball), "place" (a
free placement before a kick-off or a penalty), "kicker" (where the kick's taker must
stand), "keeper" (the goalkeeper's numbered goal squares at a penalty).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square
from ..errors import RuleViolation
from ..teams import PlayerRef
from . import commands as c
from . import events as ev
from . import queries as q
from .model import LigaState, Phase, RestartKind
from .pitch import dist
from .ranges import reachable
from .restarts import setup_mover, taker_squares
from .rules import FussballLigaRules
from .tx import Tx

_RULES = FussballLigaRules()

RESTART_WORDS = {RestartKind.THROW_IN: "a throw-in", RestartKind.CORNER: "a corner-kick",
                 RestartKind.GOAL_KICK: "a goal-kick", RestartKind.FREE_KICK: "a free-kick",
                 RestartKind.INDIRECT_FREE_KICK: "an indirect free-kick", RestartKind.PENALTY: "a penalty-kick",
                 RestartKind.KICK_OFF: "the kick-off"}


@dataclass(frozen=True, slots=True)
class Target:
    """One square a tap may choose, and what choosing it means."""

    square: Square
    kind: str
    text: str                                   # in a coach's words: "pass to #11 (close control)"
    receivers: tuple[PlayerRef, ...] = ()       # a pass: who may take it (several: the coach names one)
    risk: int = 0                               # defenders who may try to intercept on the way


def number(ref: PlayerRef) -> str:
    return f"#{ref.number}"


def _decide(s: LigaState, command) -> tuple | None:
    try:
        return tuple(_RULES.decide(s, command))
    except RuleViolation:
        return None


# --- kicks ---------------------------------------------------------------------------------------

def kick_origin(s: LigaState, kicker: PlayerRef, drop: Square | None = None) -> Square | None:
    """Where a kick by ``kicker`` would start now: the ball, the restart's spot, his square."""
    if drop is not None:
        return drop
    r = s.restart
    p = s.players.get(kicker)
    if p is None or not p.placed:
        return None
    if r is not None and r.kind in (RestartKind.FREE_KICK, RestartKind.INDIRECT_FREE_KICK):
        return r.spot
    if r is not None:
        return p.square
    return s.ball.square or p.square


def kick_targets(s: LigaState, kicker: PlayerRef, drop: Square | None = None) -> dict[Square, Target]:
    """Every square a kick by ``kicker`` may target now (a pass, a shot, a restart's kick,
    the kick-off, a follow-up, the goalkeeper's kick after his drop), each with its meaning."""
    origin = kick_origin(s, kicker, drop)
    if origin is None:
        return {}
    pitch = q.pitch(s)
    reach = max(q.limits(s).max_shot, q.limits(s).max_corner, q.limits(s).max_goal_kick)
    out: dict[Square, Target] = {}
    for sq in pitch.board_squares():
        if sq == origin or dist(sq, origin) > reach:
            continue
        events = _decide(s, c.Kick(kicker, sq, drop=drop))
        receivers: tuple[PlayerRef, ...] = ()
        if events is None:
            # Several teammates next to the square: the rules want one named.
            mates = sorted(p.ref for p in q.placed(s, kicker.team) if p.ref != kicker and dist(p.square, sq) == 1)
            named = [(m, _decide(s, c.Kick(kicker, sq, receiver=m, drop=drop))) for m in mates] if len(mates) > 1 \
                else []
            ok = [(m, e) for m, e in named if e is not None]
            if not ok:
                continue
            receivers, events = tuple(m for m, _e in ok), ok[0][1]
        target = _kick_meaning(s, kicker, sq, events, receivers)
        if target is not None:
            out[sq] = target
    return out


def _kick_meaning(s: LigaState, kicker: PlayerRef, sq: Square, events: tuple, receivers) -> Target | None:
    kick = next((e for e in events if isinstance(e, ev.KickTaken)), None)
    if kick is None:
        return None
    pitch = q.pitch(s)
    d = len(kick.path)
    far = f"{d} square{'s' if d != 1 else ''}"
    near = _near_path(s, kicker, kick.path)
    threat = f"; {', '.join(number(r) for r in near)} may try to intercept" if near else ""
    offside = next((e for e in events if isinstance(e, ev.OffsideGiven)), None)
    if offside is not None:
        return Target(sq, "offside", f"{number(offside.player)} is off-side: an indirect free-kick to the opponents")
    goal = pitch.goal_end(sq)
    if goal is not None and kick.receiver is None:
        if goal != s.attacked_end(kicker.team):
            return Target(sq, "own_goal", "a shot at your own goal")
        need = q.tables(s).goal_shot.needs(d)
        return Target(sq, "shot", f"a shot at goal, {far}: it goes in on a roll of {need} or more" + threat,
                      risk=len(near))
    if kick.receiver is not None or receivers:
        who = receivers or (kick.receiver,)
        names = " or ".join(number(r) for r in who)
        close = " (on his square: close control)" if any(s.players[r].square == sq for r in who) else ""
        return Target(sq, "pass", f"a pass to {names}, {far}{close}" + threat, tuple(who), len(near))
    if not pitch.in_field(sq):
        restart = _restart_after(s, kicker, events)
        what = RESTART_WORDS.get(restart.kind, "a restart") if restart is not None else "a restart"
        return Target(sq, "out", f"out of play: {what} for the opponents")
    occupant = q.occupant(s, sq)
    if occupant is not None and occupant.team is not kicker.team:
        return Target(sq, "opponent", f"to {number(occupant)} of the opponents: he gets the ball")
    return Target(sq, "loose", f"into space, {far}: the ball lies free there" + threat, risk=len(near))


def _restart_after(s: LigaState, kicker: PlayerRef, events: tuple):
    """The restart a kick out of play gives: as the rules decide it once the ball has gone by
    the defenders (they let it go)."""
    restart = next((e.restart for e in events if isinstance(e, ev.RestartSet) and e.restart is not None), None)
    if restart is not None:
        return restart
    tx = Tx(s)
    for e in events:
        tx.emit(e)
    if tx.state.flight is None:
        return None
    after = _decide(tx.state, c.PassTurn(kicker.team.other))
    return next((e.restart for e in after or () if isinstance(e, ev.RestartSet) and e.restart is not None), None)


def _near_path(s: LigaState, kicker: PlayerRef, path) -> list[PlayerRef]:
    """Defenders on or next to the ball's path, who may try to intercept it (Interception)."""
    return sorted({p.ref for p in q.placed(s, kicker.team.other) for sq in path[:-1] if dist(p.square, sq) <= 1})


def drop_squares(s: LigaState, keeper: PlayerRef) -> dict[Square, Target]:
    """Where the goalkeeper who held the ball may drop it before his kick: the free squares
    next to him from which at least one kick is legal."""
    p = s.players.get(keeper)
    if p is None or not p.placed:
        return {}
    out = {}
    for sq in q.pitch(s).board_squares():
        if dist(sq, p.square) == 1 and q.occupant(s, sq) is None and kick_targets(s, keeper, drop=sq):
            out[sq] = Target(sq, "place", "drop the ball here, then kick it")
    return out


# --- moves and placements ------------------------------------------------------------------------------

def move_targets(s: LigaState, ref: PlayerRef) -> dict[Square, Target]:
    """Where ``ref`` may move now (the movement phase or a set-up), each with its cost."""
    out = {}
    carrier = s.ball.holder == ref
    squares = set(reachable(s, ref))
    r = s.restart
    if s.phase is Phase.SET_UP and r is not None and ref.team is r.team:
        # The kicker's place, even past his 6 points when nobody is nearer (Set-Up after Stoppages).
        squares |= set(taker_squares(s, r, r.team))
    for sq in squares:
        if sq == s.players[ref].square:
            continue
        events = _decide(s, c.Move(ref, sq))
        if events is None:
            continue
        cost = sum(e.cost for e in events if isinstance(e, ev.PlayerMoved))
        points = f"{cost} point{'s' if cost != 1 else ''}"
        took = any(isinstance(e, ev.BallSet) and e.ball.holder == ref for e in events) and not carrier
        if s.phase is Phase.SET_UP:
            r = s.restart
            if r is not None and ref.team is r.team and sq in taker_squares(s, r, r.team):
                out[sq] = Target(sq, "kicker", f"in position to take {RESTART_WORDS[r.kind]} ({points})")
            else:
                out[sq] = Target(sq, "move", f"re-position here ({points})")
        elif carrier:
            out[sq] = Target(sq, "dribble", f"run with the ball ({points})")
        elif took:
            out[sq] = Target(sq, "take", f"take the loose ball ({points})")
        else:
            out[sq] = Target(sq, "move", f"move here ({points})")
    return out


def placement_targets(s: LigaState, ref: PlayerRef) -> dict[Square, Target]:
    """Where a figure may stand for the kick-off (line-up) or the penalty-kick (its set-up):
    the squares the kick-off's or the penalty's own checks accept for him."""
    p = s.players.get(ref)
    r = s.restart
    if p is None or not p.on_pitch:
        return {}
    pitch = q.pitch(s)
    taken = q.positions(s)
    if s.phase is Phase.SHOOTOUT:
        return _penalty_spots(s, ref, taken)
    if r is None:
        return {}
    out = {}
    if r.kind is RestartKind.KICK_OFF:
        own = s.end_of(ref.team)
        spots = pitch.kick_off_squares[own] if ref.team is r.team else ()
        for sq in pitch.field_squares():
            if taken.get(sq) not in (None, ref) or pitch.half_of(sq) != own:
                continue
            if ref.team is not r.team and pitch.in_centre_circle(sq):
                continue
            out[sq] = Target(sq, "kicker", "the kick-off square: he kicks off from here") if sq in spots \
                else Target(sq, "place", "his own half: he may stand here")
        return out
    if r.kind is RestartKind.PENALTY:
        return _penalty_spots(s, ref, taken)
    return {}


def _penalty_spots(s: LigaState, ref: PlayerRef, taken) -> dict[Square, Target]:
    """The penalty-kick's set-up (Penalty-Kick): the kicker behind the mark, the goalkeeper on
    goal squares 1 to 4, nobody else in the area or on the circle's squares, the defenders out
    of the attacker's end."""
    pitch = q.pitch(s)
    kicking = s.attacking if s.phase is Phase.SHOOTOUT else s.restart.team
    areas = pitch.ends[s.end_of(kicking.other)]
    p = s.players[ref]
    out = {}
    if ref.team is kicking.other and p.goalkeeper:
        for n, sq in sorted(areas.goal_numbers.items()):
            if taken.get(sq) in (None, ref):
                out[sq] = Target(sq, "keeper", f"goal square {n}: the goalkeeper faces the penalty here")
        return out
    if ref.team is kicking:
        for sq in areas.penalty_squares:
            if taken.get(sq) in (None, ref):
                out[sq] = Target(sq, "kicker", "behind the penalty mark: he takes the penalty from here")
    if s.phase is Phase.SHOOTOUT:
        return {}   # a shoot-out's kicker may stand anywhere: only the goalkeeper has his squares
    for sq in pitch.field_squares():
        if taken.get(sq) not in (None, ref) or sq in out:
            continue
        if areas.in_penalty_area(sq) or sq in areas.penalty_circle:
            continue
        if ref.team is not kicking and pitch.half_of(sq) == s.end_of(kicking):
            continue
        out[sq] = Target(sq, "place", "outside the penalty area: he may stand here")
    return out


def targets(s: LigaState, ref: PlayerRef) -> dict[Square, Target]:
    """What selecting ``ref`` on the board offers now, by the phase: his kick (the ball at his
    feet in the shot phase, a restart he may take), his move, or his place before a kick-off
    or a penalty."""
    if not s.created or s.queue or ref not in s.players:
        return {}
    phase = s.phase
    if phase in (Phase.LINE_UP, Phase.SHOOTOUT) or (phase is Phase.SET_UP and s.restart is not None
                                                      and s.restart.kind is RestartKind.PENALTY):
        return placement_targets(s, ref)
    if phase is Phase.SHOT and s.flight is None and ref.team is s.attacking:
        return kick_targets(s, ref)
    if phase is Phase.MOVEMENT and s.movement is not None and s.movement.turn is ref.team:
        return move_targets(s, ref)
    if phase is Phase.SET_UP and setup_mover(s) is ref.team:
        return move_targets(s, ref)
    return {}
