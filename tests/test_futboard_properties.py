"""Property tests: random but legal Futboard play (the auto-driver, seeded by hypothesis) must
keep the invariants the rulebook and the journal promise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.futboard_driver import FutboardDriver
from companion.futboard import queries as q
from companion.futboard.model import ACTIONS_PER_TURN, MAX_PER_LINE, YELLOWS_TO_SEND_OFF, Phase, Where
from companion.futboard.rules import FutboardRules
from companion.match import Match
from companion.teams import Team

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(match: Match) -> None:
    s = match.state
    if not s.created:
        return
    b = q.pitch(s)
    spaces = [p.space for p in s.players.values() if p.on_field and p.space is not None]
    assert len(spaces) == len(set(spaces)), "two figures on one space"
    assert all(b.inside(sq, s.street) for sq in spaces), "a figure stopped outside the field"
    assert 0 <= s.actions_left <= ACTIONS_PER_TURN
    for team in Team:
        assert len(q.on_field(s, team)) <= s.options.variant.squad
        if s.phase is not Phase.LINEUP:
            assert not q.crowded_lines(s, team), f"more than {MAX_PER_LINE} of {team} in a line"
        assert s.score[team] == sum(1 for g in s.goals if g.team is team)
        if s.options.goal_limit is not None:
            assert s.score[team] <= s.options.goal_limit
    for p in s.players.values():
        assert p.yellow <= YELLOWS_TO_SEND_OFF
        assert (p.where is Where.OFF) == (p.yellow == YELLOWS_TO_SEND_OFF)
        if p.where is not Where.FIELD:
            assert p.space is None
    if s.street:
        assert not s.bookings
    if s.phase is Phase.PLAY:
        assert s.ball is not None and s.players[s.ball].on_field
        if not s.queue:
            assert s.turn is not None and s.actions_left >= 1
    if s.phase is Phase.OVER:
        assert s.result is not None and not match.pending()
        assert s.result.decided_by == ("time" if s.time_up else "goal limit")
    for item in s.queue:
        assert any(t.result is None for t in item.tests), "a settled contest stayed open"


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(30, 300))
def test_invariants_hold_through_random_play(seed, commands):
    driver = FutboardDriver.new(seed=seed)
    for _ in range(commands):
        if driver.over:
            break
        driver.step()
        check_invariants(driver.match)


def test_whole_matches_end_by_goals_and_by_time():
    """A few seeded matches played to the end: both endings happen, and the journal refolds."""
    endings = set()
    for seed in range(4):  # seeds 0 and 1 play to three goals, 2 and 3 to a time limit
        driver = FutboardDriver.new(seed=seed)
        driver.play(commands=4000)
        assert driver.over, f"seed {seed} did not finish"
        check_invariants(driver.match)
        endings.add(driver.match.state.result.decided_by)
        assert Match.from_events(FutboardRules(), driver.match.events).state == driver.match.state
    assert endings == {"time", "goal limit"}
