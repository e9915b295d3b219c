"""Where the ball or a figure may go now, and what each place would mean, for the tablet to
show before a coach touches anything; and a refused touch said in a coach's words.

Every target is a command the rules accept now (``FutboardRules.decide`` on the state as
it stands, which changes nothing), tried for each place it could name: nothing here is a
second copy of the rules. A touch on a place the rules refuse is answered by ``refusal``:
what was asked, why not (the rules' own reason), what they would take instead.

Kinds (``Target.kind``): "pass" (a teammate's space, or the opposing goalkeeper's after a
corner nobody can receive), "kick" (the goal attacked: a kick at goal), "run" (the player
with the ball moves), "move", "take" (a move that ends next to the opposing ball carrier,
to take the ball), "place" (a line-up, the corner slot, the penalty spot), "leave" (out of
the area before a penalty).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square
from ..commands import PlaceFigure
from ..errors import RuleViolation
from ..ruleset import Command
from ..teams import PlayerRef
from . import commands as c
from . import queries as q
from .model import Corner, FutboardState, KickOff, Penalty, Phase
from .open_actions import open_actions
from .ranges import reachable
from .rules import FutboardRules

RULES = FutboardRules()

KIND_WORDS = {"pass": "Pass", "kick": "Kick at goal", "run": "Run with the ball", "move": "Move",
              "take": "Next to the ball (take it)", "place": "Place him here", "leave": "Out of the area"}


@dataclass(frozen=True, slots=True)
class Target:
    """A space the rules accept now, what a touch there would mean, and its command."""

    kind: str
    place: Square
    command: Command
    words: str


def accepted(s: FutboardState, command: Command) -> bool:
    try:
        RULES.decide(s, command)
    except RuleViolation:
        return False
    return True


def why(s: FutboardState, command: Command) -> str | None:
    """The rules' own reason for refusing ``command`` now (None: they take it)."""
    try:
        RULES.decide(s, command)
    except RuleViolation as exc:
        return exc.reason
    return None


def kicker(s: FutboardState) -> PlayerRef | None:
    """Who plays the ball now: the player with it in his side's turn, or the kicking side's
    player in the centre circle before the kick-off (the lowest number when several are)."""
    if not s.created or s.queue:
        return None
    ids = {a.id: a for a in open_actions(s)}
    if "pass" in ids:
        return ids["pass"].arg("player")
    ko = s.restart
    if "kick_off" in ids and isinstance(ko, KickOff):
        circle = set(q.pitch(s).centre_circle)
        inside = [p.ref for p in q.on_field(s, ko.team) if p.space is not None and tuple(p.space) in circle]
        return min(inside, key=lambda r: r.number) if inside else None
    return None


def ball_targets(s: FutboardState, player: PlayerRef | None = None) -> tuple[Target, ...]:
    """Where the ball may go from ``player`` (default: who plays it now): passes to the
    teammates the ruler reaches, a kick at goal, a run with it."""
    player = player or kicker(s)
    if player is None or player not in s.players or s.players[player].space is None:
        return ()
    out: list[Target] = []
    for mate in sorted(q.on_field(s), key=lambda p: (p.ref.team is not player.team, p.ref.number)):
        if mate.ref == player or mate.space is None:
            continue
        cmd = c.Pass(player, mate.ref)
        if accepted(s, cmd):
            whom = f"#{mate.ref.number}" if mate.ref.team is player.team else "the opposing goalkeeper"
            out.append(Target("pass", tuple(mate.space), cmd, f"pass to {whom}"))
    kick = c.Kick(player)
    goal_keeper = q.keeper(s, player.team.other)
    if accepted(s, kick):
        goal = q.pitch(s).goal(q.attacked_end(player.team))
        odds = s.players[player].tile.accuracy - q.pitch(s).kick_penalty(s.players[player].space,
                                                                           q.attacked_end(player.team))
        out.append(Target("kick", tuple(goal_keeper.space) if goal_keeper and goal_keeper.space else goal, kick,
                          f"kick at goal (hits on 1-{max(0, odds)})"))
    if s.phase is Phase.PLAY:
        out.extend(_moves(s, player, "run", "run with the ball"))
    return tuple(out)


