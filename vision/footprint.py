"""Markers drawn as the camera draws them: templates for reading small and oblique patches.

A rescue patch (:mod:`vision.rescue`) is the frame resampled square to the board, so a marker's
shape is undone but not its pixels: a 9 mm marker at 1080p has cells of 1.2 frame pixels, and at
a 40 degree tilt a cell is a pixel or less one way and two the other. What a cell's grey value
is in the patch is the printed pattern seen through the frame's blur and its pixel's footprint,
both round in the frame and so, in the patch, stretched along the foreshortened direction and
wide in cells for a small marker. Fixed templates blurred the same way in every direction fit
neither (the true id's correlation falls to 0.8-0.95 and the margin over the others goes).

Here the templates are drawn per patch: each cell of the 4 x 4 code, the black border and the
cap's white margin (grey beyond it: whatever lies around a cap) is a rectangle whose grey value
at each sample point is the chance that a Gaussian of the patch's covariance (the frame's blur
and pixel, carried into the patch by the homography's Jacobian at the marker) falls in it:
exact for the model, computed once per patch for a few blur levels and shared by every id and
rotation (a template is a sum of its cells' images). :func:`patch_templates` draws them;
:func:`read_jittered` reads a located patch with them (:func:`vision.patches.read_patches`
locates it).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .refine import SUB_CELL, cell_grid, sample_xy, blurred_templates, dictionary_codes, read_bits

if TYPE_CHECKING:
    from .rescue import RescueSettings

# the frame's blur levels tried (pixels, the pixel's own footprint added to each): a sharp
# webcam frame, an ordinary one, focus or motion blur, and a 4K frame's doubled
BLUR_PX = (0.3, 0.55, 0.85, 1.2, 1.6)
_PIXEL_VAR = 1.0 / 12.0  # a pixel's box, as a variance (px^2)
_SURROUND = 0.5  # what lies beyond a cap's white margin, in the model (black 0, white 1)
# Gauss-Legendre nodes and weights on [-1, 1]: the rectangle's chance, integrated across one axis
_GL_X, _GL_W = np.polynomial.legendre.leggauss(12)


def _phi(z: np.ndarray) -> np.ndarray:
    """The standard normal's distribution function (Abramowitz and Stegun 7.1.26, to 1.5e-7)."""
    x = np.abs(z) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = 1.0 - poly * np.exp(-x * x)
    return 0.5 * (1.0 + np.sign(z) * erf)


