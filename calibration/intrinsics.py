"""The focal length and principal point of a camera that has no lens calibration, from one view
of the flat board, what is known of webcams and the set-up, and (when there are any) the caps
standing in their squares.

One view of a plane cannot show all three of a square-pixel camera's intrinsics: Zhang's two
constraints on the board-plane homography leave a one-parameter family of (principal point,
focal length) that see the board exactly alike. Along it the principal point moves in the
direction the camera is tilted, and the focal length with it, by the cotangent of the tilt (one
pixel of principal point is 5.7 px of focal length at 10 degrees): so fixing the principal point
at the image centre, as a bare Zhang estimate does, puts a near-vertical camera's height 5-20 %
off. Along that family this module picks the camera that best fits:

- the principal point near the image centre (a webcam's is within a per cent or two),
- the camera's height near the one the set-up asks for (or a measured one),
- figures standing in their movement squares: the caps are cast to their height with each
  candidate camera, and a wrong height spreads them from the squares' centres (the caps' parallax
  is taken out by too much or too little, more the further a cap is from under the camera).

Coordinates: pixels are undistorted (no lens calibration: as seen); board millimetres as in
:mod:`calibration.camera`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import CameraModel
from .errors import CalibrationError


@dataclass(frozen=True, slots=True)
class Priors:
    """What is known before the view is measured: the camera's height ``height_mm`` +-
    ``height_sd_mm`` (one standard deviation); the principal point within ``principal_sd`` of
    the frame's width (x) and height (y) of its centre (a webcam's lies within about 1.5 %: a
    standard deviation of 0.9 %); figures stand within ``stand_sd_mm`` of their square's centre
    (a cap further than ``stand_cut`` of those off counts as set down anyhow, not as evidence).
    ``min_caps``: fewer caps on the pitch than this are not used. ``fit_px``: how closely (one
    standard deviation, pixels) a candidate camera must show the board as the fitted homography
    does."""

    height_mm: float = 800.0
    height_sd_mm: float = 100.0
    principal_sd: float = 0.009
    stand_sd_mm: float = 2.5
    stand_cut: float = 2.5
    min_caps: int = 6
    fit_px: float = 0.3


@dataclass(frozen=True)
class StandingCaps:
    """Caps seen standing on the pitch: their markers' centres (N, 2) px, ``height_mm`` above the
    board, on a grid of movement squares ``square_mm`` (width, height) from the board origin
    over ``pitch_mm`` (length, width)."""

    centres_px: np.ndarray
    height_mm: float
    square_mm: tuple[float, float]
    pitch_mm: tuple[float, float]

    def __repr__(self) -> str:
        return f"StandingCaps(<{len(self.centres_px)} caps>, height_mm={self.height_mm:g}, square_mm={self.square_mm})"


@dataclass(frozen=True, slots=True)
class Intrinsics:
    """The chosen focal length and principal point (pixels); the camera's height (mm) with its
    standard deviation; ``view_share``: how much of the height the view and caps decided rather
    than the prior on the height (0..1); ``caps``: how many caps took part."""

    f: float
    cx: float
    cy: float
    height_mm: float
    height_sd_mm: float
    view_share: float
    caps: int = 0


def pose_from_homography(H: np.ndarray, K: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rotation (3, 3) and translation (3,) of the camera whose ``K [r1 r2 t]`` is ``H`` up to
    scale, with the board in front of the camera. Raises CalibrationError when the points are
    mirrored (no rotation fits)."""
    B = np.linalg.inv(K) @ np.asarray(H, dtype=float)
    lam = 2.0 / (np.linalg.norm(B[:, 0]) + np.linalg.norm(B[:, 1]))
    if B[2, 2] * lam < 0:
        lam = -lam
    r1, r2, t = lam * B[:, 0], lam * B[:, 1], lam * B[:, 2]
    M = np.column_stack([r1, r2, np.cross(r1, r2)])
    U, _, Vt = np.linalg.svd(M)
    R = U @ Vt
    if (-R.T @ t)[2] <= 0:  # a camera under the board: the points go round the wrong way
        raise CalibrationError("the points are mirrored: a camera cannot see them that way round; check the order "
                               "of the corners: (0,0), (L,0), (L,W), (0,W) go round the pitch counter-clockwise "
                               "seen from above")
    return R, t


def camera_for(H: np.ndarray, size: tuple[int, int], f: float, cx: float, cy: float) -> CameraModel | None:
    """The distortion-free camera with focal length ``f`` and principal point (cx, cy) that sees
    the board plane through ``H``; None when none sits above the board."""
    K = np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])
    try:
        R, t = pose_from_homography(H, K)
    except CalibrationError:
        return None
    return CameraModel(int(size[0]), int(size[1]), f, f, cx, cy, rvec=tuple(cv2.Rodrigues(R)[0].ravel()),
                       tvec=tuple(t))


