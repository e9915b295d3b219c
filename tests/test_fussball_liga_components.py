"""The box data: the printed tables as printed, the rule values, the board and the teams,
validated on load with errors that name the file, the entry and the field."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.codec import from_json, to_json
from companion.errors import DataFileError
from companion.fussball_liga.components import (Components, GoalShotTable, PenaltyTable, Roster, column,
                                                load_components, load_pitch, load_tables, load_team, shipped_team,
                                                shipped_teams)

HIT, MISS, OK = "hit", "-", "ok"

# The goal-shot table as printed: distance -> the lowest die (with bonus) that hits.
GOAL_SHOT = {1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5, 9: 5, 10: 6, 11: 6, 12: 6}


@pytest.fixture(scope="module")
def comps() -> Components:
    return load_components()


@pytest.mark.parametrize("distance", range(1, 13))
@pytest.mark.parametrize("result", range(0, 8))
def test_the_goal_shot_table_cell_by_cell(comps, distance, result):
    # Columns "d1-" and "d6+": results below 1 read as 1, above 6 as 6 (the bonus may push them there).
    assert comps.tables.goal_shot.hits(distance, result) == (max(result, 1) >= GOAL_SHOT[distance])


def test_the_overlapping_rows_read_seven_from_the_harder_row(comps):
    table = comps.tables.goal_shot
    assert [(r.first, r.last) for r in table.rows] == [(1, 1), (2, 2), (3, 4), (5, 7), (7, 9), (10, 12)]
    assert table.needs(7) == 5 and table.placeholder
    assert replace(table, overlap="easier").needs(7) == 4


@pytest.mark.parametrize("original, modified, through, adjacent", [
    (1, 6, False, False),   # an original 1 always loses
    (2, 2, False, False), (3, 3, True, False), (4, 4, True, False), (5, 5, True, True), (6, 6, True, True),
    (2, 3, True, False), (6, 4, True, False), (5, 7, True, True), (4, 1, False, False),
])
def test_the_shot_interception_table(comps, original, modified, through, adjacent):
    t = comps.tables.interception
    assert t.succeeds(True, original, modified) is through
    assert t.succeeds(False, original, modified) is adjacent


def test_the_interception_bonus_effects_are_printed_values(comps):
    m = comps.tables.interception.modifiers
    assert (m.near, m.at_two, m.beyond_two, m.goalkeeper) == (1, -1, -2, 1)


@pytest.mark.parametrize("original, modified, wide, close", [
    (1, 1, False, False), (2, 2, False, False),
    (3, 3, True, False), (4, 4, True, False), (5, 5, True, True), (6, 6, True, True),
    (3, 2, False, False), (6, 4, True, False), (4, 5, True, True), (5, 1, False, False),
    # No foul (fair play, or no defender next to the attacker): an original 1 or 2 reads the
    # modified result like any other roll; the dribbling table has no "original 1 always loses".
    (1, 6, True, True), (2, 5, True, True), (2, 3, True, False), (1, 0, False, False),
])
def test_the_dribbling_table(comps, original, modified, wide, close):
    t = comps.tables.dribbling
    assert t.succeeds(False, original, modified) is wide
    assert t.succeeds(True, original, modified) is close


@pytest.mark.parametrize("original, fair_play, next_to_attacker, foul", [
    (1, False, True, True), (2, False, True, True), (3, False, True, False),
    (1, True, True, False), (2, False, False, False),
])
def test_the_dribbling_foul_is_the_original_roll_and_a_foul_never_wins_the_ball(comps, original, fair_play,
                                                                                 next_to_attacker, foul):
    t = comps.tables.dribbling
    assert t.fouls(original, fair_play, next_to_attacker) is foul
    assert t.succeeds(False, original, 6, foul) is not foul


def test_the_dribbling_bonus_effects_and_fouls_are_printed_values(comps):
    t = comps.tables.dribbling
    m = t.modifiers
    assert (m.per_additional_defender, m.none_adjacent_to_attacker, m.ball_through_defender, m.goalkeeper,
            m.fair_play) == (1, -1, 2, 1, -1)
    assert t.foul_on == (1, 2) and t.yellow_on == (1,)
    assert t.wide[:2] == ("foul/yellow card?", "foul?") and t.close[2:] == ("-", "-", "ok", "ok")


def test_columns_read_one_or_less_and_six_or_more():
    assert [column(x) for x in (-2, 1, 2, 5, 6, 9)] == [0, 0, 1, 4, 5, 5]


def test_the_rule_values(comps):
    lim = comps.rules.limits
    assert (lim.mp_per_side, lim.mp_per_player, lim.max_shot, lim.max_follow_up, lim.max_kick_off,
            lim.max_throw_in, lim.max_corner, lim.max_goal_kick) == (18, 6, 12, 6, 6, 6, 12, 12)
    assert (lim.setup_mp_per_player, lim.setup_distance, lim.goal_area_per_side, lim.hold_distance,
            lim.fouls_per_yellow, lim.yellows_to_send_off) == (6, 3, 2, 3, 3, 2)
    costs = comps.rules.costs
    assert (costs.free, costs.close_control, costs.loose_control, costs.ball_around) == (1, 2, 1, 1)
    assert lim.max_shot + lim.max_follow_up == 18  # "12+6=18 spaces"


def test_the_penalty_table_reading(comps):
    t = comps.tables.penalty
    assert t.placeholder and t.results == {1: "aim:1", 2: "aim:2", 3: "aim:3", 4: "aim:4", 5: "goal", 6: "miss"}
    with pytest.raises(ValueError, match="aim at goal square 1 to 4"):
        PenaltyTable({1: "aim:5", 2: "goal", 3: "goal", 4: "goal", 5: "goal", 6: "goal"})


def test_the_board(comps):
    p = comps.pitch
    assert (p.cols, p.rows, p.square_mm, p.placeholder) == (30, 20, 22.0, True)
    low, high = p.ends["low"], p.ends["high"]
    assert len(low.goal) == 6 and all(sq[0] == -1 for sq in low.goal) and all(sq[0] == 30 for sq in high.goal)
    assert sum(1 for r in low.goal_area for _ in r.squares()) == 6
    assert p.kick_off_squares == {"low": ((14, 9), (14, 10)), "high": ((15, 9), (15, 10))}
    assert p.in_centre_circle((15, 10)) and p.in_centre_circle((12, 9)) and not p.in_centre_circle((18, 10))
    assert low.penalty_squares == ((3, 9), (3, 10)) and high.penalty_squares == ((26, 9), (26, 10))


@pytest.mark.parametrize("x, y, square", [
    (0.0, 0.0, (0, 0)), (21.9, 21.9, (0, 0)), (22.0, 0.0, (1, 0)), (659.9, 439.9, (29, 19)),
    (660.0, 440.0, (29, 19)),            # the far lines belong to the field
    (-5.0, 200.0, (-1, 9)),              # behind the low goal line: a goal square
    (670.0, 200.0, (30, 9)),
    (300.0, -10.0, (13, -1)),            # beyond the touch line: a throw-in square
    (-30.0, 200.0, None), (300.0, 470.0, None),
])
def test_board_millimetres_to_squares(comps, x, y, square):
    assert comps.pitch.square_at(x, y) == square


def test_the_components_survive_the_journals_codec(comps):
    assert from_json(Components, json.loads(json.dumps(to_json(comps)))) == comps


def test_the_placeholders_are_listed(comps):
    notes = comps.placeholders()
    assert any("board geometry" in n for n in notes) and any("penalty-kick" in n for n in notes)
    assert any("goal-shot table" in n for n in notes) and any("movement costs" in n for n in notes)


def test_the_shipped_teams():
    assert shipped_teams() == ["gruenwald", "rotstein"]
    team = shipped_team("rotstein")
    assert len(team.players) == 16 and team.player(1).goalkeeper and team.placeholder


def test_a_team_needs_player_one_in_goal(tmp_path):
    data = json.loads(json.dumps(to_json(shipped_team("rotstein"))))
    data["players"][0]["goalkeeper"] = False
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataFileError, match="bad.json.*player no. 1"):
        load_team(path)


def test_a_bad_table_names_the_file_entry_and_field(tmp_path):
    data = json.loads(load_tables.__globals__["DATA"].joinpath("tables.json").read_text(encoding="utf-8"))
    data["interception"]["through"] = ["-", "-", "ok", "ok", "ok"]
    path = tmp_path / "tables.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_tables(path)
    assert info.value.file == "tables.json" and info.value.entry == "interception"
    assert "6 columns" in str(info.value)


def test_a_bad_board_is_refused(tmp_path):
    data = json.loads(load_pitch.__globals__["DATA"].joinpath("pitch.json").read_text(encoding="utf-8"))
    data["ends"]["low"]["goal"] = data["ends"]["low"]["goal"][:5]
    path = tmp_path / "pitch.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataFileError, match="6 squares"):
        load_pitch(path)


def test_a_folder_overrides_only_the_files_it_has(tmp_path):
    data = json.loads(load_tables.__globals__["DATA"].joinpath("tables.json").read_text(encoding="utf-8"))
    data["penalty"] = {"results": {"1": "saved", "2": "goal", "3": "goal", "4": "goal", "5": "goal", "6": "goal"},
                       "placeholder": False}
    (tmp_path / "tables.json").write_text(json.dumps(data), encoding="utf-8")
    comps = load_components(tmp_path)
    assert comps.tables.penalty.results[1] == "saved" and not comps.tables.penalty.placeholder
    assert comps.pitch == load_pitch()


def test_table_rows_must_cover_every_distance():
    with pytest.raises(ValueError, match="without a gap"):
        from companion.fussball_liga.components import DistanceRow
        GoalShotTable((DistanceRow(1, 1, (HIT,) * 6), DistanceRow(3, 12, (MISS,) * 5 + (HIT,))))


def test_roster_validation():
    team = shipped_team("gruenwald")
    with pytest.raises(ValueError, match="11 different"):
        Roster(team.name, team.players, team.starters[:10])
