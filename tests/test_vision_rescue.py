"""The rescue stage (vision.rescue): markers the main search missed, read from rectified patches
of the frame, on rendered scenes (seeded). What it reads is where the truth says, and never
another figure's id: not for a marker half under a hand, nor for one blurred past reading."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.fublet.components import load_board
from vision.config import MarkerSet
from vision.detect import Detection, to_gray
from vision.locate import read_frame
from vision.plane import find_markers, plane_view
from vision.refine import sample_points
from vision.rescue import (RescueSettings, _rescue, draw_rescue, one_per_id, reduced_view, rescue, search_view,
                           too_smooth)
from vision.synth import Hand, random_scene, render

from test_vision_plane import setup_for

BOARD = load_board()
SMALL = MarkerSet(figure_marker_mm=9.0, cap_mm=12.0, ball_marker_mm=9.0, ball_token_mm=12.0)
# every cap top a candidate, and every one that read nothing looked at again turned every way:
# the stage's bounds set wide, so that what it refuses is tested
WIDE = RescueSettings(max_patches=80, per_unread=10.0, max_ball_patches=40, turned_tries=80, turned_per_unread=10.0,
                      ball_tries=40)


def where_truth_says(truth, detections, tol_px: float = 2.0) -> list[int]:
    """Ids of the detections that are not where their marker is, or whose marker is hidden."""
    return [d.marker for d in detections
            if np.linalg.norm(truth[d.marker].corners_px.mean(axis=0) - d.center) > tol_px or truth[d.marker].hidden]


@pytest.fixture(scope="module")
def small_scene():
    """9 mm markers on 12 mm caps at 1080p: 8-12 px markers, of which the main search reads 18
    of 32 at this seed."""
    scene = random_scene(0, BOARD, SMALL, size=(1920, 1080), hand=False)
    image, truth = render(scene)
    return setup_for(scene, BOARD), to_gray(image), truth


def test_9_mm_markers_the_main_search_missed_are_read_where_they_are(small_scene):
    setup, gray, truth = small_scene
    found = find_markers(setup, gray)
    extra = rescue(setup, gray, found)
    visible = {m for m, t in truth.items() if t.seen and SMALL.kind_of(m) == "figure"}
    main = {d.marker for d in found} & visible
    assert len(main) <= 0.6 * len(visible)  # the case this stage is for
    assert not {d.marker for d in extra} & {d.marker for d in found}  # never an id read already
    assert where_truth_says(truth, extra) == []
    assert len(main | {d.marker for d in extra}) >= 0.95 * len(visible)
    # corners in ArUco order: the marker's top-left corner first, to a pixel
    for d in extra:
        assert np.abs(d.corners - truth[d.marker].corners_px).max() < 1.0


def test_caps_seen_at_38_degrees_are_read_from_patches_drawn_square():
    """A camera tilted 36-40 degrees: the far caps' markers are 6-9 px across one way. Their
    patches, drawn square to the board, are read where the main search left them."""
    scene = random_scene(5, BOARD, MarkerSet(), size=(1920, 1080), hand=False, min_tilt_deg=36.0, max_tilt_deg=40.0)
    image, truth = render(scene)
    setup = setup_for(scene, BOARD)
    gray = to_gray(image)
    found = find_markers(setup, gray)
    extra = rescue(setup, gray, found)
    visible = {m for m, t in truth.items() if t.seen and m < 32}
    assert len({d.marker for d in found} & visible) <= len(visible) - 5
    assert where_truth_says(truth, extra) == []
    assert len(({d.marker for d in found} | {d.marker for d in extra}) & visible) >= len(visible) - 1


def test_the_frame_reader_runs_the_stage_once_after_the_search(small_scene):
    setup, gray, truth = small_scene
    without = read_frame(replace(setup, rescue=None), gray)
    with_ = read_frame(setup, gray)
    assert {s.marker for s in without.figures} < {s.marker for s in with_.figures}
    for s in with_.figures:  # placed at the size the camera model gives a standing cap
        t = truth[s.marker]
        assert np.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm) < 1.5
        assert s.square == BOARD.mm_to_ms(t.x_mm, t.y_mm)
    assert with_.conflicts == ()


def test_the_ball_token_is_searched_for_at_its_own_size_and_height():
    """A 9.5 mm ball token among 17 mm caps: 10 px in the frame, too small for the main
    search's view of the caps."""
    markers = MarkerSet(ball_marker_mm=9.5, ball_token_mm=12.0)
    scene = random_scene(2, BOARD, markers, size=(1920, 1080), hand=False)
    image, truth = render(scene)
    setup = setup_for(scene, BOARD)
    gray = to_gray(image)
    found = find_markers(setup, gray)
    assert markers.ball_id not in {d.marker for d in found}
    extra = rescue(setup, gray, found)
    assert markers.ball_id in {d.marker for d in extra}
    assert where_truth_says(truth, extra) == []
    result = read_frame(setup, gray)
    t = truth[markers.ball_id]
    assert result.ball is not None and np.hypot(result.ball.x_mm - t.x_mm, result.ball.y_mm - t.y_mm) < 1.5


