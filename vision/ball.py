"""The ball token's own search: candidates by its printed pattern, and a pose by it.

The rescue stage (:mod:`vision.rescue`) finds cap tops as dark squares on a view of their plane
(a marker's middle darker than its cap's margin). The ball is one known marker, and the default
ball id (32) has a white middle: three of its four central cells are white, so its dark squares
sit a third of a marker off its centre and score below figures' feet (dark discs the size of a
cap), hand edges and bench corners. Of the 36 balls (9.5 mm on 12 mm) missed in 286 tuning
frames, 17 were among the first 30 dark squares; searched as a bright square in a dark ring
(the view inverted), 29 were, 8 of them first. :func:`ball_candidates` takes both lists,
alternating, the bright one first where the marker's middle is white, and puts the dark squares
lying on a figure read already last (a token on the board is never on one).

Its white margin, 1.25 mm, is about a frame pixel at 1080p and lost in the blur: of 19 missed
balls that did not read even from a candidate at their true centre, 13 read at their true
corners, and on all 13 the edge fits of :mod:`vision.patches` gave up, even started there.
:func:`read_ball` measures a candidate's patch by the ball's pattern instead
(:func:`fit_by_pattern`) and reads it there as any rescue patch is read.
"""

from __future__ import annotations

import logging
from functools import lru_cache

import cv2
import numpy as np

from .detect import Detection
from .footprint import _read_jittered, jacobian_at, patch_templates
from .refine import SUB_CELL, _sample_xy, dictionary_codes

log = logging.getLogger(__name__)


@lru_cache(maxsize=16)
def middle_brightness(dictionary: str, marker: int) -> float:
    """The share (0..1) of the four central cells of ``marker``'s 4 x 4 code that are white."""
    codes, ids, rots, n = dictionary_codes(dictionary)
    code = int(codes[(ids == marker) & (rots == 0)][0])
    bits = np.array([(code >> (n * n - 1 - k)) & 1 for k in range(n * n)]).reshape(n, n)
    mid = n // 2
    return float(bits[mid - 1:mid + 1, mid - 1:mid + 1].mean())


def ball_candidates(find, image: np.ndarray, dictionary: str, marker: int, side: float, limit: int,
                    bodies: tuple[np.ndarray, np.ndarray] | None = None, body_px: float = 0.0,
                    contrast: float = 12.0) -> np.ndarray:
    """Centres (N, 2), view pixels, of at most ``limit`` places in the view ``image`` (height,
    width) uint8 to look for the ball marker ``marker``: ``find(image, n)`` (the rescue stage's
    dark squares in a view, at most n, strongest first) on the view and, where the marker's
    middle is mostly white (:func:`middle_brightness`), on the view inverted (those in a ring
    darker by ``contrast`` all round, :func:`_ringed`), its places first, alternating, none
    within ``side`` view pixels of one taken already. Dark
    squares within ``body_px`` of a standing figure read already (``bodies``: its foot and
    where its cap's middle meets the view's plane, (M, 2) each: a figure's dark base and body
    run between them) come after the others: a token lying on the board is never on them."""
    dark = find(image, limit)
    if bodies is not None and len(bodies[0]) and len(dark):
        on = (_segment_distances(dark, *bodies) < body_px).any(axis=1)
        dark = np.concatenate([dark[~on], dark[on]])
    if middle_brightness(dictionary, marker) <= 0.5:
        return dark[:limit]
    inverted = 255 - image
    bright = find(inverted, 3 * limit)
    bright = bright[_ringed(inverted, bright, side, contrast)][:limit]
    picks: list[np.ndarray] = []
    for a, b in zip(_padded(bright, len(dark)), _padded(dark, len(bright))):
        for p in (a, b):
            if p is None or any(float(np.hypot(*(p - q))) < side for q in picks):
                continue
            picks.append(p)
        if len(picks) >= limit:
            break
    return np.array(picks[:limit], np.float64).reshape(-1, 2)


