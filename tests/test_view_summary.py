"""The summary typed for the screens (companion/view.py ``summary_of``): what the tablet
reads of each game's JSON summary (scoreline, turn, restart, result, per-side counters)."""

from __future__ import annotations

from pathlib import Path

from companion.games import ruleset_for
from companion.jsonl import read_file
from companion.teams import Team
from companion.view import Counter, Restart, Result, Summary, Turn, summary_of

DATA = Path(__file__).parent / "data"


def after(game: str, n: int | None = None) -> Summary:
    rules = ruleset_for(game)
    s = rules.initial_state()
    for event in read_file(DATA / f"{game}_full_match.jsonl").events[:n]:
        s = rules.evolve(s, event)
    return summary_of(rules.summary(s))


def test_before_the_match_is_created_nothing_is_claimed():
    rules = ruleset_for("fublet")
    s = summary_of(rules.summary(rules.initial_state()))
    assert s == Summary(game="fublet") and not s.created and not s.over


def test_fublet_rounds_pace_and_movement_points():
    s = after("fublet", 201)
    assert s.teams == ("Touchline Rovers", "Harbour Athletic") and s.name(Team.AWAY) == "Harbour Athletic"
    assert s.name("home") == "Touchline Rovers" and s.score == (0, 0) and s.goals(Team.HOME) == 0
    assert s.round == 7 and s.turn == Turn(7, Team.AWAY, "regular") and s.phase == "outcome"
    assert s.counter("pace") == Counter(1) and s.counter("mp", Team.HOME) == Counter(17)
    assert s.clock.minute == 15 and s.clock.period == "1st half"
    end = after("fublet")
    assert end.over and end.shootout == (4, 2) and end.result == Result(Team.HOME, 1, 1, "shoot-out")


def test_futboard_turns_restarts_and_limits():
    s = after("futboard", 201)
    assert s.variant == "futboard" and s.goal_limit is None and s.round == 2
    assert s.turn == Turn(20, None, actions_left=0, actions_per_turn=3)
    assert s.restart == Restart("kick_off", Team.HOME) and s.phase == "lineup"
    assert s.clock.match is not None and s.clock.match.limit_s == 600
    assert after("futboard").result == Result(None, 1, 1, "time")


def test_football_leader_decks_hands_and_markers_per_side():
    s = after("football_leader", 201)
    assert s.turn == Turn(9, Team.HOME, "start") and s.last_turn is None
    assert s.counter("deck", Team.HOME).maximum == 50 and s.counter("hand", Team.AWAY) is not None
    assert s.counter("markers", Team.HOME).maximum == 5
    assert s.last_outcome.startswith("dodge by #9")


def test_the_liga_movement_points_while_a_movement_phase_runs():
    rules = ruleset_for("fussball_liga")
    st = rules.initial_state()
    seen = set()
    for event in read_file(DATA / "fussball_liga_full_match.jsonl").events:
        st = rules.evolve(st, event)
        s = summary_of(rules.summary(st))
        if s.phase == "movement":
            home, defender = s.counter("mp", Team.HOME), s.counter("defender_mp")
            assert home is not None and home.maximum == 18 and 0 <= home.value <= 18
            assert defender is not None and defender.maximum == 18
            seen.add("movement")
        elif s.created:
            assert s.counter("mp", Team.HOME) is None
        if s.phase in ("shot", "movement"):
            assert s.turn is not None and s.turn.team is not None
    assert seen == {"movement"}