@pytest.mark.parametrize("seed", [0, 1])
def test_markers_partly_under_a_hand_or_blurred_are_never_read_as_another_id(seed):
    """Hands held low with a palm's edge across four caps; the stage looks at every cap top
    (nothing read before, bounds wide). Markers partly covered are read as themselves or not at
    all; so is every marker of the frame blurred past reading (sigma 2 px)."""
    scene = random_scene(seed, BOARD, MarkerSet(), size=(1920, 1080), hand=False)
    rng = np.random.default_rng(seed)
    hands = []
    for i in rng.choice(len(scene.figures), 4, replace=False):
        f = scene.figures[int(i)]
        a = float(rng.uniform(0, 360))
        # the palm reaches 45 mm from its centre: its edge falls on the cap
        hands.append(Hand(f.x_mm - 47 * np.cos(np.radians(a)), f.y_mm - 47 * np.sin(np.radians(a)), a,
                          float(rng.uniform(45, 60))))
    scene = replace(scene, hands=tuple(hands))
    image, truth = render(scene)
    setup = setup_for(scene, BOARD)
    gray = to_gray(image)
    partial = [m for m, t in truth.items() if 0.2 < t.visible < 0.95]
    assert len(partial) >= 3
    extra = rescue(setup, gray, [], WIDE)
    assert where_truth_says(truth, extra) == []
    seen = [m for m, t in truth.items() if t.seen and m != setup.markers.ball_id and m < 32]
    assert len({d.marker for d in extra} & set(seen)) >= 0.8 * len(seen)  # it does read: not vacuous
    blurred = cv2.GaussianBlur(gray, (0, 0), 2.0)
    assert where_truth_says(truth, rescue(setup, blurred, [], WIDE), tol_px=3.0) == []


def test_a_marker_half_painted_over_is_not_read_as_another_id(small_scene):
    """Half of each 9 mm marker's cells painted the grey of a hand: no reading names another
    marker's id (the strict margin over the second-best id, and the bits agreeing)."""
    setup, gray, truth = small_scene
    covered = gray.copy()
    for m, t in truth.items():
        if t.seen and SMALL.kind_of(m) == "figure":
            c = t.corners_px.astype(np.float64)
            half = np.array([c[0], (c[0] + c[1]) / 2, (c[3] + c[2]) / 2, c[3]])
            cv2.fillConvexPoly(covered, np.round(half * 16).astype(np.int32), 150, cv2.LINE_AA, shift=4)
    extra = rescue(setup, covered, [], WIDE)
    assert where_truth_says(truth, extra) == []


