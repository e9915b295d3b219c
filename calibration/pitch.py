"""Pitch calibration: from image points whose board positions are known (the corner markers'
corners, or points a person taps) to a posed camera, with a quality report and a verdict.

The homography of the board plane is fitted with RANSAC. Without a lens calibration the focal
length and principal point are estimated from that homography, what is known of webcams and
of the set-up's camera height, and the caps standing in their squares when the frame shows
some (:mod:`calibration.intrinsics`); when the camera's height stays unsure (a camera looking
almost straight down at an empty board), the report says so.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .camera import CameraModel
from .errors import CalibrationError
from .intrinsics import Priors, StandingCaps, estimate_intrinsics, pose_from_homography
from .lens import LensCalibration

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PitchSettings:
    """Knobs of a pitch calibration.

    ``ransac_px``: a point further than this from the fitted homography is an outlier.
    ``refuse_rms_ms`` / ``refuse_max_ms``: refuse a calibration whose reprojection error (root
    mean square / worst point) exceeds this fraction of a movement square.
    ``camera_height_mm`` +- ``camera_height_sd_mm``: what is known of the camera's height above
    the board before the view is measured (the middle of the 60-100 cm the set-up asks for; a
    height measured with a tape, ``--camera-height-mm``, is good to a couple of centimetres).
    ``height_warn``: a camera height less sure than this fraction (one standard deviation) is
    reported in the warnings.
    """

    ransac_px: float = 4.0
    good_rms_ms: float = 0.1
    refuse_rms_ms: float = 0.25
    refuse_max_ms: float = 0.5
    camera_height_mm: float = 800.0
    camera_height_sd_mm: float = 100.0
    height_warn: float = 0.04


@dataclass(frozen=True, slots=True)
class Quality:
    """How well the calibrated camera maps the known points back onto the board.

    ``rms_mm``/``max_mm``: reprojection error on the board plane; ``*_ms``: the same as a
    fraction of a movement square; ``verdict``: "good", "usable", "refused" or "unchecked" (four
    points fit any homography exactly); ``reason``: one sentence for people."""

    points: int
    inliers: int
    rms_mm: float
    max_mm: float
    rms_ms: float
    max_ms: float
    verdict: str
    reason: str

    def to_json(self) -> dict:
        return {"points": self.points, "inliers": self.inliers, "rms_mm": round(self.rms_mm, 3),
                "max_mm": round(self.max_mm, 3), "rms_ms": round(self.rms_ms, 4), "max_ms": round(self.max_ms, 4),
                "verdict": self.verdict, "reason": self.reason}

    @classmethod
    def from_json(cls, obj: dict) -> "Quality":
        return cls(int(obj["points"]), int(obj["inliers"]), float(obj["rms_mm"]), float(obj["max_mm"]),
                   float(obj["rms_ms"]), float(obj["max_ms"]), str(obj["verdict"]), str(obj["reason"]))


@dataclass(frozen=True)
class PitchFit:
    """A fitted camera and what it rests on. ``homography`` maps board (x, y, 1) on the board plane
    to undistorted pixels; ``focal_source`` is "lens", "pitch" (the view's perspective decided
    the focal length), "caps" (the caps standing in their squares did) or "prior" (the expected
    camera height did); ``height_sd_mm``: how sure the camera's height is (one standard
    deviation; 0 with a lens calibration)."""

    camera: CameraModel
    homography: np.ndarray = field(repr=False)
    quality: Quality
    focal_source: str
    inlier_mask: np.ndarray = field(repr=False)
    warnings: tuple[str, ...] = ()
    height_sd_mm: float = 0.0


def focal_from_homography(H: np.ndarray, cx: float, cy: float) -> float | None:
    """Focal length (pixels) implied by a plane homography for a camera with square pixels, no
    skew and its principal point at (cx, cy), or None when the view shows none (straight down).

    With ``A = T H`` (T moves the principal point to the origin) and ``w = 1/f^2``, the rotation's
    first two columns are orthogonal and of equal length:
    ``(a1x a2x + a1y a2y) w + a1z a2z = 0`` and ``(|a1xy|^2 - |a2xy|^2) w + a1z^2 - a2z^2 = 0``.
    """
    A = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]]) @ np.asarray(H, dtype=float)
    A = A / np.linalg.norm(A[:2, :2])
    a1, a2 = A[:, 0], A[:, 1]
    a = np.array([a1[0] * a2[0] + a1[1] * a2[1], a1[0] ** 2 + a1[1] ** 2 - a2[0] ** 2 - a2[1] ** 2])
    b = np.array([a1[2] * a2[2], a1[2] ** 2 - a2[2] ** 2])
    denom = float(a @ a)
    if denom <= 0:
        return None
    w = -float(a @ b) / denom
    if not w > 0:
        return None
    return 1.0 / math.sqrt(w)


def fit_pitch(image_px: np.ndarray, board_mm: np.ndarray, size: tuple[int, int], ms_size_mm: float,
              lens: LensCalibration | None = None, settings: PitchSettings = PitchSettings(),
              labels: list[str] | None = None, caps: StandingCaps | None = None) -> PitchFit:
    """Fit a camera to image points (N, 2) px whose board positions (N, 2) mm on the board plane are
    known. ``size`` is the frame's (width, height); ``ms_size_mm`` sets the scale of the verdict;
    ``labels`` name the points in messages; ``caps``: figures seen standing on the pitch, which
    show the camera's height when there is no lens calibration. Raises CalibrationError with the reason when the points
    cannot give a camera or the result is worse than the settings allow."""
    px = np.asarray(image_px, dtype=float).reshape(-1, 2)
    mm = np.asarray(board_mm, dtype=float).reshape(-1, 2)
    n = len(px)
    labels = labels or [f"point {i + 1}" for i in range(n)]
    if n != len(mm):
        raise CalibrationError(f"{n} image points but {len(mm)} board points: give one board point per image point")
    if n < 4:
        raise CalibrationError(f"a pitch calibration needs at least 4 points, got {n}")
    width, height = size
    if lens is not None:
        lens.check_size(size)
        base = CameraModel(width, height, lens.fx, lens.fy, lens.cx, lens.cy, lens.dist)
    else:
        base = CameraModel(width, height, 1.0, 1.0, width / 2, height / 2)
    ideal = base.undistort_pixels(px) if lens is not None else px
    if cv2.contourArea(mm[cv2.convexHull(mm.astype(np.float32), returnPoints=False).ravel()].astype(np.float32)) < 1:
        raise CalibrationError("the board points are all on one line: choose points spread over the pitch")
    H, mask = cv2.findHomography(mm, ideal, cv2.RANSAC if n > 4 else 0, settings.ransac_px)
    if H is None:
        raise CalibrationError("no homography fits these points: check that each image point matches its board point")
    inliers = mask.ravel().astype(bool) if mask is not None else np.ones(n, bool)
    if inliers.sum() < 4:
        raise CalibrationError(f"only {int(inliers.sum())} of {n} points agree with one another: check the points")
    warnings: list[str] = []
    height_sd = 0.0
    if lens is not None:
        focal, focal_source = (lens.fx, lens.fy), "lens"
    else:
        est = estimate_intrinsics(H, mm[inliers], size, Priors(settings.camera_height_mm, settings.camera_height_sd_mm),
                                  caps)
        focal, height_sd = (est.f, est.f), est.height_sd_mm
        base = CameraModel(width, height, est.f, est.f, est.cx, est.cy)
        focal_source = "prior" if est.view_share < 0.5 else "caps" if est.caps else "pitch"
        if height_sd > settings.height_warn * est.height_mm:
            h, lo, hi = est.height_mm, est.height_mm - 2 * height_sd, est.height_mm + 2 * height_sd
            view = ("the camera looks almost straight down, so the pitch cannot show its focal length"
                    if est.view_share < 0.5 else "the camera looks nearly straight down, so the pitch shows its "
                    "height only roughly (it depends on where the lens's centre is, which one view of a flat board "
                    "cannot show)")
            warnings.append(f"{view}: the camera is taken to be {h:.0f} mm above the board (between {lo:.0f} and "
                            f"{hi:.0f} mm) for the parallax of the caps; give its measured height "
                            f"(--camera-height-mm), calibrate with the figures standing in their squares, or run "
                            f"'touchline calibrate-lens' for exact positions")
    cam = CameraModel(width, height, focal[0], focal[1], base.cx, base.cy, base.dist)
    R, t = pose_from_homography(H, cam.K)
    obj = np.column_stack([mm[inliers], np.zeros(int(inliers.sum()))])
    ok, rvec, tvec = cv2.solvePnP(obj, px[inliers], cam.K, cam.dist_array, cv2.Rodrigues(R)[0], t.reshape(3, 1),
                                  useExtrinsicGuess=True, flags=cv2.SOLVEPNP_ITERATIVE)
    if not ok:
        rvec, tvec = cv2.Rodrigues(R)[0], t
    cam = cam.with_pose(rvec.ravel(), tvec.ravel())
    if cam.center_mm[2] <= 0:
        raise CalibrationError("the fitted camera is below the board: check the order of the points")
    if inliers.sum() > 4:  # refit on the inliers alone, least squares
        H = cv2.findHomography(mm[inliers], ideal[inliers], 0)[0]
    quality = assess(cam, H, px, mm, inliers, ms_size_mm, settings, labels)
    if lens is None and quality.rms_ms > settings.good_rms_ms:
        warnings.append("without a lens calibration, lens distortion is not corrected: run 'touchline calibrate-lens'")
    for w in warnings:
        log.info("pitch calibration: %s", w)
    return PitchFit(cam, H, quality, focal_source, inliers, tuple(warnings), height_sd)


def board_points(cam: CameraModel, H: np.ndarray, px: np.ndarray) -> np.ndarray:
    """Pixels (N, 2) -> board plane points (N, 2) mm through the fitted homography (after the
    lens's distortion is removed)."""
    ideal = cam.undistort_pixels(px)
    back = np.linalg.inv(H) @ np.column_stack([ideal, np.ones(len(ideal))]).T
    with np.errstate(divide="ignore", invalid="ignore"):
        return (back[:2] / back[2]).T


def assess(cam: CameraModel, H: np.ndarray, px: np.ndarray, mm: np.ndarray, inliers: np.ndarray, ms_size_mm: float,
           settings: PitchSettings, labels: list[str]) -> Quality:
    """Reprojection error on the board plane and the verdict; raises CalibrationError (with the
    reason) for a refused calibration."""
    back = board_points(cam, H, px)
    err = np.linalg.norm(back - mm, axis=1)
    err = np.where(np.isfinite(err), err, np.inf)
    n, k = len(px), int(inliers.sum())
    rms = float(np.sqrt(np.mean(err[inliers] ** 2)))
    worst = int(np.argmax(np.where(inliers, err, -1.0)))
    mx = float(err[worst])
    rms_ms, max_ms = rms / ms_size_mm, mx / ms_size_mm
    if n == 4:
        return Quality(n, k, rms, mx, rms_ms, max_ms, "unchecked",
                       "4 points fit any camera exactly, so their error says nothing: use the corner markers or "
                       "tap more points to have the calibration checked")
    summary = (f"{rms:.2f} mm rms ({rms_ms:.2f} of a movement square), {mx:.2f} mm at worst "
               f"({labels[worst]}), {k} of {n} points agree")
    if k < n:
        outliers = ", ".join(labels[i] for i in np.flatnonzero(~inliers)[:4])
        if k < max(6, math.ceil(0.75 * n)):
            raise CalibrationError(f"calibration refused: {outliers} disagree with the other points by more than "
                                   f"{settings.ransac_px:g} px: check that the marker or point is in its place "
                                   f"({summary})")
        summary += f"; ignored as outliers: {outliers}"
    if rms_ms > settings.refuse_rms_ms or max_ms > settings.refuse_max_ms:
        raise CalibrationError(f"calibration refused: error {summary}; the limit is {settings.refuse_rms_ms:g} of a "
                               f"square rms and {settings.refuse_max_ms:g} at worst. Check that the markers lie flat "
                               f"in their places, or calibrate the lens first ('touchline calibrate-lens')")
    verdict = "good" if rms_ms <= settings.good_rms_ms else "usable"
    return Quality(n, k, rms, mx, rms_ms, max_ms, verdict, f"{verdict}: {summary}")
