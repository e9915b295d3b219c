"""Hostile box files (issue 30, item 5): whatever a box file holds, importing it either
succeeds or is refused with one DataFileError naming the box file and, where there is one,
the file in it and the field, and a refused box changes nothing in the table's folder.
Sizes are bounded by construction (the limits in companion/datafiles.py and box.py), so
these tests never time anything."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import box, datafiles
from companion.errors import DataFileError

GAMES = ["fublet", "football_leader", "futboard", "fussball_liga"]


@pytest.fixture(scope="module")
def bundles(tmp_path_factory) -> dict[str, dict]:
    folder = tmp_path_factory.mktemp("boxes")
    return {g: json.loads(box.export_box(g, None, folder / f"{g}.json").read_text(encoding="utf-8")) for g in GAMES}


def snapshot(data_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(data_dir)): p.read_bytes() for p in sorted(data_dir.rglob("*")) if p.is_file()}


def tablet(tmp_path: Path, bundles) -> Path:
    """A tablet that has imported a good Fublet box already (so "untouched" means something)."""
    data_dir = tmp_path / "tablet"
    good = tmp_path / "good.json"
    good.write_text(json.dumps(bundles["fublet"]), encoding="utf-8")
    box.import_box(good, data_dir)
    return data_dir


def refused(tmp_path: Path, data_dir: Path, bundle: object, *words: str, raw: str | None = None) -> str:
    path = tmp_path / "hostile box.json"
    path.write_text(raw if raw is not None else json.dumps(bundle), encoding="utf-8")
    before = snapshot(data_dir)
    with pytest.raises(DataFileError) as caught:
        box.import_box(path, data_dir)
    message = str(caught.value)
    assert message.startswith("hostile box.json: "), message
    assert "\n" not in message and len(message) < 400, message
    for word in words:
        assert word in message, message
    assert snapshot(data_dir) == before
    return message


def test_a_file_name_with_a_trailing_newline_is_refused_naming_it(tmp_path, bundles):
    data_dir = tablet(tmp_path, bundles)
    bad = copy.deepcopy(bundles["fublet"])
    bad["files"]["teams/rovers.json\n"] = bad["files"]["teams/rovers.json"]
    refused(tmp_path, data_dir, bad, r"'teams/rovers.json\n'", "not a fublet box file name")


def test_a_number_of_thousands_of_digits_is_refused(tmp_path, bundles):
    data_dir = tablet(tmp_path, bundles)
    text = json.dumps(bundles["fublet"]).replace('"version": 1', '"version": ' + "9" * 5000, 1)
    refused(tmp_path, data_dir, None, "not valid JSON", raw=text)
    bad = copy.deepcopy(bundles["fublet"])
    bad["files"]["teams/rovers.json"]["players"][0]["speed"] = 10**40
    refused(tmp_path, data_dir, bad, "teams/rovers.json", "players.0.speed", "too large")


def test_deeply_nested_json_is_refused(tmp_path, bundles):
    data_dir = tablet(tmp_path, bundles)
    deep = '{"format": "touchline-box", "version": 1, "game": "fublet", "files": {"ruler": ' + "[" * 100_000 + \
        "]" * 100_000 + "}}"
    refused(tmp_path, data_dir, None, "nested more than", raw=deep)
    bad = copy.deepcopy(bundles["fublet"])
    nest: object = 1
    for _ in range(40):
        nest = [nest]
    bad["files"]["teams/rovers.json"]["name"] = nest
    refused(tmp_path, data_dir, bad, "files", "nested more than")


def test_a_huge_team_name_and_thousands_of_team_files_are_refused(tmp_path, bundles):
    data_dir = tablet(tmp_path, bundles)
    bad = copy.deepcopy(bundles["fublet"])
    bad["files"]["teams/rovers.json"]["name"] = "R" * 5_000
    refused(tmp_path, data_dir, bad, "teams/rovers.json", "name", "5000 characters")
    huge = copy.deepcopy(bundles["fublet"])
    huge["files"]["teams/rovers.json"]["name"] = "R" * 9_000_000  # as the tester's 50 MB, bounded here
    refused(tmp_path, data_dir, huge, "bytes")
    many = copy.deepcopy(bundles["fublet"])
    for i in range(2_000):
        many["files"][f"teams/t{i}.json"] = {"name": f"T{i}"}  # small: the count, not the bytes, refuses
    refused(tmp_path, data_dir, many, "files", "2002 team files", "at most 200")


@pytest.mark.parametrize("shape", [[], 7, "text", None, {"format": "touchline-box"}, {"files": []}])
def test_a_box_file_of_another_shape_is_refused(tmp_path, bundles, shape):
    refused(tmp_path, tablet(tmp_path, bundles), shape)


@pytest.mark.parametrize("content", [[], 7, "x", None, {}, {"players": "many"}, {"name": {"first": 1}},
                                     {"players": [None, 1, "x"]}])
def test_a_file_of_any_shape_inside_the_box_is_refused_naming_it(tmp_path, bundles, content):
    data_dir = tablet(tmp_path, bundles)
    for game in GAMES:
        bad = copy.deepcopy(bundles[game])
        team = next(f for f in bad["files"] if f.startswith("teams/"))
        bad["files"][team] = content
        refused(tmp_path, data_dir, bad, team)
        for other in (f for f in bad["files"] if not f.startswith("teams/") and content != {}):  # {}: defaults
            bad = copy.deepcopy(bundles[game])
            bad["files"][other] = content
            message = refused(tmp_path, data_dir, bad)
            # A file is named, unless a check across the files refused the box (two boards needed).
            assert other in message or "need" in message, message
            assert "touchline-import" not in message, message


def test_nan_and_infinity_are_refused(tmp_path, bundles):
    data_dir = tablet(tmp_path, bundles)
    text = json.dumps(bundles["fublet"]).replace('"version": 1', '"version": NaN', 1)
    refused(tmp_path, data_dir, None, "NaN", raw=text)


def test_a_pipe_or_a_folder_is_refused_not_read(tmp_path):
    import os

    os.mkfifo(tmp_path / "pipe.json")
    for name in ("pipe.json", ""):
        with pytest.raises(DataFileError, match="not a regular file"):
            box.import_box(tmp_path / name, tmp_path / "tablet")


def test_the_limits_leave_room_for_every_shipped_box(bundles, tmp_path):
    for game in GAMES:
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(bundles[game]), encoding="utf-8")
        assert box.import_box(path, tmp_path / "tablet")[0] == game


# --- seeded fuzzing --------------------------------------------------------------------------------

ODD = [None, True, 0, -1, 1.5, 10**13, "", "x" * 3000, "=cmd", "\n", [], {}, [[[[]]]], {"placeholder": True},
       "teams/", "../x.json", "\u202e", 2**63]


def mutate(bundle: dict, rng: random.Random) -> dict:
    """A box changed in one to four places: a value replaced by an odd one, a key dropped or
    renamed, a list emptied or doubled, an entry copied elsewhere."""
    doc = copy.deepcopy(bundle)
    for _ in range(rng.randrange(1, 5)):
        node, parents = doc, []
        for _ in range(rng.randrange(1, 7)):
            if isinstance(node, dict) and node:
                key = rng.choice(sorted(node, key=str))
            elif isinstance(node, list) and node:
                key = rng.randrange(len(node))
            else:
                break
            parents.append((node, key))
            node = node[key]
        if not parents:
            continue
        parent, key = parents[-1]
        action = rng.randrange(5)
        if action == 0:
            parent[key] = rng.choice(ODD)
        elif action == 1 and isinstance(parent, dict):
            del parent[key]
        elif action == 2 and isinstance(parent, dict):
            parent[rng.choice(["teams/", "../", "\u202e", "\n", "_"]) + str(key)] = parent.pop(key)
        elif action == 3 and isinstance(node, list):
            parent[key] = node + node if rng.random() < 0.5 else []
        else:
            parent[key] = copy.deepcopy(rng.choice([p for p, _ in parents]))
    return doc


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_fuzzed_box_files_are_imported_or_refused_naming_the_file_and_change_nothing(tmp_path_factory, game, seed):
    tmp_path = tmp_path_factory.mktemp("fuzz")
    exported = tmp_path / "export.json"
    base = json.loads(box.export_box(game, None, exported).read_text(encoding="utf-8"))
    data_dir = tmp_path / "tablet"
    data_dir.mkdir()
    path = tmp_path / "fuzzed.json"
    path.write_text(json.dumps(mutate(base, random.Random(seed))), encoding="utf-8")
    before = snapshot(data_dir)
    try:
        box.import_box(path, data_dir)
    except DataFileError as exc:
        assert str(exc).startswith("fuzzed.json: ") and "\n" not in str(exc), str(exc)
        assert snapshot(data_dir) == before


def test_check_shape_walks_without_recursion():
    deep: object = 0
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(DataFileError, match="nested more than 16"):
        datafiles.check_shape(deep, "x.json")