@pytest.mark.parametrize("seed", [7, 8])
def test_small_markers_at_a_steep_tilt_partly_painted_at_random_are_never_read_as_another_id(seed):
    """9 mm markers, a camera tilted 28-38 degrees (each patch's templates stretched its own
    way): every other marker has a random third to three fifths of it, from a random side,
    painted a random grey. Nothing is read as another id, and the markers left whole are read."""
    scene = random_scene(seed, BOARD, SMALL, size=(1920, 1080), hand=False, min_tilt_deg=28.0, max_tilt_deg=38.0)
    image, truth = render(scene)
    setup = setup_for(scene, BOARD)
    gray = to_gray(image)
    rng = np.random.default_rng(seed)
    covered, whole = gray.copy(), []
    for k, (m, t) in enumerate(sorted(truth.items())):
        if not t.seen or SMALL.kind_of(m) not in ("figure", "ball"):
            continue
        if k % 2:
            whole.append(m)
            continue
        c = np.roll(t.corners_px.astype(np.float64), int(rng.integers(4)), axis=0)
        f = float(rng.uniform(0.33, 0.6))
        part = np.array([c[0], c[0] + f * (c[1] - c[0]), c[3] + f * (c[2] - c[3]), c[3]])
        cv2.fillConvexPoly(covered, np.round(part * 16).astype(np.int32), int(rng.integers(90, 200)), cv2.LINE_AA,
                           shift=4)
    extra = rescue(setup, covered, [], WIDE)
    assert where_truth_says(truth, extra) == []
    # it does read (a quarter at least: 5-8 px markers, the rescue stage alone): not vacuous
    assert len({d.marker for d in extra} & set(whole)) >= 0.25 * len(whole)


def test_an_id_read_at_two_places_is_no_reading_and_twice_on_one_marker_is_one():
    sq = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
    a, a_again, a_far, b = (Detection(7, sq), Detection(7, sq + 1.0), Detection(7, sq + 200.0), Detection(8, sq + 50))
    assert [d.marker for d in one_per_id([a, a_again, b])] == [7, 8]
    assert [d.marker for d in one_per_id([a, a_far, b])] == [8]


def test_the_stage_is_bounded_and_draws_what_it_looked_at(small_scene):
    setup, gray, truth = small_scene
    from vision.rescue import _rescue
    few = RescueSettings(max_patches=5, max_ball_patches=2, turned_tries=3, ball_tries=1)
    _, report = _rescue(setup, gray, [], few)
    # the first looks, and the few looked at again at each of their turns
    assert len(report.candidates["figures"]) <= 5 + 3 * few.turned_turns
    assert len(report.candidates["ball"]) <= 2 + 1 * few.ball_turns
    assert report.ms >= 0.0
    image = draw_rescue(setup, gray, [], few)
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
    view = report.views["figures"][1]
    assert image.shape[0] > view.shape[0]  # the views and a strip of patches below each


def _touching(seed: int, gap_mm: float = 21.0):
    """A scene with 50 mm caps in which the figure farthest from the point under the camera has
    another cap standing against it on the camera's side: on the caps' plane, on the first
    one's body. Returns the setup, the grey frame, the truth and the two markers."""
    markers = MarkerSet(cap_height_mm=50.0)
    scene = random_scene(seed, BOARD, markers, size=(1920, 1080), hand=False)
    under = scene.camera.center_mm[:2]
    figs = [f for f in scene.figures if not f.ball and BOARD.mm_to_ms(f.x_mm, f.y_mm) is not None]
    back = max(figs, key=lambda f: np.hypot(f.x_mm - under[0], f.y_mm - under[1]))
    way = (under - [back.x_mm, back.y_mm]) / np.hypot(*(under - [back.x_mm, back.y_mm]))
    front = next(f for f in figs if f is not back)
    x, y = np.array([back.x_mm, back.y_mm]) + way * gap_mm
    scene = replace(scene, figures=tuple(replace(f, x_mm=x, y_mm=y) if f is front else f for f in scene.figures))
    image, truth = render(scene)
    return setup_for(scene, BOARD), to_gray(image), truth, back.marker, front.marker


