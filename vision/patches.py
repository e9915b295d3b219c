"""The rescue stage's patches: candidates rectified from the frame into square patches of the
caps' plane, located there and read (:mod:`vision.rescue` finds the candidates and runs the
stage; :mod:`vision.turned` draws the likeliest again at other turns)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from calibration.camera import CameraModel

from .detect import Detection
from .footprint import likeness, read_jittered, jacobian_at, jacobians_at, patches_templates
from .refine import STRONG_EDGE, sample_points, fit_edges, square_homographies


# --- patches --------------------------------------------------------------------------------------

def patch_homographies(camera: CameraModel, centres_mm: np.ndarray, z_mm: float, mm_per_px: float,
                       size: int) -> np.ndarray:
    """Homographies (N, 3, 3) from patch pixels (u, v) to frame pixels, for square patches of
    ``size`` px centred on board points ``centres_mm`` (N, 2) at ``z_mm``, ``mm_per_px`` each,
    u along +x and v along -y (seen from above): exact at the patch's corners (the lens's
    distortion is smooth over a cap: a few hundredths of a pixel in between)."""
    n = len(centres_mm)
    half = (size - 1) / 2 * mm_per_px
    xy = centres_mm[:, None, :] + np.array([[-half, half], [half, half], [half, -half], [-half, -half]])[None]
    pts = np.concatenate([xy, np.full((n, 4, 1), z_mm)], axis=2).reshape(-1, 3)
    return square_homographies(camera.project(pts).reshape(n, 4, 2), float(size - 1))


def _turns(stack: np.ndarray, n: int, size: int, sigma: float, at: np.ndarray | None = None) -> np.ndarray:
    """Per patch (``n`` patches of ``size`` stacked in rows, uint8), the angle (n,) radians, modulo 90
    degrees, of the square around its centre (or around the points ``at`` (n, 2)): its edges'
    gradient directions times four, averaged with their strengths near it."""
    # the 3 x 3 Sobel gradients in whole numbers (cv2.Sobel's, at a third of its time), each patch
    # reflected at its own top and bottom (a patch's turn does not depend on the others')
    # (by index, not np.pad: the same rows at a fraction of its cost per call)
    tall = stack.reshape(n, size, size)[:, _reflected(size)].reshape(-1, size)
    gx, gy = (g.reshape(n, size + 2, size)[:, 1:-1].astype(np.float32) for g in cv2.spatialGradient(tall))
    c2, s2 = gx * gx - gy * gy, 2 * gx * gy
    mm = np.maximum(gx * gx + gy * gy, 1e-6)
    r = np.arange(size, dtype=np.float32)
    if at is None:
        at = np.full((n, 2), (size - 1) / 2, np.float32)
    wx = np.exp(-(r[None, :] - at[:, 0:1]) ** 2 / (2 * sigma * sigma)).astype(np.float32)  # (n, size)
    wy = np.exp(-(r[None, :] - at[:, 1:2]) ** 2 / (2 * sigma * sigma)).astype(np.float32)
    wt = wy[:, :, None] * wx[:, None, :]
    a = ((c2 * c2 - s2 * s2) / mm * wt).sum(axis=(1, 2))
    b = ((2 * c2 * s2) / mm * wt).sum(axis=(1, 2))
    return np.arctan2(b, a) / 4


@lru_cache(maxsize=16)
def _reflected(size: int) -> np.ndarray:
    """Row indices of a patch of ``size`` rows reflected one row beyond each edge (np.pad's
    "reflect": the edge row not repeated)."""
    return np.concatenate([[1], np.arange(size), [size - 2]])


@lru_cache(maxsize=16)
def _edged(size: int, gap: int) -> np.ndarray:
    """Row indices of a patch of ``size`` rows with its edge rows repeated ``gap`` times beyond
    each edge (np.pad's "edge")."""
    return np.clip(np.arange(-gap, size + gap), 0, size - 1)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A looked-at cap top: its view pixel, its patch (P, P) uint8, the homography (3, 3) from
    patch to frame pixels, the quad (4, 2) located in the patch, whether its edges fit, the id
    read (-1: none), and how much brighter its cap's margin is than the marker's border."""

    view_px: tuple[float, float]
    patch: np.ndarray
    to_frame: np.ndarray
    quad: np.ndarray
    fitted: bool
    marker: int
    rim: float = 0.0


def read_patches(settings, gray: np.ndarray, camera: CameraModel, view,
                 centres: np.ndarray, marker_mm: float, cap_mm: float, dictionary: str,
                 accept: set[int], turns: np.ndarray | None = None) -> tuple[list[Detection], list[Candidate]]:
    """Rectify, locate and read the candidates at view pixels ``centres`` (N, 2) from the grey
    frame (H, W) uint8: detections (frame pixels) whose id is in ``accept``, and every
    candidate's story for the debug image.

    Each patch is first drawn square to the board to find the marker's turn, then again turned
    with it, so that the marker's black border inside its cap's white margin is found with box
    sums; its edges are fitted and its id read at its printed size (the patch is to scale).
    ``turns`` (N,) radians: the patches' turns given, instead of measured (:mod:`vision.turned`);
    ``settings`` a :class:`vision.rescue.RescueSettings`, ``view`` its :class:`vision.rescue.SearchView`."""
    n = len(centres)
    if not n:
        return [], []
    cells = 6  # a 4 x 4 code and its black border
    side = float(cells * settings.cell_px)  # the marker's side in the patch
    mm_px = marker_mm / side
    size = int(round(settings.patch_sides * side)) | 1
    c0 = (size - 1) / 2
    margin = int(max(2, round((cap_mm - marker_mm) / 2 / mm_px)))
    Hs = patch_homographies(camera, view.board_points(centres)[:, :2], view.z_mm, mm_px, size)
    flags = cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP
    # the marker's turn, from a first look at a third of the resolution (its edges are there)
    thetas = turns
    if turns is None:
        small = size // 3
        to_small = np.diag([(size - 1) / (small - 1), (size - 1) / (small - 1), 1.0])
        firsts = [cv2.warpPerspective(gray, H, (small, small), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                      borderMode=cv2.BORDER_REPLICATE) for H in Hs @ to_small]
        thetas = _turns(np.vstack(firsts), n, small, 0.5 * side * (small - 1) / (size - 1))
    turned_H = list(_turned_many(Hs, thetas, np.full((n, 2), c0)))
    tiles = [cv2.warpPerspective(gray, Ht, (size, size), flags=flags, borderMode=cv2.BORDER_REPLICATE)
             for Ht in turned_H]
    margin_cells = (cap_mm - marker_mm) / 2 / (marker_mm / cells)
    found = _locate_read(settings, tiles, turned_H, side, margin, margin_cells, dictionary)
    # a second look where the first turn, taken from the whole patch at a third of its
    # resolution, was off (a neighbour or the board's lines in view, or a steep tilt's blur):
    # the turn again, at full resolution about the marker's located centre
    # (where the edges fitted, the reading took its turn from them already)
    again = np.flatnonzero((found[0] >= settings.min_rim) & ~(found[3] & found[4]))
    if len(again):
        stack = np.vstack([tiles[i] for i in again])
        more = _turns(stack, len(again), size, 0.35 * side, found[1][again])
        redo = again[np.abs(more) > math.radians(4.0)]
        more = more[np.abs(more) > math.radians(4.0)]
        if len(redo):
            Hts = list(_turned_many(np.array([turned_H[i] for i in redo]), more, found[1][redo]))
            tiles2 = [cv2.warpPerspective(gray, Ht, (size, size), flags=flags, borderMode=cv2.BORDER_REPLICATE)
                      for Ht in Hts]
            second = _locate_read(settings, tiles2, Hts, side, margin, margin_cells, dictionary)
            for k, i in enumerate(redo):
                if second[5][k] >= 0:
                    turned_H[i], tiles[i] = Hts[k], tiles2[k]
                    for arr, val in zip(found, second):
                        arr[i] = val[k]
    rim, _, fitted, ok, _, ids, rot = found
    out: list[Detection] = []
    stories: list[Candidate] = []
    for i in range(n):
        marker = int(ids[i]) if ok[i] and int(ids[i]) in accept else -1
        q = fitted[i]
        if marker >= 0:
            # the fitted corners (measured: the size check downstream sees the marker's own
            # size), in ArUco order for the rotation read
            aruco = q[(np.arange(4) - rot[i]) % 4]
            frame_q = cv2.perspectiveTransform(aruco.reshape(1, 4, 2), turned_H[i]).reshape(4, 2)
            out.append(Detection(marker, frame_q.astype(np.float32)))
        stories.append(Candidate(tuple(centres[i]), tiles[i], turned_H[i], q, bool(ok[i]), marker, float(rim[i])))
    return out, stories


def cell_px_in_frame(to_frame: np.ndarray, size: int, cell_px: int) -> float:
    """A marker cell's size in frame pixels at the centre of a patch of ``size`` px whose
    homography into the frame is ``to_frame`` (3, 3), ``cell_px`` patch pixels a cell: the
    patch's scale there (the root of the Jacobian's determinant)."""
    c0 = (size - 1) / 2
    (a, b), (c, d) = jacobian_at(to_frame, c0, c0)
    return math.sqrt(abs(a * d - b * c)) * cell_px


def _turned_many(Hs: np.ndarray, thetas: np.ndarray, pivots: np.ndarray) -> np.ndarray:
    """The patch homographies ``Hs`` (N, 3, 3) with their pixels turned by ``thetas`` (N,)
    about ``pivots`` (N, 2) (x, y): the markers' edges along the axes."""
    # (math's cosine, not numpy's: the same turn to the last bit as one patch at a time)
    c = np.array([math.cos(t) for t in thetas])
    s_ = np.array([math.sin(t) for t in thetas])
    px, py = pivots[:, 0], pivots[:, 1]
    R = np.zeros((len(Hs), 3, 3))
    R[:, 0, 0], R[:, 0, 1], R[:, 0, 2] = c, -s_, px - c * px + s_ * py
    R[:, 1, 0], R[:, 1, 1], R[:, 1, 2] = s_, c, py - s_ * px - c * py
    R[:, 2, 2] = 1.0
    return Hs @ R


