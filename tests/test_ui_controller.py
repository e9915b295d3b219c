"""The tablet's controller without a window: commands run on its worker, views come out."""

from __future__ import annotations

import threading

import pytest

from companion.dice import DieKind
from companion.fublet import commands as c
from companion.fublet.components import Action, load_components, shipped_team
from companion.fublet.model import Phase
from companion.ruleset import Request
from companion.dice import DiceSpec
from companion.teams import PlayerRef, Team
from ui.controller import Controller, keypad_roll

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731


def create():
    return c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components())


def test_keypad_reads_two_digits_as_black_tens_and_white_units():
    req = Request("t1", "dice", Team.HOME, "x", dice=DiceSpec((DieKind.D10, DieKind.D10), Team.HOME))
    roll = keypad_roll(req, "47")
    assert [(d.die.colour, d.face, d.die.owner) for d in roll.dice] == [("black", 4, Team.HOME), ("white", 7, Team.HOME)]
    with pytest.raises(ValueError, match="two digits"):
        keypad_roll(req, "4")
    d8 = Request("t2", "dice", None, "x", dice=DiceSpec((DieKind.D8,)))
    assert keypad_roll(d8, "3").faces == (3,)
    with pytest.raises(ValueError, match="shows 1..8"):
        keypad_roll(d8, "9")


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
    assert again._dice.seed == 77 and again._dice.count == 1
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
