"""The tablet's match history, league and report screens, used by touch in the real app
(headless), at 1280x800 and at the app's default window size; screenshots kept in
test-artifacts/ for people to look at."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from journal_fixtures import journal_of

from test_ui_app import APP_HANG  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
ARTIFACTS = ROOT / "test-artifacts"


def data_folder(tmp_path: Path) -> Path:
    """Finished matches of every game, one not finished, a damaged journal, a stray file."""
    matches = tmp_path / "data" / "matches"
    matches.mkdir(parents=True)
    for game in ("football_leader", "futboard"):
        shutil.copyfile(DATA / f"{game}_full_match.jsonl", matches / f"{game}.jsonl")
    lines = (DATA / "fussball_liga_full_match.jsonl").read_text(encoding="utf-8").splitlines()
    for name, home, away, day, cut in (("liga1", "SV Rotstein", "FC Gruenwald", 1, None),
                                       ("liga2", "FC Gruenwald", "SV Rotstein", 2, None),
                                       ("liga3", "Kickers Ost", "SV Rotstein", 3, 250)):
        rows = []
        for line in lines[:cut]:
            row = json.loads(line)
            row["at"] = f"2026-12-{day:02d}" + row["at"][10:]
            if row["type"].endswith(".match_created"):
                row["data"]["home"]["name"], row["data"]["away"]["name"] = home, away
            rows.append(json.dumps(row))
        (matches / f"{name}.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    # journals as the tablet writes them (the fixtures carry no chain: an import would mark them altered)
    journal_of(DATA / "fublet_full_match.jsonl", matches / "fublet-final.sqlite")
    # a copy of it someone edited (the home side renamed): listed as altered, beside it
    forged = [json.loads(line) for line in (DATA / "fublet_full_match.jsonl").read_text(encoding="utf-8").splitlines()]
    forged[0]["data"]["home"]["name"] = "Forged Lions"
    (matches / "fublet-forged.jsonl").write_text("".join(json.dumps(e) + "\n" for e in forged), encoding="utf-8")
    unfinished = matches / "liga-unfinished.sqlite"
    journal_of(matches / "liga3.jsonl", unfinished)
    os.utime(unfinished, (1_000_000_000, 1_000_000_000))  # older: the app resumes the finished Fublet one
    (matches / "old-tablet.sqlite").write_bytes(b"SQLite format 3\x00broken")
    (matches / "readme.txt").write_text("notes", encoding="utf-8")
    return tmp_path / "data"


def run(size: str, tmp_path: Path) -> dict:
    out = ARTIFACTS / f"ui-report-{size}"
    (out / "result.json").unlink(missing_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2",
               TOUCHLINE_DATA_DIR=str(data_folder(tmp_path)), TOUCHLINE_EXPORT_DIR=str(tmp_path / "exported"))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_report_scenario.py"), str(out), size], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    result = out / "result.json"
    assert result.exists(), f"the app did not finish:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return json.loads(result.read_text())


@pytest.mark.parametrize("size", ["1280x800", "default"])
def test_history_league_and_report_by_touch(size, tmp_path):
    result = run(size, tmp_path)
    assert result["error"] == "", result["error"]
    seen = result["seen"]
    # the journal and export of liga3: one match; the forged Fublet copy: altered, beside the original
    assert seen["history_status"].startswith("6 matches, 1 altered copy, 2 unreadable files")
    rows = seen["history_rows"]
    assert len(rows) == 7 and sum("(not finished)" in r for r in rows) == 1
    altered = [i for i, r in enumerate(rows) if "(altered)" in r]
    i = altered[0] if len(altered) == 1 else -1
    assert i >= 0 and "Forged Lions" in rows[i]
    assert any("Touchline Rovers" in r and "(finished)" in r for r in rows[max(0, i - 1):i] + rows[i + 1:i + 2])
    assert seen["altered_notes"] == ["fublet-forged.jsonl: altered: its first event differs from fublet-final.sqlite's "
                                     "(the teams, the options or the time were changed); fublet-final.sqlite is the "
                                     "one that counts"]
    assert all("Fußball-Liga" in r and "Gruenwald" in r for r in seen["filtered_rows"]) and \
        len(seen["filtered_rows"]) == 2
    assert "SV Rotstein" in seen["league_texts"] and "Pts" in seen["league_texts"]
    assert seen["export_status"].startswith("Exported")
    assert seen["report_title"] == "Touchline Lions 1 - 1 Harbour Blues"
    assert seen["report_status"].startswith("Final: Touchline Lions win")
    assert seen["plot_images"] == 5
    # Opened again, the report shows the plots drawn the first time: none drawn anew.
    assert seen["reopened_plot_images"] == 5 and len(seen["reopened_drawn"]) == 5 and seen["reopened_redrawn"] == []
    assert seen["save_status"].startswith("Saved: ") and seen["after_back"] == "history"
    saved = sorted((tmp_path / "exported").glob("*.html"))   # one web page a coach can send, plots inside
    assert len(saved) == 1 and "Touchline Lions 1-1 Harbour Blues" in saved[0].name
    assert "data:image/svg+xml;base64," in saved[0].read_text(encoding="utf-8")
    assert (tmp_path / "exported" / f"{saved[0].stem} tables" / "stats.csv").exists()
    assert seen["bad_report_status"].startswith("No report")
    assert seen["live_report_title"] == "Touchline Rovers 1 - 1 Harbour Athletic"
    assert seen["after_live_back"] == "live"
    assert seen["unfinished_status"].startswith("Not finished")
    assert (seen["resumed_screen"], seen["resumed_journal"]) == ("live", "liga-unfinished.sqlite")
    assert seen["in_play_report_status"].startswith("Not finished") and seen["after_in_play_back"] == "live"
    # On the screens added here (not the live screen's own panels): text of 18 sp or more,
    # touch targets of 48 dp or more.
    mine = ("history", "report", "home")
    assert [t for t in seen["small_text"] if t.startswith(mine)] == []
    assert [t for t in seen["small_targets"] if t.startswith(mine)] == []
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"history_matches", "history_league", "report_numbers", "report_plots", "live_final_whistle"} <= names
