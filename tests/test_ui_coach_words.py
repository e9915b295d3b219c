"""A coach's words (issue 29, item 5): places as the board shows them (ui/places.py), never as
coordinates; every abbreviation and card mark explained (ui/glossary.py); no file names or
code in the rules panel's readings (ui/words.py ``for_a_coach``) or in the notes on the box's
values; a choice said as its question and its answer. Pure Python: no window."""

from __future__ import annotations

import re

import pytest

from benchmarks.driver import AutoDriver as FubletDriver
from benchmarks.football_leader_driver import AutoDriver as FootballLeaderDriver
from benchmarks.fussball_liga_driver import LigaDriver
from benchmarks.futboard_driver import FutboardDriver
from ui.controller import Controller, decision_line
from ui.glossary import bar_terms, card_marks, marks_line, terms, terms_in
from ui.places import Tags, has_place, places_for
from ui.words import FILE_WORDS, Names, for_a_coach

DRIVERS = {
    "fublet": lambda: FubletDriver.new(seed=1),
    "football_leader": lambda: FootballLeaderDriver.new(seed=1),
    "fussball_liga": lambda: LigaDriver.new(seed=1),
    "futboard": lambda: FutboardDriver.new(seed=1),
}
COORDINATES = re.compile(r"\(-?\d+, ?-?\d+\)|\b(?:square|space|PS|MS) -?\d+, ?-?\d+")


def board_of(game: str):
    driver = DRIVERS[game]()
    driver.play(commands=4)   # the match created: its board drawn
    m = driver.match
    board = m.ruleset.board(m.state)
    assert board is not None
    return board


def test_a_place_on_the_live_screen_is_a_letter_ringed_on_the_board():
    places = places_for("fussball_liga", board_of("fussball_liga"))
    tags = Tags()
    said = places.on_board("#11: kick (17, 12) -> (13, 12); the ball rebounds to (17, 12)", tags)
    assert said == "#11: kick square A -> square B; the ball rebounds to square A"
    marks = dict(tags.marks())
    # Each letter rings the square the rules named, in the board's drawing millimetres.
    assert marks["A"] == tuple(places.geometry.cell_rect((17, 12)))
    assert marks["B"] == tuple(places.geometry.cell_rect((13, 12)))


def test_fublet_pass_squares_ring_their_four_movement_squares():
    board = board_of("fublet")
    places = places_for("fublet", board)
    tags = Tags()
    assert places.on_board("the ball reaches PS (17, 10)", tags) == "the ball reaches pass square A"
    (_letter, (x0, y0, x1, y1)), = tags.marks()
    n = board.ms_cols // board.ps_cols
    assert (x0, y0) == places.geometry.cell_rect((17 * n, 10 * n))[:2]
    assert (x1, y1) == places.geometry.cell_rect((17 * n + n - 1, 10 * n + n - 1))[2:]
    # Bare pairs after a word that makes them a place ("square 30, 14"), and nothing else.
    assert places.on_board("Figure placed: #9; square 30, 14", tags) == "Figure placed: #9; square B"
    assert places.on_board("Opening roll: Home 7, Away 3", tags) == "Opening roll: Home 7, Away 3"


def test_the_log_says_where_a_place_lies_in_words():
    places = places_for("fussball_liga", board_of("fussball_liga"))
    line = places.in_words("#11 moves to (1, 10) (3 points)")
    assert line == "#11 moves to a square by the left goal (3 points)", line
    assert "right half, near the top touch line" in places.in_words("Off-side: #9 at (20, 19)")
    assert "outside the field" in places.in_words("Correction: #2 placed at (-1, 5)")
    # A kick's or a run's way: how far and which way.
    assert places.in_words("#11: shot (17, 12) -> (13, 12) to #9") == "#11: shot 4 squares towards the left goal to #9"


def test_football_leader_keeps_the_names_its_board_prints():
    places = places_for("football_leader", board_of("football_leader"))
    tags = Tags()
    assert places.on_board("the ball is lost in (0, 0)", tags) == "the ball is lost in A1"
    assert tags.marks() == []   # a printed name needs no ring


