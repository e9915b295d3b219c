"""Property tests the journal promises for every game: random but legal play (each game's
auto-driver, seeded by hypothesis) refolds to the same state, undoes and redoes exactly, and
reopens after a kill as it was. The games' own invariants stay in test_<game>_properties.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.driver import AutoDriver as FubletDriver
from benchmarks.football_leader_driver import AutoDriver as FootballLeaderDriver
from benchmarks.fussball_liga_driver import LigaDriver
from benchmarks.futboard_driver import FutboardDriver
from companion.events import Event
from companion.football_leader.rules import FootballLeaderRules
from companion.fublet.rules import FubletRules
from companion.fussball_liga.rules import FussballLigaRules
from companion.futboard.rules import FutboardRules
from companion.journal import Journal
from companion.match import Match
from tests.test_fussball_liga_properties import OPTIONS as LIGA_OPTIONS

@dataclass(frozen=True)
class Game:
    name: str
    driver: Callable[..., Any]  # .new(seed=..., journal=..., **options)
    rules: Callable[[], Any]
    examples: int  # hypothesis examples for the fold and undo properties
    reopen_examples: int
    most_commands: int
    options: st.SearchStrategy = st.just({})


GAMES = [
    Game("fublet", FubletDriver, FubletRules, 25, 10, 200),
    Game("football_leader", FootballLeaderDriver, FootballLeaderRules, 20, 8, 300),
    Game("futboard", FutboardDriver, FutboardRules, 15, 6, 250),
    Game("fussball_liga", LigaDriver, FussballLigaRules, 20, 8, 200, LIGA_OPTIONS),
]
HEALTH = [HealthCheck.too_slow]


def _settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=HEALTH)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_folding_the_journal_from_scratch_equals_the_live_state(game: Game):
    @_settings(game.examples)
    @given(seed=st.integers(0, 10**6), commands=st.integers(10, game.most_commands), options=game.options)
    def check(seed, commands, options):
        driver = game.driver.new(seed=seed, **options)
        driver.play(commands=commands)
        live = driver.match
        # Through JSON, as a journal or an export stores them.
        refolded = Match.from_events(game.rules(), [Event.from_line(e.to_line()) for e in live.events])
        assert refolded.state == live.state
        assert refolded.pending() == live.pending()
        assert refolded.summary() == live.summary()

    check()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_undo_n_then_redo_n_is_the_identity(game: Game):
    @_settings(game.examples)
    @given(seed=st.integers(0, 10**6), commands=st.integers(10, game.most_commands), data=st.data())
    def check(seed, commands, data):
        driver = game.driver.new(seed=seed)
        driver.play(commands=commands)
        m = driver.match
        state, events = m.state, m.events
        n = data.draw(st.integers(0, m.can_undo))
        assert m.undo(n) == n
        assert m.redo(n) == n
        assert m.state == state and m.events == events
        if n and not driver.over:  # a new command after an undo clears what could have been redone
            m.undo(1)
            driver.step()
            assert m.can_redo == 0

    check()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_journal_reopened_without_closing_gives_the_same_state(tmp_path_factory, game: Game):
    @_settings(game.reopen_examples)
    @given(seed=st.integers(0, 10**6), commands=st.integers(10, 150), undo=st.integers(0, 5))
    def check(seed, commands, undo):
        path = tmp_path_factory.mktemp("journal") / "match.sqlite"
        driver = game.driver.new(seed=seed, journal=Journal.create(path, game.name))
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

    check()
