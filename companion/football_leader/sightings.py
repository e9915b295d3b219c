"""Turning a camera sighting into the Football Leader command it stands for at this moment.

During a set-up a counter seen in a space is a placement (the rules check it against the
strategy sheet). In a turn, a counter of the coach whose turn it is seen in another space is
a movement without a named card: the rules then ask which card was played. Anything else
is offered as a plain placement, which the rules refuse unless a person marks it as a
correction: the camera never books a move the rules do not allow.
"""

from __future__ import annotations

from ..commands import PlaceFigure
from ..ruleset import Command
from ..sightings import Sighting, Standing
from . import queries as q
from .commands import Move
from .model import Choice, FootballLeaderState, MoveCardCtx, Phase


def command_for(state: FootballLeaderState, sighting: Sighting) -> Command | None:
    """The command a sighting proposes, or None when it changes nothing the rules track."""
    if sighting.player is None or not state.created:
        return None  # the ball token rides on its carrier; passes are declared on the tablet
    p = state.players.get(sighting.player)
    if p is None:
        return None
    space = q.board(state).space_at(sighting.x_mm, sighting.y_mm) if sighting.on_pitch else None
    if space == p.space or _card_asked(state, sighting.player, space):
        return None
    if space is None:
        return PlaceFigure(sighting.player, None)
    if (state.phase is Phase.TURN and state.turn is not None and state.turn.team is sighting.player.team
            and p.on_pitch and p.space is not None and not p.goalkeeper and not state.queue):
        return Move(sighting.player, space)
    return PlaceFigure(sighting.player, space)


def _card_asked(state: FootballLeaderState, player, space) -> bool:
    """The camera sees again a move whose card the coach is being asked for: nothing new."""
    head = state.queue[0] if state.queue else None
    return (isinstance(head, Choice) and isinstance(head.ctx, MoveCardCtx) and head.ctx.player == player
            and head.ctx.path[-1] == space)


def standing(state: FootballLeaderState) -> tuple[Standing, ...]:
    """Where the rules have each counter on the pitch: its space, in board millimetres (a
    space holds several counters: each is expected anywhere in it)."""
    if not state.created:
        return ()
    board = q.board(state)
    out = []
    for p in state.players.values():
        if p.on_pitch and p.space is not None:
            sp = board.space(p.space)
            out.append(Standing(p.ref, sp.x0, sp.y0, sp.x1, sp.y1))
    return tuple(out)