def test_the_goal_line_at_x_0_is_said_as_the_board_shows_it():
    places = places_for("fussball_liga", board_of("fussball_liga"))
    said = places.on_board("Away: which goal do you defend in the first half? (low: the goal line at x = 0)", Tags())
    assert "x = 0" not in said and "left of the board" in said


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_a_scripted_match_says_no_coordinates(game):
    """Every log line, outcome and request of a whole scripted match, read as the live screen
    reads them: no coordinate left."""
    driver = DRIVERS[game]()
    seen: list[str] = []
    for _ in range(40):
        driver.play(commands=8)
        summary = driver.match.summary()
        names = Names.of_summary(summary)
        places = places_for(game, driver.match.ruleset.board(driver.match.state))
        tags = Tags()
        seen += [places.on_board(names.line(str(r.get("text", ""))), tags) for r in summary.get("pending", [])]
        seen.append(places.on_board(names.line(str(summary.get("last_outcome") or "")), tags))
        if driver.over:
            break
    m = driver.match
    rules, state = m.ruleset, m.ruleset.initial_state()
    for event in m.events:
        seen += Controller._lines(rules, state, event)
        state = rules.evolve(state, event)
    assert len(seen) > 100
    bad = [line for line in seen if COORDINATES.search(line) or has_place(line)]
    assert not bad, f"{game}: {len(bad)} lines speak coordinates, e.g.:\n" + "\n".join(bad[:10])
    assert not [line for line in seen if "Choice made" in line or "option " in line]


def test_a_choice_is_said_as_its_question_and_answer():
    class Made:   # a game's ChoiceMade: the request it answers and the option taken
        request, option = "c3", "home"
    assert decision_line(Made(), "Who won the toss?") == "Who won the toss? Home"
    assert decision_line(Made()) == "Chosen: Home"
    Made.option = "kick_off"
    assert decision_line(Made()) == "Chosen: Kick off"


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_every_abbreviation_and_mark_has_its_words(game):
    keys = {t.key for t in terms(game)}
    assert {"Y", "R", "place"} <= keys
    for term in terms(game):
        assert term.name and len(term.text) > 20, term
    if game in ("fublet", "fussball_liga"):
        assert "MP" in keys
    found = [t.key for t in terms_in(game, "touch the target PS.", "Home MP 12/18", "4 MS left")]
    assert found == (["PS", "MS", "MP"] if game == "fublet" else ["MP"] if game == "fussball_liga" else [])


def test_a_card_and_a_bar_say_what_their_marks_count():
    assert [t.name for t in card_marks("football_leader", "8YYR")] == ["Yellow card", "Red card"]
    assert marks_line("football_leader", "8YYR") == "YY: 2 yellow cards; R: red card"
    assert marks_line("fublet", "7~") == "~: exhausted"
    assert marks_line("fublet", "7") == ""
    assert [t.key for t in bar_terms("football_leader", "Home: deck 42, hand 5, moved 1/5")] == \
        ["deck", "hand", "moved"]
    assert [t.key for t in bar_terms("fussball_liga", "Home MP 12/18")] == ["MP"]


def test_the_rules_panel_reads_without_file_names_or_code():
    from companion.reference import readings_by_id

    readings = readings_by_id()
    developer = [r for r in readings.values() if FILE_WORDS.search(r.text)]
    assert len(developer) > 10   # the notes are written for the project: there is work to do
    for r in developer:
        said = for_a_coach(r.text)
        assert not FILE_WORDS.search(said), (r.id, said)
        assert len(said) > 40, (r.id, said)
    lv6 = for_a_coach(readings["LV6"].text)
    assert "costs" not in lv6.split(". ")[-1] and lv6.endswith("Enter your box's values."), lv6


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_the_notes_on_the_box_name_the_box_editor_never_a_file(game):
    driver = DRIVERS[game]()
    driver.play(commands=4)
    notes = driver.match.summary().get("placeholders") or []
    assert notes, f"{game}: no placeholder notes to read"
    for note in notes:
        assert not FILE_WORDS.search(note) and "_" not in note, note
        assert "box editor" in note, note
