"""From detected markers to board millimetres and squares.

:func:`locate` is a pure stage: ``(setup, detections) -> FrameResult``. Each marker's corners are
cast as rays from the camera onto the plane at that marker's height (cap height for figures,
token thickness for the ball, the board for corner markers), which removes the parallax of
the caps; the centre of the four board points is the figure's position, and the marker's top
edge gives its facing. Squares come only from ``companion.board.GridBoard``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from calibration.camera import CameraModel
from companion.board import GridBoard, Square
from companion.teams import PlayerRef

from .config import MarkerMap, MarkerSet
from .detect import Detection, DetectorSettings, detect
from .extent import board_extent_mm  # noqa: F401 (also this module's: vision.synth, benchmarks)
from .marker_size import MarkerSizes, disagreement, measure, other_print
from .plane import PlaneSettings, search_plane
from .refine import fit_edges
from .rescue import RescueSettings, rescue
from .sighting import OFF_PITCH


@dataclass(frozen=True)
class VisionSetup:
    """Everything a frame is read with: the posed camera, the board, the printed markers, the
    marker map and the detector settings. ``plane``: single frames are searched on the plane
    of the caps seen from above (:mod:`vision.plane`), or with None on the frame itself.
    ``rescue``: what the search did not read is looked for again in rectified patches of the
    frame (:mod:`vision.rescue`), or with None not. ``max_size_error`` is how much larger than the camera
    model says a cap at its height looks (as a fraction; more for small markers, see
    :func:`size_limits`) before it is taken for lifted; twice that smaller is tipped over.
    ``size_source``: where the markers' printed sizes come from: "given" (a person typed them),
    "measured" (stored with the calibration, :mod:`vision.marker_size`) or "assumed" (the shipped
    sheet's; :func:`read_frame` then measures them on the frame and reads again at that size
    when they differ); ``ball_size_known`` False: the ball token's size was only scaled with the
    caps', so where it does not read it is looked for at other sizes."""

    camera: CameraModel
    board: GridBoard
    markers: MarkerSet = MarkerSet()
    marker_map: MarkerMap = field(default_factory=MarkerMap.default)
    detector: DetectorSettings = DetectorSettings()
    max_size_error: float = 0.045
    plane: "PlaneSettings | None" = PlaneSettings()
    rescue: "RescueSettings | None" = RescueSettings()
    plane_homography: np.ndarray | None = field(default=None, repr=False)
    corner_px: dict[int, tuple[float, float]] = field(default_factory=dict, repr=False)
    size_source: str = "given"
    ball_size_known: bool = True

    @classmethod
    def from_calibration(cls, calibration, board: GridBoard, thorough: bool = False, size_source: str = "given",
                         **kw) -> "VisionSetup":
        """A setup reading frames with a pitch calibration (``calibration.store.Calibration``),
        its detector sized for the caps as this camera sees them (``thorough``: see
        :meth:`DetectorSettings.for_marker_px`). A 4K frame whose markers are large enough to be
        searched at half its resolution (``DetectorSettings.scale``) is searched so, not on the
        plane of the caps: that keeps it within the default detector's 1080p time.

        ``size_source`` "assumed" (no size given): the sizes the calibration measured, when it
        did, replace the shipped sheet's (the setup's source is then "measured")."""
        markers = kw.get("markers", MarkerSet())
        measured = MarkerSizes.from_json(getattr(calibration, "marker_sizes", None) or {})
        if size_source == "assumed":
            kw.setdefault("ball_size_known", False)
        if size_source == "assumed" and measured.measured:
            if measured.ball_mm is None and measured.figure_mm is not None and not kw["ball_size_known"]:
                # printed at the caps' scale, as far as is known: the reader looks at other sizes too
                measured = replace(measured, ball_mm=round(
                    markers.ball_marker_mm * measured.figure_mm / markers.figure_marker_mm, 1))
            elif measured.ball_mm is not None and not kw["ball_size_known"]:
                kw["ball_size_known"] = True
            elif kw["ball_size_known"]:  # a size given for the ball stands
                measured = replace(measured, ball_mm=None)
            markers, size_source = measured.apply(markers), "measured"
            kw["markers"] = markers
        if "detector" not in kw:
            kw["detector"] = detector_for(calibration.camera, board, markers, thorough)
            if kw["detector"].scale > 1:
                kw.setdefault("plane", None)
        return cls(calibration.camera, board, plane_homography=calibration.plane_homography,
                   corner_px=dict(calibration.corner_px), size_source=size_source, **kw)

    def with_sizes(self, sizes: MarkerSizes, source: str = "measured") -> "VisionSetup":
        """This setup reading markers printed at ``sizes`` (its detector and plane sized anew)."""
        markers = sizes.apply(self.markers)
        thorough = self.detector.window_max_px > self.detector.window_px
        detector = replace(detector_for(self.camera, self.board, markers, thorough), blur_match=self.detector.blur_match,
                           subpix=self.detector.subpix)
        plane = self.plane
        if detector.scale > 1:
            plane = None
        elif self.detector.scale > 1 and plane is None:  # it was left out for the 4K search only
            plane = PlaneSettings()
        return replace(self, markers=markers, detector=detector, plane=plane, size_source=source)

    def __repr__(self) -> str:
        return (f"VisionSetup(camera={self.camera!r}, board={self.board.name!r}, markers={self.markers!r}, "
                f"marker_map={self.marker_map!r})")


