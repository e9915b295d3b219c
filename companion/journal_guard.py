"""Reading an SQLite file nobody vouches for: SQLite's own precautions, and the journal's schema
checked exactly before any query touches its tables.

A journal may come from anywhere (a card, a mail, a file someone built to hurt). SQLite's
guidance for untrusted database files ("Defense Against The Dark Arts", sqlite.org/security)
is followed on every read-only connection a reader opens (``harden``):

- ``PRAGMA trusted_schema = OFF``: what the file's schema holds (views, triggers, defaults,
  generated columns) may call no function that is not marked innocuous;
- ``PRAGMA cell_size_check = ON`` and ``PRAGMA mmap_size = 0``: damaged pages are caught as
  they are read, and no page is mapped into memory;
- lowered limits (``Connection.setlimit``): a value or a statement of the schema at most
  1,000,000 / 100,000 bytes, expressions 20 deep, no attached databases...: a schema built to
  exhaust the parser fails to load instead;
- a progress handler (``Budget``) that stops any statement after a number of SQLite
  operations in proportion to the file's size (a real journal needs about 0.1 per byte: its
  budget is 1 per byte, plus a million), with a wall-clock deadline behind it;
- no temporary files: ``temp_store = MEMORY``, and every query that reads more than a row
  is planned first (``EXPLAIN QUERY PLAN``) and refused when SQLite would build a temporary
  b-tree to answer it, which only a table of another shape than Touchline's needs. The
  journal's queries walk the ``events`` table in its own key order, so they never sort.

Then, before anything else is read, ``check_schema`` reads ``sqlite_master`` and requires
exactly Touchline's objects: the tables ``meta`` (key, value) and ``events`` (seq as its
INTEGER PRIMARY KEY, then batch, at, source, type, data, status and, from schema 2, hash),
their own indexes, and nothing else: no view or virtual table in their place, no trigger, no
other table, no hidden or generated column. (A file made by hand with those tables and
columns is read, and its rows are checked one by one as any journal's.)

The issue this answers (30): a 12 kB file whose ``events`` was an endlessly recursive VIEW
kept ``verify``, ``replay``, ``history`` and ``serve`` at 100 % CPU while SQLite's
temporary files grew by 3.8 GB in 16 s. It is now refused in about a millisecond, naming the
view.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any, Iterable

from .errors import JournalError

# SQLite's suggested values for untrusted input where they fit a journal (a payload is at most
# about 20 kB: a match's creation with both squads), else room enough for any real journal.
LIMITS = {
    sqlite3.SQLITE_LIMIT_LENGTH: 1_000_000,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 100_000,
    sqlite3.SQLITE_LIMIT_COLUMN: 100,
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 20,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 3,
    sqlite3.SQLITE_LIMIT_VDBE_OP: 25_000,
    sqlite3.SQLITE_LIMIT_FUNCTION_ARG: 8,
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,
    sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 50,
    sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER: 10,
    sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH: 10,
    sqlite3.SQLITE_LIMIT_WORKER_THREADS: 0,
}
STEP = 1000                 # SQLite operations between two calls of the progress handler
BASE_OPS = 1_000_000        # every read may take this many operations...
OPS_PER_BYTE = 1            # ...and this many more per byte of the files read (a real journal: ~0.1)
DEADLINE_S = 8.0            # and never longer than this, whatever the count says

META_COLUMNS = ("key", "value")
EVENT_COLUMNS = ("seq", "batch", "at", "source", "type", "data", "status", "hash")
OWN_INDEXES = {"events_by_status": "CREATE INDEX events_by_status ON events (status, batch)"}


class Budget:
    """A progress handler: stops the statement running (SQLite then raises "interrupted")
    once it has taken ``ops`` operations, or after ``deadline_s`` seconds of wall time."""

    def __init__(self, ops: int, deadline_s: float = DEADLINE_S, clock=time.monotonic) -> None:
        self.calls_left = max(1, ops // STEP)
        self.clock = clock
        self.deadline = clock() + deadline_s
        self.spent = False

    def __call__(self) -> int:
        self.calls_left -= 1
        if self.calls_left <= 0 or (not self.calls_left % 64 and self.clock() > self.deadline):
            self.spent = True
            return 1
        return 0


def budget_for(size: int) -> Budget:
    """The budget of a read of files that hold ``size`` bytes together."""
    return Budget(BASE_OPS + OPS_PER_BYTE * max(0, size))


def harden(conn: sqlite3.Connection, budget: Budget) -> sqlite3.Connection:
    """Put SQLite's precautions for untrusted files on a fresh read-only connection (before
    its first statement: the schema is parsed under these limits)."""
    for limit, value in LIMITS.items():
        conn.setlimit(limit, value)
    conn.set_progress_handler(budget, STEP)
    for pragma in ("trusted_schema = OFF", "cell_size_check = ON", "mmap_size = 0", "temp_store = MEMORY",
                   "query_only = ON"):
        conn.execute(f"PRAGMA {pragma}")
    return conn


def stalled(exc: BaseException, budget: Budget | None) -> bool:
    """The error is the budget stopping a statement."""
    return budget is not None and budget.spent or "interrupted" in str(exc).lower()


def stall_message(path: Any) -> str:
    return (f"{path}: reading it took far more work than a journal of its size needs, so it was stopped: it is "
            f"not a journal Touchline wrote (it may be built to stall its readers); it was left untouched")


def check_schema(conn: sqlite3.Connection, path: Any, version: int) -> None:
    """Refuse, naming what is wrong, unless the file holds exactly Touchline's tables and
    columns for journal schema ``version`` (1: no hash column). Reads ``sqlite_master`` and
    the two tables' column lists only: nothing the file defines runs."""
    try:
        objects = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: the journal's schema cannot be read ({_words(exc)}); it is damaged or not "
                           f"a journal Touchline wrote; it was left untouched") from None
    tables, others = set(), []
    for kind, name, table, sql in objects:
        kind, name = str(kind), str(name)
        if kind == "table" and name in ("meta", "events"):
            if not str(sql or "").lstrip().upper().startswith("CREATE TABLE"):
                raise _foreign(path, f"its {name!r} is a virtual table, where Touchline keeps a plain table")
            tables.add(name)
        elif kind == "index" and table == "events" and name in OWN_INDEXES:
            if " ".join(str(sql or "").split()) != OWN_INDEXES[name]:
                raise _foreign(path, f"its index {name!r} is not the one Touchline makes")
        elif kind == "index" and table in ("meta", "events") and sql is None \
                and name.startswith(f"sqlite_autoindex_{table}_"):
            continue  # the index SQLite itself keeps for a primary key that is not the rowid
        elif kind in ("view", "trigger") and name in ("meta", "events"):
            raise _foreign(path, f"its {name!r} is a {kind}, where Touchline keeps a table")
        else:
            others.append((kind, name))
    if "meta" not in tables:
        raise JournalError(f"{path}: the journal's header table is missing or foreign (there is no 'meta' table); it "
                           f"was left untouched")
    if "events" not in tables:
        raise JournalError(f"{path}: the events table is missing or changed (there is none); it was left untouched")
    for kind, name in others:
        raise _foreign(path, f"it holds {_article(kind)} {kind} {_short(name)!r}, which no Touchline journal has")
    _check_columns(conn, path, "meta", META_COLUMNS, key=None)
    _check_columns(conn, path, "events", EVENT_COLUMNS if version >= 2 else EVENT_COLUMNS[:-1], key="seq")


