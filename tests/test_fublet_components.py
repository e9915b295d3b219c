"""Fublet's box data: shipped files load and say they are placeholders; bad files are refused
with the file, the entry and the field named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.errors import DataFileError
from companion.fublet import components as comp
from companion.fublet.components import Action, Skill


def test_shipped_components_load_and_are_flagged_as_placeholders():
    c = comp.load_components()
    assert len(c.tactical_boards) == 10
    assert c.board.ps_cols * c.board.ps_rows == 384 and c.board.ms_per_ps == 2
    notes = c.placeholders()
    assert len(notes) == 4 and all("placeholder" in n for n in notes)
    for key in comp.shipped_teams():
        team = comp.shipped_team(key)
        assert team.placeholder and len(team.players) == 16 and len(team.starters) == 11


def test_every_board_has_every_action_and_the_bar_reaches_15():
    c = comp.load_components()
    for board in c.tactical_boards:
        assert set(board.mp) == set(Action)
    assert c.pace_bar.max_pace >= 15
    assert set(c.pace_bar.min_pace_for_mp) == {Action.SHORT_PASS, Action.KEEP_AND_RUN, Action.SPEED_DRIBBLING}


def copy_data(tmp_path: Path) -> Path:
    folder = tmp_path / "box"
    shutil.copytree(Path(comp.__file__).parent / "data", folder)
    return folder


def edit(path: Path, change) -> None:
    obj = json.loads(path.read_text())
    change(obj)
    path.write_text(json.dumps(obj))


@pytest.mark.parametrize("change, entry, field, words", [
    (lambda o: o["boards"][2]["mp"].pop("cross"), "low_long_defensive", "", "no MP entry for 'cross'"),
    (lambda o: o["boards"][0]["mp"]["cross"].update(attack="lots"), "low_short_defensive", "mp.cross.attack",
     "expected an integer"),
    (lambda o: o["boards"][1]["costs"].pop("zone"), "low_short_offensive", "costs.zone", "missing field"),
    (lambda o: o["boards"][4].update(colour="red"), "high_short_defensive", "", "unknown field 'colour'"),
    (lambda o: o["boards"][3]["event_boosts"].update(juggling=5), "low_long_offensive", "event_boosts.juggling",
     "expected one of"),
])
def test_a_bad_tactical_board_names_the_file_entry_and_field(tmp_path, change, entry, field, words):
    folder = copy_data(tmp_path)
    edit(folder / "tactical_boards.json", change)
    with pytest.raises(DataFileError) as err:
        comp.load_tactical_boards(folder / "tactical_boards.json")
    assert err.value.file == "tactical_boards.json" and err.value.entry == entry
    assert err.value.field == field and words in str(err.value)


def test_broken_json_names_line_and_column(tmp_path):
    folder = copy_data(tmp_path)
    (folder / "round_pace_bar.json").write_text('{"squares": [1, 2,,]}')
    with pytest.raises(DataFileError, match=r"round_pace_bar.json: not valid JSON: .* line 1, column"):
        comp.load_pace_bar(folder / "round_pace_bar.json")


def test_a_bar_with_a_gap_is_refused(tmp_path):
    folder = copy_data(tmp_path)
    edit(folder / "round_pace_bar.json", lambda o: o["squares"].pop(4))
    with pytest.raises(DataFileError, match="every pace from 1 up"):
        comp.load_pace_bar(folder / "round_pace_bar.json")


def test_a_team_of_fifteen_is_refused(tmp_path):
    folder = copy_data(tmp_path)
    path = folder / "teams" / "rovers.json"
    edit(path, lambda o: o["players"].pop())
    with pytest.raises(DataFileError, match="rovers.json: .*16 figures"):
        comp.load_team(path)


def test_a_card_missing_a_skill_is_refused(tmp_path):
    folder = copy_data(tmp_path)
    path = folder / "teams" / "harbour.json"
    edit(path, lambda o: o["players"][3]["skills"].pop("volley"))
    with pytest.raises(DataFileError, match="harbour.json: players.*missing skill 'volley'"):
        comp.load_team(path)


def test_a_board_area_off_the_grid_is_refused(tmp_path):
    folder = copy_data(tmp_path)
    edit(folder / "board.json", lambda o: o["areas"]["penalty_area_high"]["rects"][0].update(col1=24))
    with pytest.raises(DataFileError, match="board.json: .*penalty_area_high.*outside the PS grid"):
        comp.load_board(folder / "board.json")


def test_a_table_can_replace_one_file_with_its_own_values(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    obj = json.loads((Path(comp.__file__).parent / "data" / "referee_call_board.json").read_text())
    obj["placeholder"] = False
    obj["calls"]["tackle"] = {"yellow_from": 70, "red_from": 90}
    (folder / "referee_call_board.json").write_text(json.dumps(obj))
    c = comp.load_components(folder)
    assert not c.referee.placeholder and c.referee.card_for(Skill.TACKLE, 75) == "yellow"
    assert len(c.placeholders()) == 3
