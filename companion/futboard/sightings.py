"""Turning a camera sighting into the Futboard command it stands for at this moment.

Before a kick-off, at a corner's placement and before a penalty, figures are put on spaces:
a placement (or, for the side clearing its area before a penalty, a move). In a coach's
turn a figure of his that settled elsewhere is a movement, one of his actions. Anything
else (a figure of the other side moving) is offered as a plain placement, which the rules
refuse unless a person marks it as a correction: the camera never books a move the rules
do not allow.
"""

from __future__ import annotations

from ..commands import PlaceFigure
from ..ruleset import Command
from ..sightings import Sighting, Standing
from . import queries as q
from .commands import Move
from .model import FutboardState, Penalty, Phase


def command_for(state: FutboardState, sighting: Sighting) -> Command | None:
    """The command a sighting proposes, or None when it changes nothing the rules track."""
    if sighting.player is None or not state.created or state.phase is Phase.OVER:
        return None  # the ball rides on a tile: the rules place it themselves
    p = state.players.get(sighting.player)
    if p is None or not p.on_field:
        return None  # reserves and sent-off players on the bench
    space = q.pitch(state).space_at(sighting.x_mm, sighting.y_mm) if sighting.on_pitch else None
    if space is None:
        return None  # lifted or off the board: not settled anywhere the rules know
    if space == p.space:
        return None
    if state.phase is Phase.PENALTY:
        pen = state.restart
        if isinstance(pen, Penalty) and sighting.player.team is pen.team.other and p.space is not None:
            return Move(sighting.player, space)
        return PlaceFigure(sighting.player, space)
    if state.phase is Phase.PLAY and state.turn is sighting.player.team and p.space is not None:
        return Move(sighting.player, space)
    return PlaceFigure(sighting.player, space)


def standing(state: FutboardState) -> tuple[Standing, ...]:
    """Where the rules have each figure on the field: its space, in board millimetres."""
    if not state.created:
        return ()
    pitch = q.pitch(state)
    w, h = pitch.space_length_mm, pitch.space_width_mm
    out = []
    for p in state.players.values():
        if p.on_field and p.space is not None:
            x, y = pitch.centre_mm(p.space)
            out.append(Standing.around(p.ref, x, y, w, h))
    return tuple(out)
