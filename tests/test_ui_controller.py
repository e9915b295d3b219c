"""The tablet's controller without a window: commands run on its worker, views come out."""

from __future__ import annotations

import threading


from companion.fublet import commands as c
from companion.fublet.components import Action, load_components, shipped_team
from companion.fublet.model import Phase
from companion.teams import PlayerRef, Team
from ui.controller import Controller

from tests.view_log import HANG, ViewLog

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
    assert path.endswith(".sqlite") and any(line.startswith("Opening roll") for line in ctl.view.log)
    log = ctl.view.log
    state = ctl.view.state
    ctl.close()
    again = Controller(threaded=False, data_dir=tmp_path)
    again.resume()
    assert again.view.state == state and again.view.path == path
    assert again.view.log == log   # the same log after a resume
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
    from firmware_bridge.sim import TraySim

    views = ViewLog()   # every published view: a refusal republished over cannot be missed
    ctl = Controller(post=views, threaded=True, data_dir=tmp_path)
    ctl.new_match(create(), seed=2)
    ctl.wait()
    with TraySim(seed=4) as sim:
        ctl.start_tray(str(sim.link))
        views.wait(lambda v: v.tray == "ok", what="with the tray connected")
        refusals = views.mark()
        sim.roll("scatter")            # nobody waits for a d8: refused with the rules' words
        sim.roll("home", [0, 7])       # the opening roll wants one d10 each: refused too
        assert sim.wait_settled(2, HANG)
        views.wait(lambda v: "needs 1d10" in v.error, since=refusals, what="refusing two d10 for one")
        sim.roll("home-black", [7])    # one die each: the opening roll
        sim.roll("away-black", [3])
        assert sim.wait_settled(4, HANG)
        picking = views.wait(lambda v: v.phase is Phase.BOARD_PICK, since=refusals, what="in the board pick")
        assert picking.state.first_picker is Team.HOME
        rolls = [e for e in ctl.match.events if getattr(e.payload, "roll", None) is not None]
        assert [d.face for e in rolls for d in e.payload.roll.dice] == [7, 3], rolls   # the refused ones left none
        assert all(e.source.value == "tray" and e.payload.roll.device.startswith("tray SIM-0001") for e in rolls)
        ctl.close()
    assert any("Dice tray SIM-0001 connected" in line for line in ctl.view.log)


def test_a_tray_let_go_of_is_off_not_lost(tmp_path):
    # The demo's Stop: the tablet lets go of the tray, then the tray is unplugged.
    from firmware_bridge.sim import TraySim

    views = ViewLog()
    ctl = Controller(post=views, threaded=True, data_dir=tmp_path)
    ctl.new_match(create(), seed=2)
    ctl.wait()
    sim = TraySim(seed=4)
    sim.start()
    ctl.start_tray(str(sim.link))
    views.wait(lambda v: v.tray == "ok", what="with the tray connected")
    unplugged = []
    ctl.release_tray(then=lambda: (sim.stop(), unplugged.append(True)))
    ctl.wait()   # the release, then the pump of what the tray's thread said as it ended
    ctl.wait()
    assert unplugged and ctl.view.tray == "off"
    assert not [line for line in ctl.view.log if "lost" in line], ctl.view.log
    ctl.close()


def test_undo_right_after_start_keeps_the_match(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=1)
    teams = ctl.view.summary.teams
    assert ctl.view.can_undo == 0
    ctl.undo()
    assert ctl.view.active and ctl.view.summary.teams == teams
    assert "Nothing to undo" in ctl.view.error
    ctl.close()


def test_undo_and_redo_without_a_match_say_what_to_do(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.undo()
    assert "start a new match" in ctl.view.error
    ctl.redo()
    assert "start a new match" in ctl.view.error
    ctl.close()


def test_an_unusable_data_folder_is_said_on_screen_and_keeps_the_match_in_play(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=1)
    playing = ctl.match
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where the data folder should be")
    ctl.data_dir = blocker
    ctl.new_match(create(), seed=2)
    error = ctl.view.error
    assert "Cannot write to the data folder" in error and "--data-dir" in error, error
    assert ctl.match is playing and ctl.view.active   # the match in play goes on
    ctl.close()


def test_a_damaged_journal_on_resume_is_said_and_keeps_the_match_in_play(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=1)
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a journal at all" * 50)
    ctl.resume(bad)
    assert ctl.view.error and "bad.sqlite" in ctl.view.error
    assert ctl.view.active
    ctl.close()


def test_each_roll_and_each_decision_reaches_the_log_as_it_arrives(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=5)
    first = ctl.view.pending[0]
    ctl.roll_keypad(first, "7")
    # One coach has rolled: the value is shown at once, not when both have.
    assert ctl.view.log[-1] == "Touchline Rovers rolled black 7 (keypad)", ctl.view.log
    ctl.roll_keypad(ctl.view.pending[0], "3")
    picker = ctl.view.pending[0].team
    ctl.submit(c.ChooseBoard(picker, "high_short_offensive"))
    assert ctl.view.log[-1] == "Board chosen: Home; tactical board high short offensive", ctl.view.log
    assert not any(line.startswith("Dice rolled") for line in ctl.view.log)
    ctl.close()


def test_a_dice_tray_that_cannot_be_reached_is_said_in_the_log(tmp_path):
    views = ViewLog()
    ctl = Controller(post=views, threaded=True, data_dir=tmp_path)
    ctl.new_match(create(), seed=1)
    ctl.start_tray(str(tmp_path / "no-such-port"))
    said = views.wait(lambda v: any(line.startswith("Dice tray:") for line in v.log), what="saying the tray is missing")
    lines = [line for line in said.log if line.startswith("Dice tray:")]
    assert "keypad" in lines[0] and said.tray == "lost", said.log
    ctl.close()


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
