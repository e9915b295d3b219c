"""Figures placed freely: the line-up before a kick-off, the placement before a penalty-kick
or a shoot-out's kick. Both a placed figure (setup.py) and a move in those phases
(movement.py) end here.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef
from . import events as ev
from . import queries as q
from .tx import Tx, refuse

SETUP = "Set-Up"


def free_placement(tx: Tx, ref: PlayerRef, square: Square) -> None:
    s = tx.state
    p = s.players[ref]
    if not p.on_pitch:
        raise refuse(SETUP, f"{ref} is not in the team on the pitch ({p.where.value}); substitute him in first")
    check_square(s, ref, square)
    tx.emit(ev.FigurePlaced(ref, square))


def check_square(s, ref: PlayerRef, square: Square) -> None:
    pitch = q.pitch(s)
    p = s.players[ref]
    if not pitch.in_field(square) and not (p.goalkeeper and q.in_own_goal(s, ref, square)):
        raise refuse(SETUP, f"{square} is off the playing field (only a goalkeeper may stand in his goal)")
    other = q.occupant(s, square)
    if other is not None and other != ref:
        raise refuse(SETUP, f"no more than one player per square: {other} stands on {square}")
    for end in ("low", "high"):
        if q.in_goal_area(s, end, square) and \
                q.goal_area_count(s, end, ref.team, ref, square) > q.limits(s).goal_area_per_side:
            raise refuse("Movement", f"no more than {q.limits(s).goal_area_per_side} players of a side may be in a "
                                     f"goal area")
