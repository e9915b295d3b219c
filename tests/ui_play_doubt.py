"""A camera sighting the tracker doubts, on the real app (run by tests/ui_scenario.py in mode
``game:doubt``; checked by tests/test_ui_camera_relay.py).

A Fublet match lined up, the camera on: the tracker reports Away #9 settled in Home #8's square
while Home #8's marker does not read (a sighting with a doubt). Nothing moves; the panel asks,
and "Drop it" (one touch) leaves the books as they were. Screenshots of both.
"""

from __future__ import annotations

from companion.sightings import Sighting
from ui_play_autoflow import HOME, A, lined_up  # the same lined-up match

DOUBT = "the rules have Home #8 there, whose marker does not read: covered, or moved?"


def play(scenario):
    ctl = scenario.app.controller
    yield from lined_up(scenario)
    s = scenario.state
    board = ctl.view.board
    away9 = s.players[A(9)].ms
    ctl.sighting(Sighting(A(9), *board.ms_center_mm(HOME[8]), 180.0), DOUBT)
    yield "settle"
    yield "settle"
    (proposal,) = ctl.view.proposals
    assert DOUBT in proposal.text and scenario.state.players[A(9)].ms == away9, ctl.view.error
    scenario.screenshot("live_camera_doubt")
    scenario.press("Drop it")
    yield "settle"
    yield "settle"
    assert not ctl.view.proposals and scenario.state.players[A(9)].ms == away9, ctl.view.error
    scenario.screenshot("live_camera_doubt_dropped")
