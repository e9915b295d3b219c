"""Camera geometry: round trips and comparisons against independent formulas (seeded, explicit
tolerances)."""

from __future__ import annotations


import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.errors import CalibrationError
from calibration.layout import CornerLayout, facing_of, marker_corners_mm
from calibration.pitch import focal_from_homography, pose_from_homography
from companion.fublet.components import load_board
from vision.config import MarkerSet
from vision.synth import random_camera

BOARD = load_board()
MARKERS = MarkerSet()


def cameras(n: int, seed: int, distortion: float = 0.0, max_tilt: float = 25.0) -> list[CameraModel]:
    rng = np.random.default_rng(seed)
    return [random_camera(rng, BOARD, MARKERS, distortion=distortion, max_tilt_deg=max_tilt,
                          yaw_deg=float(rng.uniform(0, 360)) if i % 2 else None) for i in range(n)]


def board_points(rng: np.random.Generator, n: int, z: float | np.ndarray = 0.0) -> np.ndarray:
    xy = np.column_stack([rng.uniform(-50, 1010, n), rng.uniform(-80, 700, n)])
    return np.column_stack([xy, np.broadcast_to(z, (n,))])


@pytest.mark.parametrize("distortion", [0.0, 0.15])
def test_project_then_cast_onto_the_plane_returns_the_point(distortion):
    rng = np.random.default_rng(1)
    for cam in cameras(12, seed=2, distortion=distortion):
        z = rng.uniform(0, 60, 200)
        pts = board_points(rng, 200, z)
        back = cam.to_plane(cam.project(pts), z)
        assert np.abs(back - pts[:, :2]).max() < 1e-3  # mm


def test_casting_agrees_with_the_plane_homography_at_that_height():
    """Independent formula: the board plane at height z maps to pixels by K [r1 r2 z*r3 + t]."""
    rng = np.random.default_rng(3)
    for cam in cameras(10, seed=4):
        for z in (0.0, 35.0, 80.0):
            px = np.column_stack([rng.uniform(0, cam.width, 50), rng.uniform(0, cam.height, 50)])
            Hinv = np.linalg.inv(cam.plane_homography(z))
            h = Hinv @ np.column_stack([px, np.ones(50)]).T
            expected = (h[:2] / h[2]).T
            assert np.abs(cam.to_plane(px, z) - expected).max() < 1e-6


def test_a_camera_straight_down_shifts_caps_by_similar_triangles():
    """Straight down from height H over (X, Y): a point seen at board-plane distance d from the
    nadir lies at d * (H - z) / H when it is z above the board."""
    H, X, Y, f = 800.0, 480.0, 320.0, 1400.0
    R = np.diag([1.0, -1.0, -1.0])  # camera x = board x, camera y = -board y, looking down
    t = -R @ np.array([X, Y, H])
    import cv2
    cam = CameraModel(1920, 1080, f, f, 960, 540, rvec=tuple(cv2.Rodrigues(R)[0].ravel()), tvec=tuple(t))
    assert cam.tilt_deg == pytest.approx(0.0, abs=1e-9)
    rng = np.random.default_rng(5)
    px = np.column_stack([rng.uniform(0, 1920, 100), rng.uniform(0, 1080, 100)])
    on_board = cam.to_plane(px, 0.0)
    for z in (20.0, 35.0):
        expected = np.array([X, Y]) + (on_board - [X, Y]) * (H - z) / H
        assert np.abs(cam.to_plane(px, z) - expected).max() < 1e-6


def test_parallax_is_tens_of_millimetres_at_the_pitch_edge():
    """Why the caps' height matters: read on the board plane, a 35 mm cap near a corner is far off."""
    errors = []
    for cam in cameras(8, seed=6):
        cap = np.array([[20.0, 20.0, 35.0], [940.0, 620.0, 35.0], [20.0, 620.0, 35.0], [940.0, 20.0, 35.0]])
        flat = cam.to_plane(cam.project(cap), 0.0)
        errors.append(np.linalg.norm(flat - cap[:, :2], axis=1).max())
    assert min(errors) > 10.0


def test_undistortion_inverts_the_lens_model():
    rng = np.random.default_rng(7)
    for cam in cameras(6, seed=8, distortion=0.2):
        pts = board_points(rng, 300)
        px = cam.project(pts)
        ideal = cam.without_distortion().project(pts)
        assert np.abs(cam.undistort_pixels(px) - ideal).max() < 1e-3  # px


def test_marker_corners_follow_aruco_order_and_facing():
    c = marker_corners_mm(100.0, 50.0, 20.0, 90.0, 35.0)
    # facing +y, seen from the y = 0 side: top-left is at low x, high y
    assert c[:, :2].tolist() == [[90.0, 60.0], [110.0, 60.0], [110.0, 40.0], [90.0, 40.0]]
    assert (c[:, 2] == 35.0).all()
    for facing in np.linspace(0, 359, 37):
        assert facing_of(marker_corners_mm(3.0, 4.0, 17.0, facing)[:, :2]) == pytest.approx(facing % 360, abs=1e-9)


def test_corner_layout_puts_markers_outside_the_pitch():
    layout = CornerLayout()
    centres = layout.centres_mm(960.0, 640.0)
    assert centres == {40: (-40.0, -40.0), 41: (1000.0, -40.0), 42: (1000.0, 680.0), 43: (-40.0, 680.0)}
    for corners in layout.corners_mm(960.0, 640.0).values():
        xy = corners[:, :2]
        assert not any(BOARD.on_pitch(x, y) for x, y in xy)
    assert len(layout.describe(960.0, 640.0)) == 4
    with pytest.raises(ValueError):
        CornerLayout(ids=(40, 40, 41, 42))


def test_focal_length_and_pose_come_back_from_the_homography():
    for cam in cameras(10, seed=9, max_tilt=25.0):
        if cam.tilt_deg < 8:
            continue
        cam = CameraModel(cam.width, cam.height, cam.fx, cam.fx, cam.width / 2, cam.height / 2,
                          rvec=cam.rvec, tvec=cam.tvec)
        H = cam.plane_homography(0.0) * 3.7  # any scale
        f = focal_from_homography(H, cam.cx, cam.cy)
        assert f == pytest.approx(cam.fx, rel=1e-6)
        R, t = pose_from_homography(H, cam.K)
        assert np.abs(R - cam.R).max() < 1e-6
        assert np.abs(t - cam.t).max() < 1e-3


def test_a_camera_straight_down_shows_no_focal_length():
    import cv2
    R = np.diag([1.0, -1.0, -1.0])
    cam = CameraModel(1920, 1080, 1400, 1400, 960, 540, rvec=tuple(cv2.Rodrigues(R)[0].ravel()),
                      tvec=tuple(-R @ np.array([480.0, 320.0, 800.0])))
    f = focal_from_homography(cam.plane_homography(0.0), 960, 540)
    assert f is None or f > 1e5


def test_mirrored_points_are_refused():
    cam = cameras(1, seed=10)[0]
    mirror = np.diag([1.0, -1.0, 1.0])  # board y flipped: no camera sees that
    with pytest.raises(CalibrationError, match="mirrored"):
        pose_from_homography(cam.plane_homography(0.0) @ mirror, cam.K)
