"""The tablet's automatic steps on the real app (run by tests/ui_scenario.py in mode
``game:autoflow``; checked by tests/test_autoflow.py).

A Fublet match set up through the controller, the camera said to be on: the coach touches
"Keep And Run" and runs the carrier by hand, and the camera's sighting books the declaration
(the form closes by itself). Then the camera turns unsure and sees a figure move: the panel
asks, "Take the camera's" books it. Screenshots of both.
"""

from __future__ import annotations

from companion.commands import PlaceFigure
from companion.fublet import commands as c
from companion.fublet.components import Action, load_components, shipped_team
from companion.fublet.model import Phase
from companion.sightings import Sighting
from companion.teams import PlayerRef, Team

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731
HOME = {1: (1, 15), 2: (8, 4), 3: (8, 12), 4: (8, 19), 5: (8, 27), 6: (16, 4), 7: (16, 12), 8: (18, 19),
        10: (16, 27), 9: (22, 12), 11: (22, 19)}


def lined_up(scenario):
    """A Fublet match lined up through the controller (Away kicks off, #8 on the ball), the
    camera said to be on, the live screen shown: a generator of settle steps for play()."""
    ctl = scenario.app.controller
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
    scenario.app.show("live")
    yield "settle"
    yield "settle"
    assert scenario.state.phase is Phase.DECLARATION, ctl.view.error


def play(scenario):
    ctl = scenario.app.controller
    yield from lined_up(scenario)
    s = scenario.state
    board = ctl.view.board

    # Keep and run: one touch, then the carrier run by hand; the camera books the declaration.
    scenario.press("Keep And Run")
    yield "settle"
    yield "settle"
    assert scenario.screen().mode == "target" and ctl.view.expecting == A(8), ctl.view
    scenario.screenshot("live_run_declared")
    here = s.players[A(8)].ms
    to = (here[0] - 2, here[1])
    ctl.sighting(Sighting(A(8), *board.ms_center_mm(to), 180.0))
    yield "settle"
    yield "settle"
    s = scenario.state
    assert s.declaration is not None and s.declaration.action is Action.KEEP_AND_RUN, ctl.view.error
    assert scenario.screen().mode == "", "the form stayed open after the camera finished it"
    scenario.screenshot("live_run_booked")

    # The camera unsure: a move seen is asked, one touch takes it.
    for _ in range(12):   # on to a movement phase
        s = scenario.state
        if s.phase is Phase.MOVEMENT or not ctl.view.pending:
            break
        head = ctl.view.pending[0]
        if head.kind == "dice":
            ctl.roll_keypad(head, "11" if head.dice.kinds and len(head.dice.kinds) == 2 else "1")
        elif head.kind == "choice":
            ctl.choose(head.id, head.options[0])
        else:
            break
        yield "settle"
    s = scenario.state
    assert s.phase is Phase.MOVEMENT, (s.phase, ctl.view.pending, ctl.view.error)
    ctl.set_health("camera", "degraded", "corner markers hidden")
    mover = H(7)
    spot = s.players[mover].ms
    dest = (spot[0] + 2, spot[1])
    ctl.sighting(Sighting(mover, *board.ms_center_mm(dest), 0.0))
    yield "settle"
    yield "settle"
    assert ctl.view.proposals and scenario.state.players[mover].ms == spot, ctl.view.error
    scenario.screenshot("live_camera_asks")
    scenario.press("Take the camera's")
    yield "settle"
    yield "settle"
    assert scenario.state.players[mover].ms == dest and not ctl.view.proposals, ctl.view.error
    scenario.screenshot("live_camera_taken")
