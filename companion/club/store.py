"""Where a club keeps what its tablets sent: tablets, matches, their events, signed results and
refused forks, behind a small interface (``Store``) so another database can stand in.

``SqliteStore`` is the default: one file in the club's folder, WAL mode with ``synchronous =
FULL`` (an accepted upload is on disk before it is acknowledged, as a journal's append is).
The schema is built by numbered migrations (``MIGRATIONS``), recorded in ``schema_version``:
opening a store applies the ones it lacks, in one transaction each, and a store written by a
newer Touchline (a version this one does not know) is refused, never touched.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Protocol, Sequence

from ..errors import TouchlineError

STORE_FILE = "club.sqlite"


class StoreError(TouchlineError):
    """The club's store cannot be opened or written."""


@dataclass(frozen=True)
class Tablet:
    id: str
    name: str
    public_key: str     # base64 of the raw 32 bytes
    joined: str
    removed: str = ""   # when the organiser removed it ('' while it belongs to the club)


@dataclass(frozen=True)
class MatchRow:
    """A match as the club holds it. ``held``: the last seq of the events checked from event 1
    on (the chain's head is ``head``); events beyond a gap wait unchecked until it fills.
    ``undone``/``discarded``: the batches the tablet's journal took back, as of its upload
    numbered ``status_rev``. ``summary``: the fold of the held events (JSON), '' before event 1."""

    id: str
    owner: str
    game: str = ""
    held: int = 0
    head: str = ""
    status_rev: int = 0
    undone: tuple[int, ...] = ()
    discarded: tuple[int, ...] = ()
    summary: str = ""
    updated: str = ""


@dataclass(frozen=True)
class Result:
    match: str
    last_seq: int
    head: str
    statuses: str
    tablet: str
    signature: str
    at: str


@dataclass(frozen=True)
class Season:
    id: str
    name: str
    game: str
    teams: tuple[str, ...]
    tables: tuple[str, ...]
    home_and_away: bool
    starts: str        # YYYY-MM-DD: matches from this day on count
    created: str
    format: str = "round_robin"   # or "knockout" (the teams in seeding order, the best first)


@dataclass(frozen=True)
class SwissTournament:
    id: str
    name: str
    game: str
    teams: tuple[str, ...]     # in seeding order, the best first (the pairing numbers)
    tables: tuple[str, ...]
    rounds: int
    starts: str                # YYYY-MM-DD: matches from this day on count
    created: str


@dataclass(frozen=True)
class SwissRound:
    """A round as it was paired (kept, never paired again: a published pairing stands).
    ``games``: (home, away) in board order, away None for the bye."""

    tournament: str
    round: int
    games: tuple[tuple[str, str | None], ...]
    paired: str


@dataclass(frozen=True)
class Fork:
    match: str
    seq: int
    tablet: str
    held_hash: str
    sent_hash: str
    at: str
    id: int = 0


EventRow = tuple   # (seq, batch, at, source, type, data, hash)


class Store(Protocol):
    """What the club needs of a database. Writes happen inside ``transaction()``."""

    def transaction(self): ...
    def lock_match(self, match_id: str) -> None: ...
    def notify_change(self) -> None: ...
    def tablet(self, tablet_id: str) -> Tablet | None: ...
    def add_tablet(self, tablet: Tablet) -> None: ...
    def tablets(self) -> list[Tablet]: ...
    def remove_tablet(self, tablet_id: str, at: str) -> None: ...
    def rename_tablet(self, tablet_id: str, name: str) -> None: ...
    def match(self, match_id: str) -> MatchRow | None: ...
    def matches(self) -> list[MatchRow]: ...
    def put_match(self, row: MatchRow) -> None: ...
    def events(self, match_id: str, after: int = 0) -> list[EventRow]: ...
    def add_events(self, match_id: str, rows: Sequence[EventRow]) -> None: ...
    def result(self, match_id: str) -> Result | None: ...
    def results(self) -> dict[str, Result]: ...
    def put_result(self, result: Result) -> None: ...
    def add_fork(self, fork: Fork) -> None: ...
    def add_season(self, season: Season) -> None: ...
    def seasons(self) -> list[Season]: ...
    def add_season(self, season: Season) -> None:
        with self.transaction():
            self._rows("INSERT INTO seasons (id, name, game, teams, tables, home_and_away, starts, created, format) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (season.id, season.name, season.game, json.dumps(list(season.teams)),
                        json.dumps(list(season.tables)), int(season.home_and_away), season.starts, season.created,
                        season.format))

    def seasons(self) -> list[Season]:
        return [_season(r) for r in self._rows("SELECT id, name, game, teams, tables, home_and_away, starts, created, "
                                                "format FROM seasons ORDER BY created, id")]

    def add_swiss(self, tournament: SwissTournament) -> None: ...
    def swiss_tournaments(self) -> list[SwissTournament]: ...
    def swiss_rounds(self, tournament: str) -> list[SwissRound]: ...
    def add_swiss_round(self, paired: SwissRound) -> bool: ...
    def forks(self) -> list[Fork]: ...
    def close(self) -> None: ...


