"""A camera's focal length, principal point and height without a lens calibration: the family of
cameras one view of the board allows, the priors, and the caps standing in their squares."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.corners import calibrate_from_frame
from calibration.intrinsics import Priors, StandingCaps, estimate_intrinsics, view_family
from calibration.pitch import focal_from_homography
from companion.fublet.components import load_board
from vision.config import MarkerSet
from vision.synth import Scene, random_camera, random_figures, render

BOARD = load_board()
MARKERS = MarkerSet()
L, W = BOARD.length_mm, BOARD.width_mm
CORNERS_MM = np.concatenate([c[:, :2] for c in MARKERS.corners.corners_mm(L, W).values()])


def cameras(n: int, seed: int, tilt: tuple[float, float]) -> list[CameraModel]:
    """Webcams 60-100 cm up, principal point up to 1.5 % off the centre, no distortion."""
    rng = np.random.default_rng(seed)
    return [random_camera(rng, BOARD, MARKERS, distortion=0.0, min_tilt_deg=tilt[0], max_tilt_deg=tilt[1])
            for _ in range(n)]


def homography(cam: CameraModel, noise_px: float, rng: np.random.Generator) -> np.ndarray:
    px = cam.project(np.column_stack([CORNERS_MM, np.zeros(len(CORNERS_MM))]))
    return cv2.findHomography(CORNERS_MM, px + rng.normal(0, noise_px, px.shape), 0)[0]


def caps_of(cam: CameraModel, height_mm: float, rng: np.random.Generator) -> StandingCaps:
    """The caps of a random line-up (figures within 4 mm of their squares' centres) as seen."""
    figs = [f for f in random_figures(rng, BOARD, MARKERS) if not f.ball and BOARD.on_pitch(f.x_mm, f.y_mm)]
    px = cam.project(np.array([[f.x_mm, f.y_mm, height_mm] for f in figs]))
    return StandingCaps(px + rng.normal(0, 0.2, px.shape), height_mm, BOARD.ms_size_mm, (L, W))


def test_the_true_camera_is_one_of_the_family_the_view_allows():
    for cam in cameras(6, seed=1, tilt=(5.0, 40.0)):
        p, n = view_family(cam.plane_homography(0.0), cam.size)
        # the true camera's image of the absolute conic, centred and in units of the width
        a, b = (cam.width / 2 - cam.cx) / cam.width, (cam.height / 2 - cam.cy) / cam.width
        x = np.array([a, b, a * a + b * b + (cam.fx / cam.width) ** 2])
        off = (x - p) - ((x - p) @ n) * n
        assert np.linalg.norm(off) < 1e-9


def test_a_view_straight_down_allows_any_camera():
    R = np.diag([1.0, -1.0, -1.0])
    cam = CameraModel(1920, 1080, 1400, 1400, 960, 540, rvec=tuple(cv2.Rodrigues(R)[0].ravel()),
                      tvec=tuple(-R @ np.array([480.0, 320.0, 800.0])))
    assert view_family(cam.plane_homography(0.0), cam.size) is None
    est = estimate_intrinsics(cam.plane_homography(0.0), CORNERS_MM, cam.size)
    assert est.view_share < 0.1 and est.height_mm == pytest.approx(800.0, abs=5.0)  # the prior, nothing else
    measured = estimate_intrinsics(cam.plane_homography(0.0), CORNERS_MM, cam.size, Priors(height_mm=950.0))
    assert measured.height_mm == pytest.approx(950.0, abs=5.0)


def test_near_vertical_the_estimate_beats_a_principal_point_taken_at_the_centre():
    rng = np.random.default_rng(3)
    ours, centred = [], []
    for cam in cameras(30, seed=2, tilt=(8.0, 13.0)):
        H = homography(cam, 0.15, rng)
        ours.append(abs(estimate_intrinsics(H, CORNERS_MM, cam.size).f / cam.fx - 1))
        centred.append(abs(focal_from_homography(H, cam.width / 2, cam.height / 2) / cam.fx - 1))
    # seeded: 3.5 % against 6.3 % (median), 17 % against 19 % (worst)
    assert np.median(ours) < 0.05 and np.median(ours) < 0.75 * np.median(centred)
    assert max(ours) < 0.22


@pytest.mark.parametrize("cap_mm, median, worst", [(50.0, 0.025, 0.07), (25.0, 0.035, 0.11)])
def test_caps_standing_in_their_squares_show_the_cameras_height(cap_mm, median, worst):
    rng = np.random.default_rng(4)
    errors = []
    for cam in cameras(20, seed=5, tilt=(0.0, 13.0)):
        est = estimate_intrinsics(homography(cam, 0.15, rng), CORNERS_MM, cam.size, caps=caps_of(cam, cap_mm, rng))
        assert est.caps >= 20
        errors.append(abs(est.height_mm / cam.center_mm[2] - 1))
    # seeded, 50 mm caps: 1.0 % median, 4.6 % worst (the view alone: 8 % median near-vertical)
    assert np.median(errors) < median and max(errors) < worst


def test_caps_set_down_anyhow_do_not_pull_the_height_away():
    rng = np.random.default_rng(6)
    cam = cameras(1, seed=7, tilt=(9.0, 9.0))[0]
    H = homography(cam, 0.15, rng)
    tidy = caps_of(cam, 50.0, rng)
    anyhow = replace(tidy, centres_px=tidy.centres_px + rng.uniform(-25, 25, tidy.centres_px.shape))
    alone = estimate_intrinsics(H, CORNERS_MM, cam.size)
    scattered = estimate_intrinsics(H, CORNERS_MM, cam.size, caps=anyhow)
    # caps off their squares' centres by up to a square are no evidence: about what the view alone says
    assert abs(scattered.height_mm - alone.height_mm) < 0.1 * cam.center_mm[2]


def test_a_frame_with_the_figures_calibrates_a_near_vertical_camera_without_a_lens():
    rng = np.random.default_rng(8)
    markers = MarkerSet(cap_height_mm=50.0)
    cam = random_camera(rng, BOARD, markers, distortion=0.0, min_tilt_deg=10.0, max_tilt_deg=13.0)
    scene = Scene(cam, BOARD, markers, random_figures(rng, BOARD, markers))
    empty = calibrate_from_frame(render(replace(scene, figures=()))[0], BOARD, markers)
    full = calibrate_from_frame(render(scene)[0], BOARD, markers)
    assert full.focal_source == "caps"
    assert abs(full.camera.center_mm[2] - cam.center_mm[2]) < 0.04 * cam.center_mm[2]
    assert abs(full.camera.center_mm[2] - cam.center_mm[2]) < abs(empty.camera.center_mm[2] - cam.center_mm[2])
    assert any("mm above the board (between" in w and "--camera-height-mm" in w for w in empty.warnings)
