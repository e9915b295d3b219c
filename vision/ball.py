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

Which candidates it measures decides most of the rest: of 16 balls still missed in those 286
frames, 11 had a candidate on them, mostly beyond the first four in the search's order that the
fit took, and the fit started where the patch's border was located, which on 8 balls was half a
marker or more away (on a neighbour). So every candidate is first looked at coarsely, all in
one pass (:func:`coarse_poses`: the cells' middles over a grid of centres and turns, from
where the border was located and from the patch's brightest middle), and the four likeliest
are fitted: the ball's candidate was among them in 43 of the 46 tuning frames where the ball
reached the fit (the other 3 had no candidate on it). Where none is the ball, 90 more places
(its dark and bright squares beyond those read) are drawn as patches only
(:func:`ball_patches`, a twentieth of reading them) and looked at the same way.

The margin over the second-best id: the id nearest the ball's (8, five cells apart) was second
in 15 of the 16 misses, and 10 fell short of 3 even at their true pose (1.3-2.8 times). Only one
id is accepted here, so the margin is taken over
the ids that could be in the patch (:func:`not_the_ball`): not those read elsewhere in the
frame (each marker is printed once), nor figure or corner markers printed 1.25 times the
ball's size or more (their pattern cannot fit the token's size). Every other id still stands,
an unread figure of the ball's size above all (a partly covered 9 mm cap): taking the ids
outside the set out too read 22 balls in 200 ball-less frames of 9 mm markers (every
candidate fitted).
"""

from __future__ import annotations

import logging
from functools import lru_cache

import cv2
import numpy as np

from .detect import Detection
from .footprint import read_jittered, jacobian_at, patch_templates
from .patches import Candidate, patch_homographies, spaced_out
from .refine import SUB_CELL, sample_xy, dictionary_codes

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
    # alternating, bright first; the same greedy pick as one point at a time, on a matrix of
    # which points are within a side of which (a Python loop over pairs cost 20 ms at 135)
    both = [p for a, b in zip(_padded(bright, len(dark)), _padded(dark, len(bright))) for p in (a, b) if p is not None]
    if not both:
        return np.zeros((0, 2))
    pts = np.array(both, np.float64)
    close = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1]) < side
    keep = spaced_out(close, limit)
    return pts[keep]


def more_places(find, image: np.ndarray, dictionary: str, marker: int, side: float, limit: int,
                have: np.ndarray, contrast: float = 12.0) -> np.ndarray:
    """Places (N, 2), view pixels, to look at for the ball besides those looked at already
    (``have`` (M, 2)): :func:`ball_candidates` taken ``limit`` deep (no two within ``side``),
    but for those within half a ``side`` of one in ``have``."""
    pts = ball_candidates(find, image, dictionary, marker, side, limit, contrast=contrast)
    if not len(have) or not len(pts):
        return pts
    d = np.hypot(pts[:, None, 0] - have[None, :, 0], pts[:, None, 1] - have[None, :, 1])
    return pts[(d >= side / 2).all(axis=1)]


def ball_patches(settings, gray: np.ndarray, camera, view, centres: np.ndarray, marker_mm: float) -> list:
    """Candidates (:class:`vision.patches.Candidate`, unlocated: their square at the patch's
    middle) for the view's ``centres`` (N, 2): each a patch of the grey frame (H, W) uint8
    square to the board at the ball's height, as :func:`vision.patches.read_patches` draws
    them, but not turned, located or read (a twentieth of the work: :func:`read_ball` looks at
    every turn)."""
    if not len(centres):
        return []
    side = 6.0 * settings.cell_px
    size = int(round(settings.patch_sides * side)) | 1
    c0 = (size - 1) / 2
    quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2 + c0
    Hs = patch_homographies(camera, view.board_points(centres)[:, :2], view.z_mm, marker_mm / side, size)
    flags = cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP
    return [Candidate(tuple(p), cv2.warpPerspective(gray, H, (size, size), flags=flags, borderMode=cv2.BORDER_REPLICATE),
                      H, quad, False, -1) for p, H in zip(centres, Hs)]


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
    ring = sample_xy(box, points[:, 0:1] + side / 2 * np.cos(turn), points[:, 1:2] + side / 2 * np.sin(turn))
    core = sample_xy(box, points[:, 0], points[:, 1])
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
    vals = sample_xy(patch, x, y).astype(np.float64)
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
    marker ``side`` px, located about ``start`` (2,), or about the likeliest of several (S, 2)):
    its corners (4, 2), clockwise from the one that is top-left in the patch, where its cells
    best correlate with ``templates`` (the ball's rows of :func:`vision.footprint.patch_templates`),
    coarse (the cells' middles, :func:`coarse_poses`), then finer with its size; and that
    correlation."""
    starts = np.asarray(start, np.float64).reshape(1, -1, 2)
    r, centre, turn = coarse_poses(patch[None], [templates], starts, side)
    k = int(np.argmax(r[0]))
    return refine_pose(patch, templates, centre[0, k], float(turn[0, k]), side)


