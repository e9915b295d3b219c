"""Swiss rounds for a weekend tournament: each round pairs teams with equal scores, no two teams
meet twice, one team sits out (the bye) when their number is odd, and home and away take turns.

The pairing is py4swiss's FIDE (Dutch) system (C.04.3; its authors test it against
bbpPairings, the FIDE-endorsed reference): ``pair`` writes the tournament so far as the FIDE
report file (TRF) the engine reads, every team with its pairing number (its place in the
seeding order, the best first), each round's opponent, colour and result, and the engine derives
scores, colour histories, floats and byes from it as an arbiter's program does. The rest of
Touchline knows only this module's ``Game``, ``Score`` and ``pair``: another engine could stand
in behind them.

For pairing, a game counts as chess counts it: a win 1, a draw ½, a loss 0, by the goals of play
(a shoot-out decides a knockout, not a Swiss game: a level game is a draw); the bye is the
engine's pairing-allocated bye, worth a win. Chess's white is the home side.

``standings``: match points as the club's league counts them (3 a win, 1 a draw, 0 a loss; the
bye 3, as a win without goals), then, in this order, the tie-breaks of ``TIEBREAKS``: Buchholz,
Buchholz cut-1, Sonneborn-Berger, goal difference, goals scored, head to head; teams still level
share the place (listed in seeding order). docs/assumptions.md (S1-S4) has the readings.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from ..errors import TouchlineError
from ..report import history

log = logging.getLogger(__name__)

WIN, DRAW = 3, 1
TIEBREAKS = ("points", "buchholz", "buchholz_cut1", "sonneborn_berger", "goal_difference", "goals_for",
             "head_to_head")


class SwissProblem(TouchlineError):
    """A round the Swiss system cannot pair (every pairing left would repeat a game)."""


@dataclass(frozen=True)
class Game:
    home: str
    away: str | None = None     # None: ``home`` sits out this round (the bye)

    @property
    def bye(self) -> bool:
        return self.away is None


@dataclass(frozen=True)
class Score:
    """A game's goals, the pairing's home side first; ``match``: the confirmed match it came from."""

    home: int
    away: int
    match: str = ""


Played = tuple[Game, "Score | None"]   # a game and its confirmed score (None: not played yet; a bye has none)


def max_rounds(teams: int) -> int:
    """The most rounds in which no two of ``teams`` need meet twice (a round robin's count)."""
    return teams - 1 if teams % 2 == 0 else teams


def check(teams: Sequence[str], rounds: int) -> str:
    """Why a Swiss tournament of these teams and rounds cannot be ('' when it can)."""
    if len(teams) < 3:
        return "a Swiss tournament needs at least 3 teams (2 teams: play a match, or a season)"
    if not 1 <= rounds <= max_rounds(len(teams)):
        return (f"{len(teams)} teams can play 1 to {max_rounds(len(teams))} Swiss rounds without two teams "
                f"meeting twice")
    return ""


def pair(teams: Sequence[str], rounds: int, history: Sequence[Sequence[Played]]) -> list[Game]:
    """The next round's games, the top board first, the bye (if any) last. ``teams`` in seeding
    order (the best first); ``history``: every round so far, each game with its score (all of
    them: a round is paired once the one before is complete). Raises ``SwissProblem`` when no
    pairing is left without a repeated game."""
    # Imported here: the engine (and pydantic under it) loads only where a tournament is paired.
    from py4swiss.engines import DutchEngine
    from py4swiss.engines.common import PairingError

    if len(history) >= rounds:
        raise SwissProblem(f"all {rounds} rounds are paired")
    trf = _report(teams, rounds, history)
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError:
        raise SwissProblem(f"round {len(history) + 1} cannot be paired by the Swiss (FIDE Dutch) rules: every "
                           f"pairing left has two teams meet again, or a team at home (or away) a third time "
                           f"running; the tournament ends after round {len(history)}") from None
    games = [Game(teams[p.white - 1], teams[p.black - 1] if p.black else None) for p in pairings]
    return [g for g in games if not g.bye] + [g for g in games if g.bye]


def _report(teams: Sequence[str], rounds: int, history: Sequence[Sequence[Played]]):
    """The tournament so far as py4swiss's parsed TRF."""
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
    from py4swiss.trf.sections import PlayerSection, XSection

    number = {t: i + 1 for i, t in enumerate(teams)}
    results: dict[str, list] = {t: [] for t in teams}
    tenths = {t: 0 for t in teams}
    for r, games in enumerate(history, 1):
        for game, score in games:
            if game.bye:
                results[game.home].append(RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                                                      result=ResultToken.PAIRING_ALLOCATED_BYE))
                tenths[game.home] += 10
                continue
            if score is None:
                raise SwissProblem(f"round {r}: {game.home} v {game.away} has no result yet")
            home, away = _chess(score)
            for team, other, colour, token, got in ((game.home, game.away, ColorToken.WHITE, home[0], home[1]),
                                                    (game.away, game.home, ColorToken.BLACK, away[0], away[1])):
                results[team].append(RoundResult(id=number[other], color=colour, result=token))
                tenths[team] += got
        for team in teams:
            if len(results[team]) != r:
                raise SwissProblem(f"round {r}: {team} is in no game and has no bye")
    players = [PlayerSection(code=PlayerCode.PLAYER, starting_number=number[t], name=None,
                             points_times_ten=tenths[t], rank=number[t], results=results[t]) for t in teams]
    trf = ParsedTrf(player_sections=players, x_section=XSection(number_of_rounds=rounds))
    trf.validate_contents()
    return trf


