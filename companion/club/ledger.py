"""The club's ledger: what happens to what tablets send, whatever carries it (HTTP here, a
test's call). Pure Python; the store holds the state (companion/club/store.py).

Publishing a match's journal (``publish``): a batch of rows (seq, batch, at, source, type,
data, hash: the journal's own columns) for a match named by the hash of its event 1. Rows the
club already holds must be identical (same seq, same event): a different event for a seq
already held is a fork, refused with ``Refused(409)`` and recorded for the organiser. New rows
are stored; the events from 1 up to the first gap are checked exactly as a journal is read
(companion/journal_chain.py: order, batches, statuses, the hash chain, decoding, the games'
domains) and folded by the game's rules into the match's summary. Rows beyond a gap (a batch
that overtook another) wait, unchecked, until the gap is filled. A batch that would break the
chain, or not replay, is refused whole with its reason: nothing of it is stored. So the same
batch sent twice, batches sent in any order, or an upload resumed from anywhere, all end in
the same state.

Undo and redo change no event, only its status: each upload carries the journal's undone and
discarded batches as a snapshot numbered by the tablet (``rev``); the club keeps the newest.

A result counts (``confirm``) once the tablet that published the match has signed it
(companion/club/keys.py: the match, its last seq, the journal's last hash and its undone and
discarded batches), the signature verifies against the key that tablet registered, and the
club holds exactly that journal, finished. A journal cut short, one that goes on past the
signed end, or any other head is refused with its reason.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ..errors import TouchlineError
from ..journal_chain import ACTIVE, DISCARDED, GENESIS, MAX_EVENTS, UNDONE, Broken, check_rows
from ..journal_domains import domain_checker
from ..report import history
from . import keys
from .season import assign_tables, check_season, fill, knockout, round_robin, standings as season_standings
from .store import Fork, MatchRow, Result, Season, Store, Tablet

log = logging.getLogger(__name__)

MAX_BATCH = 1000          # rows in one upload (a whole Football Leader match is about 2,100)
MAX_NAME = 80
HEX64 = re.compile(r"[0-9a-f]{64}")


class Refused(TouchlineError):
    """A request the club will not carry out; ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class Upload:
    """A publish request, read and shape-checked."""

    match: str
    rows: tuple[tuple, ...]      # (seq, batch, at, source, type, data, hash), sorted by seq
    rev: int
    undone: tuple[int, ...]
    discarded: tuple[int, ...]


def read_upload(body: Any) -> Upload:
    """An upload from its JSON body, or ``Refused(400)`` naming what is wrong."""
    if not isinstance(body, dict):
        raise Refused(400, "the body must be a JSON object")
    match = body.get("match")
    if not isinstance(match, str) or not HEX64.fullmatch(match):
        raise Refused(400, "match must be the hash of the match's event 1 (64 lowercase hex digits)")
    rows = body.get("events", [])
    if not isinstance(rows, list):
        raise Refused(400, "events must be a list")
    if len(rows) > MAX_BATCH:
        raise Refused(413, f"at most {MAX_BATCH} events in one upload, got {len(rows)}; send them in parts")
    by_seq: dict[int, tuple] = {}
    for i, row in enumerate(rows):
        parsed = _row(row, i)
        if parsed[0] in by_seq and by_seq[parsed[0]] != parsed:
            raise Refused(409, f"event {parsed[0]}: sent twice in this upload, as two different events (a fork)")
        by_seq[parsed[0]] = parsed
    statuses = body.get("statuses", {"rev": 0, "undone": [], "discarded": []})
    if not isinstance(statuses, dict):
        raise Refused(400, "statuses must be an object: rev, undone, discarded")
    rev = statuses.get("rev", 0)
    if type(rev) is not int or rev < 0:
        raise Refused(400, "statuses.rev must be a whole number from 0")
    lists = []
    for name in ("undone", "discarded"):
        value = statuses.get(name, [])
        if not isinstance(value, list) or len(value) > MAX_EVENTS or any(type(b) is not int or b < 1 for b in value):
            raise Refused(400, f"statuses.{name} must be a list of batch numbers")
        lists.append(tuple(sorted(set(value))))
    if set(lists[0]) & set(lists[1]):
        raise Refused(400, "a batch cannot be both undone and discarded")
    return Upload(match, tuple(by_seq[s] for s in sorted(by_seq)), rev, lists[0], lists[1])


