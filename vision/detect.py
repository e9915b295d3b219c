"""Marker detection, tuned for small markers (20-30 px) on white caps.

:func:`detect` is a pure stage: ``(settings, gray image) -> detections``. It wraps OpenCV's
``ArucoDetector`` with parameters chosen for our caps (one adaptive-threshold window sized to a
marker instead of three, a lower minimum perimeter, finer bit sampling), can search only some
rectangles of the frame (``rois``: around where the figures were, and where something moved),
and refines corners to sub-pixel accuracy on the grey image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from .refine import _clockwise, fit_edges, read_bits

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive) in pixels


@dataclass(frozen=True, slots=True)
class Detection:
    """One decoded marker: its id and its corners (4, 2) in pixels, ArUco order (top-left,
    top-right, bottom-right, bottom-left of the printed marker)."""

    marker: int
    corners: np.ndarray = field(repr=False, compare=False)

    def __repr__(self) -> str:
        c = self.center
        return f"Detection(marker={self.marker}, center=({c[0]:.1f}, {c[1]:.1f}), side_px={self.side_px:.1f})"

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side_px(self) -> float:
        return float(np.mean(np.linalg.norm(self.corners - np.roll(self.corners, 1, axis=0), axis=1)))


@dataclass(frozen=True, slots=True)
class DetectorSettings:
    """ArUco parameters for our markers. ``window_px`` and ``window_max_px`` are the two
    adaptive-threshold windows (the small one parts a cap from the dark figure base beside it, the
    larger one two caps side by side); ``min_side_px`` is the smallest marker looked for;
    ``subpix`` fits the corners to the marker's edges."""

    dictionary: str = "DICT_4X4_50"
    window_px: int = 5
    window_max_px: int = 11
    threshold_c: float = 7.0
    min_side_px: float = 9.0
    max_side_px: float = 140.0
    pixels_per_cell: int = 6
    ignored_margin: float = 0.2
    subpix: bool = True
    error_correction: float = 0.6

    @classmethod
    def for_marker_px(cls, side_px: float, **kw) -> "DetectorSettings":
        """Settings for markers of about ``side_px``: a small threshold window keeps a 20 px
        marker apart from the dark figure base beside it; larger markers need a larger one."""
        window = int(np.clip(round(side_px / 4), 5, 21)) | 1
        return cls(window_px=window, window_max_px=window + 6, **kw)

    def parameters(self, frame_max_side: int) -> cv2.aruco.DetectorParameters:
        p = cv2.aruco.DetectorParameters()
        p.adaptiveThreshWinSizeMin = self.window_px
        p.adaptiveThreshWinSizeMax = max(self.window_px, self.window_max_px)
        p.adaptiveThreshWinSizeStep = max(2, self.window_max_px - self.window_px)
        p.adaptiveThreshConstant = self.threshold_c
        p.minMarkerPerimeterRate = 4 * self.min_side_px / frame_max_side
        p.maxMarkerPerimeterRate = 4 * self.max_side_px / frame_max_side
        p.polygonalApproxAccuracyRate = 0.05
        p.minCornerDistanceRate = 0.1
        p.minDistanceToBorder = 1
        p.minMarkerDistanceRate = 0.05
        p.perspectiveRemovePixelPerCell = self.pixels_per_cell
        p.perspectiveRemoveIgnoredMarginPerCell = self.ignored_margin
        p.errorCorrectionRate = self.error_correction
        p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        return p


@lru_cache(maxsize=16)
def _detector(settings: DetectorSettings, frame_max_side: int) -> cv2.aruco.ArucoDetector:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, settings.dictionary))
    return cv2.aruco.ArucoDetector(d, settings.parameters(frame_max_side))


