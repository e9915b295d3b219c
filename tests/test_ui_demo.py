"""`touchline demo`: a highlight of a whole match through the rendered camera, the simulated
dice tray and the rules, said in captions a newcomer can follow, that says when it is over
and offers what next.

The script alone on the rules core (tests/demo_kit.py, a second), the command flat out as CI
runs it (its journal verified), and the app on screen driven by tests/ui_demo.py (its moments
photographed, the end's buttons tapped)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_ui_app import APP_HANG, not_blank

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
ID = re.compile(r"\b(home|away)#\d")


def test_the_script_plays_a_whole_match_with_every_part_a_coach_meets():
    from demo_kit import RulesOnly

    from companion.events import Source
    from companion.fublet.model import Period, Phase
    from companion.teams import PlayerRef, Team
    from ui.demo_script import CHAPTERS, highlight

    d = RulesOnly()
    highlight(d)
    s = d.state
    assert d.chapters == list(CHAPTERS)
    # The whole match: two halves to the final whistle at 90', the result decided.
    assert s.phase is Phase.OVER and s.period is Period.FULL_TIME and d.m.summary()["match_minute"] == 90
    assert s.result.winner is Team.AWAY and (s.result.home, s.result.away) == (0, 1)
    # A goal, a card, an override, an undo.
    summary = d.m.summary()
    assert [(g["scorer"], g["minute"]) for g in summary["goals"]] == [("away#9", 7)]
    assert [(b.player, b.colour) for b in s.bookings] == [(PlayerRef(Team.AWAY, 4), "yellow")]
    corrections = [e for e in d.m.events if getattr(e.payload, "correction", False)]
    assert [e.payload.player for e in corrections] == [PlayerRef(Team.HOME, 5)]
    assert len(d.m.events) < d.m.last_seq   # the short pass taken back is not among the match's events
    # The camera's moves and the tray's rolls, as the real devices send them.
    sources = {e.source for e in d.m.events}
    assert {Source.VISION, Source.TRAY, Source.MANUAL} <= sources
    # Captions a newcomer reads: names, never ids; each short enough for the band's three lines in a
    # window of 1176 px (a 1280x800 screen's default window).
    texts = [c.text for c in d.captions]
    assert not [t for t in texts if ID.search(t)]
    assert max(len(t) for t in texts) <= 180, max(texts, key=len)
    assert "GOAL!" in " ".join(texts) and "is booked" in " ".join(texts) and "Undo" in " ".join(texts)
    assert texts[-2] == "The final whistle: 90 minutes played. Harbour Athletic win 1-0."
    assert d.gestures[-1] == ("report", None)


def test_the_demo_flat_out_as_ci_runs_it_and_its_journal_verifies(tmp_path):
    result = tmp_path / "demo.json"
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "--pace", "0", "--exit-when-done",
                           "--result", str(result)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=APP_HANG)
    assert result.exists(), proc.stderr[-3000:]
    r = json.loads(result.read_text())
    assert r["error"] == "", r["error"]
    assert proc.returncode == 0
    assert "ALSA" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    s = r["summary"]
    assert s["phase"] == "over" and s["score"] == {"home": 0, "away": 1}
    assert s["result"]["decided_by"] == "full time"
    assert [c["player"] for c in s["cards"]] == ["away#4"]
    # Every part took part: moves proposed by the camera, rolls framed by the tray.
    assert r["sources"].get("vision", 0) >= 25 and r["sources"].get("tray", 0) >= 30
    assert r["camera"] == "ok" and r["tray"] == "ok"
    assert "the camera to see #9's run" in r["steps"] and r["steps"][-1] == "the report"
    assert r["band"]["title"] == "The demo is over"
    assert r["band"]["buttons"] == ["Watch again", "Start your own match"]
    assert r["screen"] == "report"
    # The journal it wrote holds the whole match, the undone declaration too, and verifies.
    verify = subprocess.run([sys.executable, "-m", "companion.cli", "verify", r["journal"]], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert verify.returncode == 0, verify.stderr
    assert "hash chain intact" in verify.stdout and "discarded" in verify.stdout


# 1280x800, and 1176x736: the window the app opens on a 1280x800 screen (room left for a panel),
# the narrowest the captions must fit.
@pytest.mark.parametrize("size", ["1280x800", "1176x736"])
def test_the_demo_on_screen_says_what_happens_and_when_it_is_over(size, tmp_path):
    out = ARTIFACTS / f"demo-{size}"
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.png"), out / "result.json"]:
        old.unlink(missing_ok=True)
    own = tmp_path / "own"
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2", TOUCHLINE_DATA_DIR=str(own))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_demo.py"), str(out), size], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    result_file = out / "result.json"
    assert result_file.exists(), f"the app did not finish:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    r = json.loads(result_file.read_text())
    assert r["error"] == "", r["error"]
    assert not r["faults"], r["faults"]
    assert not r["layout"], "\n".join(r["layout"][:40])
    seen = r["seen"]
    moments = seen["moments"]
    assert set(moments) == {"intro", "camera", "override", "goal", "card", "clock", "half_time", "full_time",
                            "report"}
    # While it plays: the chapter, what happens in words, the camera's picture, the tray's dice.
    assert moments["intro"]["title"] == "Demo, 1 of 12: Setting up"
    assert moments["camera"]["picture"]   # by then the camera has sent frames (at the intro it may not yet)
    assert moments["camera"]["dice"] == [["black", 1], ["white", 2]]
    assert moments["camera"]["dice_by"] == "Harbour Athletic's"
    assert moments["override"]["override"] is True and moments["override"]["selected"] == "home#5"
    assert moments["goal"]["text"].startswith("GOAL! Harbour Athletic lead 1-0")
    assert "#4 Tam is booked" in moments["card"]["text"]
    assert moments["clock"]["text"].startswith("Skipping ahead to half time: ")
    assert moments["report"]["screen"] == "report"
    assert all(m["buttons"] == ["Stop demo"] and not m["over"] for m in moments.values())
    # The end says so, over the report, and offers what next.
    end = seen["end"]
    assert end["over"] and end["title"] == "The demo is over" and end["screen"] == "report"
    assert end["text"].startswith("Full time: Harbour Athletic win 1-0.")
    assert end["buttons"] == ["Watch again", "Start your own match"]
    assert seen["outcome"] == {"error": "", "stopped": False}
    assert seen["report_title"] == "Touchline Rovers 0 - 1 Harbour Athletic"
    # Watch again: a new match from the start; Stop demo says it stopped and offers the same.
    assert seen["again"]["title"].startswith("Demo") and seen["again"]["buttons"] == ["Stop demo"]
    assert seen["again"]["screen"] == "live"
    assert seen["stopped"]["title"] == "The demo is stopped"
    assert seen["stopped"]["buttons"] == ["Watch again", "Start your own match"]
    # Start your own match: the band gone, the devices off, the table's own data folder.
    assert seen["own"] == {"screen": "setup", "band_shown": False, "data_dir": str(own), "camera": "none",
                           "window_children": 1}
    names = {Path(p).stem.rstrip("0123456789") for p in r["screenshots"]}
    assert {"demo_intro", "demo_goal", "demo_over", "demo_stopped", "own_match_setup"} <= names
    for shot in r["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
    assert r["window"] == [int(v) for v in size.split("x")]
