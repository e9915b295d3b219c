"""Exact corners and bits for small markers.

OpenCV's contour corners sit about a pixel inside a small marker and its bit sampling gives up
on many 12-18 px markers. Here each candidate quadrilateral (accepted or rejected by OpenCV) is
refined by fitting a straight line to each of its four edges (sub-pixel edge points along the
edge normals) and re-read by sampling every cell's centre bilinearly, with a threshold taken
from the marker's own black border. Only exact dictionary matches are accepted.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

SUB_CELL = (-0.18, 0.18)  # where each cell is sampled, in cells from its centre (2 x 2 points)
STRONG_EDGE = 3.0  # grey levels per sample step: the least gradient taken for an edge point


@lru_cache(maxsize=4)
def dictionary_codes(dictionary: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Every marker of a dictionary in its four rotations as integers: (codes (4M,), ids (4M,),
    rotations (4M,), bits per side)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    n = d.markerSize
    if n * n > 16:
        raise ValueError(f"{dictionary}: markers of more than 4 x 4 bits are not supported here")
    weights = (1 << np.arange(n * n, dtype=np.int64))[::-1]
    codes, ids, rots = [], [], []
    for marker in range(d.bytesList.shape[0]):
        bits = cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[marker:marker + 1], n)
        for k in range(4):
            codes.append(int((np.rot90(bits, k).ravel() * weights).sum()))
            ids.append(marker)
            rots.append(k)
    return np.array(codes, np.int64), np.array(ids), np.array(rots), n


def square_homographies(quads: np.ndarray, side: float) -> np.ndarray:
    """Homographies (N, 3, 3) taking the square (0,0), (side,0), (side,side), (0,side) onto each
    quad (N, 4, 2), solved in one batch (the 8 x 8 direct linear system)."""
    n = len(quads)
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], float)
    A = np.zeros((n, 8, 8))
    b = np.zeros((n, 8))
    for k in range(4):
        x, y = src[k]
        u, v = quads[:, k, 0], quads[:, k, 1]
        A[:, 2 * k, 0:3] = [x, y, 1]
        A[:, 2 * k, 6] = -x * u
        A[:, 2 * k, 7] = -y * u
        A[:, 2 * k + 1, 3:6] = [x, y, 1]
        A[:, 2 * k + 1, 6] = -x * v
        A[:, 2 * k + 1, 7] = -y * v
        b[:, 2 * k], b[:, 2 * k + 1] = u, v
    h = np.linalg.solve(A, b[..., None])[..., 0]
    return np.concatenate([h, np.ones((n, 1))], axis=1).reshape(n, 3, 3)


_NEXT, _PREV = [1, 2, 3, 0], [3, 0, 1, 2]  # each corner's next and previous, round the quad


def square_points(quads: np.ndarray, uv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points given in the unit square (P, 2) (corner 0 at (0, 0), 1 at (1, 0), 2 at (1, 1))
    carried onto each quad (N, 4, 2) by the homography taking the square onto it (closed form):
    their x and y (N, P)."""
    x0, x1, x2, x3 = (quads[:, i, 0:1] for i in range(4))
    y0, y1, y2, y3 = (quads[:, i, 1:2] for i in range(4))
    sx, sy = x0 - x1 + x2 - x3, y0 - y1 + y2 - y3
    dx1, dx2, dy1, dy2 = x1 - x2, x3 - x2, y1 - y2, y3 - y2
    den = dx1 * dy2 - dx2 * dy1
    den = np.where(np.abs(den) > 1e-12, den, 1e-12)
    g, h = (sx * dy2 - dx2 * sy) / den, (dx1 * sy - sx * dy1) / den
    u, v = uv[None, :, 0], uv[None, :, 1]
    w = g * u + h * v + 1.0
    x = ((x1 - x0 + g * x1) * u + (x3 - x0 + h * x3) * v + x0) / w
    y = ((y1 - y0 + g * y1) * u + (y3 - y0 + h * y3) * v + y0) / w
    return x, y


def _clockwise(quads: np.ndarray) -> np.ndarray:
    """Quads (N, 4, 2) ordered clockwise on screen (image y points down)."""
    q = quads.copy()
    x, y = q[..., 0], q[..., 1]
    area = (x * y[:, _NEXT] - x[:, _NEXT] * y).sum(axis=1)
    flip = area < 0
    q[flip] = q[flip][:, [0, 3, 2, 1]]
    return q