def _moves(s: FutboardState, player: PlayerRef, kind: str, words: str) -> list[Target]:
    """His movements the rules take: the spaces a movement may end on (``ranges.reachable``,
    the search ``movement.check_destination`` refuses by) once the rules take a movement of
    his at all (whose turn, actions left, the ball rule, a corner's order: the same for every
    space, so the first space asks them for all)."""
    places = sorted(reachable(s, player))
    if s.phase is Phase.PENALTY:   # out of the area: each space asked (a few)
        return [Target(kind, sq, c.Move(player, sq), words) for sq in places if accepted(s, c.Move(player, sq))]
    if not places or not accepted(s, c.Move(player, places[0])):
        return []
    return [Target(kind, sq, c.Move(player, sq), words) for sq in places]


def figure_targets(s: FutboardState, player: PlayerRef) -> tuple[Target, ...]:
    """Where ``player``'s figure may go now and what it would mean: his line-up space, the
    corner slot, the penalty spot, out of the area, his movement (next to the ball carrier
    to take the ball)."""
    if not s.created or s.queue or player not in s.players or not s.players[player].on_field:
        return ()
    p = q.pitch(s)
    r = s.restart
    if s.phase is Phase.LINEUP and isinstance(r, KickOff):
        circle = set(p.centre_circle) if r.team is player.team else set()
        out = []
        for sq in sorted(p.field(s.street).squares()):
            if sq == s.players[player].space or not (q.in_own_field(s, player.team, sq) or sq in circle):
                continue
            cmd = PlaceFigure(player, square=sq)
            if accepted(s, cmd):
                out.append(Target("place", sq, cmd, "his place for the kick-off"))
        return tuple(out)
    if s.phase is Phase.CORNER and isinstance(r, Corner):
        return tuple(Target("place", sq, PlaceFigure(player, square=sq), "takes the corner from here")
                     for sq in p.corners(q.attacked_end(r.team)) if accepted(s, PlaceFigure(player, square=sq)))
    if s.phase is Phase.PENALTY and isinstance(r, Penalty):
        if player.team is r.team:
            spot = p.spot(q.attacked_end(r.team))
            cmd = PlaceFigure(player, square=spot)
            return (Target("place", spot, cmd, "takes the penalty"),) if r.kicker is None and accepted(s, cmd) else ()
        return tuple(_moves(s, player, "leave", "out of the area"))
    if s.phase is Phase.PLAY:
        if s.ball == player:
            return tuple(_moves(s, player, "run", "run with the ball"))
        moves = _moves(s, player, "move", "move")
        carrier = s.ball
        cs = s.players[carrier].space if carrier is not None and carrier.team is not player.team else None
        if cs is not None:
            moves = [Target("take", t.place, t.command, f"next to #{carrier.number}, to take the ball")
                     if p.adjacent(t.place, cs) else t for t in moves]
        return tuple(moves)
    return ()


# --- a refused touch, in a coach's words ----------------------------------------------------------

def asked(command: Command) -> str:
    if isinstance(command, c.Pass):
        return f"Pass from {command.player} to {command.to}"
    if isinstance(command, c.Kick):
        return f"Kick at goal by {command.player}"
    if isinstance(command, c.Move):
        return f"{command.player} to that space"
    if isinstance(command, PlaceFigure):
        return f"{command.player} placed on that space"
    if isinstance(command, c.TakeBall):
        return f"{command.player} takes the ball"
    return type(command).__name__


def instead(targets: tuple[Target, ...]) -> str:
    if not targets:
        return "Nothing like it is open now: see the buttons for what is."
    kinds = sorted({t.kind for t in targets}, key=list(KIND_WORDS).index)
    passes = [t for t in targets if t.kind == "pass"]
    if passes and len(passes) == len(targets):
        return "Passes go to " + ", ".join(t.words.removeprefix("pass to ") for t in passes) + " (highlighted)."
    return f"Touch a highlighted space ({', '.join(KIND_WORDS[k].lower() for k in kinds)})."


def refusal(s: FutboardState, command: Command, targets: tuple[Target, ...]) -> str:
    """A refused touch said whole: what was asked, why not, what would be taken."""
    reason = why(s, command) or "the rules do not take it now"
    return f"{asked(command)}: not possible, {reason}. {instead(targets)}"
