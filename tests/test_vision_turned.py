"""Rescue candidates looked at again turned every way (vision/turned.py), and the rescue stage's
bounds for small markers: 9 mm markers in blurred frames, 6-9 px across, whose turn the first
look measured wrong are read where they are (seeded rendered scenes), and never as another id."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.config import MarkerSet
from vision.detect import to_gray
from vision.plane import find_markers
from vision.rescue import RescueSettings, read_patches, rescue, search_view
from vision.synth import random_scene, render
from vision.turned import look_turned

from test_vision_plane import setup_for
from test_vision_rescue import BOARD, where_truth_says

SMALL = MarkerSet(figure_marker_mm=9.0, cap_mm=12.0, ball_marker_mm=9.5, ball_token_mm=12.0)
# the stage as it was before: no second look turned, 40 patches, 3 per unread id, weak candidates dropped
BEFORE = RescueSettings(turned_tries=0, ball_tries=0, max_patches=40, per_unread=3.0, like_share=0.4)


def _scene(seed: int):
    scene = random_scene(seed, BOARD, SMALL, size=(1920, 1080), hand=False)
    image, truth = render(scene)
    setup, gray = setup_for(scene, BOARD), to_gray(image)
    visible = {m for m, t in truth.items() if t.seen and SMALL.kind_of(m) in ("figure", "ball")}
    return setup, gray, truth, visible


@pytest.mark.parametrize("seed", [13, 15])
def test_small_markers_whose_turn_was_measured_wrong_are_read_when_looked_at_again(seed):
    """Blurred frames (sigma 0.5-0.6 px) in which the main search reads half of the 9 mm
    markers or fewer: with the second look turned every way every visible marker is read, where
    it is; without it two are not."""
    setup, gray, truth, visible = _scene(seed)
    found = find_markers(setup, gray)
    main = {d.marker for d in found} & visible
    assert len(main) <= 0.6 * len(visible)
    extra = rescue(setup, gray, found)
    assert where_truth_says(truth, extra) == []
    assert main | {d.marker for d in extra} == visible
    unturned = rescue(setup, gray, found, replace(RescueSettings(), turned_tries=0, ball_tries=0))
    assert len(main | {d.marker for d in unturned}) <= len(visible) - 2


def test_a_frame_of_mostly_unread_small_markers_gets_patches_enough():
    """A blurred frame (sigma 0.85 px) of 9 mm markers, the main search reading 5 of 33: 40
    patches and weak candidates dropped left markers unlooked-at that the stage now reads."""
    setup, gray, truth, visible = _scene(7)
    found = find_markers(setup, gray)
    main = {d.marker for d in found} & visible
    assert len(main) <= 5
    now = rescue(setup, gray, found, replace(RescueSettings(), turned_tries=0, ball_tries=0))
    before = rescue(setup, gray, found, BEFORE)
    assert where_truth_says(truth, now) == []
    assert len({d.marker for d in now} & visible) > len({d.marker for d in before} & visible)
    assert len(main | {d.marker for d in rescue(setup, gray, found)}) >= 0.85 * len(visible)


def test_patches_drawn_turned_wrong_that_read_nothing_read_themselves_looked_at_again():
    """Each visible cap's patch drawn turned 40 degrees off its marker: some read nothing (the
    stage's own second look, turned about where the marker was located, mends most). Looked at
    again at four turns, those are read, each as itself and where it is; an id not asked for is
    never given."""
    setup, gray, truth, visible = _scene(13)
    ms, cam, s = setup.markers, setup.camera, RescueSettings()
    view = search_view(cam, BOARD, ms, ms.cap_height_mm, ms.figure_marker_mm, s.view_marker_px)
    figs = sorted(m for m in visible if ms.kind_of(m) == "figure")
    centres = view.view_points(np.array([truth[m].corners_px.mean(axis=0) for m in figs]))
    turn = []  # the marker's top edge's direction on the board, as a patch (v along -y) sees it
    for m in figs:
        pts = cam.to_plane(truth[m].corners_px.astype(np.float64), ms.cap_height_mm)
        e = pts[1] - pts[0]
        turn.append(-math.atan2(e[1], e[0]))
    wrong = (np.array(turn) + math.radians(40.0)) % (math.pi / 2)
    got, story = read_patches(s, gray, cam, view, centres, ms.figure_marker_mm, ms.cap_mm, ms.dictionary,
                              set(figs), wrong)
    assert where_truth_says(truth, got) == []
    unread = set(figs) - {d.marker for d in got}
    assert len(unread) >= 3
    story = [c for c in story if c.marker < 0]
    more, seen = look_turned(s, gray, cam, view, story, ms.figure_marker_mm, ms.cap_mm, ms.dictionary, unread,
                             len(story), 4)
    assert len(seen) <= 4 * len(story)
    assert where_truth_says(truth, more) == []
    assert {d.marker for d in more} <= unread
    assert len({d.marker for d in more}) >= 0.5 * len(unread)
    some = set(sorted(unread)[:1])
    fewer, _ = look_turned(s, gray, cam, view, story, ms.figure_marker_mm, ms.cap_mm, ms.dictionary, some,
                           len(story), 4)
    assert {d.marker for d in fewer} <= some
    assert look_turned(s, gray, cam, view, story, ms.figure_marker_mm, ms.cap_mm, ms.dictionary, set(), 9, 4) == ([], [])


def test_a_best_id_just_short_of_its_margin_is_read_again_on_a_finer_grid(monkeypatch):
    """The same blurred frame: markers whose best id fell short of the margin on the coarse grid
    of nudges (a sixth of a cell, 3 degrees) read on a finer, wider one, every id at its own best
    place and the margin as strict; two more are read, each as itself and where it is."""
    from vision import footprint

    setup, gray, truth, visible = _scene(7)
    found = find_markers(setup, gray)
    fine = rescue(setup, gray, found)
    monkeypatch.setattr(footprint, "_FINE_SHORT", 1.0)  # none read again
    coarse = rescue(setup, gray, found)
    assert where_truth_says(truth, fine) == []
    assert len({d.marker for d in fine} & visible) >= len({d.marker for d in coarse} & visible) + 2


def test_a_candidate_read_as_two_ids_at_two_turns_is_neither(monkeypatch):
    """Turned four ways, one candidate reads as 5 at one turn and as 9 (an id not asked for) at
    another: neither is given; another candidate read as 7 at two turns is 7, once."""
    import vision.turned
    from vision.detect import Detection
    from vision.rescue import Candidate

    s = RescueSettings()
    small = np.diag([0.2, 0.2, 1.0])  # a cell of 1.2 frame px: a small marker, whose turn may be off
    story = [Candidate((10.0 * k, 0.0), np.zeros((69, 69), np.uint8), small, np.zeros((4, 2)), False, -1, 40.0)
             for k in range(2)]
    reads = [5, -1, 9, -1, 7, 7, -1, -1]  # per patch: candidate-major, four turns each
    sq = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float32)

    def fake(settings, gray, camera, view, centres, marker_mm, cap_mm, dictionary, accept, turns=None):
        assert len(centres) == 8 and turns is not None and {5, 7, 9} <= accept
        got = [Detection(m, sq + 30.0 * (i // 4)) for i, m in enumerate(reads) if m >= 0]
        return got, [replace(story[i // 4], marker=m) for i, m in enumerate(reads)]

    monkeypatch.setattr(vision.turned, "read_patches", fake)
    got, seen = look_turned(s, None, None, None, story, 9.0, 12.0, "DICT_4X4_50", {5, 7}, 2, 4)
    assert [d.marker for d in got] == [7]
    assert [c.marker for c in seen] == [-1, -1, -1, -1, 7, 7, -1, -1]
