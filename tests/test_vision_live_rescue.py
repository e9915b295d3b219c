"""The live reader's second look (vision/live_rescue.py): caps in walls of touching caps found by
the swept band, figures read before kept read through blur, the rules' positions as places to
look again; and never a partly covered marker read as another figure, never a lifted figure
committed. Seeded synthetic frames and sequences."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.corners import calibrate_from_frame
from calibration.lens import LensCalibration
from vision.config import MarkerSet
from vision.detect import detect, to_gray
from vision.detect import Detection
from vision.live import LiveReader, LiveSettings
from vision.live_rescue import Place, look_again
from vision.locate import FrameResult, VisionSetup, board_rect
from vision.scenario import Idle, Lift, render_sequence
from vision.sighting import Sighting
from vision.synth import Scene, compact_board, random_camera, random_figures, random_look, random_scene, render
from vision.tracker import Expected, Tracker

BOARD = compact_board()
MARKERS = MarkerSet()
TRUE_PX = 2.0  # a reading this close to the marker's true centre is that marker


def setup_for(scene: Scene, image: np.ndarray) -> VisionSetup:
    cam = scene.camera
    lens = LensCalibration(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.dist)
    return VisionSetup.from_calibration(calibrate_from_frame(image, BOARD, MARKERS, lens), BOARD, markers=MARKERS)


def assert_true_readings(result: FrameResult, truth: dict) -> None:
    """Every figure read is a marker of the frame, read where it is (no false or misread figure)."""
    for f in result.figures:
        assert f.marker in truth, f"marker {f.marker} read, not in the frame"
        err = np.linalg.norm(np.array(f.center_px) - truth[f.marker].corners_px.mean(axis=0))
        assert err <= TRUE_PX, f"marker {f.marker} read {err:.1f} px from where it is"


def read_n(reader: LiveReader, image: np.ndarray, n: int, truth: dict) -> FrameResult:
    for _ in range(n):
        result = reader.read(image)
        assert_true_readings(result, truth)
    return result


# --- walls of touching caps --------------------------------------------------------------------

@pytest.fixture(scope="module")
def wall():
    """Three rows of three caps shoulder to shoulder, 1280 x 720: one of them (marker 6) hides
    an edge of its neighbour's marker, whose outline merges with it (no quad to read)."""
    rng = np.random.default_rng(105)
    cam = random_camera(rng, BOARD, MARKERS, (1280, 720), distortion=0.0)
    figs = random_figures(rng, BOARD, MARKERS, on_pitch=9, walls=3)
    scene = Scene(cam, BOARD, MARKERS, figs, (), random_look(rng, 0.5))
    image, truth = render(scene)
    return image, truth, setup_for(scene, image)


def test_a_cap_in_a_wall_of_touching_caps_is_found_and_committed(wall):
    image, truth, setup = wall
    assert 6 in truth and 6 not in {d.marker for d in detect(setup.detector, to_gray(image), [board_rect(setup)])}
    sweep = 2 * LiveSettings().bands + 2  # every band looked at again once at least (every other frame)
    committed = {}
    for rescue in (False, True):
        # a clock that never runs: no frame is over its time budget, whatever the machine
        reader = LiveReader(setup if rescue else replace(setup, rescue=None), clock=lambda: 0.0)
        tracker = Tracker(BOARD)
        for i in range(sweep):
            result = reader.read(image)
            assert_true_readings(result, truth)
            for e in tracker.update(result, i / 30):
                if isinstance(e, Sighting):
                    committed.setdefault(rescue, {})[e.marker] = e
    assert 6 not in committed[False]
    s = committed[True][6]
    assert math.hypot(s.x_mm - truth[6].x_mm, s.y_mm - truth[6].y_mm) < 2.0
    assert set(committed[False]) <= set(committed[True]) <= set(truth)
    # read in ten frames, then in place (its cap looks as it did): seen, never committed again
    assert tracker.figures()[[f.marker for f in tracker.figures()].index(6)].seen


def looks_recorded(monkeypatch) -> list[list[Place]]:
    """Every call of the second look, by frame: the places it was given."""
    calls: list[list[Place]] = []

    def spy(setup, settings, gray, found, places, *args):
        calls.append(list(places))
        return look_again(setup, settings, gray, found, places, *args)
    monkeypatch.setattr("vision.live.look_again", spy)
    return calls


def test_a_busy_frame_puts_the_band_off_but_the_sweep_goes_on(wall, monkeypatch):
    """Every frame over its time budget (a clock that runs a second a call): the band is looked
    at no oftener than every ``look_defer`` frames instead of every other frame, yet the sweep
    still reaches the wall's cap (a slow machine sweeps more slowly, never not at all)."""
    image, truth, setup = wall
    calls = looks_recorded(monkeypatch)
    ticks = iter(range(10 ** 6))
    settings = LiveSettings()
    reader = LiveReader(setup, settings, clock=lambda: float(next(ticks)))
    seen_at = None
    for i in range(8 * settings.bands + 2):
        result = reader.read(image)
        assert_true_readings(result, truth)
        if seen_at is None and 6 in {f.marker for f in result.figures}:
            seen_at = i
    band_frames = [i for i, places in enumerate(calls) if i and any(not p.accept for p in places)]
    assert band_frames and all(b - a == settings.look_defer for a, b in zip(band_frames, band_frames[1:]))
    assert seen_at is not None


