"""The Football Leader board: 38 spaces of irregular shape, not a grid of squares.

A space is named by a ``(row, lane)`` pair: ``row`` counts along the pitch from the goal
line at x = 0 (row 0) to the far goal line, ``lane`` counts across it from the touch line
at y = 0. The two goal spaces, where the goalkeepers stay, are ``(-1, 0)`` and
``(rows, 0)``. The rulebook's "rows" (offside, own half) are these rows.

Each space is a rectangle in board millimetres (the camera's contract: ``space_at``), with
its printed attributes (halved, grey, penalty area, central, shooting numbers). Spaces are
joined by links; a link drawn as a dotted line is cheaper to cross. A step's direction
(forward, sideways, backward) follows from the rows: the same row is sideways.

All of it is data (``data/board.json``); the shipped values are placeholders because the
rulebook text does not describe the board drawing.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Callable, Iterable

from ..teams import CodeEnum

Space = tuple[int, int]

LOW, HIGH = "low", "high"


class Step(CodeEnum):
    FORWARD = "forward"
    SIDEWAYS = "sideways"
    BACKWARD = "backward"


@dataclass(frozen=True, slots=True)
class ShootNumbers:
    """What a space prints for shooting: X-Y-Z (difficulty with 0, 1 or 2 defenders in the
    space, before the goalkeeper's value), or a single 23 or 24."""

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.values) == 1:
            if self.values[0] not in (23, 24):
                raise ValueError(f"a single shooting number is 23 or 24, not {self.values[0]}")
        elif len(self.values) == 3:
            if not all(1 <= v <= 30 for v in self.values) or list(self.values) != sorted(self.values):
                raise ValueError(f"X-Y-Z shooting numbers are 1..30 and never fall, got {self.values}")
        else:
            raise ValueError(f"a space prints X-Y-Z or a single number, not {self.values}")

    @property
    def three(self) -> bool:
        return len(self.values) == 3

    def to_json(self) -> str:
        return "-".join(str(v) for v in self.values)

    @classmethod
    def from_json(cls, value: object) -> "ShootNumbers":
        if isinstance(value, int) and not isinstance(value, bool):
            return cls((value,))
        if not isinstance(value, str):
            raise ValueError(f"expected shooting numbers like '4-8-12' or '23', got {value!r}")
        parts = value.split("-")
        if not all(part.isdigit() for part in parts):
            raise ValueError(f"expected shooting numbers like '4-8-12' or '23', got {value!r}")
        return cls(tuple(int(part) for part in parts))

    def __repr__(self) -> str:
        return f"ShootNumbers.from_json({self.to_json()!r})"


@dataclass(frozen=True, slots=True)
class BoardSpace:
    """One space: where it lies in millimetres and what is printed on it."""

    key: Space
    label: str
    x0: float
    y0: float
    x1: float
    y1: float
    halved: bool = False          # one counter of each team instead of two
    goal: bool = False            # a goal space: the goalkeeper's place
    penalty_area: bool = False    # one of the three spaces of the penalty area at its end
    central: bool = False         # one of the two central spaces (kick-off)
    grey: bool = False            # dark grey on the strategy sheet of the team defending x = 0
    shoot: ShootNumbers | None = None
    placeholder: bool = False

    def __post_init__(self) -> None:
        if self.x1 <= self.x0 or self.y1 <= self.y0:
            raise ValueError(f"space {self.label}: empty rectangle x {self.x0}..{self.x1}, y {self.y0}..{self.y1}")
        if self.goal and (self.halved or self.penalty_area or self.central or self.shoot is not None):
            raise ValueError(f"space {self.label}: a goal space carries no other attribute")

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    @property
    def capacity(self) -> int:
        """Counters of one team the space holds."""
        return 1 if self.halved or self.goal else 2


@dataclass(frozen=True, slots=True)
class Link:
    """Two spaces that touch; ``dotted`` when the line between them is dotted."""

    a: Space
    b: Space
    dotted: bool = False


