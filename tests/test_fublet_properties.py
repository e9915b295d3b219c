"""Property tests: random but legal Fublet play (the auto-driver, seeded by hypothesis)
must keep the invariants the rulebook and the journal promise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.driver import AutoDriver
from companion.fublet.model import MP_CAP, SKILL_MAX, SKILL_MIN, Contest
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

