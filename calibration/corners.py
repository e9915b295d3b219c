"""Pitch calibration from a camera frame: find the four corner markers (16 corner points with
known board positions) and fit the camera; or fit it to points a person tapped."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.board import GridBoard

from .errors import CalibrationError
from .intrinsics import StandingCaps
from .lens import LensCalibration
from .pitch import PitchSettings, fit_pitch
from .store import Calibration, now


SHAPE_SLACK = 1.15  # perspective changes a pitch's apparent shape by less than this


def _ms_size(board: GridBoard) -> float:
    return min(board.ms_size_mm)


def calibrate_from_points(image_px: np.ndarray, board_mm: np.ndarray, size: tuple[int, int], board: GridBoard,
                          lens: LensCalibration | None = None, settings: PitchSettings = PitchSettings(),
                          method: str = "tapped points", labels: list[str] | None = None,
                          camera_name: str = "") -> Calibration:
    """A calibration from image points (N, 2) px whose board positions (N, 2) mm are known."""
    fit = fit_pitch(image_px, board_mm, size, _ms_size(board), lens, settings, labels)
    return Calibration(fit.camera, board.name, (board.length_mm, board.width_mm), fit.quality, method,
                       fit.focal_source, now(), camera_name, {}, fit.warnings, fit.homography, fit.height_sd_mm)


def calibrate_from_corners(corners_px: np.ndarray, size: tuple[int, int], board: GridBoard,
                           lens: LensCalibration | None = None, settings: PitchSettings = PitchSettings(),
                           camera_name: str = "") -> Calibration:
    """A calibration from the pixel positions (4, 2) of the pitch's outer corners at board
    (0, 0), (L, 0), (L, W), (0, W), going round the pitch either way.

    A camera above the board sees those four go round counter-clockwise (as the board is drawn,
    y up). Given the other way round (clockwise on screen: the top-left corner of the picture
    named (0,0), as if y ran down the image), no camera could see them so: the first side is
    still taken along the length, and the points are read as (0, W), (L, W), (L, 0), (0, 0);
    the calibration's warnings say so."""
    px = np.asarray(corners_px, float).reshape(-1, 2)
    if px.shape != (4, 2):
        raise CalibrationError(f"give exactly four pitch corners, got {len(px)}")
    L, W = board.length_mm, board.width_mm
    mm = np.array([[0, 0], [L, 0], [L, W], [0, W]], float)
    names = ["corner (0,0)", f"corner ({L:g},0)", f"corner ({L:g},{W:g})", f"corner (0,{W:g})"]
    sides = np.linalg.norm(px - np.roll(px, -1, axis=0), axis=1)
    along, across = sides[0] + sides[2], sides[1] + sides[3]
    if min(L, W) * SHAPE_SLACK < max(L, W) and (along - across) * (L - W) < 0 and \
            min(along, across) * SHAPE_SLACK < max(along, across):
        raise CalibrationError(f"the corners' first side (from (0,0) to ({L:g},0)) runs along the pitch's "
                               f"{'length' if L > W else 'width'}, but in the picture it is the "
                               f"{'shorter' if L > W else 'longer'} side: start at the corner (0,0) and go first "
                               f"along the {'length' if L > W else 'width'} ({L:g} mm)")
    note = ()
    if winding(px) > 0:
        px = px[::-1].copy()
        names = names[::-1]
        note = (f"the corners were given clockwise on screen (a camera above the board sees (0,0), (L,0), (L,W), "
                f"(0,W) go round counter-clockwise): read as the pitch's (0,{W:g}), ({L:g},{W:g}), ({L:g},0), (0,0), "
                f"the first side still along the length",)
    cal = calibrate_from_points(px, mm, size, board, lens, settings, "corners", names, camera_name)
    return replace(cal, warnings=note + tuple(cal.warnings)) if note else cal


def winding(px: np.ndarray) -> float:
    """Twice the signed area of a polygon (N, 2) in pixels (image y down): negative for points a
    camera above the board sees in the board's counter-clockwise order."""
    x, y = px[:, 0], px[:, 1]
    return float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum())