@dataclass(frozen=True)
class SpaceBoard:
    """The pitch as spaces and links. Not slotted: lookups built once live beside the fields."""

    name: str
    length_mm: float
    width_mm: float
    rows: int
    half_rows: int
    spaces: tuple[BoardSpace, ...]
    links: tuple[Link, ...]
    placeholder: bool = False
    notes: str = ""

    def __post_init__(self) -> None:
        if self.length_mm <= 0 or self.width_mm <= 0:
            raise ValueError("the pitch needs a positive length and width in millimetres")
        if self.rows < 3 or not self.rows // 2 < self.half_rows <= self.rows:
            raise ValueError(f"need at least 3 rows and a half of more than half of them, got {self.rows} "
                             f"and {self.half_rows}")
        index: dict[Space, BoardSpace] = {}
        for sp in self.spaces:
            if sp.key in index:
                raise ValueError(f"two spaces are both {sp.key}")
            index[sp.key] = sp
            if not sp.goal and not 0 <= sp.key[0] < self.rows:
                raise ValueError(f"space {sp.label}: row {sp.key[0]} is off the board's {self.rows} rows")
        goals = [sp for sp in self.spaces if sp.goal]
        if sorted(sp.key for sp in goals) != [(-1, 0), (self.rows, 0)]:
            raise ValueError(f"the two goal spaces are (-1, 0) and ({self.rows}, 0)")
        pitch = [sp for sp in self.spaces if not sp.goal]
        # What the rulebook states about the board (1.2) holds for any drawing of it.
        if len(pitch) != 38:
            raise ValueError(f"the pitch is divided into 38 spaces, this board has {len(pitch)}")
        if sum(1 for sp in pitch if sp.halved) != 6:
            raise ValueError("the board has 6 halved spaces on the sides")
        for end in (LOW, HIGH):
            n = sum(1 for sp in pitch if sp.penalty_area and self._end_of(sp.key) == end)
            if n != 3:
                raise ValueError(f"each penalty area covers three spaces; the {end} one has {n}")
        if sum(1 for sp in pitch if sp.central) != 2:
            raise ValueError("there are two central spaces")
        near: dict[Space, dict[Space, bool]] = {k: {} for k in index}
        for link in self.links:
            for k in (link.a, link.b):
                if k not in index:
                    raise ValueError(f"link {link.a}-{link.b}: no space {k}")
            if link.a == link.b or link.b in near[link.a]:
                raise ValueError(f"link {link.a}-{link.b} is listed twice or joins a space to itself")
            near[link.a][link.b] = link.dotted
            near[link.b][link.a] = link.dotted
        for sp in pitch:
            if not near[sp.key]:
                raise ValueError(f"space {sp.label} has no neighbour")
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_near", {k: tuple(v.items()) for k, v in near.items()})
        object.__setattr__(self, "_mirror", {})

    # --- lookups --------------------------------------------------------------------------
    def space(self, key: Space) -> BoardSpace:
        try:
            return self._index[key]  # type: ignore[attr-defined]
        except KeyError:
            raise KeyError(f"no space {key} on {self.name}") from None

    def has(self, key: object) -> bool:
        return key in self._index  # type: ignore[attr-defined]

    def pitch_spaces(self) -> tuple[BoardSpace, ...]:
        return tuple(sp for sp in self.spaces if not sp.goal)

    def goal_space(self, end: str) -> Space:
        return (-1, 0) if end == LOW else (self.rows, 0)

    def label(self, key: Space | None) -> str:
        if key is None:
            return "off the board"
        return self.space(key).label if self.has(key) else str(key)

    def neighbours(self, key: Space) -> tuple[tuple[Space, bool], ...]:
        """(space, dotted) for each space touching ``key``."""
        return self._near[key]  # type: ignore[attr-defined]

    def adjacent(self, a: Space, b: Space) -> bool:
        return any(k == b for k, _ in self.neighbours(a))

    def dotted(self, a: Space, b: Space) -> bool:
        for k, dotted in self.neighbours(a):
            if k == b:
                return dotted
        raise KeyError(f"{self.label(a)} and {self.label(b)} do not touch")

    # --- ends and halves ---------------------------------------------------------------------
    def _end_of(self, key: Space) -> str | None:
        row = key[0]
        if row < 0:
            return LOW
        if row >= self.rows:
            return HIGH
        middle = (self.rows - 1) / 2
        if row < middle:
            return LOW
        if row > middle:
            return HIGH
        return None

    def end_of(self, key: Space) -> str | None:
        """The end of the pitch a space lies in ("low" towards x = 0), None for a middle row."""
        return self._end_of(key)

    def in_half(self, key: Space, end: str) -> bool:
        """The "four rows nearest to its board side" of the team defending ``end``."""
        row = key[0]
        if end == LOW:
            return row < self.half_rows
        return row >= self.rows - self.half_rows

    def step(self, a: Space, b: Space, towards_high: bool) -> Step:
        """Forward, sideways or backward for a team attacking x = L (``towards_high``) or x = 0."""
        d = b[0] - a[0]
        if d == 0:
            return Step.SIDEWAYS
        return Step.FORWARD if (d > 0) == towards_high else Step.BACKWARD

    # --- millimetres -----------------------------------------------------------------------------
    def space_at(self, x: float, y: float) -> Space | None:
        """The space under a board point (goal spaces included), or None off the spaces."""
        for sp in self.spaces:
            if sp.contains(x, y):
                return sp.key
        return None

    def center_mm(self, key: Space) -> tuple[float, float]:
        return self.space(key).center

    # The tablet's tap code asks a board for a square's centre under this name.
    ms_center_mm = center_mm

    def mirror(self, key: Space) -> Space:
        """The space the board's half-turn (180 degrees about its centre) takes ``key`` to:
        where the team defending the other end finds the same printed place on its sheet."""
        cache: dict[Space, Space] = self._mirror  # type: ignore[attr-defined]
        if key not in cache:
            cx, cy = self.center_mm(key)
            other = self.space_at(self.length_mm - cx, self.width_mm - cy)
            if other is None:
                raise ValueError(f"{self.label(key)} has no mirror space: the board is not symmetric")
            cache[key] = other
        return cache[key]

    # --- paths ------------------------------------------------------------------------------------
    def cheapest(self, start: Space, goal: Space, cost: Callable[[Space, Space, bool], int | None],
                 ) -> tuple[int, tuple[Space, ...]] | None:
        """The cheapest path from ``start`` to ``goal`` (spaces after the start) and its cost;
        ``cost(a, b, dotted)`` prices one step, None forbids it. Ties break on fewer steps,
        then on the spaces' order, so the answer never depends on dictionary order."""
        best: dict[Space, tuple[int, int]] = {start: (0, 0)}
        heap: list[tuple[int, int, Space, tuple[Space, ...]]] = [(0, 0, start, ())]
        while heap:
            c, n, here, path = heapq.heappop(heap)
            if here == goal:
                return c, path
            if best.get(here, (c, n)) < (c, n):
                continue
            for nxt, dotted in sorted(self.neighbours(here)):
                price = cost(here, nxt, dotted)
                if price is None:
                    continue
                key = (c + price, n + 1)
                if nxt not in best or key < best[nxt]:
                    best[nxt] = key
                    heapq.heappush(heap, (key[0], key[1], nxt, path + (nxt,)))
        return None

    def within(self, start: Space, limit: int, cost: Callable[[Space, Space, bool], int | None],
               ) -> dict[Space, int]:
        """Every space reachable from ``start`` for at most ``limit``, with its cheapest cost."""
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            c, here = heapq.heappop(heap)
            if c > best[here]:
                continue
            for nxt, dotted in self.neighbours(here):
                price = cost(here, nxt, dotted)
                if price is None or c + price > limit:
                    continue
                if nxt not in best or c + price < best[nxt]:
                    best[nxt] = c + price
                    heapq.heappush(heap, (c + price, nxt))
        return best

    def path_ok(self, start: Space, path: Iterable[Space]) -> bool:
        here = start
        for nxt in path:
            if not self.has(nxt) or not self.adjacent(here, nxt):
                return False
            here = nxt
        return True
