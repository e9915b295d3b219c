"""A camera sighting the tracker doubts, on the real app (run by tests/ui_scenario.py in mode
``game:doubt``; checked by tests/test_ui_camera_relay.py).

A Fublet match lined up, the camera on: the tracker reports Away #9 settled in Home #8's square
while Home #8's marker does not read (a sighting with a doubt). Nothing moves; the panel asks,
and "Drop it" (one touch) leaves the books as they were. Screenshots of both.
"""

from __future__ import annotations

from companion.commands import PlaceFigure
from companion.fublet import commands as c
from companion.fublet.components import load_components, shipped_team
from companion.fublet.model import Phase
from companion.sightings import Sighting
from companion.teams import PlayerRef, Team

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731
HOME = {1: (1, 15), 2: (8, 4), 3: (8, 12), 4: (8, 19), 5: (8, 27), 6: (16, 4), 7: (16, 12), 8: (18, 19),
        10: (16, 27), 9: (22, 12), 11: (22, 19)}
DOUBT = "the rules have Home #8 there, whose marker does not read: covered, or moved?"


def play(scenario):
    app = scenario.app
    ctl = app.controller
    ctl.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()), seed=5)
    yield "settle"
    for req, digits in zip(ctl.view.pending, ("7", "3")):
        ctl.roll_keypad(req, digits)
    yield "settle"
    picker = ctl.view.state.first_picker
    ctl.submit(c.ChooseBoard(picker, "high_short_offensive"))
    ctl.submit(c.ChooseBoard(picker.other, "low_short_defensive"))
    ctl.submit_many([PlaceFigure(H(n), square=ms, facing=0) for n, ms in HOME.items()]
                    + [PlaceFigure(A(n), square=(47 - ms[0], 31 - ms[1]), facing=180) for n, ms in HOME.items()])
    ctl.submit(c.KickOff(A(8)))
    ctl.set_health("camera", "ok", "reading the board")
    app.show("live")
    yield "settle"
    yield "settle"
    s = scenario.state
    assert s.phase is Phase.DECLARATION, ctl.view.error
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