# Each migration: the statements that take the schema from the version before to this one.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, (
        "CREATE TABLE tablets (id TEXT PRIMARY KEY, name TEXT NOT NULL, public_key TEXT NOT NULL UNIQUE, "
        "joined TEXT NOT NULL)",
        "CREATE TABLE matches (id TEXT PRIMARY KEY, owner TEXT NOT NULL REFERENCES tablets (id), "
        "game TEXT NOT NULL DEFAULT '', held INTEGER NOT NULL DEFAULT 0, head TEXT NOT NULL DEFAULT '', "
        "status_rev INTEGER NOT NULL DEFAULT 0, undone TEXT NOT NULL DEFAULT '[]', "
        "discarded TEXT NOT NULL DEFAULT '[]', summary TEXT NOT NULL DEFAULT '', updated TEXT NOT NULL DEFAULT '')",
        "CREATE TABLE events (match TEXT NOT NULL REFERENCES matches (id), seq BIGINT NOT NULL, "
        "batch BIGINT NOT NULL, at TEXT NOT NULL, source TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, "
        "hash TEXT NOT NULL, PRIMARY KEY (match, seq))",
        "CREATE TABLE results (match TEXT PRIMARY KEY REFERENCES matches (id), last_seq BIGINT NOT NULL, "
        "head TEXT NOT NULL, statuses TEXT NOT NULL, tablet TEXT NOT NULL, signature TEXT NOT NULL, "
        "at TEXT NOT NULL)",
        "CREATE TABLE forks (match TEXT NOT NULL, seq BIGINT NOT NULL, tablet TEXT NOT NULL, "
        "held_hash TEXT NOT NULL, sent_hash TEXT NOT NULL, at TEXT NOT NULL)",
    )),
    # The club's own settings in its database: the tokens, where several servers share one
    # database (a PostgreSQL store) and no folder.
    (2, (
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    )),
    # A tablet the organiser removed (lost, stolen, given away): when, '' while it belongs.
    (3, (
        "ALTER TABLE tablets ADD COLUMN removed TEXT NOT NULL DEFAULT ''",
    )),
    # Seasons: the fixtures follow from the teams, the tables and the format (season.py).
    (4, (
        "CREATE TABLE seasons (id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, teams TEXT NOT NULL, "
        "tables TEXT NOT NULL, home_and_away INTEGER NOT NULL, starts TEXT NOT NULL, created TEXT NOT NULL)",
    )),
    # Knockout cups beside round-robin seasons.
    (5, (
        "ALTER TABLE seasons ADD COLUMN format TEXT NOT NULL DEFAULT 'round_robin'",
    )),
    # Swiss tournaments (swiss.py): each round is kept as it was paired, since it depends on the
    # results before it; (tournament, round) is unique, so two servers pairing the same round at
    # once store it once.
    (6, (
        "CREATE TABLE swiss (id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, teams TEXT NOT NULL, "
        "tables TEXT NOT NULL, rounds INTEGER NOT NULL, starts TEXT NOT NULL, created TEXT NOT NULL)",
        "CREATE TABLE swiss_rounds (tournament TEXT NOT NULL REFERENCES swiss (id), round INTEGER NOT NULL, "
        "games TEXT NOT NULL, paired TEXT NOT NULL, PRIMARY KEY (tournament, round))",
    )),
)
LATEST = MIGRATIONS[-1][0]


