"""The Futboard field: a grid of spaces, the camera's millimetres, and what is printed on it.

A space is ``(line, row)``: ``line`` counts along the pitch length from Home's goal line
(x = 0), ``row`` across it from the touch line at y = 0 (the core's board convention, x
along the length, y across, right-handed seen from above). A *line* of the field is every
space with the same ``line`` index: a line across the pitch, as in "the line in front of
the last opponent's player" and "more than 4 players ... in the same line".

Spaces outside the field lines (``margin`` rings of them, with negative or too large
indices) exist for "Move From Outside": a figure may pass through them but not stop there.
On the Futboard Street board the yellow lines bound the field instead, and the spaces
beyond them count as outside.

Everything is given for Home's end (x = 0) and mirrored along the length for Away's end:
the penalty area, the penalty spot, the goalkeeper's space, the corner slots, the kick
penalties printed on the sides of the field, and the goalkeeper's defence reductions
printed on the spaces near the goal.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Iterator

from ..board import Area, GridBoard, Rect, Square
from ..teams import CodeEnum

Space = Square

_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


class End(CodeEnum):
    """A goal end: ``LOW`` at x = 0 (Home's goal), ``HIGH`` at the far goal line (Away's)."""

    LOW = "low"
    HIGH = "high"

    @property
    def other(self) -> "End":
        return End.HIGH if self is End.LOW else End.LOW


@dataclass(frozen=True, slots=True)
class KickPenalties:
    """The penalty a kick loses, by how many lines the kicker stands from the goal line he
    kicks at (index 0 is the line on the goal line)."""

    by_line: tuple[int, ...]
    placeholder: bool = False

    def __post_init__(self) -> None:
        if not self.by_line:
            raise ValueError("list at least one kick penalty")
        if any(not 0 <= p <= 12 for p in self.by_line):
            raise ValueError("kick penalties are 0..12 (a d12 game)")


@dataclass(frozen=True, slots=True)
class KeeperSpace:
    """A space near the goal and how much of his defence force a goalkeeper standing there
    loses. ``line`` counts lines from the goal line (0 on it), ``row`` as on the board."""

    line: int
    row: int
    reduction: int

    def __post_init__(self) -> None:
        if not 0 <= self.reduction <= 12:
            raise ValueError(f"a defence reduction is 0..12, got {self.reduction}")


@dataclass(frozen=True, slots=True)
class KeeperReductions:
    """The spaces near the goal with their reductions, and the reduction anywhere else."""

    spaces: tuple[KeeperSpace, ...]
    elsewhere: int
    placeholder: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.elsewhere <= 12:
            raise ValueError(f"the reduction elsewhere is 0..12, got {self.elsewhere}")
        seen = [(k.line, k.row) for k in self.spaces]
        if len(seen) != len(set(seen)):
            raise ValueError("a keeper space is listed twice")


@dataclass(frozen=True, slots=True)
class Pitch:
    name: str
    lines: int
    rows: int
    space_length_mm: float
    space_width_mm: float
    centre_circle: tuple[Space, ...]
    penalty_area: Rect          # Home's end; mirrored for Away's
    penalty_spot: Space         # "the area indicated for kicking" a penalty
    goal_space: Space           # where the goalkeeper stands in front of his goal
    corner_slots: tuple[Space, ...]
    kick_penalties: KickPenalties
    keeper: KeeperReductions
    margin: int = 1
    yellow_lines: Rect | None = None   # Futboard Street: the field's boundary
    placeholder: bool = False
    notes: str = ""

    def __post_init__(self) -> None:
        if self.lines < 4 or self.rows < 3:
            raise ValueError("the field needs at least 4 lines and 3 rows of spaces")
        if self.space_length_mm <= 0 or self.space_width_mm <= 0:
            raise ValueError("spaces need a positive size in millimetres")
        if not 0 <= self.margin <= 3:
            raise ValueError(f"margin is 0..3 rings of spaces outside the field, got {self.margin}")
        full = Rect(0, 0, self.lines - 1, self.rows - 1)
        named = [("penalty_spot", self.penalty_spot), ("goal_space", self.goal_space)]
        named += [("centre_circle", sq) for sq in self.centre_circle]
        named += [("corner_slots", sq) for sq in self.corner_slots]
        for what, sq in named:
            if tuple(sq) not in full:
                raise ValueError(f"{what}: space {tuple(sq)} is off the {self.lines} x {self.rows} field")
        if not self.centre_circle:
            raise ValueError("centre_circle: list the spaces inside the centre circle")
        if not self.corner_slots:
            raise ValueError("corner_slots: list at least one corner slot")
        area = self.penalty_area
        if area.col1 >= self.lines // 2 or area.row0 < 0 or area.row1 >= self.rows or area.col0 != 0:
            raise ValueError("penalty_area: a rectangle from the goal line (line 0), inside Home's half")
        if self.penalty_spot not in area or self.goal_space not in area:
            raise ValueError("penalty_spot and goal_space lie inside the penalty area")
        if len(self.kick_penalties.by_line) < self.lines - self.lines // 2:
            raise ValueError(f"kick_penalties: list one penalty for each of the {self.lines - self.lines // 2} "
                             f"lines a kick may be taken from (the attacking half)")
        for k in self.keeper.spaces:
            if not (0 <= k.line < self.lines and 0 <= k.row < self.rows):
                raise ValueError(f"keeper space ({k.line}, {k.row}) is off the field")
        if self.yellow_lines is not None:
            y = self.yellow_lines
            if y.col0 != 0 or y.col1 != self.lines - 1 or y.row0 < 0 or y.row1 >= self.rows:
                raise ValueError("yellow_lines: the Street field runs the whole length (goal line to goal line) "
                                 "and narrows only across")
            inner = [self.penalty_spot, self.goal_space, *self.centre_circle]
            inner += [(c, r) for c, r in ((area.col0, area.row0), (area.col0, area.row1))]
            if any(tuple(sq) not in y for sq in inner):
                raise ValueError("yellow_lines must enclose both penalty areas, the spots and the centre circle")

    # --- sizes and millimetres ------------------------------------------------------------
    @property
    def length_mm(self) -> float:
        return self.lines * self.space_length_mm

    @property
    def width_mm(self) -> float:
        return self.rows * self.space_width_mm

    def space_at(self, x_mm: float, y_mm: float) -> Space | None:
        """The space under a board point (the camera's contract), field or outside ring; None
        beyond the outside ring. A point on a line between two spaces counts in the higher."""
        sq = (math.floor(x_mm / self.space_length_mm), math.floor(y_mm / self.space_width_mm))
        return sq if self.on_board(sq) else None

    def centre_mm(self, sq: Space) -> tuple[float, float]:
        return ((sq[0] + 0.5) * self.space_length_mm, (sq[1] + 0.5) * self.space_width_mm)

    def distance_mm(self, a: Space, b: Space) -> float:
        """Centre to centre, as the ruler is laid: its 0 on one tile's centre, along to the other's."""
        ax, ay = self.centre_mm(a)
        bx, by = self.centre_mm(b)
        return math.hypot(bx - ax, by - ay)

    # --- which spaces exist -------------------------------------------------------------------
    def field(self, street: bool = False) -> Rect:
        """The spaces figures may stop on: the whole field, or inside the yellow lines."""
        if street and self.yellow_lines is not None:
            return self.yellow_lines
        return Rect(0, 0, self.lines - 1, self.rows - 1)

    def inside(self, sq: Space, street: bool = False) -> bool:
        return tuple(sq) in self.field(street)

    def on_board(self, sq: Space) -> bool:
        m = self.margin
        return -m <= sq[0] < self.lines + m and -m <= sq[1] < self.rows + m

    def board_squares(self) -> frozenset[Space]:
        """Every space ``on_board`` accepts (the field and its margin)."""
        m = self.margin
        return frozenset((c, r) for c in range(-m, self.lines + m) for r in range(-m, self.rows + m))

    def neighbours(self, sq: Space) -> Iterator[Space]:
        for dl, dr in _STEPS:
            nxt = (sq[0] + dl, sq[1] + dr)
            if self.on_board(nxt):
                yield nxt

    @staticmethod
    def adjacent(a: Space, b: Space) -> bool:
        return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1

    # --- halves and ends ----------------------------------------------------------------------
    def half(self, sq: Space) -> End | None:
        """Whose field a space is in: the low half is Home's. With an odd number of lines the
        middle line belongs to neither."""
        if sq[0] < self.lines // 2:
            return End.LOW
        if sq[0] >= self.lines - self.lines // 2:
            return End.HIGH
        return None

    def mirror(self, sq: Space) -> Space:
        return (self.lines - 1 - sq[0], sq[1])

    def at_end(self, sq: Space, end: End) -> Space:
        """A space given for Home's end, placed at ``end``."""
        return tuple(sq) if end is End.LOW else self.mirror(sq)

    def lines_from_goal(self, sq: Space, end: End) -> int:
        return sq[0] if end is End.LOW else self.lines - 1 - sq[0]

    def in_penalty_area(self, sq: Space | None, end: End) -> bool:
        if sq is None:
            return False
        return self.at_end(sq, end) in self.penalty_area  # mirroring is its own inverse

    def penalty_area_spaces(self, end: End) -> tuple[Space, ...]:
        return tuple(self.at_end(sq, end) for sq in self.penalty_area.squares())

    def spot(self, end: End) -> Space:
        return self.at_end(self.penalty_spot, end)

    def goal(self, end: End) -> Space:
        return self.at_end(self.goal_space, end)

    def corners(self, end: End) -> tuple[Space, ...]:
        return tuple(self.at_end(sq, end) for sq in self.corner_slots)

    def kick_penalty(self, sq: Space, end: End) -> int:
        """The printed penalty for a kick from ``sq`` at the goal of ``end``."""
        table = self.kick_penalties.by_line
        return table[min(self.lines_from_goal(sq, end), len(table) - 1)]

    def keeper_reduction(self, sq: Space, end: End) -> int:
        """How much defence force the goalkeeper defending ``end`` loses standing on ``sq``."""
        line, row = self.lines_from_goal(sq, end), sq[1]
        for k in self.keeper.spaces:
            if k.line == line and k.row == row:
                return k.reduction
        return self.keeper.elsewhere

    # --- for the tablet ------------------------------------------------------------------------
    def grid(self) -> GridBoard:
        """The field as the core's GridBoard (one square a space), for drawing and taps."""
        return _grid(self)


@functools.lru_cache(maxsize=8)
def _grid(p: Pitch) -> GridBoard:
    def rects(spaces) -> tuple[Rect, ...]:
        return tuple(Rect(c, r, c, r) for c, r in spaces)

    areas: dict[str, Area] = {}
    for end in End:
        lo, hi = p.at_end((p.penalty_area.col0, p.penalty_area.row0), end), p.at_end(
            (p.penalty_area.col1, p.penalty_area.row1), end)
        areas[f"penalty_area_{end.value}"] = Area("PS", (Rect(min(lo[0], hi[0]), lo[1], max(lo[0], hi[0]), hi[1]),),
                                                 placeholder=p.placeholder)
        areas[f"penalty_spot_{end.value}"] = Area("PS", rects([p.spot(end)]), placeholder=p.placeholder)
        areas[f"goal_space_{end.value}"] = Area("PS", rects([p.goal(end)]), placeholder=p.placeholder)
        areas[f"corner_slots_{end.value}"] = Area("PS", rects(p.corners(end)), placeholder=p.placeholder)
    areas["centre_circle"] = Area("PS", rects(p.centre_circle), placeholder=p.placeholder)
    if p.yellow_lines is not None:
        areas["yellow_lines"] = Area("PS", (p.yellow_lines,), placeholder=p.placeholder)
    return GridBoard(name=p.name, length_mm=p.length_mm, width_mm=p.width_mm, ps_cols=p.lines, ps_rows=p.rows,
                     ms_per_ps=1, areas=areas, placeholder=p.placeholder, notes=p.notes)