def test_a_place_looked_at_in_vain_waits_until_its_pixels_change(blurred, monkeypatch):
    """A figure read before whose marker is then blotted out: its place is looked at once, not
    again while the frame stays the same (back-off alone looked again after 2, 4, 8 frames),
    and again once its pixels change."""
    image, _, truth, setup = blurred
    reader = LiveReader(setup, LiveSettings(look_band=0), clock=lambda: 0.0)
    read = {f.marker: f for f in read_n(reader, image, 3, truth).figures}
    m = next(iter(sorted(read)))
    corners = np.round(truth[m].corners_px).astype(np.int32)
    blotted, again = image.copy(), image.copy()
    cv2.fillPoly(blotted, [corners], (150, 150, 150))
    cv2.fillPoly(again, [corners], (60, 60, 60))
    calls = looks_recorded(monkeypatch)

    def looks_at_m() -> int:
        return sum(p.accept == {m} for places in calls for p in places)
    for _ in range(12):
        assert m not in {f.marker for f in reader.read(blotted).figures}
    assert looks_at_m() == 1
    for _ in range(2):
        reader.read(again)
    assert looks_at_m() == 2


def test_an_open_place_with_every_figure_id_known_reads_nothing(blurred):
    """The band's look when every figure id is read or known elsewhere: nothing it could
    accept, so no candidate is even looked for."""
    image, _, truth, setup = blurred
    gray = to_gray(image)
    h, w = gray.shape
    far = np.array([[-50.0, -50.0], [-40.0, -50.0], [-40.0, -40.0], [-50.0, -40.0]], np.float32)
    known = [Detection(m, far) for m in MARKERS.figure_ids]
    whole = [Place((0, 0, w, h), frozenset(), 3)]
    found, _, tried = look_again(setup, setup.rescue, gray, [], whole, known)
    assert found == [] and tried == [0]
    _, _, tried = look_again(setup, setup.rescue, gray, [], whole, known[1:])
    assert tried[0] > 0


# --- blur, and the rules' positions ------------------------------------------------------------

@pytest.fixture(scope="module")
def blurred():
    """A 640 x 480 frame, and the same frame blurred (sigma 1.6 px: most 16 px markers lose
    their outline)."""
    scene = random_scene(30, BOARD, MARKERS, size=(640, 480), hand=False, distortion=0.0, look_strength=0.4,
                         figures=8)
    image, truth = render(scene)
    soft, _ = render(replace(scene, look=replace(scene.look, blur_sigma=1.6)))
    return image, soft, truth, setup_for(scene, image)


def test_figures_read_before_stay_read_through_blur(blurred):
    """Sharp, then out of focus: from the second blurred frame on (on the first everything
    changed, as under a hand, and nothing is looked at again) the figures read before are read
    again, or at worst kept in place, in every frame; the search alone reads fewer."""
    image, soft, truth, setup = blurred
    counts, kept = {}, []
    for rescue in (True, False):
        # a clock that never runs: no frame over its time budget, whatever the machine
        reader = LiveReader(setup if rescue else replace(setup, rescue=None), LiveSettings(look_band=0),
                            clock=lambda: 0.0)
        sharp = {f.marker for f in read_n(reader, image, 3, truth).figures}
        assert len(sharp) >= 10
        counts[rescue] = []
        for _ in range(10):
            result = read_n(reader, soft, 1, truth)
            now = {f.marker for f in result.figures}
            assert now <= sharp
            counts[rescue].append(len(now))
            if rescue:
                kept.append(len(now | {f.marker for f in result.in_place}))
    assert min(counts[True][1:]) >= len(sharp) - 2 and min(kept[1:]) >= len(sharp) - 1, (counts, kept)
    assert sum(counts[True][1:]) >= sum(counts[False][1:]) + 8, counts


def square_at(marker: int, x_mm: float, y_mm: float) -> Expected:
    col, row = BOARD.mm_to_ms(x_mm, y_mm)
    w, h = BOARD.ms_size_mm
    return Expected(marker, None, col * w, row * h, (col + 1) * w, (row + 1) * h)