def default_detector(dictionary: str = "DICT_4X4_50") -> cv2.aruco.ArucoDetector:
    """Plain OpenCV with default parameters: the benchmark's reference."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.ArucoDetector(d, cv2.aruco.DetectorParameters())


def to_gray(image: np.ndarray) -> np.ndarray:
    """BGR (H, W, 3) or grey (H, W) uint8 -> grey (H, W) uint8."""
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect(settings: DetectorSettings, gray: np.ndarray, rois: list[Rect] | None = None) -> list[Detection]:
    """Markers in a grey frame (H, W) uint8, searching the whole frame or only ``rois``
    (rectangles in frame pixels; overlapping finds are merged). Returns detections in frame
    pixels, sorted by id; an id may appear twice (two markers with one id are a conflict)."""
    if rois is None:
        rois = [(0, 0, gray.shape[1], gray.shape[0])]
    quads: list[np.ndarray] = []
    clipped = []
    for x0, y0, x1, y1 in rois:
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(gray.shape[1], int(x1)), min(gray.shape[0], int(y1))
        if x1 - x0 >= 2 * settings.min_side_px and y1 - y0 >= 2 * settings.min_side_px:
            clipped.append((x0, y0, x1, y1))
    # OpenCV's detector costs about as much per call as a 300 x 300 patch: rectangles go into
    # one mosaic unless they cover most of the frame anyway
    area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in clipped)
    if len(clipped) > 1 and area < MOSAIC_MAX_SHARE * gray.shape[0] * gray.shape[1]:
        small, large = clipped, []
    else:
        small, large = [], clipped
    for x0, y0, x1, y1 in large:
        det = _detector(settings, max(x1 - x0, y1 - y0))
        corners, _, rejected = det.detectMarkers(gray[y0:y1, x0:x1])
        offset = np.array([x0, y0], np.float64)
        quads += [np.asarray(c, np.float64).reshape(4, 2) + offset for c in (*corners, *rejected)]
    if small:
        quads += _detect_mosaic(settings, gray, small)
    if not quads:
        return []
    # every candidate, accepted or rejected by OpenCV, is refined and read once, in one batch
    q = _clockwise(np.stack(quads))
    sides = np.linalg.norm(q - np.roll(q, 1, axis=1), axis=2)
    q = q[(sides.min(axis=1) >= settings.min_side_px * 0.7) & (sides.max(axis=1) <= settings.max_side_px)]
    if settings.subpix:
        q, _ = fit_edges(gray, q)
    marker_ids, turned = read_bits(gray, q, settings.dictionary)
    found = [(int(m), c.astype(np.float32)) for m, c in zip(marker_ids, turned) if m >= 0]
    return sorted(_merge(found), key=lambda d: d.marker)


MOSAIC_MAX_SHARE = 0.6
MOSAIC_WIDTH = 1280
_GAP = 4


def _detect_mosaic(settings: DetectorSettings, gray: np.ndarray, rois: list[Rect]) -> list[np.ndarray]:
    """Candidate quads (frame pixels) from many small rectangles pasted side by side, with white
    gaps, into one image: OpenCV's detector has a fixed cost per call that dwarfs a small patch."""
    shelves: list[tuple[int, int, int, int, Rect]] = []  # canvas x, y, w, h, frame rect
    b = _GAP // 2
    x = y = b
    shelf_h = 0
    for r in sorted(rois, key=lambda r: r[3] - r[1], reverse=True):
        w, h = r[2] - r[0], r[3] - r[1]
        if x + w > max(MOSAIC_WIDTH, w) and x > b:
            x, y, shelf_h = b, y + shelf_h + _GAP, 0
        shelves.append((x, y, w, h, r))
        x += w + _GAP
        shelf_h = max(shelf_h, h)
    canvas = np.full((y + shelf_h + b, max(cx + w for cx, _, w, _, _ in shelves) + b), 255, np.uint8)
    for cx, cy, w, h, (x0, y0, x1, y1) in shelves:
        # each tile's edge pixels are stretched into the gap around it: a white or grey gap
        # would outline every tile with a dark frame, a candidate quad for the detector to reject
        tile = cv2.copyMakeBorder(gray[y0:y1, x0:x1], b, b, b, b, cv2.BORDER_REPLICATE)
        canvas[cy - b:cy + h + b, cx - b:cx + w + b] = tile
    det = _detector(settings, max(canvas.shape))
    corners, _, rejected = det.detectMarkers(canvas)
    found = [*corners, *rejected]
    if not found:
        return []
    q = np.asarray(found, np.float64).reshape(-1, 4, 2)
    tiles = np.array([(cx, cy, cx + w, cy + h, x0 - cx, y0 - cy) for cx, cy, w, h, (x0, y0, _, _) in shelves], float)
    lo, hi = q.min(axis=1), q.max(axis=1)  # (N, 2)
    inside = ((lo[:, None, 0] >= tiles[None, :, 0]) & (lo[:, None, 1] >= tiles[None, :, 1])
              & (hi[:, None, 0] < tiles[None, :, 2]) & (hi[:, None, 1] < tiles[None, :, 3]))
    keep = inside.any(axis=1)  # a quad cut by a tile's edge is no marker
    tile = np.argmax(inside, axis=1)[keep]
    return list(q[keep] + tiles[tile][:, None, 4:6])


def _merge(found: list[tuple[int, np.ndarray]]) -> list[Detection]:
    """One detection per physical marker: finds of one id whose centres lie within half a side
    of each other (overlapping search rectangles) are the same marker."""
    out: list[Detection] = []
    for marker, corners in found:
        c = corners.mean(axis=0)
        side = float(np.linalg.norm(corners[0] - corners[1]))
        if any(d.marker == marker and np.linalg.norm(d.center - c) < side / 2 for d in out):
            continue
        out.append(Detection(marker, corners))
    return out


def detect_default(gray: np.ndarray, dictionary: str = "DICT_4X4_50") -> list[Detection]:
    """Plain OpenCV with its default parameters, for comparison."""
    corners, ids, _ = default_detector(dictionary).detectMarkers(gray)
    if ids is None:
        return []
    return sorted((Detection(int(m), np.array(c, np.float32).reshape(4, 2)) for m, c in zip(ids.ravel(), corners)),
                  key=lambda d: d.marker)
