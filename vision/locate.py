"""From detected markers to board millimetres and squares.

:func:`locate` is a pure stage: ``(setup, detections) -> FrameResult``. Each marker's corners are
cast as rays from the camera onto the plane at that marker's height (cap height for figures,
token thickness for the ball, the board for corner markers), which removes the parallax of
the caps; the centre of the four board points is the figure's position, and the marker's top
edge gives its facing. Squares come only from ``companion.board.GridBoard``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.camera import CameraModel
from companion.board import GridBoard, Square
from companion.teams import PlayerRef

from .config import MarkerMap, MarkerSet
from .detect import Detection, DetectorSettings, detect
from .sighting import OFF_PITCH


@dataclass(frozen=True)
class VisionSetup:
    """Everything a frame is read with: the posed camera, the board, the printed markers, the
    marker map and the detector settings. ``max_size_error`` is how far a cap's measured size
    may be from the typical cap's in the same frame (as a fraction) before it is taken for lifted
    or tipped over."""

    camera: CameraModel
    board: GridBoard
    markers: MarkerSet = MarkerSet()
    marker_map: MarkerMap = field(default_factory=MarkerMap.default)
    detector: DetectorSettings = DetectorSettings()
    max_size_error: float = 0.06
    plane_homography: np.ndarray | None = field(default=None, repr=False)
    corner_px: dict[int, tuple[float, float]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_calibration(cls, calibration, board: GridBoard, thorough: bool = False, **kw) -> "VisionSetup":
        """A setup reading frames with a pitch calibration (``calibration.store.Calibration``),
        its detector sized for the caps as this camera sees them (``thorough``: see
        :meth:`DetectorSettings.for_marker_px`)."""
        markers = kw.get("markers", MarkerSet())
        if "detector" not in kw:
            cam = calibration.camera
            side = markers.figure_marker_mm * cam.pixels_per_mm(board.length_mm / 2, board.width_mm / 2,
                                                                markers.cap_height_mm)
            kw["detector"] = DetectorSettings.for_marker_px(side, thorough, dictionary=markers.dictionary)
        return cls(calibration.camera, board, plane_homography=calibration.plane_homography,
                   corner_px=dict(calibration.corner_px), **kw)

    def __repr__(self) -> str:
        return (f"VisionSetup(camera={self.camera!r}, board={self.board.name!r}, markers={self.markers!r}, "
                f"marker_map={self.marker_map!r})")


@dataclass(frozen=True, slots=True)
class Seen:
    """A figure or the ball where the camera sees it. ``square`` is the movement square (None off
    the pitch), ``area`` the named off-pitch area (bench, substitution area) or "off the pitch";
    ``size_ratio`` is the marker's size over the frame's typical cap size (1.0 at cap height)."""

    marker: int
    player: PlayerRef | None
    x_mm: float
    y_mm: float
    facing_deg: float
    square: Square | None
    pass_square: Square | None
    area: str | None
    size_ratio: float = 1.0
    center_px: tuple[float, float] = (0.0, 0.0)

    @property
    def is_ball(self) -> bool:
        return self.player is None

    def to_json(self) -> dict:
        out: dict = {"marker": self.marker}
        if self.player is None:
            out["ball"] = True
        else:
            out["player"] = str(self.player)
        out.update({"x_mm": round(self.x_mm, 1), "y_mm": round(self.y_mm, 1), "facing_deg": round(self.facing_deg, 1),
                    "square": None if self.square is None else {"ms": list(self.square), "ps": list(self.pass_square)}})
        if self.area is not None:
            out["off_pitch"] = self.area
        return out


@dataclass(frozen=True, slots=True)
class Conflict:
    """A marker that cannot be a figure: its id seen more than once, or not in the marker map."""

    marker: int
    reason: str
    at_mm: tuple[tuple[float, float], ...] = ()

    def to_json(self) -> dict:
        return {"marker": self.marker, "reason": self.reason,
                "at_mm": [[round(x, 1), round(y, 1)] for x, y in self.at_mm]}


@dataclass(frozen=True)
class FrameResult:
    """What one frame shows: figures (sorted by marker), the ball, conflicts, warnings, and the
    pixel centres of the corner markers seen (for noticing a bumped camera)."""

    figures: tuple[Seen, ...] = ()
    ball: Seen | None = None
    conflicts: tuple[Conflict, ...] = ()
    warnings: tuple[str, ...] = ()
    corner_px: dict[int, tuple[float, float]] = field(default_factory=dict)
    detections: tuple[Detection, ...] = field(default=(), repr=False)

    def to_json(self) -> dict:
        seen = list(self.figures) + ([self.ball] if self.ball else [])
        return {"figures": [s.to_json() for s in seen], "conflicts": [c.to_json() for c in self.conflicts],
                "warnings": list(self.warnings)}


def board_extent_mm(board: GridBoard, markers: MarkerSet) -> np.ndarray:
    """Board points (N, 3) mm the camera must see: the pitch, the off-pitch areas and the corner
    markers with a little room, on the board and at cap height."""
    L, W = board.length_mm, board.width_mm
    o = markers.corners.offset_mm + markers.corners.side_mm / 2 + 8
    rects = [r for a in board.areas.values() if a.grid == "mm" for r in a.mm]
    x_low, x_high = min([-o] + [r.x0 - 8 for r in rects]), max([L + o] + [r.x1 + 8 for r in rects])
    y_low, y_high = min([-o] + [r.y0 - 8 for r in rects]), max([W + o] + [r.y1 + 8 for r in rects])
    pts = [(x, y, 0.0) for x in (x_low, x_high) for y in (y_low, y_high)]
    return np.array(pts + [(x, y, markers.cap_height_mm) for x, y, _ in pts])


def board_rect(setup: "VisionSetup", margin_px: int = 20) -> tuple[int, int, int, int]:
    """The part of the frame (x0, y0, x1, y1) holding the board, its off-pitch areas and the
    corner markers: nothing outside it needs searching."""
    cam = setup.camera
    px = cam.project(board_extent_mm(setup.board, setup.markers))
    x0, y0 = np.floor(px.min(axis=0)).astype(int) - margin_px
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + margin_px
    return (max(0, int(x0)), max(0, int(y0)), min(cam.width, int(x1)), min(cam.height, int(y1)))


def read_frame(setup: "VisionSetup", gray: np.ndarray) -> FrameResult:
    """One frame (H, W) uint8, read on its own: the board's part of it searched, then located."""
    return locate(setup, detect(setup.detector, gray, [board_rect(setup)]))


