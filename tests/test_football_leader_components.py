"""Football Leader's box data: shipped files load, placeholders are reported, and a bad file
is refused with its file, entry and field named."""

from __future__ import annotations

import dataclasses
import json
import typing

import pytest

from companion.errors import DataFileError
from companion.football_leader import model
from companion.football_leader.components import (DATA, Card, Trait, load_board, load_components, load_deck,
                                                  load_team, shipped_team, shipped_teams)
from football_leader_kit import new_match


def test_shipped_components_and_teams_load():
    comps = load_components()
    assert comps.deck.size == 50 and len(comps.board.spaces) == 40
    assert shipped_teams() == ["blues", "lions"]
    for key in shipped_teams():
        team = shipped_team(key)
        assert len(team.counters) == 14 and team.goalkeeper.number == 1


def test_the_placeholders_in_use_are_reported():
    notes = new_match().summary()["placeholders"]
    assert len(notes) == 4
    # Each says where a coach enters the printed value: the box editor's page, never a file.
    assert any("box editor (Board layout and geometry)" in n for n in notes)
    assert any("box editor (Action cards)" in n for n in notes)
    assert not any(".json" in n for n in notes), notes
    assert any("2-6, 2-5, 2-4, 1-3" in n for n in notes)


def write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def test_a_deck_must_hold_25_gold_15_silver_10_bronze(tmp_path):
    obj = json.loads(DATA.joinpath("action_cards.json").read_text(encoding="utf-8"))
    obj["rows"][0]["gold"] = 3
    with pytest.raises(DataFileError, match=r"action_cards.json: rows: .*26, 15 and 10"):
        load_deck(write(tmp_path, "action_cards.json", obj))


def test_a_bad_card_row_names_its_row_and_field(tmp_path):
    obj = json.loads(DATA.joinpath("action_cards.json").read_text(encoding="utf-8"))
    obj["rows"][2]["silver"] = "one"
    with pytest.raises(DataFileError, match=r"action_cards.json: row 4-10 / silver: expected an integer"):
        load_deck(write(tmp_path, "action_cards.json", obj))


def test_a_bad_counter_names_its_number_and_field(tmp_path):
    obj = json.loads(DATA.joinpath("teams", "lions.json").read_text(encoding="utf-8"))
    obj["counters"][3]["dodge"] = "purple-4"
    with pytest.raises(DataFileError, match=r"lions.json: #4 / dodge: .*gold, silver or bronze"):
        load_team(write(tmp_path, "lions.json", obj))


def test_a_counter_without_its_defence_number_is_refused(tmp_path):
    obj = json.loads(DATA.joinpath("teams", "lions.json").read_text(encoding="utf-8"))
    obj["counters"][5]["defence"] = "gold"
    with pytest.raises(DataFileError, match=r"#6.*defence needs its number"):
        load_team(write(tmp_path, "lions.json", obj))


def test_a_board_of_37_spaces_is_refused(tmp_path):
    obj = json.loads(DATA.joinpath("board.json").read_text(encoding="utf-8"))
    obj["spaces"] = [sp for sp in obj["spaces"] if sp.get("label") != "D1"]
    obj["links"] = [ln for ln in obj["links"] if [3, 0] not in (ln["a"], ln["b"])]
    with pytest.raises(DataFileError, match="38 spaces"):
        load_board(write(tmp_path, "board.json", obj))


def test_a_bad_space_names_its_label(tmp_path):
    obj = json.loads(DATA.joinpath("board.json").read_text(encoding="utf-8"))
    obj["spaces"][5]["shoot"] = "22"
    with pytest.raises(DataFileError, match=r"board.json: space .* / shoot: a single shooting number is 23 or 24"):
        load_board(write(tmp_path, "board.json", obj))


def test_a_folder_overrides_only_the_files_it_has(tmp_path):
    obj = json.loads(DATA.joinpath("board.json").read_text(encoding="utf-8"))
    obj["name"] = "My table's board"
    write(tmp_path, "board.json", obj)
    comps = load_components(tmp_path)
    assert comps.board.name == "My table's board" and comps.deck.size == 50


def test_traits_and_cards_read_and_write_like_the_box():
    assert Trait.from_json("gold-5").to_json() == "gold-5" and str(Trait.from_json("silver")) == "SILVER"
    assert Card.parse("GOLD-4-12") == Card.parse("gold-4-12") and str(Card.parse("gold-4-12")) == "GOLD-4-12"
    assert repr(Card.parse("bronze-2-5")) == "Card.parse('bronze-2-5')"
    with pytest.raises(ValueError):
        Card.parse("gold-4")


def test_no_tagged_journal_record_has_a_field_named_kind():
    """The journal tags a union's member with ``kind``: a field of that name would hide it."""
    tagged = [obj for obj in vars(model).values() if isinstance(obj, type) and getattr(obj, "TAG", None)]
    assert len(tagged) > 10
    for cls in tagged:
        assert "kind" not in {f.name for f in dataclasses.fields(cls)}, cls
    assert typing.get_args(model.RollCtx) and typing.get_args(model.ChoiceCtx)
