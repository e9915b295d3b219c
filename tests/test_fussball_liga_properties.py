"""Property tests: random but legal Fußball-Liga play (the auto-driver, seeded by hypothesis)
keeps the invariants the rulebook and the journal promise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.fussball_liga_driver import LigaDriver
from companion.fussball_liga import queries as q
from companion.fussball_liga.model import Control, Phase, PhaseLimit
from companion.fussball_liga.pitch import dist
from companion.teams import Team

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS = st.fixed_dictionaries({}, optional={
    "goalkeeper_save": st.booleans(), "taking_a_pass": st.booleans(), "goal_posts": st.booleans(),
    "bonus_points": st.booleans(), "phase_limit": st.sampled_from(list(PhaseLimit)),
    "change_ends": st.booleans(), "tournament": st.booleans(),
})


def check_invariants(s) -> None:
    limits = q.limits(s)
    seen = {}
    for p in s.players.values():
        if p.placed:
            assert p.square not in seen, (p.ref, seen[p.square])  # one player per square
            seen[p.square] = p.ref
        assert p.sent_off == (p.yellow >= limits.yellows_to_send_off)
        assert not (p.sent_off and p.on_pitch)
        assert p.fouls == sum(1 for f in s.fouls if f.player == p.ref)
    for team in (Team.HOME, Team.AWAY):
        assert len(q.on_pitch(s, team)) <= 11
        assert sum(1 for p in q.on_pitch(s, team) if p.goalkeeper) <= 1
        assert s.score[team] == sum(1 for g in s.goals if g.team is team)
        assert s.subs_used[team] <= s.options.max_substitutions
    if s.phase is Phase.MOVEMENT:
        m = s.movement
        for team in (Team.HOME, Team.AWAY):
            assert 0 <= m.spent[team] <= limits.mp_per_side
        assert all(v <= limits.mp_per_player for v in m.by_player.values())
        if not m.attacker_done:  # the defender spends at most what the attacker has
            assert m.spent[s.attacking.other] <= m.spent[s.attacking]
    b = s.ball
    if b.holder is not None:
        h = s.players[b.holder]
        assert h.on_pitch
        if h.square is not None and b.square is not None:
            assert dist(h.square, b.square) <= 1
            assert (b.control is Control.CLOSE) <= (h.square == b.square)
            assert (b.control is Control.LOOSE) <= (h.square != b.square)
    if s.flight is not None:
        assert s.phase is Phase.SHOT and len(s.flight.path) <= max(limits.max_shot, limits.max_corner)
    for clock in (s.clocks.half, s.clocks.phase, *s.clocks.chess.values()):
        assert clock.used_us >= 0


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(20, 220), options=OPTIONS)
def test_invariants_hold_through_random_play(seed, commands, options):
    driver = LigaDriver.new(seed=seed, **options)
    for _ in range(commands):
        if driver.over:
            break
        driver.step()
        check_invariants(driver.match.state)


def test_a_whole_match_is_played_to_its_end():
    driver = LigaDriver.new(seed=11, half_minutes=3, extra_time=True, shootout=True)
    driver.play(commands=5000)
    assert driver.over
    s = driver.match.summary()
    assert s["result"] is not None and s["pending"] == []
