"""Property tests: random but legal Fublet play (the auto-driver, seeded by hypothesis)
must keep the invariants the rulebook and the journal promise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.driver import AutoDriver
from companion.fublet.model import MP_CAP, SKILL_MAX, SKILL_MIN, Contest
from companion.fublet.rules import FubletRules
from companion.journal import Journal
from companion.match import Match

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(match: Match) -> None:
    s = match.state
    for team, mp in s.mp.items():
        assert 0 <= mp <= MP_CAP, (team, mp)
    for item in s.queue:
        if isinstance(item, Contest):
            for t in item.tests:
                if t.modifiers and t.player is not None:
                    assert SKILL_MIN <= t.target <= SKILL_MAX, t
    for p in s.players.values():
        if p.on_pitch and p.ms is not None:
            others = [o for o in s.players.values() if o.on_pitch and o.ms == p.ms and o.ref != p.ref]
            assert not others, (p.ref, others)


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(20, 250), positions=st.booleans())
def test_invariants_hold_through_random_play(seed, commands, positions):
    driver = AutoDriver.new(seed=seed, positions=positions)
    for _ in range(commands):
        if driver.over:
            break
        driver.step()
        check_invariants(driver.match)


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(10, 200))
def test_folding_the_journal_from_scratch_equals_the_live_state(seed, commands):
    driver = AutoDriver.new(seed=seed)
    driver.play(commands=commands)
    live = driver.match
    refolded = Match.from_events(FubletRules(), live.events)
    assert refolded.state == live.state
    assert refolded.pending() == live.pending()


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(10, 200), data=st.data())
def test_undo_n_then_redo_n_is_the_identity(seed, commands, data):
    driver = AutoDriver.new(seed=seed)
    driver.play(commands=commands)
    m = driver.match
    state, events = m.state, m.events
    n = data.draw(st.integers(0, m.can_undo))
    assert m.undo(n) == n
    assert m.redo(n) == n
    assert m.state == state and m.events == events
    # A new command after an undo clears what could have been redone.
    if n and not driver.over:
        m.undo(1)
        driver.step()
        assert m.can_redo == 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), commands=st.integers(10, 150), undo=st.integers(0, 5))
def test_a_journal_reopened_without_closing_gives_the_same_state(tmp_path_factory, seed, commands, undo):
    path = tmp_path_factory.mktemp("journal") / "match.sqlite"
    driver = AutoDriver.new(seed=seed, journal=Journal.create(path, "fublet"))
    driver.play(commands=commands)
    driver.match.undo(undo)
    # Not closed: as if the process had been killed.
    reopened = Match.open(path)
    try:
        assert reopened.state == driver.match.state
        assert reopened.events == driver.match.events
        assert reopened.can_redo == driver.match.can_redo
    finally:
        reopened.close()
        driver.match.close()
