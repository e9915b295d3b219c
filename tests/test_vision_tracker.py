"""The live tracker: settling, one move per settle, unseen figures never move, conflicts, the ball,
health; and a rendered sequence of moves and hovers read live (windows, change detection)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.corners import calibrate_from_frame
from calibration.lens import LensCalibration
from calibration.monitor import CornerMonitor, MonitorSettings
from companion.teams import PlayerRef, Team
from vision.config import MarkerSet
from vision.live import LiveReader
from vision.locate import Conflict, FrameResult, Seen, VisionSetup, place
from vision.scenario import Hover, Idle, Move, render_sequence
from vision.sighting import BallSighting, ConflictNotice, HealthChange, RecalibrationNeeded, Sighting
from vision.synth import compact_board, random_scene, render
from vision.tracker import Expected, Tracker, TrackerSettings

BOARD = compact_board()
FPS = 30.0
HOME8 = PlayerRef(Team.HOME, 8)


def seen(marker: int, x: float, y: float, facing: float = 0.0, player: PlayerRef | None = HOME8) -> Seen:
    sq, ps, area = place(BOARD, x, y)
    return Seen(marker, player, x, y, facing, sq, ps, area)


def feed(tracker: Tracker, frames: list[FrameResult], start: float = 0.0) -> list:
    events = []
    for i, result in enumerate(frames):
        events += tracker.update(result, start + i / FPS)
    return events


def moves(events) -> list:
    return [e for e in events if isinstance(e, (Sighting, BallSighting))]


def still(x: float, y: float, n: int, rng: np.random.Generator, jitter: float = 0.4, facing: float = 0.0):
    return [FrameResult(figures=(seen(7, x + rng.normal(0, jitter), y + rng.normal(0, jitter),
                                      facing + rng.normal(0, 1.5)),)) for _ in range(n)]


def test_a_figure_is_committed_once_after_it_settles():
    rng = np.random.default_rng(1)
    tracker = Tracker(BOARD)
    events = feed(tracker, still(50.0, 50.0, 30, rng))
    committed = moves(events)
    assert len(committed) == 1
    s = committed[0]
    assert s.player == HOME8 and s.marker == 7 and s.square == (2, 2) and s.area is None
    assert s.time_s == pytest.approx(5 / FPS)  # first frame at 0, settled after 150 ms: the 6th frame
    assert abs(s.x_mm - 50.0) < 0.5 and abs(s.y_mm - 50.0) < 0.5


def test_frames_skipped_by_a_busy_reader_do_not_interrupt_settling():
    rng = np.random.default_rng(4)
    frames = still(50.0, 50.0, 30, rng)
    tracker = Tracker(BOARD)
    events = []
    for i in range(0, 30, 5):  # a live camera's frames, every fifth read: 167 ms apart
        events += tracker.update(frames[i], i / FPS)
    (s,) = moves(events)
    assert s.square == (2, 2) and s.time_s == pytest.approx(5 / FPS)


def test_jitter_and_small_nudges_are_not_moves():
    rng = np.random.default_rng(2)
    tracker = Tracker(BOARD)
    feed(tracker, still(50.0, 50.0, 10, rng))
    assert moves(feed(tracker, still(50.0, 50.0, 60, rng, jitter=0.8), start=1.0)) == []
    assert moves(feed(tracker, still(53.0, 50.0, 30, rng), start=3.0)) == []  # 3 mm: same place


def test_a_move_to_another_square_and_a_turn_are_one_event_each():
    rng = np.random.default_rng(3)
    tracker = Tracker(BOARD)
    feed(tracker, still(50.0, 50.0, 10, rng))
    moved = moves(feed(tracker, still(90.0, 130.0, 20, rng), start=1.0))
    assert [m.square for m in moved] == [(4, 6)]
    turned = moves(feed(tracker, still(90.0, 130.0, 20, rng, facing=90.0), start=2.0))
    assert len(turned) == 1 and abs(turned[0].facing_deg - 90.0) < 3.0


def test_a_figure_carried_across_the_board_is_committed_only_where_it_stops():
    tracker = Tracker(BOARD)
    path = [FrameResult(figures=(seen(7, 20.0 + 6 * i, 50.0),)) for i in range(30)]  # 180 mm/s
    rest = [FrameResult(figures=(seen(7, 200.0, 50.0),))] * 10
    committed = moves(feed(tracker, path + rest))
    assert [round(m.x_mm) for m in committed] == [200]


def test_an_unseen_figure_keeps_its_place_and_never_moves():
    rng = np.random.default_rng(4)
    tracker = Tracker(BOARD)
    feed(tracker, still(50.0, 50.0, 10, rng))
    hidden = [FrameResult()] * 60  # a hand over it for two seconds
    assert moves(feed(tracker, hidden, start=1.0)) == []
    fig = tracker.figures(now=3.0)[0]
    assert not fig.seen and fig.committed is not None and fig.square == (2, 2)
    back = moves(feed(tracker, still(50.0, 50.0, 20, rng), start=3.0))
    assert back == []  # it came back where it was: no move
    assert tracker.figures()[0].seen


def test_brief_glimpses_during_a_hover_do_not_commit():
    tracker = Tracker(BOARD)
    feed(tracker, [FrameResult(figures=(seen(7, 50.0, 50.0),))] * 10)
    frames = []
    for i in range(40):  # seen two frames in five, somewhere else each time (a hand tilting it)
        frames.append(FrameResult(figures=(seen(7, 90.0 + 9 * (i // 5), 50.0),)) if i % 5 < 2 else FrameResult())
    assert moves(feed(tracker, frames, start=1.0)) == []


def test_a_marker_in_conflict_is_never_a_figure():
    tracker = Tracker(BOARD)
    conflict = FrameResult(conflicts=(Conflict(7, "marker 7 seen 2 times", ((50.0, 50.0), (200.0, 100.0))),))
    events = feed(tracker, [conflict] * 20)
    assert moves(events) == []
    notices = [e for e in events if isinstance(e, ConflictNotice)]
    assert len(notices) == 1 and notices[0].marker == 7


def test_off_the_pitch_a_figure_is_in_its_named_area_or_simply_off():
    rng = np.random.default_rng(5)
    tracker = Tracker(BOARD)
    bench = moves(feed(tracker, still(100.0, -50.0, 10, rng)))
    assert bench[0].square is None and bench[0].area == "bench_home"
    away = moves(feed(tracker, still(-100.0, 300.0, 10, rng), start=1.0))
    assert away[0].square is None and away[0].area == "off the pitch"


def test_the_ball_settles_too_and_figures_carry_its_last_place():
    tracker = Tracker(BOARD)
    ball = seen(32, 150.0, 110.0, player=None)
    events = feed(tracker, [FrameResult(ball=ball)] * 8)
    assert [type(e) for e in moves(events)] == [BallSighting]
    events = feed(tracker, [FrameResult(figures=(seen(7, 50.0, 50.0),), ball=ball)] * 8, start=1.0)
    s = moves(events)[0]
    assert isinstance(s, Sighting) and s.ball == pytest.approx((150.0, 110.0))
    together = Tracker(BOARD)  # ball and figure settling in the same frame
    both = moves(feed(together, [FrameResult(figures=(seen(7, 50.0, 50.0),), ball=ball)] * 8))
    assert [type(e) for e in both] == [BallSighting, Sighting] and both[1].ball == pytest.approx((150.0, 110.0))
    assert repr(both[1]).startswith("Sighting(player=PlayerRef(team=Team.HOME, number=8), x_mm=50.0")


def test_sightings_become_the_rules_cores_sightings():
    from companion.sightings import Sighting as Core

    rng = np.random.default_rng(6)
    tracker = Tracker(BOARD)
    on = moves(feed(tracker, still(50.0, 50.0, 10, rng)))[0].to_core()
    assert isinstance(on, Core) and on.player == HOME8 and on.on_pitch and on.marker == 7
    assert abs(on.x_mm - 50.0) < 0.5 and on.area is None and on.facing is not None
    bench = moves(feed(tracker, still(100.0, -50.0, 10, rng), start=1.0))[0].to_core()
    assert not bench.on_pitch and bench.x_mm is None and bench.area == "bench_home"
    away = moves(feed(tracker, still(-100.0, 300.0, 10, rng), start=2.0))[0].to_core()
    assert not away.on_pitch and away.area is None
    ball = moves(feed(Tracker(BOARD), [FrameResult(ball=seen(32, 150.0, 110.0, player=None))] * 8))[0].to_core()
    assert ball.player is None and ball.on_pitch


def test_corner_markers_that_move_ask_for_recalibration_and_degrade_health():
    expected = {40: (100.0, 100.0), 41: (500.0, 100.0)}
    tracker = Tracker(BOARD, monitor=CornerMonitor(expected, MonitorSettings(confirm_s=0.2)))
    ok = FrameResult(corner_px=expected)
    assert feed(tracker, [ok] * 5) == []
    bumped = FrameResult(corner_px={40: (108.0, 103.0), 41: (509.0, 102.0)})
    events = feed(tracker, [bumped] * 10, start=5 / FPS)
    recal = [e for e in events if isinstance(e, RecalibrationNeeded)]
    assert len(recal) == 1 and recal[0].markers == (40, 41) and recal[0].shift_px > 8
    assert [e.health for e in events if isinstance(e, HealthChange)] == ["degraded"]
    assert tracker.health == "degraded"


def test_a_hand_passing_over_a_corner_marker_is_not_a_bump():
    expected = {40: (100.0, 100.0), 41: (500.0, 100.0)}
    tracker = Tracker(BOARD, monitor=CornerMonitor(expected))
    glitch = [FrameResult(corner_px={40: (100.0, 100.0)})] * 5 + [FrameResult(corner_px={41: (530.0, 100.0)})] * 3
    events = feed(tracker, glitch + [FrameResult(corner_px=expected)] * 5)
    assert events == []


def test_slow_frames_degrade_health_until_they_come_back():
    tracker = Tracker(BOARD, TrackerSettings(slow_frame_s=0.5))
    events = tracker.update(FrameResult(), 0.0) + tracker.update(FrameResult(), 1.0) + tracker.update(FrameResult(), 1.03)
    assert [(e.health) for e in events if isinstance(e, HealthChange)] == ["degraded", "ok"]


# --- a rendered sequence, read live ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def live_run():
    """A hand hovers over two figures, then carries two figures to free squares, at 30 fps."""
    markers = MarkerSet()
    scene = random_scene(21, BOARD, markers, size=(640, 480), hand=False, distortion=0.05, look_strength=0.6, figures=8)
    cam = scene.camera
    lens = LensCalibration(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.dist)
    cal = calibrate_from_frame(render(scene)[0], BOARD, markers, lens)
    setup = VisionSetup.from_calibration(cal, BOARD, markers=markers)
    figs = [f for f in scene.figures if not f.ball and BOARD.on_pitch(f.x_mm, f.y_mm)]
    taken = {BOARD.mm_to_ms(f.x_mm, f.y_mm) for f in scene.figures}
    free = [sq for sq in ((3, 3), (12, 8), (6, 9), (13, 2)) if sq not in taken][:2]
    script = [Idle(8), Hover(figs[0].x_mm, figs[0].y_mm, 15), Idle(6), Hover(figs[1].x_mm, figs[1].y_mm, 12), Idle(6)]
    targets = []
    for f, sq in zip(figs[2:4], free):
        x, y = BOARD.ms_center_mm(sq)
        script += [Move(f.marker, x + 2.0, y - 1.5, 45.0), Idle(12)]
        targets.append((f.marker, sq))
    reader = LiveReader(setup)
    tracker = Tracker(BOARD)
    events, truths = [], []
    for image, t, truth, marker_truth in render_sequence(scene, script, FPS, seed=21):
        events += tracker.update(reader.read(image), t)
        if truth is not None:
            truths.append(truth)
        for tr in truths:
            if tr.visible_s is None and marker_truth[tr.marker].seen:
                truths[truths.index(tr)] = replace(tr, visible_s=t)
    return events, truths, targets


def test_live_hovers_produce_no_move_and_each_carried_figure_exactly_one(live_run):
    events, truths, targets = live_run
    committed = moves(events)
    first = {}
    for e in committed:
        first.setdefault(e.marker if isinstance(e, Sighting) else 32, []).append(e)
    initial = {m: es[0] for m, es in first.items()}
    later = [e for e in committed if e is not initial.get(e.marker if isinstance(e, Sighting) else 32)]
    assert [(e.marker, e.square) for e in later] == targets


def test_live_a_set_down_figure_is_committed_within_250_ms(live_run):
    events, truths, _ = live_run
    for tr in truths:
        done = [e for e in moves(events) if isinstance(e, Sighting) and e.marker == tr.marker and e.time_s >= tr.down_s]
        assert done, f"marker {tr.marker} never committed"
        assert done[0].time_s - tr.down_s <= 0.25 + 1e-9
        assert np.hypot(done[0].x_mm - tr.x_mm, done[0].y_mm - tr.y_mm) < 2.0


def test_a_figure_held_still_in_the_air_is_never_committed():
    rng = np.random.default_rng(12)
    tracker = Tracker(BOARD)
    feed(tracker, still(50.0, 50.0, 10, rng))

    def aloft(n: int, ratio: float, held: bool) -> list[FrameResult]:
        return [FrameResult(figures=(replace(seen(7, 90.0 + rng.normal(0, 0.3), 70.0 + rng.normal(0, 0.3)),
                                             size_ratio=ratio + rng.normal(0, 0.004), side_px=20.0, held=held),))
                for _ in range(n)]
    # 25 mm up under a camera 80 cm away looks about 3.5 % larger: held by a hand, or not
    assert moves(feed(tracker, aloft(60, 1.035, True), start=1.0)) == []
    assert moves(feed(tracker, aloft(60, 1.045, False), start=4.0)) == []
    # set down there: committed as soon as it has settled
    (s,) = moves(feed(tracker, aloft(10, 1.0, True), start=7.0))
    assert s.square == BOARD.mm_to_ms(90.0, 70.0)


def test_a_partly_covered_marker_misread_as_another_id_is_not_a_figure():
    rng = np.random.default_rng(13)
    tracker = Tracker(BOARD)
    feed(tracker, still(50.0, 50.0, 10, rng))  # home #8 (marker 7) stands at (50, 50)
    away3 = PlayerRef(Team.AWAY, 3)
    # a hand's edge over marker 7: it reads as marker 18 for a while, where 7 stood
    misread = [FrameResult(figures=(seen(18, 50.0 + rng.normal(0, 0.3), 50.0, player=away3),)) for _ in range(30)]
    events = feed(tracker, misread, start=1.0)
    assert moves(events) == []
    assert [e.marker for e in events if isinstance(e, ConflictNotice)] == [18]
    fig7 = next(f for f in tracker.figures() if f.marker == 7)
    assert fig7.committed.x_mm == pytest.approx(50.0, abs=1.0)
    # marker 18 set down elsewhere is a figure as ever
    (s,) = moves(feed(tracker, [FrameResult(figures=(seen(18, 130.0, 90.0, player=away3),))] * 10, start=3.0))
    assert s.marker == 18


# --- identity through time ------------------------------------------------------------------------

def test_a_cap_in_place_though_unread_stays_seen_and_never_moves():
    rng = np.random.default_rng(14)
    tracker = Tracker(BOARD)
    feed(tracker, still(50.0, 50.0, 10, rng))
    kept = [FrameResult(in_place=(seen(7, 50.0, 50.0),))] * 150  # five seconds, its code unreadable
    assert moves(feed(tracker, kept, start=1.0)) == []
    fig = tracker.figures()[0]
    assert fig.seen and fig.committed.x_mm == pytest.approx(50.0, abs=1.0)
    # a cap "in place" somewhere else than the figure was committed is no sign of it
    elsewhere = [FrameResult(in_place=(seen(7, 90.0, 50.0),))] * 30
    feed(tracker, elsewhere, start=7.0)
    assert not tracker.figures()[0].seen


def test_an_id_read_where_a_cap_stays_in_place_is_a_misread_however_long_ago_it_read():
    rng = np.random.default_rng(15)
    away3 = PlayerRef(Team.AWAY, 3)
    for in_place in (True, False):
        tracker = Tracker(BOARD)
        feed(tracker, still(50.0, 50.0, 10, rng))  # home #8 (marker 7) at (50, 50)
        cover = FrameResult(in_place=(seen(7, 50.0, 50.0),) if in_place else ())
        feed(tracker, [cover] * 120, start=1.0)  # a hand's edge over it for four seconds
        misread = [FrameResult(figures=(seen(18, 50.0 + rng.normal(0, 0.3), 50.0, player=away3),),
                               in_place=cover.in_place) for _ in range(30)]
        events = feed(tracker, misread, start=5.0)
        if in_place:  # its cap still shows there: marker 18 is marker 7 misread
            assert moves(events) == [] and [e.marker for e in events if isinstance(e, ConflictNotice)] == [18]
        else:  # nothing shows marker 7 is still there after 4 s: marker 18 set down where it stood
            assert [m.marker for m in moves(events)] == [18]


def test_an_id_read_twice_once_where_it_stands_and_once_on_an_unread_figure_stays_seen():
    rng = np.random.default_rng(16)
    tracker = Tracker(BOARD)
    home9 = PlayerRef(Team.HOME, 10)
    feed(tracker, [FrameResult(figures=(seen(7, 50.0, 50.0), seen(9, 130.0, 90.0, player=home9)))] * 10)
    # marker 7 covered by a hand's edge reads as 9: locate sees 9 twice, where 9 and 7 stand
    twice = FrameResult(conflicts=(Conflict(9, "marker 9 seen 2 times", ((130.2, 90.1), (50.3, 49.8))),))
    events = feed(tracker, [twice] * 30, start=1.0)
    assert moves(events) == []
    notices = [e for e in events if isinstance(e, ConflictNotice)]
    assert len(notices) == 1 and notices[0].marker == 9 and "where marker 7 stands" in notices[0].reason
    assert {f.marker: f.seen for f in tracker.figures()}[9]
    # two caps printed with id 9, neither where another figure stands: a conflict, as ever
    both = FrameResult(conflicts=(Conflict(9, "marker 9 seen 2 times", ((130.2, 90.1), (250.0, 150.0))),))
    events = feed(tracker, [both] * 10, start=3.0)
    assert [e.reason for e in events if isinstance(e, ConflictNotice)] == ["marker 9 seen 2 times"]


def _six_figures():
    """A 640x480 frame of six figures, its truth, and the setup calibrated from it."""
    markers = MarkerSet()
    scene = random_scene(22, BOARD, markers, size=(640, 480), hand=False, distortion=0.0, look_strength=0.4, figures=6)
    cam = scene.camera
    lens = LensCalibration(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.dist)
    image, truth = render(scene)
    return image, truth, VisionSetup.from_calibration(calibrate_from_frame(image, BOARD, markers, lens), BOARD,
                                                      markers=markers)


def test_the_live_reader_keeps_a_covered_cap_in_place_and_lets_a_removed_one_go():
    import cv2

    image, truth, setup = _six_figures()
    reader = LiveReader(setup)
    for _ in range(3):
        first = reader.read(image)
    marker = first.figures[0].marker
    quad = truth[marker].corners_px
    # a fingertip over a third of the marker, across its code: it cannot be read
    tl, tr, br, bl = quad
    tip = np.array([tl, tl + 0.34 * (tr - tl), bl + 0.34 * (br - bl), bl])
    covered = image.copy()
    cv2.fillPoly(covered, [np.round(tip).astype(np.int32)], (120, 160, 215))
    result = reader.read(covered)
    assert marker not in {f.marker for f in result.figures}
    assert marker in {s.marker for s in result.in_place}
    # the figure lifted away: the board shows where its cap was, and it is no longer in place
    cap = (quad - quad.mean(axis=0)) * 1.4 + quad.mean(axis=0)
    gone = image.copy()
    cv2.fillPoly(gone, [np.round(cap).astype(np.int32)], (58, 138, 52))
    assert marker not in {s.marker for s in reader.read(gone).in_place}
    # back where it was, it reads again and nothing else is kept in place
    again = reader.read(image)
    assert marker in {f.marker for f in again.figures} and again.in_place == ()


def test_a_hand_that_passed_over_empty_board_leaves_nothing_to_search():
    import cv2

    image, _, setup = _six_figures()
    # a hand-sized blob over bare board far from every figure, then gone
    figures = [f.center_px for f in LiveReader(setup).read(image).figures]
    spot = max(((x, y) for x in range(120, 520, 20) for y in range(120, 360, 20)),
               key=lambda p: min(np.hypot(p[0] - c[0], p[1] - c[1]) for c in figures))
    hand = image.copy()
    cv2.circle(hand, spot, 40, (120, 160, 215), -1)
    shares = {}
    for foreign, frames in ((False, (hand, hand, image)), (True, (hand, hand, image)), (None, (image,) * 3)):
        settings = replace(LiveReader(setup).settings, trail_foreign=bool(foreign), band_busy_share=9.0)
        reader = LiveReader(setup, settings)
        for frame in (image, image, *frames):
            reader.read(frame)
        reader.read(image)  # the hand's trail, the board as it was
        shares[foreign] = reader.searched_share
    # the same band and nothing more, as if no hand had come; before, the trail's box as well
    assert shares[True] == shares[None] < shares[False] - 0.01


def test_the_band_is_put_off_two_frames_at_a_time_and_never_for_long():
    reader = LiveReader(None)
    s = reader.settings
    busy = [reader._band_waits(1.0) for _ in range(20)]
    # waits band_defer frames, searches once, waits again: each band still meets the other
    # threshold window on its next sweep (the lag stays even between pairs)
    run = [True] * s.band_defer + [False]
    assert busy[:2 * len(run)] == run * 2
    assert reader._band_lag % 2 == busy.count(True) % 2
    calm = LiveReader(None)
    assert [calm._band_waits(0.0) for _ in range(3)] == [False] * 3
    # a frame that waits on a quiet frame's turn: its pair waits too
    odd = LiveReader(None)
    assert [odd._band_waits(x) for x in (1.0, 0.0, 0.0)] == [True, True, False]

# --- the rules' positions as expectations ----------------------------------------------------------

AWAY3 = PlayerRef(Team.AWAY, 3)


def expected(marker: int, player: PlayerRef, x: float, y: float) -> Expected:
    """Where the rules have a figure: the 20 mm movement square around (x, y)."""
    col, row = BOARD.mm_to_ms(x, y)
    return Expected(marker, player, col * 20.0, row * 20.0, col * 20.0 + 20.0, row * 20.0 + 20.0)


RULES = (expected(7, HOME8, 50.0, 50.0), expected(18, AWAY3, 130.0, 90.0))


def misread_at(x: float, y: float, n: int, rng: np.random.Generator) -> list[FrameResult]:
    """Marker 7's cap under a hand's edge, read as marker 18."""
    return [FrameResult(figures=(seen(18, x + rng.normal(0, 0.3), y + rng.normal(0, 0.3), player=AWAY3),))
            for _ in range(n)]


@pytest.mark.parametrize("rules,committed", [
    ((), [18]),      # without the rules' positions: a resumed match's first reading is believed
    (RULES, []),     # with them: marker 18 read in home #8's square is home #8's marker misread
])
def test_a_resumed_match_does_not_take_a_misread_id_in_another_figures_square(rules, committed):
    rng = np.random.default_rng(21)
    tracker = Tracker(BOARD)
    tracker.expect(rules)
    events = feed(tracker, misread_at(50.0, 50.0, 45, rng))  # from the first frame, for 1.5 s
    assert [e.marker for e in moves(events)] == committed
    if rules:
        (notice,) = [e for e in events if isinstance(e, ConflictNotice)]
        assert notice.marker == 18 and "where the rules have Home #8 (marker 7)" in notice.reason
        # its cap is there, its code misread: home #8 counts as seen where the rules have him
        assert {f.marker: f.seen for f in tracker.figures()} == {7: True}
    # marker 18 where the rules have it is taken as ever, with nothing to doubt
    (s,) = moves(feed(tracker, [FrameResult(figures=(seen(18, 130.0, 90.0, player=AWAY3),))] * 10, start=2.0))
    assert s.marker == 18 and s.doubt == "" and s.square == (6, 4)


def test_an_id_that_keeps_reading_in_another_figures_square_is_taken_with_a_doubt():
    rng = np.random.default_rng(22)
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    events = feed(tracker, misread_at(50.0, 50.0, 150, rng))  # five seconds, steady: a real figure there?
    (s,) = moves(events)
    assert s.marker == 18 and s.square == (2, 2) and "the rules have Home #8 there" in s.doubt
    hold, settle = TrackerSettings().expect_hold_s, TrackerSettings().settle_s
    assert s.time_s == pytest.approx(hold + settle, abs=1.5 / FPS)
    # a reading that comes and goes (a hand moving over the cap) never lasts: never taken
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    flicker = [r if i % 60 < 20 else FrameResult() for i, r in enumerate(misread_at(50.0, 50.0, 300, rng))]
    assert moves(feed(tracker, flicker)) == []


@pytest.mark.parametrize("x,y,doubt", [
    (130.0, 90.0, False),   # in its own square
    (131.0, 101.5, False),  # on its square's line (within the margin)
    (210.0, 150.0, False),  # in nobody's square: a move the rules will judge
    (50.0, 50.0, True),     # in home #8's square, held long enough: with a doubt
])
def test_where_an_id_is_read_against_the_rules_positions(x, y, doubt):
    rng = np.random.default_rng(23)
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    frames = [FrameResult(figures=(seen(18, x + rng.normal(0, 0.3), y, player=AWAY3),)) for _ in range(120)]
    (s,) = moves(feed(tracker, frames))
    assert bool(s.doubt) is doubt and (s.time_s > 3.0) is doubt


def test_a_space_for_several_figures_does_not_hold_back_another_id_read_in_it():
    tracker = Tracker(BOARD)
    # home #8 somewhere in a 120 x 100 mm space (Football Leader's hold several counters)
    tracker.expect([Expected(7, HOME8, 0.0, 0.0, 120.0, 100.0), RULES[1]])
    # away #3 read away from where the rules have him: a move, after the stronger evidence a
    # figure the camera never saw needs there (TrackerSettings.unexpected_s)
    (s,) = moves(feed(tracker, [FrameResult(figures=(seen(18, 50.0, 50.0, player=AWAY3),))] * 20))
    assert s.marker == 18 and s.doubt == ""


def test_the_rules_positions_give_way_to_what_the_tracker_saw_move():
    rng = np.random.default_rng(24)
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    # home #8 is seen set down at (210, 150): the rules still have him at (50, 50) for a moment
    feed(tracker, [FrameResult(figures=(seen(7, 210.0, 150.0),))] * 20)
    # away #3 set down in the square home #8 left is a move, not a misread
    (s,) = moves(feed(tracker, [FrameResult(figures=(seen(7, 210.0, 150.0), seen(18, 50.0, 50.0, player=AWAY3)))]
                      * 20, start=1.0))
    assert s.marker == 18 and s.doubt == ""


def test_a_cap_in_place_where_the_rules_have_it_is_seen_before_it_ever_settled():
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    feed(tracker, [FrameResult(figures=(seen(7, 50.0, 50.0),))] * 2)  # read twice, then covered
    feed(tracker, [FrameResult(in_place=(seen(7, 50.0, 50.0),))] * 60, start=0.1)
    (fig,) = tracker.figures()
    assert fig.seen and fig.committed is None
    # somewhere else than where the rules have it, a cap in place says nothing
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    feed(tracker, [FrameResult(figures=(seen(7, 90.0, 50.0),))] * 2)
    feed(tracker, [FrameResult(in_place=(seen(7, 90.0, 50.0),))] * 60, start=0.1)
    assert not tracker.figures()[0].seen


def test_an_id_read_twice_at_a_resume_where_it_and_an_unread_figure_stand_is_no_conflict():
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    twice = FrameResult(conflicts=(Conflict(18, "marker 18 seen 2 times", ((130.2, 90.1), (50.3, 49.8))),))
    events = feed(tracker, [twice] * 30)
    notices = [e for e in events if isinstance(e, ConflictNotice)]
    assert len(notices) == 1 and "where marker 7 stands" in notices[0].reason
    assert {f.marker: f.seen for f in tracker.figures()} == {7: True, 18: True}


@pytest.mark.parametrize("x,y,frames,committed", [
    (130.0, 90.0, 6, True),     # where the rules have away #3: a set-down figure's 150 ms will do
    (210.0, 150.0, 6, False),   # where the rules have nobody: 0.2 s is not evidence enough
    (210.0, 150.0, 12, False),  # nor 0.4 s
    (210.0, 150.0, 17, True),   # 0.53 s over 17 frames is
])
def test_a_figure_first_read_where_the_rules_do_not_have_it_needs_stronger_evidence(x, y, frames, committed):
    tracker = Tracker(BOARD)
    tracker.expect(RULES)
    got = moves(feed(tracker, [FrameResult(figures=(seen(18, x, y, player=AWAY3),))] * frames))
    assert [e.marker for e in got] == ([18] if committed else [])


def test_an_id_the_rules_have_nowhere_needs_stronger_evidence_and_one_frame_is_never_a_figure():
    tracker = Tracker(BOARD)
    tracker.expect(RULES)  # away #9 (marker 24) is not on the board by the rules
    stray = FrameResult(figures=(seen(24, 300.0, 200.0, player=PlayerRef(Team.AWAY, 9)),))
    flashes = [stray if i % 5 == 0 else FrameResult() for i in range(60)]  # one frame now and then
    assert moves(feed(tracker, flashes)) == []
    # read every frame but only for a few (fewer than TrackerSettings.unexpected_frames): still nothing
    assert moves(feed(tracker, [stray] * 5, start=3.0)) == []
    # without the rules' positions the tracker has nothing to weigh it against: 150 ms as ever
    plain = Tracker(BOARD)
    assert [e.marker for e in moves(feed(plain, [stray] * 6))] == [24]
