"""A whole scripted Football Leader match (tests/data/build_football_leader_match.py): rebuilt
identically from its commands, and replayed from its JSON Lines with the final state checked."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.events import EventPayload
from companion.football_leader import events as ev
from companion.football_leader.model import Period, RestartKind
from companion.football_leader.rules import FootballLeaderRules
from companion.jsonl import export_lines, read_file
from companion.match import Match
from companion.teams import Team

DATA = Path(__file__).parent / "data"
MATCH = DATA / "football_leader_full_match.jsonl"


@pytest.fixture(scope="module")
def replayed() -> Match:
    imported = read_file(MATCH)
    return Match.from_events(FootballLeaderRules(), imported.events)


def test_the_script_rebuilds_the_shipped_file_byte_for_byte():
    sys.path.insert(0, str(DATA))
    try:
        import build_football_leader_match
    finally:
        sys.path.remove(str(DATA))
    sc = build_football_leader_match.build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    assert buf.getvalue() == MATCH.read_text(encoding="utf-8"), \
        "the rules changed what this match records: rebuild it with python tests/data/build_football_leader_match.py"


def test_the_match_uses_every_event_type(replayed):
    used = {e.type for e in replayed.events}
    assert used == {n for n in EventPayload.registry if n.startswith("football_leader.")}


def test_the_match_covers_every_situation_it_is_meant_to(replayed):
    payloads = [e.payload for e in replayed.events]
    periods = [p.period for p in payloads if isinstance(p, ev.PeriodStarted)]
    assert periods == [Period.FIRST_HALF, Period.SECOND_HALF, Period.EXTRA_FIRST, Period.EXTRA_SECOND]
    restarts = {p.restart.kind for p in payloads if isinstance(p, ev.RestartSet) and p.restart}
    assert restarts == set(RestartKind)
    shuffles = [p.size for p in payloads if isinstance(p, ev.DeckShuffled)]
    assert shuffles == [50, 50, 50, 50, 25, 25, 25, 25, 50, 50]
    # Every half ended because a deck ran out; in three of them the other coach picked his last
    # card before his one more turn, and the half waited for his own last turn (2.2, FL11).
    ends, period = [], None
    for p in payloads:
        if isinstance(p, ev.PeriodStarted):
            period = p.period
        elif isinstance(p, ev.LastTurnSet):
            ends.append((period, p.team))
    assert ends == [(Period.FIRST_HALF, Team.HOME), (Period.SECOND_HALF, Team.AWAY), (Period.SECOND_HALF, Team.HOME),
                    (Period.EXTRA_FIRST, Team.HOME), (Period.EXTRA_FIRST, Team.AWAY),
                    (Period.EXTRA_SECOND, Team.AWAY), (Period.EXTRA_SECOND, Team.HOME)]
    assert any(isinstance(p, ev.TackleDeclared) and p.move_card for p in payloads)
    assert any(isinstance(p, ev.PassDeclared) and p.dodge_card for p in payloads)
    assert any(isinstance(p, ev.ChoiceMade) and p.option.startswith("gold-") for p in payloads)  # a card asked
    assert any(isinstance(p, ev.FigurePlaced) and p.correction for p in payloads)
    dice = [p for p in payloads if isinstance(p, ev.DiceRolled)]
    assert any(p.miss and len(p.roll.dice) == 2 for p in dice)  # the black die's 1


def test_final_state(replayed):
    s = replayed.summary()
    assert s["score"] == {"home": 1, "away": 1}
    assert s["result"] == {"winner": "home", "home": 1, "away": 1, "decided_by": "penalty kicks"}
    assert (s["shootout"]["home"], s["shootout"]["away"]) == (4, 3)
    assert len(s["shootout"]["kicks"]) == 12
    assert [(g["team"], g["scorer"], g["period"]) for g in s["goals"]] == [
        ("home", "home#7", "first_half"), ("away", "away#14", "second_half")]
    assert [(c["player"], c["colour"], c["sent_off"]) for c in s["cards"]] == [
        ("away#9", "yellow", False), ("away#10", "yellow", False), ("home#1", "red", True),
        ("away#10", "yellow", True)]
    players = {p["player"]: p for p in s["players"]}
    assert players["home#13"]["goalkeeper"] and players["home#13"]["acting_keeper"]
    assert players["home#13"]["characteristics"]["parry"] == "BRONZE-8"
    assert players["home#1"]["sent_off"] and players["away#10"]["sent_off"]
    assert players["away#9"]["replaced"] and players["home#8"]["replaced"] and players["home#7"]["replaced"]
    assert s["replacements_used"] == {"home": 3, "away": 1}  # the substitute goalkeeper counts
    assert s["position_changes_used"] == {"home": 2, "away": 2}
    assert s["phase"] == "over" and s["pending"] == []
    assert len(s["placeholders"]) == 4


def test_replay_through_the_cli():
    out = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(MATCH)], capture_output=True,
                         text=True, cwd=Path(__file__).parent.parent, timeout=120)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["game"] == "football_leader"
    assert s["result"]["winner"] == "home" and s["score"] == {"home": 1, "away": 1}