class SqlStore:
    """The queries, written once with ``?`` placeholders; a subclass gives the connection."""

    placeholder = "?"

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._depth = 0

    # --- plumbing a subclass provides ---------------------------------------------------------
    def _execute(self, sql: str, params: Sequence = ()) -> list[tuple]:
        raise NotImplementedError

    def _begin(self) -> None:
        raise NotImplementedError

    def _commit(self) -> None:
        raise NotImplementedError

    def _rollback(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _q(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    def _rows(self, sql: str, params: Sequence = ()) -> list[tuple]:
        with self._lock:
            return self._execute(self._q(sql), params)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction; nested uses join the outer one."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._begin()
            self._depth = 1
            try:
                yield
            except BaseException:
                self._depth = 0
                self._rollback()
                raise
            self._depth = 0
            self._commit()

    def lock_match(self, match_id: str) -> None:
        """Inside a transaction: hold off other processes writing this match until it ends.
        SQLite's write transaction already excludes every other writer."""

    def notify_change(self) -> None:
        """Inside a transaction: tell the club's other server processes, when it commits, that
        the tables changed. One process on SQLite has none to tell."""

    # --- migrations ----------------------------------------------------------------------------
    def migrate(self) -> int:
        """Apply the migrations this store lacks; returns its version."""
        with self.transaction():
            self._execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            found = self._execute("SELECT max(version) FROM schema_version")[0][0] or 0
        if found > LATEST:
            raise StoreError(f"the club's store is of schema version {found}, written by a newer Touchline "
                             f"(this one knows up to {LATEST}); it was left untouched")
        for version, statements in MIGRATIONS:
            if version <= found:
                continue
            with self.transaction():
                for sql in statements:
                    self._execute(sql)
                self._execute(self._q("INSERT INTO schema_version (version) VALUES (?)"), (version,))
        return max(found, LATEST)

    def version(self) -> int:
        return self._rows("SELECT max(version) FROM schema_version")[0][0] or 0

    # --- settings ------------------------------------------------------------------------------
    def setting(self, key: str, default: str) -> str:
        """The setting ``key``; the first to ask sets it to ``default`` (once, whoever asks first)."""
        with self.transaction():
            self._rows("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, default))
            return self._rows("SELECT value FROM settings WHERE key = ?", (key,))[0][0]

    # --- tablets -------------------------------------------------------------------------------
    def tablet(self, tablet_id: str) -> Tablet | None:
        rows = self._rows("SELECT id, name, public_key, joined, removed FROM tablets WHERE id = ?", (tablet_id,))
        return Tablet(*rows[0]) if rows else None

    def add_tablet(self, tablet: Tablet) -> None:
        with self.transaction():
            self._rows("INSERT INTO tablets (id, name, public_key, joined) VALUES (?, ?, ?, ?)",
                       (tablet.id, tablet.name, tablet.public_key, tablet.joined))

    def tablets(self) -> list[Tablet]:
        return [Tablet(*r) for r in self._rows("SELECT id, name, public_key, joined, removed FROM tablets "
                                               "ORDER BY joined")]

    def remove_tablet(self, tablet_id: str, at: str) -> None:
        with self.transaction():
            self._rows("UPDATE tablets SET removed = ? WHERE id = ? AND removed = ''", (at, tablet_id))

    def rename_tablet(self, tablet_id: str, name: str) -> None:
        with self.transaction():
            self._rows("UPDATE tablets SET name = ? WHERE id = ?", (name, tablet_id))

    # --- matches -------------------------------------------------------------------------------
    _MATCH = "SELECT id, owner, game, held, head, status_rev, undone, discarded, summary, updated FROM matches"

    @staticmethod
    def _match(r: tuple) -> MatchRow:
        return MatchRow(r[0], r[1], r[2], int(r[3]), r[4], int(r[5]), tuple(json.loads(r[6])),
                        tuple(json.loads(r[7])), r[8], r[9])

    def match(self, match_id: str) -> MatchRow | None:
        rows = self._rows(self._MATCH + " WHERE id = ?", (match_id,))
        return self._match(rows[0]) if rows else None

    def matches(self) -> list[MatchRow]:
        return [self._match(r) for r in self._rows(self._MATCH + " ORDER BY id")]

    def put_match(self, row: MatchRow) -> None:
        values = (row.owner, row.game, row.held, row.head, row.status_rev, json.dumps(list(row.undone)),
                  json.dumps(list(row.discarded)), row.summary, row.updated, row.id)
        with self.transaction():
            if self._rows("SELECT 1 FROM matches WHERE id = ?", (row.id,)):
                self._rows("UPDATE matches SET owner = ?, game = ?, held = ?, head = ?, status_rev = ?, undone = ?, "
                           "discarded = ?, summary = ?, updated = ? WHERE id = ?", values)
            else:
                self._rows("INSERT INTO matches (owner, game, held, head, status_rev, undone, discarded, summary, "
                           "updated, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)

    def events(self, match_id: str, after: int = 0) -> list[EventRow]:
        """The match's events held, in order; those after seq ``after`` only (a scoreboard reads on
        from where it was)."""
        return [tuple(r) for r in self._rows("SELECT seq, batch, at, source, type, data, hash FROM events "
                                             "WHERE match = ? AND seq > ? ORDER BY seq", (match_id, after))]

    def add_events(self, match_id: str, rows: Sequence[EventRow]) -> None:
        with self.transaction():
            for row in rows:
                self._rows("INSERT INTO events (match, seq, batch, at, source, type, data, hash) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (match_id, *row))

    # --- results and forks ---------------------------------------------------------------------
    _RESULT = "SELECT match, last_seq, head, statuses, tablet, signature, at FROM results"

    def result(self, match_id: str) -> Result | None:
        rows = self._rows(self._RESULT + " WHERE match = ?", (match_id,))
        return Result(*rows[0]) if rows else None

    def results(self) -> dict[str, Result]:
        return {r[0]: Result(*r) for r in self._rows(self._RESULT)}

    def put_result(self, result: Result) -> None:
        with self.transaction():
            self._rows("DELETE FROM results WHERE match = ?", (result.match,))
            self._rows("INSERT INTO results (match, last_seq, head, statuses, tablet, signature, at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (result.match, result.last_seq, result.head, result.statuses,
                                                     result.tablet, result.signature, result.at))

    def add_fork(self, fork: Fork) -> None:
        with self.transaction():
            self._rows("INSERT INTO forks (match, seq, tablet, held_hash, sent_hash, at) VALUES (?, ?, ?, ?, ?, ?)",
                       (fork.match, fork.seq, fork.tablet, fork.held_hash, fork.sent_hash, fork.at))

    def add_season(self, season: Season) -> None:
        with self.transaction():
            self._rows("INSERT INTO seasons (id, name, game, teams, tables, home_and_away, starts, created, format) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (season.id, season.name, season.game, json.dumps(list(season.teams)),
                        json.dumps(list(season.tables)), int(season.home_and_away), season.starts, season.created,
                        season.format))

    def seasons(self) -> list[Season]:
        return [_season(r) for r in self._rows("SELECT id, name, game, teams, tables, home_and_away, starts, created, "
                                                "format FROM seasons ORDER BY created, id")]

    def add_swiss(self, tournament: SwissTournament) -> None:
        t = tournament
        with self.transaction():
            self._rows("INSERT INTO swiss (id, name, game, teams, tables, rounds, starts, created) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (t.id, t.name, t.game, json.dumps(list(t.teams)), json.dumps(list(t.tables)), t.rounds,
                        t.starts, t.created))

    def swiss_tournaments(self) -> list[SwissTournament]:
        return [SwissTournament(r[0], r[1], r[2], tuple(json.loads(r[3])), tuple(json.loads(r[4])), int(r[5]), r[6],
                                r[7])
                for r in self._rows("SELECT id, name, game, teams, tables, rounds, starts, created FROM swiss "
                                    "ORDER BY created, id")]

    def swiss_rounds(self, tournament: str) -> list[SwissRound]:
        return [SwissRound(r[0], int(r[1]), tuple((g[0], g[1]) for g in json.loads(r[2])), r[3])
                for r in self._rows("SELECT tournament, round, games, paired FROM swiss_rounds WHERE tournament = ? "
                                    "ORDER BY round", (tournament,))]

    def add_swiss_round(self, paired: SwissRound) -> bool:
        """Store a round as paired; False when that round was stored already (by another server)."""
        with self.transaction():
            return bool(self._rows("INSERT INTO swiss_rounds (tournament, round, games, paired) VALUES (?, ?, ?, ?) "
                                   "ON CONFLICT (tournament, round) DO NOTHING RETURNING round",
                                   (paired.tournament, paired.round, json.dumps([list(g) for g in paired.games]),
                                    paired.paired)))

    def forks(self) -> list[Fork]:
        return [Fork(*r[:6]) for r in self._rows("SELECT match, seq, tablet, held_hash, sent_hash, at FROM forks "
                                                 "ORDER BY at, match, seq")]


def _season(r: tuple) -> Season:
    return Season(r[0], r[1], r[2], tuple(json.loads(r[3])), tuple(json.loads(r[4])), bool(r[5]), r[6], r[7], r[8])


class SqliteStore(SqlStore):
    """The club's store in one SQLite file (the default: a club night from one laptop)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit mode: transactions are begun and ended here, explicitly.
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = FULL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._conn.execute("PRAGMA busy_timeout = 5000")
            self.migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot be used as the club's store ({exc})") from None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot be opened ({exc.strerror or exc})") from None

    def _execute(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return self._conn.execute(sql, params).fetchall()

    def _begin(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def _commit(self) -> None:
        self._conn.execute("COMMIT")

    def _rollback(self) -> None:
        self._conn.execute("ROLLBACK")

    def close(self) -> None:
        with self._lock:
            self._conn.close()
