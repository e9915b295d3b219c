"""The Fußball-Liga board as printed: the square grid with its goals, areas, marks and
kick-off squares, in the rules' millimetres (pure Python)."""

from __future__ import annotations

import math
from collections.abc import Callable

from companion.fussball_liga.pitch import Pitch

from ..base import WHITE, RectGeometry, Shape

GRASS = ((0.17, 0.5, 0.23, 1), (0.2, 0.55, 0.26, 1))
RING = (0.1, 0.3, 0.14, 1)
GRID = (1, 1, 1, 0.16)
NET = (0.93, 0.93, 0.93, 0.85)
DARK = (0.1, 0.1, 0.1, 1)


def _arc(cx: float, cy: float, r: float, keep: Callable[[float, float], bool], n: int = 48) -> list[Shape]:
    """A circle of radius ``r`` as line runs, only where ``keep(x, y)`` (a penalty arc
    outside its area)."""
    runs: list[list[float]] = [[]]
    for i in range(n + 1):
        a = 2 * math.pi * i / n
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        if keep(x, y):
            runs[-1].extend((x, y))
        elif runs[-1]:
            runs.append([])
    return [Shape("line", WHITE, tuple(run), 1.2) for run in runs if len(run) >= 4]


def board_shapes(p: Pitch) -> list[Shape]:
    """The board as printed, in the rules' millimetres (the field from 0, 0)."""
    s = p.square_mm
    L, W = p.length_mm, p.width_mm
    out = [Shape("fill", RING, (-s, -s, L + s, W + s))]
    # Stripes of two columns, and the square grid the figures stand on.
    for col in range(p.cols):
        out.append(Shape("fill", GRASS[(col // 2) % 2], (col * s, 0, (col + 1) * s, W)))
    for col in range(-1, p.cols + 2):
        out.append(Shape("line", GRID, (col * s, -s, col * s, W + s), 1))
    for row in range(-1, p.rows + 2):
        out.append(Shape("line", GRID, (-s, row * s, L + s, row * s), 1))
    out.append(Shape("outline", WHITE, (0, 0, L, W), 1.8))
    half = p.halfway_col * s
    out.append(Shape("line", WHITE, (half, 0, half, W), 1.5))
    cx, cy = p.centre[0] * s, p.centre[1] * s
    out.extend(_arc(cx, cy, p.centre_circle_radius * s, lambda x, y: True))
    out.append(Shape("fill", WHITE, (cx - 2, cy - 2, cx + 2, cy + 2)))
    for end, areas in p.ends.items():
        for rects, width in ((areas.penalty_area, 1.5), (areas.goal_area, 1.3)):
            for r in rects:
                out.append(Shape("outline", WHITE, (r.col0 * s, r.row0 * s, (r.col1 + 1) * s, (r.row1 + 1) * s),
                                 width))
        # The penalty mark: on the grid point the two kicker's squares touch, goal side.
        cols = {sq[0] for sq in areas.penalty_squares}
        mx = (min(cols) if end == "low" else max(cols) + 1) * s
        my = max(sq[1] for sq in areas.penalty_squares) * s
        out.append(Shape("fill", WHITE, (mx - 2, my - 2, mx + 2, my + 2)))
        edge = (max(r.col1 for r in areas.penalty_area) + 1) * s if end == "low" else \
            min(r.col0 for r in areas.penalty_area) * s
        outside = (lambda x, y, e=edge: x > e) if end == "low" else (lambda x, y, e=edge: x < e)
        out.extend(_arc(mx, my, 3.0 * s, outside))
        for sq in areas.goal:
            out.append(Shape("fill", NET, (sq[0] * s + 1, sq[1] * s + 1, (sq[0] + 1) * s - 1, (sq[1] + 1) * s - 1)))
        for number, sq in areas.goal_numbers.items():
            out.append(Shape("text", DARK, ((sq[0] + 0.5) * s, (sq[1] + 0.5) * s), 0.55 * s, str(number)))
        for sq in areas.corners:
            # A quarter circle in the field's corner: the corner area.
            kx = 0 if sq[0] == 0 else L
            ky = 0 if sq[1] == 0 else W
            out.extend(_arc(kx, ky, 0.45 * s, lambda x, y: 0 <= x <= L and 0 <= y <= W, 24))
        # The end's name in the ring below the touch line, three squares in from its goal line:
        # the ring strip is as tall as a square and has room for it (beside the goal, a square
        # wide, the label ran over the goal line and the pitch's edge).
        gx = 3 * s if end == "low" else L - 3 * s
        out.append(Shape("fill", RING, (gx - 2.5 * s, -0.95 * s, gx + 2.5 * s, -0.1 * s)))   # under the touch line
        out.append(Shape("text", WHITE, (gx, -0.5 * s), 0.6 * s, f"{end} goal"))
    for end, squares in p.kick_off_squares.items():
        for sq in squares:   # where the kicker stands at a kick-off
            out.append(Shape("outline", (1, 1, 1, 0.45), (sq[0] * s + 2, sq[1] * s + 2, (sq[0] + 1) * s - 2,
                                                            (sq[1] + 1) * s - 2), 1))
    return out


def geometry_of(p: Pitch) -> RectGeometry:
    return RectGeometry(p.length_mm, p.width_mm, p.cols, p.rows, board_shapes(p), margin=1, radius=0.44)

