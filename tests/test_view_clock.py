"""The game clock typed for the screens (companion/view.py): each game's JSON summary read
into a GameClock, at a state of each shipped full match and of a Liga match with chess
clocks; a running clock read at a later instant."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from fussball_liga_kit import Clock, kicked_off

from companion.fussball_liga.model import PhaseLimit
from companion.games import ruleset_for
from companion.jsonl import read_file
from companion.teams import Team
from companion.view import GameClock, Watch, clock_of

DATA = Path(__file__).parent / "data"


def state_after(game: str, file: str, n: int):
    rules = ruleset_for(game)
    s = rules.initial_state()
    for event in read_file(DATA / file).events[:n]:
        s = rules.evolve(s, event)
    return rules.summary(s)


def test_fublet_counts_match_minutes_and_football_leader_has_no_clock():
    fublet = clock_of(state_after("fublet", "fublet_full_match.jsonl", 301))
    assert fublet == GameClock(period="1st half", minute=20)
    assert not fublet.real_time and fublet.expired(fublet_now()) == []
    leader = clock_of(state_after("football_leader", "football_leader_full_match.jsonl", 301))
    assert leader == GameClock(period="1st half") and not leader.real_time


def fublet_now():
    from datetime import UTC, datetime
    return datetime(2026, 1, 1, tzinfo=UTC)


def test_futboard_has_one_match_clock_against_its_time_limit():
    summary = state_after("futboard", "futboard_full_match.jsonl", 301)
    clock = clock_of(summary)
    assert clock.match == Watch(600.0, limit_s=600.0, running=False)
    assert clock.time_up and clock.real_time and clock.match.left_at(None) == 0.0


def test_the_liga_half_clock_and_egg_timer_run_from_the_last_clock_event():
    c = Clock()
    m = kicked_off(clock=c)
    clock = clock_of(m.summary())
    assert clock.match is not None and clock.match.running and clock.match.limit_s == 45 * 60
    assert clock.phase is not None and clock.phase.limit_s == 30 and clock.chess == ()
    later = c.now + timedelta(seconds=31)
    assert clock.phase.elapsed_at(later) == pytest.approx(clock.phase.elapsed_s + 31, abs=1e-6)
    assert clock.expired(later) == [("phase", None)]
    assert clock.as_of == m.summary()["clock"]["as_of"]


def test_the_liga_chess_clocks_are_each_coachs():
    c = Clock()
    m = kicked_off(clock=c, phase_limit=PhaseLimit.CHESS_CLOCK, half_minutes=1)
    clock = clock_of(m.summary())
    assert clock.phase is None and [t for t, _w in clock.chess] == [Team.AWAY, Team.HOME]
    assert clock.chess_of(Team.HOME).running and not clock.chess_of(Team.AWAY).running
    due = clock.expired(c.now + timedelta(seconds=61))
    assert ("half", None) in due and ("phase", Team.HOME) in due


def test_a_watch_reads_like_code():
    assert repr(Watch(12.5, limit_s=30.0, running=False)) == "Watch(12.5, limit_s=30.0, running=False)"
