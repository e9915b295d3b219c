"""Turning a camera sighting into the Fublet command it stands for at this moment.

Before a kick-off, at a restart, or between halves figures are placed freely: a
placement. In the Movement phase a figure that moved is a single movement, in Tactical
movement a tactical movement (with its test). Anything else (a figure moving while a coach
is declaring, say) is offered as a plain placement, which the rules refuse unless a person
marks it as a correction: the camera never books a move the rules do not allow.
"""

from __future__ import annotations

from ..commands import PlaceFigure
from ..ruleset import Command
from ..sightings import Sighting, Standing
from . import queries as q
from .commands import Move, TacticalMove
from .model import FubletState, Phase, RoundKind
from .restarts import steps, too_close

FREE = (Phase.OPENING_ROLL, Phase.BOARD_PICK, Phase.KICK_OFF, Phase.RESTART)


def command_for(state: FubletState, sighting: Sighting) -> Command | None:
    """The command a sighting proposes, or None when it changes nothing the rules track."""
    if sighting.player is None or not state.created:
        return None  # the ball token: the rules place the ball themselves
    p = state.players.get(sighting.player)
    if p is None:
        return None
    b = q.board(state)
    ms = b.mm_to_ms(sighting.x_mm, sighting.y_mm) if sighting.on_pitch else None
    facing = None if sighting.facing is None else int(round(sighting.facing)) % 360
    if ms == p.ms:
        return None  # same square: turning in place is only a movement when a coach says so
    if ms is None:
        return PlaceFigure(sighting.player, None, facing=facing)
    if state.phase in FREE:
        r = state.restart
        if state.phase is Phase.RESTART and r is not None and p.on_pitch and p.ms is not None \
                and r.step < steps(r.kind) and sighting.player not in too_close(state, r):
            return Move(sighting.player, ms, facing)  # an ordered positioning step
        return PlaceFigure(sighting.player, ms, facing=facing)
    if state.phase is Phase.MOVEMENT and state.round_kind is RoundKind.REGULAR and p.ms is not None:
        return Move(sighting.player, ms, facing)
    if state.phase is Phase.TACTICAL_MOVEMENT and p.ms is not None:
        return TacticalMove(sighting.player, ms, facing)
    return PlaceFigure(sighting.player, ms, facing=facing)


def standing(state: FubletState) -> tuple[Standing, ...]:
    """Where the rules have each figure on the pitch: its movement square, in board millimetres."""
    if not state.created:
        return ()
    b = q.board(state)
    w, h = b.ms_size_mm
    out = []
    for p in state.players.values():
        if p.on_pitch and p.ms is not None:
            x, y = b.ms_center_mm(p.ms)
            out.append(Standing.around(p.ref, x, y, w, h))
    return tuple(out)