def detector_for(camera: CameraModel, board: GridBoard, markers: MarkerSet, thorough: bool = False) -> DetectorSettings:
    """Detector settings for the caps' markers as ``camera`` sees them at the board's centre."""
    side = markers.figure_marker_mm * camera.pixels_per_mm(board.length_mm / 2, board.width_mm / 2,
                                                           markers.cap_height_mm)
    return DetectorSettings.for_frame(side, camera.width, thorough, dictionary=markers.dictionary)


@dataclass(frozen=True, slots=True)
class Seen:
    """A figure or the ball where the camera sees it. ``square`` is the movement square (None off
    the pitch), ``area`` the named off-pitch area (bench, substitution area) or "off the pitch";
    ``size_ratio`` is the marker's size over the size the camera model gives a marker at its
    height there (1.0 at cap height, about 1.03 for a cap held 25 mm up; the reader's edge shrink
    taken out); ``side_px`` its side in the frame; ``held``: the live reader saw a hand (something
    large that is not the board) around it."""

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
    side_px: float = 0.0
    held: bool = False

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
    pixel centres of the corner markers seen (for noticing a bumped camera). ``marker_sizes``:
    the printed sizes the caps and the ball read here show (:mod:`vision.marker_size`);
    ``read_at``: the sizes the frame was read at, where :func:`read_frame` measured them
    rather than take the setup's (a setup with them: ``setup.with_sizes(read_at)``). ``in_place``: from
    the live reader, figures whose markers did not read in this frame but whose caps still look
    as they did where they last read (their last reading); never figures of this frame."""

    figures: tuple[Seen, ...] = ()
    ball: Seen | None = None
    conflicts: tuple[Conflict, ...] = ()
    warnings: tuple[str, ...] = ()
    corner_px: dict[int, tuple[float, float]] = field(default_factory=dict)
    detections: tuple[Detection, ...] = field(default=(), repr=False)
    in_place: tuple[Seen, ...] = ()
    marker_sizes: MarkerSizes = MarkerSizes()
    read_at: MarkerSizes | None = None

    def to_json(self) -> dict:
        seen = list(self.figures) + ([self.ball] if self.ball else [])
        return {"figures": [s.to_json() for s in seen], "conflicts": [c.to_json() for c in self.conflicts],
                "warnings": list(self.warnings)}


def board_rect(setup: "VisionSetup", margin_px: int = 20) -> tuple[int, int, int, int]:
    """The part of the frame (x0, y0, x1, y1) holding the board, its off-pitch areas and the
    corner markers: nothing outside it needs searching."""
    cam = setup.camera
    px = cam.project(board_extent_mm(setup.board, setup.markers))
    x0, y0 = np.floor(px.min(axis=0)).astype(int) - margin_px
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + margin_px
    return (max(0, int(x0)), max(0, int(y0)), min(cam.width, int(x1)), min(cam.height, int(y1)))


def read_frame(setup: "VisionSetup", gray: np.ndarray) -> FrameResult:
    """One frame (H, W) uint8, read on its own: searched on the plane of the caps (or, with
    ``setup.plane`` None, the board's part of the frame), then located. A thorough setup (a
    second threshold window, :meth:`DetectorSettings.for_marker_px`) also looks for markers as
    dark blobs on the plane and searches the frame itself, adding what the plane's search did
    not read (about twice the time). Then the rescue stage (``setup.rescue``) reads what it can
    of the rest: small, oblique and blurred markers, the ball token at its own size.

    With the markers' sizes only assumed (``setup.size_source``), the caps and the ball read
    are measured (:mod:`vision.marker_size`; where too few read, the frame is searched for them
    at any size) and, printed at another size, the frame is read again at the measured one
    (``FrameResult.marker_sizes``; a warning says so)."""
    found, plane, reduced = _search(setup, gray)
    assumed = setup.size_source == "assumed"
    ms, note, sizes, loose = setup.markers, [], MarkerSizes(), None
    if assumed:
        sizes = frame_sizes(setup, found)
        if sizes.figure_mm is None:  # too few caps read at the assumed size: search at any size
            loose = _size_free(setup, gray, found)
            sizes = frame_sizes(setup, found + loose)
        if sizes.figure_mm is None and other_print(ms.ball_marker_mm, sizes.ball_mm):
            # no caps to measure, but the ball token printed at another scale: the caps too, as
            # far as is known (the sheet prints them alike)
            sizes = replace(sizes, figure_mm=round(ms.figure_marker_mm * sizes.ball_mm / ms.ball_marker_mm, 1))
        if other_print(ms.figure_marker_mm, sizes.figure_mm):
            # printed at another scale: the ball token too, unless it was measured itself
            ball = (ms.ball_marker_mm if setup.ball_size_known else sizes.ball_mm
                    or round(ms.ball_marker_mm * sizes.figure_mm / ms.figure_marker_mm, 1))
            setup = replace(setup.with_sizes(MarkerSizes(sizes.figure_mm, sizes.figures, ball)),
                            ball_size_known=setup.ball_size_known or sizes.ball_mm is not None)
            note.append(f"the caps' markers measure {sizes.figure_mm:g} mm ({sizes.figures} caps), "
                        f"not {ms.figure_marker_mm:g} mm" if sizes.figures else
                        f"the ball token's marker measures {sizes.ball_mm:g} mm, not {ms.ball_marker_mm:g} mm: the "
                        f"caps read at its scale, {sizes.figure_mm:g} mm")
            found, plane, reduced = _search(setup, gray)
    if setup.rescue is not None:
        # the caps' search of the rescue stage reduces the plane's view rather than drawing its own
        found = sorted(found + rescue(setup, gray, found, setup.rescue, plane, reduced), key=lambda d: d.marker)
    if not setup.ball_size_known and not any(d.marker == ms.ball_id for d in found):
        # the ball token not read at the size assumed for it: looked for at any size
        loose = _size_free(setup, gray, found) if loose is None else loose
        balls = [d for d in loose if d.marker == ms.ball_id]
        if not balls and setup.rescue is not None:
            balls = _ball_at_other_sizes(setup, gray, found, plane, reduced)
        ball_mm = frame_sizes(setup, balls).ball_mm
        if len(balls) == 1 and other_print(setup.markers.ball_marker_mm, ball_mm):
            note.append(f"the ball token's marker measures {ball_mm:g} mm, not {setup.markers.ball_marker_mm:g} mm")
            caps_too = assumed and sizes.figure_mm is None  # no cap measured: read at the ball's scale
            fig = round(ms.figure_marker_mm * ball_mm / ms.ball_marker_mm, 1) if caps_too else None
            setup = replace(setup.with_sizes(MarkerSizes(fig, 0, ball_mm), setup.size_source), ball_size_known=True)
            if caps_too:
                note.append(f"the caps read at its scale, {fig:g} mm")
                found, plane, reduced = _search(setup, gray)
                if setup.rescue is not None:
                    found = sorted(found + rescue(setup, gray, found, setup.rescue, plane, reduced),
                                   key=lambda d: d.marker)
            if not any(d.marker == ms.ball_id for d in found):
                found = sorted(found + balls, key=lambda d: d.marker)
    result = locate(setup, found, gray)
    if not note:
        return result
    why = " (the shipped sheet's size, assumed)" if assumed else ""
    said = (f"{'; '.join(note)}{why}: read at the measured size; calibrate with the figures standing to keep "
            f"it, or give the printed size (--marker-mm, --ball-marker-mm)")
    ms = setup.markers
    return replace(result, warnings=(said,) + tuple(result.warnings),
                   read_at=MarkerSizes(ms.figure_marker_mm, sizes.figures, ms.ball_marker_mm))


def _search(setup: "VisionSetup", gray: np.ndarray) -> tuple[list[Detection], tuple | None, dict]:
    """The search stage: (detections, the plane's (view, image) or None, the frame reduced)."""
    plane = None
    reduced: dict[int, np.ndarray] = {}  # the frame reduced, shared by the 4K search and the rescue's views
    if setup.plane is None:
        found = detect(setup.detector, gray, [board_rect(setup)], reduced=reduced)
    else:
        thorough = setup.detector.window_max_px > setup.detector.window_px
        found, view, image = search_plane(replace(setup, plane=replace(setup.plane, blobs=True)) if thorough else setup, gray)
        plane = (view, image)
        if thorough:
            found = sorted(found + detect(setup.detector, gray, [board_rect(setup)], known=found), key=lambda d: d.marker)
    return found, plane, reduced


# Sides, as shares of the one assumed, at which a ball token not read is looked for by the rescue's
# ball search (a token printed smaller than its caps, as the benchmark's 9.5 mm among 17 mm ones)
BALL_SIZE_TRIES = (0.56, 0.7, 0.85)


def _ball_at_other_sizes(setup: "VisionSetup", gray: np.ndarray, found: list[Detection], plane, reduced) -> list[Detection]:
    """The ball token looked for by the rescue's own search at the sides of
    :data:`BALL_SIZE_TRIES` (its figures' search left out), the first that reads it."""
    only_ball = replace(setup.rescue, max_patches=0, turned_tries=0)
    for share in BALL_SIZE_TRIES:
        tried = setup.with_sizes(MarkerSizes(ball_mm=round(setup.markers.ball_marker_mm * share, 1)),
                                 setup.size_source)
        got = [d for d in rescue(tried, gray, found, only_ball, plane, reduced) if d.marker == setup.markers.ball_id]
        if got:
            return got
    return []


def _size_free(setup: "VisionSetup", gray: np.ndarray, known: list[Detection]) -> list[Detection]:
    return detect(replace(SIZE_FREE_SEARCH, dictionary=setup.markers.dictionary), gray, [board_rect(setup)],
                  known=list(known))


# The search of a frame whose markers' size is not known: the smallest threshold window (it
# parts a 9 px marker from what is around it, and finds larger ones too, as the frame's default
# detector does with its several windows) and markers from 8 px to a fifth of a 1080p frame.
SIZE_FREE_SEARCH = DetectorSettings(window_px=5, window_max_px=9, min_side_px=8.0, max_side_px=220.0)


def frame_sizes(setup: "VisionSetup", detections: list[Detection]) -> MarkerSizes:
    """The printed sizes the markers ``detections`` show, each cast at its own height."""
    ms = setup.markers
    dets = [d for d in detections if ms.kind_of(d.marker) in ("figure", "ball")]
    if not dets:
        return MarkerSizes()
    corners = np.stack([d.corners for d in dets]).astype(float)
    heights = np.array([ms.height_of(d.marker) for d in dets])
    pts = marker_points_mm(setup.camera, corners, heights, setup.plane_homography)
    return measure(ms, [d.marker for d in dets], corners, pts)


# How many pixels smaller than it is the reader measures a marker when too few caps are seen to
# measure it (the benchmark's median at blur 0.3-0.9 px: a cap's white margin, 1-2 px wide, is
# darkened by what is around it, which pulls the edge's steepest point inwards).
EDGE_SHRINK_PX = 0.4


def edge_lengths(corners_px: np.ndarray, points_mm: np.ndarray, printed_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each marker's four edges (N, 4) as measured in the frame, px, and as long as the camera
    model draws the printed marker (``printed_mm`` (N,)) there: edge k runs from corner k - 1 to
    corner k of ``corners_px`` (N, 4, 2), and its board points ``points_mm`` (N, 4, 2), on the
    plane at the marker's height, give the frame's pixels per millimetre along it. A camera tilted
    35 degrees draws a cap's edges across its view a third shorter than those along it."""
    px = np.linalg.norm(corners_px - corners_px[:, [3, 0, 1, 2]], axis=2)
    mm = np.linalg.norm(points_mm - points_mm[:, [3, 0, 1, 2]], axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = np.asarray(printed_mm, float)[:, None] * px / mm
    return px, expected


def size_ratios(px: np.ndarray, expected: np.ndarray, caps: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Markers' sizes (N,) against the camera model, from their edges (N, 4) as measured and as
    the model draws them at their height there (:func:`edge_lengths`), with the reader's edge
    shrink taken out: every edge looks shorter by about the same number of pixels (the blur of
    the frame), measured as the median over the caps (``caps``, a mask) when there are three or
    more, else :data:`EDGE_SHRINK_PX`. The ratio is the measured edges' sum over the model's, so
    each edge counts by its length in pixels: a pixel of error on a foreshortened edge is a
    larger share of it, and averaging the edges in millimetres let it swing a cap seen at a steep
    tilt 6-9 % (taken for lifted). Returns (ratios, shrink px, the spread of the caps' shrink in
    px: a robust standard deviation, 0 with fewer than 5 caps)."""
    px, expected = np.asarray(px, float), np.asarray(expected, float)
    each = (expected - px).mean(axis=1)
    spread = 0.0
    if int(caps.sum()) >= 3:
        shrink = float(np.clip(np.median(each[caps]), -0.5, 1.5))
        if int(caps.sum()) >= 5:
            spread = float(1.4826 * np.median(np.abs(each[caps] - np.median(each[caps]))))
    else:
        shrink = EDGE_SHRINK_PX
    return shrunk_ratios(px, expected, shrink), shrink, spread


def shrunk_ratios(px: np.ndarray, expected: np.ndarray, shrink: float) -> np.ndarray:
    """Markers' sizes (N,): their measured edges (N, 4) px, each ``shrink`` px longer (the
    reader's edge shrink taken out), summed, over the model's (:func:`size_ratios`)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (px.sum(axis=1) + 4 * shrink) / np.maximum(expected.sum(axis=1), 1e-9)


def facings_deg(points_mm: np.ndarray) -> np.ndarray:
    """The way each marker (N, 4, 2 board points, ArUco order) faces, degrees (N,): from the
    middle of its bottom edge to the middle of its top edge."""
    up = (points_mm[:, 0] + points_mm[:, 1]) / 2 - (points_mm[:, 2] + points_mm[:, 3]) / 2
    return np.degrees(np.arctan2(up[:, 1], up[:, 0])) % 360.0


def size_limits(max_error: float, side_px: float, spread_px: float = 0.0) -> tuple[float, float]:
    """The sizes (high, low, as ratios to the model's) between which a cap of ``side_px`` is
    taken to stand at its height: a pixel of edge noise on a small marker is several per cent,
    and a blurred frame's caps scatter more (``spread_px``, from :func:`size_ratios`)."""
    noise = max(0.7, 3.0 * spread_px) / max(side_px, 1.0)
    return 1.0 + max(max_error, noise), 1.0 - max(2 * max_error, 1.7 * noise)


def _size_warning(cap_ratios: np.ndarray, ms: MarkerSet) -> str | None:
    """A sentence when most caps disagree with the printed size or height the reader was given."""
    if len(cap_ratios) < 5:
        return None
    typical = float(np.median(cap_ratios))
    if abs(typical - 1.0) <= 0.12:
        return None
    return (f"the caps look {typical:.2f} times the size of {ms.figure_marker_mm:g} mm markers "
            f"{ms.cap_height_mm:g} mm above the board: give the printed size and the caps' height "
            f"(--marker-mm, --marker-height-mm), or calibrate again")


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


def remeasure(setup: VisionSetup, gray: np.ndarray, points_mm: np.ndarray, height_mm: float,
              printed_mm: float) -> np.ndarray | None:
    """A second measure of a marker whose size looked wrong: its corners (4, 2) px fitted again
    to the grey frame's (H, W) uint8 edges, starting from where the camera model draws the
    printed marker at the first measure's centre and turn (``points_mm`` (4, 2), its corners on
    the plane at ``height_mm``, ArUco order), or None where the edges do not fit. At a steep tilt
    a small marker's corners from the search are off by a pixel or two now and then (a cap's
    margin is a pixel wide across the view): started from the model's shape, the lines fitted to
    all four edges measure its size again on its own evidence, so a lifted cap still looks
    larger and a standing one no longer does."""
    centre = points_mm.mean(axis=0)
    u = (points_mm[1] - points_mm[0]) + (points_mm[2] - points_mm[3])
    v = (points_mm[3] - points_mm[0]) + (points_mm[2] - points_mm[1])
    nu = float(np.linalg.norm(u))
    if not np.isfinite(nu) or nu < 1e-9:
        return None
    u = u / nu
    w = np.array([-u[1], u[0]]) * (1.0 if float(np.dot(v, [-u[1], u[0]])) >= 0 else -1.0)
    half = printed_mm / 2
    model = centre + np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ np.stack([u, w])
    quad = setup.camera.project(np.column_stack([model, np.full(4, height_mm)]))
    x, y = quad[:, 0], quad[:, 1]
    clockwise = float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum()) > 0
    order = [0, 1, 2, 3] if clockwise else [0, 3, 2, 1]  # fit_edges wants them clockwise on screen
    fitted, ok = fit_edges(gray, quad[order][None], samples=REMEASURE_SAMPLES)
    if not ok[0]:
        return None
    out = np.empty((4, 2))
    out[order] = fitted[0]
    return out


# Edge points per side for :func:`remeasure` (7: as many misread caps at 25-40 degrees measured
# within their limits as at 9 or 13, and fewer fits given up).
REMEASURE_SAMPLES = 7


def locate(setup: VisionSetup, detections: list[Detection], gray: np.ndarray | None = None) -> FrameResult:
    """Board positions of the detected markers; conflicts and doubtful markers set aside. With
    the grey frame (H, W) uint8 ``gray``, a marker whose size looks wrong is measured once more
    (:func:`remeasure`) before it is set aside."""
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
    facings = facings_deg(pts).tolist()
    # the size check: each marker's edges against the camera model's drawing of its printed
    # marker at its own height there (so 1.0 for a cap where the model says it is; a lifted cap
    # is nearer the camera and larger), with the reader's edge shrink taken out (see size_ratios)
    printed = np.array([ms.side_of(d.marker) for d in detections])
    kinds = [ms.kind_of(d.marker) for d in detections]
    side_px = np.array([d.side_px for d in detections])
    is_cap = np.array([k == "figure" for k in kinds]) & finite
    edges_px, model_px = edge_lengths(corners, pts, printed)
    ratios_arr, shrink, spread = size_ratios(edges_px, model_px, is_cap)
    ratios = ratios_arr.tolist()
    measurable = is_cap | (np.array([k == "ball" for k in kinds]) & finite)
    sizes = measure(ms, [d.marker for d, m in zip(detections, measurable) if m], corners[measurable], pts[measurable])
    size_warning = disagreement(ms, sizes, setup.size_source) if setup.size_source != "assumed" else None
    if size_warning is None:
        size_warning = _size_warning(ratios_arr[is_cap], ms)
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
        high, low = size_limits(setup.max_size_error, float(side_px[i]), spread)
        if kind == "ball":  # a thin token: a hand holding it is what the size shows
            high, low = 1 + 2 * (high - 1), 1 - 2 * (1 - low)
        if not low <= ratio <= high and gray is not None:
            again = remeasure(setup, gray, pts[i], float(heights[i]), float(printed[i]))
            if again is not None:
                at = marker_points_mm(setup.camera, again[None], heights[i:i + 1], setup.plane_homography)
                e_px, m_px = edge_lengths(again[None], at, printed[i:i + 1])
                # the frame's own edge shrink, not the default one
                second = float(shrunk_ratios(e_px, m_px, shrink)[0])
                if low <= second <= high:
                    ratio = second
                    xy[i] = at[0].mean(axis=0).tolist()
                    facings[i] = float(facings_deg(at)[0])
        if not low <= ratio <= high:
            state = "lifted" if ratio > 1 else "tipped over"
            warnings.append(f"marker {marker} looks {ratio:.2f} times the size it has there "
                            f"{ms.height_of(marker):g} mm above the board: {state}, so not placed")
            continue
        x, y = xy[i]
        square, ps, area = place(board, x, y)
        if kind == "ball":
            ball = Seen(marker, None, x, y, facings[i], square, ps, area, ratio, tuple(px[i]), float(side_px[i]))
        else:
            facing = (facings[i] + entry.facing_offset_deg) % 360.0
            figures.append(Seen(marker, entry.player, x, y, facing, square, ps, area, ratio, tuple(px[i]),
                                float(side_px[i])))
    if size_warning:
        warnings.append(size_warning)
    return FrameResult(tuple(figures), ball, tuple(conflicts), tuple(warnings), corner_px, tuple(detections),
                       marker_sizes=sizes)