def rect_chance(lo: np.ndarray, hi: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """P(e in the rectangle [lo, hi]) for e ~ N(0, ``cov``): rectangles ``lo`` and ``hi``
    (..., 2) in cells, covariances ``cov`` (2, 2) or (L, 2, 2) -> (...) or (L, ...). Across y by
    Gauss-Legendre over the part of the rectangle within five deviations; along x exactly,
    given y."""
    cov = np.asarray(cov, np.float64)
    single = cov.ndim == 2
    cov = cov.reshape(-1, 2, 2)
    extra = (1,) * (lo.ndim - 1)
    a, b, c = (cov[:, i, j].reshape(-1, *extra, 1) for i, j in ((0, 0), (0, 1), (1, 1)))
    sy = np.sqrt(c)
    s = np.sqrt(np.maximum(a - b * b / c, 1e-12))
    y0 = np.maximum(lo[None, ..., 1:2], -5 * sy)
    y1 = np.minimum(hi[None, ..., 1:2], 5 * sy)
    span = np.maximum(y1 - y0, 0.0)
    y = (y0 + y1) / 2 + span / 2 * _GL_X  # (L, ..., Q)
    dens = np.exp(-y * y / (2 * c)) / (sy * math.sqrt(2 * math.pi))
    mu = (b / c) * y
    along = _phi((hi[None, ..., 0:1] - mu) / s) - _phi((lo[None, ..., 0:1] - mu) / s)
    out = (dens * along * _GL_W).sum(axis=-1) * span[..., 0] / 2
    return out[0] if single else out


def _lattice_chance(cov: np.ndarray) -> np.ndarray:
    """:func:`rect_chance` for the unit cells [d - 1, d] of the lattice of offsets (d from
    :data:`_OFFS` along each axis), covariances ``cov`` (L, 2, 2) -> (L, 22 (y), 22 (x)). The
    same arithmetic, but what depends on y alone is worked out once a row, and the normal's
    distribution once for each distinct cell edge along x (:data:`_EDGES`, 29 for 44 edges: a
    cell's left edge is mostly its left neighbour's right one), in a third of the time."""
    cov = np.asarray(cov, np.float64).reshape(-1, 2, 2)
    a, b, c = (cov[:, i, j].reshape(-1, 1, 1, 1) for i, j in ((0, 0), (0, 1), (1, 1)))
    sy = np.sqrt(c)
    s = np.sqrt(np.maximum(a - b * b / c, 1e-12))
    d = _OFFS[:, None, None]  # (22 rows, 1, 1): each row's cell is [d - 1, d] in y
    y0 = np.maximum(d - 1.0, -5 * sy)  # (L, 22, 1, 1)
    y1 = np.minimum(d, 5 * sy)
    span = np.maximum(y1 - y0, 0.0)
    y = (y0 + y1) / 2 + span / 2 * _GL_X  # (L, 22, 1, Q)
    dens = np.exp(-y * y / (2 * c)) / (sy * math.sqrt(2 * math.pi))
    mu = (b / c) * y
    phi = _phi((_EDGES[None, None, :, None] - mu) / s)  # (L, 22, edges, Q)
    along = phi[:, :, _HI_EDGE] - phi[:, :, _LO_EDGE]  # (L, 22, 22, Q)
    return (dens * along * _GL_W).sum(axis=-1) * span[..., 0] / 2


def _sample_points() -> np.ndarray:
    """Where the cells are sampled (144, 2), in cells from the marker's top-left corner, in the
    order :func:`vision.rescue._cells` averages them (row-major over 12 x 12)."""
    g = (np.arange(6) + 0.5)[:, None] + np.array(SUB_CELL)[None, :]
    u = g.ravel()
    U, V = np.meshgrid(u, u)
    return np.column_stack([U.ravel(), V.ravel()])


_PTS = _sample_points()


def _lattice() -> tuple[np.ndarray, np.ndarray]:
    """The offsets between sample points and cells' corners take few values: per axis the 22
    (sample's place in its cell, cells apart) pairs. Returns those offsets (22,) and, per sample
    point and cell, the index (144, 36, 2) of its x and y offset among them."""
    sub = np.array(SUB_CELL) + 0.5  # a sample's place in its cell
    apart = np.arange(-5, 6)
    offs = (apart[:, None] + sub[None, :]).ravel()  # (22,)
    k = len(SUB_CELL)
    pi = np.arange(6 * k)  # a sample's index along an axis: cell pi // k, place pi % k
    ci = np.arange(6)
    idx = ((pi[:, None] // k - ci[None, :]) + 5) * k + pi[:, None] % k  # (12, 6)
    ix = np.broadcast_to(idx[None, :, None, :], (6 * k, 6 * k, 6, 6))  # (py, px, cy, cx): x offset
    iy = np.broadcast_to(idx[:, None, :, None], (6 * k, 6 * k, 6, 6))
    return offs, np.stack([ix.reshape(-1, 36), iy.reshape(-1, 36)], axis=-1)


_OFFS, _IDX = _lattice()
# the cells' edges along x: each cell [d - 1, d] of the lattice as indices into these
_EDGES = np.unique(np.concatenate([_OFFS - 1.0, _OFFS]))
_LO_EDGE, _HI_EDGE = np.searchsorted(_EDGES, _OFFS - 1.0), np.searchsorted(_EDGES, _OFFS)


def cell_images(cov: np.ndarray, margin_cells: float) -> tuple[np.ndarray, np.ndarray]:
    """For patches whose blur is ``cov`` (L, 2, 2) in cells^2: each of the 36 cells' image at
    the sample points (L, 144, 36), and the image of a marker with every cell black inside a
    white margin ``margin_cells`` wide (L, 144), grey beyond."""
    # a cell seen from a sample point p: e = p - x for x in the cell, on the lattice of offsets
    lattice = _lattice_chance(cov)  # (L, 22, 22): [y index, x index]
    per_cell = lattice[:, _IDX[..., 1], _IDX[..., 0]]
    m = margin_cells
    cap = rect_chance(_PTS - (6.0 + m), _PTS + m, cov)
    inside = per_cell.sum(axis=2)
    base = (cap - inside) + _SURROUND * (1.0 - cap)
    return per_cell, base


@lru_cache(maxsize=4)
def _code_cells(dictionary: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every marker in its four rotations as its 36 cells (4M, 36), 1 white, border black; ids
    and rotations (4M,)."""
    codes, ids, rots, nbits = dictionary_codes(dictionary)
    if nbits != 4:
        raise ValueError(f"{dictionary}: only 4 x 4 markers are drawn here")
    bits = (codes[:, None] >> np.arange(16)[::-1][None, :]) & 1
    grid = np.zeros((len(codes), 6, 6))
    grid[:, 1:5, 1:5] = bits.reshape(-1, 4, 4)
    return grid.reshape(len(codes), 36), ids, rots


def patch_templates(jacobian: np.ndarray, cell_px: float, margin_cells: float,
                    dictionary: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Templates for one patch: every marker of the dictionary in its four rotations, drawn as
    this patch's camera draws it at each of :data:`BLUR_PX`, as the 36 cells' grey values
    (centred, unit length): (templates (L * 4M, 36), ids, rotations, each template's range),
    blur-major as :func:`vision.refine.blurred_templates` orders them. Patches alike (their
    blur's shape within 8 %% and 8 degrees) share one set: see :func:`_templates`."""
    return patches_templates(np.asarray(jacobian, np.float64)[None], cell_px, margin_cells, dictionary)[0]


def patches_templates(jacobians: np.ndarray, cell_px: float, margin_cells: float, dictionary: str) -> list:
    """:func:`patch_templates` for many patches at once, their Jacobians (N, 2, 2): a list of N
    template sets (the quantized keys computed together: per patch in Python they cost more
    than the cached sets' lookup)."""
    # a frame pixel's variance in cells^2: inv(J) inv(J)^T / cell^2, its axes in closed form
    # (numpy's 2 x 2 solvers cost more than the rest of a cached call)
    a, b, c, d = (jacobians[:, i, j] for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
    det = a * d - b * c
    p, q, r, t = d / det, -b / det, -c / det, a / det  # inv(J) = [[p, q], [r, t]]
    sxx, sxy, syy = (p * p + q * q) / cell_px ** 2, (p * r + q * t) / cell_px ** 2, (r * r + t * t) / cell_px ** 2
    mid, half = (sxx + syy) / 2, np.hypot((sxx - syy) / 2, sxy)
    lo, hi = np.maximum(mid - half, 1e-9), mid + half
    ang = np.degrees(0.5 * np.arctan2(2 * sxy, sxx - syy)) % 180.0  # the long axis
    k_lo, k_hi = np.round(np.log(lo) / 0.08).astype(int), np.round(np.log(hi) / 0.08).astype(int)
    k_ang = np.where(hi > 1.1 * lo, np.round(ang / 8.0).astype(int) % 23, 0)
    k_margin = round(margin_cells / 0.1)
    return [_templates((int(x), int(y), int(z), k_margin), dictionary) for x, y, z in zip(k_lo, k_hi, k_ang)]


@lru_cache(maxsize=256)
def _templates(key: tuple[int, int, int, int], dictionary: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The templates of :func:`patch_templates` for a blur shape quantized as ``key``: (log of
    the short and long axis' variance in steps of 0.08, the long axis' direction in steps of
    8 degrees, the margin in tenths of a cell)."""
    lo, hi, turn, margin = key
    a = math.radians(turn * 8.0)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    shape = rot @ np.diag([math.exp(hi * 0.08), math.exp(lo * 0.08)]) @ rot.T
    covs = np.stack([shape * (blur ** 2 + _PIXEL_VAR) for blur in BLUR_PX])
    per_cell, base = cell_images(covs, margin * 0.1)
    k = len(SUB_CELL)  # each cell's samples averaged first: the cells' images (L, 36, 37)
    cells = np.concatenate([per_cell, base[..., None]], axis=2).reshape(len(BLUR_PX), 6, k, 6, k, 37)
    cells = cells.mean(axis=(2, 4)).reshape(len(BLUR_PX), 36, 37)
    V, ids, rots = _code_cells(dictionary)
    # (a matrix product: numpy's einsum took a sixth of this function's time for it)
    T = (np.matmul(V[None], cells[..., :36].transpose(0, 2, 1)) + cells[:, None, :, 36]).reshape(-1, 36)
    T -= T.mean(axis=1, keepdims=True)
    T /= np.maximum(np.linalg.norm(T, axis=1, keepdims=True), 1e-9)
    n = len(BLUR_PX)
    T = T.astype(np.float32)
    T.flags.writeable = False
    return T, np.tile(ids, n), np.tile(rots, n), T.max(axis=1) - T.min(axis=1)


def jacobian_at(H: np.ndarray, u: float, v: float) -> np.ndarray:
    """d(frame)/d(patch) (2, 2) of the homography ``H`` (3, 3, patch -> frame) at patch point (u, v)."""
    p = H @ np.array([u, v, 1.0])
    w = p[2]
    x, y = p[0] / w, p[1] / w
    return np.array([[(H[0, 0] - x * H[2, 0]) / w, (H[0, 1] - x * H[2, 1]) / w],
                     [(H[1, 0] - y * H[2, 0]) / w, (H[1, 1] - y * H[2, 1]) / w]])


def jacobians_at(Hs: np.ndarray, u: float, v: float) -> np.ndarray:
    """d(frame)/d(patch) (N, 2, 2) of the homographies ``Hs`` (N, 3, 3, patch -> frame) at the
    patch point (u, v)."""
    p = Hs @ np.array([u, v, 1.0])  # (N, 3)
    w = p[:, 2]
    x, y = p[:, 0] / w, p[:, 1] / w
    return np.stack([np.stack([(Hs[:, 0, 0] - x * Hs[:, 2, 0]) / w, (Hs[:, 0, 1] - x * Hs[:, 2, 1]) / w], axis=1),
                     np.stack([(Hs[:, 1, 0] - y * Hs[:, 2, 0]) / w, (Hs[:, 1, 1] - y * Hs[:, 2, 1]) / w], axis=1)],
                    axis=1)


# --- reading a patch with them ----------------------------------------------------------------------

# the read is tried a little off where the edges say: centre (cells) and turn (degrees)
_SHIFTS = (-0.15, 0.0, 0.15)
_TURNS = (-3.0, 0.0, 3.0)
# and, where the best id fell short of its margin by less than half, finer and a little farther
_FINE_SHIFTS = tuple(np.linspace(-0.3, 0.3, 7))
_FINE_TURNS = tuple(np.linspace(-4.5, 4.5, 7))
_FINE_SHORT = 0.5


def _cells(image: np.ndarray, centre: np.ndarray, ang: np.ndarray, side: float) -> np.ndarray:
    """The 6 x 6 cells' grey values (N * J, 36) of squares of ``side`` centred at ``centre``
    (N, J, 2) and turned ``ang`` (N, J) radians in ``image``, sampled as
    :func:`vision.refine.read_bits` samples them (a turned square needs no homography)."""
    canon, _ = cell_grid(6)
    u = (canon[:, :2] - 3.0) * side / 6  # (C, 2) about the centre
    c, s = np.cos(ang), np.sin(ang)
    px = centre[..., None, 0] + c[..., None] * u[:, 0] - s[..., None] * u[:, 1]  # (N, J, C)
    py = centre[..., None, 1] + s[..., None] * u[:, 0] + c[..., None] * u[:, 1]
    k = len(SUB_CELL)
    vals = sample_xy(image, px, py).reshape(-1, 6, k, 6, k)
    # each cell's k x k samples summed one by one: numpy's mean over two axes took 5 times as
    # long (whole grey levels: the same sums in any order)
    total = sum(vals[:, :, i, :, j] for i in range(k) for j in range(k))
    return total.reshape(-1, 36).astype(np.float64) / (k * k)


def likeness(image: np.ndarray, mid: np.ndarray, side: float, dictionary: str,
              templates: list | None = None) -> np.ndarray:
    """How like any marker of the dictionary (N,), drawn as its patch's camera draws it
    (``templates`` per square, as :func:`read_jittered` takes them; by default drawn blurred),
    the unturned squares of ``side`` centred at ``mid`` (N, 2) in ``image`` look: the best
    correlation. A cheap first look (one place, every template), before the edge fit and the
    nudged reading."""
    if templates is None:
        templates = [blurred_templates(dictionary)] * len(mid)
    obs = _cells(image, mid[:, None, :], np.zeros((len(mid), 1)), side)
    obs -= obs.mean(axis=1, keepdims=True)
    unit = (obs / np.maximum(np.linalg.norm(obs, axis=1), 1e-9)[:, None]).astype(np.float32)
    out = np.zeros(len(mid))
    for rows in _alike(templates).values():
        out[rows] = (unit[rows] @ np.asarray(templates[rows[0]][0], np.float32).T).max(axis=1)
    return out


def _alike(templates: list) -> dict[int, list[int]]:
    """The patches (indices) that share one set of templates, per set."""
    groups: dict[int, list[int]] = {}
    for i, t in enumerate(templates):
        groups.setdefault(id(t[0]), []).append(i)
    return groups


@lru_cache(maxsize=4)
def _nudges(shifts: tuple[float, ...], turns: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The grid of nudges (J,) each: x and y shifts (cells) and turns (radians), shifts-major."""
    dx, dy, dt = np.meshgrid(shifts, shifts, np.radians(turns), indexing="ij")
    out = dx.ravel(), dy.ravel(), dt.ravel()
    for a in out:
        a.flags.writeable = False
    return out


def read_jittered(settings: RescueSettings, image: np.ndarray, mid: np.ndarray, turn: np.ndarray, side: float,
                   dictionary: str, details: list | None = None,
                   templates: list | None = None, margins: np.ndarray | None = None,
                   grid: tuple[tuple[float, ...], tuple[float, ...]] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Ids (N,) (-1: none) and rotations (N,) of markers of ``side`` px centred at ``mid``
    (N, 2), turned ``turn`` (N,) radians in ``image``, by correlation with the dictionary drawn
    as each patch's camera draws it (``templates``, per marker: :func:`vision.footprint.patch_templates`;
    by default the fixed :func:`vision.refine.blurred_templates`), each id's best over a few
    nudges of centre and turn: accepted with a correlation of ``min_corr``, a contrast of
    ``min_contrast`` and a misfit (1 - r^2) ``margin`` (or ``margins`` (N,), per marker) times
    smaller than the best other id's over the same nudges; a threshold reading of the bits,
    where there is one, must agree."""
    n = len(mid)
    if templates is None:
        templates = [blurred_templates(dictionary)] * n
    t_ids, t_rots = templates[0][1], templates[0][2]  # one layout for all: blur-major, id, rotation
    dx, dy, dt = _nudges(*(grid or (_SHIFTS, _TURNS)))
    j = len(dx)
    cell = side / 6
    ang = turn[:, None] + dt[None]  # (N, J)
    centre = mid[:, None, :] + np.stack([dx, dy], axis=-1)[None] * cell  # (N, J, 2)
    obs = _cells(image, centre, ang, side)
    obs -= obs.mean(axis=1, keepdims=True)
    norm = np.linalg.norm(obs, axis=1)
    unit_obs = (obs / np.maximum(norm, 1e-9)[:, None]).astype(np.float32).reshape(n, j, 36)
    corr = np.empty((n, j, len(t_ids)), np.float32)  # (N, J, M)
    for rows_ in _alike(templates).values():
        corr[rows_] = unit_obs[rows_] @ np.asarray(templates[rows_[0]][0], np.float32).T
    # templates run blur-major, then id, then rotation: each id's best over nudges, blurs, turns
    n_ids = int(t_ids.max()) + 1
    per_id = corr.reshape(n, -1, n_ids * 4).max(axis=1).reshape(n, n_ids, 4).max(axis=2).astype(np.float64)
    order = np.argsort(-per_id, axis=1)
    best, second = order[:, 0], order[:, 1]
    rows = np.arange(n)
    r1, r2 = per_id[rows, best], per_id[rows, second]
    misfit1, misfit2 = 1 - np.clip(r1, 0, 1) ** 2, 1 - np.clip(r2, 0, 1) ** 2
    k = corr.reshape(n, -1).argmax(axis=1)  # the nudge and template of the best fit
    jj, mm = k // corr.shape[2], k % corr.shape[2]
    t_range = np.array([templates[i][3][mm[i]] for i in range(n)])
    contrast = norm.reshape(n, j)[rows, jj] * r1 * t_range
    margin = settings.margin if margins is None else margins
    good = (r1 >= settings.min_corr) & (misfit2 >= margin * misfit1) & (contrast >= settings.min_contrast)
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2
    cb, sb = np.cos(ang[rows, jj]), np.sin(ang[rows, jj])
    at = centre[rows, jj]
    quads = np.stack([at[:, None, 0] + cb[:, None] * unit[:, 0] - sb[:, None] * unit[:, 1],
                      at[:, None, 1] + sb[:, None] * unit[:, 0] + cb[:, None] * unit[:, 1]], axis=-1)
    bits, _ = read_bits(image, quads, dictionary)
    good &= (bits < 0) | (bits == best)
    if details is not None:  # for looking at what was refused: (best id, r1, r2, contrast, bits)
        details.append((best, r1, r2, contrast, bits))
    ids, rots = np.where(good, best, -1), t_rots[mm]
    short = np.flatnonzero(~good & (r1 >= settings.min_corr) & (contrast >= settings.min_contrast)
                           & (misfit2 >= _FINE_SHORT * margin * misfit1)) if grid is None else []
    if len(short):
        # read again on a finer grid of nudges: every id at its own best place, the margin as strict
        m_short = None if margins is None else np.asarray(margins)[short]
        ids[short], rots[short] = read_jittered(settings, image, mid[short], turn[short], side, dictionary, None,
                                                 [templates[i] for i in short], m_short, (_FINE_SHIFTS, _FINE_TURNS))
    return ids, rots