def _locate_read(settings, tiles: list[np.ndarray], to_frame: list[np.ndarray], side: float,
                 margin: int, margin_cells: float, dictionary: str) -> tuple[np.ndarray, ...]:
    """Locate and read the marker in each turned patch (P, P) uint8 of ``tiles`` (N of them;
    ``to_frame`` their homographies (3, 3) into the frame; the cap's white margin ``margin``
    patch pixels, ``margin_cells`` cells wide): per patch, how much brighter its cap's margin is than a black
    border (N,), the located centre (N, 2), the fitted quad (N, 4, 2), whether its edges fit
    (N,), whether it passed the first look (N,), the id read (N,) (-1: none) and its rotation
    (N,); points in patch pixels."""
    n, size = len(tiles), tiles[0].shape[0]
    # all patches in one tall image: the edge fit and the reading run once for them all, each
    # patch's edge rows repeated a quarter patch above and below it (what is sampled past a
    # patch's edge is its own, not the next patch's)
    gap = size // 4
    stack = np.stack(tiles)[:, _edged(size, gap)].reshape(-1, size)
    offs = np.arange(n)[:, None] * np.array([0.0, size + 2 * gap]) + np.array([0.0, gap])
    centre, rim = _border_centres(np.vstack(tiles), n, size, side, margin, settings.cell_px)
    centre = centre + offs
    quads = centre[:, None, :] + (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2)[None]
    # a first look: a cap's white margin around a black border, and cells like some marker's;
    # most of what is not a marker goes here, before the costlier fit and reading
    look = rim >= settings.min_rim
    # each patch's own templates: the frame's blur and pixel as its homography carries them into
    # the patch (stretched one way at a tilt, wide in cells for a small marker)
    c0 = (size - 1) / 2
    jac = jacobians_at(np.asarray(to_frame)[look], c0, c0)
    templates = dict(zip(np.flatnonzero(look), patches_templates(jac, settings.cell_px, margin_cells, dictionary)))
    # a cell's size in frame pixels at each centre (the root of the Jacobian's determinant)
    cells_px = dict(zip(np.flatnonzero(look),
                        np.sqrt(np.abs(jac[:, 0, 0] * jac[:, 1, 1] - jac[:, 0, 1] * jac[:, 1, 0])) * settings.cell_px))
    if look.any():
        look[look] = likeness(stack, centre[look], side, dictionary, [templates[i] for i in np.flatnonzero(look)]) \
            >= settings.screen_corr
    fitted, ok = quads.copy(), np.zeros(n, bool)
    ids, rot = np.full(n, -1), np.zeros(n, int)
    if look.any():
        fitted[look], ok[look] = fit_edges(stack, quads[look], samples=9)
        # a marker seen obliquely is sharp one way and blurred the other (the patch undoes its
        # shape, not its pixels), too weak for the line fit on two sides: its edges are
        # measured on the mean profiles across it instead
        redo = look & ~ok
        if redo.any():
            fitted[redo], ok[redo] = _profile_box(stack, centre[redo], side)
        # read at the printed size, centred and turned as the edges say
        f = fitted[look]
        e = f[:, [1, 2, 3, 0]] - f
        ang = np.arctan2(e[..., 1], e[..., 0]) - np.arange(4) * np.pi / 2
        turn = np.angle(np.exp(1j * ang).mean(axis=1))
        cell = np.array([cells_px[i] for i in np.flatnonzero(look)])
        margins = np.where(cell >= settings.large_cell_px, settings.margin_large, settings.margin)
        ids[look], rot[look] = read_jittered(settings, stack, f.mean(axis=1), turn, side, dictionary,
                                              templates=[templates[i] for i in np.flatnonzero(look)], margins=margins)
    ids = np.where(ok, ids, -1)
    return rim, centre - offs, fitted - offs[:, None, :], ok, look, ids, rot