def _row(row: Any, i: int) -> tuple:
    if not isinstance(row, dict):
        raise Refused(400, f"events[{i}] must be an object")
    seq, batch = row.get("seq"), row.get("batch")
    if type(seq) is not int or not 1 <= seq <= MAX_EVENTS:
        raise Refused(400, f"events[{i}].seq must be a whole number from 1 to {MAX_EVENTS}")
    if type(batch) is not int or not 1 <= batch <= seq:
        raise Refused(400, f"event {seq}: batch must be a whole number from 1 to its seq")
    out = [seq, batch]
    for name in ("at", "source", "type", "data"):
        value = row.get(name)
        if not isinstance(value, str):
            raise Refused(400, f"event {seq}: {name} must be text (data: the payload's JSON text as stored)")
        out.append(value)
    digest = row.get("hash")
    if not isinstance(digest, str) or not HEX64.fullmatch(digest):
        raise Refused(400, f"event {seq}: hash must be 64 lowercase hex digits")
    out.append(digest)
    return tuple(out)


def _prefix(rows: dict[int, tuple]) -> list[tuple]:
    """The rows from seq 1 up to the first gap."""
    out, seq = [], 1
    while seq in rows:
        out.append(rows[seq])
        seq += 1
    return out


@dataclass
class Folded:
    """A match as last checked and folded, kept in memory so the next upload is checked and
    folded from where this one ended (not from event 1 again): the chain's end, the statuses it
    was folded with, the game's state, its rules and the domain checker that has seen event 1."""

    held: int
    head: str
    statuses: tuple
    state: Any
    ruleset: Any
    domain: Callable[[Any], None]
    date: str


FOLDS_KEPT = 256   # matches kept folded in memory (a club night's tables, many times over)


