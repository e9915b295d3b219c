"""The camera model: where the camera is, how its lens bends light, and how a pixel maps to
board millimetres at any height above the board.

- ``camera``: :class:`CameraModel` (intrinsics, distortion, pose) and its ray geometry.
- ``pitch``: pitch calibration from the corner markers or tapped points, with a quality report.
- ``store``: calibrations as JSON, and the checks that refuse one made for another camera or board.
- ``lens``: lens calibration from a ChArUco board (``touchline calibrate-lens``).
- ``monitor``: notices when the corner markers move (camera or board bumped).
"""

from .camera import CameraModel
from .errors import CalibrationError

__all__ = ["CameraModel", "CalibrationError"]
