"""Where a selected counter could go: the movement range the tablet draws."""

from __future__ import annotations

from ..teams import PlayerRef
from . import queries as q
from .model import FootballLeaderState
from .movement import best_allowance, step_cost
from .pitch import Space


def reachable(state: FootballLeaderState, ref: PlayerRef) -> frozenset[Space]:
    """Spaces the counter could move to now with the best card its coach may hold (one
    space after a kick for the ball carrier); empty when it cannot move."""
    p = state.players.get(ref)
    if (p is None or not p.on_pitch or p.space is None or p.goalkeeper or state.components is None
            or not q.can_take_marker(state, ref)):
        return frozenset()
    carrier = state.ball == ref
    limit = best_allowance(state, ref)
    if carrier and state.turn is not None and state.turn.startup == ref:
        limit = min(limit, 1)
    spaces = q.board(state).within(p.space, 2 * limit, step_cost(state, ref, carrier))
    return frozenset(sp for sp in spaces if sp != p.space and q.room(state, sp, ref.team, ignore=ref) > 0)