class Ledger:
    """The club's rules for what tablets send, over a store. One writer at a time per process
    (the lock); the store's transaction makes each request all or nothing."""

    def __init__(self, store: Store, join_token: str, organiser_token: str,
                 clock: Callable[[], str] = utc_now) -> None:
        self.store = store
        self.join_token = join_token
        self.organiser_token = organiser_token
        self.clock = clock
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        self._confirm_listeners: list[Callable[[str], None]] = []
        self._folds: OrderedDict[str, Folded] = OrderedDict()
        self._fresh: Folded | None = None   # what the upload under way folded, kept once it commits
        self.refolds = 0                    # uploads checked and folded from event 1 (the rest from where they left)

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after each write that changed what the tables show."""
        self._listeners.append(listener)

    def on_confirm(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(game)`` after each result confirmed (a tournament's round may be complete)."""
        self._confirm_listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # --- who may write ------------------------------------------------------------------------------
    def is_organiser(self, token: str) -> bool:
        return bool(token) and hmac.compare_digest(token.encode(), self.organiser_token.encode())

    def register(self, body: Any) -> Tablet:
        """A tablet joins with the club's join token and its public key; joining again with the
        same key is the same tablet."""
        if not isinstance(body, dict):
            raise Refused(400, "the body must be a JSON object: join_token, name, public_key")
        token = body.get("join_token")
        if not isinstance(token, str) or not hmac.compare_digest(token.encode(), self.join_token.encode()):
            raise Refused(403, "the join token is not this club's (scan the club's code again)")
        name = body.get("name", "")
        if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME:
            raise Refused(400, f"name must be the tablet's name, 1 to {MAX_NAME} characters")
        try:
            raw = keys.unb64(body.get("public_key"), "public_key", keys.KEY_BYTES)
            keys.check_public_key(raw)
        except keys.KeyProblem as exc:
            raise Refused(400, str(exc)) from None
        with self._lock:
            known = self.store.tablet(keys.tablet_id(raw))
            if known is not None and known.removed:
                raise Refused(403, "this tablet was removed from the club by the organiser; ask the organiser")
            if known is not None:
                return known
            tablet = Tablet(keys.tablet_id(raw), " ".join(name.split()), keys.b64(raw), self.clock())
            self.store.add_tablet(tablet)
            return tablet

    def signed_by(self, tablet_id: str, signature: str, method: str, path: str, body: bytes) -> Tablet:
        """The registered tablet whose signature this request carries, or Refused(401/403)."""
        if not tablet_id or not signature:
            raise Refused(401, "a write needs a tablet's signature (join the club first)")
        tablet = self.store.tablet(tablet_id) if re.fullmatch(r"[0-9a-f]{16}", tablet_id) else None
        if tablet is None:
            raise Refused(403, f"tablet {tablet_id[:16]!r} is not registered to this club (unknown key)")
        if tablet.removed:
            raise Refused(403, "this tablet was removed from the club by the organiser; it can no longer write")
        try:
            sig = keys.unb64(signature, "the signature", 64)
        except keys.KeyProblem as exc:
            raise Refused(401, str(exc)) from None
        if not keys.verify(keys.unb64(tablet.public_key, "key"), keys.request_message(method, path, body), sig):
            raise Refused(403, "the request's signature does not verify against the tablet's registered key")
        return tablet

    # --- publishing -----------------------------------------------------------------------------------
    def publish(self, tablet: Tablet, upload: Upload) -> dict[str, Any]:
        """Store what is new of an upload, checked; a fork is recorded (in a transaction of its
        own: the upload's is rolled back) and refused with 409."""
        try:
            with self._lock:
                try:
                    with self.store.transaction():
                        self._fresh = None
                        answer = self._publish(tablet, upload)
                except BaseException:
                    self._folds.pop(upload.match, None)   # folded from nothing the store holds
                    raise
                if self._fresh is not None:
                    self._folds[upload.match] = self._fresh
                    self._folds.move_to_end(upload.match)
                    while len(self._folds) > FOLDS_KEPT:
                        self._folds.popitem(last=False)
        except _ForkFound as found:
            f = found.fork
            with self._lock, self.store.transaction():
                self.store.add_fork(f)
            # Loud where the organiser looks: the server's own log, the match's card, /forks.
            log.warning("refused a fork of match %s at event %d from tablet %s: the club holds %s, it sent %s",
                        f.match, f.seq, f.tablet, f.held_hash[:12], f.sent_hash[:12])
            self._changed()
            raise Refused(409, f"event {f.seq}: the club holds a different event for this seq (a fork: held "
                               f"{f.held_hash[:12]}, sent {f.sent_hash[:12]}); refused, and shown to the "
                               f"organiser") from None
        if answer.pop("changed"):
            self._changed()
        return answer

    def _publish(self, tablet: Tablet, upload: Upload) -> dict[str, Any]:
        self.store.lock_match(upload.match)
        stored = self.store.match(upload.match)
        if stored is not None and stored.owner != tablet.id:
            raise Refused(403, "this match is published by another tablet; only that tablet adds to it")
        match = stored or MatchRow(upload.match, tablet.id)
        held = {r[0]: r for r in self.store.events(upload.match)}
        for row in upload.rows:
            old = held.get(row[0])
            if old is not None and old != row:
                raise _ForkFound(Fork(upload.match, row[0], tablet.id, old[6], row[6], self.clock()))
        new = [row for row in upload.rows if row[0] not in held]
        if len(held) + len(new) > MAX_EVENTS:
            raise Refused(413, f"a match holds at most {MAX_EVENTS} events")
        statuses_changed = False
        if upload.rev > match.status_rev:
            statuses_changed = (upload.undone, upload.discarded) != (match.undone, match.discarded)
            match = replace(match, status_rev=upload.rev, undone=upload.undone, discarded=upload.discarded)
        all_rows = {**held, **{r[0]: r for r in new}}
        prefix = _prefix(all_rows)
        if len(prefix) > match.held or statuses_changed:
            match = self._check_and_fold(match, prefix)   # refused: nothing below happens
        changed = match != stored and (stored is not None or bool(new))   # an empty upload makes no match
        if changed:
            # Only a real change touches the store (and the public tables' ETag): a batch sent
            # again leaves everything as it was.
            self.store.put_match(replace(match, updated=self.clock()))
            self.store.notify_change()
        if new:
            self.store.add_events(upload.match, new)
        return {"changed": changed, "match": upload.match, "held": match.held, "head": match.head or GENESIS, "added": len(new),
                "waiting": len(all_rows) - len(prefix)}

    def _check_and_fold(self, match: MatchRow, prefix: list[tuple]) -> MatchRow:
        if not prefix:
            return match
        if prefix[0][6] != match.id:
            raise Refused(422, "event 1's hash is not the match named in the upload; nothing was stored")
        game, dot, _ = prefix[0][4].partition(".")
        if not dot:
            raise Refused(422, f"event 1 has type {prefix[0][4]!r}, which names no game; nothing was stored")
        status = {b: UNDONE for b in match.undone} | {b: DISCARDED for b in match.discarded}
        statuses = (match.undone, match.discarded)
        cached = self._folds.get(match.id)
        new = prefix[match.held:]
        if (cached is not None and new and (cached.held, cached.head, cached.statuses) == (match.held, match.head, statuses)
                and not any(row[1] in status for row in new)):
            return self._extend(match, prefix, cached)
        rows = [(s, b, at, src, t, d, status.get(b, ACTIVE), h) for s, b, at, src, t, d, h in prefix]
        self.refolds += 1
        domain = domain_checker(game)
        try:
            checked = check_rows(rows, chained=True, domain=domain)
        except Broken as exc:
            raise Refused(422, f"refused, the journal's chain is broken: {exc}; nothing was stored") from None
        ruleset, state = fold(game, checked)
        date = checked.events[0].at.strftime("%Y-%m-%d %H:%M")
        self._fresh = Folded(checked.last_seq, checked.head, statuses, state, ruleset, domain, date)
        return replace(match, game=game, held=checked.last_seq, head=checked.head,
                       summary=json.dumps(summary_of(ruleset, state, date, game)))

    def _extend(self, match: MatchRow, prefix: list[tuple], cached: Folded) -> MatchRow:
        """The new active events checked from the start of the command they continue (a batch
        is checked whole), chained on from the held ones, and folded onto the kept state."""
        first = prefix[match.held][1]                  # the batch the first new event belongs to
        rows = [(s, b, at, src, t, d, ACTIVE, h) for s, b, at, src, t, d, h in prefix[first - 1:]]
        hop = {1: (first - 1, prefix[first - 2][6])} if first > 1 else {}
        try:
            checked = check_rows(rows, chained=True, omitted=hop, domain=cached.domain)
        except Broken as exc:
            raise Refused(422, f"refused, the journal's chain is broken: {exc}; nothing was stored") from None
        state = cached.state
        try:
            for event in checked.events:
                if event.seq > match.held:
                    state = cached.ruleset.evolve(state, event)
        except TouchlineError as exc:
            raise Refused(422, f"the events do not replay by the rules of {match.game} ({exc}); nothing was "
                               f"stored") from None
        self._fresh = Folded(checked.last_seq, checked.head, cached.statuses, state, cached.ruleset, cached.domain,
                             cached.date)
        return replace(match, held=checked.last_seq, head=checked.head,
                       summary=json.dumps(summary_of(cached.ruleset, state, cached.date, match.game)))

    # --- results ------------------------------------------------------------------------------------------
    def confirm(self, tablet: Tablet, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise Refused(400, "the body must be a JSON object: match, last_seq, head, statuses, signature")
        match_id, last_seq, head = body.get("match"), body.get("last_seq"), body.get("head")
        statuses = body.get("statuses")
        if not isinstance(match_id, str) or not HEX64.fullmatch(match_id):
            raise Refused(400, "match must be the hash of the match's event 1")
        if type(last_seq) is not int or last_seq < 1 or not isinstance(head, str) or not HEX64.fullmatch(head):
            raise Refused(400, "last_seq and head must name the journal's last event and its hash")
        if not isinstance(statuses, str) or len(statuses) > 200_000:
            raise Refused(400, "statuses must be the journal's undone and discarded batches as signed")
        try:
            sig = keys.unb64(body.get("signature"), "signature", 64)
        except keys.KeyProblem as exc:
            raise Refused(400, str(exc)) from None
        with self._lock, self.store.transaction():
            self.store.lock_match(match_id)
            match = self.store.match(match_id)
            if match is None:
                raise Refused(404, "the club holds no such match; publish its journal first")
            if match.owner != tablet.id:
                raise Refused(403, "only the tablet the match was played on can confirm its result")
            message = keys.result_message(match_id, last_seq, head, statuses)
            if not keys.verify(keys.unb64(tablet.public_key, "key"), message, sig):
                raise Refused(422, "the result's signature does not verify against the tablet's registered key")
            if last_seq > match.held:
                raise Refused(409, f"the club holds the journal up to event {match.held}; the signed result ends "
                                   f"at {last_seq}: publish the rest first")
            if last_seq < match.held:
                raise Refused(422, f"the signed journal is cut short: it ends at event {last_seq}, the club holds "
                                   f"it up to {match.held}")
            if head != match.head:
                raise Refused(422, "the signed journal's last hash is not the club's: it was rewritten")
            if statuses != keys.statuses_text(match.undone, match.discarded):
                raise Refused(409, "the signed undone and discarded commands are not the club's yet: publish "
                                   "the journal again first")
            summary = json.loads(match.summary or "{}")
            if not summary.get("finished"):
                raise Refused(422, "the match is not finished: a result is confirmed after the final whistle")
            self.store.put_result(Result(match_id, last_seq, head, statuses, tablet.id, keys.b64(sig), self.clock()))
            self.store.notify_change()
        for listener in list(self._confirm_listeners):   # before the spectators hear: a new round shows with it
            listener(match.game)
        self._changed()
        return {"match": match_id, "confirmed": True}

    # --- reading -----------------------------------------------------------------------------------------
    def tables(self) -> list[dict[str, Any]]:
        """Every match: teams, score, where it stands, and whether its result counts."""
        results = self.store.results()
        tablets = {t.id: t.name for t in self.store.tablets()}
        forks: dict[str, int] = {}
        for f in self.store.forks():
            forks[f.match] = forks.get(f.match, 0) + 1
        out = []
        for m in self.store.matches():
            summary = json.loads(m.summary) if m.summary else {}
            out.append({
                "match": m.id, "game": m.game, "tablet": tablets.get(m.owner, m.owner),
                "teams": {"home": summary.get("home"), "away": summary.get("away")} if summary else None,
                "score": {"home": summary.get("home_goals"), "away": summary.get("away_goals")} if summary else None,
                "shootout": summary.get("shootout"), "stage": summary.get("stage", ""),
                "status": "finished" if summary.get("finished") else "playing" if summary else "waiting",
                "winner": summary.get("winner"), "decided_by": summary.get("decided_by") or None,
                "events": m.held, "updated": m.updated, "started": summary.get("date", ""),
                "confirmed": confirmed(m, results.get(m.id)),
                "forks_refused": forks.get(m.id, 0),
            })
        # Each tablet's cards in one place, ordered by its name ("Table 2" before "Table 10"), its
        # matches in the order they began: a card never jumps about as the tables change.
        return sorted(out, key=lambda t: (_natural(t["tablet"]), t["started"], t["match"]))

    def league(self) -> dict[str, Any]:
        """Per game, the league table of the confirmed results (``touchline league``'s
        computation), and the finished matches not counted for want of a confirmation."""
        results = self.store.results()
        counted, apart = [], []
        for m in self.store.matches():
            summary = json.loads(m.summary) if m.summary else {}
            if not summary.get("finished"):
                continue
            entry = entry_of(m, summary)
            (counted if confirmed(m, results.get(m.id)) else apart).append(entry)
        games = {}
        for game in history.games_in(counted):
            games[game] = {"name": history.GAME_NAMES.get(game, game), "matches": len(history.finished(counted, game)),
                           "table": [_record(r) for r in history.league(counted, game)],
                           "head_to_head": [{"first": h.first, "second": h.second, "played": h.played,
                                             "first_wins": h.first_wins, "draws": h.draws,
                                             "second_wins": h.second_wins, "first_goals": h.first_goals,
                                             "second_goals": h.second_goals}
                                            for h in history.head_to_head(counted, game)]}
        # Each team's record in every game it played and over all ("all"), as `touchline league` keeps it.
        records = {team: {key: _record(r) for key, r in by_game.items()}
                   for team, by_game in history.records(counted).items()}
        return {"games": games, "records": records,
                "unconfirmed": [{"match": e.path.name, "game": e.game, "home": e.home,
                                 "away": e.away, "score": e.score} for e in apart]}

    # --- seasons ------------------------------------------------------------------------------------------
    def create_season(self, body: Any) -> dict[str, Any]:
        """The organiser's new season: {name, game, teams, tables, home_and_away, starts}."""
        name, game, teams, tables = competition_of(body, "season", "home_and_away, starts")
        why = check_season(teams, tables)
        if why:
            raise Refused(400, why)
        home_and_away = body.get("home_and_away", False)
        kind = body.get("format", "round_robin")
        if kind not in ("round_robin", "knockout"):
            raise Refused(400, "format must be round_robin or knockout")
        if kind == "knockout" and home_and_away is True:
            raise Refused(400, "a knockout tie is one match here (no home and away legs)")
        starts = body.get("starts", self.clock()[:10])
        if (type(home_and_away) is not bool or not isinstance(starts, str)
                or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", starts)):
            raise Refused(400, "home_and_away must be true or false, starts a date (YYYY-MM-DD)")
        ident = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "season"
        with self._lock, self.store.transaction():
            if any(s.id == ident for s in self.store.seasons()):
                raise Refused(409, f"the club has a season called {name!r} already")
            self.store.add_season(Season(ident, " ".join(name.split()), game, tuple(teams), tuple(tables),
                                         home_and_away, starts, self.clock(), kind))
        return self.season(ident)

    def seasons(self) -> list[dict[str, Any]]:
        return [{"season": s.id, "name": s.name, "game": s.game, "format": s.format, "teams": len(s.teams),
                 "starts": s.starts} for s in self.store.seasons()]

    def season(self, ident: str) -> dict[str, Any]:
        """A season's rounds (each game at its table, with its confirmed result once played) and its table."""
        found = next((s for s in self.store.seasons() if s.id == ident), None)
        if found is None:
            raise Refused(404, "the club has no such season")
        results = self.store.results()
        entries = []
        for m in self.store.matches():
            summary = json.loads(m.summary) if m.summary else {}
            if (m.game == found.game and summary.get("finished") and confirmed(m, results.get(m.id))
                    and summary.get("date", "") >= found.starts):
                entries.append(entry_of(m, summary))
        head = {"season": found.id, "name": found.name, "game": found.game, "format": found.format,
                "starts": found.starts, "home_and_away": found.home_and_away, "tables": list(found.tables)}
        if found.format == "knockout":
            return {**head, **self._cup(found, entries)}
        fixtures = assign_tables(round_robin(found.teams, found.home_and_away), found.tables)
        played = fill(fixtures, entries, found.home_and_away)
        rounds: dict[int, list[dict[str, Any]]] = {}
        for p in played:
            f, e = p.fixture, p.entry
            rounds.setdefault(f.round, []).append({
                "sitting": f.sitting, "table": f.table, "home": f.home, "away": f.away,
                "result": None if e is None else {"match": e.path.name, "home": e.home, "away": e.away,
                                                  "score": e.score, "winner": e.winner}})
        header = ["team", "played", "won", "drawn", "lost", "goals_for", "goals_against", "goal_difference", "points"]
        return {**head, "rounds": [{"round": r, "games": games} for r, games in sorted(rounds.items())],
                "standings": [dict(zip(header, r.row())) for r in season_standings(played, found.game)]}

    @staticmethod
    def _cup(found: Season, entries: list[history.Entry]) -> dict[str, Any]:
        """A knockout's rounds: each tie at a table (byes sit out), its winner once decided."""
        bracket = knockout(found.teams, entries)
        rounds = []
        for ties in bracket:
            games, k = [], 0
            for tie in ties:
                game: dict[str, Any] = {"slot": tie.slot, "home": tie.home, "away": tie.away, "bye": tie.bye,
                                        "winner": tie.winner, "drawn": list(tie.drawn), "result": None}
                if not tie.bye:
                    game["table"] = found.tables[k % len(found.tables)]
                    game["sitting"] = k // len(found.tables) + 1
                    k += 1
                if tie.entry is not None:
                    e = tie.entry
                    game["result"] = {"match": e.path.name, "home": e.home, "away": e.away, "score": e.score,
                                      "winner": e.winner, "decided_by": e.decided_by}
                games.append(game)
            rounds.append({"round": ties[0].round, "games": games})
        return {"rounds": rounds, "champion": bracket[-1][0].winner if bracket else None}

    def tablets(self) -> list[dict[str, Any]]:
        return [{"tablet": t.id, "name": t.name, "joined": t.joined, "removed": t.removed or None}
                for t in self.store.tablets()]

    def remove_tablet(self, tablet_id: str) -> dict[str, Any]:
        """The organiser takes a tablet out of the club (lost or stolen): it can write no more.
        What it sent before stays, results it confirmed included."""
        with self._lock, self.store.transaction():
            tablet = self.store.tablet(tablet_id) if re.fullmatch(r"[0-9a-f]{16}", tablet_id) else None
            if tablet is None:
                raise Refused(404, "no such tablet in this club")
            self.store.remove_tablet(tablet_id, self.clock())
        return {"tablet": tablet_id, "removed": True}

    def rename_tablet(self, tablet_id: str, body: Any, signer: Tablet | None) -> dict[str, Any]:
        """A tablet's new name at the club (the name its table's pairings are found by): asked
        by the tablet itself (``signer``) or by the organiser (``signer`` None). A name another
        tablet of the club has is refused: two tables of one name would share their pairings."""
        if not isinstance(body, dict) or not isinstance(body.get("name"), str) \
                or not 0 < len(body["name"].strip()) <= MAX_NAME:
            raise Refused(400, f"the body must be {{\"name\": ...}}, the tablet's name, 1 to {MAX_NAME} characters")
        name = " ".join(body["name"].split())
        if signer is not None and signer.id != tablet_id:
            raise Refused(403, "a tablet renames only itself (the organiser renames any)")
        with self._lock, self.store.transaction():
            tablet = self.store.tablet(tablet_id) if re.fullmatch(r"[0-9a-f]{16}", tablet_id) else None
            if tablet is None:
                raise Refused(404, "no such tablet in this club")
            if tablet.removed:
                raise Refused(403, "this tablet was removed from the club by the organiser; ask the organiser")
            taken = [t for t in self.store.tablets() if t.id != tablet_id and not t.removed
                     and t.name.casefold() == name.casefold()]
            if taken:
                raise Refused(409, f"another tablet of the club is called \"{taken[0].name}\": choose another name")
            renamed = name != tablet.name
            if renamed:
                self.store.rename_tablet(tablet_id, name)
                self.store.notify_change()   # every server's cards say the new name
                log.info("club: tablet %s renamed from %r to %r", tablet_id, tablet.name, name)
        if renamed:
            self._changed()
        return {"tablet": tablet_id, "name": name}

    def forks(self) -> list[dict[str, Any]]:
        return [{"match": f.match, "seq": f.seq, "tablet": f.tablet, "held_hash": f.held_hash,
                 "sent_hash": f.sent_hash, "at": f.at} for f in self.store.forks()]

    def held(self, match_id: str) -> dict[str, Any]:
        m = self.store.match(match_id)
        if m is None:
            raise Refused(404, "the club holds no such match")
        return {"match": m.id, "held": m.held, "head": m.head or GENESIS, "status_rev": m.status_rev}


def _natural(text: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part.casefold() for part in re.split(r"(\d+)", text))


class _ForkFound(Exception):
    def __init__(self, fork: Fork) -> None:
        super().__init__(fork)
        self.fork = fork


def confirmed(m: MatchRow, result: Result | None) -> bool:
    """A result counts while the club's copy is exactly the journal that was signed."""
    return (result is not None and result.last_seq == m.held and result.head == m.head
            and result.statuses == keys.statuses_text(m.undone, m.discarded))


def fold(game: str, checked) -> tuple[Any, Any]:
    """The game's rules and the state its checked active events fold to."""
    from ..games import ruleset_for
    from ..match import Match

    try:
        ruleset = ruleset_for(game)
    except KeyError as exc:
        raise Refused(422, f"{exc.args[0]}; nothing was stored") from None
    try:
        return ruleset, Match.from_events(ruleset, checked.active, checked.redo).state
    except TouchlineError as exc:
        raise Refused(422, f"the events do not replay by the rules of {game} ({exc}); nothing was stored") from None


def summary_of(ruleset: Any, state: Any, date: str, game: str) -> dict[str, Any]:
    """The match's summary fields (history.summary_fields), and the day and time it began."""
    try:
        fields = history.summary_fields(ruleset.summary(state)) or {}
    except TouchlineError as exc:
        raise Refused(422, f"the match cannot be summed up by the rules of {game} ({exc}); nothing was "
                           f"stored") from None
    fields["date"] = date
    return fields


def entry_of(m: MatchRow, summary: dict[str, Any]) -> history.Entry:
    points = summary.get("points")
    shootout = summary.get("shootout")
    return history.Entry(
        Path(m.id), game=m.game, home=summary.get("home", ""), away=summary.get("away", ""),
        home_goals=summary.get("home_goals", 0), away_goals=summary.get("away_goals", 0),
        date=summary.get("date", ""), finished=bool(summary.get("finished")), winner=summary.get("winner"),
        decided_by=summary.get("decided_by", ""), points=tuple(points) if points else None,
        shootout=tuple(shootout) if shootout else None, events=m.held)


RECORD_FIELDS = ("team", "played", "won", "drawn", "lost", "goals_for", "goals_against", "goal_difference", "points")


def _record(r: history.Record) -> dict[str, Any]:
    return {**dict(zip(RECORD_FIELDS, r.row())), "form": "".join(r.form[-5:])}


def competition_of(body: Any, kind: str, more: str) -> tuple[str, str, list[str], list[str]]:
    """What every competition the organiser creates names: {name, game, teams, tables}, checked
    (``kind``: "season", "tournament"; ``more``: the body's other fields, for the message), the
    names' spaces tidied."""
    if not isinstance(body, dict):
        raise Refused(400, f"the body must be a JSON object: name, game, teams, tables, {more}")
    name, game = body.get("name"), body.get("game")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME:
        raise Refused(400, f"name must be the {kind}'s name, 1 to {MAX_NAME} characters")
    if game not in history.GAME_NAMES:
        raise Refused(400, f"game must be one of {', '.join(history.GAME_NAMES)}")
    teams, tables = body.get("teams"), body.get("tables", ["Table 1"])
    for what, value in (("teams", teams), ("tables", tables)):
        if not isinstance(value, list) or not all(isinstance(v, str) and 0 < len(v.strip()) <= MAX_NAME
                                                  for v in value):
            raise Refused(400, f"{what} must be a list of names, each 1 to {MAX_NAME} characters")
    return name, game, [" ".join(t.split()) for t in teams], [" ".join(t.split()) for t in tables]

