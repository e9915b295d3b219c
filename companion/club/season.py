"""A club's season: every team meets every other once (or home and away), round by round, at
the club's tables; its standings from the results both coaches confirmed.

``round_robin`` pairs the teams by the circle method (Berger tables): in each round every team
plays once (with an odd number of teams one sits out, in turn), and over the season each team
is at home as often as away, give or take one with an even number of teams. Home and away: the
second half of the season plays the first's rounds again with home and away swapped.
``assign_tables`` puts each round's games at the club's tables, in sittings when a round has
more games than there are tables.

A result counts for a fixture when a confirmed match of the season's game was played by its two
teams as home and away (either way round in a single round robin: the tablet's home side is
who set up first, not the season's). Each confirmed match fills one fixture, the earliest open
one; the standings are ``touchline league``'s over the matches that filled a fixture.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..report import history

MAX_TEAMS = 64
MAX_TABLES = 128


@dataclass(frozen=True)
class Fixture:
    round: int        # from 1
    sitting: int      # from 1: more games in a round than tables are played one sitting after another
    table: str
    home: str
    away: str


def round_robin(teams: Sequence[str], home_and_away: bool = False) -> list[list[tuple[str, str]]]:
    """The rounds of a round robin, each a list of (home, away)."""
    arr: list[str | None] = ([None] if len(teams) % 2 else []) + list(teams)   # None: the bye
    n = len(arr)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            home, away = arr[i], arr[n - 1 - i]
            # The fixed seat alternates home and away round by round; the others by their seat.
            if (i == 0 and r % 2 == 1) or (i > 0 and i % 2 == 1):
                home, away = away, home
            if home is not None and away is not None:
                pairs.append((home, away))
        rounds.append(pairs)
        arr = [arr[0], arr[-1]] + arr[1:-1]
    if home_and_away:
        rounds += [[(away, home) for home, away in pairs] for pairs in rounds]
    return rounds


def assign_tables(rounds: Sequence[Sequence[tuple[str, str]]], tables: Sequence[str]) -> list[Fixture]:
    out = []
    for r, pairs in enumerate(rounds, 1):
        for k, (home, away) in enumerate(pairs):
            out.append(Fixture(r, k // len(tables) + 1, tables[k % len(tables)], home, away))
    return out


def check_season(teams: Sequence[str], tables: Sequence[str]) -> str:
    """Why these teams and tables make no season ('' when they do)."""
    if not 2 <= len(teams) <= MAX_TEAMS:
        return f"a season needs 2 to {MAX_TEAMS} teams"
    if len({t.casefold() for t in teams}) != len(teams):
        return "a team is named twice"
    if not 1 <= len(tables) <= MAX_TABLES:
        return f"a season needs 1 to {MAX_TABLES} tables"
    if len(set(tables)) != len(tables):
        return "a table is named twice"
    return ""


@dataclass(frozen=True)
class Played:
    fixture: Fixture
    entry: history.Entry | None     # the confirmed match that filled it (None: still to play)


def fill(fixtures: Sequence[Fixture], entries: Iterable[history.Entry], home_and_away: bool) -> list[Played]:
    """Each fixture with the confirmed match that filled it, oldest match first."""
    open_ = list(fixtures)
    filled: dict[Fixture, history.Entry] = {}
    for e in sorted(entries, key=lambda e: (e.date, e.path.name)):
        for f in open_:
            same = (e.home, e.away) == (f.home, f.away)
            swapped = not home_and_away and (e.home, e.away) == (f.away, f.home)
            if same or swapped:
                filled[f] = e
                open_.remove(f)
                break
    return [Played(f, filled.get(f)) for f in fixtures]


def standings(played: Sequence[Played], game: str) -> list[history.Record]:
    """The season's table: every team, played or not yet, by ``touchline league``'s order."""
    entries = [p.entry for p in played if p.entry is not None]
    table = {r.team: r for r in history.league(entries, game)}
    teams = {t for p in played for t in (p.fixture.home, p.fixture.away)}
    rows = list(table.values()) + [history.Record(t) for t in sorted(teams - set(table), key=str.casefold)]
    return rows
