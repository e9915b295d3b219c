"""Names, not ids, in what the tablet says of a match: every line of the live log, the last
outcome and the pending requests' texts, as each game's scripted match (the benchmark
drivers) plays, read the way the live screen reads them.

A failure names the game, the line and the id in it: word it in ui/words.py (``Names``) or in
the game's describe function.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.driver import AutoDriver as FubletDriver
from benchmarks.football_leader_driver import AutoDriver as FootballLeaderDriver
from benchmarks.fussball_liga_driver import LigaDriver
from benchmarks.futboard_driver import FutboardDriver
from ui.controller import Controller
from ui.web.follow import Folded
from ui.words import Names

ROOT = Path(__file__).resolve().parent.parent
# Shipped team files' keys ("rovers"): a team is named by its roster, never by its file.
TEAM_KEYS = sorted({p.stem for p in ROOT.glob("companion/*/data/teams/*.json")})
ID = re.compile(r"\b(home|away)#\d+|PlayerRef\(|Team\.(HOME|AWAY)|\brequest c\d+\b|\b("
                + "|".join(TEAM_KEYS) + r")\b")

DRIVERS = {
    "fublet": lambda: FubletDriver.new(seed=1),
    "football_leader": lambda: FootballLeaderDriver.new(seed=1),
    "fussball_liga": lambda: LigaDriver.new(seed=1),
    "futboard": lambda: FutboardDriver.new(seed=1),
}


def test_the_id_pattern_catches_ids():
    for line in ("away#7 moves to E2", "Free kick for Home (foul by home#11)", "Choice made: request c12",
                 "rovers rolled 7", "PlayerRef(Team.HOME, 7)"):
        assert ID.search(line), line
    for line in ("Touchline Rovers #7 Kit moves to E2", "Home #7 declares a pass", "Round 3"):
        assert not ID.search(line), line


def test_names_say_team_number_and_name():
    names = Names({"home": "Touchline Rovers", "away": "Harbour Athletic"},
                  {"home#7": "Kit", "home#9": "Zed", "away#4": "Abe"})
    assert names.line("home#7 passes to home#9") == "Touchline Rovers #7 Kit passes to #9 Zed"
    assert names.line("away#4 takes the ball from home#7") == \
        "Harbour Athletic #4 Abe takes the ball from Touchline Rovers #7 Kit"
    assert Names({}, {}).line("GOAL for Home (home#9)") == "GOAL for Home (Home #9)"
    # A rules' line the panel begins with a capital still names its figure (the Liga's set-up).
    assert names.line("Away#4 is 1 square from the ball; keep 3 away") == \
        "Harbour Athletic #4 Abe is 1 square from the ball; keep 3 away"


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_a_scripted_match_reads_without_ids(game):
    driver = DRIVERS[game]()
    seen: list[str] = []
    for _ in range(40):   # a few hundred commands, in steps, so requests and outcomes are read too
        driver.play(commands=8)
        summary = driver.match.summary()
        names = Names.of_summary(summary)
        seen += [f"request: {names.line(str(r.get('text', '')))}" for r in summary.get("pending", [])]
        seen.append(f"outcome: {names.line(str(summary.get('last_outcome') or ''))}")
        if driver.over:
            break
    m = driver.match
    rules, state = m.ruleset, m.ruleset.initial_state()
    folded = Folded(rules, rules.initial_state())
    for event in m.events:
        seen += [f"log: {line}" for line in Controller._lines(rules, state, event)]
        state = rules.evolve(state, event)
        folded.apply(event)   # the web scoreboard's log
    seen += [f"web log: {line}" for line in folded.log]
    # The web scoreboard's page data: its log, requests and refusal.
    from ui.games import face_for
    from ui.web.snapshot import Builder
    page = Builder(rules, face_for(game)).build(1, m.state, folded.log, m.events[-1]).data
    seen += [f"web page: {line}" for line in page["log"] + [p["text"] for p in page["pending"]]]
    assert sum(line.startswith("log:") for line in seen) > 50, "the match was too short to say anything"
    bad = [line for line in seen if ID.search(line)]
    assert not bad, f"{game}: {len(bad)} lines name an id, e.g.:\n" + "\n".join(bad[:12])
