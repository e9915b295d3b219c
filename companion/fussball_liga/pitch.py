"""The Fußball-Liga board: a grid of squares with goals, areas and marks, and the
contract with the camera (board millimetres -> squares).

Coordinates: x runs along the pitch length from the "low" goal line (x = 0), y across it
from the touch line at y = 0, right-handed seen from above. A square is ``(col, row)``:
``col`` counts along x, ``row`` along y, from 0. The playing field is cols 0..cols-1 and
rows 0..rows-1; one ring of squares lies outside it (col -1 and cols, row -1 and rows):
the throw-in squares beyond the touch lines and, behind each goal line, the 6 goal
squares. The board's drawing is not in the rulebook text, so every value here is data
(``data/pitch.json``) with placeholders flagged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

from ..board import Rect, Square

STEPS: tuple[Square, ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ENDS = ("low", "high")


def dist(a: Square, b: Square) -> int:
    """Squares between two squares; a diagonal step counts 1 like any other (rulebook:
    "Distances are always measured in squares, ignoring the fact that a diagonal movement
    is actually longer")."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Square, b: Square) -> bool:
    return dist(a, b) == 1


def neighbours(sq: Square) -> Iterator[Square]:
    for dc, dr in STEPS:
        yield (sq[0] + dc, sq[1] + dr)


def straight_path(a: Square, b: Square) -> tuple[Square, ...] | None:
    """The squares a ball crosses from ``a`` to ``b`` along a row, a column or a diagonal
    (``a`` left out, ``b`` included), or None when ``b`` is on none of them."""
    dc, dr = b[0] - a[0], b[1] - a[1]
    if (dc, dr) == (0, 0) or not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
        return None
    n = max(abs(dc), abs(dr))
    sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
    return tuple((a[0] + sc * k, a[1] + sr * k) for k in range(1, n + 1))


def lofted_path(a: Square, b: Square) -> tuple[Square, ...]:
    """A corner kick into the penalty area need not follow a row: its path is the squares
    nearest the straight line, one per step (as many steps as the distance)."""
    straight = straight_path(a, b)
    if straight is not None:
        return straight
    dc, dr = b[0] - a[0], b[1] - a[1]
    n = max(abs(dc), abs(dr))
    return tuple((a[0] + _round(k * dc / n), a[1] + _round(k * dr / n)) for k in range(1, n + 1))


def _round(x: float) -> int:
    return int(math.floor(x + 0.5))


@dataclass(frozen=True, slots=True)
class EndAreas:
    """What is drawn at one end of the board. ``goal`` holds the 6 squares behind the goal
    line; ``goal_numbers`` the goal squares numbered 1 to 4 (the goalkeeper's places at a
    penalty kick); ``penalty_squares`` the two squares behind and next to the penalty mark."""

    goal: tuple[Square, ...]
    goal_numbers: dict[int, Square]
    goal_area: tuple[Rect, ...]
    penalty_area: tuple[Rect, ...]
    penalty_circle: tuple[Square, ...]
    penalty_squares: tuple[Square, ...]
    corners: tuple[Square, ...]

    def __post_init__(self) -> None:
        if len(set(self.goal)) != 6:
            raise ValueError(f"a goal has 6 squares behind the goal line, got {len(set(self.goal))}")
        if sorted(self.goal_numbers) != [1, 2, 3, 4]:
            raise ValueError("goal squares numbered 1 to 4 are needed for penalty kicks")
        if any(sq not in self.goal for sq in self.goal_numbers.values()):
            raise ValueError("every numbered goal square must be one of the goal's 6 squares")
        if sum(1 for r in self.goal_area for _ in r.squares()) != 6:
            raise ValueError("a goal area has 6 squares")
        if len(self.penalty_squares) != 2:
            raise ValueError("two squares lie behind and next to the penalty mark")
        if len(self.corners) != 2:
            raise ValueError("each end has two corner areas")

    def in_goal_area(self, sq: Square) -> bool:
        return any(sq in r for r in self.goal_area)

    def in_penalty_area(self, sq: Square) -> bool:
        return any(sq in r for r in self.penalty_area)