@pytest.mark.parametrize("seed", [0, 11])
def test_a_cap_standing_in_front_of_another_figure_is_rescued_when_the_search_missed_it(seed):
    """The dark shape of a figure below its cap reaches, on the caps' plane, towards the point
    under the camera: a touching cap there, missed by the main search (here: its reading taken
    out), looks like it to a dark-square search and scores no higher, so no shortcut may leave
    such candidates out: it is looked at and read. (Leaving out candidates on read figures'
    bodies unless they scored as caps lost this cap in 6 of 17 such scenes.)"""
    setup, gray, truth, back, front = _touching(seed)
    found = find_markers(setup, gray)
    assert {back, front} <= {d.marker for d in found}  # the main search reads both here
    missed = [d for d in found if d.marker != front]
    extra, report = _rescue(setup, gray, missed, None)
    assert front in {d.marker for d in extra}
    assert where_truth_says(truth, extra) == []
    # it stood on the other's dark shape as the caps' view sees it: between that cap and its foot
    view = report.views["figures"][0]
    cam = setup.camera
    back_at = cam.to_plane(np.array([[d.center for d in missed if d.marker == back][0]]), setup.markers.cap_height_mm)
    cap = view.view_points(cam.project(np.array([[*back_at[0], setup.markers.cap_height_mm]])))[0]
    foot = view.view_points(cam.project(np.array([[*back_at[0], 0.0]])))[0]
    front_at = view.view_points(np.array([truth[front].corners_px.mean(axis=0)]))[0]
    way = (foot - cap) / np.linalg.norm(foot - cap)
    assert 0.5 * 17.0 / view.mm_per_px < float((front_at - cap) @ way) < np.linalg.norm(foot - cap)


def test_the_caps_view_reduced_from_the_plane_search_shows_what_a_view_drawn_from_the_frame_shows(small_scene):
    """The caps' search view taken as every second pixel of the plane search's view: each of
    its pixels that plane pixel's board point, and around the caps it shows what a view
    resampled from the frame shows, to the remap tables' rounding."""
    setup, gray, truth = small_scene
    pv = plane_view(setup.camera, setup.board, setup.markers, setup.plane)
    image = pv.rectify(gray)
    settings = RescueSettings()
    ms = setup.markers
    got = reduced_view(pv, image, ms.cap_height_mm, ms.figure_marker_mm / settings.view_marker_px)
    if got is None:  # a capped plane view (small markers, many pixels): the stage draws its own
        assert abs(2 * pv.mm_per_px - ms.figure_marker_mm / settings.view_marker_px) > 1e-6
        setup = replace(setup, markers=replace(ms, figure_marker_mm=17.0, cap_mm=20.0))
        ms = setup.markers
        pv = plane_view(setup.camera, setup.board, ms, setup.plane)
        image = pv.rectify(gray)
        got = reduced_view(pv, image, ms.cap_height_mm, ms.figure_marker_mm / settings.view_marker_px)
    assert got is not None
    small_view, small = got
    own = search_view(setup.camera, setup.board, ms, ms.cap_height_mm, ms.figure_marker_mm, settings.view_marker_px)
    drawn = own.image(gray)
    # around every cap seen, where a view a pixel off would differ most
    caps = np.array([t.corners_px.mean(axis=0) for m, t in truth.items() if t.seen and m < 32])
    near = np.linspace(-1.5, 1.5, 7)
    at = (own.view_points(caps)[:, None, None, :] + np.stack(np.meshgrid(near, near), axis=-1)[None]).reshape(-1, 2)
    frame_px = setup.camera.project(own.board_points(at))
    a = sample_points(small, small_view.view_points(frame_px))
    b = sample_points(drawn, at)
    assert np.median(np.abs(a - b)) <= 1.0 and np.corrcoef(a, b)[0, 1] > 0.99
    # a reduced pixel is the plane pixel it was taken from, and shows that board point
    c, r = 57, 31
    assert small_view.board_points(np.array([[c, r]], float))[0] == pytest.approx(
        pv.board_points(np.array([2 * c, 2 * r], float)), abs=1e-9)
    assert small[r, c] == image[2 * r, 2 * c]


