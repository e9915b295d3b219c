"""Marker detection, tuned for small markers (20-30 px) on white caps.

:func:`detect` is a pure stage: ``(settings, gray image) -> detections``. It wraps OpenCV's
``ArucoDetector`` with parameters chosen for our caps (one adaptive-threshold window sized to a
marker instead of three, a lower minimum perimeter, finer bit sampling), can search only some
rectangles of the frame (``rois``: around where the figures were, and where something moved),
and refines corners to sub-pixel accuracy on the grey image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from .reduce import reduce_frame
from .refine import _clockwise, fit_edges, larger_grid, match_blurred, read_bits

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive) in pixels


@dataclass(frozen=True, slots=True)
class Detection:
    """One decoded marker: its id and its corners (4, 2) in pixels, ArUco order (top-left,
    top-right, bottom-right, bottom-left of the printed marker). ``center`` (2,) and ``side_px``
    are worked out once."""

    marker: int
    corners: np.ndarray = field(repr=False, compare=False)
    center: np.ndarray = field(init=False, repr=False, compare=False)
    side_px: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = self.corners.tolist()  # plain floats: many small markers
        object.__setattr__(self, "center", np.array([(ax + bx + cx + dx) / 4, (ay + by + cy + dy) / 4]))
        side = (math.hypot(bx - ax, by - ay) + math.hypot(cx - bx, cy - by) + math.hypot(dx - cx, dy - cy)
                + math.hypot(ax - dx, ay - dy)) / 4
        object.__setattr__(self, "side_px", side)

    def __repr__(self) -> str:
        c = self.center
        return f"Detection(marker={self.marker}, center=({c[0]:.1f}, {c[1]:.1f}), side_px={self.side_px:.1f})"


@dataclass(frozen=True, slots=True)
class DetectorSettings:
    """ArUco parameters for our markers. ``window_px`` is the adaptive-threshold window (about a
    quarter of a marker's side: it parts a cap from the dark figure base beside it); a larger
    ``window_max_px`` adds a second search around the caps found, for caps standing side by side
    (it costs half again the time and found no more in the benchmark, so it is off by default);
    ``min_side_px`` is the smallest marker looked for; ``subpix`` fits corners to the edges;
    ``blur_match`` reads what a threshold cannot by matching blurred markers; ``scale`` > 1 looks
    for candidates in large rectangles (the board) at 1/scale of the resolution, a 4K frame at
    1080p, and refines and reads them at full resolution (window and sizes are full-resolution
    pixels)."""

    dictionary: str = "DICT_4X4_50"
    window_px: int = 5
    window_max_px: int = 5
    threshold_c: float = 10.0
    min_side_px: float = 9.0
    max_side_px: float = 140.0
    pixels_per_cell: int = 6
    ignored_margin: float = 0.2
    subpix: bool = True
    error_correction: float = 0.6
    blur_match: bool = True
    scale: int = 1

    @classmethod
    def for_marker_px(cls, side_px: float, thorough: bool = False, **kw) -> "DetectorSettings":
        """Settings for markers of about ``side_px``: a small threshold window keeps a 20 px
        marker apart from the dark figure base beside it; larger markers need a larger one.
        ``thorough`` adds a second, larger window around the caps found (caps side by side)."""
        window = int(np.clip(round(side_px / 4), 5, 21)) | 1
        return cls(window_px=window, window_max_px=window + 2 if thorough else window, **kw)

    @classmethod
    def for_frame(cls, side_px: float, frame_width: int, thorough: bool = False, **kw) -> "DetectorSettings":
        """:meth:`for_marker_px`, and for frames wider than :data:`COARSE_FROM_WIDTH` (4K) with
        markers of :data:`COARSE_MIN_SIDE_PX` or more, candidates looked for at half the
        resolution (then refined and read at full resolution): as fast as 1080p."""
        scale = 2 if frame_width >= COARSE_FROM_WIDTH and side_px >= COARSE_MIN_SIDE_PX else 1
        if scale > 1:  # the threshold window and the smallest marker as the coarse image sees them
            window = int(np.clip(round(side_px / 2 / 4), 3, 21)) | 1
            kw.setdefault("min_side_px", 12.0)
            return cls(window_px=2 * window + 1, window_max_px=2 * window + 3 if thorough else 2 * window + 1,
                       scale=scale, **kw)
        return cls.for_marker_px(side_px, thorough, **kw)

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


def detect(settings: DetectorSettings, gray: np.ndarray, rois: list[Rect] | None = None,
           known: list[Detection] = (), reduced: dict | None = None) -> list[Detection]:
    """Markers in a grey frame (H, W) uint8, searching the whole frame or only ``rois``
    (rectangles in frame pixels; overlapping finds are merged). Candidates on top of ``known``
    markers (already read this frame) are not read again. Returns detections in frame pixels,
    sorted by id; an id may appear twice (two markers with one id are a conflict). With
    ``settings.scale`` over 1 large rectangles are searched at a lower resolution; given
    ``reduced`` (a dict), that is a part of the whole frame reduced
    (:func:`vision.reduce.reduce_frame`), kept there for the rescue's views.

    The small threshold window searches everywhere; the larger one only around the markers the
    first found, where caps stand side by side (OpenCV's own use of several windows keeps one
    candidate per place, not always the one that reads)."""
    first = replace(settings, window_max_px=settings.window_px)
    found = _detect_pass(first, gray, rois, list(known), reduced)
    if settings.window_max_px == settings.window_px or not found:
        return found
    typical = float(np.median([d.side_px for d in found]))
    around = []
    for d in found:
        if d.side_px < 2 * typical:  # caps and the ball, not the corner markers
            r = 2.1 * d.side_px
            around.append((int(d.center[0] - r), int(d.center[1] - r), int(d.center[0] + r + 1),
                           int(d.center[1] + r + 1)))
    second = replace(settings, window_px=settings.window_max_px)
    more = _detect_pass(second, gray, around, list(known) + found, reduced)
    return sorted(found + more, key=lambda d: d.marker)


def _detect_pass(settings: DetectorSettings, gray: np.ndarray, rois: list[Rect] | None,
                 known: list[Detection], reduced: dict | None = None) -> list[Detection]:
    """One threshold window's search: candidates from OpenCV, refined and read here."""
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
        offset = np.array([x0, y0], np.float64)
        k = settings.scale
        if k > 1:  # candidates at a lower resolution, in full-resolution pixels (centres at integers)
            # from a whole block's edge: then it is a part of the whole frame reduced, which the
            # rescue's views are drawn from too (where the caller keeps it, ``reduced``)
            x0, y0 = x0 - x0 % k, y0 - y0 % k
            offset = np.array([x0, y0], np.float64)
            w, h = (x1 - x0) // k, (y1 - y0) // k
            if reduced is not None:
                coarse_img = reduce_frame(gray, k, reduced)[y0 // k:y0 // k + h, x0 // k:x0 // k + w]
            else:
                coarse_img = reduce_frame(gray[y0:y0 + h * k, x0:x0 + w * k], k)
            coarse = replace(settings, window_px=max(3, settings.window_px // k) | 1,
                             window_max_px=max(3, settings.window_max_px // k) | 1,
                             min_side_px=settings.min_side_px / k, max_side_px=settings.max_side_px / k)
            corners, _, rejected = _detector(coarse, max(coarse_img.shape)).detectMarkers(coarse_img)
            quads += [(np.asarray(c, np.float64).reshape(4, 2) + 0.5) * k - 0.5 + offset for c in (*corners, *rejected)]
            continue
        det = _detector(settings, max(x1 - x0, y1 - y0))
        corners, _, rejected = det.detectMarkers(gray[y0:y1, x0:x1])
        quads += [np.asarray(c, np.float64).reshape(4, 2) + offset for c in (*corners, *rejected)]
    if small:
        quads += _detect_mosaic(settings, gray, small)
    if not quads:
        return []
    return read_quads(settings, gray, np.stack(quads), known)


def read_quads(settings: DetectorSettings, gray: np.ndarray, quads: np.ndarray,
               known: list[Detection] = (), from_contours: bool = True,
               prefer_clean: bool = False) -> list[Detection]:
    """Candidate quadrilaterals (N, 4, 2) in frame pixels, any winding, refined on the grey frame
    (H, W) uint8 and read: the markers among them, sorted by id. Candidates outside the size
    limits or on top of ``known`` markers are dropped first. Quads not ``from_contours`` (drawn
    at a marker's expected size) are read only where their edges fit: their size would otherwise
    be the one assumed, not measured, and the size check could not tell a lifted cap.

    Two candidates that read as one marker (its own outline and its cap's, say) give one
    detection: the first given, or with ``prefer_clean`` the one whose edges fitted and that read
    at once, and of those the smaller (OpenCV lists the candidates it read itself first, a
    proxy for that; candidates of its candidate stage alone come in no such order)."""
    if not len(quads):
        return []
    # every candidate, accepted or rejected by OpenCV, is refined and read once, in one batch
    q = _clockwise(np.asarray(quads, np.float64))
    sides = np.linalg.norm(q - q[:, [3, 0, 1, 2]], axis=2)
    smin, smax = sides.min(axis=1), sides.max(axis=1)
    q = q[(smin >= settings.min_side_px * 0.7) & (smax <= settings.max_side_px) & (smax <= 2.5 * smin)]
    # candidates on a marker already read this frame are not read again (a quad found with
    # both threshold windows is: the two can differ, and the better one should get its chance)
    centres = q.mean(axis=1)
    if len(known):
        kc = np.stack([d.center for d in known])
        ks = np.array([d.side_px for d in known])
        near = np.linalg.norm(centres[:, None, :] - kc[None, :, :], axis=2) < ks[None, :] / 2
        q = q[~near.any(axis=1)]
    if not len(q):
        return []
    ok = np.ones(len(q), bool)
    if not from_contours:
        q, ok = fit_edges(gray, q)
        q, ok = q[ok], ok[ok]
        if not len(q):
            return []
    elif settings.subpix:
        q, ok = fit_edges(gray, q)
        # where no clean edges were found, OpenCV's contour corners stand about 0.8 px inside
        # each edge (they are the dark pixels' centres, and blur eats in): move them out
        c = q[~ok].mean(axis=1, keepdims=True)
        half = np.linalg.norm(q[~ok] - c, axis=2, keepdims=True)
        q[~ok] = c + (q[~ok] - c) * (1 + CONTOUR_INSET_PX * math.sqrt(2) / np.maximum(half, 1.0))
    plausible: list = []
    values: list = []
    marker_ids, turned = read_bits(gray, q, settings.dictionary, plausible=plausible, values=values)
    # a small marker read with corners half a pixel off samples its cells' edges: what looks
    # like a marker but did not read is read again a little larger and a little smaller (in one
    # batch; an exact match is still required), and by its blurred pattern at all three sizes;
    # every reading must name the same id
    clean = ok & (marker_ids >= 0)
    retry = np.flatnonzero((marker_ids < 0) & plausible[1])
    if len(retry):
        r = q[retry]
        c = r.mean(axis=1, keepdims=True)
        half = np.maximum(np.linalg.norm(r - c, axis=2, keepdims=True), 1.0)
        tries = np.concatenate([r] + [c + (r - c) * (1 + g * math.sqrt(2) / half) for g in RETRY_GROW_PX])
        again_values: list = []
        thr, thr_turned = read_bits(gray, tries[len(r):], settings.dictionary, values=again_values)
        ids = np.concatenate([np.full(len(r), -1), thr])
        quads_read = np.concatenate([r, thr_turned])
        if settings.blur_match:
            # and matched against every marker drawn blurred: a blurred small marker keeps its
            # pattern when a threshold no longer parts its cells (on the cells already sampled)
            cells = np.concatenate([values[0][retry], again_values[0]])
            blurred, blurred_turned = match_blurred(gray, tries, settings.dictionary, values=cells)
            ids = np.concatenate([ids, blurred])
            quads_read = np.concatenate([quads_read, blurred_turned])
        ids, quads_read = ids.reshape(-1, len(retry)), quads_read.reshape(-1, len(retry), 4, 2)
        pick = np.argmax(ids >= 0, axis=0)
        got = ids[pick, np.arange(len(retry))]
        # readings that disagree (a 9 px marker read by threshold on its larger copy as one id
        # and by its blurred pattern as another) are no reading at all
        got = np.where(((ids == got[None]) | (ids < 0)).all(axis=0), got, -1)
        marker_ids[retry] = got
        # the corners reported are the refined quad's, turned as the reading that matched: the
        # larger or smaller quad only sampled the cells (reported, it made a cap look 7 % larger)
        read_as = quads_read[pick, np.arange(len(retry))]
        rolls = r[:, _TURNS].transpose(1, 0, 2, 3)  # (4, R, 4, 2): corner k first
        k = np.argmin(np.linalg.norm(rolls - read_as[None], axis=3).sum(axis=2), axis=0)
        own = rolls[k, np.arange(len(retry))]
        turned[retry] = np.where((got >= 0)[:, None, None], own, turned[retry])
    order = range(len(q))
    if prefer_clean:
        side = np.sqrt(((q - q[:, _NEXT]) ** 2).sum(axis=2)).sum(axis=1)
        order = np.lexsort((side, ~clean)).tolist()
    read = np.flatnonzero(marker_ids >= 0)
    if len(read):
        # a marker of a larger grid (a ChArUco board's, a 6x6 one) read as ours is none of ours
        foreign = larger_grid(gray, turned[read], settings.dictionary)
        marker_ids[read[foreign]] = -1
    found = [(int(marker_ids[i]), turned[i].astype(np.float32)) for i in order if marker_ids[i] >= 0]
    return sorted(_merge(found), key=lambda d: d.marker)


def contour_quads(settings: DetectorSettings, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's candidate stage alone, without its reading: quadrilaterals (N, 4, 2) outlined in
    the grey ``image`` (H, W) uint8 at one adaptive-threshold window (``settings.window_px``),
    with OpenCV's own tests (perimeter within the sides given, four corners of a convex
    polygon fitted to 5 % of the perimeter, corners a tenth of the perimeter apart, off the
    image's edge) and its grouping (outlines whose corners lie within 5 % of the smaller one's
    perimeter are one candidate, the largest). Returns (candidates, alternates (M, 4, 2)): the
    smaller outlines of a group that differ from its largest by more than a fifth of a cell,
    which OpenCV tries where the largest does not read.

    Every candidate is read here anyway (:func:`read_quads`), so OpenCV's own reading of each,
    a perspective warp and an Otsu threshold, was work thrown away."""
    th = cv2.adaptiveThreshold(image, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                               settings.window_px | 1, settings.threshold_c)
    contours, _ = cv2.findContours(th, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    empty = np.zeros((0, 4, 2))
    if not contours:
        return empty, empty
    # a contour of every pixel: its length is its perimeter
    lengths = np.fromiter(map(len, contours), np.int64, len(contours))
    lo, hi = int(4 * settings.min_side_px), int(4 * settings.max_side_px)
    sized = np.flatnonzero((lengths >= lo) & (lengths <= hi)).tolist()
    approx = [cv2.approxPolyDP(contours[i], len(contours[i]) * 0.05, True) for i in sized]
    four = [k for k, a in enumerate(approx) if len(a) == 4]
    if not four:
        return empty, empty
    q = np.concatenate([approx[k] for k in four]).reshape(-1, 4, 2).astype(np.float64)
    n = lengths[[sized[k] for k in four]].astype(np.float64)
    edge = q[:, _NEXT] - q
    turn = edge[..., 0] * edge[:, _NEXT, 1] - edge[..., 1] * edge[:, _NEXT, 0]
    convex = (turn > 0).all(axis=1) | (turn < 0).all(axis=1)
    apart = (edge * edge).sum(axis=2).min(axis=1) >= (0.1 * n) ** 2
    q = q[convex & apart]
    if not len(q):
        return empty, empty
    return _group_quads(q, image.shape)


_NEXT = [1, 2, 3, 0]
_TURNS = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]  # the four starting corners


def _group_quads(q: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's grouping of candidates (N, 4, 2) that outline one thing (a marker's border seen
    from outside and inside), largest first; see :func:`contour_quads`."""
    # clockwise on screen, as OpenCV orders them before comparing corners
    d1, d2 = q[:, 1] - q[:, 0], q[:, 2] - q[:, 0]
    flip = d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0] < 0
    q[flip] = q[flip][:, [0, 3, 2, 1]]
    perim = np.sqrt(((q[:, _NEXT] - q) ** 2).sum(axis=2)).sum(axis=1)
    order = np.argsort(-perim, kind="stable")
    q, perim = q[order], perim[order]
    m = len(q)
    h, w = shape
    inside = ((q >= 1) & (q[..., 0:1] <= w - 2) & (q[..., 1:2] <= h - 2)).all(axis=(1, 2))

    # the mean corner distance is at least the centres' distance: only pairs whose centres are
    # that close can be grouped (most candidates stand alone; each marker's own inner and outer
    # outlines are a pair, so their distances are measured in one batch)
    centres = q.sum(axis=1) / 4
    gap = centres[:, None] - centres[None, :]
    near = (gap ** 2).sum(axis=2) < (0.05 * perim[None, :]) ** 2
    first, second = np.nonzero(np.triu(near, 1))
    close = _corner_distances(q[first], q[second]) < 0.05 * perim[second]
    pairs = list(zip(first[close].tolist(), second[close].tolist()))
    if not pairs:
        return q[inside], np.zeros((0, 4, 2))
    # OpenCV's loop over the close pairs in order: a pair joins the group one of them is in
    group = np.full(m, -1)
    groups: list[list[int]] = []
    for i, j in pairs:
        i, j = int(i), int(j)
        if group[i] < 0 and group[j] < 0:
            group[i] = group[j] = len(groups)
            groups.append([i, j])
        elif group[i] >= 0 and group[j] < 0:
            group[j] = group[i]
            groups[group[i]].append(j)
        elif group[j] >= 0 and group[i] < 0:
            group[i] = group[j]
            groups[group[j]].append(i)
    keep = [i for i in range(m) if group[i] < 0 and inside[i]]
    alternates = []
    module = perim / (4 * 6)  # a cell of a 4 x 4 marker with its border
    for members in groups:
        members.sort()
        first = members[0]
        if not inside[first]:
            continue
        keep.append(first)
        current = first
        for j in members[1:]:
            if _corner_distances(q[j:j + 1], q[current:current + 1])[0] > 0.21 * module[j]:
                alternates.append(j)
                current = j
    keep.sort()
    return q[keep], q[alternates] if alternates else np.zeros((0, 4, 2))


def _corner_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Quads' mean corner distances (P,) between ``a`` and ``b`` (P, 4, 2), at the best of the
    four cyclic pairings (OpenCV's measure for grouping outlines)."""
    rolled = a[:, _TURNS]  # (P, 4 starting corners, 4, 2)
    return np.sqrt(((rolled - b[:, None]) ** 2).sum(axis=-1).mean(axis=-1).min(axis=-1))


MOSAIC_MAX_SHARE = 0.6
COARSE_FROM_WIDTH = 2560
COARSE_MIN_SIDE_PX = 14.0
CONTOUR_INSET_PX = 0.8
RETRY_GROW_PX = (0.6, -0.6)
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
    of each other (overlapping search rectangles) are the same marker; the first find is kept."""
    if not found:
        return []
    ids = np.array([m for m, _ in found])
    quads = np.stack([c for _, c in found]).astype(np.float64)
    centres = quads.mean(axis=1)
    sides = np.linalg.norm(quads[:, 0] - quads[:, 1], axis=1)
    # find j is the same marker as an earlier find i: same id, centre within half i's side
    close = (ids[:, None] == ids[None, :]) & (
        np.linalg.norm(centres[:, None] - centres[None, :], axis=2) < sides[:, None] / 2)
    close &= np.triu(np.ones_like(close), 1)
    keep = np.ones(len(found), bool)
    for i in np.flatnonzero(close.any(axis=1)):  # rare: only finds with a twin
        if keep[i]:
            keep &= ~close[i]
    return [Detection(int(ids[i]), found[i][1]) for i in np.flatnonzero(keep)]


def confirm(settings: DetectorSettings, gray: np.ndarray, previous: list[Detection],
            max_shift_px: float = 1.5) -> tuple[list[Detection], list[Detection]]:
    """Re-read markers where they were in the previous frame, without searching: fit their edges
    starting from the old corners and read their bits again. Returns (confirmed, lost): a marker
    that moved more than ``max_shift_px``, or no longer reads as itself, is lost (search for it)."""
    if not previous:
        return [], []
    old = np.stack([d.corners for d in previous]).astype(np.float64)
    fitted, ok = fit_edges(gray, old)
    ids, turned = read_bits(gray, fitted, settings.dictionary)
    shift = np.linalg.norm(turned - old, axis=2).max(axis=1)
    want = np.array([d.marker for d in previous])
    good = ok & (ids == want) & (shift <= max_shift_px)
    confirmed = [Detection(int(m), c.astype(np.float32)) for m, c, g in zip(want, turned, good) if g]
    lost = [d for d, g in zip(previous, good) if not g]
    return confirmed, lost


def detect_default(gray: np.ndarray, dictionary: str = "DICT_4X4_50") -> list[Detection]:
    """Plain OpenCV with its default parameters, for comparison."""
    corners, ids, _ = default_detector(dictionary).detectMarkers(gray)
    if ids is None:
        return []
    return sorted((Detection(int(m), np.array(c, np.float32).reshape(4, 2)) for m, c in zip(ids.ravel(), corners)),
                  key=lambda d: d.marker)
