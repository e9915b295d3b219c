"""A pitch calibration as saved to JSON, and the checks that refuse one made for another camera
resolution or another board."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from companion.board import GridBoard

from .camera import CameraModel
from .errors import CalibrationError
from .pitch import Quality

CALIBRATION_FORMAT = "touchline-calibration"


@dataclass(frozen=True)
class Calibration:
    """A posed camera for one board at one resolution.

    ``method``: "corner markers", "tapped points" or "corners" (four given pixel corners);
    ``focal_source``: "lens", "pitch", "caps" or "prior" (see ``calibration.pitch.PitchFit``);
    ``corner_px``: where each corner marker's centre was seen (to notice when the camera or the
    board is bumped); ``camera_name``: the device; ``height_sd_mm``: how sure the camera's height
    is (one standard deviation; 0 with a lens calibration)."""

    camera: CameraModel
    board_name: str
    pitch_mm: tuple[float, float]
    quality: Quality
    method: str
    focal_source: str
    created: str = ""
    camera_name: str = ""
    corner_px: dict[int, tuple[float, float]] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    homography: np.ndarray | None = field(default=None, repr=False, compare=False)
    height_sd_mm: float = 0.0
    marker_sizes: dict = field(default_factory=dict, compare=False)

    @property
    def plane_homography(self) -> np.ndarray:
        """Board (x, y, 1) on the board plane -> undistorted pixels, as fitted to the calibration
        points (more exact on the board plane than the camera model when the lens is unknown)."""
        return self.homography if self.homography is not None else self.camera.plane_homography(0.0)

    def __repr__(self) -> str:
        return (f"Calibration(board_name={self.board_name!r}, pitch_mm={self.pitch_mm}, "
                f"size={self.camera.width}x{self.camera.height}, method={self.method!r}, "
                f"focal_source={self.focal_source!r}, verdict={self.quality.verdict!r})")

    @property
    def size(self) -> tuple[int, int]:
        return (self.camera.width, self.camera.height)

    def check_frame(self, size: tuple[int, int], name: str = "calibration") -> None:
        """Refuse frames of another resolution than the calibration was made for."""
        if tuple(size) != self.size:
            raise CalibrationError(f"{name} was made for {self.size[0]}x{self.size[1]} frames but the camera gives "
                                   f"{size[0]}x{size[1]}: set the camera to {self.size[0]}x{self.size[1]} or "
                                   f"calibrate again at this resolution")

    def check_board(self, board: GridBoard, pitch_mm: tuple[float, float] | None = None,
                    name: str = "calibration") -> None:
        """Refuse a calibration made for another board (name or pitch size)."""
        pitch = pitch_mm or (board.length_mm, board.width_mm)
        if self.board_name != board.name or any(abs(a - b) > 0.5 for a, b in zip(self.pitch_mm, pitch)):
            raise CalibrationError(f"{name} was made for the board {self.board_name!r} "
                                   f"({self.pitch_mm[0]:g} x {self.pitch_mm[1]:g} mm), not {board.name!r} "
                                   f"({pitch[0]:g} x {pitch[1]:g} mm): calibrate again on this board")

    def to_json(self) -> dict:
        cam = self.camera
        return {
            "format": CALIBRATION_FORMAT, "version": 1,
            "camera": {"name": self.camera_name, "fx": cam.fx, "fy": cam.fy, "cx": cam.cx, "cy": cam.cy,
                       "dist": list(cam.dist), "rvec": list(cam.rvec), "tvec": list(cam.tvec)},
            "resolution": [cam.width, cam.height],
            "board": {"name": self.board_name, "length_mm": self.pitch_mm[0], "width_mm": self.pitch_mm[1]},
            "created": self.created,
            "method": self.method,
            "focal_source": self.focal_source,
            "matrices": {"K": cam.K.tolist(), "dist": list(cam.dist), "R": cam.R.tolist(), "t": list(cam.tvec),
                         "board_to_image": _unit(self.plane_homography).tolist()},
            "camera_position_mm": [round(float(v), 2) for v in cam.center_mm],
            "tilt_deg": round(cam.tilt_deg, 2),
            "camera_height_sd_mm": round(self.height_sd_mm, 1),
            "quality": self.quality.to_json(),
            "corner_markers_px": {str(k): [round(v[0], 2), round(v[1], 2)] for k, v in sorted(self.corner_px.items())},
            "warnings": list(self.warnings),
            **({"marker_sizes": dict(self.marker_sizes)} if self.marker_sizes else {}),
        }

    @classmethod
    def from_json(cls, obj: object, name: str = "calibration") -> "Calibration":
        if not isinstance(obj, dict) or obj.get("format") != CALIBRATION_FORMAT:
            raise CalibrationError(f"{name}: not a Touchline pitch calibration (no \"format\": "
                                   f"\"{CALIBRATION_FORMAT}\")")
        if obj.get("version") != 1:
            raise CalibrationError(f"{name}: calibration format version {obj.get('version')!r} is not known to this "
                                   f"Touchline; calibrate again")
        try:
            c, (w, h), b = obj["camera"], obj["resolution"], obj["board"]
            cam = CameraModel(int(w), int(h), float(c["fx"]), float(c["fy"]), float(c["cx"]), float(c["cy"]),
                              tuple(c["dist"]), tuple(c["rvec"]), tuple(c["tvec"]))
            return cls(cam, str(b["name"]), (float(b["length_mm"]), float(b["width_mm"])),
                       Quality.from_json(obj["quality"]), str(obj["method"]), str(obj["focal_source"]),
                       str(obj.get("created", "")), str(c.get("name", "")),
                       {int(k): (float(v[0]), float(v[1])) for k, v in obj.get("corner_markers_px", {}).items()},
                       tuple(str(x) for x in obj.get("warnings", ())),
                       np.array(obj["matrices"]["board_to_image"], float) if "matrices" in obj else None,
                       float(obj.get("camera_height_sd_mm", 0.0)), _sizes(obj.get("marker_sizes", {})))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"{name}: damaged calibration ({type(exc).__name__}: {exc}); calibrate again") from None

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> "Calibration":
        try:
            obj = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CalibrationError(f"{path}: no such calibration file; check the path") from None
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"{path}: cannot be read as JSON ({exc})") from None
        return cls.from_json(obj, str(path))


def _sizes(obj: object) -> dict:
    """The stored marker sizes, checked: millimetres a printed marker can have."""
    if not isinstance(obj, dict):
        raise ValueError("marker_sizes is not an object")
    out = {}
    for key in ("figure_marker_mm", "ball_marker_mm"):
        if obj.get(key) is not None:
            v = obj[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 3.0 <= float(v) <= 100.0:
                raise ValueError(f"marker_sizes.{key} must be 3..100 mm, got {v!r}")
            out[key] = float(v)
    if "figure_marker_mm" in out:
        out["caps_measured"] = int(obj.get("caps_measured", 0))
    return out


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _unit(H: np.ndarray) -> np.ndarray:
    return H / H[2, 2] if abs(H[2, 2]) > 1e-12 else H
