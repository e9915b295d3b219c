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


# --- knockout ------------------------------------------------------------------------------------

def seeding(size: int) -> list[int]:
    """The standard bracket order of seeds 1..size (size a power of two): 1 meets size, and the
    top two seeds can only meet in the final (1, 8, 4, 5, 2, 7, 3, 6 for eight)."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


@dataclass(frozen=True)
class Tie:
    """One knockout game: its round (1 the first), its place in the round, the two sides (None
    while the game that sends a side there is undecided), and who went through."""

    round: int
    slot: int
    home: str | None
    away: str | None
    winner: str | None = None
    entry: history.Entry | None = None
    bye: bool = False
    drawn: tuple[str, ...] = ()     # confirmed matches of these two that ended level (they play again)


def knockout(teams: Sequence[str], entries: Iterable[history.Entry]) -> list[list[Tie]]:
    """The bracket of ``teams`` (in seeding order, the best first), decided so far by the
    confirmed matches ``entries``: a tie goes to the winner of the first confirmed match of its
    two sides with a winner (after extra time or a shoot-out as the game's rules play them: the
    result's winner); a match that ended level decides nothing. Seeds beyond the teams are byes:
    the top seeds go through to round 2 unplayed."""
    size = 1
    while size < len(teams):
        size *= 2
    by_seed = {i + 1: t for i, t in enumerate(teams)}
    sides: list[str | None] = [by_seed.get(seed) for seed in seeding(size)]
    pool = sorted(entries, key=lambda e: (e.date, e.path.name))
    used: set[str] = set()
    rounds: list[list[Tie]] = []
    first = True
    while len(sides) > 1:
        ties, winners = [], []
        for slot in range(len(sides) // 2):
            home, away = sides[2 * slot], sides[2 * slot + 1]
            if first and (home is None or away is None):   # a bye: the seeded side goes through
                tie = Tie(len(rounds) + 1, slot + 1, home, away, winner=home or away, bye=True)
            else:
                tie = _decide(Tie(len(rounds) + 1, slot + 1, home, away), pool, used)
            ties.append(tie)
            winners.append(tie.winner)
        rounds.append(ties)
        sides, first = winners, False
    return rounds


def _decide(tie: Tie, pool: list[history.Entry], used: set[str]) -> Tie:
    if tie.home is None or tie.away is None:
        return tie
    drawn = []
    for e in pool:
        if e.path.name in used or {e.home, e.away} != {tie.home, tie.away}:
            continue
        used.add(e.path.name)
        winner = e.home if e.winner == "home" else e.away if e.winner == "away" else None
        if winner is None:
            drawn.append(e.path.name)
            continue
        return Tie(tie.round, tie.slot, tie.home, tie.away, winner, e, drawn=tuple(drawn))
    return Tie(tie.round, tie.slot, tie.home, tie.away, drawn=tuple(drawn))
