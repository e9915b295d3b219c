"""Names, not ids: what the tablet calls teams, dice, cameras, options and a saved match."""

from __future__ import annotations

from companion.fublet import commands as c
from companion.fublet.components import load_components, shipped_team
from ui.controller import Controller
from ui.words import CAMERA, DICE, journal_line, match_line, named, option_name, phase_name, value_of


def test_a_saved_match_is_named_by_its_teams_score_and_minute(tmp_path):
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()), seed=1)
    path = ctl.last_journal()
    ctl.close()
    assert journal_line(path) == "Touchline Rovers 0-0 Harbour Athletic, 0'"
    assert match_line({"teams": {"home": "A", "away": "B"}, "score": {"home": 2, "away": 1}, "minute": 12}) \
        == "A 2-1 B, 12'"
    assert match_line({"teams": {"home": "A", "away": "B"}, "score": {"home": 2, "away": 1},
                       "phase": "over"}).endswith("full time")


def test_a_damaged_journal_still_gets_a_line(tmp_path):
    bad = tmp_path / "fublet-2026.sqlite"
    bad.write_bytes(b"garbage" * 10)
    assert journal_line(bad) == "fublet-2026"


def test_values_and_names_go_both_ways():
    for table in (DICE, CAMERA):
        for value, name in table.items():
            assert named(table, value) == name and value_of(table, name) == value
    assert option_name("kick_off") == "Kick off" and option_name("gold-4-11") == "Gold-4-11"
    assert phase_name("tactical_movement") == "Tactical movement"
