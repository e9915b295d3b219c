"""The tablet's controller without a window: commands run on its worker, views come out."""

from __future__ import annotations

import threading


from companion.fublet import commands as c
from companion.fublet.components import Action, load_components, shipped_team
from companion.fublet.model import Phase
from companion.teams import PlayerRef, Team
from ui.controller import Controller

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731


def create():
    return c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components())


def test_the_keypad_reads_two_digits_as_black_tens_and_white_units(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=5)
    for req, digits in zip(ctl.view.pending, ("7", "3")):
        ctl.roll_keypad(req, digits)
    picker = ctl.view.pending[0].team
    ctl.submit(c.ChooseBoard(picker, "high_short_offensive"))
    ctl.submit(c.ChooseBoard(picker.other, "low_short_defensive"))
    ctl.submit(c.KickOff(A(8)))
    ctl.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6), distance=5))
    req = ctl.view.pending[0]
    ctl.roll_keypad(req, "4")
    assert "tens first" in ctl.view.error and ctl.view.state.phase is Phase.OUTCOME
    ctl.roll_keypad(req, "47")
    rolled = [e.payload.roll for e in ctl.match.events if getattr(e.payload, "roll", None) is not None][-1]
    assert [(d.die.colour, d.face, d.die.owner) for d in rolled.dice] == [("black", 4, Team.AWAY),
                                                                         ("white", 7, Team.AWAY)]
    assert rolled.device == "keypad" and ctl.view.error == ""
    ctl.close()


def test_a_match_played_through_the_controller_is_journaled_and_resumes(tmp_path):
    views = []
    ctl = Controller(post=views.append, threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=5)
    assert ctl.view.active and ctl.view.pending[0].kind == "dice"
    for req in ctl.view.pending:
        ctl.roll_software(req)
    picker = ctl.view.pending[0].team
    ctl.submit(c.ChooseBoard(picker, "high_short_offensive"))
    ctl.submit(c.ChooseBoard(picker.other, "low_short_defensive"))
    assert ctl.view.state.phase is Phase.KICK_OFF
    ctl.submit(c.ChooseBoard(picker, "wing_offensive"))  # refused: shown, nothing changes
    assert "kick-off" in ctl.view.error or "picked" in ctl.view.error
    path = ctl.view.path
    assert path.endswith(".sqlite") and ctl.view.log[0].startswith("Opening roll")
    state = ctl.view.state
    ctl.close()
    again = Controller(threaded=False, data_dir=tmp_path)
    again.resume()
    assert again.view.state == state and again.view.path == path
    assert again.view.log[0].startswith("Opening roll")
    again.close()


def test_software_dice_continue_their_sequence_after_resume(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=77)
    ctl.roll_software(ctl.view.pending[0])
    ctl.close()
    again = Controller(threaded=False, data_dir=tmp_path)
    again.resume()
    assert again.software.dice.seed == 77 and again.software.dice.count == 1
    again.close()


def test_commands_run_off_the_calling_thread(tmp_path):
    seen = []
    posted = threading.Event()

    def post(view):
        seen.append(threading.current_thread().name)
        posted.set()

    ctl = Controller(post=post, threaded=True, data_dir=tmp_path)
    ctl.new_match(create())
    ctl.wait()
    assert posted.is_set() and all(name == "touchline-commands" for name in seen)
    assert ctl.view.active
    ctl.close()


def test_undo_and_redo_rebuild_the_log(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=1)
    for req in ctl.view.pending:
        ctl.roll_software(req)
    lines = ctl.view.log
    ctl.undo()
    assert ctl.view.can_redo == 1 and len(ctl.view.log) < len(lines)
    ctl.redo()
    assert ctl.view.log == lines
    ctl.close()


def test_no_match_to_resume_says_so(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.resume()
    assert "no match to resume" in ctl.view.error
    ctl.close()


def test_rolls_from_a_simulated_tray_reach_the_match_through_the_controller(tmp_path):
    import time

    from firmware_bridge.sim import TraySim

    views = []
    ctl = Controller(post=views.append, threaded=True, data_dir=tmp_path)
    ctl.new_match(create(), seed=2)
    ctl.wait()
    with TraySim(seed=4) as sim:
        ctl.start_tray(str(sim.link))
        deadline = time.monotonic() + 20
        while ctl.view.tray != "ok" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ctl.view.tray == "ok", ctl.view.log
        sim.roll("scatter")            # nobody waits for a d8: refused with the rules' words
        sim.roll("home", [0, 7])       # the opening roll wants one d10 each: refused too
        assert sim.wait_settled(2, 20)
        deadline = time.monotonic() + 20
        while "needs" not in ctl.view.error and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "needs 1d10" in ctl.view.error
        sim.roll("home-black", [7])    # one die each: the opening roll
        sim.roll("away-black", [3])
        assert sim.wait_settled(4, 20)
        deadline = time.monotonic() + 20
        while ctl.view.state.phase is not Phase.BOARD_PICK and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ctl.view.state.phase is Phase.BOARD_PICK and ctl.view.state.first_picker is Team.HOME
        rolls = [e for e in ctl.match.events if getattr(e.payload, "roll", None) is not None]
        assert all(e.source.value == "tray" and e.payload.roll.device.startswith("tray SIM-0001") for e in rolls)
        ctl.close()
    assert any("Dice tray SIM-0001 connected" in line for line in ctl.view.log)


def test_the_view_is_typed_and_carries_what_the_screen_draws_from(tmp_path):
    """Game, board, phase, who acts, open actions and device health come with the frozen view,
    from the match it was made of: a screen never reaches into the controller's match."""
    import dataclasses
    from pathlib import Path

    import pytest

    from ui.controller import Health, View

    ctl = Controller(threaded=False, data_dir=tmp_path)
    assert ctl.view.game == "" and ctl.view.camera is Health.OFF and ctl.view.tray is Health.OFF
    ctl.new_match(create(), seed=5)
    v = ctl.view
    rules = ctl.match.ruleset
    assert (v.game, v.ruleset, v.phase, v.over) == ("fublet", rules, Phase.OPENING_ROLL, False)
    assert v.board is rules.board(v.state) and v.actions == rules.open_actions(v.state)
    for req in v.pending:
        ctl.roll_software(req)
    v = ctl.view
    assert v.phase is Phase.BOARD_PICK and v.acting is v.pending[0].team and v.acting is not None
    assert [a.id for a in v.actions if a.id == "board"] == ["board"]
    ctl.set_health("camera", "lost", "unplugged")
    assert ctl.view.camera is Health.LOST and ctl.view.camera == "lost" and f"{ctl.view.camera}" == "lost"
    with pytest.raises(ValueError):
        ctl.set_health("tray", "fine")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctl.view.game = "futboard"  # type: ignore[misc]
    assert isinstance(ctl.view, View)
    live = (Path(__file__).resolve().parents[1] / "ui" / "screens" / "live.py").read_text(encoding="utf-8")
    assert "controller.match" not in live and ".match.ruleset" not in live
    ctl.close()
