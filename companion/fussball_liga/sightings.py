"""Turning a camera sighting into the command it stands for at this moment.

Before a kick-off or a penalty-kick figures are placed freely: a placement. During a
stoppage's set-up and in the movement phase a figure that moved is a move (its cost and
legality checked by the rules). The ball seen next to its carrier in the movement phase is
the carrier moving it around himself. Anything else is offered as a plain placement, which
the rules refuse unless a person marks it as a correction: the camera never books a move
the rules do not allow.
"""

from __future__ import annotations

from ..commands import PlaceFigure
from ..ruleset import Command
from ..sightings import Sighting, Standing
from . import queries as q
from .commands import Move, MoveBall
from .model import Control, LigaState, Phase, RestartKind


def command_for(state: LigaState, sighting: Sighting) -> Command | None:
    if not state.created or state.phase is Phase.OVER:
        return None
    pitch = q.pitch(state)
    square = pitch.square_at(sighting.x_mm, sighting.y_mm) if sighting.on_pitch else None
    if sighting.player is None:
        ball = state.ball
        if (state.phase is Phase.MOVEMENT and square is not None and square != ball.square
                and ball.holder is not None and ball.control in (Control.CLOSE, Control.LOOSE)
                and q.near(state.players[ball.holder].square, square)):
            return MoveBall(ball.holder, square)
        return None  # otherwise the rules place the ball themselves
    p = state.players.get(sighting.player)
    if p is None or square == p.square:
        return None
    if square is None:
        return PlaceFigure(sighting.player, None)
    r = state.restart
    if state.phase in (Phase.SET_UP, Phase.MOVEMENT) and p.placed and not (
            state.phase is Phase.SET_UP and r is not None and r.kind is RestartKind.PENALTY):
        return Move(sighting.player, square)
    return PlaceFigure(sighting.player, square)


def standing(state: LigaState) -> tuple[Standing, ...]:
    """Where the rules have each figure on the pitch: its square, in board millimetres."""
    if not state.created:
        return ()
    pitch = q.pitch(state)
    s = pitch.square_mm
    out = []
    for p in state.players.values():
        if p.placed:
            x, y = pitch.centre_mm(p.square)
            out.append(Standing.around(p.ref, x, y, s, s))
    return tuple(out)