@pytest.mark.parametrize("seed", [2, 3])
def test_a_ball_against_a_figure_in_front_of_it_or_beside_it_is_still_looked_at(seed):
    """A 9.5 mm ball token lying against a figure's foot on the camera's side, beside it, or
    beside the board the figure hides (half way along it, seen past its edge) is in view and
    read by the ball's search."""
    markers = MarkerSet(ball_marker_mm=9.5, ball_token_mm=12.0, cap_height_mm=50.0)
    scene = random_scene(seed, BOARD, markers, size=(1920, 1080), hand=False)
    under = scene.camera.center_mm[:2]
    figs = [f for f in scene.figures if not f.ball and BOARD.mm_to_ms(f.x_mm, f.y_mm) is not None]
    fig = max(figs, key=lambda f: np.hypot(f.x_mm - under[0], f.y_mm - under[1]))
    way = (under - [fig.x_mm, fig.y_mm]) / np.hypot(*(under - [fig.x_mm, fig.y_mm]))
    hidden = np.hypot(fig.x_mm - under[0], fig.y_mm - under[1]) * 50.0 / (scene.camera.center_mm[2] - 50.0)
    aside = np.array([-way[1], way[0]])
    for off in (way * 16.0, aside * 17.0, aside * 17.0 - way * hidden / 2):
        x, y = np.array([fig.x_mm, fig.y_mm]) + off
        near = replace(scene, figures=tuple(replace(f, x_mm=x, y_mm=y) if f.ball else f for f in scene.figures))
        image, truth = render(near)
        setup = setup_for(near, BOARD)
        gray = to_gray(image)
        found = [d for d in find_markers(setup, gray) if d.marker != markers.ball_id]
        extra = rescue(setup, gray, found)
        assert markers.ball_id in {d.marker for d in extra}
        assert where_truth_says(truth, extra) == []


@pytest.mark.parametrize("seed", [0, 1])
def test_figures_bodies_beside_caps_read_are_left_out_and_nothing_read_is_lost(seed):
    """50 mm caps: a figure's dark body beside its cap on the caps' plane is a dark square to
    the caps' search. Those beside a cap read, toward the point under the camera and far less
    textured than it, are left out before their patches are drawn; the stage reads the same."""
    scene = random_scene(seed, BOARD, MarkerSet(cap_height_mm=50.0), size=(1920, 1080), hand=False)
    image, truth = render(scene)
    setup, gray = setup_for(scene, BOARD), to_gray(image)
    found = find_markers(setup, gray)
    pv = plane_view(setup.camera, setup.board, setup.markers, setup.plane)
    plane = (pv, pv.rectify(gray))
    on, with_screen = _rescue(setup, gray, found, RescueSettings(), plane)
    off, without = _rescue(setup, gray, found, RescueSettings(body_texture=0.0), plane)
    assert [d.marker for d in on] == [d.marker for d in off]
    assert where_truth_says(truth, on) == []
    first = {c.view_px for c in with_screen.candidates["figures"]}
    left_out = [c for c in without.candidates["figures"] if c.view_px not in first]
    assert left_out and all(c.marker < 0 for c in left_out)
    # each beside a cap read, on its side toward the point under the camera
    view = with_screen.views["figures"][0]
    caps = view.view_points(np.array([d.center for d in found if d.marker < 32]))
    cx, cy, _ = setup.camera.center_mm
    nadir = np.array([(cx - view.x0_mm) / view.mm_per_px, (view.y1_mm - cy) / view.mm_per_px])
    for c in left_out:
        cap = caps[np.argmin(np.linalg.norm(caps - c.view_px, axis=1))]
        away, inward = np.array(c.view_px) - cap, nadir - cap
        assert np.linalg.norm(away) * view.mm_per_px < 1.4 * setup.markers.cap_mm
        assert away @ inward > np.cos(np.radians(40.0)) * np.linalg.norm(away) * np.linalg.norm(inward)



