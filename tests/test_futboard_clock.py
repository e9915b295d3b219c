"""The time limit: the match clock folded from journaled starts and pauses (the tablet's
instants), and "time is up" as the tablet's proposal, checked against that fold."""

from __future__ import annotations

from datetime import datetime

import pytest

from companion.errors import RuleViolation
from companion.futboard import commands as c
from companion.futboard.model import Phase
from companion.futboard.rules import FutboardRules
from companion.match import Match
from companion.teams import Team

from futboard_kit import A, H, at, d12, fix, kicked_off, lineup, new_match


def test_the_clock_counts_only_while_running():
    m = new_match(time_limit_min=20, goal_limit=None)
    assert m.pending()[-1].id == "clock" and "0:00 of 20:00" in m.pending()[-1].text
    m.submit(c.StartClock(at(0)))
    assert not any(r.id == "clock" for r in m.pending())
    m.submit(c.PauseClock(at(300)))
    m.submit(c.StartClock(at(420)))          # two minutes of pause do not count
    s = m.state
    assert s.clock.elapsed_s == 300.0 and s.clock.running
    assert s.clock.elapsed_at(at(720)) == 600.0
    summary = m.summary()["clock"]
    assert summary == {"running": True, "elapsed_s": 300.0, "since": "2026-12-05T15:07:00.000000Z", "text": "5:00"}


def test_clock_commands_are_checked():
    m = new_match(time_limit_min=20, goal_limit=None)
    with pytest.raises(RuleViolation, match="not running"):
        m.submit(c.PauseClock(at(0)))
    m.submit(c.StartClock(at(10)))
    with pytest.raises(RuleViolation, match="already running"):
        m.submit(c.StartClock(at(20)))
    with pytest.raises(RuleViolation, match="before the last clock event"):
        m.submit(c.PauseClock(at(5)))
    with pytest.raises(RuleViolation, match="time zone"):
        m.submit(c.PauseClock(datetime(2026, 12, 5, 15, 1)))


def test_time_up_is_refused_before_the_limit_and_accepted_at_it():
    m = new_match(time_limit_min=20, goal_limit=None)
    lineup(m)
    m.submit(c.StartClock(at(0)))
    m.submit(c.Pass(H(9), H(8)))
    with pytest.raises(RuleViolation, match=r"only 19:58 of 20:00 played"):
        m.submit(c.CallTimeUp(at(1198)))
    m.submit(c.CallTimeUp(at(1199.5)))      # within the 1 s tolerance
    s = m.summary()
    assert s["phase"] == "over" and s["result"] == {"winner": None, "home": 0, "away": 0, "decided_by": "time"}
    assert m.events[-2].payload.elapsed_s == 1199.5


def test_a_goal_limit_match_has_no_time_up():
    m = new_match(goal_limit=3)
    with pytest.raises(RuleViolation, match="ends at 3 goals"):
        m.submit(c.CallTimeUp(at(10_000)))


def test_time_up_waits_for_the_kick_in_flight():
    m = kicked_off(time_limit_min=1, goal_limit=None)
    m.submit(c.StartClock(at(0)))
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    m.submit(c.CallTimeUp(at(61)))
    assert m.state.time_up and m.state.phase is Phase.PLAY and m.state.queue
    d12(m, Team.HOME, 1)
    d12(m, Team.AWAY, 12)
    s = m.state
    assert s.phase is Phase.OVER and s.result.winner is Team.HOME and s.result.decided_by == "time"


def test_a_penalty_awarded_is_taken_after_time_up():
    m = kicked_off(to=8, time_limit_min=1, goal_limit=None)
    m.submit(c.StartClock(at(0)))
    fix(m, H(8), (17, 8))
    m.submit(c.EndTurn(Team.HOME))
    m.submit(c.TakeBall(A(4)))
    d12(m, Team.AWAY, 12)
    assert m.state.phase is Phase.PENALTY
    m.submit(c.CallTimeUp(at(90)))
    assert m.state.phase is Phase.PENALTY
    m.submit(c.Move(A(3), (15, 5)))
    m.submit(c.Move(A(4), (15, 8)))
    from companion.commands import PlaceFigure
    m.submit(PlaceFigure(H(9), square=(17, 6)))
    d12(m, Team.HOME, 2)
    d12(m, Team.AWAY, 11)
    assert m.state.phase is Phase.OVER and m.state.score[Team.HOME] == 1


def test_the_clock_replays_from_the_journal_alone():
    m = new_match(time_limit_min=20, goal_limit=None)
    m.submit(c.StartClock(at(0)))
    m.submit(c.PauseClock(at(61.25)))
    again = Match.from_events(FutboardRules(), m.events)
    assert again.state.clock == m.state.clock and again.state.clock.elapsed_s == 61.25
    m.undo()
    assert m.state.clock.running
