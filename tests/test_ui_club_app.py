"""A club night on the real tablet app (tests/ui_club.py, in a subprocess, with a real club
server on loopback in that process): joined from Settings by the club's link, the next game at
this table on Home, a match played to the final whistle and sent while played, both coaches'
confirmation, the club out of reach and back. Screenshots in test-artifacts/ui-club-*."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
APP_HANG = 900   # only stops a hung app (see tests/test_ui_app.py); it times nothing


def drive(tmp_path: Path, size: str = "1280x800") -> dict:
    out = ARTIFACTS / f"ui-club-{size}"
    (out / "result.json").unlink(missing_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2", TOUCHLINE_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_club.py"), str(out), size], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    result_file = out / "result.json"
    assert result_file.exists(), f"the app did not finish:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    result = json.loads(result_file.read_text())
    assert result["error"] == "", result["error"]
    assert not result.get("faults"), result["faults"]
    assert not result.get("layout"), "layout faults:\n" + "\n".join(result["layout"][:40])
    return result


def test_a_club_night_at_one_table_joined_played_confirmed_by_both_coaches_and_counted(tmp_path):
    club = drive(tmp_path)["club"]
    # Settings: no club is one short line; the camera's absence said in words; joined, named
    assert club["no_club_line"] == "Club: this tablet is in no club."
    assert "no camera" in club["scan_words"] and "type or paste" in club["scan_words"]
    assert club["joined_line"].startswith("In the club at 127.0.0.1:") and '"Table 3"' in club["joined_line"]
    # Home: the season's game at this table, set up with its teams
    assert club["pairing"] == "Next at this table: SV Rotstein v FC Gruenwald (Autumn League, round 1)"
    assert club["setup_teams"] == ["SV Rotstein", "FC Gruenwald", "Fußball-Liga"]
    # the final whistle: one coach is not enough; the club away, signed but not sent; then sent
    assert "SV Rotstein's coach confirmed. FC Gruenwald's coach: is the result right?" in club["one_confirmed"]
    assert club["unsent"] and "not sent yet" in club["unsent"][0]
    # "trying again in 2 s" or, its backoff already over when the line is read, "trying again now"
    assert "The club cannot be reached: trying again" in club["unreachable_line"]
    assert club["sent"] == ["Result confirmed by both coaches and sent to the club: it counts in the club's league."]
    assert club["all_sent_line"].endswith("All sent.") and club["all_sent_in_settings"].endswith("All sent.")
    # the club holds the tablet's journal, by its last hash, and counts the confirmed result once
    assert club["club_held"]["held"] == club["tablet_last_seq"]
    assert club["club_held"]["head"] == club["tablet_head"]
    (table,) = club["tables"]
    assert table["confirmed"] is True and table["status"] == "finished" and table["tablet"] == "Table 3"
    rows = club["league"]["games"]["fussball_liga"]["table"]
    assert {r["team"]: r["played"] for r in rows} == {"SV Rotstein": 1, "FC Gruenwald": 1}
    assert club["league"]["unconfirmed"] == []
    # renamed from Settings: the club's list says the new name
    assert '"Table 4"' in club["renamed_line"] and club["club_tablets"] == ["Table 4"]
    assert club["left_line"] == "Club: this tablet is in no club." and club["left_button"] == "Join a club"
    (filled,) = club["season_filled"]
    assert filled["table"] == "Table 3" and filled["result"]["match"] == table["match"]
