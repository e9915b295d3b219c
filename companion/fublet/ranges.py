"""Where a selected figure could go: the movement range the tablet draws."""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef
from . import queries as q
from .model import FubletState, Phase, RoundKind


def movement_limit(state: FubletState, ref: PlayerRef) -> int:
    """MS the figure may cover now: the round pace (the small number in a transition round's
    zone movements) capped by his speed; his speed alone outside the movement phases."""
    p = state.players[ref]
    if state.phase is Phase.MOVEMENT and state.round_kind is RoundKind.TRANSITION:
        return min(state.zone_pace, p.speed)
    if state.phase in (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT) and state.pace:
        return min(state.pace, p.speed)
    return p.speed


def reachable(state: FubletState, ref: PlayerRef) -> frozenset[Square]:
    """Free MS within the figure's limit, counting the backward-movement penalty. Empty when
    his position is not known."""
    p = state.players[ref]
    if p.ms is None or not p.on_pitch:
        return frozenset()
    b = q.board(state)
    limit = movement_limit(state, ref)
    taken = {o.ms for o in state.players.values() if o.on_pitch and o.ref != ref}
    out = set()
    c0, r0 = p.ms
    for c in range(max(0, c0 - limit), min(b.ms_cols, c0 + limit + 1)):
        for r in range(max(0, r0 - limit), min(b.ms_rows, r0 + limit + 1)):
            sq = (c, r)
            if sq in taken:
                continue
            cost = q.move_cost(state, p, sq)
            backward = q.is_backward(p, sq)
            if cost is not None and cost <= limit and not (backward and state.pace and state.pace <= 2):
                out.add(sq)
    return frozenset(out)
