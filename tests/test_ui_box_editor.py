"""The box editor in the real app, headless (tests/ui_box_editor.py drives it by touches and
typing): every page of every game shown and measured, a value refused with the field and its
range then entered, a placeholder cleared only where entered, the box exported, imported on
another tablet, and used by the next match."""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from pathlib import Path

from test_ui_app import APP_HANG

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


def drive(tmp_path: Path, mode: str, size: str = "1280x800", data: Path | None = None) -> dict:
    out = ARTIFACTS / f"box-editor-{size}-{mode.partition(':')[0]}"
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.png"), out / "result.json"]:
        old.unlink(missing_ok=True)
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2",
               TOUCHLINE_DATA_DIR=str(data or tmp_path / "data"))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_box_editor.py"), str(out), size, mode], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    result_file = out / "result.json"
    assert result_file.exists(), f"the app did not finish:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    result = json.loads(result_file.read_text())
    assert result["error"] == "", result["error"]
    return result


def test_every_page_of_every_box_reads_from_a_metre(tmp_path):
    result = drive(tmp_path, "tour", "1280x800")
    pages = result["seen"]["pages"]
    assert set(pages) == {"fublet", "futboard", "football_leader", "fussball_liga"}
    assert {"Tactical boards", "Round pace bar", "Referee's call board", "Board geometry",
            "Team: Touchline Rovers"} <= set(pages["fublet"])
    assert "Board layout and geometry" in pages["football_leader"]
    assert len(result["screenshots"]) == sum(len(v) for v in pages.values())
    assert result["small_text"] == []
    assert result["small_targets"] == []


def test_a_coach_enters_values_and_the_next_match_uses_them(tmp_path):
    result = drive(tmp_path, "enter", data=tmp_path / "club")
    seen = result["seen"]
    # A speed out of range is refused with the entry, the field's rule and its range; nothing saved.
    assert seen["bad_status"] == "Not saved: Players › #2 Bram: speed is a count of MS, 1..20, got 25"
    assert seen["bad_saved"] is False
    assert seen["garbage_status"].startswith("Speed: type a whole number")
    assert seen["good_status"].startswith("Saved. Still to enter: ")
    # Leaving with a refused entry asks first: stay (back at the entry) or discard (the saved value).
    asks = seen["leave_asks"]
    assert asks["title"] == "Not saved yet"
    assert asks["buttons"] == ["Stay and fix it", "Discard it and leave"]
    assert asks["text"][0].startswith("Players › #2 Bram: speed is a count of MS, 1..20, got 25")
    assert seen["stayed"] == ["box_editor", True, False]
    assert seen["leave_asks_again"]["title"] == "Not saved yet"
    assert seen["back_to"] == "settings" and seen["speed_after_discard"] == 9
    # The status line and the page list count the same thing: the list's numbers add up to it.
    counts = [re.fullmatch(r"(\d+) of (\d+) to enter", note) for note in seen["page_counts"]]
    left = sum(int(m.group(1)) for m in counts if m)
    pages = sum(1 for m in counts if m)
    assert seen["good_status"] == f"Saved. Still to enter: {left} placeholder entries on {pages} pages (amber in " \
                                  f"the list).", (seen["good_status"], seen["page_counts"])
    assert "Team: Touchline Rovers" not in seen["page_counts"] and all(int(m.group(1)) <= int(m.group(2))
                                                                       for m in counts if m)
    # A tactical board by its name; its id (which the journals use) is no text box to edit.
    assert seen["board_id_boxes"] == [] and "Id" not in seen["board_rows"]
    # Only the card typed in is entered: not the next card, not the team.
    assert seen["rovers"] == {"speed_2": 9, "card_2_placeholder": False, "card_3_placeholder": True,
                              "team_placeholder": True}
    assert seen["colours"] == ["#1f4fd1", "#ffffff"]
    # The match wears the box's colours; Harbour's blue clashes with Rovers': white, black numbers.
    assert [round(c * 255) for c in seen["kits"]["home"]["shirt"][:3]] == [0x1f, 0x4f, 0xd1]
    assert [round(c * 255) for c in seen["kits"]["away"]["shirt"][:3]] == [0xf4, 0xf4, 0xf4]
    assert seen["kits"]["away"]["text"][:3] == [0, 0, 0] and "clash" in seen["kits"]["away"]["note"]
    assert seen["referee_placeholder"] is False
    assert "Referee's call board" in seen["placeholders_before"]
    assert "Referee's call board" not in seen["placeholders_after"]
    # The match started next plays with the table's values, and says what is left in one short line.
    assert seen["match_speeds"]["home"] == 9
    assert seen["match_referee_placeholder"] is False
    assert seen["banner"] == "5 values of your box still guessed: tap to enter them"
    assert seen["banner_opens"] == ["box_editor", "Tactical boards"]
    assert seen["banner_back_to"] == "live"
    assert result["small_text"] == [] and result["small_targets"] == []
    # The whole box in one file, imported on another tablet; a bad box file changes nothing there.
    [exported] = seen["exports"]
    other = drive(tmp_path, f"import:{exported}", data=tmp_path / "other")
    got = other["seen"]
    assert got["import_ok"] is True and got["game"] == "fublet"
    assert got["placeholders"] == seen["placeholders_after"]
    assert got["bad_import_ok"] is False
    assert got["bad_import_status"].startswith("Not imported (nothing was changed): not-a-box.json: "
                                               "referee_call_board.json")
    assert got["hostile_import_ok"] is False
    assert got["hostile_import_status"] == ("Not imported (nothing was changed): hostile-box.json: nested more than "
                                            "18 levels deep")
    assert "yellow_from <= red_from <= 101" in got["bad_import_status"]
    referee = json.loads((tmp_path / "other" / "components" / "fublet" / "referee_call_board.json").read_text())
    assert referee["placeholder"] is False and referee["calls"]["tackle"] == {"yellow_from": 80, "red_from": 96}


def test_a_line_up_takes_three_taps_by_preset_as_last_match_or_from_the_camera_which_also_measures_the_board(
        tmp_path):
    # More -> Line-up -> the choice (the live bar keeps Line-up under More with Report and Rules).
    result = drive(tmp_path, "lineup")
    seen = result["seen"]
    assert seen["preset"]["taps"] == 3 and seen["preset"]["figures"] == 22 and seen["preset"]["error"] == ""
    assert seen["preset"]["log"][-1] == "3-5-2 line-up: 22 of 22 placements"
    assert seen["second_before"] == 0
    assert seen["last"] == {"taps": 3, "same_places": True, "figures": 22, "error": ""}
    assert seen["camera"]["taps"] == 3 and seen["camera"]["seen"] == 22
    assert seen["camera"]["at_seen_cells"] is True and seen["camera"]["error"] == ""
    # With the camera up, the box editor measures the demo board's 960 mm touch line on its picture.
    assert abs(seen["distance"] - 960.0) < 5.0, seen["readout"]
    assert seen["readout"].startswith("Point 1: x ")
    assert abs(seen["length_mm"] - 960.0) < 5.0 and seen["status"].startswith("Saved.")
    assert result["small_text"] == [] and result["small_targets"] == []