def view_family(H: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray] | None:
    """The cameras that see the board plane through ``H`` (board mm -> px): a point ``p`` (3,) and
    a direction ``n`` (3,) such that ``x = p + t n`` for any t gives, in coordinates centred on
    the image and in units of its width, the principal point ``-(x0, x1)`` and the focal length
    ``sqrt(x2 - x0^2 - x1^2)``. None when the view shows no perspective at all (straight down).

    Zhang's constraints (the board's axes are orthogonal and equally long) are linear in the
    image of the absolute conic ``[[1, 0, x0], [0, 1, x1], [x0, x1, x2]]``: two equations, three
    unknowns, a line."""
    W, Hh = size
    T = np.array([[1.0 / W, 0.0, -0.5], [0.0, 1.0 / W, -0.5 * Hh / W], [0.0, 0.0, 1.0]])
    A = T @ np.asarray(H, float)
    A = A / np.linalg.norm(A[:, :2])
    h1, h2 = A[:, 0], A[:, 1]

    def row(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, float]:
        return (np.array([u[0] * v[2] + u[2] * v[0], u[1] * v[2] + u[2] * v[1], u[2] * v[2]]),
                -(u[0] * v[0] + u[1] * v[1]))

    r1, y1 = row(h1, h2)
    ra, ya = row(h1, h1)
    rb, yb = row(h2, h2)
    M = np.vstack([r1, ra - rb])
    y = np.array([y1, ya - yb])
    scale = np.linalg.norm(M, axis=1)
    # both equations vanish for a camera looking straight down: no perspective, no information
    if scale.min() < 1e-9:
        return None
    M, y = M / scale[:, None], y / scale
    _, s, Vt = np.linalg.svd(M)
    if s[1] < 1e-9 * s[0]:
        return None
    p = np.linalg.pinv(M) @ y
    return p, Vt[2]


def _height(cam: CameraModel | None) -> float:
    return float(cam.center_mm[2]) if cam is not None else math.nan


def _stand_cost(cam: CameraModel, caps: StandingCaps, priors: Priors) -> tuple[float, int]:
    """How far the caps, cast to their height by ``cam``, are from their squares' centres: the sum
    of squared distances over ``stand_sd_mm`` squared, each capped (a cap set down off-centre
    counts no more than that); and how many caps land on the pitch."""
    xy = cam.to_plane(caps.centres_px, caps.height_mm)
    gx, gy = caps.square_mm
    L, Wd = caps.pitch_mm
    ok = np.isfinite(xy).all(axis=1) & (xy[:, 0] >= 0) & (xy[:, 0] <= L) & (xy[:, 1] >= 0) & (xy[:, 1] <= Wd)
    dx = xy[ok, 0] - (np.floor(xy[ok, 0] / gx) + 0.5) * gx
    dy = xy[ok, 1] - (np.floor(xy[ok, 1] / gy) + 0.5) * gy
    d2 = (dx ** 2 + dy ** 2) / priors.stand_sd_mm ** 2
    # a cap off the pitch (on a bench, or cast there by this camera) counts as one set down anyhow
    off = int((~ok).sum()) * priors.stand_cut ** 2
    return float(np.minimum(d2, priors.stand_cut ** 2).sum()) + off, int(ok.sum())


def prior_focal(H: np.ndarray, board_mm: np.ndarray, height_mm: float, size: tuple[int, int]) -> float:
    """The focal length (pixels) that puts a camera with its principal point at the image centre
    ``height_mm`` above the board seen through ``H``: first from the board's scale at the middle
    of the points (pixels per mm times the height, exact straight down), then corrected for tilt."""
    c = np.asarray(board_mm, float).mean(axis=0)
    p = np.array([[c[0], c[1]], [c[0] + 1, c[1]], [c[0], c[1] + 1]])
    q = np.column_stack([p, np.ones(3)]) @ np.asarray(H, float).T
    q = q[:, :2] / q[:, 2:3]
    a, b = q[1] - q[0], q[2] - q[0]
    f = math.sqrt(abs(a[0] * b[1] - a[1] * b[0])) * height_mm
    for _ in range(3):
        h = _height(camera_for(H, size, f, size[0] / 2, size[1] / 2))
        if not h > 0:
            break
        f *= height_mm / h
    return f


