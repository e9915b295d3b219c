"""Debug images: what each stage saw, drawn over the frame.

- :func:`draw_detections`: decoded markers with their ids and top edges;
- :func:`draw_grid`: the calibrated pitch outline and pass-square grid on the board plane;
- :func:`draw_result`: all of it, plus each figure's movement square and conflicts.
"""

from __future__ import annotations

import cv2
import numpy as np

from .detect import Detection
from .locate import FrameResult, VisionSetup

GREEN, RED, YELLOW, CYAN, WHITE = (60, 220, 60), (40, 40, 240), (0, 220, 255), (255, 220, 0), (255, 255, 255)


def _as_bgr(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()


def _poly(img: np.ndarray, pts: np.ndarray, color, thickness: int = 1, closed: bool = True) -> None:
    p = np.round(np.asarray(pts, float) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [p], closed, color, thickness, cv2.LINE_AA, shift=4)


def draw_detections(image: np.ndarray, detections: list[Detection] | tuple[Detection, ...]) -> np.ndarray:
    """Frame (H, W[, 3]) -> BGR copy with every decoded marker outlined, its top edge thick."""
    img = _as_bgr(image)
    for d in detections:
        _poly(img, d.corners, GREEN)
        _poly(img, d.corners[:2], YELLOW, 2, closed=False)
        c = d.corners.max(axis=0)
        cv2.putText(img, str(d.marker), (int(c[0]) + 2, int(c[1])), cv2.FONT_HERSHEY_SIMPLEX, 0.4, CYAN, 1, cv2.LINE_AA)
    return img


def _board_to_px(setup: VisionSetup, xy: np.ndarray, z: float = 0.0) -> np.ndarray:
    pts = np.column_stack([np.asarray(xy, float).reshape(-1, 2), np.full(len(np.asarray(xy).reshape(-1, 2)), z)])
    return setup.camera.project(pts)


def draw_grid(image: np.ndarray, setup: VisionSetup) -> np.ndarray:
    """Frame -> BGR copy with the pitch outline and the pass-square grid as the calibration sees them."""
    img = _as_bgr(image)
    b = setup.board
    L, W = b.length_mm, b.width_mm
    pw, ph = b.ps_size_mm
    for c in range(b.ps_cols + 1):
        line = np.array([[c * pw, y] for y in np.linspace(0, W, 9)])
        _poly(img, _board_to_px(setup, line), WHITE if c in (0, b.ps_cols) else CYAN, 1, closed=False)
    for r in range(b.ps_rows + 1):
        line = np.array([[x, r * ph] for x in np.linspace(0, L, 13)])
        _poly(img, _board_to_px(setup, line), WHITE if r in (0, b.ps_rows) else CYAN, 1, closed=False)
    return img


def draw_result(image: np.ndarray, setup: VisionSetup, result: FrameResult) -> np.ndarray:
    """Frame -> BGR copy with the grid, the markers, each figure's movement square (green, the
    ball's yellow) and conflicts (red)."""
    img = draw_detections(draw_grid(image, setup), result.detections)
    w, h = setup.board.ms_size_mm
    for s in list(result.figures) + ([result.ball] if result.ball else []):
        if s.square is not None:
            x0, y0 = s.square[0] * w, s.square[1] * h
            sq = np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]])
            _poly(img, _board_to_px(setup, sq), YELLOW if s.is_ball else GREEN, 2)
        foot = _board_to_px(setup, np.array([[s.x_mm, s.y_mm]]))[0]
        cv2.circle(img, (int(round(foot[0])), int(round(foot[1]))), 3, YELLOW if s.is_ball else GREEN, -1)
        label = "ball" if s.player is None else str(s.player)
        cv2.putText(img, label, (int(foot[0]) + 4, int(foot[1]) + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, WHITE, 1,
                    cv2.LINE_AA)
    for c in result.conflicts:
        for x, y in c.at_mm:
            p = _board_to_px(setup, np.array([[x, y]]), setup.markers.height_of(c.marker))[0]
            cv2.circle(img, (int(p[0]), int(p[1])), 14, RED, 2)
    return img
