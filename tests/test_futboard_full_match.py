"""A whole scripted Futboard match (tests/data/build_futboard_match.py): rebuilt identically
from its commands, and replayed from its JSON Lines (and through ``touchline replay``) with
the final state checked."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.events import EventPayload
from companion.futboard import events as ev
from companion.futboard.rules import FutboardRules
from companion.jsonl import export_lines, read_file
from companion.match import Match

DATA = Path(__file__).parent / "data"
MATCH = DATA / "futboard_full_match.jsonl"


@pytest.fixture(scope="module")
def replayed() -> Match:
    return Match.from_events(FutboardRules(), read_file(MATCH).events)


def test_the_script_rebuilds_the_shipped_file_byte_for_byte():
    sys.path.insert(0, str(DATA))
    try:
        import build_futboard_match
    finally:
        sys.path.remove(str(DATA))
    sc = build_futboard_match.build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    assert buf.getvalue() == MATCH.read_text(encoding="utf-8"), \
        "the rules changed what this match records: rebuild it with python tests/data/build_futboard_match.py"


def test_the_match_records_every_futboard_event_type(replayed):
    used = {e.type for e in replayed.events}
    ours = {name for name, cls in EventPayload.registry.items() if cls.__module__ == ev.__name__}
    assert used == ours


def test_final_state(replayed):
    s = replayed.summary()
    assert s["phase"] == "over" and s["pending"] == []
    assert s["result"] == {"winner": None, "home": 1, "away": 1, "decided_by": "time"}
    assert s["time_up"] and s["clock"]["elapsed_s"] == 600.0 and s["clock"]["running"] is False
    assert [(g["team"], g["scorer"], g["how"]) for g in s["goals"]] == [
        ("home", "home#9", "kick"), ("away", "away#11", "kick")]
    assert [(c["player"], c["yellow_cards"], c["sent_off"]) for c in s["cards"]] == [
        ("home#9", 1, False), ("away#4", 1, False), ("away#4", 2, True)]
    assert s["fouls"] == {"home": 1, "away": 2}
    players = {p["player"]: p for p in s["players"]}
    assert players["away#4"]["where"] == "sent_off" and players["away#4"]["space"] is None
    assert players["home#9"]["where"] == "reserve" and players["home#16"]["where"] == "field"
    assert sum(p["where"] == "field" for p in s["players"] if p["player"].startswith("away")) == 10
    assert s["round"] == 3 and len(s["placeholders"]) == 6
    payloads = [e.payload for e in replayed.events]
    assert any(isinstance(p, ev.RestartSet) and p.restart is not None and p.restart.TAG == "corner"
               for p in payloads)
    assert any(isinstance(p, ev.PlayerMoved) and not p.action for p in payloads)  # the area cleared


def test_replay_through_the_cli():
    out = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(MATCH)], capture_output=True,
                         text=True, cwd=Path(__file__).parent.parent, timeout=120)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["game"] == "futboard" and s["score"] == {"home": 1, "away": 1}
    assert s["result"]["decided_by"] == "time"


def test_the_event_log_reads_the_match(replayed):
    rules = FutboardRules()
    state = rules.initial_state()
    lines = []
    for event in replayed.events:
        line = rules.log_line(state, event)
        state = rules.evolve(state, event)
        if line:
            lines.append(line)
    assert "GOAL for Home (home#9)" in lines and "Final: 1-1 (draw, time)" in lines
    assert "Foul by away#4 on home#16 inside the area: PENALTY" in lines
    assert "Yellow card: away#4 (second yellow: sent off)" in lines
    assert "Corner kick for Home" in lines and "Time is up (10:00)" in lines
    assert "--- Round 3: Home kicks off (home#16) ---" in lines