def test_the_rules_positions_are_where_the_reader_looks_again(blurred):
    """Blurred from the first frame (a resumed match, the camera out of focus): a figure the
    search never reads is read where the rules have it; an id the rules put where another
    figure stands is not read there (that figure's marker is not taken for it)."""
    _, soft, truth, setup = blurred
    settings = LiveSettings(look_band=0)  # no sweep: only the places looked at again
    plain = read_n(LiveReader(setup, settings, clock=lambda: 0.0), soft, 4, truth)
    missed = sorted(m for m in truth if m in MARKERS.figure_ids and m not in {f.marker for f in plain.figures}
                    and truth[m].visible > 0.99 and BOARD.on_pitch(truth[m].x_mm, truth[m].y_mm))
    assert len(missed) >= 3
    target, other = missed[0], missed[1]
    reader = LiveReader(setup, settings, clock=lambda: 0.0)
    stranger = next(m for m in MARKERS.figure_ids if m not in truth)
    reader.expect([square_at(target, truth[target].x_mm, truth[target].y_mm),
                   square_at(stranger, truth[other].x_mm, truth[other].y_mm)])
    result = read_n(reader, soft, 4, truth)
    got = {f.marker for f in result.figures}
    assert target in got and stranger not in got


# --- identity and lifted figures ---------------------------------------------------------------

def test_a_partly_covered_marker_is_never_read_as_another_figure_by_the_second_look():
    scene = random_scene(22, BOARD, MARKERS, size=(640, 480), hand=False, distortion=0.0, look_strength=0.4,
                         figures=6)
    image, truth = render(scene)
    reader = LiveReader(setup_for(scene, image), clock=lambda: 0.0)
    first = read_n(reader, image, 3, truth)
    for f in first.figures:
        tl, tr, br, bl = truth[f.marker].corners_px
        for share in (0.25, 0.4):  # a fingertip over a quarter, then 40 % of the marker
            tip = np.array([tl, tl + share * (tr - tl), bl + share * (br - bl), bl])
            covered = image.copy()
            cv2.fillPoly(covered, [np.round(tip).astype(np.int32)], (120, 160, 215))
            # over a whole sweep of the board: every reading true, the covered marker never another id
            read_n(reader, covered, LiveSettings().bands + 1, truth)
        read_n(reader, image, 2, truth)


def test_a_figure_held_still_above_its_place_is_never_committed_live():
    """Lifted 25 mm and held still for a second by a hand, then set back: the second look at
    its place (it does not read there while held) commits nothing."""
    rng = np.random.default_rng(31)
    cam = random_camera(rng, BOARD, MARKERS, (1280, 720), distortion=0.0)
    figs = random_figures(rng, BOARD, MARKERS, on_pitch=6)
    scene = Scene(cam, BOARD, MARKERS, figs, (), random_look(rng, 0.4))
    image, _ = render(scene)
    setup = setup_for(scene, image)
    lifted = next(f for f in figs if not f.ball and BOARD.on_pitch(f.x_mm, f.y_mm))
    reader, tracker = LiveReader(setup), Tracker(BOARD)
    sightings = []
    script = [Idle(8), Lift(lifted.marker, 25.0, hold_frames=30), Idle(10)]
    for frame, t, _, mt in render_sequence(scene, script, seed=31):
        result = reader.read(frame)
        sightings += [e for e in tracker.update(result, t) if isinstance(e, Sighting)]
    ours = [s for s in sightings if s.marker == lifted.marker]
    assert len(ours) == 1 and ours[0].time_s < 0.3  # its first sighting where it stands, nothing more
    assert math.hypot(ours[0].x_mm - lifted.x_mm, ours[0].y_mm - lifted.y_mm) < 2.0


def test_each_frames_second_look_keeps_to_the_frames_budget(blurred, monkeypatch):
    """Issue 31: a frame's read has a budget. Figures read sharp, then all blurred (a place to
    look again for each): with time to spare a frame looks at up to ``look_places`` places;
    with every frame over its budget (a clock that runs a second a call) one place at most,
    and then only every ``look_defer`` frames, so no frame pays for several."""
    image, soft, truth, setup = blurred
    settings = LiveSettings()
    for clock, most in ((lambda: 0.0, settings.look_places), (None, 1)):
        calls = looks_recorded(monkeypatch)
        if clock is None:
            ticks = iter(range(10 ** 6))
            clock = lambda: float(next(ticks))  # noqa: E731
        reader = LiveReader(setup, settings, clock=clock)
        read_n(reader, image, 3, truth)
        start = len(calls)
        read_n(reader, soft, 3 * settings.look_defer, truth)
        per_frame = [sum(1 for p in places if p.accept) for places in calls[start:]]
        assert max(per_frame) == most, per_frame
        if most == 1:
            looked = [i for i, n in enumerate(per_frame) if n]
            assert looked and all(b - a >= settings.look_defer for a, b in zip(looked, looked[1:])), per_frame


def test_a_cameras_first_frame_leaves_the_second_look_to_the_sweep(wall, monkeypatch):
    """The first frame searches the whole frame; its second look over the whole board (several
    times the default detector's time) is left to the bands' sweep unless asked for."""
    image, truth, setup = wall
    for first_look, open_places in ((False, 0), (True, 1)):
        calls = looks_recorded(monkeypatch)
        LiveReader(setup, LiveSettings(first_look=first_look), clock=lambda: 0.0).read(image)
        assert sum(1 for p in (calls[0] if calls else []) if not p.accept) == open_places
