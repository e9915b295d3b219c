"""Lens calibration from a printed ChArUco board: the camera's intrinsics and distortion, made once
per camera and resolution with ``touchline calibrate-lens`` and reused by every pitch calibration."""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

import cv2
import numpy as np

from .errors import CalibrationError

log = logging.getLogger(__name__)

LENS_FORMAT = "touchline-lens"


@dataclass(frozen=True, slots=True)
class CharucoSpec:
    """The printed ChArUco board: ``cols`` x ``rows`` chessboard squares of ``square_mm``, markers
    of ``marker_mm`` from a dictionary the figures do not use (so a stray cap is never a corner)."""

    cols: int = 9
    rows: int = 6
    square_mm: float = 28.0
    marker_mm: float = 21.0
    dictionary: str = "DICT_5X5_100"

    def board(self) -> cv2.aruco.CharucoBoard:
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard((self.cols, self.rows), self.square_mm, self.marker_mm, d)

    def image(self, dpi: float, margin_mm: float = 10.0) -> np.ndarray:
        """The board drawn at true size for printing at ``dpi``: uint8 (H, W)."""
        px_per_mm = dpi / 25.4
        w = round((self.cols * self.square_mm + 2 * margin_mm) * px_per_mm)
        h = round((self.rows * self.square_mm + 2 * margin_mm) * px_per_mm)
        return self.board().generateImage((w, h), marginSize=round(margin_mm * px_per_mm), borderBits=1)


@dataclass(frozen=True, slots=True)
class LensCalibration:
    """Intrinsics and distortion of one camera at one resolution; ``rms_px`` is the calibration's
    reprojection error over ``frames`` views."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, ...]
    rms_px: float = 0.0
    frames: int = 0
    camera: str = ""
    created: str = ""

    @property
    def K(self) -> np.ndarray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    def check_size(self, size: tuple[int, int]) -> None:
        if tuple(size) != (self.width, self.height):
            raise CalibrationError(f"the lens calibration was made for {self.width}x{self.height} frames but these are "
                                   f"{size[0]}x{size[1]}: set the camera to {self.width}x{self.height} or run "
                                   f"'touchline calibrate-lens' again at this resolution")

    def to_json(self) -> dict:
        return {"format": LENS_FORMAT, "version": 1, "camera": self.camera, "created": self.created,
                "resolution": [self.width, self.height],
                "K": self.K.tolist(), "dist": list(self.dist), "rms_px": self.rms_px, "frames": self.frames}

    @classmethod
    def from_json(cls, obj: dict, name: str = "lens calibration") -> "LensCalibration":
        if not isinstance(obj, dict) or obj.get("format") != LENS_FORMAT:
            raise CalibrationError(f"{name}: not a Touchline lens calibration (no \"format\": \"{LENS_FORMAT}\")")
        try:
            (w, h), K = obj["resolution"], obj["K"]
            return cls(int(w), int(h), float(K[0][0]), float(K[1][1]), float(K[0][2]), float(K[1][2]),
                       tuple(float(d) for d in obj["dist"]), float(obj.get("rms_px", 0.0)),
                       int(obj.get("frames", 0)), str(obj.get("camera", "")), str(obj.get("created", "")))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"{name}: damaged lens calibration ({exc!r}): run 'touchline calibrate-lens' "
                                   f"again") from None

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> "LensCalibration":
        try:
            obj = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CalibrationError(f"{path}: no such lens calibration; make one with 'touchline calibrate-lens'") from None
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"{path}: cannot be read as JSON ({exc})") from None
        return cls.from_json(obj, str(path))


@dataclass(frozen=True, slots=True)
class CharucoView:
    """The board's inner corners found in one frame: board points (N, 3) mm and pixels (N, 2)."""

    object_mm: np.ndarray
    image_px: np.ndarray


def find_charuco(spec: CharucoSpec, gray: np.ndarray, min_corners: int = 12) -> CharucoView | None:
    """The ChArUco corners in one grey frame (H, W) uint8, or None when too few are seen."""
    detector = cv2.aruco.CharucoDetector(spec.board())
    corners, ids, _, _ = detector.detectBoard(gray)
    if ids is None or len(ids) < min_corners:
        return None
    obj, img = spec.board().matchImagePoints(corners, ids)
    if obj is None or len(obj) < min_corners:
        return None
    return CharucoView(obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32))


def calibrate_lens(views: Iterable[CharucoView], size: tuple[int, int], camera: str = "",
                   max_rms_px: float = 1.0, min_views: int = 6) -> LensCalibration:
    """Intrinsics and distortion (k1, k2, p1, p2, k3) from ChArUco views of one camera. Refuses
    (CalibrationError) with fewer than ``min_views`` views or an error above ``max_rms_px``."""
    views = list(views)
    if len(views) < min_views:
        raise CalibrationError(f"the ChArUco board was found in {len(views)} frames; a lens calibration needs at "
                               f"least {min_views}: show the board from more angles, filling the frame")
    rms, K, dist, _, _ = cv2.calibrateCamera([v.object_mm for v in views], [v.image_px for v in views], size,
                                             None, None)
    if not math.isfinite(rms) or rms > max_rms_px:
        raise CalibrationError(f"lens calibration refused: reprojection error {rms:.2f} px is above {max_rms_px:g} px; "
                               f"keep the board flat and still, well lit and sharp, and try again")
    log.info("lens calibration: %d views, %.3f px rms", len(views), rms)
    return LensCalibration(int(size[0]), int(size[1]), float(K[0, 0]), float(K[1, 1]), float(K[0, 2]), float(K[1, 2]),
                           tuple(float(d) for d in dist.ravel()[:5]), float(rms), len(views), camera,
                           datetime.now(timezone.utc).isoformat(timespec="seconds"))
