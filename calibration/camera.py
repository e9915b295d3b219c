"""A pinhole camera with lens distortion, posed above the board.

Board frame: x along the pitch length from the goal line at x = 0, y across it from the touch
line at y = 0, z up, millimetres (right-handed seen from above). The camera frame is OpenCV's:
x right, y down, z along the optical axis. ``rvec``/``tvec`` take board points into the camera
frame: ``X_cam = R @ X_board + t``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Sequence

import cv2
import numpy as np

# Iterative undistortion: the default 5 iterations leave pixels of error near the corners of a
# wide lens; 40 reach a hundredth of a pixel.
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)


def _floats(values: Sequence[float]) -> tuple[float, ...]:
    return tuple(float(v) for v in np.asarray(values, dtype=float).ravel())


@dataclass(frozen=True)
class CameraModel:
    """Intrinsics (``fx, fy, cx, cy`` in pixels), distortion (OpenCV's ``k1 k2 p1 p2 k3``) and
    pose (``rvec``, ``tvec``: board -> camera) of a camera producing ``width`` x ``height`` frames."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
    rvec: tuple[float, ...] = (0.0, 0.0, 0.0)
    tvec: tuple[float, ...] = (0.0, 0.0, 1000.0)
    _R: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"frame size must be positive, got {self.width} x {self.height}")
        if not (self.fx > 0 and self.fy > 0):
            raise ValueError(f"focal lengths must be positive, got fx={self.fx}, fy={self.fy}")
        object.__setattr__(self, "dist", _floats(self.dist))
        object.__setattr__(self, "rvec", _floats(self.rvec))
        object.__setattr__(self, "tvec", _floats(self.tvec))
        if len(self.rvec) != 3 or len(self.tvec) != 3:
            raise ValueError("rvec and tvec have 3 numbers each")
        object.__setattr__(self, "_R", cv2.Rodrigues(np.array(self.rvec, dtype=float))[0])

    def __repr__(self) -> str:
        def nums(values: tuple[float, ...]) -> str:
            return "(" + ", ".join(f"{v:.6g}" for v in values) + ("," if len(values) == 1 else "") + ")"
        return (f"CameraModel(width={self.width}, height={self.height}, fx={self.fx:.6g}, fy={self.fy:.6g}, "
                f"cx={self.cx:.6g}, cy={self.cy:.6g}, dist={nums(self.dist)}, rvec={nums(self.rvec)}, "
                f"tvec={nums(self.tvec)})")

    # --- matrices ---------------------------------------------------------------------------------
    @property
    def K(self) -> np.ndarray:
        """The 3 x 3 camera matrix."""
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    @property
    def dist_array(self) -> np.ndarray:
        return np.array(self.dist, dtype=float)

    @property
    def R(self) -> np.ndarray:
        """3 x 3 rotation, board -> camera."""
        return self._R.copy()

    @property
    def t(self) -> np.ndarray:
        return np.array(self.tvec, dtype=float)

    @property
    def has_distortion(self) -> bool:
        return any(abs(d) > 0 for d in self.dist)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def center_mm(self) -> np.ndarray:
        """The camera's optical centre in board millimetres, shape (3,)."""
        return -self._R.T @ self.t

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down."""
        axis = self._R.T @ np.array([0.0, 0.0, 1.0])  # optical axis in board coordinates
        return math.degrees(math.acos(max(-1.0, min(1.0, -axis[2]))))

    def with_pose(self, rvec: Sequence[float], tvec: Sequence[float]) -> "CameraModel":
        return replace(self, rvec=_floats(rvec), tvec=_floats(tvec))

    def without_distortion(self) -> "CameraModel":
        return replace(self, dist=(0.0, 0.0, 0.0, 0.0, 0.0))

    def plane_homography(self, z_mm: float = 0.0) -> np.ndarray:
        """3 x 3 homography from board points ``(x, y, 1)`` on the plane at height ``z_mm`` to
        undistorted pixels: ``K [r1 r2 z*r3 + t]``."""
        R = self._R
        return self.K @ np.column_stack([R[:, 0], R[:, 1], z_mm * R[:, 2] + self.t])

    # --- points -----------------------------------------------------------------------------------
    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Board points (N, 3) in mm -> pixels (N, 2), lens distortion included."""
        pts = np.asarray(points_mm, dtype=float).reshape(-1, 3)
        if len(pts) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(pts, np.array(self.rvec), self.t, self.K, self.dist_array)
        return px.reshape(-1, 2)

    def depth(self, points_mm: np.ndarray) -> np.ndarray:
        """Distance along the optical axis (N,) of board points (N, 3)."""
        pts = np.asarray(points_mm, dtype=float).reshape(-1, 3)
        return pts @ self._R[2] + self.t[2]

    def normalize(self, pixels: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) -> undistorted normalized image coordinates (N, 2) (``z = 1`` in the
        camera frame)."""
        px = np.asarray(pixels, dtype=float).reshape(-1, 2)
        if len(px) == 0:
            return np.zeros((0, 2))
        if self.has_distortion:
            return cv2.undistortPoints(px.reshape(-1, 1, 2), self.K, self.dist_array,
                                       criteria=_UNDISTORT_CRITERIA).reshape(-1, 2)
        return np.column_stack([(px[:, 0] - self.cx) / self.fx, (px[:, 1] - self.cy) / self.fy])

    def undistort_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) -> where an ideal pinhole with the same K would have seen them (N, 2)."""
        n = self.normalize(pixels)
        return np.column_stack([n[:, 0] * self.fx + self.cx, n[:, 1] * self.fy + self.cy])

    def rays(self, pixels: np.ndarray) -> np.ndarray:
        """Directions (N, 3) in board coordinates of the rays through pixels (N, 2), not normalized."""
        n = self.normalize(pixels)
        cam = np.column_stack([n, np.ones(len(n))])
        return cam @ self._R  # row-wise R.T @ d

    def to_plane(self, pixels: np.ndarray, z_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """Where the rays through pixels (N, 2) meet the plane(s) at height ``z_mm`` (scalar or
        (N,)): board (x, y) in mm, shape (N, 2). Rays that never reach the plane give NaN."""
        return self.cast(self.normalize(pixels), z_mm)

    def cast(self, normalized: np.ndarray, z_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """:meth:`to_plane` for points already undistorted and normalized (:meth:`normalize`)."""
        n = np.asarray(normalized, dtype=float).reshape(-1, 2)
        d = np.column_stack([n, np.ones(len(n))]) @ self._R
        c = self.center_mm
        z = np.broadcast_to(np.asarray(z_mm, dtype=float), (len(d),))
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (z - c[2]) / d[:, 2]
        s = np.where(s > 0, s, np.nan)  # behind the camera
        return c[:2] + s[:, None] * d[:, :2]

    def pixels_per_mm(self, x_mm: float, y_mm: float, z_mm: float = 0.0) -> float:
        """Image scale (pixels per board millimetre) at a board point, from a 1 mm step in x and y."""
        return float(self.scales_at(np.array([[x_mm, y_mm, z_mm]]))[0])

    def scales_at(self, points_mm: np.ndarray) -> np.ndarray:
        """:meth:`pixels_per_mm` at each of board points (N, 3) mm -> (N,), in one projection."""
        p = np.asarray(points_mm, dtype=float).reshape(-1, 3)
        n = len(p)
        px = self.project(np.vstack([p, p + [1.0, 0.0, 0.0], p + [0.0, 1.0, 0.0]])).reshape(3, n, 2)
        a, b = px[1] - px[0], px[2] - px[0]
        return np.sqrt(np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]))