@dataclass(frozen=True, slots=True)
class Pitch:
    name: str
    cols: int
    rows: int
    square_mm: float
    halfway_col: int                    # squares with col < halfway_col are in the low half
    centre: tuple[float, float]         # the centre mark, in squares (a grid point)
    centre_circle_radius: float         # in squares
    kick_off_squares: dict[str, tuple[Square, ...]]  # per half ("low", "high"): the two squares touching the ball
    ends: dict[str, EndAreas]
    placeholder: bool = False
    notes: str = ""

    def __post_init__(self) -> None:
        if self.cols < 8 or self.rows < 8:
            raise ValueError(f"a pitch of {self.cols} x {self.rows} squares is too small")
        if self.square_mm <= 0:
            raise ValueError("square_mm must be positive")
        if not 0 < self.halfway_col < self.cols:
            raise ValueError("halfway_col must split the field")
        if sorted(self.ends) != sorted(ENDS) or sorted(self.kick_off_squares) != sorted(ENDS):
            raise ValueError("ends and kick_off_squares need a 'low' and a 'high' entry")
        for end, areas in self.ends.items():
            line = -1 if end == "low" else self.cols
            if any(sq[0] != line or not 0 <= sq[1] < self.rows for sq in areas.goal):
                raise ValueError(f"the {end} goal's squares lie in column {line}, behind the goal line")
            for sq in [s for r in areas.goal_area + areas.penalty_area for s in r.squares()] + list(
                    areas.penalty_circle + areas.penalty_squares + areas.corners):
                if not self.in_field(sq):
                    raise ValueError(f"the {end} end's area square {sq} lies off the field")
            for sq in areas.penalty_squares + areas.corners + tuple(s for r in areas.goal_area for s in r.squares()):
                if self.half_of(sq) != end:
                    raise ValueError(f"square {sq} of the {end} end lies in the other half")
        for end, squares in self.kick_off_squares.items():
            if len(squares) != 2 or any(not self.in_field(sq) or self.half_of(sq) != end for sq in squares):
                raise ValueError(f"the {end} half needs two kick-off squares inside it")

    # --- millimetres <-> squares (the camera's contract) ----------------------------------
    @property
    def length_mm(self) -> float:
        return self.cols * self.square_mm

    @property
    def width_mm(self) -> float:
        return self.rows * self.square_mm

    def square_at(self, x_mm: float, y_mm: float) -> Square | None:
        """The square under a board point: a field square, a square of the ring outside the
        field (throw-in squares, goal squares), or None further out."""
        col = math.floor(x_mm / self.square_mm)
        row = math.floor(y_mm / self.square_mm)
        # A point exactly on the far line belongs to the field.
        if x_mm == self.length_mm:
            col = self.cols - 1
        if y_mm == self.width_mm:
            row = self.rows - 1
        sq = (col, row)
        return sq if self.on_board(sq) else None

    def centre_mm(self, sq: Square) -> tuple[float, float]:
        if not self.on_board(sq):
            raise ValueError(f"square {sq} is off the board")
        return ((sq[0] + 0.5) * self.square_mm, (sq[1] + 0.5) * self.square_mm)

    # --- squares ------------------------------------------------------------------------------
    def in_field(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.cols and 0 <= sq[1] < self.rows

    def on_board(self, sq: Square) -> bool:
        return -1 <= sq[0] <= self.cols and -1 <= sq[1] <= self.rows

    def board_squares(self) -> frozenset[Square]:
        """Every square ``on_board`` accepts (the field and its outer ring)."""
        return frozenset((c, r) for c in range(-1, self.cols + 1) for r in range(-1, self.rows + 1))

    def goal_end(self, sq: Square) -> str | None:
        """'low' or 'high' for a goal square, else None."""
        for end, areas in self.ends.items():
            if sq in areas.goal:
                return end
        return None

    def half_of(self, sq: Square) -> str:
        return "low" if sq[0] < self.halfway_col else "high"

    def goal_line_col(self, end: str) -> int:
        """The first column beyond the goal line (where the goal squares are)."""
        return -1 if end == "low" else self.cols

    def towards(self, end: str) -> int:
        """+1 when moving towards ``end`` increases the column."""
        return -1 if end == "low" else 1

    def depth(self, sq: Square, end: str) -> int:
        """Columns between a square and ``end``'s goal line (0 on the first column)."""
        return sq[0] if end == "low" else self.cols - 1 - sq[0]

    def in_centre_circle(self, sq: Square) -> bool:
        """Inside the centre circle or touched by it: the square's nearest point to the
        centre mark lies within the radius."""
        cx, cy = self.centre
        nx = min(max(cx, sq[0]), sq[0] + 1)
        ny = min(max(cy, sq[1]), sq[1] + 1)
        return math.hypot(nx - cx, ny - cy) <= self.centre_circle_radius

    def field_squares(self) -> Iterator[Square]:
        for c in range(self.cols):
            for r in range(self.rows):
                yield (c, r)