@pytest.mark.parametrize("seed", [0, 1])
def test_candidates_too_smooth_to_be_markers_are_left_out_and_nothing_read_is_lost(seed):
    """A hand over the board: the gaps between its fingers, figures' bodies and lines are dark
    squares to the caps' search, with far fewer edges than a marker. Those under a share of the
    read caps' texture are left out before their patches are drawn; the stage reads the same."""
    scene = random_scene(seed, BOARD, MarkerSet(), size=(1920, 1080), hand=True)
    image, truth = render(scene)
    setup, gray = setup_for(scene, BOARD), to_gray(image)
    found = find_markers(setup, gray)
    pv = plane_view(setup.camera, setup.board, setup.markers, setup.plane)
    plane = (pv, pv.rectify(gray))
    wide = replace(WIDE, turned_tries=0)  # every candidate drawn, none drawn twice
    on, with_screen = _rescue(setup, gray, found, wide, plane)
    off, without = _rescue(setup, gray, found, replace(wide, smooth_texture=0.0), plane)
    assert [d.marker for d in on] == [d.marker for d in off]
    assert where_truth_says(truth, on) == []
    first = {c.view_px for c in with_screen.candidates["figures"]}
    left_out = [c for c in without.candidates["figures"] if c.view_px not in first]
    assert left_out and all(c.marker < 0 for c in left_out)
    # and fewer than half of them is all that is left out
    assert len(left_out) < len(without.candidates["figures"]) / 2


def test_too_smooth_measures_against_the_caps_read_and_needs_three():
    """On a view of textured squares (caps read, a candidate marker) and a smooth dark blob, only
    the blob is too smooth; with fewer than three caps read nothing is refused."""
    settings = RescueSettings()
    rng = np.random.default_rng(3)
    fine = np.full((200, 260), 200, np.uint8)
    caps = np.array([[20.0, 20.0], [50.0, 20.0], [80.0, 20.0], [110.0, 20.0]])  # view pixels (fine: twice)
    for x, y in [*caps, (20.0, 70.0)]:
        cells = (rng.random((6, 6)) < 0.5) * 255
        cells[[0, -1]], cells[:, [0, -1]] = 0, 0
        block = cv2.resize(cells.astype(np.uint8), (14, 14), interpolation=cv2.INTER_NEAREST)
        fine[int(2 * y) - 7:int(2 * y) + 7, int(2 * x) - 7:int(2 * x) + 7] = block
    fine = cv2.GaussianBlur(fine, (0, 0), 0.8)
    yy, xx = np.mgrid[:200, :260]
    blob = 150 * np.exp(-((xx - 120) ** 2 + (yy - 140) ** 2) / (2 * 6.0 ** 2))  # soft and dark, as a body is
    fine = np.clip(fine - blob, 0, 255).astype(np.uint8)
    camera = setup_for(random_scene(0, BOARD, MarkerSet(), size=(1920, 1080), hand=False), BOARD).camera
    view = search_view(camera, BOARD, MarkerSet(), 35.0, 17.0, settings.view_marker_px)
    centres = np.array([[20.0, 70.0], [60.0, 70.0]])
    assert too_smooth(settings, view, fine, centres, caps, 17.0).tolist() == [False, True]
    assert too_smooth(settings, view, fine, centres, caps[:2], 17.0).tolist() == [False, False]


@pytest.mark.parametrize("size, gap", [(3, 1), (23, 5), (69, 17)])
def test_the_patches_rows_by_index_are_what_np_pad_gives(size, gap):
    # the patches are padded by index (cheaper per call than np.pad): the same rows, the edge
    # repeated or reflected as np.pad's "edge" and "reflect" do
    from vision.patches import _edged, _reflected

    stack = np.random.default_rng(size).integers(0, 256, (4, size, size), dtype=np.uint8)
    assert np.array_equal(stack[:, _edged(size, gap)], np.pad(stack, ((0, 0), (gap, gap), (0, 0)), mode="edge"))
    assert np.array_equal(stack[:, _reflected(size)], np.pad(stack, ((0, 0), (1, 1), (0, 0)), mode="reflect"))