def _border_centres(stack: np.ndarray, n: int, size: int, side: float, margin: int,
                    cell: int) -> tuple[np.ndarray, np.ndarray]:
    """Per patch (``n`` patches of ``size`` stacked in rows), the point (n, 2) within half a
    marker of its centre where a black border one cell wide inside a white margin fits best
    (the mean of the margin less the mean of the border, from box sums; a parabola's vertex),
    and that difference there (n,) in grey levels."""
    s_in = int(round(side)) | 1
    s_core = max(1, int(round(side - 2 * cell)) | 1)
    s_out = s_in + 2 * margin
    c0 = (size - 1) // 2
    reach = int(round(0.45 * side))
    m = 2 * reach + 1
    # box sums only where the centre is looked for (a fifth of the patch), from one integral
    # image of the stack with its edges repeated (what a box filter of the stack would sum; the
    # largest box reaches a few pixels into the next patch: summing only each patch's own pixels
    # read 9 more small markers on the tuning frames but lost one in test_vision_turned's scene)
    pad = s_out // 2
    padded = cv2.copyMakeBorder(stack, pad, pad + size, pad, pad, cv2.BORDER_REPLICATE)  # room below: a view
    integral = cv2.integral(padded)[:n * size + 2 * pad + size]
    first = c0 - reach + pad  # the window's first row and column, in the padded stack

    def at(row: int, col: int) -> np.ndarray:  # integral[i * size + row + y, col + x] (n, m, m)
        return integral[row:row + n * size].reshape(n, size, -1)[:, :m, col:col + m]

    def box(k: int) -> np.ndarray:  # sums of k x k boxes centred on the window's points (n, m, m)
        lo, hi = first - k // 2, first + k // 2 + 1
        return (at(hi, hi) - at(lo, hi) - at(hi, lo) + at(lo, lo)).astype(np.float32)

    core, inner, outer = box(s_core), box(s_in), box(s_out)
    border = (inner - core) / (s_in ** 2 - s_core ** 2)
    ring = (outer - inner) / (s_out ** 2 - s_in ** 2)
    win = ring - border
    k = win.reshape(n, -1).argmax(axis=1)
    iy, ix = np.clip(k // m, 1, m - 2), np.clip(k % m, 1, m - 2)
    rows = np.arange(n)

    def vertex(lo, mid, hi):  # a parabola's highest point through three samples, -0.5..0.5
        den = lo - 2 * mid + hi
        return np.clip(np.where(den < -1e-9, 0.5 * (lo - hi) / np.where(den < -1e-9, den, -1.0), 0.0), -0.5, 0.5)

    sx = vertex(win[rows, iy, ix - 1], win[rows, iy, ix], win[rows, iy, ix + 1])
    sy = vertex(win[rows, iy - 1, ix], win[rows, iy, ix], win[rows, iy + 1, ix])
    return np.column_stack([c0 - reach + ix + sx, c0 - reach + iy + sy]), win[rows, iy, ix]


def _profile_box(image: np.ndarray, centre: np.ndarray, side: float) -> tuple[np.ndarray, np.ndarray]:
    """Upright squares' edges measured on mean profiles: for markers of about ``side`` px
    centred near ``centre`` (N, 2) in ``image`` (turned so that their edges run along the
    axes), the steepest fall from the cap's white into the black border on each side (within a
    cell of where it should be, to a tenth of a pixel), across the middle 70 % of the marker.
    Returns the quads (N, 4, 2), clockwise, and whether all four edges were found with a
    marker's proportions (N,)."""
    n = len(centre)
    half, band, reach = side / 2, 0.35 * side, side / 6
    t = np.arange(-int(half + 2 * reach), int(half + 2 * reach) + 1, dtype=np.float64)  # along
    u = np.linspace(-band, band, 9)  # across
    # horizontal profiles (x varies, averaged over rows) and vertical ones, for all at once
    px = np.stack([centre[:, None, None, 0] + t[None, None, :] + 0 * u[None, :, None],
                   centre[:, None, None, 1] + u[None, :, None] + 0 * t[None, None, :]], axis=-1)
    py = np.stack([centre[:, None, None, 0] + u[None, :, None] + 0 * t[None, None, :],
                   centre[:, None, None, 1] + t[None, None, :] + 0 * u[None, :, None]], axis=-1)
    prof = sample_points(image, np.stack([px, py], axis=1)).mean(axis=2)  # (N, 2, T)
    grad = np.diff(prof, axis=-1)  # grad[k] between t[k] and t[k + 1]
    mid_t = (t[:-1] + t[1:]) / 2
    edges = np.zeros((n, 2, 2))  # per axis: low edge, high edge (offsets from the centre)
    found = np.ones(n, bool)
    for e, sign, want in ((0, -1.0, -half), (1, 1.0, half)):  # falling into black, rising out
        win = np.abs(mid_t - want) <= reach
        g = np.where(win[None, None], sign * grad, -np.inf)
        k = np.clip(np.argmax(g, axis=-1), 1, grad.shape[-1] - 2)
        g0 = np.take_along_axis(grad, (k - 1)[..., None], -1)[..., 0] * sign
        g1 = np.take_along_axis(grad, k[..., None], -1)[..., 0] * sign
        g2 = np.take_along_axis(grad, (k + 1)[..., None], -1)[..., 0] * sign
        den = g0 - 2 * g1 + g2
        sub = np.clip(np.where(den < -1e-9, 0.5 * (g0 - g2) / np.where(den < -1e-9, den, -1.0), 0.0), -0.5, 0.5)
        edges[:, :, e] = mid_t[k] + sub
        found &= (g1 > STRONG_EDGE).all(axis=1)
    size = edges[:, :, 1] - edges[:, :, 0]  # (N, 2) width, height
    ok = found & (size > 0.8 * side).all(axis=1) & (size < 1.25 * side).all(axis=1)
    x0, x1 = centre[:, 0] + edges[:, 0, 0], centre[:, 0] + edges[:, 0, 1]
    y0, y1 = centre[:, 1] + edges[:, 1, 0], centre[:, 1] + edges[:, 1, 1]
    quads = np.stack([np.column_stack([x0, y0]), np.column_stack([x1, y0]), np.column_stack([x1, y1]),
                      np.column_stack([x0, y1])], axis=1)
    return quads, ok


def spaced_out(close: np.ndarray, limit: int) -> list[int]:
    """Indices of points taken greedily in order (strongest first), none ``close`` (N, N) bool
    to one taken before, at most ``limit``: no two candidates on one marker."""
    keep: list[int] = []
    free = np.ones(len(close), bool)
    for i in range(len(close)):
        if free[i]:
            keep.append(i)
            free &= ~close[i]
            if len(keep) == limit:
                break
    return keep


def one_per_id(got: list[Detection]) -> list[Detection]:
    """One detection per id: readings of one id on one marker (two candidates on it) are one,
    the first (strongest) kept; an id read at two places is no reading at all (as a conflict
    it would cost the figure read correctly)."""
    out = []
    for marker in sorted({d.marker for d in got}):
        same = [d for d in got if d.marker == marker]
        if all(np.linalg.norm(d.center - same[0].center) < 0.7 * same[0].side_px for d in same):
            out.append(same[0])
    return out