def marker_points_mm(camera: CameraModel, corners_px: np.ndarray, heights: np.ndarray,
                     plane_homography: np.ndarray | None = None) -> np.ndarray:
    """Corners (N, 4, 2) px of markers lying at ``heights`` (N,) mm -> board points (N, 4, 2) mm.

    With ``plane_homography`` (board plane -> undistorted pixels, as fitted), the point on the
    board plane comes from it and only the parallax shift (from the board plane up to the
    marker's height) from the camera model: the fitted homography is exact on the board even
    where the camera model, resting on an assumed principal point, is not."""
    n = len(corners_px)
    norm = camera.normalize(np.asarray(corners_px, float).reshape(-1, 2))  # the lens undone once
    z = np.repeat(np.asarray(heights, float), 4)
    at_height = camera.cast(norm, z)
    if plane_homography is not None:
        ideal = np.column_stack([norm[:, 0] * camera.fx + camera.cx, norm[:, 1] * camera.fy + camera.cy,
                                 np.ones(len(norm))])
        back = ideal @ np.linalg.inv(plane_homography).T
        base = back[:, :2] / back[:, 2:3]
        at_height = base + (at_height - camera.cast(norm, 0.0))
    return at_height.reshape(n, 4, 2)


def place(board: GridBoard, x: float, y: float) -> tuple[Square | None, Square | None, str | None]:
    """Movement square, pass square and off-pitch area of a board point."""
    ms = board.mm_to_ms(x, y)
    if ms is not None:
        return ms, board.ms_to_ps(ms), None
    return None, None, board.off_pitch_area(x, y) or OFF_PITCH


