"""A whole scripted Fußball-Liga variant match (tests/data/build_fussball_liga_match.py): rebuilt
identically from its commands, and replayed from its JSON Lines with the final state checked."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.fussball_liga import events as ev
from companion.fussball_liga.model import Period, RestartKind
from companion.fussball_liga.rules import FussballLigaRules
from companion.jsonl import export_lines, read_file
from companion.match import Match

DATA = Path(__file__).parent / "data"
MATCH = DATA / "fussball_liga_full_match.jsonl"


@pytest.fixture(scope="module")
def replayed() -> Match:
    return Match.from_events(FussballLigaRules(), read_file(MATCH).events)


def test_the_script_rebuilds_the_shipped_file_byte_for_byte():
    sys.path.insert(0, str(DATA))
    try:
        import build_fussball_liga_match
    finally:
        sys.path.remove(str(DATA))
    sc = build_fussball_liga_match.build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    assert buf.getvalue() == MATCH.read_text(encoding="utf-8"), \
        "the rules changed what this match records: rebuild it with python tests/data/build_fussball_liga_match.py"


def test_the_match_covers_the_situations_it_is_meant_to(replayed):
    payloads = [e.payload for e in replayed.events]
    types = {type(p) for p in payloads}
    assert [p.period for p in payloads if isinstance(p, ev.PeriodStarted)] == [Period.FIRST_HALF, Period.SECOND_HALF]
    for kind in (ev.OffsideGiven, ev.GoalkeeperHeld, ev.PenaltyTaken, ev.MisconductCalled, ev.SubstitutionMade,
                 ev.ClockPaused, ev.ClockResumed, ev.BallMoved, ev.TackleCalled, ev.InterceptionCalled,
                 ev.BallPlaced):
        assert kind in types, kind
    kicks = {p.kind for p in payloads if isinstance(p, ev.KickTaken)}
    assert {"kick_off", "shot", "follow_up", "free_kick", "indirect_free_kick", "corner_kick", "goal_kick",
            "throw_in"} <= kicks
    assert {p.kind for p in payloads if isinstance(p, ev.TimeUp)} == {"phase", "half"}
    restarts = {p.restart.kind for p in payloads if isinstance(p, ev.RestartSet) and p.restart}
    assert {RestartKind.FREE_KICK, RestartKind.PENALTY, RestartKind.CORNER, RestartKind.THROW_IN,
            RestartKind.GOAL_KICK, RestartKind.INDIRECT_FREE_KICK, RestartKind.KICK_OFF} <= restarts
    sources = {e.source.value for e in replayed.events}
    assert {"manual", "vision", "tray", "rules"} <= sources


def test_final_state(replayed):
    s = replayed.summary()
    assert s["score"] == {"home": 2, "away": 0}
    assert s["result"] == {"winner": "home", "home": 2, "away": 0, "decided_by": "full time",
                           "points": {"home": 3, "away": 0}}
    assert [(g["scorer"], g["period"]) for g in s["goals"]] == [("home#9", "first_half"), ("home#11", "first_half")]
    assert [(x["player"], x["colour"], x["sent_off"]) for x in s["cards"]] == [
        ("away#8", "yellow", False), ("away#8", "yellow-red", True)]
    assert s["tournament"]["suspended_next_match"] == ["away#8"]
    players = {p["player"]: p for p in s["players"]}
    assert players["away#8"]["sent_off"] and players["away#8"]["where"] == "out"
    assert players["home#4"]["substituted"] and players["home#13"]["where"] == "pitch"
    assert s["substitutions_used"] == {"home": 1, "away": 0}
    assert [f["player"] for f in s["fouls"]] == ["away#3", "away#8"]
    assert s["phase"] == "over" and s["pending"] == [] and s["period"] == "full_time"
    assert len(s["placeholders"]) == 7


def test_replay_through_the_cli():
    out = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(MATCH)], capture_output=True,
                         text=True, cwd=Path(__file__).parent.parent, timeout=120)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["game"] == "fussball_liga" and s["result"]["winner"] == "home" and s["score"] == {"home": 2, "away": 0}