def _ringed(image: np.ndarray, points: np.ndarray, side: float, contrast: float) -> np.ndarray:
    """Which points (N, 2) of ``image`` (height, width) uint8 are darker (the box of a marker's
    core, as the dark squares measure it) by ``contrast`` than all but one of 16 points round
    them, ``side`` / 2 away (where a marker's black border runs, in the view inverted): a line
    through a point (a pitch line, the centre circle) leaves two of them as dark as it. On the
    tuning scenes this took the missed balls' bright middles from 18-62th to 4-33th, and
    kept every ball's."""
    if not len(points):
        return np.zeros(0, bool)
    k = max(3, int(round(0.35 * side)) | 1)
    box = cv2.blur(image, (k, k), borderType=cv2.BORDER_REPLICATE)
    turn = np.arange(16) * (np.pi / 8)
    ring = _sample_xy(box, points[:, 0:1] + side / 2 * np.cos(turn), points[:, 1:2] + side / 2 * np.sin(turn))
    core = _sample_xy(box, points[:, 0], points[:, 1])
    return np.sort(ring, axis=1)[:, 1] - core >= contrast


def _segment_distances(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances (N, M) from points (N, 2) to the segments from ``a`` to ``b`` (M, 2 each)."""
    ab = (b - a)[None]
    ap = points[:, None, :] - a[None]
    t = np.clip((ap * ab).sum(axis=2) / np.maximum((ab * ab).sum(axis=2), 1e-9), 0.0, 1.0)
    return np.linalg.norm(ap - t[..., None] * ab, axis=2)


def _padded(points: np.ndarray, n: int) -> list:
    """The points (M, 2) as a list as long as the longer of M and ``n``, None after them."""
    return list(points) + [None] * max(0, n - len(points))


# --- measuring the ball by its pattern ------------------------------------------------------------
#
# A 9.5 mm marker on a 12 mm token has a white margin of 1.25 mm: about a frame pixel at 1080p,
# lost in the blur. Its edges then do not fit (see the module's notes), so the rescue stage never
# read them. Here a candidate's patch is measured by the ball's own pattern instead: the centre,
# turn and size at which the patch's cells best correlate with the ball's templates drawn as that
# patch's camera draws it (:func:`vision.footprint.patch_templates`), coarse then fine. The size comes from the fit (the
# size check downstream still measures the token), and the id is then read at that pose as any
# rescue patch is (every id of the dictionary, the same margin over the second-best).

_COARSE_SHIFTS = np.linspace(-1.5, 1.5, 5)  # cells
_COARSE_TURNS = np.radians(np.arange(-45.0, 45.0, 7.5))
_MID_SHIFTS = np.linspace(-0.375, 0.375, 3)
_MID_TURNS = np.radians(np.linspace(-3.75, 3.75, 3))
_FINE_SHIFTS = np.linspace(-0.2, 0.2, 3)
_FINE_TURNS = np.radians(np.linspace(-2.0, 2.0, 3))
_SCALES = (0.88, 0.94, 1.0, 1.06, 1.12)


@lru_cache(maxsize=2)
def _offsets(fine: bool) -> tuple[np.ndarray, int]:
    """Where a marker's cells are sampled, in cells about its middle (S, 2), and the samples a
    cell: as :func:`vision.footprint._cells` samples them (2 x 2 a cell), or only the cells'
    middles (a coarse look, a quarter of the work)."""
    sub = np.array(SUB_CELL) if fine else np.zeros(1)
    g = ((np.arange(6) + 0.5)[:, None] + sub[None, :]).ravel() - 3.0
    u, v = np.meshgrid(g, g)
    return np.column_stack([u.ravel(), v.ravel()]), len(sub)


def _pose_cells(patch: np.ndarray, centres: np.ndarray, turns: np.ndarray, side: float, fine: bool) -> np.ndarray:
    """The 6 x 6 cells' grey values (P, 36), centred and of unit length, of squares of ``side``
    px at ``centres`` (P, 2) turned ``turns`` (P,) radians in ``patch``."""
    uv, k = _offsets(fine)
    uv = uv * (side / 6)
    c, s = np.cos(turns)[:, None], np.sin(turns)[:, None]
    x = centres[:, 0:1] + c * uv[:, 0] - s * uv[:, 1]
    y = centres[:, 1:2] + s * uv[:, 0] + c * uv[:, 1]
    vals = _sample_xy(patch, x, y).astype(np.float64)
    if k > 1:
        vals = vals.reshape(len(centres), 6, k, 6, k).mean(axis=(2, 4)).reshape(len(centres), 36)
    vals -= vals.mean(axis=1, keepdims=True)
    return vals / np.maximum(np.linalg.norm(vals, axis=1, keepdims=True), 1e-9)


def _best_pose(patch: np.ndarray, templates: np.ndarray, centre: np.ndarray, turn: float, side: float,
               shifts: np.ndarray, turns: np.ndarray, scales: tuple[float, ...],
               fine: bool = True) -> tuple[float, np.ndarray, float, float]:
    """The pose (correlation, centre (2,), turn radians, side px) among the grid around
    ``centre``, ``turn`` and ``side`` in ``patch`` (P, P) at which its cells best correlate with
    ``templates`` (K, 36, centred, unit length)."""
    dx, dy, dt = np.meshgrid(shifts, shifts, turns, indexing="ij")
    best = (-2.0, centre, turn, side)
    for f in scales:
        size = side * f
        at = centre + np.column_stack([dx.ravel(), dy.ravel()]) * (size / 6)
        ang = turn + dt.ravel()
        corr = (_pose_cells(patch, at, ang, size, fine) @ templates.T).max(axis=1)
        k = int(np.argmax(corr))
        if corr[k] > best[0]:
            best = (float(corr[k]), at[k], float(ang[k]), size)
    return best


def fit_by_pattern(patch: np.ndarray, templates: np.ndarray, side: float,
                   start: np.ndarray) -> tuple[float, np.ndarray]:
    """The ball's pose in a candidate's patch (P, P) uint8 (turned as its edges seemed to run, a
    marker ``side`` px, located about ``start`` (2,)): its corners (4, 2), clockwise from the one
    that is top-left in the patch, where its cells best correlate with ``templates`` (the ball's
    rows of :func:`vision.footprint.patch_templates`), coarse (the cells' middles), then finer
    with its size; and that correlation."""
    pose = _best_pose(patch, templates, np.asarray(start, np.float64), 0.0, side, _COARSE_SHIFTS, _COARSE_TURNS,
                      (1.0,), fine=False)
    pose = _best_pose(patch, templates, pose[1], pose[2], side, _MID_SHIFTS, _MID_TURNS, (1.0,))
    r, centre, turn, size = _best_pose(patch, templates, pose[1], pose[2], side, _FINE_SHIFTS, _FINE_TURNS, _SCALES)
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * size / 2
    c, s = np.cos(turn), np.sin(turn)
    quad = centre + unit @ np.array([[c, s], [-s, c]])
    return r, quad


def read_ball(settings, story: list, marker_mm: float, cap_mm: float, dictionary: str, ball_id: int,
              tries: int) -> list:
    """The ball read from the first ``tries`` candidates of the ball's search (``story``:
    :class:`vision.patches.Candidate` s, in the order they were found) whose pattern fits it
    (:func:`fit_by_pattern`): a :class:`vision.detect.Detection` (frame pixels, ArUco order) in a
    list, or an empty list. Each is read at its fitted pose as any rescue patch is
    (:func:`vision.footprint._read_jittered`: every id, the stage's margin), and only the ball's id
    is kept; a candidate read as another id is not the ball."""
    side = 6.0 * settings.cell_px
    margin_cells = (cap_mm - marker_mm) / 2 / (marker_mm / 6)
    for i, cand in enumerate(story[:tries]):
        patch = cand.patch
        c0 = (patch.shape[0] - 1) / 2
        T, t_ids, t_rots, _ = tmpl = patch_templates(jacobian_at(cand.to_frame, c0, c0), settings.cell_px,
                                                     margin_cells, dictionary)
        mine = np.asarray(T[t_ids == ball_id], np.float64)
        r, quad = fit_by_pattern(patch, mine, side, cand.quad.mean(axis=0))
        if r < settings.min_corr:
            continue
        e = quad[[1, 2, 3, 0]] - quad
        turn = float(np.angle(np.exp(1j * (np.arctan2(e[:, 1], e[:, 0]) - np.arange(4) * np.pi / 2)).mean()))
        size = float(np.linalg.norm(e, axis=1).mean())
        ids, rots = _read_jittered(settings, patch, quad.mean(axis=0)[None], np.array([turn]), size, dictionary,
                                   templates=[tmpl])
        if int(ids[0]) != ball_id:
            continue
        aruco = quad[(np.arange(4) - int(rots[0])) % 4]
        frame_q = cv2.perspectiveTransform(aruco.reshape(1, 4, 2), cand.to_frame).reshape(4, 2)
        log.debug("the ball read by its pattern from candidate %d (correlation %.3f)", i, r)
        return [Detection(ball_id, frame_q.astype(np.float32))]
    return []
