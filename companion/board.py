"""Board geometry: the contract between the camera (board millimetres) and the rules (squares).

Coordinates: x runs along the pitch length from the goal line at x = 0, y across it from
the touch line at y = 0, right-handed seen from above (z up). Squares are plain
``(col, row)`` tuples: ``col`` counts along x, ``row`` along y, both from 0.

A grid board has two grids: movement squares (MS), where figures stand, and pass squares
(PS), where the ball travels; one PS is ``ms_per_ps`` x ``ms_per_ps`` MS. Named areas (zones,
penalty areas, cross areas...) are rectangles of PS or MS; areas off the pitch (benches, the
substitution area) are rectangles in millimetres. All of it is data (see ``GridBoard.from_json``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

Square = tuple[int, int]

# d8 scatter and facing directions, counter-clockwise from +x, as (dcol, drow) steps.
_STEPS_CCW: tuple[Square, ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def grid_distance(a: Square, b: Square) -> int:
    """Squares counted the board-game way: orthogonal steps 1, diagonal steps 1, 2, 1, 2...

    The shortest such path takes max(dx, dy) steps, min(dx, dy) of them diagonal, and every
    second diagonal costs one more: 4 diagonal steps count 6; 3 straight plus 3 diagonal
    count 7. Figures never block one another, so the shortest path is the distance.
    """
    dx = abs(a[0] - b[0])
    dy = abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


def scatter_step(face: int, towards_high_x: bool) -> Square:
    """The one-square step for a d8 scatter face: 1 points at the goal being defended
    (towards x = L if ``towards_high_x``), and the faces go on clockwise seen from above."""
    if not 1 <= face <= 8:
        raise ValueError(f"a d8 scatter face is 1..8, not {face}")
    start = 0 if towards_high_x else 4
    return _STEPS_CCW[(start - (face - 1)) % 8]


def is_behind(start: Square, end: Square, facing_deg: float) -> bool:
    """True when ``end`` lies in the half-plane behind a figure at ``start`` facing
    ``facing_deg`` (0 = +x, counter-clockwise). Squares exactly to the side are in front."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    rad = math.radians(facing_deg)
    return dx * math.cos(rad) + dy * math.sin(rad) < -1e-9


@dataclass(frozen=True, slots=True)
class Rect:
    """An inclusive rectangle of squares: cols ``col0..col1`` and rows ``row0..row1``."""

    col0: int
    row0: int
    col1: int
    row1: int

    def __post_init__(self) -> None:
        if self.col1 < self.col0 or self.row1 < self.row0:
            raise ValueError(f"empty rectangle: cols {self.col0}..{self.col1}, rows {self.row0}..{self.row1}")

    def __contains__(self, sq: object) -> bool:
        if not isinstance(sq, tuple) or len(sq) != 2:
            return False
        return self.col0 <= sq[0] <= self.col1 and self.row0 <= sq[1] <= self.row1

    def squares(self) -> Iterator[Square]:
        for c in range(self.col0, self.col1 + 1):
            for r in range(self.row0, self.row1 + 1):
                yield (c, r)