def locate(setup: VisionSetup, detections: list[Detection]) -> FrameResult:
    """Board positions of the detected markers; conflicts and doubtful markers set aside."""
    ms, board = setup.markers, setup.board
    if not detections:
        return FrameResult()
    corners = np.stack([d.corners for d in detections]).astype(float)
    heights = np.array([ms.height_of(d.marker) for d in detections])
    pts = marker_points_mm(setup.camera, corners, heights, setup.plane_homography)
    by_id: dict[int, list[int]] = {}
    for i, d in enumerate(detections):
        by_id.setdefault(d.marker, []).append(i)
    # everything per marker at once; the loop below only sorts markers into kinds
    centres = pts.mean(axis=1)
    finite = np.isfinite(centres).all(axis=1)
    up = (pts[:, 0] + pts[:, 1]) / 2 - (pts[:, 2] + pts[:, 3]) / 2
    facings = (np.degrees(np.arctan2(up[:, 1], up[:, 0])) % 360.0).tolist()
    # measured against the frame's typical cap, not the printed size: edge blur shrinks every
    # marker alike by a few per cent, while a lifted cap is nearer the camera and looks larger
    sides = np.linalg.norm(pts - pts[:, [3, 0, 1, 2]], axis=2).mean(axis=1) / np.array(
        [ms.side_of(d.marker) for d in detections])
    kinds = [ms.kind_of(d.marker) for d in detections]
    caps = sides[[k == "figure" for k in kinds] & finite]
    typical = float(np.median(caps)) if len(caps) >= 5 else 1.0
    ratios = (sides / typical).tolist()
    xy = centres.tolist()
    px = [d.center.tolist() for d in detections]
    figures: list[Seen] = []
    ball: Seen | None = None
    conflicts: list[Conflict] = []
    warnings: list[str] = []
    corner_px: dict[int, tuple[float, float]] = {}
    for marker, idx in sorted(by_id.items()):
        kind = kinds[idx[0]]
        if not all(finite[i] for i in idx):
            warnings.append(f"marker {marker} lies above the camera's horizon; check the calibration")
            continue
        if len(idx) > 1:
            conflicts.append(Conflict(marker, f"marker {marker} seen {len(idx)} times", tuple(tuple(xy[i]) for i in idx)))
            continue
        i = idx[0]
        if kind == "corner":
            corner_px[marker] = tuple(px[i])
            continue
        entry = setup.marker_map.get(marker) if kind == "figure" else None
        if kind == "unknown" or (kind == "figure" and entry is None):
            conflicts.append(Conflict(marker, f"marker {marker} is not in the marker map", (tuple(xy[i]),)))
            continue
        ratio = ratios[i]
        if abs(ratio - 1.0) > (setup.max_size_error if kind == "figure" else 3 * setup.max_size_error):
            warnings.append(f"marker {marker} looks {ratio:.2f} times the size of the other caps: lifted or "
                            f"tipped over, so not placed")
            continue
        x, y = xy[i]
        square, ps, area = place(board, x, y)
        if kind == "ball":
            ball = Seen(marker, None, x, y, facings[i], square, ps, area, ratio, tuple(px[i]))
        else:
            facing = (facings[i] + entry.facing_offset_deg) % 360.0
            figures.append(Seen(marker, entry.player, x, y, facing, square, ps, area, ratio, tuple(px[i])))
    return FrameResult(tuple(figures), ball, tuple(conflicts), tuple(warnings), corner_px, tuple(detections))
