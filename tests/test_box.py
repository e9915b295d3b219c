"""A table's own box data (companion/box.py) and the editor's typed values (ui/boxform.py):
every game's files read, saved and read back unchanged; a value is checked by the file's own
loader; placeholder flags cleared one entry at a time; a whole box exported and imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import box
from companion.codec import to_json
from companion.errors import DataFileError
from ui import boxform as bf

GAMES = ("fublet", "football_leader", "futboard", "fussball_liga")


@pytest.mark.parametrize("game", GAMES)
def test_every_file_of_every_box_is_saved_and_read_back_unchanged(game, tmp_path):
    for it in box.items(game):
        if it.file == box.COLOURS:
            continue   # no shipped file (tested below)
        shipped = it.load(box.shipped_dir(game) / it.file)
        doc = box.document(it)
        box.save(it, doc, tmp_path)
        saved = it.load(tmp_path / it.file)
        # The same values; only a placeholder team's cards now carry the team's flag themselves.
        assert unflagged(to_json(saved)) == unflagged(to_json(shipped)), it.file
        assert box.document(it, tmp_path) == doc
        assert box.is_own(it, tmp_path)


def unflagged(doc):
    if isinstance(doc, dict):
        return {k: unflagged(v) for k, v in doc.items() if k != "placeholder"}
    if isinstance(doc, list):
        return [unflagged(v) for v in doc]
    return doc


@pytest.mark.parametrize("game", GAMES)
def test_every_field_of_every_file_has_a_row_in_the_form(game):
    def walk(tp):
        kind = bf.kind(tp)
        inner, _ = bf.optional_of(tp)
        if kind in ("dataclass", "optional", "inline"):
            for _name, ftp in bf.fields(inner):
                walk(ftp)
        elif kind == "dict":
            walk(bf.dict_args(tp)[1])
        elif kind == "list":
            walk(bf.list_item(tp))
    for it in box.items(game):
        walk(it.schema)   # raises TypeError for a type the editor cannot show


def test_a_value_is_checked_by_the_files_own_loader(tmp_path):
    it = box.item("fublet", "teams/rovers.json")
    doc = box.document(it)
    doc["players"][1]["speed"] = 25
    with pytest.raises(DataFileError) as exc:
        box.save(it, doc, tmp_path)
    assert "speed is a count of MS, 1..20, got 25" in str(exc.value)
    assert bf.explain(exc.value, doc) == "Players › #2 Bram: speed is a count of MS, 1..20, got 25"
    assert not (tmp_path / it.file).exists()


def test_a_component_file_is_checked_with_the_tables_other_files(tmp_path):
    it = box.item("fublet", "tactical_boards.json")
    doc = box.document(it)[:1]   # one board: each coach needs one
    with pytest.raises(DataFileError, match="at least two tactical boards"):
        box.save(it, doc, tmp_path)


def test_inside_a_placeholder_team_every_card_is_a_placeholder_until_entered(tmp_path):
    it = box.item("fublet", "teams/rovers.json")
    doc = box.document(it)
    assert doc["placeholder"] is True and all(p["placeholder"] for p in doc["players"])
    owner = bf.owner_of(doc, ("players", 1, "skills", "tackle"))
    assert owner == ("players", 1)
    bf.get_at(doc, owner)["placeholder"] = False
    box.save(it, doc, tmp_path)
    again = box.document(it, tmp_path)
    assert [p["placeholder"] for p in again["players"]][:3] == [True, False, True]
    assert again["placeholder"] is True


def test_the_next_match_takes_the_tables_teams(tmp_path):
    it = box.item("futboard", "teams/mare.json")
    doc = box.document(it)
    doc["name"] = "Porto Azul"
    file = box.new_team_file("futboard", doc["name"], tmp_path)
    box.save(box.item("futboard", file, tmp_path), doc, tmp_path)
    assert "porto_azul" in box.team_keys("futboard", tmp_path)
    assert box.team("futboard", "porto_azul", tmp_path).name == "Porto Azul"
    assert box.team("futboard", "mare", tmp_path).name == "Mare Azul"   # the shipped one


def test_a_whole_box_goes_to_another_tablet_in_one_file(tmp_path):
    club, other = tmp_path / "club", tmp_path / "other"
    it = box.item("football_leader", "teams/lions.json")
    doc = box.document(it)
    doc["counters"][0]["name"] = "Keeper Ola"
    doc["counters"][0]["placeholder"] = False
    box.save(it, doc, box.table_dir(club, "football_leader"))
    bundle = box.export_box("football_leader", box.table_dir(club, "football_leader"), tmp_path / "box.json")
    game, files = box.import_box(bundle, other)
    assert game == "football_leader" and "teams/lions.json" in files
    lions = box.team("football_leader", "lions", box.table_dir(other, "football_leader"))
    assert lions.counters[0].name == "Keeper Ola" and not lions.counters[0].placeholder


@pytest.mark.parametrize("change, words", [
    (lambda b: b.update(format="zip"), "not a Touchline box file"),
    (lambda b: b.update(version=9), "update Touchline"),
    (lambda b: b["files"].update({"../../evil.json": {}}), "not a fublet box file"),
    (lambda b: b["files"]["round_pace_bar.json"]["small"].pop("3"), "every pace from 1 up"),
])
def test_a_bad_box_file_is_refused_and_changes_nothing(change, words, tmp_path):
    bundle = box.export_box("fublet", None, tmp_path / "box.json")
    obj = json.loads(bundle.read_text())
    change(obj)
    bundle.write_text(json.dumps(obj))
    with pytest.raises(DataFileError, match=words):
        box.import_box(bundle, tmp_path / "tablet")
    assert not (tmp_path / "tablet").exists()


@pytest.mark.parametrize("tp, text, value", [
    (int, "12", 12), (float, "840,5", 840.5), (tuple[int, ...], "1, 2 3", [1, 2, 3]),
    (tuple[int, int], "-1 0", [-1, 0]), (tuple[tuple[int, int], ...], "14 9; 14 10", [[14, 9], [14, 10]]),
    (int | None, "", None), (str, "", ""),
])
def test_typed_text_becomes_the_fields_value(tp, text, value):
    assert bf.parse_value(tp, text) == value
    assert bf.parse_value(tp, bf.format_value(tp, value)) == value


@pytest.mark.parametrize("tp, text, words", [
    (int, "1x", "whole number"), (float, "mm", "number"), (tuple[int, int], "1 2 3", "2 values"), (int, "", "blank"),
])
def test_text_that_is_no_value_of_the_type_says_what_to_type(tp, text, words):
    with pytest.raises(bf.TypedTextError, match=words):
        bf.parse_value(tp, text)


def test_team_colours_are_entered_as_hex_and_a_wrong_one_is_named(tmp_path):
    it = box.item("fussball_liga", box.COLOURS)
    doc = box.document(it, tmp_path)
    assert doc == {"teams": {"gruenwald": [], "rotstein": []}}
    doc["teams"]["rotstein"] = bf.parse_value(tuple[str, ...], "#c0392b, #ffffff")
    box.save(it, doc, tmp_path)
    assert box.colours("fussball_liga", tmp_path).of("rotstein") == ("#c0392b", "#ffffff")
    doc["teams"]["gruenwald"] = ["green"]
    with pytest.raises(DataFileError) as exc:
        box.save(it, doc, tmp_path)
    assert bf.explain(exc.value, doc) == "gruenwald: colours: write each colour as #rrggbb, like #1f4fd1, got 'green'"
    assert box.colours("fussball_liga", tmp_path).of("gruenwald") == ()