@dataclass(frozen=True, slots=True)
class MmRect:
    """A rectangle in board millimetres (may lie outside the pitch: benches, substitutions)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        if self.x1 <= self.x0 or self.y1 <= self.y0:
            raise ValueError(f"empty rectangle: x {self.x0}..{self.x1}, y {self.y0}..{self.y1}")

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


@dataclass(frozen=True, slots=True)
class Area:
    """A named region: rectangles of ``grid`` squares ("PS" or "MS"), or of millimetres when
    ``grid`` is "mm" (regions off the pitch)."""

    grid: str
    rects: tuple[Rect, ...] = ()
    mm: tuple[MmRect, ...] = ()
    placeholder: bool = False

    def __post_init__(self) -> None:
        if self.grid not in ("PS", "MS", "mm"):
            raise ValueError(f"grid must be 'PS', 'MS' or 'mm', not {self.grid!r}")
        if self.grid == "mm" and (self.rects or not self.mm):
            raise ValueError("an area in millimetres lists 'mm' rectangles only")
        if self.grid != "mm" and (self.mm or not self.rects):
            raise ValueError(f"an area of {self.grid} lists 'rects' only")


@dataclass(frozen=True, slots=True)
class GridBoard:
    """A pitch of pass squares split into movement squares, with named areas."""

    name: str
    length_mm: float
    width_mm: float
    ps_cols: int
    ps_rows: int
    ms_per_ps: int
    areas: dict[str, Area] = field(default_factory=dict)
    placeholder: bool = False
    notes: str = ""

    def __post_init__(self) -> None:
        if self.length_mm <= 0 or self.width_mm <= 0:
            raise ValueError("the pitch needs a positive length and width in millimetres")
        if self.ps_cols < 2 or self.ps_rows < 1 or self.ms_per_ps < 1:
            raise ValueError("the grid needs at least 2 x 1 pass squares and 1 MS per PS side")
        for name, area in self.areas.items():
            limit = (self.ms_cols, self.ms_rows) if area.grid == "MS" else (self.ps_cols, self.ps_rows)
            for rect in area.rects:
                if rect.col0 < 0 or rect.row0 < 0 or rect.col1 >= limit[0] or rect.row1 >= limit[1]:
                    raise ValueError(f"area {name!r}: rectangle {rect} lies outside the {area.grid} grid "
                                     f"of {limit[0]} x {limit[1]}")

    # --- sizes -------------------------------------------------------------------------
    @property
    def ms_cols(self) -> int:
        return self.ps_cols * self.ms_per_ps

    @property
    def ms_rows(self) -> int:
        return self.ps_rows * self.ms_per_ps

    @property
    def ms_size_mm(self) -> tuple[float, float]:
        return (self.length_mm / self.ms_cols, self.width_mm / self.ms_rows)

    @property
    def ps_size_mm(self) -> tuple[float, float]:
        return (self.length_mm / self.ps_cols, self.width_mm / self.ps_rows)

    # --- millimetres <-> squares ----------------------------------------------------------
    def on_pitch(self, x: float, y: float) -> bool:
        return 0.0 <= x <= self.length_mm and 0.0 <= y <= self.width_mm

    def mm_to_ms(self, x: float, y: float) -> Square | None:
        """The MS under a board point, or None off the pitch. Points on the far lines count in."""
        if not self.on_pitch(x, y):
            return None
        w, h = self.ms_size_mm
        return (min(int(x // w), self.ms_cols - 1), min(int(y // h), self.ms_rows - 1))

    def mm_to_ps(self, x: float, y: float) -> Square | None:
        ms = self.mm_to_ms(x, y)
        return None if ms is None else self.ms_to_ps(ms)

    def ms_center_mm(self, ms: Square) -> tuple[float, float]:
        self.check_ms(ms)
        w, h = self.ms_size_mm
        return ((ms[0] + 0.5) * w, (ms[1] + 0.5) * h)

    def ps_center_mm(self, ps: Square) -> tuple[float, float]:
        self.check_ps(ps)
        w, h = self.ps_size_mm
        return ((ps[0] + 0.5) * w, (ps[1] + 0.5) * h)

    def off_pitch_area(self, x: float, y: float) -> str | None:
        """The name of the off-pitch area (bench, substitution area) holding a point, if any."""
        for name, area in self.areas.items():
            if area.grid == "mm" and any(r.contains(x, y) for r in area.mm):
                return name
        return None

    # --- squares -------------------------------------------------------------------------
    def is_ms(self, ms: Square) -> bool:
        return 0 <= ms[0] < self.ms_cols and 0 <= ms[1] < self.ms_rows

    def ms_squares(self) -> frozenset[Square]:
        """Every movement square ``is_ms`` accepts."""
        return frozenset((c, r) for c in range(self.ms_cols) for r in range(self.ms_rows))

    def is_ps(self, ps: Square) -> bool:
        return 0 <= ps[0] < self.ps_cols and 0 <= ps[1] < self.ps_rows

    def check_ms(self, ms: Square) -> None:
        if not self.is_ms(ms):
            raise ValueError(f"MS {ms} is off the {self.ms_cols} x {self.ms_rows} movement grid")

    def check_ps(self, ps: Square) -> None:
        if not self.is_ps(ps):
            raise ValueError(f"PS {ps} is off the {self.ps_cols} x {self.ps_rows} pass grid")

    def ms_to_ps(self, ms: Square) -> Square:
        return (ms[0] // self.ms_per_ps, ms[1] // self.ms_per_ps)

    def ps_cells(self, ps: Square) -> tuple[Square, ...]:
        """The MS that make up a PS."""
        n = self.ms_per_ps
        return tuple((ps[0] * n + i, ps[1] * n + j) for i in range(n) for j in range(n))

    def ms_distance(self, a: Square, b: Square) -> int:
        return grid_distance(a, b)

    def ps_distance(self, a: Square, b: Square) -> int:
        return grid_distance(a, b)

    def ms_to_ps_distance(self, ms: Square, ps: Square) -> int:
        """MS a figure must cover to stand inside a PS (0 when already in it)."""
        return min(grid_distance(ms, cell) for cell in self.ps_cells(ps))

    # --- areas ---------------------------------------------------------------------------
    def area(self, name: str) -> Area:
        try:
            return self.areas[name]
        except KeyError:
            raise KeyError(f"board {self.name!r} has no area {name!r}") from None

    def has_area(self, name: str) -> bool:
        return name in self.areas

    def ps_in(self, name: str, ps: Square) -> bool:
        area = self.area(name)
        if area.grid == "PS":
            return any(ps in r for r in area.rects)
        if area.grid == "MS":
            return any(cell in r for r in area.rects for cell in self.ps_cells(ps))
        return False

    def ms_in(self, name: str, ms: Square) -> bool:
        area = self.area(name)
        if area.grid == "MS":
            return any(ms in r for r in area.rects)
        if area.grid == "PS":
            ps = self.ms_to_ps(ms)
            return any(ps in r for r in area.rects)
        return False

    def area_squares(self, name: str) -> tuple[Square, ...]:
        area = self.area(name)
        seen: dict[Square, None] = {}
        for r in area.rects:
            for sq in r.squares():
                seen[sq] = None
        return tuple(seen)