def calibrate_from_frame(image: np.ndarray, board: GridBoard, markers=None, lens: LensCalibration | None = None,
                         settings: PitchSettings = PitchSettings(), detector=None, camera_name: str = "") -> Calibration:
    """A calibration from the four corner markers seen in one frame (H, W) or (H, W, 3) uint8.
    Without a lens calibration, figures standing on the pitch in the same frame help show the
    camera's height (see :mod:`calibration.intrinsics`). Raises CalibrationError naming the
    markers that were not found."""
    from vision.config import MarkerSet
    from vision.detect import DetectorSettings, detect, to_gray

    markers = markers or MarkerSet()
    gray = to_gray(image)
    found: dict[int, list[np.ndarray]] = {}
    caps: dict[int, list[np.ndarray]] = {}  # figure markers, each pass on its own
    balls: list[np.ndarray] = []  # the ball token, as the narrow window reads it
    # corner markers are large: a wide threshold window first, a narrow one for what it missed
    # (on a 4K frame of a small board a corner marker can be a fifth of the frame across)
    biggest = max(140.0, max(gray.shape) / 5)
    tries = [detector] if detector else [DetectorSettings(window_px=w, window_max_px=w, dictionary=markers.dictionary,
                                                          max_side_px=biggest) for w in (15, 5)]
    for k, s in enumerate(tries):
        this: dict[int, list[np.ndarray]] = {}
        for d in detect(s, gray):
            if k == 0 or (d.marker in markers.corners.ids and d.marker not in found):
                found.setdefault(d.marker, []).append(d.corners)
            if d.marker in markers.figure_ids:
                this.setdefault(d.marker, []).append(d.corners)
            elif d.marker == markers.ball_id and k == len(tries) - 1:
                balls.append(d.corners)
        for m, seen in this.items():
            caps.setdefault(m, seen)
    layout = markers.corners
    L, W = board.length_mm, board.width_mm
    missing = [m for m in layout.ids if m not in found]
    places = dict(zip(layout.ids, ("(0,0)", f"({L:g},0)", f"({L:g},{W:g})", f"(0,{W:g})")))
    if missing:
        which = ", ".join(f"{m} (by pitch corner {places[m]})" for m in missing)
        raise CalibrationError(f"corner marker{'s' if len(missing) > 1 else ''} {which} not found: check "
                               f"{'they are' if len(missing) > 1 else 'it is'} in view, uncovered, lit and flat, "
                               f"then try again (or tap the pitch corners instead)")
    twice = [m for m in layout.ids if len(found[m]) > 1]
    if twice:
        raise CalibrationError(f"corner marker {twice[0]} is seen {len(found[twice[0]])} times: remove the extra "
                               f"print from the camera's view")
    board_pts = layout.corners_mm(L, W)
    px = np.concatenate([found[m][0] for m in layout.ids])
    mm = np.concatenate([board_pts[m][:, :2] for m in layout.ids])
    labels = [f"marker {m} corner {k}" for m in layout.ids for k in range(4)]
    size = (gray.shape[1], gray.shape[0])
    # only what lies on the table counts as a cap (a pictogram on a box beside it can read as
    # one), and an id read twice is no evidence of where either cap stands
    caps, balls = _on_the_table(px, mm, caps, balls, board, markers)
    standing = [c[0].mean(axis=0) for c in caps.values() if len(c) == 1]
    stand = StandingCaps(np.array(standing).reshape(-1, 2), markers.cap_height_mm, board.ms_size_mm, (L, W)) \
        if lens is None and standing else None
    fit = fit_pitch(px, mm, size, _ms_size(board), lens, settings, labels, stand)
    corner_px = {m: tuple(float(v) for v in found[m][0].mean(axis=0)) for m in layout.ids}
    sizes = _measured_sizes(fit, markers, caps, balls)
    return Calibration(fit.camera, board.name, (L, W), fit.quality, "corner markers", fit.focal_source, now(),
                       camera_name, corner_px, fit.warnings, fit.homography, fit.height_sd_mm, sizes)


def _on_the_table(px: np.ndarray, mm: np.ndarray, caps: dict, balls: list, board: GridBoard, markers) -> tuple[dict, list]:
    """The caps and ball tokens (frame corners) whose centres the corner markers' homography
    puts on the table (the board, its off-pitch areas and the corner markers, with a cap's
    parallax to spare); the rest are patterns elsewhere in the picture."""
    import cv2

    from vision.extent import board_extent_mm

    H, _ = cv2.findHomography(px.astype(np.float64), mm.astype(np.float64))
    if H is None:
        return caps, balls
    ext = board_extent_mm(board, markers)
    slack = markers.cap_height_mm + 20.0
    lo, hi = ext[:, :2].min(axis=0) - slack, ext[:, :2].max(axis=0) + slack

    def on(corners: np.ndarray) -> bool:
        c = np.append(np.asarray(corners, float).mean(axis=0), 1.0) @ H.T
        if abs(c[2]) < 1e-12:
            return False
        x, y = c[:2] / c[2]
        return bool(lo[0] <= x <= hi[0] and lo[1] <= y <= hi[1])

    kept = {m: [c for c in seen if on(c)] for m, seen in caps.items()}
    return {m: seen for m, seen in kept.items() if seen}, [b for b in balls if on(b)]


def _measured_sizes(fit, markers, caps: dict, balls: list) -> dict:
    """The printed sides the caps and the ball token standing in the frame show, with the camera
    just fitted (:mod:`vision.marker_size`): stored with the calibration, so a table whose caps
    were printed at another scale is read at theirs."""
    from vision.locate import marker_points_mm
    from vision.marker_size import measure

    ids = [m for m, seen in caps.items() if len(seen) == 1] + ([markers.ball_id] if len(balls) == 1 else [])
    if not ids:
        return {}
    corners = np.stack([caps[m][0] if m != markers.ball_id else balls[0] for m in ids]).astype(float)
    heights = np.array([markers.height_of(m) for m in ids])
    points = marker_points_mm(fit.camera, corners, heights, fit.homography)
    return measure(markers, ids, corners, points).to_json()