def _check_columns(conn: sqlite3.Connection, path: Any, table: str, expected: tuple[str, ...],
                   key: str | None) -> None:
    try:
        info = conn.execute(f"PRAGMA table_xinfo({table})").fetchall()
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: the journal's schema cannot be read ({_words(exc)}); it was left "
                           f"untouched") from None
    names = tuple(str(row[1]) for row in info)
    what = "header" if table == "meta" else "events"
    if names != expected:
        raise JournalError(f"{path}: the {what} table is missing or changed (its columns are "
                           f"{_short(', '.join(names), 120)}; Touchline's are {', '.join(expected)}); it was left "
                           f"untouched")
    for cid, name, type_, _notnull, _default, pk, hidden in info:
        if hidden:
            raise _foreign(path, f"its {table}.{name} is a generated or hidden column")
        if name == key and (pk != 1 or str(type_).upper() != "INTEGER" or sum(1 for r in info if r[5]) != 1):
            raise JournalError(f"{path}: the events table is missing or changed ({key} is not its INTEGER PRIMARY "
                               f"KEY); it was left untouched")


def planned(conn: sqlite3.Connection, path: Any, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
    """Run a query that reads many rows, after checking SQLite answers it without a temporary
    b-tree (no sort, no materialised result): what it reads is then the table itself."""
    params = tuple(params)
    plan = conn.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
    for row in plan:
        detail = str(row[-1]).upper()
        if "TEMP B-TREE" in detail or "MATERIALIZE" in detail or "CO-ROUTINE" in detail:
            raise _foreign(path, f"SQLite would need temporary storage to read it ({_short(str(row[-1]), 60)})")
    return conn.execute(sql, params)


def _foreign(path: Any, why: str) -> JournalError:
    return JournalError(f"{path}: not a journal Touchline wrote: {why}; nothing in it was run, and it was left "
                        f"untouched")


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _words(exc: BaseException, limit: int = 200) -> str:
    return _short(str(exc), limit)


__all__ = ["Budget", "budget_for", "harden", "check_schema", "planned", "stalled", "stall_message", "LIMITS",
           "EVENT_COLUMNS", "META_COLUMNS"]
