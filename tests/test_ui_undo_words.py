"""Undo and Redo name what they take back and bring back: the step's own log line, a figure by
number and name, a team by one word, after a resume too; cut to fit a small button."""

from __future__ import annotations

from companion.fublet import commands as c
from companion.fublet.components import load_components, shipped_team
from ui.controller import Controller, short_names, step_words


def create():
    return c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components())


def test_undo_and_redo_name_the_step_and_keep_naming_it_after_a_resume(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=3)
    assert (ctl.view.undo_what, ctl.view.redo_what) == ("", "")   # the match's creation is never undone
    ctl.roll_software(ctl.view.pending[0])
    rolled = ctl.view.log[-1]
    what = ctl.view.undo_what
    assert what.startswith("roll ") and rolled.startswith("Touchline Rovers rolled"), (what, rolled)
    assert rolled.removesuffix(" (software dice)").endswith(what.removeprefix("roll "))
    ctl.undo()
    assert (ctl.view.undo_what, ctl.view.redo_what) == ("", what)
    ctl.redo()
    assert (ctl.view.undo_what, ctl.view.redo_what) == (what, "")
    ctl.undo()
    ctl.close()
    again = Controller(threaded=False, data_dir=tmp_path)
    again.resume()
    assert again.view.redo_what == what   # worded again from the journal's undone step
    again.redo()
    assert again.view.undo_what == what
    again.close()


def test_a_step_is_said_short():
    teams = ("Touchline Rovers", "Harbour Athletic")
    assert step_words(["Touchline Rovers #7 Gus passes to #9 Jett (camera)"], teams) == "#7 Gus passes to #9 Jett"
    assert step_words(["Harbour Athletic rolled 7 (keypad)", "the keeper saves"], teams) == "roll 7"
    assert step_words(["Harbour Athletic #1 Quin saves from Touchline Rovers #9 Jett"], teams) == \
        "#1 Quin saves from #9 Jett"
    assert step_words(["Turn passed: Harbour Athletic"], teams) == "Turn passed: Harbour"
    assert step_words([], teams) == "last step" and step_words(["", " - "], teams) == "last step"
    long = step_words(["Figure placed: Touchline Rovers #1 Keeper Ash; square 1, 15; facing 0"], teams)
    assert long == "Figure placed: #1 Keeper Ash; square 1,…" or (len(long) <= 40 and long.endswith("…")), long
    assert short_names(("SV Rotstein", "FC Gruenwald")) == {"SV Rotstein": "Rotstein", "FC Gruenwald": "Gruenwald"}
    assert short_names(("Touchline Rovers", "Touchline Lions")) == {}   # one word would not tell them apart


def test_the_button_fits_its_words_in_two_lines_and_keeps_its_verb():
    from ui.widgets.step_button import fitted

    def measure(text: str) -> float:   # 10 px a character
        return 10.0 * len(text)
    assert fitted("Undo", "", 150, measure) == "Undo"
    assert fitted("Undo", "Touchline rolled 7", 150, measure) == "Undo: Touchline rolled 7"
    cut = fitted("Undo", "#7 Gus passes to #9 Jett from the halfway line", 150, measure)
    assert cut.startswith("Undo: #7 Gus") and cut.endswith("…")
    assert fitted("Undo", "Supercalifragilisticexpialidocious word", 100, measure) == "Undo"
