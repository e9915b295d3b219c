"""The board seen from straight above: candidates for small and oblique markers.

A camera tilted 30 degrees sees the caps on its far side foreshortened and a third smaller than
those near it, and a 9 mm marker is 10 px across at 1080p: no one threshold window suits them
all, and OpenCV's contour search loses the smallest. Here the frame is first resampled onto the
plane of the caps (the camera model maps each board point at cap height to the frame), at a
fixed number of pixels per marker: every cap becomes a square of the same size whatever the
tilt or the camera's distance, small markers are enlarged and large ones reduced, so one
threshold window fits all. Candidates found there are mapped back to the frame and refined and
read at the frame's full resolution (:func:`vision.detect.read_quads`).

:func:`plane_view` builds the resampling once per camera (cached); :func:`find_markers` is the
stage ``(setup, gray frame) -> detections`` (:func:`search_plane` also hands back the view and
its image, which the rescue stage reduces for its own search); :func:`draw_plane` its debug image.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.camera import CameraModel
from companion.board import GridBoard

from .config import MarkerSet
from .detect import Detection, DetectorSettings, contour_quads, read_quads
from .extent import board_extent_mm
from .reduce import reduce_frame
from .refine import sample_points

_STEP = 8  # view pixels between exactly projected grid points (bilinear in between)


@dataclass(frozen=True, slots=True)
class PlaneSettings:
    """How the plane view is searched. ``marker_px``: pixels a marker's side gets in the view
    (14: every cap of the tuning scenes was a candidate at 14, not at 12 or 13); ``window_px`` the
    adaptive-threshold window in view pixels; ``min_side_px`` the least side (frame pixels) of a
    candidate worth reading; ``frame_shrink_from``: when the frame's markers are this many times
    ``marker_px`` or more (4K), the view is resampled from the frame reduced by an integer factor
    (area average; the largest that keeps them ``shrink_keep`` times ``marker_px``) instead of
    the full frame, which would alias; ``max_view_px`` bounds the view's size (and time) for
    very small markers, which then get fewer pixels than ``marker_px``. ``blobs`` (off by
    default: it costs about half again the time): what the contours missed is looked for as dark
    squares of a marker's size, darker than around them by ``blob_contrast`` grey levels and
    holding ``blob_range`` grey levels between black and white (at most ``max_blobs``)."""

    marker_px: float = 14.0
    window_px: int = 5
    threshold_c: float = 10.0
    min_side_px: float = 5.0
    frame_shrink_from: float = 2.2
    shrink_keep: float = 1.2
    max_view_px: int = 1_500_000
    blobs: bool = False
    blob_contrast: int = 25
    blob_range: int = 80
    max_blobs: int = 60


def resample(gray: np.ndarray, shrink: int, maps: tuple[np.ndarray, np.ndarray],
             reduced: dict | None = None) -> np.ndarray:
    """Grey frame (H, W) uint8 -> a view (height, width) uint8 through its remap tables
    ``maps``, from the frame reduced ``shrink`` times (:func:`reduce_frame`, with ``reduced``)."""
    return cv2.remap(reduce_frame(gray, shrink, reduced), maps[0], maps[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


@dataclass(frozen=True, eq=False)
class PlaneView:
    """The board plane at ``z_mm`` seen from above: view pixel (col, row) is the board point
    (``x0_mm + col * mm_per_px``, ``y1_mm - row * mm_per_px``, ``z_mm``). ``maps`` are the remap
    tables (height, width) float32 into the frame reduced ``shrink`` times."""

    camera: CameraModel = field(repr=False)
    z_mm: float
    mm_per_px: float
    x0_mm: float
    y1_mm: float
    width: int
    height: int
    shrink: int = 1
    maps: tuple[np.ndarray, np.ndarray] = field(default=(), repr=False)

    def board_points(self, view_px: np.ndarray) -> np.ndarray:
        """View pixels (..., 2) -> board points (..., 3) mm at the view's height."""
        p = np.asarray(view_px, np.float64)
        return np.stack([self.x0_mm + p[..., 0] * self.mm_per_px, self.y1_mm - p[..., 1] * self.mm_per_px,
                         np.full(p.shape[:-1], self.z_mm)], axis=-1)

    def to_frame(self, view_px: np.ndarray) -> np.ndarray:
        """View pixels (..., 2) -> full-resolution frame pixels (..., 2)."""
        p = np.asarray(view_px, np.float64)
        return self.camera.project(self.board_points(p).reshape(-1, 3)).reshape(p.shape)

    def rectify(self, gray: np.ndarray) -> np.ndarray:
        """Grey frame (H, W) uint8 at the camera's resolution -> the view (height, width) uint8."""
        return resample(gray, self.shrink, self.maps)


