"""The tablet app, headless: a short match played through touches, screenshots of every
screen (kept in test-artifacts/ for people to look at), and the rules core's state after."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
# A drive of the app takes 15 s to 4 min by the machine's load (240 s was once too few at load 9):
# this only stops a hung app, it times nothing.
APP_HANG = 900


def run_scenario(size: str, tmp_path: Path, mode: str = "full", data_dir: Path | None = None) -> dict:
    out = ARTIFACTS / f"ui-{size}-{mode}"
    (out / "result.json").unlink(missing_ok=True)   # never read an earlier run's result
    for old in out.glob("*.png"):                      # nor keep its screenshots
        old.unlink()
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2", TOUCHLINE_DATA_DIR=str(data_dir or tmp_path))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_scenario.py"), str(out), size, mode], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    result_file = out / "result.json"
    assert result_file.exists(), f"the app did not finish:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    result = json.loads(result_file.read_text())
    assert not result.get("faults"), f"the screen met faults: {result['faults']}\n{proc.stderr[-4000:]}"
    # Every screenshot's screen was checked (ui/layout_check.py): text overflowing its box,
    # widgets over each other, touch targets under 48 dp, text under the theme's sizes.
    assert not result.get("layout"), "layout faults:\n" + "\n".join(result["layout"][:40])
    return result


def not_blank(path: str) -> bool:
    import cv2
    image = cv2.imread(path)
    return image is not None and image.size > 0 and float(image.std()) > 10.0


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_a_short_match_through_touches(size, tmp_path):
    result = run_scenario(size, tmp_path)
    assert result["error"] == "", result["error"]
    assert result["window"] == [int(v) for v in size.split("x")]
    s = result["summary"]
    assert s["score"] == {"home": 0, "away": 1}
    assert s["goals"][0]["scorer"] == "away#8"
    assert s["phase"] == "kick_off" and s["restart"]["team"] == "home"
    players = {p["player"]: p for p in s["players"]}
    assert players["away#8"]["ms"] == [12, 14]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"home", "setup", "live_kickoff", "live_save", "live_goal", "settings"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
    assert Path(result["journal"]).exists()


def test_a_killed_app_resumes_the_match_where_it_was(tmp_path):
    killed = run_scenario("1280x800", tmp_path, "kill")
    assert killed["error"] == ""
    before = killed["summary"]
    resumed = run_scenario("1280x800", tmp_path, "resume")
    assert resumed["error"] == "", resumed["error"]
    after = resumed["summary"]
    assert after == before
    assert {p["player"]: p["ms"] for p in after["players"]}["away#8"] == [12, 14]
    assert all(not_blank(s) for s in resumed["screenshots"])


@pytest.mark.parametrize("size", ["1280x800", "1920x1200", "default"])
def test_the_clock_stands_after_a_kill_and_stops_when_the_coach_leaves(size, tmp_path):
    """Issue 29: a Fußball-Liga match killed with its clock running comes back with the clock
    stopped where the last event put it; a tap starts it; leaving the live screen stops it."""
    import fussball_liga_kit as liga
    from companion.fussball_liga import commands as lc
    from companion.journal import Journal
    (tmp_path / "matches").mkdir()
    clock = liga.Clock()
    m = liga.new_match(journal=Journal.create(tmp_path / "matches" / "fussball_liga-killed.sqlite", "fussball_liga"),
                       clock=clock)
    liga.toss(m)
    liga.lineup(m)
    m.submit(lc.Kick(liga.H(9), (12, 11)))
    if m.pending() and m.pending()[0].kind == "dice":
        liga.dice(m, liga.Team.HOME, 6, 6)
    clock.tick(20)
    m.submit(lc.PassTurn(m.state.movement.turn))
    m.close()
    # Played on this tablet: the app resumes only a match its own record names (ui/played_here.py).
    from ui.played_here import note_played
    note_played(tmp_path, tmp_path / "matches" / "fussball_liga-killed.sqlite")
    # Also at the window's default 800x600: the bars under the pitch get a row of their own, the
    # player cards more of the width, and a board that small prints every other goal-zone number.
    result = run_scenario(size, tmp_path, "clock")
    assert result["error"] == "", result["error"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"clock_after_kill", "clock_running", "clock_back"} <= names
    assert all(not_blank(s) for s in result["screenshots"])


@pytest.mark.parametrize("size", ["1280x800", "1920x1200", "default"])
def test_the_calibration_wizard_on_the_demo_camera(size, tmp_path):
    """Also at the window's default 800x600: a long verdict scrolls below the choices, which
    hold still with their lists opening below them (tests/ui_scenario.py)."""
    result = run_scenario(size, tmp_path, "calibrate")
    assert result["error"] == "", result["error"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"calibrate_markers", "calibrate_taps", "camera_check"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot)
    assert (tmp_path / "calibration.json").exists()


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_no_dead_ends_resume_undo_a_new_game_after_figures_calibrate_without_a_camera(size, tmp_path):
    result = run_scenario(size, tmp_path, "deadends")
    assert result["error"] == "", result["error"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"home_nothing_to_resume", "live_football_leader_after_fublet", "calibrate_no_camera"} <= names


def test_an_unusable_data_folder_is_said_on_the_live_screen(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data folder should be")
    result = run_scenario("1280x800", tmp_path, "baddata", data_dir=blocked)
    assert result["error"] == "", result["error"]


@pytest.mark.parametrize("game", ["fublet", "futboard", "football_leader", "fussball_liga"])
def test_every_screen_of_a_match_reads_at_1_m_also_in_large_text_and_high_contrast(game, tmp_path):
    """Every screen a coach meets with a match of ``game`` (setup with a dropdown open, live,
    More, the glossary and a bar's words, rules, report, matches, calibration, settings, the
    scoreboard page, the box editor), then Settings' large text and high contrast and the
    live screen again: each photographed screen passes the layout check (run_scenario
    asserts it: text under 18 sp, on the board too; cut or spilling text; small targets;
    targets moving within a step; file names or coordinates shown to a coach)."""
    result = run_scenario("1280x800", tmp_path, f"screens:{game}")
    assert result["error"] == "", result["error"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"setup_dropdown", "live", "glossary", "reference", "report", "history", "settings", "scoreboard",
            "box_editor", "camera_check", "live_large_contrast", "glossary_large_contrast",
            "camera_check_large_contrast"} <= names, names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
    settings = json.loads((tmp_path / "settings.json").read_text())
    assert settings.get("text_size") == "normal" and settings.get("contrast") == "normal"   # set back
