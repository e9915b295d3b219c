"""How a game's match is drawn, in plain Python: the printed board's shapes and cells, where
the figures and the ball stand, and the scoreboard's three lines. The tablet's pitch widget
and face (ui/games/) and the scoreboard web page (ui/web/) draw from the same look, and
``touchline serve`` imports nothing else of the app: no Kivy here, ever (tests/test_web_serve_imports.py).

Board geometry is in board millimetres, as the camera speaks: x along the pitch from one goal
line, y across it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.board import GridBoard
from companion.teams import PlayerRef
from companion.view import Summary

Cell = Hashable          # a game's square or space key, as its rules spell it
MmRect = tuple[float, float, float, float]   # x0, y0, x1, y1 in board millimetres

GRASS = ((0.16, 0.47, 0.22, 1), (0.19, 0.53, 0.25, 1), (0.22, 0.58, 0.28, 1))
WHITE = (1, 1, 1, 0.9)


@dataclass(frozen=True, slots=True)
class Shape:
    """One drawing instruction of the printed board, in board millimetres.

    ``kind``: "fill" and "outline" take ``data = (x0, y0, x1, y1)``; "line" takes a flat run
    of points ``(x0, y0, x1, y1, ...)``; "text" takes ``(x, y)`` and ``text``.
    """

    kind: str
    rgba: tuple[float, float, float, float]
    data: tuple[float, ...]
    width: float = 1.2
    text: str = ""


def shifted(shape: Shape, dx: float, dy: float) -> Shape:
    """The same shape moved by (dx, dy) millimetres."""
    data = tuple(v + (dx if i % 2 == 0 else dy) for i, v in enumerate(shape.data))
    return Shape(shape.kind, shape.rgba, data, shape.width, shape.text)


class Geometry:
    """A board as the tablet draws it: its size, printed shapes, and cells to touch."""

    length_mm: float
    width_mm: float

    def shapes(self) -> Sequence[Shape]:
        raise NotImplementedError

    def cell_at(self, x_mm: float, y_mm: float) -> Cell | None:
        raise NotImplementedError

    def cell_rect(self, cell: Cell) -> MmRect:
        raise NotImplementedError

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        x0, y0, x1, y1 = self.cell_rect(cell)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def figure_radius_mm(self) -> float:
        """How big a figure is drawn (its marker, not its base)."""
        raise NotImplementedError

    def point(self, cell: Cell) -> tuple[float, float]:
        """A cell's centre in the rules' board millimetres (what a camera sighting carries)."""
        return self.cell_centre(cell)


class RectGeometry(Geometry):
    """A grid of equal rectangular cells (Fublet's movement squares, Futboard's spaces, the
    Fußball-Liga squares): ``cols`` x ``rows`` over ``length_mm`` x ``width_mm``, the cell
    key ``(col, row)``, optionally a ring of ``margin`` cells outside the field."""

    def __init__(self, length_mm: float, width_mm: float, cols: int, rows: int, shapes: Sequence[Shape] = (),
                 margin: int = 0, radius: float = 0.45) -> None:
        self.cols, self.rows, self.margin = cols, rows, margin
        self.cw, self.ch = length_mm / cols, width_mm / rows
        # The drawn board includes the outer ring, so figures standing there can be touched.
        self.x_off, self.y_off = margin * self.cw, margin * self.ch
        self.length_mm = length_mm + 2 * self.x_off
        self.width_mm = width_mm + 2 * self.y_off
        # Shapes come in the rules' frame (the field from 0, 0): moved in by the ring.
        self._shapes = tuple(shifted(sh, self.x_off, self.y_off) for sh in shapes) if margin else tuple(shapes)
        self._radius = radius

    def shapes(self) -> Sequence[Shape]:
        return self._shapes

    def cell_at(self, x_mm: float, y_mm: float) -> Cell | None:
        col = int((x_mm - self.x_off) // self.cw)
        row = int((y_mm - self.y_off) // self.ch)
        m = self.margin
        if -m <= col < self.cols + m and -m <= row < self.rows + m:
            return (col, row)
        return None

    def cell_rect(self, cell: Cell) -> MmRect:
        col, row = cell  # type: ignore[misc]
        x0, y0 = self.x_off + col * self.cw, self.y_off + row * self.ch
        return x0, y0, x0 + self.cw, y0 + self.ch

    def figure_radius_mm(self) -> float:
        return min(self.cw, self.ch) * self._radius

    def to_board(self, x: float, y: float) -> tuple[float, float]:
        """Field millimetres (the rules' frame) to drawing millimetres (with the ring)."""
        return x + self.x_off, y + self.y_off

    def point(self, cell: Cell) -> tuple[float, float]:
        x, y = self.cell_centre(cell)
        return x - self.x_off, y - self.y_off


def grid_shapes(b: GridBoard, zone_lines: bool = True) -> list[Shape]:
    """The printed look of a GridBoard: pass squares in three shades of grass, touch and
    halfway lines, the areas, the two zone lines (Fublet), the goals."""
    out: list[Shape] = []
    pw, ph = b.length_mm / b.ps_cols, b.width_mm / b.ps_rows
    for shade in range(3):
        for c in range(b.ps_cols):
            for r in range(b.ps_rows):
                if (c + r) % 3 == shade:
                    out.append(Shape("fill", GRASS[shade], (c * pw, r * ph, (c + 1) * pw, (r + 1) * ph)))
    out.append(Shape("outline", WHITE, (0, 0, b.length_mm, b.width_mm), 1.5))
    out.append(Shape("line", WHITE, (b.length_mm / 2, 0, b.length_mm / 2, b.width_mm)))
    for name in ("penalty_area_low", "penalty_area_high", "goal_area_low", "goal_area_high", "yellow_lines"):
        if b.has_area(name):
            colour = (1, 0.9, 0.2, 0.9) if name == "yellow_lines" else WHITE
            for rect in b.area(name).rects:
                out.append(Shape("outline", colour, (rect.col0 * pw, rect.row0 * ph, (rect.col1 + 1) * pw,
                                                     (rect.row1 + 1) * ph)))
    if zone_lines and b.has_area("third_mid"):
        rect = b.area("third_mid").rects[0]
        for col in (rect.col0, rect.col1 + 1):
            out.append(Shape("line", (0.1, 0.35, 0.12, 0.9), (col * pw, 0, col * pw, b.width_mm), 2))
    for name in ("goal_line_low", "goal_line_high"):
        if b.has_area(name):
            for rect in b.area(name).rects:
                gx = -6 if name.endswith("low") else b.length_mm
                out.append(Shape("fill", (1, 1, 1, 1), (gx, rect.row0 * ph, gx + 6, (rect.row1 + 1) * ph)))
    return out


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure as drawn: where the books have it and what its look says."""

    ref: PlayerRef
    cell: Cell
    dim: bool = False            # exhausted, stunned, injured: not ready
    crossed: bool = False        # stunned, or lying down
    goalkeeper: bool = False
    manual: bool = False         # placed by a person, not yet confirmed by the camera
    at: tuple[float, float] | None = None   # an exact board point, when the game has one
    badge: str = ""              # a short tag drawn at the figure's shoulder: "Y" for a booking


@dataclass(frozen=True, slots=True)
class BallMark:
    """Where the ball is drawn: at a carrier's feet, in a cell, or at a board point."""

    carrier: PlayerRef | None = None
    cell: Cell | None = None
    at: tuple[float, float] | None = None



@dataclass(frozen=True, slots=True)
class Scoreboard:
    score: str
    clock: str
    phase: str


def scoreline(summary: Summary) -> str:
    """ "Home team  1 - 0  Away team" """
    (home, away), (h, a) = summary.teams, summary.score
    return f"{home}  {h} - {a}  {away}"


class Look:
    """A game as it is drawn: its board, its figures and ball, its scoreboard. One subclass per
    game (ui/looks/<game>); the tablet's ``Face`` of the game adds its widgets and touches on
    top. ``tick_s``: how often a running clock needs the scoreboard built again (None: only
    when the match changes)."""

    game: str = ""
    title: str = ""
    tick_s: float | None = None

    def geometry(self, board: Any) -> Geometry:
        raise NotImplementedError

    def cached_geometry(self, board: Any, build: Callable[[Any], Geometry]) -> Geometry:
        """``build(board)``, built again only when the board object changes (every view asks;
        boards are immutable but not all hashable)."""
        cached = getattr(self, "_geometry_cache", None)
        if cached is None or cached[0] is not board:
            cached = (board, build(board))
            self._geometry_cache = cached
        return cached[1]

    def figures(self, state: Any) -> list[Figure]:
        raise NotImplementedError

    def ball(self, state: Any, board: Any) -> BallMark:
        raise NotImplementedError

    def scoreboard(self, summary: Summary, now: datetime | None = None) -> Scoreboard:
        return Scoreboard(scoreline(summary), summary.clock.period, summary.phase.replace("_", " "))
