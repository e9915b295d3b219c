"""Futboard's box data and field geometry: shipped files load and say they are placeholders,
bad files are refused naming the file, the entry and the field; board millimetres map to
spaces (the camera's contract); the printed field values are looked up per end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.errors import DataFileError
from companion.futboard import components as comp
from companion.futboard.components import Position
from companion.futboard.pitch import End

from futboard_kit import new_match


def test_shipped_components_load_and_are_flagged_as_placeholders():
    c = comp.load_components()
    assert (c.pitch.lines, c.pitch.rows) == (20, 13) and c.pitch.yellow_lines is None
    notes = c.placeholders()
    assert len(notes) == 4 and all("placeholder" in n for n in notes)
    street = comp.load_components(board="street")
    assert street.pitch.yellow_lines is not None and "yellow lines" in street.placeholders()[0]
    for key in comp.shipped_teams():
        team = comp.shipped_team(key)
        assert team.placeholder and len(team.tiles) == 16 and all(t.placeholder for t in team.tiles)
        assert sum(t.goalkeeper for t in team.tiles) == 2


def test_the_state_reports_every_placeholder_in_use():
    s = new_match().summary()
    assert len(s["placeholders"]) == 6
    assert any("Home (Estrela FC)" in n for n in s["placeholders"])


def copy_data(tmp_path: Path) -> Path:
    folder = tmp_path / "box"
    shutil.copytree(Path(comp.__file__).parent / "data", folder)
    return folder


def edit(path: Path, change) -> None:
    obj = json.loads(path.read_text())
    change(obj)
    path.write_text(json.dumps(obj))


@pytest.mark.parametrize("change, entry, field, words", [
    (lambda o: o["tiles"][2].update(accuracy=13), "#2", "", "accuracy is 0..12"),
    (lambda o: o["tiles"][0].pop("defence"), "#1", "", "needs a defence force"),
    (lambda o: o["tiles"][4].update(position="sweeper"), "#4", "position", "expected one of"),
    (lambda o: o["tiles"][3].update(dribble="yes"), "#3", "dribble", "expected true or false"),
    (lambda o: o["tiles"][6].update(colour="red"), "#13", "", "unknown field 'colour'"),
    (lambda o: o.update(street_starters=[1, 2, 3, 4, 6, 7, 9]), "", "", "2 players from each tactical position"),
    (lambda o: o.update(starters=[1, 2, 3, 4, 5, 6, 7, 8, 10, 9, 12]), "", "", "exactly one goalkeeper"),
])
def test_a_bad_team_file_names_the_file_entry_and_field(tmp_path, change, entry, field, words):
    folder = copy_data(tmp_path)
    edit(folder / "teams" / "mare.json", change)
    with pytest.raises(DataFileError) as err:
        comp.load_team(folder / "teams" / "mare.json")
    assert err.value.file == "mare.json" and err.value.entry == entry and err.value.field == field
    assert words in str(err.value)


@pytest.mark.parametrize("change, entry, field, words", [
    (lambda o: o.update(lines="twenty"), "lines", "", "expected an integer"),
    (lambda o: o["kick_penalties"].update(by_line=[0, 1]), "", "", "one penalty for each of the 10 lines"),
    (lambda o: o["keeper"]["spaces"][0].update(reduction=20), "keeper", "spaces[0]", "reduction is 0..12"),
    (lambda o: o.update(penalty_spot=[5, 6]), "", "", "inside the penalty area"),
    (lambda o: o.update(corner_slots=[[25, 0]]), "", "", "off the 20 x 13 field"),
    (lambda o: o.update(yellow_lines={"col0": 0, "row0": 5, "col1": 19, "row1": 8}), "", "",
     "enclose both penalty areas"),
])
def test_a_bad_board_file_names_the_file_and_field(tmp_path, change, entry, field, words):
    folder = copy_data(tmp_path)
    edit(folder / "board.json", change)
    with pytest.raises(DataFileError) as err:
        comp.load_components(folder)
    assert err.value.file == "board.json" and err.value.entry == entry and err.value.field == field
    assert words in str(err.value)


def test_a_table_copies_only_the_files_it_changes(tmp_path):
    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "ruler.json").write_text(json.dumps({"mark_mm": 30.0, "marks": 12}))
    c = comp.load_components(folder)
    assert c.ruler.mark_mm == 30.0 and not c.ruler.placeholder and c.pitch.placeholder
    assert len(c.placeholders()) == 3
    with pytest.raises(DataFileError, match="no board 'giant'"):
        comp.load_components(folder, board="giant")


# --- the camera's contract: board millimetres to spaces ------------------------------------------------

@pytest.mark.parametrize("x, y, space", [
    (0.0, 0.0, (0, 0)), (44.9, 44.9, (0, 0)), (45.0, 0.0, (1, 0)), (899.9, 584.9, (19, 12)),
    (-10.0, 300.0, (-1, 6)), (900.0, 300.0, (20, 6)), (450.0, -0.1, (10, -1)),
    (-45.1, 300.0, None), (950.0, 300.0, None),
])
def test_millimetres_to_spaces(x, y, space):
    p = comp.load_pitch()
    assert p.space_at(x, y) == space
    if space is not None and p.inside(space):
        cx, cy = p.centre_mm(space)
        assert abs(cx - (space[0] + 0.5) * 45) < 1e-9 and p.space_at(cx, cy) == space


def test_the_field_is_mirrored_for_aways_end():
    p = comp.load_pitch()
    assert p.spot(End.LOW) == (2, 6) and p.spot(End.HIGH) == (17, 6)
    assert p.goal(End.HIGH) == (19, 6) and p.corners(End.HIGH) == ((19, 0), (19, 12))
    assert p.in_penalty_area((16, 3), End.HIGH) and not p.in_penalty_area((15, 3), End.HIGH)
    assert p.half((9, 0)) is End.LOW and p.half((10, 0)) is End.HIGH
    assert len(p.penalty_area_spaces(End.HIGH)) == 4 * 7


def test_the_printed_kick_penalties_by_line():
    p = comp.load_pitch()
    table = p.kick_penalties.by_line
    for line in range(10, 20):
        assert p.kick_penalty((line, 6), End.HIGH) == table[19 - line]
        assert p.kick_penalty((19 - line, 6), End.LOW) == table[19 - line]


def test_the_printed_keeper_reductions():
    p = comp.load_pitch()
    for k in p.keeper.spaces:
        assert p.keeper_reduction((k.line, k.row), End.LOW) == k.reduction
        assert p.keeper_reduction((19 - k.line, k.row), End.HIGH) == k.reduction
    assert p.keeper_reduction(p.goal(End.LOW), End.LOW) == 0
    assert p.keeper_reduction((8, 6), End.LOW) == p.keeper.elsewhere


def test_the_tablet_draws_the_field_as_a_grid_board():
    from companion.futboard.rules import FutboardRules
    m = new_match()
    grid = FutboardRules().board(m.state)
    assert (grid.ms_cols, grid.ms_rows, grid.ms_per_ps) == (20, 13, 1)
    assert grid.ms_in("penalty_area_high", (17, 6)) and grid.ms_in("centre_circle", (10, 6))
    assert grid.mm_to_ms(100.0, 100.0) == comp.load_pitch().space_at(100.0, 100.0)


def test_tiles_are_validated():
    with pytest.raises(ValueError, match="only goalkeeper tiles"):
        comp.Tile(5, "X", Position.DEFENDER, 3, False, 4, 3, 6, 12, defence=5)
    with pytest.raises(ValueError, match="foul is a d12 face"):
        comp.Tile(5, "X", Position.DEFENDER, 3, False, 4, 3, 6, 13)
