"""The matches folder on the real tablet app (tests/ui_matches.py, one subprocess a drive):
Resume after a crash offers the match that was being played, never a finished imported one;
several unfinished matches listed on Home; rename, friendly, delete and restore; a named match's
report saved as one file; Undo and Redo that say what they take back. Screenshots in test-artifacts/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
APP_HANG = 900   # only stops a hung app (see tests/test_ui_app.py); it times nothing


def drive(mode: str, tmp_path: Path, size: str = "1280x800") -> dict:
    out = ARTIFACTS / f"ui-matches-{size}-{mode}"
    (out / "result.json").unlink(missing_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2", TOUCHLINE_DATA_DIR=str(tmp_path / "data"),
               TOUCHLINE_EXPORT_DIR=str(tmp_path / "exported"))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_matches.py"), str(out), size, mode], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    result_file = out / "result.json"
    assert result_file.exists(), f"the app did not finish:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    result = json.loads(result_file.read_text())
    assert result["error"] == "", result["error"]
    assert not result.get("faults"), result["faults"]
    assert not result.get("layout"), "layout faults:\n" + "\n".join(result["layout"][:40])
    assert not result.get("moved"), "targets moved within one step:\n" + "\n".join(result["moved"])
    return result


def test_after_a_crash_the_match_being_played_is_resumed_not_a_finished_imported_one(tmp_path):
    killed = drive("killed", tmp_path)
    resumed = drive("resumed", tmp_path)
    assert resumed["journal"] == killed["journal"]
    assert resumed["over"] is False
    assert resumed["home"].startswith("Back to the match: ") and "full time" not in resumed["home"]
    assert resumed["home_others"] == ""   # the imported matches are not offered


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_several_unfinished_matches_are_listed_on_home_and_each_resumes(size, tmp_path):
    r = drive("several", tmp_path, size)
    assert r["resumed"] != r["switched"]
    assert "Touchline Rovers 0-0 Harbour Athletic" in r["home_first"]
    assert len(r["others_first"]) == 1 and "Kickers" in r["others_first"][0] and "·" in r["others_first"][0]
    assert "Kickers" in r["home_second"] and "Touchline Rovers" in r["others_second"][0]
    assert not any("Gruenwald" in t for t in r["others_first"] + r["others_second"])   # finished: never offered


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_a_match_is_named_made_a_friendly_deleted_and_restored_by_touch(size, tmp_path):
    r = drive("manage", tmp_path, size)
    before = " ".join(r["league_before"])
    after = " ".join(r["league_friendly"])
    assert "3 finished matches" in before and "friendly" not in before
    assert "2 finished matches (1 friendly not counted)" in after
    assert r["renamed"].startswith("Saved: the match is called Pre-season test")
    assert "out of the league table" in r["friendly"]
    assert "Pre-season test" in r["named_row"] and "friendly" in r["named_row"]
    assert r["deleted_status"].startswith("Deleted SV Rotstein 2-0 Kickers") and "30 days" in r["deleted_status"]
    # The deleted match keeps its place until the list is left: the rows below stay under the finger.
    assert len(r["deleted_place"]) == 1 and "SV Rotstein 2-0 Kickers" in r["deleted_place"][0], r["deleted_place"]
    assert r["undone"].startswith("Restored SV Rotstein 2-0 Kickers")
    assert any("SV Rotstein 2-0 Kickers" in t and "days left" in t for t in r["deleted_tab"])
    assert r["restored"]
    assert "open on the live screen" in r["refused"]
    assert any("Touchline Rovers" in t for t in r["listed"])
    assert r["journal_unchanged"]
    assert r["report_title"].startswith("Pre-season test: FC Gruenwald 2 - 0 SV Rotstein"), r["report_title"]
    assert r["saved_status"].startswith("Saved: ") and "Pre-season test" in r["saved_status"]
    saved = list((tmp_path / "exported").glob("*Pre-season test*.html"))
    assert len(saved) == 1 and "FC Gruenwald 2-0 SV Rotstein" in saved[0].name


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_undo_and_redo_say_what_they_take_back(size, tmp_path):
    r = drive("undo", tmp_path, size)
    assert r["fresh"] == ["Undo", "Redo"]
    # The roll's own log line names it (its wording is the log's: "rolled 7", "rolled black 7").
    assert r["after_roll"].startswith("Undo: roll") and r["after_roll"].endswith("7"), r["after_roll"]
    what = r["after_roll"].removeprefix("Undo: ")
    assert r["after_undo"] == ["Undo", f"Redo: {what}"], r["after_undo"]
    assert r["after_redo"] == [f"Undo: {what}", "Redo"], r["after_redo"]


@pytest.mark.parametrize("size", ["1280x800", "default"])
def test_a_report_is_saved_as_one_file_and_the_coach_is_told_where(size, tmp_path):
    r = drive("saved", tmp_path, size)
    assert r["saved_status"].startswith("Saved: ")
    saved = list((tmp_path / "exported").glob("*.html"))
    assert [p.name for p in saved] == [r["saved_status"].removeprefix("Saved: ")]


def test_a_long_list_shows_the_newest_matches_and_the_rest_on_request(tmp_path):
    """A folder of many matches: the list makes 50 rows (each a few widgets made on the UI
    thread) and offers the rest, so the screen answers at once however many there are."""
    r = drive("long", tmp_path)
    assert r["first_rows"] == 50, r
    assert r["more"] == ["Show the 13 older matches"], r["more"]
    assert r["all_rows"] == 63 and r["more_after"] == [], r
