"""Property tests: random but legal Football Leader play (the auto-driver, seeded by
hypothesis) keeps the invariants the rulebook and the journal promise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.football_leader_driver import AutoDriver
from companion.football_leader import queries as q
from companion.football_leader.components import Ability
from companion.football_leader.model import GOAL_KICK_HAND, MARKERS, Period, Phase
from companion.match import Match
from companion.teams import Team

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(match: Match) -> None:
    s = match.state
    if not s.created or s.components is None:
        return
    deck = s.components.deck.counts()
    for team in (Team.HOME, Team.AWAY):
        book = s.cards[team]
        assert 0 <= book.hand <= GOAL_KICK_HAND and book.deck >= 0, (team, book)
        for card, n in book.played.items():
            assert n <= deck[card], (team, card, n)
        if s.period is not Period.EXTRA_SECOND and book.size:
            assert book.deck + book.hand + sum(book.played.values()) == book.size, (team, book)
        players = q.on_pitch(s, team)
        assert len(players) <= 11
        assert sum(p.markers for p in players) <= MARKERS, team
        for p in players:
            assert p.markers <= (2 if p.counter.has(Ability.RUN) else 1), p.ref
        if not s.queue and s.phase is not Phase.STRATEGY:
            assert sum(1 for p in players if p.goalkeeper) == 1, team
        spaces = {}
        for p in players:
            if p.space is not None:
                spaces[p.space] = spaces.get(p.space, 0) + 1
        for space, n in spaces.items():
            assert n <= q.board(s).space(space).capacity, (team, space, n)
    if s.ball is not None:
        assert s.players[s.ball].on_pitch, s.ball


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(20, 400))
def test_invariants_hold_through_random_play(seed, commands):
    driver = AutoDriver.new(seed=seed)
    for _ in range(commands):
        if driver.over:
            break
        driver.step()
        check_invariants(driver.match)


def test_whole_matches_play_to_the_end_without_an_unexpected_refusal():
    for seed in (11, 12, 13):
        driver = AutoDriver.new(seed=seed)
        driver.play()
        assert driver.over
        s = driver.match.summary()
        assert s["result"] is not None and s["pending"] == []
        # Only speculative commands may be refused (see benchmarks/football_leader_driver.py).
        assert all(r.reason.startswith("Football Leader rulebook") for r in driver.refusals)


def test_the_driver_is_deterministic():
    a, b = AutoDriver.new(seed=5), AutoDriver.new(seed=5)
    a.play(commands=300)
    b.play(commands=300)
    assert [e.payload for e in a.match.events] == [e.payload for e in b.match.events]
