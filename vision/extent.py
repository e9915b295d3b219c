"""What the camera must see of a table: the board, its off-pitch areas and the corner markers,
as board points (shared by the reader, the plane view and the synthetic camera)."""

from __future__ import annotations

import numpy as np

from companion.board import GridBoard

from .config import MarkerSet


def board_extent_mm(board: GridBoard, markers: MarkerSet) -> np.ndarray:
    """Board points (N, 3) mm the camera must see: the pitch, the off-pitch areas and the corner
    markers with a little room, on the board and at cap height."""
    L, W = board.length_mm, board.width_mm
    o = markers.corners.offset_mm + markers.corners.side_mm / 2 + 8
    rects = [r for a in board.areas.values() if a.grid == "mm" for r in a.mm]
    x_low, x_high = min([-o] + [r.x0 - 8 for r in rects]), max([L + o] + [r.x1 + 8 for r in rects])
    y_low, y_high = min([-o] + [r.y0 - 8 for r in rects]), max([W + o] + [r.y1 + 8 for r in rects])
    pts = [(x, y, 0.0) for x in (x_low, x_high) for y in (y_low, y_high)]
    return np.array(pts + [(x, y, markers.cap_height_mm) for x, y, _ in pts])
