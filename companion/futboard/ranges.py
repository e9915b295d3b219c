"""Where a figure may move: the movement rules as a search, and the range the tablet draws.

A figure steps from space to adjacent space (diagonals too), up to the movement printed at
the top of its tile, never over another figure. It may pass through the spaces outside the
field but not stop there. A ball carrier without the dribble symbol must stop as soon as he
comes next to an opponent (he may leave a space next to opponents, then stop at the next
one). The camera sees only where a figure ends, so a move is legal when some such path
exists.
"""

from __future__ import annotations

from collections import deque

from ..board import Square
from ..teams import PlayerRef
from . import queries as q
from .model import MAX_PER_LINE, FutboardState


def destinations(s: FutboardState, ref: PlayerRef, limit: int | None = None,
                 dribble: bool | None = None) -> dict[Square, int]:
    """Every space the figure could end a movement on now, with the fewest steps to it
    (the line rule not applied: see ``reachable``). ``limit`` and ``dribble`` override the
    tile's movement and dribble symbol (to explain a refusal)."""
    p = s.players[ref]
    if not p.on_field or p.space is None:
        return {}
    b = q.pitch(s)
    steps_max = p.tile.movement if limit is None else limit
    taken = q.occupied(s, but=ref)
    must_stop = s.ball == ref and not (p.tile.dribble if dribble is None else dribble)
    opponents = [o.space for o in q.on_field(s, ref.team.other) if o.space is not None]
    field = b.field(s.street)
    start = p.space
    seen = {start: 0}
    out: dict[Square, int] = {}
    frontier = deque([start])
    while frontier:
        here = frontier.popleft()
        steps = seen[here]
        if here != start:
            if here in field:
                out[here] = steps
            if must_stop and any(b.adjacent(here, o) for o in opponents):
                continue  # he has come next to an opponent: the movement ends here
        if steps == steps_max:
            continue
        for nxt in b.neighbours(here):
            if nxt in seen or nxt in taken:
                continue
            seen[nxt] = steps + 1
            frontier.append(nxt)
    return out


def reachable(s: FutboardState, ref: PlayerRef) -> frozenset[Square]:
    """Spaces the tablet highlights for a selected figure: where a movement may end,
    keeping to four players of a team in a line."""
    lines: dict[int, int] = {}
    for p in q.on_field(s, ref.team):
        if p.space is not None and p.ref != ref:
            lines[p.space[0]] = lines.get(p.space[0], 0) + 1
    return frozenset(sq for sq in destinations(s, ref) if lines.get(sq[0], 0) < MAX_PER_LINE)
