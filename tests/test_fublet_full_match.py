"""A whole scripted Fublet match (tests/data/build_full_match.py): rebuilt identically from
its commands, and replayed from its JSON Lines with the final state checked."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.fublet import events as ev
from companion.fublet.model import Period, RoundKind
from companion.fublet.rules import FubletRules
from companion.jsonl import export_lines, read_file
from companion.match import Match

DATA = Path(__file__).parent / "data"
MATCH = DATA / "fublet_full_match.jsonl"


@pytest.fixture(scope="module")
def replayed() -> Match:
    imported = read_file(MATCH)
    return Match.from_events(FubletRules(), imported.events)


def test_the_script_rebuilds_the_shipped_file_byte_for_byte():
    sys.path.insert(0, str(DATA))
    try:
        import build_full_match
    finally:
        sys.path.remove(str(DATA))
    sc = build_full_match.build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    assert buf.getvalue() == MATCH.read_text(encoding="utf-8"), \
        "the rules changed what this match records: rebuild it with python tests/data/build_full_match.py"


def test_the_match_covers_every_situation_it_is_meant_to(replayed):
    payloads = [e.payload for e in replayed.events]
    types = {type(p) for p in payloads}
    periods = [p.period for p in payloads if isinstance(p, ev.PeriodStarted)]
    assert periods == [Period.FIRST_HALF, Period.SECOND_HALF, Period.EXTRA_FIRST, Period.EXTRA_SECOND]
    assert ev.ShootoutStarted in types
    assert ev.OffsideCalled in types and ev.WallSet in types and ev.PlayerInjured in types
    assert any(isinstance(p, ev.PhaseStarted) and p.round_kind is RoundKind.TRANSITION for p in payloads)
    assert sum(1 for p in payloads if isinstance(p, ev.GoalScored)) == 2
    assert any(isinstance(p, ev.RestartSet) and p.reason.startswith("offside") for p in payloads)


def test_final_state(replayed):
    s = replayed.summary()
    assert s["score"] == {"home": 1, "away": 1}
    assert s["result"] == {"winner": "home", "home": 1, "away": 1, "decided_by": "shoot-out"}
    assert (s["shootout"]["home"], s["shootout"]["away"]) == (4, 2)
    assert s["substitutions_used"] == {"home": 3, "away": 0}
    assert [(c["player"], c["colour"], c["sent_off"]) for c in s["cards"]] == [
        ("away#4", "yellow", False), ("away#4", "yellow", True)]
    players = {p["player"]: p for p in s["players"]}
    assert players["away#4"]["sent_off"] and players["away#4"]["red_card"]
    assert players["home#7"]["injured"] and players["home#7"]["substituted"]
    assert players["home#14"]["where"] == "pitch"
    assert [(g["team"], g["scorer"], g["period"]) for g in s["goals"]] == [
        ("away", "away#8", "first_half"), ("home", "home#10", "second_half")]
    assert s["phase"] == "over" and s["pending"] == []
    assert s["match_minute"] == 120
    assert len(s["placeholders"]) == 6


def test_replay_through_the_cli(tmp_path):
    out = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(MATCH)], capture_output=True,
                         text=True, cwd=Path(__file__).parent.parent, timeout=120)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["result"]["winner"] == "home" and s["score"] == {"home": 1, "away": 1}


def test_the_shipped_demo_is_this_match():
    demo = Path(__file__).parent.parent / "companion" / "demo" / "fublet_demo.jsonl"
    assert demo.read_bytes() == MATCH.read_bytes(), \
        "copy tests/data/fublet_full_match.jsonl to companion/demo/fublet_demo.jsonl"


def test_a_journal_recorded_before_the_offside_escape_named_its_defender_still_replays(replayed, tmp_path):
    """Issue 12 added ``defender`` to the offside escape's context; a journal written before
    (the same match without the field) replays to the same match."""
    old = tmp_path / "before_issue_12.jsonl"
    lines = MATCH.read_text(encoding="utf-8").splitlines()
    stripped = [line.replace(',"defender":"home#4"}', "}") for line in lines]
    assert stripped != lines
    old.write_text("\n".join(stripped) + "\n", encoding="utf-8")
    again = Match.from_events(FubletRules(), read_file(old).events)
    assert again.summary() == replayed.summary()
