"""Where a figure may step: square by square, never into an occupied square or between two
players, never off the field (the goalkeeper into his goal, a throw-in's taker onto his
square), at most two of a side in a goal area; and the cheapest legal path for a move.
"""

from __future__ import annotations

from collections import deque

from ..board import Square
from ..teams import PlayerRef
from . import queries as q
from .pitch import STEPS, adjacent, dist
from .tx import refuse

MOVEMENT = "Movement"
BALL = "Moving the Ball"


def step_problem(s, ref: PlayerRef, a: Square, b: Square, taken: dict[Square, PlayerRef],
                 allow_out: Square | None = None) -> str | None:
    """Why a figure may not step from ``a`` to ``b`` (None: it may)."""
    pitch = q.pitch(s)
    if not adjacent(a, b):
        return "each step goes to a square next to the last one: a figure moves square by square"
    if b in taken and taken[b] != ref:
        return f"the way is blocked: a square on it is occupied by {taken[b]}"
    if not pitch.in_field(b) and b != allow_out and not (s.players[ref].goalkeeper and q.in_own_goal(s, ref, b)):
        return "players may not leave the playing field (only the goalkeeper may enter his goal)"
    if q.limits(s).diagonal_gap_blocked and a[0] != b[0] and a[1] != b[1]:
        side1, side2 = (b[0], a[1]), (a[0], b[1])
        if side1 in taken and side2 in taken and taken[side1] != ref and taken[side2] != ref:
            return f"{ref} may not pass between {taken[side1]} and {taken[side2]}"
    for end in ("low", "high"):
        if q.in_goal_area(s, end, b) and not q.in_goal_area(s, end, a):
            if q.goal_area_count(s, end, ref.team, ref, b) > q.limits(s).goal_area_per_side:
                return f"no more than {q.limits(s).goal_area_per_side} players of a side may be in a goal area"
    return None


def legal_path(s, ref: PlayerRef, to: Square, path: tuple[Square, ...] = (), unit: int | None = None,
               steps: tuple[Square, ...] = STEPS, allow_out: Square | None = None,
               budget: int | None = None) -> tuple[tuple[Square, ...], int]:
    """The squares a move steps through and its cost: the coach's ``path`` checked step by
    step, or the cheapest legal path. Refuses a move no legal path makes."""
    p = s.players[ref]
    unit = unit if unit is not None else q.costs(s).free
    taken = q.positions(s)
    start = p.square
    if path:
        if path[-1] != to:
            raise refuse(MOVEMENT, "the path must end on the square he moves to")
        cur = start
        for sq in path:
            d = (sq[0] - cur[0], sq[1] - cur[1])
            if d not in steps:
                raise refuse(BALL, f"with the ball in loose control {ref} may only move into a front square")
            problem = step_problem(s, ref, cur, sq, taken, allow_out)
            if problem:
                raise refuse(MOVEMENT, problem)
            cur = sq
        return tuple(path), unit * len(path)
    if to == start:
        raise refuse(MOVEMENT, f"{ref} stands there already: a move covers at least one square")
    problem = destination_problem(s, ref, to, taken, allow_out)
    if problem:
        raise refuse(MOVEMENT, problem)
    limit = budget if budget is not None else 99
    if budget is not None and unit * dist(start, to) > budget:
        raise refuse(MOVEMENT, f"{ref} needs at least {unit * dist(start, to)} movement points to reach that square; "
                               f"{budget} left for him")
    found = _search(s, ref, start, to, taken, steps, allow_out, limit // unit if unit else limit)
    if found is None:
        if steps != STEPS:
            raise refuse(BALL, f"with the ball in loose control {ref} may only move into a front square (the "
                               f"ball's square and the two beside it); turn the ball first")
        raise refuse(MOVEMENT, f"{ref} has no legal way to that square" + (f" within {limit} movement points"
                                                                     if budget is not None else ""))
    return found, unit * len(found)


def destination_problem(s, ref: PlayerRef, to: Square, taken: dict[Square, PlayerRef],
                        allow_out: Square | None) -> str | None:
    pitch = q.pitch(s)
    if not pitch.on_board(to):
        return "that square is off the board"
    if to in taken and taken[to] != ref:
        return f"that square is occupied by {taken[to]}: one player a square"
    if not pitch.in_field(to) and to != allow_out and not (s.players[ref].goalkeeper and q.in_own_goal(s, ref, to)):
        return "players may not leave the playing field (only the goalkeeper may enter his goal; the throw-in's taker his square)"
    for end in ("low", "high"):
        if q.in_goal_area(s, end, to) and q.goal_area_count(s, end, ref.team, ref, to) > q.limits(s).goal_area_per_side:
            return f"no more than {q.limits(s).goal_area_per_side} players of a side may be in a goal area"
    return None


def _search(s, ref, start, to, taken, steps, allow_out, max_steps) -> tuple[Square, ...] | None:
    pitch = q.pitch(s)
    if dist(start, to) > max_steps or not pitch.on_board(to):
        return None
    prev: dict[Square, Square] = {start: start}
    todo = deque([(start, 0)])
    while todo:
        cur, n = todo.popleft()
        if cur == to:
            out = []
            while cur != start:
                out.append(cur)
                cur = prev[cur]
            return tuple(reversed(out))
        if n >= max_steps:
            continue
        for dc, dr in steps:
            nxt = (cur[0] + dc, cur[1] + dr)
            if nxt in prev or dist(nxt, to) > max_steps - n - 1:
                continue
            if step_problem(s, ref, cur, nxt, taken, allow_out) is None:
                prev[nxt] = cur
                todo.append((nxt, n + 1))
    return None


def front_steps(offset: Square) -> tuple[Square, ...]:
    """Loose control: the step towards the ball and the two beside it (45 degrees either way)."""
    i = STEPS.index(offset)
    return (STEPS[i], STEPS[(i + 1) % 8], STEPS[(i - 1) % 8])