def estimate_intrinsics(H: np.ndarray, board_mm: np.ndarray, size: tuple[int, int], priors: Priors = Priors(),
                        caps: StandingCaps | None = None, steps: int = 81) -> Intrinsics:
    """The most likely square-pixel, distortion-free camera seeing the board plane through ``H``
    (board mm -> px, fitted to ``board_mm`` (N, 2)) in frames of ``size``, given the priors and
    the standing caps (see the module's text).

    Two lines of candidates are searched, ``steps`` each, four standard deviations of the priors
    either way, then finer around the best: the family of cameras the view allows (when it shows
    any perspective), and cameras at the expected height +- its uncertainty with the principal
    point at the centre (what a view straight down leaves). Each candidate is scored by the
    priors, by how far it shows the board from the homography, and by the caps; the height's
    standard deviation is that of the candidates weighed by their fit."""
    W, Hh = size
    cx0, cy0 = W / 2, Hh / 2
    sx, sy = priors.principal_sd * W, priors.principal_sd * Hh
    lines: list = []  # (param -> (f, cx, cy) or None, first param, last param)
    family = view_family(H, size)
    if family is not None:
        p, n = family
        # the principal point along the family is (cx0, cy0) - W (x0, x1): t for the one nearest
        # the centre (in standard deviations), and how far one standard deviation moves it
        g = np.array([-W * n[0] / sx, -W * n[1] / sy])
        q = np.array([(-W * p[0]) / sx, (-W * p[1]) / sy])
        gg = float(g @ g)
        if gg > 1e-18:
            t0, unit = -float(q @ g) / gg, 1.0 / math.sqrt(gg)

            def on_family(t: float, p=p, n=n):
                x = p + t * n
                f2 = x[2] - x[0] ** 2 - x[1] ** 2
                return (W * math.sqrt(f2), cx0 - W * x[0], cy0 - W * x[1]) if f2 > 0 else None
            lines.append((on_family, t0 - 4 * unit, t0 + 4 * unit))
    f_prior = prior_focal(H, board_mm, priors.height_mm, size)
    sd = priors.height_sd_mm / priors.height_mm
    lines.append((lambda k: (f_prior * k, cx0, cy0), max(0.2, 1 - 4 * sd), 1 + 4 * sd))

    use_caps = caps is not None and len(caps.centres_px) >= priors.min_caps
    pts = np.column_stack([board_mm, np.zeros(len(board_mm))])
    seen = np.column_stack([board_mm, np.ones(len(board_mm))]) @ np.asarray(H, float).T
    seen = seen[:, :2] / seen[:, 2:3]

    def score(cand) -> tuple[float, float, int]:
        if cand is None:
            return math.inf, math.nan, 0
        f, cx, cy = cand
        cam = camera_for(H, size, f, cx, cy)
        h = _height(cam)
        if not h > 0:
            return math.inf, math.nan, 0
        cost = ((cx - cx0) / sx) ** 2 + ((cy - cy0) / sy) ** 2 + ((h - priors.height_mm) / priors.height_sd_mm) ** 2
        # off the family, a camera shows the board otherwise than the homography does
        cost += float(((cam.project(pts) - seen) ** 2).sum()) / priors.fit_px ** 2
        k = 0
        if use_caps:
            stand, k = _stand_cost(cam, caps, priors)
            cost += stand
        return cost, h, k

    rows = []  # (cost, height, caps, candidate)
    for make, lo, hi in lines:
        for v in np.linspace(lo, hi, steps):
            c = make(float(v))
            rows.append((*score(c), c, make, float(v), (hi - lo) / (steps - 1)))
    best = min(rows, key=lambda r: r[0])
    if not math.isfinite(best[0]):  # mirrored points say so; anything else is a bad set of points
        pose_from_homography(H, np.array([[f_prior, 0.0, cx0], [0.0, f_prior, cy0], [0.0, 0.0, 1.0]]))
        raise CalibrationError("no camera above the board sees the points this way: check the points")
    _, _, _, _, make, v, step = best
    for u in np.linspace(v - step, v + step, 21):  # finer around the best
        c = make(float(u))
        rows.append((*score(c), c, make, float(u), 0.0))
    costs = np.array([r[0] for r in rows])
    b = int(np.argmin(costs))
    # the spread of the height over the evenly spaced candidates, each weighed by its likelihood
    coarse = costs[:len(lines) * steps]
    weights = np.where(np.isfinite(coarse), np.exp(-(coarse - costs[b]) / 2), 0.0)
    heights = np.nan_to_num(np.array([r[1] for r in rows[:len(coarse)]]))
    if weights.sum() > 0:
        mean = float((weights * heights).sum() / weights.sum())
        sd_h = float(math.sqrt((weights * (heights - mean) ** 2).sum() / weights.sum()))
    else:  # the best is far sharper than the grid: as sure as the grid can tell
        sd_h = abs(rows[b][1]) * priors.height_sd_mm / priors.height_mm / steps
    share = max(0.0, 1.0 - (sd_h / priors.height_sd_mm) ** 2)
    f, cx, cy = rows[b][3]
    return Intrinsics(f, cx, cy, float(rows[b][1]), sd_h, share, rows[b][2])
