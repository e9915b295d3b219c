"""Where a selected figure could go now: the movement range the tablet draws."""

from __future__ import annotations

from collections import deque

from ..board import Square
from ..teams import PlayerRef
from . import queries as q
from .model import Control, LigaState, Phase, RestartKind
from .movement import defender_allowance, remaining
from .paths import front_steps, step_problem
from .pitch import STEPS


def budget(s: LigaState, ref: PlayerRef) -> int:
    """Movement points the figure may still spend now (0 outside movement and set-up)."""
    limits = q.limits(s)
    m = s.movement
    if s.phase is Phase.MOVEMENT:
        left = min(limits.mp_per_player - m.by_player.get(ref, 0), remaining(s, ref.team))
        if ref.team is not s.attacking:
            left = min(left, defender_allowance(s) if m.turn is ref.team else remaining(s, ref.team))
        return max(0, left)
    if s.phase is Phase.SET_UP and s.restart is not None and s.restart.kind is not RestartKind.PENALTY:
        return max(0, limits.setup_mp_per_player - m.by_player.get(ref, 0))
    return 0


def reachable(s: LigaState, ref: PlayerRef) -> frozenset[Square]:
    """Squares the figure can reach by legal steps within its points (carrying the ball
    costs more; loose control moves only into front squares). Empty when not on the board."""

    p = s.players.get(ref)
    if p is None or not p.placed:
        return frozenset()
    points = budget(s, ref)
    costs = q.costs(s)
    steps, unit = STEPS, costs.free
    ball = s.ball
    if s.phase is Phase.MOVEMENT and ball.holder == ref and ball.control is Control.CLOSE:
        unit = costs.close_control
    elif s.phase is Phase.MOVEMENT and ball.holder == ref and ball.control is Control.LOOSE:
        unit = costs.loose_control
        steps = front_steps((ball.square[0] - p.square[0], ball.square[1] - p.square[1]))
    max_steps = points // unit
    taken = q.positions(s)
    seen = {p.square: 0}
    todo = deque([p.square])
    while todo:
        cur = todo.popleft()
        n = seen[cur]
        if n >= max_steps:
            continue
        for dc, dr in steps:
            nxt = (cur[0] + dc, cur[1] + dr)
            if nxt in seen or step_problem(s, ref, cur, nxt, taken) is not None:
                continue
            seen[nxt] = n + 1
            todo.append(nxt)
    return frozenset(sq for sq in seen if sq != p.square)
