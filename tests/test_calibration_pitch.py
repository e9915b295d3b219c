"""Pitch and lens calibration: fits, quality verdicts, refusals, saved files, the corner monitor."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.corners import calibrate_from_corners, calibrate_from_points
from calibration.errors import CalibrationError
from calibration.lens import CharucoSpec, LensCalibration, calibrate_lens, find_charuco
from calibration.monitor import CornerMonitor, MonitorSettings
from calibration.pitch import PitchSettings, fit_pitch
from calibration.store import Calibration
from companion.fublet.components import load_board
from vision.cli import parse_corners
from vision.config import MarkerSet
from vision.synth import random_camera, render_charuco

BOARD = load_board()
MS = min(BOARD.ms_size_mm)


def centred(cam: CameraModel) -> CameraModel:
    """The same camera with its principal point at the image centre (what the pitch fit assumes)."""
    return replace(cam, cx=cam.width / 2, cy=cam.height / 2, dist=(0.0,) * 5)


def as_assumed(cam: CameraModel) -> PitchSettings:
    """Settings expecting the camera at its true height: with its principal point at the centre,
    what a fit without a lens calibration assumes then holds, and the fit is exact."""
    return PitchSettings(camera_height_mm=float(cam.center_mm[2]))


def grid_points(n: int = 5) -> np.ndarray:
    xs, ys = np.meshgrid(np.linspace(0, BOARD.length_mm, n), np.linspace(0, BOARD.width_mm, n))
    return np.column_stack([xs.ravel(), ys.ravel()])


def seen_by(cam: CameraModel, mm: np.ndarray, noise_px: float = 0.0, seed: int = 0) -> np.ndarray:
    px = cam.project(np.column_stack([mm, np.zeros(len(mm))]))
    return px + np.random.default_rng(seed).normal(0, noise_px, px.shape) if noise_px else px


@pytest.fixture(scope="module")
def tilted() -> CameraModel:
    return centred(random_camera(np.random.default_rng(11), BOARD, MarkerSet(), min_tilt_deg=15.0, distortion=0.0))


def test_exact_points_give_back_the_camera(tilted):
    # exact when what is assumed holds: the principal point at the centre, the height as expected
    mm = grid_points()
    fit = fit_pitch(seen_by(tilted, mm), mm, tilted.size, MS, settings=as_assumed(tilted))
    assert fit.focal_source == "pitch"
    assert fit.camera.fx == pytest.approx(tilted.fx, rel=1e-4)
    assert np.linalg.norm(fit.camera.center_mm - tilted.center_mm) < 0.5  # mm
    assert fit.quality.verdict == "good" and fit.quality.rms_mm < 1e-3


def test_noisy_taps_are_judged_by_their_error(tilted):
    mm = grid_points()
    good = calibrate_from_points(seen_by(tilted, mm, 0.5, seed=1), mm, tilted.size, BOARD)
    assert good.quality.verdict == "good" and good.quality.rms_ms < 0.1
    assert "good:" in good.quality.reason and "of a movement square" in good.quality.reason
    usable = calibrate_from_points(seen_by(tilted, mm, 3.0, seed=2), mm, tilted.size, BOARD,
                                   settings=PitchSettings(ransac_px=20.0))
    assert usable.quality.verdict == "usable"
    with pytest.raises(CalibrationError, match=r"calibration refused: error .* the limit is 0.25 of a square"):
        calibrate_from_points(seen_by(tilted, mm, 9.0, seed=3), mm, tilted.size, BOARD,
                              settings=PitchSettings(ransac_px=60.0))


def test_one_bad_tap_is_set_aside_and_named(tilted):
    mm = grid_points()
    px = seen_by(tilted, mm, 0.3, seed=4)
    px[7] += (40.0, -25.0)
    cal = calibrate_from_points(px, mm, tilted.size, BOARD)
    assert "ignored as outliers: point 8" in cal.quality.reason and cal.quality.inliers == 24


def test_many_bad_taps_are_refused_naming_them(tilted):
    mm = grid_points(3)
    px = seen_by(tilted, mm, 0.3, seed=5)
    px[[1, 4, 6]] += (60.0, 30.0)
    with pytest.raises(CalibrationError, match="disagree with the other points"):
        calibrate_from_points(px, mm, tilted.size, BOARD)


def test_four_corners_fit_exactly_and_are_marked_unchecked(tilted):
    L, W = BOARD.length_mm, BOARD.width_mm
    corners = seen_by(tilted, np.array([[0, 0], [L, 0], [L, W], [0, W]], float))
    cal = calibrate_from_corners(corners, tilted.size, BOARD, settings=as_assumed(tilted))
    assert cal.quality.verdict == "unchecked" and "4 points fit any camera exactly" in cal.quality.reason
    assert np.linalg.norm(cal.camera.center_mm - tilted.center_mm) < 1.0


def test_corners_going_round_either_way_give_the_same_camera(tilted):
    L, W = BOARD.length_mm, BOARD.width_mm
    corners = seen_by(tilted, np.array([[0, 0], [L, 0], [L, W], [0, W]], float))
    # clockwise on screen: a person who named the picture's top-left corner (0,0), y running down
    mirrored = corners[::-1]
    cal = calibrate_from_corners(mirrored, tilted.size, BOARD, settings=as_assumed(tilted))
    assert np.linalg.norm(cal.camera.center_mm - tilted.center_mm) < 1.0
    assert any("clockwise on screen" in w and f"(0,{W:g})" in w for w in cal.warnings)
    assert not any("clockwise" in w for w in calibrate_from_corners(corners, tilted.size, BOARD).warnings)


def test_corners_starting_along_the_width_are_refused(tilted):
    L, W = BOARD.length_mm, BOARD.width_mm
    corners = seen_by(tilted, np.array([[0, 0], [L, 0], [L, W], [0, W]], float))
    with pytest.raises(CalibrationError, match="go first along the length"):
        calibrate_from_corners(corners[[0, 3, 2, 1]], tilted.size, BOARD)


def test_the_readme_corners_example_is_accepted_either_way_round():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    text = re.search(r'--corners "([^"]+)" --pitch-mm (\S+) (\S+)', readme)
    board = replace(BOARD, length_mm=float(text.group(2)), width_mm=float(text.group(3)))
    px = parse_corners(text.group(1))
    for order in (px, px[::-1]):
        cal = calibrate_from_corners(order, (1920, 1080), board)
        assert cal.camera.center_mm[2] > 0


def test_too_few_or_collinear_points_are_refused(tilted):
    with pytest.raises(CalibrationError, match="at least 4 points"):
        fit_pitch(np.zeros((3, 2)), np.zeros((3, 2)), tilted.size, MS)
    line = np.column_stack([np.linspace(0, 900, 6), np.full(6, 320.0)])
    with pytest.raises(CalibrationError, match="on one line"):
        fit_pitch(seen_by(tilted, line), line, tilted.size, MS)


def test_a_camera_looking_straight_down_assumes_its_height_and_says_so():
    R = np.diag([1.0, -1.0, -1.0])
    cam = CameraModel(1920, 1080, 1100.0, 1100.0, 960.0, 540.0, rvec=tuple(cv2.Rodrigues(R)[0].ravel()),
                      tvec=tuple(-R @ np.array([480.0, 320.0, 800.0])))
    mm = grid_points()
    fit = fit_pitch(seen_by(cam, mm), mm, cam.size, MS)
    assert fit.focal_source == "prior"
    assert any("straight down" in w and "800 mm above the board" in w and "calibrate-lens" in w for w in fit.warnings)
    assert fit.quality.rms_mm < 1e-3  # the board plane itself is still exact
    assert fit.camera.fx == pytest.approx(1100.0, rel=1e-6)  # it is 800 mm up: the assumption holds
    higher = fit_pitch(seen_by(cam, mm), mm, cam.size, MS, settings=PitchSettings(camera_height_mm=1000.0))
    assert higher.camera.fx == pytest.approx(1100.0 * 1000 / 800, rel=1e-6)
    assert higher.camera.center_mm[2] == pytest.approx(1000.0, rel=1e-3)


def test_a_lens_calibration_fixes_intrinsics_and_undistorts():
    cam = random_camera(np.random.default_rng(12), BOARD, MarkerSet(), distortion=0.2)
    lens = LensCalibration(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.dist)
    mm = grid_points()
    fit = fit_pitch(seen_by(cam, mm), mm, cam.size, MS, lens)
    assert fit.focal_source == "lens" and fit.quality.rms_mm < 1e-3
    assert np.linalg.norm(fit.camera.center_mm - cam.center_mm) < 0.1
    with pytest.raises(CalibrationError, match="made for 1920x1080 frames but these are 1280x720"):
        fit_pitch(seen_by(cam, mm), mm, (1280, 720), MS, lens)


def test_a_saved_calibration_reads_back_and_refuses_other_frames_and_boards(tmp_path, tilted):
    mm = grid_points()
    cal = calibrate_from_points(seen_by(tilted, mm, 0.2, seed=6), mm, tilted.size, BOARD)
    path = tmp_path / "cal.json"
    cal.save(path)
    obj = json.loads(path.read_text())
    assert {"camera", "resolution", "board", "created", "matrices", "quality"} <= set(obj)
    back = Calibration.load(path)
    assert back.camera == cal.camera and back.quality.verdict == cal.quality.verdict
    assert back.quality.rms_mm == pytest.approx(cal.quality.rms_mm, abs=1e-3)
    assert cal.height_sd_mm > 0 and back.height_sd_mm == pytest.approx(cal.height_sd_mm, abs=0.05)
    assert np.allclose(back.plane_homography / back.plane_homography[2, 2], cal.plane_homography / cal.plane_homography[2, 2])
    back.check_frame(tilted.size)
    with pytest.raises(CalibrationError, match="made for 1920x1080 frames but the camera gives 1280x720"):
        back.check_frame((1280, 720), "cal.json")
    with pytest.raises(CalibrationError, match="made for the board 'Fublet standard board'"):
        back.check_board(replace(BOARD, name="another board"))
    with pytest.raises(CalibrationError, match="960 x 640"):
        back.check_board(BOARD, (1000.0, 700.0))
    path.write_text('{"format": "something else"}')
    with pytest.raises(CalibrationError, match="not a Touchline pitch calibration"):
        Calibration.load(path)
    with pytest.raises(CalibrationError, match="no such calibration file"):
        Calibration.load(tmp_path / "missing.json")


def test_lens_calibration_from_rendered_charuco_views(tmp_path):
    cam = random_camera(np.random.default_rng(13), BOARD, MarkerSet(), size=(960, 540), distortion=0.15)
    spec = CharucoSpec()
    rng = np.random.default_rng(14)
    views = [v for v in (find_charuco(spec, cv2.cvtColor(render_charuco(cam, spec, rng), cv2.COLOR_BGR2GRAY))
                         for _ in range(9)) if v is not None]
    lens = calibrate_lens(views, cam.size, "test cam")
    assert lens.fx == pytest.approx(cam.fx, rel=0.01) and lens.cx == pytest.approx(cam.cx, abs=3.0)
    assert lens.dist[0] == pytest.approx(cam.dist[0], abs=0.02)
    lens.save(tmp_path / "lens.json")
    assert LensCalibration.load(tmp_path / "lens.json") == lens
    with pytest.raises(CalibrationError, match="at least 6"):
        calibrate_lens(views[:3], cam.size)


def test_the_corner_monitor_needs_a_lasting_shift():
    mon = CornerMonitor({40: (10.0, 10.0), 41: (900.0, 10.0), 42: (900.0, 500.0)}, MonitorSettings(confirm_s=0.3))
    assert mon.update({40: (11.0, 10.5), 41: (901.0, 10.0)}, 0.0) == "ok"
    assert mon.update({40: (20.0, 10.0), 41: (910.0, 10.0), 42: (910.0, 500.0)}, 0.1) == "ok"  # not yet
    assert mon.update({40: (20.0, 10.0), 41: (910.0, 10.0), 42: (910.0, 500.0)}, 0.45) == "moved"
    assert mon.moved_markers == (40, 41, 42) and mon.shift_px == pytest.approx(10.0)
    assert mon.update({40: (10.0, 10.0)}, 1.0) == "moved"  # sticks until recalibrated
    mon.reset({40: (20.0, 10.0)})
    assert mon.update({}, 2.0) == "ok" and mon.update({}, 4.5) == "hidden"
