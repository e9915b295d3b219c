"""Foreign patterns are never our markers (issue 31 item 2): real photographs of 6x6 markers and
ChArUco boards (tests/data/photos, OpenCV's tutorial photographs), scaled and blurred, searched
by every search the camera code has; and rendered tables with clutter lying on and around the
pitch (6x6 markers, pieces of 5x5 and 6x6 ChArUco boards, dice faces, pictograms)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.corners import calibrate_from_frame
from companion.fublet.components import load_board
from vision.config import MarkerSet
from vision.detect import DetectorSettings, detect, to_gray
from vision.locate import SIZE_FREE_SEARCH, VisionSetup, read_frame
from vision.refine import larger_grid
from vision.synth import Scene, clutter, random_camera, random_figures, random_look, render

PHOTOS = Path(__file__).parent / "data" / "photos"
FOREIGN = ["board.jpg", "choriginal.jpg", "gboriginal.jpg"]


def searches(shape: tuple[int, int]) -> list[DetectorSettings]:
    """The frame search sized for markers of 12-40 px, calibration's corner search (both
    windows) and the search at any size."""
    biggest = max(140.0, max(shape) / 5)
    return ([DetectorSettings.for_marker_px(px) for px in (12, 16, 20, 24, 30, 40)]
            + [DetectorSettings(window_px=w, window_max_px=w, max_side_px=biggest) for w in (15, 5)]
            + [SIZE_FREE_SEARCH])


def views(name: str):
    g = to_gray(cv2.imread(str(PHOTOS / name)))
    assert g is not None and g.size > 0
    for scale in (1.0, 0.8, 0.6, 0.45, 0.35, 0.25):
        small = g if scale == 1.0 else cv2.resize(g, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        for blur in (0.0, 1.0):
            yield scale, blur, (cv2.GaussianBlur(small, (0, 0), blur) if blur else small)


@pytest.mark.parametrize("name", FOREIGN)
def test_larger_grids_in_photographs_never_read_as_our_markers(name):
    found = []
    for scale, blur, g in views(name):
        for s in searches(g.shape):
            found += [(scale, blur, s.window_px, d.marker, round(d.side_px)) for d in detect(s, g)]
    # before the grid check: board.jpg read id 32 (the ball's) 18 times, choriginal.jpg id 32,
    # gboriginal id 48
    assert found == []


def test_the_larger_grid_check_refuses_what_it_refuses_for_its_grid():
    """Without the check the same searches read the photographs' 6x6 markers as ours: the check,
    not luck, keeps them out (it fails if larger_grid refuses nothing)."""
    g = cv2.GaussianBlur(to_gray(cv2.imread(str(PHOTOS / "board.jpg"))), (0, 0), 1.0)
    g = cv2.resize(g, None, fx=0.8, fy=0.8, interpolation=cv2.INTER_AREA)
    d = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_6X6_250))
    corners, ids, _ = d.detectMarkers(g)
    assert ids is not None and len(ids) >= 20
    quads = np.array(corners, float).reshape(-1, 4, 2)
    assert larger_grid(g, quads).all()  # every 6x6 marker of the board is a larger grid
    # and a genuine 4x4 marker of ours, photographed, is not
    real = to_gray(cv2.imread(str(PHOTOS / "screen_charuco.jpg")))
    c4, i4, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(real)
    assert i4 is not None and len(i4) >= 15
    assert not larger_grid(real, np.array(c4, float).reshape(-1, 4, 2)).any()


def test_genuine_4x4_markers_in_a_photograph_still_read():
    g = to_gray(cv2.imread(str(PHOTOS / "screen_charuco.jpg")))
    got = {d.marker for d in detect(SIZE_FREE_SEARCH, g)}
    assert len(got) >= 17  # OpenCV's default detector reads 17 of them


def test_a_pictogram_beside_the_table_is_no_cap_for_calibration():
    """A box's pictogram reads as id 17 (OpenCV's default detector reads it too): it has a
    marker's quiet zone and grid. Calibration counts only caps the corner markers put on the
    table, so it measures no size from it and takes it for no standing figure."""
    board = load_board()
    rng = np.random.default_rng(5)
    ms = MarkerSet()
    cam = random_camera(rng, board, ms, distortion=0.0, max_tilt_deg=10.0)
    empty, _ = render(Scene(cam, board, ms, (), (), random_look(rng, 0.3)))
    photo = cv2.imread(str(PHOTOS / "singlemarkersoriginal.jpg"))
    box = photo[50:105, 350:410]  # the pictogram read as id 17, with its cardboard around it
    assert 17 in {d.marker for d in detect(DetectorSettings.for_marker_px(30), to_gray(photo))}
    frame = empty.copy()
    frame[10:10 + box.shape[0], 10:10 + box.shape[1]] = box
    # calibration's own corner search reads it in the frame: only where it lies keeps it out
    corner_search = DetectorSettings(window_px=15, window_max_px=15, max_side_px=max(140.0, max(frame.shape) / 5))
    assert 17 in {d.marker for d in detect(corner_search, to_gray(frame))}
    cal = calibrate_from_frame(frame, board, ms)
    assert cal.marker_sizes == {}


@pytest.mark.parametrize("seed", [41, 42, 43])
def test_clutter_on_and_around_the_pitch_gives_no_false_figure(seed):
    board = load_board()
    rng = np.random.default_rng(seed)
    ms = MarkerSet()
    cam = random_camera(rng, board, ms, distortion=0.0, max_tilt_deg=25.0)
    figures = random_figures(rng, board, ms)
    scene = Scene(cam, board, ms, figures, (), random_look(rng, 0.5), clutter(rng, board, 10))
    image, truth = render(scene)
    cal = calibrate_from_frame(render(replace(scene, figures=()))[0], board, ms)
    gray = to_gray(image)
    for source in ("given", "assumed"):  # with the size given, and measured on the frame
        result = read_frame(VisionSetup.from_calibration(cal, board, markers=ms, size_source=source), gray)
        for s in list(result.figures) + ([result.ball] if result.ball else []):
            t = truth[s.marker]
            assert not t.hidden and np.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm) <= 10.0, (source, s)
        visible = {m for m, t in truth.items() if t.seen and m in ms.figure_ids}
        assert len(visible & {s.marker for s in result.figures}) >= 0.95 * len(visible)
    for s in searches(gray.shape):  # and nothing on the whole frame reads as one of ours but ours
        for d in detect(s, gray):
            assert d.marker in truth and np.linalg.norm(d.center - truth[d.marker].corners_px.mean(axis=0)) < 5
