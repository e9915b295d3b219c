"""Time belongs to the match (issue 29): a game's real-time clocks stop, as journaled events,
when nobody can see them (the live screen left, the app in the background, the app dead) and
a coach starts them again with one tap. Driven by a clock the test moves, never by sleeping."""

from __future__ import annotations

from datetime import timedelta

import pytest

from companion.fussball_liga import commands as lc
from companion.fussball_liga import events as lev
from companion.futboard import commands as fc
from companion.futboard import events as fev
from companion.journal import Journal
from companion.match import Match
from ui.controller import Controller

import fussball_liga_kit as liga
import futboard_kit as fb


def _liga_in_play(tmp_path, clock):
    """A Fußball-Liga match kicked off (the half's clock and the egg timer running), played
    for 20 s, in a journal."""
    path = tmp_path / "liga.sqlite"
    m = liga.new_match(journal=Journal.create(path, "fussball_liga"), clock=clock)
    liga.toss(m)
    liga.lineup(m)
    m.submit(lc.Kick(liga.H(9), (12, 11)))
    if m.pending() and m.pending()[0].kind == "dice":
        liga.dice(m, liga.Team.HOME, 6, 6)
    clock.tick(20)
    m.submit(lc.PassTurn(m.state.movement.turn))
    return m, path


def half_at(view, clock) -> float:
    return view.summary.clock.match.elapsed_at(clock())


def test_a_killed_apps_clock_stands_where_the_last_event_put_it(tmp_path):
    clock = liga.Clock()
    m, path = _liga_in_play(tmp_path, clock)
    last = m.events[-1].at
    played = m.ruleset.summary(m.state)["clock"]["half"]["elapsed_s"]
    assert played == pytest.approx(20.0)
    m.close()                      # killed: nothing more is written
    clock.tick(465)                # the app stays dead 7.75 minutes
    ctl = Controller(threaded=False, data_dir=tmp_path, clock=clock)
    ctl.resume(path)
    view = ctl.view
    stop = ctl.match.events[-1]
    assert isinstance(stop.payload, lev.ClockPaused) and stop.payload.reason == "the app was closed"
    assert stop.at == last         # recorded as of the last event, not of the restart
    assert half_at(view, clock) == pytest.approx(20.0)
    assert view.clock_action == "start" and view.summary.clock.paused
    assert view.summary.clock.expired(clock()) == []     # nothing runs out while it stands
    clock.tick(30)
    assert half_at(ctl.view, clock) == pytest.approx(20.0)
    ctl.start_clocks()             # one tap
    assert ctl.view.clock_action == "stop"
    clock.tick(10)
    assert half_at(ctl.view, clock) == pytest.approx(30.0)
    assert any("Clock stopped: the app was closed" in line for line in ctl.view.log)
    ctl.close()
    # The journal replays to the same clocks: 20 s played, running again since the tap.
    again = Match.open(path, clock=clock)
    half = again.ruleset.summary(again.state)["clock"]["half"]
    assert half["elapsed_s"] == pytest.approx(20.0) and half["running"]
    again.close()


def test_leaving_the_live_screen_stops_the_half_and_the_phase_timer(tmp_path):
    clock = liga.Clock()
    m, path = _liga_in_play(tmp_path, clock)
    m.close()
    ctl = Controller(threaded=False, data_dir=tmp_path, clock=clock)
    ctl.resume(path)
    ctl.start_clocks()
    clock.tick(5)
    assert half_at(ctl.view, clock) == pytest.approx(25.0)
    ctl.stop_clocks("the live screen was left")
    clock.tick(165)                # two minutes and more in other screens
    view = ctl.view
    assert half_at(view, clock) == pytest.approx(25.0)
    assert view.summary.clock.expired(clock()) == []     # the 30 s egg timer does not run out
    assert view.state.turn_no == 1
    ctl.stop_clocks("the live screen was left")          # stopped already: nothing more journaled
    assert isinstance(ctl.match.events[-1].payload, lev.ClockPaused)
    assert sum(isinstance(e.payload, lev.ClockPaused) for e in ctl.match.events) == 2
    ctl.close()


def test_a_futboard_clock_stops_and_starts_the_same_way(tmp_path):
    clock = liga.Clock(fb.T0)
    path = tmp_path / "futboard.sqlite"
    m = fb.new_match(journal=Journal.create(path, "futboard"), clock=clock, time_limit_min=10, goal_limit=None)
    fb.lineup(m)
    m.submit(fc.StartClock(clock()))
    m.submit(fc.Pass(fb.H(9), fb.H(8)))
    clock.tick(42)
    m.submit(fc.EndTurn(m.state.turn))   # the last event, 42 s into the match
    m.close()
    clock.tick(600)                # longer dead than the whole time limit
    ctl = Controller(threaded=False, data_dir=tmp_path, clock=clock)
    ctl.resume(path)
    stop = ctl.match.events[-1]
    assert isinstance(stop.payload, fev.ClockPaused) and stop.payload.reason == "the app was closed"
    w = ctl.view.summary.clock.match
    assert not w.running and w.elapsed_at(clock()) == pytest.approx(42.0)
    assert not ctl.view.state.time_up and ctl.view.clock_action == "start"
    ctl.start_clocks()
    clock.tick(8)
    assert ctl.view.summary.clock.match.elapsed_at(clock()) == pytest.approx(50.0)
    ctl.stop_clocks("the app went to the background")
    assert ctl.match.events[-1].payload.reason == "the app went to the background"
    ctl.close()


def test_games_without_a_real_time_clock_journal_nothing(tmp_path):
    from test_ui_controller import create
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.new_match(create(), seed=5)
    before = len(ctl.match.events)
    ctl.stop_clocks("the live screen was left")
    ctl.start_clocks()
    assert len(ctl.match.events) == before and ctl.view.clock_action == ""
    ctl.close()


def test_a_late_fact_is_never_dated_before_the_last_event_nor_after_now():
    clock = liga.Clock()
    m = liga.new_match(clock=clock)
    last = m.events[-1].at
    with pytest.raises(ValueError, match="between the last event's and now"):
        m.submit(lc.PauseClock("x"), at=last - timedelta(seconds=1))
    with pytest.raises(ValueError, match="between the last event's and now"):
        m.submit(lc.PauseClock("x"), at=clock() + timedelta(seconds=1))