def refine_pose(patch: np.ndarray, templates: np.ndarray, centre: np.ndarray, turn: float,
                side: float) -> tuple[float, np.ndarray]:
    """The ball's corners (4, 2) in ``patch`` (P, P) uint8 from a coarse pose (``centre`` (2,),
    ``turn`` radians, a marker ``side`` px): a finer grid about it, then finer still with its
    size (as :func:`fit_by_pattern`); and the correlation there."""
    pose = _best_pose(patch, templates, np.asarray(centre, np.float64), turn, side, _MID_SHIFTS, _MID_TURNS, (1.0,))
    r, centre, turn, size = _best_pose(patch, templates, pose[1], pose[2], side, _FINE_SHIFTS, _FINE_TURNS, _SCALES)
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * size / 2
    c, s = np.cos(turn), np.sin(turn)
    quad = centre + unit @ np.array([[c, s], [-s, c]])
    return r, quad


def coarse_poses(patches: np.ndarray, templates: list, starts: np.ndarray,
                 side: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coarse pose of the ball in each of ``patches`` (N, P, P) uint8 at once: over the
    grid of centres about each of its ``starts`` (N, S, 2) and turns over a quarter turn, the
    cells' middles of a marker ``side`` px correlated with its ``templates`` ((K, 36) each, the
    ball's rows). Returns the best correlations (N,), centres (N, 2) and turns (N,) radians.
    All patches are sampled in one pass (a candidate's look costs a twentieth of its fit)."""
    n, size = len(patches), patches.shape[1]
    n_starts = starts.shape[1]
    uv, _ = _offsets(False)
    uv = uv * (side / 6)
    dx, dy, dt = np.meshgrid(_COARSE_SHIFTS, _COARSE_SHIFTS, _COARSE_TURNS, indexing="ij")
    shift = np.column_stack([dx.ravel(), dy.ravel()]) * (side / 6)  # (G, 2)
    ang = dt.ravel()  # (G,)
    c, s = np.cos(ang)[:, None], np.sin(ang)[:, None]
    # each pose's cells' middles about its start (G, 36), and the starts kept inside the patch
    ox = (shift[:, 0:1] + c * uv[:, 0] - s * uv[:, 1]).astype(np.float32).ravel()
    oy = (shift[:, 1:2] + s * uv[:, 0] + c * uv[:, 1]).astype(np.float32).ravel()
    at = np.clip(starts.reshape(-1, 2), 0.0, size - 1.0)
    # the patches with their edges repeated far enough that no pose samples beyond them (as a
    # patch sampled alone would be), stacked in rows
    pad = int(np.ceil(max(np.abs(ox).max(), np.abs(oy).max()))) + 1
    big = size + 2 * pad
    edged = np.clip(np.arange(-pad, size + pad), 0, size - 1)  # np.pad's "edge", by index (cheaper)
    stack = patches[:, edged][:, :, edged].reshape(n * big, big)
    row0 = np.repeat(np.arange(n) * big, n_starts).astype(np.float32)
    mx = (at[:, 0:1] + pad).astype(np.float32) + ox  # (N * S, G * 36)
    my = (at[:, 1:2] + pad + row0[:, None]).astype(np.float32) + oy
    vals = cv2.remap(stack, mx, my, cv2.INTER_LINEAR).astype(np.float32).reshape(n * n_starts, len(ang), 36)
    # the templates are centred: a dot product with them ignores the cells' mean, which only
    # the norm needs taken out
    norm = np.sqrt(np.maximum((vals * vals).sum(axis=2) - vals.sum(axis=2) ** 2 / 36, 1e-6))
    corr = np.empty(vals.shape[:2], np.float32)
    groups: dict[int, list[int]] = {}
    for i, t in enumerate(templates):
        groups.setdefault(id(t), []).extend(range(i * n_starts, (i + 1) * n_starts))
    for rows in groups.values():
        corr[rows] = (vals[rows] @ templates[rows[0] // n_starts].T.astype(np.float32)).max(axis=2)
    corr /= norm
    k = corr.argmax(axis=1)  # per patch and start
    rows = np.arange(n * n_starts)
    centres = at + shift[k]
    return (corr[rows, k].astype(np.float64).reshape(n, n_starts), centres.reshape(n, n_starts, 2),
            ang[k].reshape(n, n_starts))


def read_ball(settings, story: list, marker_mm: float, cap_mm: float, dictionary: str, ball_id: int,
              tries: int, elsewhere: frozenset[int] = frozenset(), more: list = ()) -> list:
    """The ball read by its pattern from the ball's search's candidates (``story``:
    :class:`vision.patches.Candidate` s): a :class:`vision.detect.Detection` (frame pixels, ArUco
    order) in a list, or an empty list. Every candidate place is looked at coarsely
    (:func:`coarse_poses`, from where its patch located a marker and from the patch's middle:
    a border located on a neighbour can be most of a marker off), and the ``tries`` likeliest
    are fitted (:func:`refine_pose`) and read at their fitted pose as any rescue patch is
    (:func:`vision.footprint.read_jittered`: every id, the stage's margin), but for the ids in
    ``elsewhere``: markers read at other places in the frame, which cannot be this one (each is
    printed once). Only the ball's id is kept; a candidate read as another id is not the ball."""
    side = 6.0 * settings.cell_px
    margin_cells = (cap_mm - marker_mm) / 2 / (marker_mm / 6)
    places, cands = set(), []
    for cand in story:  # the turned look draws the same places again
        if cand.view_px not in places:
            places.add(cand.view_px)
            cands.append(cand)
    read = len(cands)
    cands += [c for c in more if c.view_px not in places]
    if not cands or tries <= 0:
        return []
    c0 = (cands[0].patch.shape[0] - 1) / 2

    def templates(cand) -> tuple:
        return patch_templates(jacobian_at(cand.to_frame, c0, c0), settings.cell_px, margin_cells, dictionary)

    # looked at coarsely with one set of templates (the strongest candidate's: drawing a set
    # costs more than the look), each fitted and read with its own
    first = _ball_rows(templates(cands[0]), ball_id)
    patches = np.stack([c.patch for c in cands])
    bright = _bright_middles(patches, side)
    # those read from where their border was located and from their bright middle; those only
    # looked at (located nowhere) from their bright middle
    located = np.array([c.quad.mean(axis=0) for c in cands]).reshape(-1, 2)
    top, centres, turns = np.zeros(0), np.zeros((0, 2)), np.zeros(0)
    for lo, hi, starts in ((0, read, np.stack([located, bright], axis=1)), (read, len(cands), bright[:, None])):
        if hi > lo:
            r, c, t = coarse_poses(patches[lo:hi], [first] * (hi - lo), starts[lo:hi], side)
            k = r.argmax(axis=1)
            rows = np.arange(hi - lo)
            top = np.concatenate([top, r[rows, k]])
            centres = np.concatenate([centres, c[rows, k]])
            turns = np.concatenate([turns, t[rows, k]])
    # the likeliest of those read first, then of the places only looked at (fewer of which are
    # the ball: they were weaker dark or bright squares)
    order = [*np.argsort(-top[:read], kind="stable")[:tries], *(read + np.argsort(-top[read:], kind="stable")[:tries])]
    for i in order:
        if top[i] < COARSE_FLOOR:
            continue
        cand = cands[i]
        tmpl = templates(cand)
        r, quad = refine_pose(cand.patch, _ball_rows(tmpl, ball_id), centres[i], float(turns[i]), side)
        if r < settings.min_corr:
            continue
        e = quad[[1, 2, 3, 0]] - quad
        turn = float(np.angle(np.exp(1j * (np.arctan2(e[:, 1], e[:, 0]) - np.arange(4) * np.pi / 2)).mean()))
        size = float(np.linalg.norm(e, axis=1).mean())
        ids, rots = read_jittered(settings, cand.patch, quad.mean(axis=0)[None], np.array([turn]), size, dictionary,
                                   templates=[_possible(tmpl, elsewhere - {ball_id})])
        if int(ids[0]) != ball_id:
            continue
        aruco = quad[(np.arange(4) - int(rots[0])) % 4]
        frame_q = cv2.perspectiveTransform(aruco.reshape(1, 4, 2), cand.to_frame).reshape(4, 2)
        log.debug("the ball read by its pattern from candidate %d (correlation %.3f, coarse %.3f)", i, r, top[i])
        return [Detection(ball_id, frame_q.astype(np.float32))]
    return []


# A candidate whose coarse look correlates less than this is not fitted: the 63 balls read by
# the fit on 900 tuning frames looked 0.89 or more coarsely (the fit raised them by up to 0.07).
COARSE_FLOOR = 0.85

_rows_cache: dict = {}


def _ball_rows(templates: tuple, ball_id: int) -> np.ndarray:
    """The ball's rows (K, 36) float64 of a set of templates, one array per set (so that
    :func:`coarse_poses` correlates the patches sharing a set at once)."""
    key = (id(templates[0]), ball_id)
    hit = _rows_cache.get(key)
    if hit is None or hit[0] is not templates[0]:
        if len(_rows_cache) >= 256:
            _rows_cache.clear()
        hit = _rows_cache[key] = (templates[0], np.asarray(templates[0][templates[1] == ball_id], np.float64))
    return hit[1]


# A marker this many times the ball's printed size or more is never fitted as the ball: the fit
# measures the ball's size within 12 %, and a figure's cap, higher than the token, looks larger
# still.
SIZE_APART = 1.25


def not_the_ball(markers, read: set[int]) -> frozenset[int]:
    """The ids that a patch read as the ball cannot be, in a frame where the ids ``read`` were
    read (``markers``: the :class:`vision.config.MarkerSet`): those read elsewhere (each marker
    is printed once), and figure and corner markers printed :data:`SIZE_APART` times the ball's
    size or more (a 17 mm cap's pattern does not fit a 9.5 mm token's size). Ids outside the
    set, and unread markers of about the ball's size (a partly covered 9 mm cap), still stand
    against the ball in the reading's margin."""
    large = {m for m in (*markers.figure_ids, *markers.corners.ids)
             if markers.side_of(m) >= SIZE_APART * markers.ball_marker_mm}
    return frozenset((set(read) | large) - {markers.ball_id})


def _possible(templates: tuple, elsewhere: frozenset[int]) -> tuple:
    """``templates`` (as :func:`vision.footprint.patch_templates` gives them) with the rows of the
    ids in ``elsewhere`` zeroed: markers read at other places in the frame, which cannot be this
    one (each id is printed once), so they do not stand against the ball in the margin."""
    if not elsewhere:
        return templates
    return _zeroed(templates, frozenset(elsewhere))


_zeroed_cache: dict = {}


def _zeroed(templates: tuple, elsewhere: frozenset[int]) -> tuple:
    key = (id(templates[0]), elsewhere)
    hit = _zeroed_cache.get(key)
    if hit is not None and hit[0] is templates[0]:
        return hit[1]
    T, ids, rots, span = templates
    out = np.array(T)
    out[np.isin(ids, list(elsewhere))] = 0.0
    if len(_zeroed_cache) >= 64:
        _zeroed_cache.clear()
    _zeroed_cache[key] = (T, (out, ids, rots, span))
    return _zeroed_cache[key][1]


def _bright_middles(patches: np.ndarray, side: float) -> np.ndarray:
    """Per patch (N, P, P) uint8, the marker's middle (N, 2) if it is the ball's: where a box of
    two cells is brightest within half a marker of the patch's middle."""
    n, size = patches.shape[:2]
    k = int(round(side / 3)) | 1
    box = cv2.blur(patches.reshape(n * size, size), (k, k)).reshape(n, size, size)
    c0 = (size - 1) // 2
    reach = int(round(side / 2))
    win = box[:, c0 - reach:c0 + reach + 1, c0 - reach:c0 + reach + 1].reshape(n, -1)
    j = win.argmax(axis=1)
    m = 2 * reach + 1
    return np.column_stack([j % m, j // m]).astype(np.float64) + (c0 - reach)
