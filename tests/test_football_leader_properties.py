"""Property tests: random but legal Football Leader play (the auto-driver, seeded by
hypothesis) keeps the invariants the rulebook and the journal promise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.football_leader_driver import AutoDriver
from companion.football_leader import queries as q
from companion.football_leader.components import Ability
from companion.football_leader.model import GOAL_KICK_HAND, MARKERS, Period, Phase
from companion.football_leader.rules import FootballLeaderRules
from companion.events import Event
from companion.journal import Journal
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


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(10, 300))
def test_folding_the_journal_from_scratch_equals_the_live_state(seed, commands):
    driver = AutoDriver.new(seed=seed)
    driver.play(commands=commands)
    live = driver.match
    # Through JSON, as a journal or an export stores them.
    refolded = Match.from_events(FootballLeaderRules(), [Event.from_line(e.to_line()) for e in live.events])
    assert refolded.state == live.state
    assert refolded.pending() == live.pending()
    assert refolded.summary() == live.summary()


@SETTINGS
@given(seed=st.integers(0, 10**6), commands=st.integers(10, 300), data=st.data())
def test_undo_n_then_redo_n_is_the_identity(seed, commands, data):
    driver = AutoDriver.new(seed=seed)
    driver.play(commands=commands)
    m = driver.match
    state, events = m.state, m.events
    n = data.draw(st.integers(0, m.can_undo))
    assert m.undo(n) == n
    assert m.redo(n) == n
    assert m.state == state and m.events == events
    if n and not driver.over:
        m.undo(1)
        driver.step()
        assert m.can_redo == 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), commands=st.integers(10, 200), undo=st.integers(0, 5))
def test_a_journal_reopened_without_closing_gives_the_same_state(tmp_path_factory, seed, commands, undo):
    path = tmp_path_factory.mktemp("journal") / "match.sqlite"
    driver = AutoDriver.new(seed=seed, journal=Journal.create(path, "football_leader"))
    driver.play(commands=commands)
    driver.match.undo(undo)
    reopened = Match.open(path)  # not closed first: as if the process had been killed
    try:
        assert reopened.state == driver.match.state
        assert reopened.events == driver.match.events
        assert reopened.can_redo == driver.match.can_redo
    finally:
        reopened.close()
        driver.match.close()


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