def _chess(score: Score):
    """((home token, home tenths), (away token, away tenths)): 1, ½ or 0 by the goals."""
    from py4swiss.trf.results import ResultToken

    if score.home > score.away:
        return (ResultToken.WIN, 10), (ResultToken.LOSS, 0)
    if score.home < score.away:
        return (ResultToken.LOSS, 0), (ResultToken.WIN, 10)
    return (ResultToken.DRAW, 5), (ResultToken.DRAW, 5)


def fill(rounds: Sequence[Sequence[Game]], entries: Iterable[history.Entry]) -> list[list[Played]]:
    """Each round's games with the confirmed match that filled each: a match of the game's two
    teams, either way round (the tablet's home side is whoever set up first, the score turned to
    the pairing's home side), the oldest first; each match fills one game."""
    pool = sorted(entries, key=lambda e: (e.date, e.path.name))
    used: set[str] = set()
    out = []
    for games in rounds:
        row: list[Played] = []
        for game in games:
            score = None
            if not game.bye:
                for e in pool:
                    if e.path.name in used or {e.home, e.away} != {game.home, game.away} or e.home == e.away:
                        continue
                    used.add(e.path.name)
                    if e.home == game.home:
                        score = Score(e.home_goals, e.away_goals, e.path.name)
                    else:
                        score = Score(e.away_goals, e.home_goals, e.path.name)
                    break
            row.append((game, score))
        out.append(row)
    return out


def complete(games: Sequence[Played]) -> bool:
    return all(g.bye or s is not None for g, s in games)


@dataclass(frozen=True)
class Standing:
    rank: int             # shared by teams level on every tie-break
    team: str
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    goals_for: int
    goals_against: int
    points: int
    buchholz: int
    buchholz_cut1: int
    sonneborn_berger: float
    head_to_head: int | None   # points in games among the teams level on everything before (None: level with none)

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against


def standings(teams: Sequence[str], rounds: Sequence[Sequence[Played]]) -> list[Standing]:
    """The table by match points and the tie-breaks of ``TIEBREAKS``, in that order."""
    rec = {t: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "byes": 0, "gf": 0, "ga": 0, "points": 0}
           for t in teams}
    meetings: dict[str, list[tuple[str | None, int]]] = {t: [] for t in teams}   # (opponent or None: bye, own points)
    for games in rounds:
        for game, score in games:
            if game.bye:
                rec[game.home]["byes"] += 1
                rec[game.home]["points"] += WIN
                meetings[game.home].append((None, WIN))
                continue
            if score is None:
                continue
            for team, other, scored, conceded in ((game.home, game.away, score.home, score.away),
                                                  (game.away, game.home, score.away, score.home)):
                r = rec[team]
                r["played"] += 1
                r["gf"] += scored
                r["ga"] += conceded
                got = WIN if scored > conceded else DRAW if scored == conceded else 0
                r["won" if got == WIN else "drawn" if got == DRAW else "lost"] += 1
                r["points"] += got
                meetings[team].append((other, got))
    points = {t: rec[t]["points"] for t in teams}

    def contributions(team: str) -> list[int]:
        # A bye counts as a game against a team of one's own score (FIDE's tie-break rules, 2023).
        return [points[other] if other is not None else points[team] for other, _ in meetings[team]]

    rows = {}
    for t in teams:
        c = contributions(t)
        sb = sum(points[o] * (1.0 if got == WIN else 0.5 if got == DRAW else 0.0)
                 for o, got in meetings[t] if o is not None)
        r = rec[t]
        rows[t] = Standing(0, t, r["played"], r["won"], r["drawn"], r["lost"], r["byes"], r["gf"], r["ga"],
                           r["points"], sum(c), sum(c) - min(c) if c else 0, sb, None)

    def key(s: Standing) -> tuple:
        return (-s.points, -s.buchholz, -s.buchholz_cut1, -s.sonneborn_berger, -s.goal_difference, -s.goals_for)

    seed = {t: i for i, t in enumerate(teams)}
    ordered = sorted(rows.values(), key=lambda s: (key(s), seed[s.team]))
    out: list[Standing] = []
    i = 0
    while i < len(ordered):
        group = [s for s in ordered[i:] if key(s) == key(ordered[i])]
        names = {s.team for s in group}
        h2h = {s.team: sum(got for o, got in meetings[s.team] if o in names and o != s.team) if len(group) > 1
               else None for s in group}
        group = sorted((replace(s, head_to_head=h2h[s.team]) for s in group),
                       key=lambda s: (-(s.head_to_head or 0), seed[s.team]))
        for j, s in enumerate(group):
            level = j > 0 and group[j - 1].head_to_head == s.head_to_head
            out.append(replace(s, rank=out[-1].rank if level else len(out) + 1))
        i += len(group)
    return out


def assign_tables(games: Sequence[Game], tables: Sequence[str]) -> list[tuple[str, int] | None]:
    """Each game's (table, sitting), top board at the first table; a bye has none."""
    out: list[tuple[str, int] | None] = []
    k = 0
    for game in games:
        if game.bye:
            out.append(None)
            continue
        out.append((tables[k % len(tables)], k // len(tables) + 1))
        k += 1
    return out
