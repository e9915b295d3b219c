"""The camera commands on rendered frames: ``touchline vision locate``, ``vision watch``,
``markers`` and ``calibrate-lens``, including their refusals (one stderr line, status 2)."""

from __future__ import annotations

import json
import struct
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.corners import calibrate_from_frame
from calibration.lens import CharucoSpec
from companion.cli import main
from companion.fublet.components import load_board
from vision.config import MarkerSet
from vision.scenario import Idle, Move, frames as scene_frames
from vision.synth import compact_board, random_camera, random_scene, render, render_charuco

SCENE_BOARD = compact_board()
CLI_BOARD = replace(load_board(), length_mm=320.0, width_mm=240.0)  # what --pitch-mm 320 240 reads with
PITCH = ["--pitch-mm", "320", "240"]


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, *fragments: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Two frames of seeded scenes (no lens distortion: the CLI is given no lens calibration)."""
    folder = tmp_path_factory.mktemp("shots")
    out = []
    for seed in (31, 32):
        scene = random_scene(seed, SCENE_BOARD, MarkerSet(), size=(640, 480), hand=False, distortion=0.0,
                             look_strength=0.6, min_tilt_deg=10.0)
        image, truth = render(scene)
        path = folder / f"frame{seed}.png"
        cv2.imwrite(str(path), image)
        out.append((path, scene, truth))
    return out


def check_positions(line: dict, truth: dict, tol_mm: float) -> None:
    assert set(line) == {"image", "figures", "conflicts", "warnings"}
    assert line["conflicts"] == []
    listed = {f["marker"]: f for f in line["figures"]}
    for marker, t in truth.items():
        if t.seen and marker not in MarkerSet().corners.ids:
            f = listed[marker]
            assert np.hypot(f["x_mm"] - t.x_mm, f["y_mm"] - t.y_mm) < tol_mm
            # the JSON rounds to 0.1 mm: the square is the board's for a point within 0.05 mm of it
            near = [CLI_BOARD.mm_to_ms(f["x_mm"] + dx, f["y_mm"] + dy) for dx in (-0.05, 0.05) for dy in (-0.05, 0.05)]
            assert f["square"] in [None if ms is None else {"ms": list(ms), "ps": list(CLI_BOARD.ms_to_ps(ms))}
                                   for ms in near]
    ball = [f for f in line["figures"] if f.get("ball")]
    assert len(ball) == 1 and ball[0]["marker"] == 32 and "player" not in ball[0]
    assert all(f["player"].startswith(("home#", "away#")) for f in line["figures"] if not f.get("ball"))


def test_locate_calibrates_each_image_from_its_corner_markers(capsys, shots, tmp_path):
    # --thorough: frame 31 has two 15 px caps side by side that one threshold window reads as one blob
    code, out, err = run(capsys, "vision", "locate", *[p for p, _, _ in shots], *PITCH, "--debug-out", tmp_path,
                         "--thorough")
    assert code == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert [line["image"] for line in lines] == [str(p) for p, _, _ in shots]
    for line, (_, _, truth) in zip(lines, shots):
        check_positions(line, truth, tol_mm=4.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame31.overlay.png", "frame31.plane.png",
                                                         "frame31.rescue.png", "frame32.overlay.png",
                                                         "frame32.plane.png", "frame32.rescue.png"]


def test_locate_fast_leaves_the_second_look_out(capsys, shots, monkeypatch, tmp_path):
    import vision.locate

    path, _, truth = shots[1]
    code, out, err = run(capsys, "vision", "locate", path, *PITCH)
    assert code == 0, err
    full = {f["marker"] for f in json.loads(out)["figures"]}

    def no_rescue(*args, **kw):
        raise AssertionError("--fast ran the rescue stage")

    monkeypatch.setattr(vision.locate, "rescue", no_rescue)
    code, out, err = run(capsys, "vision", "locate", path, *PITCH, "--fast", "--debug-out", tmp_path)
    assert code == 0, err
    fast = {f["marker"] for f in json.loads(out)["figures"]}
    assert fast <= full and len(fast) >= 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame32.overlay.png", "frame32.plane.png"]


def test_locate_with_the_pitch_corners_given_in_pixels(capsys, shots):
    path, scene, truth = shots[0]
    corners = scene.camera.project(np.array([[0, 0, 0], [320, 0, 0], [320, 240, 0], [0, 240, 0]], float))
    text = " ".join(f"{x:.2f},{y:.2f}" for x, y in corners)
    code, out, err = run(capsys, "vision", "locate", path, "--corners", text, *PITCH, "--thorough")
    assert code == 0, err
    line = json.loads(out)
    check_positions(line, truth, tol_mm=5.0)
    code, out, err = run(capsys, "vision", "locate", path, "--corners", text, *PITCH)  # the plane only: quicker
    found = {f["marker"] for f in json.loads(out)["figures"]}
    # the two 15 px caps side by side that one window on the frame read as one blob are two on the plane
    assert {28, 20} <= found <= {f["marker"] for f in line["figures"]}


def test_locate_with_a_saved_calibration_refuses_other_resolutions(capsys, shots, tmp_path):
    path, scene, truth = shots[1]
    cal = calibrate_from_frame(cv2.imread(str(path)), CLI_BOARD, MarkerSet())
    cal.save(tmp_path / "cal.json")
    code, out, err = run(capsys, "vision", "locate", path, "--calibration", tmp_path / "cal.json", *PITCH)
    assert code == 0, err
    check_positions(json.loads(out), truth, tol_mm=4.0)
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(cv2.imread(str(path)), (320, 240)))
    code, out, err = run(capsys, "vision", "locate", small, "--calibration", tmp_path / "cal.json", *PITCH)
    assert code == 2 and out == ""
    one_error_line(err, "cal.json was made for 640x480 frames but the camera gives 320x240")
    code, _, err = run(capsys, "vision", "locate", path, "--calibration", tmp_path / "cal.json")
    assert code == 2
    one_error_line(err, "was made for the board", "320 x 240 mm")


def test_locate_names_an_unreadable_image_and_goes_on_with_the_others(capsys, shots, tmp_path):
    bad = tmp_path / "broken.png"
    bad.write_text("not an image")
    code, out, err = run(capsys, "vision", "locate", bad, shots[0][0], tmp_path / "missing.jpg", *PITCH)
    assert code == 2
    assert len(out.splitlines()) == 1 and json.loads(out)["image"] == str(shots[0][0])
    lines = err.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in err
    assert f"{bad}: cannot be read as an image" in lines[0]
    assert "missing.jpg: no such image file" in lines[1]


def test_locate_says_which_corner_markers_it_cannot_find(capsys, shots, tmp_path):
    image = cv2.imread(str(shots[0][0]))
    truth = shots[0][2]
    for marker in (40, 42):  # paint over two corner markers
        c = truth[marker].corners_px
        x0, y0 = np.floor(c.min(axis=0)).astype(int) - 6
        x1, y1 = np.ceil(c.max(axis=0)).astype(int) + 6
        image[y0:y1, x0:x1] = (120, 120, 120)
    path = tmp_path / "covered.png"
    cv2.imwrite(str(path), image)
    code, out, err = run(capsys, "vision", "locate", path, *PITCH)
    assert code == 2
    one_error_line(err, "corner markers 40 (by pitch corner (0,0)), 42 (by pitch corner (320,240)) not found")


@pytest.mark.parametrize("argv, fragment", [
    (["--corners", "1,2 3,4 5,6"], "--corners needs four pixel points"),
    (["--pitch-mm", "0", "240"], "--pitch-mm needs a positive length"),
    (["--marker-height-mm", "-3"], "--marker-height-mm must be 0..500"),
])
def test_locate_refuses_bad_options_in_one_line(capsys, shots, argv, fragment):
    code, out, err = run(capsys, "vision", "locate", shots[0][0], *argv)
    assert code == 2 and out == ""
    one_error_line(err, fragment)


@pytest.mark.parametrize("argv, fragment", [
    (["--frames", "0"], "--frames must be 1 or more"),
    (["--frames", "-1"], "--frames must be 1 or more"),
    (["--seconds", "-1"], "--seconds must be more than 0"),
    (["--seconds", "nan"], "--seconds must be more than 0"),
    (["--settle-ms", "-5"], "--settle-ms must be 0..10000"),
    (["--resolution", "0x0"], "--resolution must be 160x120 to 8192x8192"),
    (["--resolution", "wide"], "--resolution needs WIDTHxHEIGHT"),
])
def test_watch_refuses_edge_limits_in_one_line_before_the_camera_opens(capsys, argv, fragment):
    code, out, err = run(capsys, "vision", "watch", "--source", "synthetic", *argv)
    assert code == 2 and out == ""
    one_error_line(err, fragment)


def test_watch_a_folder_of_frames_prints_calibration_and_committed_moves(capsys, tmp_path):
    scene = random_scene(33, SCENE_BOARD, MarkerSet(), size=(640, 480), hand=False, distortion=0.0,
                         look_strength=0.5, figures=6)
    mover = next(f for f in scene.figures if not f.ball and SCENE_BOARD.on_pitch(f.x_mm, f.y_mm))
    taken = {SCENE_BOARD.mm_to_ms(f.x_mm, f.y_mm) for f in scene.figures}
    dest = next(sq for sq in ((2, 2), (13, 9), (2, 9), (13, 2)) if sq not in taken)
    x, y = SCENE_BOARD.ms_center_mm(dest)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, (sc, _, _) in enumerate(scene_frames(scene, [Idle(8), Move(mover.marker, x, y, 0.0), Idle(10)])):
        cv2.imwrite(str(folder / f"{i:04d}.png"), render(sc)[0])
    code, out, err = run(capsys, "vision", "watch", "--source", folder, *PITCH, "--debug-out", tmp_path / "dbg")
    assert code == 0, err
    events = [json.loads(x) for x in out.splitlines()]
    assert events[0]["type"] == "calibrated"
    figures = [e for e in events if e["type"] == "figure"]
    last = [e for e in figures if e["marker"] == mover.marker][-1]
    assert np.hypot(last["x_mm"] - x, last["y_mm"] - y) < 5.0
    assert all(e["type"] in ("calibrated", "figure", "ball", "health") for e in events)
    assert len(list((tmp_path / "dbg").iterdir())) == 37


def test_watch_without_a_camera_reports_lost_and_keeps_trying(capsys):
    code, out, err = run(capsys, "vision", "watch", "--source", "/dev/video99", "--seconds", "0.3")
    assert code == 0
    events = [json.loads(x) for x in out.splitlines()]
    assert events and events[0]["type"] == "health" and events[0]["health"] == "lost"
    assert "camera /dev/video99: no camera there" in events[0]["reason"]
    assert "the match goes on by hand" in events[0]["reason"]


def test_markers_writes_a_true_size_sheet(capsys, tmp_path):
    code, out, err = run(capsys, "markers", "--out", tmp_path, "--dpi", "150")
    assert code == 0, err
    png, pdf = tmp_path / "touchline-markers.png", tmp_path / "touchline-markers.pdf"
    image = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert image.shape == (round(297 * 150 / 25.4), round(210 * 150 / 25.4))
    data = png.read_bytes()
    at = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert unit == 1 and ppm_x == ppm_y == round(150 / 0.0254)
    text = pdf.read_bytes()
    assert text.startswith(b"%PDF-1.4") and text.rstrip().endswith(b"%%EOF")
    box = text[text.index(b"/MediaBox [") + 11:].split(b"]")[0].split()
    assert float(box[2]) == pytest.approx(595.28, abs=0.5) and float(box[3]) == pytest.approx(841.89, abs=0.5)  # A4
    assert float(box[2]) == pytest.approx(image.shape[1] * 72 / 150)  # so the image prints at 150 dpi: true size
    found = {int(m) for m in cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
                                                     ).detectMarkers(image)[1].ravel()}
    assert found == set(range(33)) | {40, 41, 42, 43}
    code, _, err = run(capsys, "markers", "--out", tmp_path)
    assert code == 2
    one_error_line(err, "touchline-markers.png: already exists", "--force")


def test_calibrate_lens_from_a_folder_of_board_views(capsys, tmp_path):
    cam = random_camera(np.random.default_rng(34), load_board(), MarkerSet(), size=(800, 600), distortion=0.12)
    rng = np.random.default_rng(35)
    folder = tmp_path / "views"
    folder.mkdir()
    for i in range(9):
        cv2.imwrite(str(folder / f"{i:02d}.png"), render_charuco(cam, CharucoSpec(), rng))
    code, out, err = run(capsys, "calibrate-lens", "--source", folder, "--out", tmp_path / "lens.json",
                         "--board-sheet", tmp_path / "sheet")
    assert code == 0, err
    lens = json.loads((tmp_path / "lens.json").read_text())
    assert lens["resolution"] == [800, 600] and abs(lens["K"][0][0] - cam.fx) / cam.fx < 0.01
    assert (tmp_path / "sheet" / "touchline-charuco.pdf").exists()
    few = tmp_path / "few"
    few.mkdir()
    for i in range(2):
        cv2.imwrite(str(few / f"{i}.png"), render_charuco(cam, CharucoSpec(), rng))
    code, _, err = run(capsys, "calibrate-lens", "--source", few, "--out", tmp_path / "lens2.json")
    assert code == 2
    one_error_line(err, "found in 2 frames; a lens calibration needs at least 6")


def test_locate_measures_a_table_printed_at_another_size(capsys, tmp_path):
    """Issue 31: caps carrying 11 mm markers, no --marker-mm: the image's own calibration
    measures them and reads at that size; a size given that the image disagrees with is said,
    with the measured size offered (it used to place almost nothing, saying only 'lifted')."""
    eleven = MarkerSet(figure_marker_mm=11.0, cap_mm=14.0, ball_marker_mm=11.0, ball_token_mm=14.0)
    scene = random_scene(64, SCENE_BOARD, eleven, size=(1280, 720), hand=False, distortion=0.0, look_strength=0.5,
                         figures=10)
    image, truth = render(scene)
    path = tmp_path / "eleven.png"
    cv2.imwrite(str(path), image)
    visible = {m for m, t in truth.items() if t.seen and m in eleven.figure_ids}
    code, out, err = run(capsys, "vision", "locate", path, *PITCH)
    assert code == 0, err
    got = {f["marker"] for f in json.loads(out)["figures"] if not f.get("ball")}
    assert len(got & visible) >= 0.9 * len(visible) and got <= visible | {eleven.ball_id}
    code, out, err = run(capsys, "vision", "locate", path, *PITCH, "--marker-mm", "17")
    assert code == 0, err
    assert any("--marker-mm 11" in w for w in json.loads(out)["warnings"]), out