def view_extent_mm(camera: CameraModel, board: GridBoard, markers: MarkerSet, z_mm: float) -> tuple[float, ...]:
    """(x0, y0, x1, y1) mm on the plane at ``z_mm`` that holds everything the reader looks at:
    the board's extent (pitch, off-pitch areas, corner markers) on the board and at cap height,
    as the camera's rays meet that plane."""
    ext = board_extent_mm(board, markers)
    on_plane = camera.to_plane(camera.project(ext), z_mm)
    pts = np.vstack([ext[:, :2], on_plane[np.isfinite(on_plane).all(axis=1)]])
    return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))


_views: dict[tuple, tuple[GridBoard, PlaneView]] = {}


def plane_view(camera: CameraModel, board: GridBoard, markers: MarkerSet,
               settings: PlaneSettings = PlaneSettings()) -> PlaneView:
    """The view of the caps' plane for a camera (cached per camera, board, markers, settings)."""
    key = (camera, id(board), markers, settings)
    if key not in _views:
        if len(_views) >= 8:
            _views.clear()
        # the board is kept with its view, so that its id is not reused by another board
        _views[key] = (board, _plane_view(camera, board, markers, settings))
    return _views[key][1]


def _plane_view(camera: CameraModel, board: GridBoard, markers: MarkerSet, settings: PlaneSettings) -> PlaneView:
    z = markers.cap_height_mm
    x0, y0, x1, y1 = view_extent_mm(camera, board, markers, z)
    mm_per_px = max(markers.figure_marker_mm / settings.marker_px, float(np.sqrt((x1 - x0) * (y1 - y0) / settings.max_view_px)))
    width, height = int(np.ceil((x1 - x0) / mm_per_px)) + 1, int(np.ceil((y1 - y0) / mm_per_px)) + 1
    # a frame whose markers are far larger than the view's (4K) is reduced first, by the largest
    # whole factor that keeps them a little larger than the view's: sampling it whole would alias
    ratio = camera.pixels_per_mm((x0 + x1) / 2, (y0 + y1) / 2, z) * mm_per_px
    shrink = max(1, int(ratio / settings.shrink_keep)) if ratio >= settings.frame_shrink_from else 1
    view = PlaneView(camera, z, mm_per_px, x0, y1, width, height, shrink)
    # the frame position of every view pixel: exact on a grid every _STEP pixels (one step beyond
    # the view on each side), bilinear in between; cv2.resize puts coarse point j at fine
    # coordinate j * step + (step - 1) / 2, which the grid's positions are chosen to match
    n_x, n_y = -(-width // _STEP) + 2, -(-height // _STEP) + 2
    gx = (np.arange(n_x) - 1) * _STEP + (_STEP - 1) / 2
    gy = (np.arange(n_y) - 1) * _STEP + (_STEP - 1) / 2
    GX, GY = np.meshgrid(gx, gy)
    px = view.to_frame(np.stack([GX, GY], axis=-1))  # (n_y, n_x, 2)
    px = (px + 0.5) / shrink - 0.5
    px[~np.isfinite(px)] = -1e4
    fine = [cv2.resize(px[..., i].astype(np.float32), (n_x * _STEP, n_y * _STEP), interpolation=cv2.INTER_LINEAR)
            [_STEP:_STEP + height, _STEP:_STEP + width] for i in (0, 1)]
    # float tables: OpenCV 5 remaps with them in two thirds of the time of its fixed-point ones
    # (1.9 against 2.9 ms at 1080p on one thread); the grey levels differ by a rounding, and the
    # 80 tuning frames of benchmarks/vision_wide.py read exactly the same figures with either
    maps = (np.clip(fine[0], -1e4, 3e4), np.clip(fine[1], -1e4, 3e4))
    return replace(view, maps=maps)


def view_settings(settings: PlaneSettings, view: PlaneView, markers: MarkerSet) -> DetectorSettings:
    """OpenCV's candidate search in the view: the threshold window, and sides from a little
    under a marker's (a marker at the ball's height is seen a little smaller) to the corner
    markers' (at the board's height) and then some."""
    largest = max(markers.corners.side_mm, markers.figure_marker_mm, markers.ball_marker_mm) / view.mm_per_px
    return DetectorSettings(dictionary=markers.dictionary, window_px=settings.window_px,
                            window_max_px=settings.window_px, threshold_c=settings.threshold_c,
                            min_side_px=0.55 * markers.figure_marker_mm / view.mm_per_px, max_side_px=1.5 * largest)


def view_candidates(settings: PlaneSettings, view: PlaneView, markers: MarkerSet,
                    image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Candidate quads (N, 4, 2) in view pixels from the plane view ``image`` (height, width)
    uint8, and alternates (M, 4, 2), smaller outlines of the same things to try where those do
    not read (:func:`vision.detect.contour_quads`). They are read at full resolution in the
    frame, so OpenCV's reading of them would be thrown away: only its candidate stage is run."""
    return contour_quads(view_settings(settings, view, markers), image)


def find_markers(setup, gray: np.ndarray) -> list[Detection]:
    """The markers of a grey frame (H, W) uint8 (``setup``: a :class:`vision.locate.VisionSetup`):
    candidates from the plane view, read in the frame. Sorted by id."""
    return _find(setup, gray)[0]


def search_plane(setup, gray: np.ndarray) -> tuple[list[Detection], PlaneView, np.ndarray]:
    """:func:`find_markers`, with the view searched and its image (height, width) uint8."""
    found, view, image, _ = _find(setup, gray)
    return found, view, image


def _find(setup, gray: np.ndarray) -> tuple[list[Detection], PlaneView, np.ndarray, np.ndarray]:
    """Detections, the view, its image and every candidate quad (N, 4, 2) in view pixels."""
    settings = setup.plane
    view = plane_view(setup.camera, setup.board, setup.markers, settings)
    image = view.rectify(gray)
    quads, alternates = view_candidates(settings, view, setup.markers, image)
    frame_settings = replace(setup.detector, min_side_px=settings.min_side_px)
    found = read_quads(frame_settings, gray, view.to_frame(quads), prefer_clean=True) if len(quads) else []
    if len(alternates):  # where a group's largest outline did not read, its smaller ones
        more = read_quads(frame_settings, gray, view.to_frame(alternates), found, prefer_clean=True)
        if more:
            found = sorted(found + more, key=lambda d: d.marker)
        quads = np.concatenate([quads, alternates])
    if settings.blobs:
        # what OpenCV's contours missed (a blurred or foreshortened marker whose outline is not a
        # clean quadrilateral) is looked for as a dark square of a marker's size in the view
        at = _view_points(view, np.array([d.center for d in found]).reshape(-1, 2))
        more = blob_quads(settings, image, setup.markers.figure_marker_mm / view.mm_per_px, at)
        if len(more):
            found = sorted(found + read_quads(frame_settings, gray, view.to_frame(more), found, from_contours=False),
                           key=lambda d: d.marker)
            quads = np.concatenate([quads, more])
    return found, view, image, quads


def _view_points(view: PlaneView, frame_px: np.ndarray) -> np.ndarray:
    """Frame pixels (N, 2) -> view pixels (N, 2) on the view's plane."""
    if not len(frame_px):
        return np.zeros((0, 2))
    xy = view.camera.to_plane(frame_px, view.z_mm)
    return np.column_stack([(xy[:, 0] - view.x0_mm) / view.mm_per_px, (view.y1_mm - xy[:, 1]) / view.mm_per_px])


def blob_quads(settings: PlaneSettings, image: np.ndarray, side: float, taken: np.ndarray) -> np.ndarray:
    """Candidate quads (N, 4, 2) in view pixels for dark squares of ``side`` view pixels in the
    view ``image`` (height, width) uint8 that are not near ``taken`` points (M, 2) (markers read
    already), searched at half the view's resolution: a blob whose darkest is darker by
    ``blob_contrast`` grey levels than what lies beside it on at least three of its four sides
    (a cap's figure may darken one; an edge between dark and light darkens two) and whose
    brightest is ``blob_range`` above its darkest. Its orientation
    comes from its edges' directions (a square's repeat every 90 degrees)."""
    h2, w2 = image.shape[0] // 2, image.shape[1] // 2
    half = cv2.resize(image[:2 * h2, :2 * w2], (w2, h2), interpolation=cv2.INTER_AREA)
    k = max(3, int(round(0.35 * side)) | 1)  # the core of a marker, at half resolution
    box = cv2.blur(half, (k, k), borderType=cv2.BORDER_REPLICATE).astype(np.float32)
    d = int(round(side / 4 + k / 2))  # beside the marker: its cap's edge and beyond
    pad = cv2.copyMakeBorder(box, d, d, d, d, cv2.BORDER_REPLICATE)
    a, b = pad[d:d + h2, :w2], pad[d:d + h2, 2 * d:]
    c, e = pad[:h2, d:d + w2], pad[2 * d:, d:d + w2]
    # the second darkest side (a sorting network's second output)
    beside = cv2.min(cv2.max(cv2.min(a, b), cv2.min(c, e)), cv2.min(cv2.max(a, b), cv2.max(c, e)))
    # a marker holds black and white within its core's reach, its black darker than what is
    # around it (a white line beside green has no black; a figure's dark base no white)
    kernel = np.ones((k, k), np.uint8)
    low = cv2.erode(half, kernel).astype(np.float32)
    spread = cv2.dilate(half, kernel).astype(np.float32) - low
    dark = beside - low
    ok = (spread >= settings.blob_range) & (dark >= settings.blob_contrast)
    score = cv2.blur(np.where(ok, spread + dark, 0).astype(np.float32), (k, k))
    peak = ok & (score > 0) & (score == cv2.dilate(score, kernel))
    ys, xs = np.nonzero(peak)
    if not len(xs):
        return np.zeros((0, 4, 2))
    order = np.argsort(-score[ys, xs], kind="stable")
    centres = np.column_stack([xs[order], ys[order]]).astype(np.float64) * 2 + 0.5
    if len(taken):
        near = np.linalg.norm(centres[:, None] - taken[None], axis=2).min(axis=1) < 0.7 * side
        centres = centres[~near]
    centres = centres[:settings.max_blobs]  # the strongest: a board holds 33 markers
    if not len(centres):
        return np.zeros((0, 4, 2))
    centres, theta = _centre_and_turn(image, centres, side)
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2
    c, s_ = np.cos(theta)[:, None], np.sin(theta)[:, None]
    rot = np.stack([unit[None, :, 0] * c - unit[None, :, 1] * s_, unit[None, :, 0] * s_ + unit[None, :, 1] * c], axis=-1)
    return centres[:, None, :] + rot


def _centre_and_turn(image: np.ndarray, centres: np.ndarray, side: float) -> tuple[np.ndarray, np.ndarray]:
    """Each blob's centre (N, 2) moved to where a marker-sized box around it is darkest (within
    a few pixels, to a tenth of one), and the angle (N,) radians, modulo 90 degrees, of the square
    there: the mean of its edges' gradient directions times four, weighted by their strength."""
    n = int(round(side))
    r = n // 2 + 4
    offs = np.arange(-r, r + 1, dtype=np.float64)
    gx, gy = np.meshgrid(offs, offs)
    pts = np.stack([centres[:, None, None, 0] + gx, centres[:, None, None, 1] + gy], axis=-1)
    patch = sample_points(image, pts).astype(np.float64)  # (N, P, P)
    # the mean over every n x n box in the patch, from a summed-area table
    sat = np.pad(patch.cumsum(1).cumsum(2), ((0, 0), (1, 0), (1, 0)))
    boxes = sat[:, n:, n:] - sat[:, :-n, n:] - sat[:, n:, :-n] + sat[:, :-n, :-n]  # (N, P-n+1, P-n+1)
    m = boxes.shape[1]
    flat = boxes.reshape(len(boxes), -1)
    k = flat.argmin(axis=1)
    iy, ix = np.clip(k // m, 1, m - 2), np.clip(k % m, 1, m - 2)
    rows = np.arange(len(boxes))

    def vertex(lo, mid, hi):  # a parabola's lowest point through three samples, -0.5..0.5
        den = lo - 2 * mid + hi
        return np.clip(np.where(den > 1e-9, 0.5 * (lo - hi) / np.where(den > 1e-9, den, 1.0), 0.0), -0.5, 0.5)

    sx = vertex(boxes[rows, iy, ix - 1], boxes[rows, iy, ix], boxes[rows, iy, ix + 1])
    sy = vertex(boxes[rows, iy - 1, ix], boxes[rows, iy, ix], boxes[rows, iy + 1, ix])
    # box (iy, ix) covers patch rows iy..iy+n-1: its centre is offset (n - 1) / 2 from there
    shift = np.column_stack([ix + sx, iy + sy]) + (n - 1) / 2 - r
    moved = centres + shift
    # the square's direction from the gradients inside the box found
    dx = np.diff(patch, axis=2)[:, 1:, :]
    dy = np.diff(patch, axis=1)[:, :, 1:]
    m2 = np.maximum(dx * dx + dy * dy, 1e-6)
    c2, s2 = dx * dx - dy * dy, 2 * dx * dy  # m^2 cos 2phi, m^2 sin 2phi
    a = ((c2 * c2 - s2 * s2) / m2).sum(axis=(1, 2))
    b = ((2 * c2 * s2) / m2).sum(axis=(1, 2))
    return moved, np.arctan2(b, a) / 4


def draw_plane(setup, gray: np.ndarray) -> np.ndarray:
    """Debug image: the plane view (height, width, 3) BGR with every candidate outlined, green
    where a marker was read, red where none was."""
    found, view, image, quads = _find(setup, gray)
    out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    centres = np.array([d.center for d in found]).reshape(-1, 2)
    for q in quads:
        c = view.to_frame(q).mean(axis=0)
        read = len(centres) and np.linalg.norm(centres - c, axis=1).min() < 3.0
        cv2.polylines(out, [np.round(q * 16).astype(np.int32).reshape(-1, 1, 2)], True,
                      (60, 220, 60) if read else (40, 40, 240), 1, cv2.LINE_AA, shift=4)
    return out