def _sample(gray: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear grey values at points (..., 2) -> (...) float32."""
    return _sample_xy(gray, pts[..., 0], pts[..., 1])


_REMAP_WIDTH = 32000  # remap wants maps narrower than 32767 pixels


def _sample_xy(gray: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear grey values at points whose coordinates are ``x`` and ``y`` (any one shape)
    -> that shape, float32. Many points fold into rows of a remap table."""
    shape = x.shape
    n = x.size
    rows = max(1, -(-n // _REMAP_WIDTH))
    width = -(-n // rows)
    mx = np.zeros(rows * width, np.float32)
    my = np.zeros(rows * width, np.float32)
    mx[:n] = x.ravel()
    my[:n] = y.ravel()
    out = cv2.remap(gray, mx.reshape(rows, width), my.reshape(rows, width), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1)[:n].reshape(shape).astype(np.float32)


_STEPS = np.linspace(-1.0, 1.0, 13)  # where an edge is looked for, in fractions of the reach


def fit_edges(gray: np.ndarray, quads: np.ndarray, samples: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Corners (N, 4, 2) from straight lines fitted to each side's dark-to-light edge, and a flag
    (N,) that the fit was consistent (each edge point within half a pixel of its line, or a
    tenth of the side). Quads must be clockwise on screen. Inconsistent quads keep their input.

    (x and y are kept in arrays of their own: numpy's overhead on many small (..., 2) arrays
    was most of the time.)"""
    q = quads.astype(np.float64)
    n = len(q)
    if n == 0:
        return q, np.zeros(0, bool)
    ab = q[:, _NEXT] - q  # side k runs from corner k to k + 1
    side = np.sqrt((ab ** 2).sum(axis=2))  # (N, 4)
    reach = np.clip(side.mean(axis=1) / 7.0, 1.5, 4.0)  # search +- this far along the normal
    t = np.linspace(0.18, 0.82, samples)
    nx, ny = ab[..., 1] / side, -ab[..., 0] / side  # the normal, outward for a clockwise quad
    bx = q[:, :, None, 0] + ab[:, :, None, 0] * t  # (N, 4, S): points along each side
    by = q[:, :, None, 1] + ab[:, :, None, 1] * t
    offs = reach[:, None, None, None] * _STEPS  # (N, 1, 1, P)
    prof = _sample_xy(gray, bx[..., None] + offs * nx[:, :, None, None], by[..., None] + offs * ny[:, :, None, None])
    grad = np.diff(prof, axis=-1)  # dark inside -> light outside: positive
    k = np.clip(np.argmax(grad, axis=-1), 1, grad.shape[-1] - 2)
    flat, kf = grad.reshape(-1, grad.shape[-1]), k.reshape(-1)
    at = np.arange(len(kf))
    g0, g1, g2 = (flat[at, kf + d].reshape(k.shape) for d in (-1, 0, 1))
    denom = g0 - 2 * g1 + g2
    sub = np.where(np.abs(denom) > 1e-6, 0.5 * (g0 - g2) / np.where(denom == 0, 1, denom), 0.0)
    sub = np.clip(sub, -0.5, 0.5)
    step = reach[:, None, None] * (_STEPS[1] - _STEPS[0])
    # grad[i] sits between profile samples i and i+1
    edge_off = -reach[:, None, None] + (k + 0.5 + sub) * step
    # an edge point is one whose gradient stands out against the quad's own edges: a dim or blurred
    # marker has weak edges everywhere
    typical = np.median(g1.reshape(n, -1), axis=1)[:, None, None]
    strong = g1 > np.maximum(STRONG_EDGE, 0.4 * typical)
    ex, ey = bx + edge_off * nx[:, :, None], by + edge_off * ny[:, :, None]  # (N, 4, S)
    # a total-least-squares line per side, then again without the points far from it (a
    # neighbouring cap or a figure's base can pull a few edge points away)
    tol = np.maximum(0.5, side[..., None] / 10)
    w = strong.astype(np.float64)
    mx, my, c, s, resid = _fit_lines(ex, ey, w)
    w = (strong & (resid <= 2 * tol)).astype(np.float64)
    mx, my, c, s, resid = _fit_lines(ex, ey, w)
    used = w > 0
    ok_side = (used.sum(axis=2) >= samples - 3) & np.all((resid <= tol) | ~used, axis=2)
    # corner k is where side k-1 meets side k
    p1x, p1y, d1x, d1y = mx[:, _PREV], my[:, _PREV], c[:, _PREV], s[:, _PREV]
    cross = d1x * s - d1y * c
    safe = np.abs(cross) > 0.2
    along = ((mx - p1x) * s - (my - p1y) * c) / np.where(safe, cross, 1.0)
    corners = np.stack([p1x + along * d1x, p1y + along * d1y], axis=-1)
    moved = np.sqrt(((corners - q) ** 2).sum(axis=2)).max(axis=1)
    ok = ok_side.all(axis=1) & safe.all(axis=1) & (moved <= np.maximum(2.0, side.mean(axis=1) / 5))
    out = np.where(ok[:, None, None], corners, q)
    return out, ok


def _fit_lines(px: np.ndarray, py: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, ...]:
    """Weighted total-least-squares lines through points (x ``px``, y ``py``: (N, 4, S)): a point
    on each line (x, y: (N, 4)), its direction (cos, sin: (N, 4)), and every point's distance
    from its line (N, 4, S)."""
    wsum = np.maximum(w.sum(axis=2), 1e-9)
    mx = (px * w).sum(axis=2) / wsum
    my = (py * w).sum(axis=2) / wsum
    ux, uy = px - mx[..., None], py - my[..., None]
    sw = np.sqrt(w)
    dx, dy = ux * sw, uy * sw
    cxx = (dx ** 2).sum(axis=2)
    cyy = (dy ** 2).sum(axis=2)
    cxy = (dx * dy).sum(axis=2)
    ang = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
    c, s = np.cos(ang), np.sin(ang)
    resid = np.abs(ux * -s[..., None] + uy * c[..., None])  # along the normal (-sin, cos)
    return mx, my, c, s, resid


@lru_cache(maxsize=4)
def _cell_grid(cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample points (C, 3) in a marker's square of ``cells`` x ``cells`` (a 2 x 2 patch in the
    middle of each cell, homogeneous) and the border cells' mask (cells, cells)."""
    g = np.arange(cells) + 0.5
    uu = (g[:, None] + np.array(SUB_CELL)[None, :]).ravel()
    U, V = np.meshgrid(uu, uu)
    border = np.ones((cells, cells), bool)
    border[1:-1, 1:-1] = False
    return np.column_stack([U.ravel(), V.ravel(), np.ones(U.size)]), border


def read_bits(gray: np.ndarray, quads: np.ndarray, dictionary: str, min_contrast: float = 25.0,
              plausible: list | None = None, values: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Decode clockwise quads (N, 4, 2): marker ids (N,) (-1 where nothing reads) and corners
    (N, 4, 2) turned into ArUco order for the id found. A cell is white when it is brighter than
    halfway between the marker's own black border and its white cells; every border cell must be
    black and the code must match exactly. ``plausible``, if given, receives a mask (N,) of the
    quads that look like a marker (contrast, a border all but black) whether or not they read,
    then a mask of those with a marker's contrast; ``values``, if given, receives the cells' grey
    values (N, cells * cells) for :func:`match_blurred`."""
    codes, ids, rots, nbits = dictionary_codes(dictionary)
    n = len(quads)
    if n == 0:
        return np.zeros(0, int), quads
    cells = nbits + 2
    canon, border = _cell_grid(cells)
    k = len(SUB_CELL)
    vals = _sample_xy(gray, *square_points(quads, canon[:, :2] / cells)).reshape(n, cells, k, cells, k).mean(axis=(2, 4))
    if values is not None:
        values.append(vals.reshape(n, -1))
    inner = vals[:, 1:-1, 1:-1].reshape(n, -1)
    edge = vals[:, border]
    lo = edge.mean(axis=1)
    top = inner.max(axis=1)
    bright = inner > ((lo + top) / 2)[:, None]
    hi = np.where(bright, inner, 0).sum(axis=1) / np.maximum(bright.sum(axis=1), 1)
    thr = (lo + hi) / 2
    bad_border = (edge > thr[:, None]).sum(axis=1)
    bits = (inner > thr[:, None]).astype(np.int64)
    code = bits @ (1 << np.arange(nbits * nbits, dtype=np.int64))[::-1]
    match = code[:, None] == codes[None, :]
    contrast = hi - lo >= min_contrast
    found = match.any(axis=1) & (bad_border == 0) & contrast
    if plausible is not None:  # looks like a marker; and might be one, blurred (contrast at least)
        plausible.append(contrast & (bad_border <= 3))
        plausible.append(contrast)
    j = np.argmax(match, axis=1)
    out_ids = np.where(found, ids[j], -1)
    order = (np.arange(4)[None, :] - rots[j][:, None]) % 4  # corner k of the id is corner k - rotation here
    turned = quads[np.arange(n)[:, None], order]
    return out_ids, turned


# --- reading blurred markers ----------------------------------------------------------------------

BLUR_CELLS = (0.15, 0.3, 0.45, 0.6)  # blur sigmas tried, in cells of the marker
_FINE = 8  # samples per cell in the drawn templates


@lru_cache(maxsize=4)
def blurred_templates(dictionary: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every marker of a dictionary in its four rotations, drawn black on a white cap and blurred
    by each of :data:`BLUR_CELLS`, sampled where :func:`read_bits` samples the 6 x 6 cells:
    (templates (S * 4M, 36) centred and of unit length, ids (S * 4M,), rotations (S * 4M,), each
    template's range (S * 4M,))."""
    codes, ids, rots, nbits = dictionary_codes(dictionary)
    cells = nbits + 2
    canon, _ = _cell_grid(cells)
    grids = ((codes[:, None] >> np.arange(nbits * nbits)[::-1][None, :]) & 1).reshape(-1, nbits, nbits)
    out, out_ids, out_rots = [], [], []
    for sigma in BLUR_CELLS:
        rows = []
        for g in grids:
            img = np.ones((cells + 2, cells + 2), np.float32)  # a cell of white cap all round
            img[1:-1, 1:-1] = 0.0
            img[2:-2, 2:-2] = g
            fine = cv2.resize(img, None, fx=_FINE, fy=_FINE, interpolation=cv2.INTER_NEAREST)
            if sigma > 0:
                fine = cv2.GaussianBlur(fine, (0, 0), sigma * _FINE, borderType=cv2.BORDER_REPLICATE)
            pts = ((canon[:, :2] + 1.0) * _FINE - 0.5).astype(np.float32)
            v = cv2.remap(fine, pts[:, 0][None], pts[:, 1][None], cv2.INTER_LINEAR)[0]
            rows.append(v.reshape(cells, len(SUB_CELL), cells, len(SUB_CELL)).mean(axis=(1, 3)).ravel())
        t = np.array(rows, np.float64)
        t -= t.mean(axis=1, keepdims=True)
        t /= np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-9)
        out.append(t)
        out_ids.append(ids)
        out_rots.append(rots)
    T = np.concatenate(out)
    return T, np.concatenate(out_ids), np.concatenate(out_rots), T.max(axis=1) - T.min(axis=1)


def cell_values(gray: np.ndarray, quads: np.ndarray, cells: int) -> np.ndarray:
    """Mean grey value of each cell's sample points (N, cells * cells) for clockwise quads (N, 4, 2)."""
    canon, _ = _cell_grid(cells)
    k = len(SUB_CELL)
    x, y = square_points(quads, canon[:, :2] / cells)
    return _sample_xy(gray, x, y).reshape(len(quads), cells, k, cells, k).mean(axis=(2, 4)).reshape(len(quads), -1)


def match_blurred(gray: np.ndarray, quads: np.ndarray, dictionary: str, min_corr: float = 0.93,
                  min_contrast: float = 25.0, margin: float = 2.5,
                  values: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Read clockwise quads (N, 4, 2) by matching their cells against every marker drawn blurred
    (:func:`blurred_templates`): a marker too blurred for a threshold keeps the pattern of its
    cells. Accepted only with a correlation of ``min_corr`` or more, a contrast of ``min_contrast``
    grey levels, and a best id whose misfit (1 - r^2) is ``margin`` times smaller than any other
    id's. ``values`` are the cells' grey values if :func:`read_bits` sampled them already.
    Returns ids (N,) (-1: nothing read) and corners (N, 4, 2) in ArUco order."""
    n = len(quads)
    if n == 0:
        return np.zeros(0, int), quads
    T, ids, rots, t_ranges = blurred_templates(dictionary)
    cells = int(round(math.sqrt(T.shape[1])))
    obs = (cell_values(gray, quads, cells) if values is None else values).astype(np.float64)
    centred = obs - obs.mean(axis=1, keepdims=True)
    norm = np.linalg.norm(centred, axis=1)
    corr = (centred / np.maximum(norm, 1e-9)[:, None]) @ T.T  # (N, M)
    best = np.argmax(corr, axis=1)
    r1 = corr[np.arange(n), best]
    # the best fit of any other id
    other = np.where(ids[None, :] == ids[best][:, None], -1.0, corr).max(axis=1)
    misfit1, misfit2 = 1 - np.clip(r1, 0, 1) ** 2, 1 - np.clip(other, 0, 1) ** 2
    # contrast: the fitted gain times the template's spread
    t_range = t_ranges[best]
    gain = norm * r1  # projection of the centred observation on the unit template
    contrast = gain * t_range
    ok = (r1 >= min_corr) & (misfit2 >= margin * misfit1) & (contrast >= min_contrast)
    out_ids = np.where(ok, ids[best], -1)
    order = (np.arange(4)[None, :] - rots[best][:, None]) % 4
    turned = quads[np.arange(n)[:, None], order]
    return out_ids, turned


# --- a marker's own grid -------------------------------------------------------------------------

_SPLIT_AT = (-0.3, 0.0, 0.3)  # where inside each cell (cells from its centre) the grid check samples


def split_cells(gray: np.ndarray, quads: np.ndarray, dictionary: str = "DICT_4X4_50", cells: int | None = None) -> np.ndarray:
    """The share (N,) of each read marker's cells (quads (N, 4, 2), ArUco or any clockwise
    order) whose inside is not of one shade: sampled at 3 x 3 points around its centre, some
    lighter and some darker than halfway between the marker's black border and its white cells,
    by a sixth of that contrast each way. A printed marker's cells are flat (blur greys their
    edges, not their middles); a larger grid read as ours (a 6x6 or 5x5 marker of a ChArUco
    board: 8 or 7 cells across where ours has 6) or a pictogram's curves cross the cells."""
    n = len(quads)
    if n == 0:
        return np.zeros(0)
    cells = cells or dictionary_codes(dictionary)[3] + 2
    q = np.asarray(quads, np.float64)
    g = np.arange(cells) + 0.5
    sub = (g[:, None] + np.array(_SPLIT_AT)[None, :]).ravel() / cells
    U, V = np.meshgrid(sub, sub)
    vals = _sample_xy(gray, *square_points(q, np.column_stack([U.ravel(), V.ravel()])))
    k = len(_SPLIT_AT)
    v = vals.reshape(n, cells, k, cells, k).transpose(0, 1, 3, 2, 4).reshape(n, cells, cells, k * k)
    mean = v.mean(axis=3)
    border = np.ones((cells, cells), bool)
    border[1:-1, 1:-1] = False
    lo = mean[:, border].mean(axis=1)
    inner = mean[:, ~border]
    top = inner.max(axis=1)
    bright = inner > ((lo + top) / 2)[:, None]
    hi = np.where(bright, inner, 0).sum(axis=1) / np.maximum(bright.sum(axis=1), 1)
    thr, band = (lo + hi) / 2, np.maximum(hi - lo, 1.0) / 6
    above = (v > (thr + band)[:, None, None, None]).any(axis=3)
    below = (v < (thr - band)[:, None, None, None]).any(axis=3)
    return (above & below).reshape(n, -1).mean(axis=1)


# A read marker whose cells split this much more often on its own grid than on a grid of one or two
# cells more (a 5x5 or 6x6 marker's) is that larger marker: on rendered frames of our caps (blurred,
# tilted 25-40 degrees, 9 mm markers of 7 px) the difference stayed under 0.22; the inside of 6x6
# and ChArUco markers in photographs read as ours came to 0.35-0.69.
LARGER_GRID_MARGIN = 0.28
LARGER_GRID_MIN = 0.3


def larger_grid(gray: np.ndarray, quads: np.ndarray, dictionary: str = "DICT_4X4_50") -> np.ndarray:
    """Which read markers (quads (N, 4, 2)) are a marker of a larger grid (a 5x5 or 6x6
    dictionary's, a ChArUco board's) that happened to read as one of ours (N,) bool: their own
    grid's cells are split far more often than the larger grid's (:func:`split_cells`)."""
    if not len(quads):
        return np.zeros(0, bool)
    cells = dictionary_codes(dictionary)[3] + 2
    own = split_cells(gray, quads, dictionary, cells)
    other = np.minimum(split_cells(gray, quads, dictionary, cells + 1), split_cells(gray, quads, dictionary, cells + 2))
    return (own >= LARGER_GRID_MIN) & (own - other > LARGER_GRID_MARGIN)


def clockwise(quads: np.ndarray) -> np.ndarray:
    """Quads (N, 4, 2) ordered clockwise on screen (image y points down)."""
    return _clockwise(quads)


def sample_at(gray: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear grey values of ``gray`` at points ``x``, ``y`` (any one shape), float32."""
    return _sample_xy(gray, x, y)
