"""Swiss tournaments at the club (swiss.py pairs and ranks; the store keeps each round as it was
paired): the organiser creates one, round 1 is paired at once, and each next round is paired as
soon as every game of the round before has a confirmed result (the ledger tells us of each
confirmation), or when the organiser asks, who is told which games are still missing.

A round, once paired, is stored and never paired again: its pairing was published to the room.
Two servers on one PostgreSQL database may both find a round complete at once; the round is
stored by whichever commits first (the store's (tournament, round) key), the other's is dropped.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from typing import Any

from ..report import history
from . import swiss
from .ledger import Ledger, Refused, competition_of, confirmed, entry_of
from .season import check_season
from .store import SwissRound, SwissTournament

log = logging.getLogger(__name__)


class SwissClub:
    """The club's Swiss tournaments over the ledger's store."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.store = ledger.store
        self._lock = threading.Lock()
        ledger.on_confirm(self._confirmed)

    # --- the organiser's ---------------------------------------------------------------------------------
    def create(self, body: Any) -> dict[str, Any]:
        """A new tournament: {name, game, teams (seeding order, the best first), tables, rounds, starts};
        round 1 paired at once."""
        name, game, teams, tables = competition_of(body, "tournament", "rounds, starts")
        rounds = body.get("rounds")
        if type(rounds) is not int:
            raise Refused(400, "rounds must be the number of Swiss rounds to play (a whole number)")
        why = check_season(teams, tables) or swiss.check(teams, rounds)
        if why:
            raise Refused(400, why.replace("a season", "a tournament"))
        starts = body.get("starts", self.ledger.clock()[:10])
        if not isinstance(starts, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", starts):
            raise Refused(400, "starts must be a date (YYYY-MM-DD): matches from that day on count")
        ident = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "swiss"
        now = self.ledger.clock()
        first = swiss.pair(teams, rounds, [])
        with self._lock, self.store.transaction():
            if any(t.id == ident for t in self.store.swiss_tournaments()):
                raise Refused(409, f"the club has a Swiss tournament called {name!r} already")
            self.store.add_swiss(SwissTournament(ident, " ".join(name.split()), game, tuple(teams), tuple(tables),
                                                 rounds, starts, now))
            self.store.add_swiss_round(SwissRound(ident, 1, tuple((g.home, g.away) for g in first), now))
            self.store.notify_change()
        return self.tournament(ident)

    def next_round(self, ident: str) -> dict[str, Any]:
        """Pair the next round now (the organiser's): refused with the games still missing a
        confirmed result, or when every round is paired."""
        found = self._find(ident)
        paired = self._advance(found)
        if paired is None:
            view = self.tournament(ident)
            raise Refused(409, view["next"])
        return self.tournament(ident)

    # --- reading --------------------------------------------------------------------------------------
    def tournaments(self) -> list[dict[str, Any]]:
        return [{"tournament": t.id, "name": t.name, "game": t.game, "teams": len(t.teams), "rounds": t.rounds,
                 "starts": t.starts} for t in self.store.swiss_tournaments()]

    def tournament(self, ident: str) -> dict[str, Any]:
        """Every round (its games at their tables, each with its confirmed result), the bye, the
        standings with their tie-breaks, and what happens next, in words."""
        found = self._find(ident)
        stored = self.store.swiss_rounds(found.id)
        played = swiss.fill([self._games(r) for r in stored], self._entries(found))
        rounds = []
        for r, games in zip(stored, played):
            places = swiss.assign_tables([g for g, _ in games], found.tables)
            out, bye = [], None
            for board, ((game, score), place) in enumerate(zip(games, places), 1):
                if game.bye:
                    bye = game.home
                    continue
                result = None
                if score is not None:
                    winner = game.home if score.home > score.away else game.away if score.away > score.home else None
                    result = {"match": score.match, "home_goals": score.home, "away_goals": score.away,
                              "score": f"{score.home}-{score.away}", "winner": winner}
                out.append({"board": board, "table": place[0], "sitting": place[1], "home": game.home,
                            "away": game.away, "result": result})
            rounds.append({"round": r.round, "paired": r.paired, "games": out, "bye": bye,
                           "complete": swiss.complete(games)})
        table = [{"rank": s.rank, "team": s.team, "played": s.played, "won": s.won, "drawn": s.drawn, "lost": s.lost,
                  "byes": s.byes, "goals_for": s.goals_for, "goals_against": s.goals_against,
                  "goal_difference": s.goal_difference, "points": s.points, "buchholz": s.buchholz,
                  "buchholz_cut1": s.buchholz_cut1, "sonneborn_berger": s.sonneborn_berger,
                  "head_to_head": s.head_to_head} for s in swiss.standings(found.teams, played)]
        missing = [g for g in rounds[-1]["games"] if g["result"] is None] if rounds else []
        finished = len(rounds) == found.rounds and not missing
        words = _next_words(found, len(rounds), missing)
        if not missing and not finished:
            try:   # complete, the next round not stored yet: say so if it can never be paired
                swiss.pair(found.teams, found.rounds, played)
            except swiss.SwissProblem as exc:
                finished, words = True, f"{str(exc)[0].upper()}{str(exc)[1:]}: the standings are final"
        return {"tournament": found.id, "name": found.name, "game": found.game, "starts": found.starts,
                "teams": list(found.teams), "tables": list(found.tables), "rounds_total": found.rounds,
                "round": len(rounds), "finished": finished, "tiebreaks": list(swiss.TIEBREAKS),
                "missing": [{"table": g["table"], "home": g["home"], "away": g["away"]} for g in missing],
                "next": words, "rounds": rounds, "standings": table}

    # --- pairing ---------------------------------------------------------------------------------------
    def _confirmed(self, game: str) -> None:
        """A result was confirmed: pair the next round of each of the game's tournaments whose
        round is now complete. Never fails the confirmation: a round that cannot be paired is
        logged and waits for the organiser."""
        for found in self.store.swiss_tournaments():
            if found.game != game:
                continue
            try:
                self._advance(found)
            except Refused as exc:
                log.warning("Swiss tournament %s: %s", found.id, exc.reason)
            except Exception:
                log.exception("Swiss tournament %s: the next round could not be paired", found.id)

    def _advance(self, found: SwissTournament) -> int | None:
        """Pair and store the next round if the current one is complete; its number, or None."""
        with self._lock, self.store.transaction():
            self.store.lock_match("swiss " + found.id)   # one server at a time pairs a tournament
            stored = self.store.swiss_rounds(found.id)
            if len(stored) >= found.rounds:
                return None
            played = swiss.fill([self._games(r) for r in stored], self._entries(found))
            if played and not swiss.complete(played[-1]):
                return None
            try:
                games = swiss.pair(found.teams, found.rounds, played)
            except swiss.SwissProblem as exc:
                raise Refused(409, str(exc)) from None
            number = len(stored) + 1
            if not self.store.add_swiss_round(SwissRound(found.id, number, tuple((g.home, g.away) for g in games),
                                                         self.ledger.clock())):
                return None
            self.store.notify_change()
            log.info("Swiss tournament %s: round %d paired", found.id, number)
            return number

    def _find(self, ident: str) -> SwissTournament:
        found = next((t for t in self.store.swiss_tournaments() if t.id == ident), None)
        if found is None:
            raise Refused(404, "the club has no such Swiss tournament")
        return found

    @staticmethod
    def _games(r: SwissRound) -> list[swiss.Game]:
        return [swiss.Game(home, away) for home, away in r.games]

    def _entries(self, found: SwissTournament) -> list[history.Entry]:
        """The confirmed, finished matches of the tournament's game from its first day on."""
        results = self.store.results()
        out = []
        for m in self.store.matches():
            if m.game != found.game:
                continue
            summary = json.loads(m.summary) if m.summary else {}
            if (summary.get("finished") and confirmed(m, results.get(m.id))
                    and summary.get("date", "") >= found.starts):
                out.append(entry_of(m, summary))
        return out


def _next_words(found: SwissTournament, paired: int, missing: list[dict[str, Any]]) -> str:
    if missing:
        games = "; ".join(f"{g['table']}: {g['home']} v {g['away']}" for g in missing)
        then = (f"round {paired + 1} is paired" if paired < found.rounds else "the standings are final")
        return f"Round {paired} is under way; {then} once these games have a confirmed result: {games}"
    if paired < found.rounds:
        return (f"Round {paired} is complete; round {paired + 1} is paired with the next confirmed result, or "
                f"by the organiser now")
    return f"All {found.rounds} rounds are played: the standings are final"
