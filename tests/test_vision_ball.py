"""The ball's own search (vision.ball): candidates by its printed pattern, and a token whose
edges do not fit measured by that pattern. Seeded scenes and drawn patches; the ball is read
where it lies or not at all, and nothing else is ever read as the ball."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.fublet.components import load_board
from vision.ball import (_segment_distances, ball_candidates, ball_patches, fit_by_pattern, middle_brightness,
                         more_places, not_the_ball, read_ball)
from vision.config import MarkerSet
from vision.detect import to_gray
from vision.footprint import patch_templates
from vision.patches import Candidate
from vision.plane import find_markers
from vision.rescue import RescueSettings, rescue, search_view
from vision.synth import random_scene, render

from test_vision_plane import setup_for

BOARD = load_board()
BALL = MarkerSet(ball_marker_mm=9.5, ball_token_mm=12.0)
DICT = BALL.dictionary


def test_the_default_ball_has_a_white_middle():
    # id 32 of DICT_4X4_50: three of its four central cells are white
    assert middle_brightness(DICT, 32) == 0.75
    assert middle_brightness(DICT, 0) <= 0.5


def test_dark_squares_on_a_figure_read_come_last_and_a_white_middle_is_looked_for_first():
    dark = np.array([[10.0, 10.0], [50.0, 10.0], [90.0, 10.0]])  # strongest first; the first on a body
    bright = np.array([[150.0, 100.0], [200.0, 200.0]])  # on a line; in a dark ring
    bodies = (np.array([[8.0, 12.0]]), np.array([[14.0, 30.0]]))
    image = np.full((300, 300), 100, np.uint8)  # the board
    image[99:102, :] = 220  # a pitch line
    image[193:208, 193:208] = 30  # a marker's black border round its white middle
    image[198:203, 198:203] = 220
    seen = []

    def find(view, n):
        seen.append(int(view[0, 0]))
        return dark[:n] if view[0, 0] == 100 else bright[:n]

    got = ball_candidates(find, image, DICT, 32, 7.0, 3, bodies, 5.0)
    assert seen == [100, 155]  # the view and the view inverted
    # the bright place on the line is not looked at: a line leaves two points of its ring bright
    assert got.tolist() == [[200.0, 200.0], [50.0, 10.0], [90.0, 10.0]]
    # a ball id with a dark middle: the dark squares alone, still the bodies' last
    got = ball_candidates(find, image, DICT, 0, 7.0, 3, bodies, 5.0)
    assert got.tolist() == [[50.0, 10.0], [90.0, 10.0], [10.0, 10.0]]


def test_segment_distances():
    points = np.array([[0.0, 5.0], [20.0, 0.0], [-3.0, -4.0]])
    d = _segment_distances(points, np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]]))
    assert d[:, 0] == pytest.approx([5.0, 10.0, 5.0])


def _drawn_patch(marker: int, centre, turn_deg: float, side: float, blur: float, size: int = 69) -> np.ndarray:
    """A patch (size, size) uint8: ``marker`` of ``side`` px on a white token (12 mm for 9.5 mm,
    as the ball) on a grey board, centred at ``centre``, turned ``turn_deg``, blurred."""
    cells = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICT)), marker, 6)
    k = 20  # drawn at k px a cell, then carried onto the patch
    margin = (12.0 - 9.5) / 2 / (9.5 / 6)
    m = int(round(margin * k))
    art = np.full((6 * k + 2 * m, 6 * k + 2 * m), 235, np.uint8)
    big = cv2.resize(cells, (6 * k, 6 * k), interpolation=cv2.INTER_NEAREST)
    art[m:m + 6 * k, m:m + 6 * k] = np.where(big > 0, 235, 25)
    c = (art.shape[0] - 1) / 2
    a = math.radians(turn_deg)
    s = side / (6 * k)
    A = np.array([[s * math.cos(a), -s * math.sin(a), 0.0], [s * math.sin(a), s * math.cos(a), 0.0]])
    A[:, 2] = np.asarray(centre, float) - A[:, :2] @ [c, c]
    out = cv2.warpAffine(art, A, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=95)
    mask = cv2.warpAffine(np.full(art.shape, 255, np.uint8), A, (size, size), flags=cv2.INTER_AREA)
    out = np.where(mask > 0, out, 95).astype(np.float32)
    return np.clip(cv2.GaussianBlur(out, (0, 0), blur), 0, 255).astype(np.uint8)


# a patch cell of 6 px is 1.35 frame px (a 9.5 mm token 8 px across): the frame's blur of 0.7 px
# is 3.1 patch px
_TO_FRAME = np.diag([1.35 / 6, 1.35 / 6, 1.0])
_MARGIN_CELLS = (12.0 - 9.5) / 2 / (9.5 / 6)


def _ball_rows():
    T, ids, _, _ = patch_templates(_TO_FRAME[:2, :2], 6, _MARGIN_CELLS, DICT)
    return np.asarray(T[ids == 32], np.float64)


@pytest.mark.parametrize("turn, shift, scale",
                         [(17.0, (4.0, -5.0), 1.0), (-38.0, (-6.0, 2.0), 1.06), (71.0, (0.0, 6.0), 0.95)])
def test_the_pattern_fit_finds_the_ball_s_centre_turn_and_size(turn, shift, scale):
    side = 36.0 * scale
    centre = np.array([34.0, 34.0]) + shift
    patch = _drawn_patch(32, centre, turn, side, blur=3.1)
    r, quad = fit_by_pattern(patch, _ball_rows(), 36.0, np.array([34.0, 34.0]))
    assert r > 0.95
    assert np.linalg.norm(quad.mean(axis=0) - centre) < 1.0  # patch px: a sixth of a cell
    sides = np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1)
    assert sides.mean() / side == pytest.approx(1.0, abs=0.04)
    e = quad[1] - quad[0]
    got = math.degrees(math.atan2(e[1], e[0]))
    assert (got - turn + 45.0) % 90.0 - 45.0 == pytest.approx(0.0, abs=3.0)  # the code gives the quarter turn


def _candidate(patch: np.ndarray, at: tuple[float, float] = (0.0, 0.0)) -> Candidate:
    """A candidate whose patch is ``patch``, at view pixel ``at`` (one place, one candidate)."""
    c0 = (patch.shape[0] - 1) / 2
    quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * 18 + c0
    return Candidate(at, patch, _TO_FRAME, quad, False, -1, 30.0)


def test_the_ball_is_read_from_a_patch_its_edges_did_not_fit_and_another_marker_never_is():
    settings = RescueSettings()
    centre, turn = np.array([37.0, 31.0]), 23.0
    got = read_ball(settings, [_candidate(_drawn_patch(32, centre, turn, 36.0, blur=3.1))], 9.5, 12.0, DICT, 32, 1)
    assert [d.marker for d in got] == [32]
    # at the truth's corners, in frame pixels, to a third of a pixel (a twentieth of a cell's 1.35)
    assert np.linalg.norm(got[0].center - centre * 1.35 / 6) < 0.35
    for other in (5, 17, 31):
        drawn = _drawn_patch(other, centre, turn, 36.0, blur=3.1)
        assert read_ball(settings, [_candidate(drawn)], 9.5, 12.0, DICT, 32, 1) == []


def test_a_9_5_mm_ball_token_the_stage_missed_is_read_where_it_lies():
    """Seed 301: a 9.5 mm ball token 9.6 px across among 17 mm caps, which the rescue stage
    looked at only as dark squares before (its middle is white: it was not among them)."""
    scene = random_scene(301, BOARD, BALL, size=(1920, 1080), hand=False)
    image, truth = render(scene)
    setup = setup_for(scene, BOARD)
    gray = to_gray(image)
    found = [d for d in find_markers(setup, gray) if d.marker != BALL.ball_id]
    extra = rescue(setup, gray, found)
    ball = [d for d in extra if d.marker == BALL.ball_id]
    assert len(ball) == 1
    t = truth[BALL.ball_id]
    assert np.linalg.norm(ball[0].center - t.corners_px.mean(axis=0)) < 1.0
    assert np.abs(ball[0].corners - t.corners_px).max() < 1.5  # corners in ArUco order
    # and nothing read that is not where its marker is
    for d in extra:
        assert np.linalg.norm(truth[d.marker].corners_px.mean(axis=0) - d.center) < 2.0


# --- the ball among many candidates, and the ids that cannot be it ------------------------------------

def _between(weight: float, centre=(36.0, 33.0), turn: float = 23.0) -> np.ndarray:
    """A ball patch (id 32) drawn ``weight`` of the way from id 8 to it (8 is the id nearest the
    ball's: five cells apart): at 0.7 the ball's best id, not 3 times clear of 8."""
    a = _drawn_patch(32, np.array(centre), turn, 36.0, blur=3.1).astype(np.float64)
    b = _drawn_patch(8, np.array(centre), turn, 36.0, blur=3.1).astype(np.float64)
    return np.clip(weight * a + (1 - weight) * b, 0, 255).astype(np.uint8)


def test_an_id_read_elsewhere_in_the_frame_does_not_stand_against_the_ball():
    settings = RescueSettings()
    story = [_candidate(_between(0.7))]
    # figure 8 unread (it may be under a hand, or be this very patch): no ball
    assert read_ball(settings, story, 9.5, 12.0, DICT, 32, 1) == []
    assert read_ball(settings, story, 9.5, 12.0, DICT, 32, 1, frozenset({3, 17})) == []
    # figure 8 read at another place: this patch is not 8, and it is the ball
    got = read_ball(settings, story, 9.5, 12.0, DICT, 32, 1, frozenset({8}))
    assert [d.marker for d in got] == [32]
    # halfway between the two it is neither, whatever else was read
    assert read_ball(settings, [_candidate(_between(0.5))], 9.5, 12.0, DICT, 32, 1, frozenset({8})) == []


def _covered(marker: int, angle_deg: float, reach: float) -> np.ndarray:
    """A ball-sized cap (``marker``) drawn as :func:`_drawn_patch` draws it, the part beyond
    ``reach`` px from its middle along ``angle_deg`` under a hand's dark edge."""
    centre = np.array([36.0, 33.0])
    patch = _drawn_patch(marker, centre, 23.0, 36.0, blur=0.01).astype(np.float64)
    yy, xx = np.mgrid[0:patch.shape[0], 0:patch.shape[1]]
    a = math.radians(angle_deg)
    patch[(xx - centre[0]) * math.cos(a) + (yy - centre[1]) * math.sin(a) > reach] = 45.0
    return np.clip(cv2.GaussianBlur(patch, (0, 0), 3.1), 0, 255).astype(np.uint8)


def test_a_partly_covered_cap_is_never_read_as_the_ball_even_with_every_other_figure_read():
    settings = RescueSettings()
    for marker in range(32):
        others = frozenset(set(range(32)) - {marker})
        for angle, reach in ((0.0, 8.0), (90.0, 14.0), (200.0, 8.0), (300.0, 14.0)):
            story = [_candidate(_covered(marker, angle, reach))]
            assert read_ball(settings, story, 9.5, 12.0, DICT, 32, 1, others) == [], (marker, angle, reach)


def test_the_ids_that_cannot_be_the_ball():
    # 17 mm caps (and the 30 mm corners) cannot fit a 9.5 mm token's size: none stands against it
    small_ball = MarkerSet(ball_marker_mm=9.5, ball_token_mm=12.0)
    assert not_the_ball(small_ball, set()) == frozenset(small_ball.figure_ids) | frozenset(small_ball.corners.ids)
    # caps of the ball's size: only those read elsewhere, never the ball itself; ids outside the
    # set (33-39, 44-49) always stand
    same = MarkerSet(figure_marker_mm=9.0, cap_mm=12.0, ball_marker_mm=9.0, ball_token_mm=12.0)
    assert not_the_ball(same, {3, 8, 32, 40}) == frozenset({3, 8}) | {m for m in same.corners.ids
                                                                     if same.side_of(m) >= 1.25 * 9.0} | {40}
    assert not any(m in not_the_ball(same, {3, 8}) for m in (*range(33, 40), *range(44, 50)))


def test_the_ball_is_fitted_wherever_it_ranks_among_the_candidates_and_however_far_its_border_was_located():
    settings = RescueSettings()
    board = np.full((69, 69), 95, np.uint8)
    lines = np.where(np.indices((69, 69)).sum(axis=0) % 23 < 4, 220, 95).astype(np.uint8)
    junk = [_candidate(_drawn_patch(m, np.array([34.0, 34.0]), 10.0 * m, 36.0, blur=3.1), (10.0 * k, 0.0))
            for k, m in enumerate((5, 17, 31, 0, 12))]
    junk += [_candidate(board, (0.0, 10.0)), _candidate(cv2.GaussianBlur(lines, (0, 0), 2.0), (0.0, 20.0))]
    ball = _candidate(_drawn_patch(32, np.array([31.0, 37.0]), 31.0, 36.0, blur=3.1), (50.0, 50.0))
    # the ball's candidate seventh of eight, its border located on something a marker away
    off = replace(ball, quad=ball.quad + np.array([26.0, -22.0]))
    got = read_ball(settings, junk + [off, _candidate(board, (60.0, 60.0))], 9.5, 12.0, DICT, 32, 4)
    assert [d.marker for d in got] == [32]
    assert np.linalg.norm(got[0].center - np.array([31.0, 37.0]) * 1.35 / 6) < 0.35
    assert read_ball(settings, junk, 9.5, 12.0, DICT, 32, 4) == []


def test_a_ball_only_looked_at_is_read_from_its_patch_where_it_lies():
    """Seed 301's ball, 9.6 px across: drawn as a place only looked at (:func:`ball_patches`,
    the view's point for its true middle plus a third of a marker), it is read there; a place
    on the bare board beside it reads nothing."""
    scene = random_scene(301, BOARD, BALL, size=(1920, 1080), hand=False)
    image, truth = render(scene)
    setup = setup_for(scene, BOARD)
    gray = to_gray(image)
    settings = RescueSettings()
    view = search_view(setup.camera, BOARD, BALL, BALL.ball_height_mm, BALL.ball_marker_mm, settings.view_marker_px)
    t = truth[BALL.ball_id]
    at = view.view_points(t.corners_px.mean(axis=0)[None]) + np.array([[2.3, -1.0]])
    more = ball_patches(settings, gray, setup.camera, view, at, BALL.ball_marker_mm)
    assert len(more) == 1 and more[0].patch.shape == (69, 69)
    # the patch's middle is the place asked for
    c0 = (more[0].patch.shape[0] - 1) / 2
    mid = cv2.perspectiveTransform(np.array([[[c0, c0]]]), more[0].to_frame)[0, 0]
    assert np.linalg.norm(view.view_points(mid[None])[0] - at[0]) < 0.05
    got = read_ball(settings, [], BALL.ball_marker_mm, BALL.ball_token_mm, DICT, BALL.ball_id, 4, more=more)
    assert [d.marker for d in got] == [BALL.ball_id]
    assert np.linalg.norm(got[0].center - t.corners_px.mean(axis=0)) < 1.0
    beside = ball_patches(settings, gray, setup.camera, view, at + np.array([[25.0, 0.0]]), BALL.ball_marker_mm)
    assert read_ball(settings, [], BALL.ball_marker_mm, BALL.ball_token_mm, DICT, BALL.ball_id, 4, more=beside) == []


def test_more_places_leave_out_those_looked_at():
    image = np.full((120, 120), 100, np.uint8)
    places = np.array([[20.0, 20.0], [60.0, 60.0], [100.0, 30.0]])
    got = more_places(lambda view, n: places[:n], image, DICT, 0, 7.0, 10, np.array([[61.0, 62.0]]))
    assert got.tolist() == [[20.0, 20.0], [100.0, 30.0]]
