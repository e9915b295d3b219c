"""Where a listing keeps its entries while it sorts and shows them: a private, temporary
SQLite database, so a season of 10,000 matches costs the listing no more memory than a
dozen (issue 32: "flat memory").

A listing (companion/report/history.py) must see every file before it can show the first:
the folder's names are sorted to be read beside the cache, files of one match are found
and told apart, and the list is in date order. Held in Python, that was about 1.2 kB a
match (an entry, its path, its strings). Here each entry is one row: the keys the listing
sorts and groups by as columns, and the entry itself packed by the caller (``blob``), read
back a row at a time in the order asked. SQLite sorts with a bounded cache and spills to
its temporary file beyond it.

The database is SQLite's own temporary one (``connect("")``): a file no other process can
name, deleted when it is closed. Text keys are stored as UTF-8 bytes with lone surrogates
kept (``surrogatepass``): a file name that is not UTF-8 still sorts, as Python sorts its
text, by code point (UTF-8 keeps code point order byte for byte), and SQLite compares BLOBs
byte for byte.
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
import tempfile
from typing import Any, Callable, Iterable, Iterator, NamedTuple, TypeVar

from ..errors import TouchlineError

F = TypeVar("F", bound=Callable[..., Any])


class ListingError(TouchlineError):
    """The listing's temporary database failed: no room (or no right) to write it."""


def _failed(exc: sqlite3.Error) -> ListingError:
    return ListingError(f"the list of matches needs a temporary file and could not write it ({exc}); free some "
                        f"space in {tempfile.gettempdir()}, or point TMPDIR at a folder with room, and try again")


def _guarded(method: F) -> F:
    """SQLite's failures (a full or unwritable temporary folder) as a ListingError that says
    what to do: the commands print it, the Matches screen shows it. Generators too."""
    if inspect.isgeneratorfunction(method):
        @functools.wraps(method)
        def rows(*args: Any, **kwargs: Any) -> Any:
            try:
                yield from method(*args, **kwargs)
            except sqlite3.Error as exc:
                raise _failed(exc) from None
        return rows  # type: ignore[return-value]

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            raise _failed(exc) from None
    return call  # type: ignore[return-value]


def key(text: str) -> bytes:
    """A text key as stored: sorts as Python sorts the text."""
    return text.encode("utf-8", "surrogatepass")


def text_of(stored: bytes) -> str:
    return stored.decode("utf-8", "surrogatepass")


class Keys(NamedTuple):
    """What the store sorts, groups and picks an entry by (the packed entry aside)."""

    name: str          # the file's name: unique within one listing
    readable: bool
    date: str          # its first event's time ('' when it has none)
    game: str
    copy: bool         # an altered file listed beside its match's original
    counts: bool       # a finished, readable match that is no such copy
    friendly: bool
    titled: bool       # the coach gave it a title


_SCHEMA = """
CREATE TABLE names (name BLOB PRIMARY KEY, is_dir INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE lines (name BLOB PRIMARY KEY, line BLOB) WITHOUT ROWID;
CREATE TABLE entries (name BLOB PRIMARY KEY, unreadable INTEGER NOT NULL, dated INTEGER NOT NULL,
                      date BLOB NOT NULL, is_copy INTEGER NOT NULL, game BLOB NOT NULL,
                      counts INTEGER NOT NULL, friendly INTEGER NOT NULL, titled INTEGER NOT NULL,
                      blob BLOB NOT NULL);
"""
# The list's order: readable first, files with no date before the dated, newest first, an
# altered copy after its match, then by name (history.in_list_order sorts a list the same).
BATCH = 256   # entries inserted at once
_LIST_ORDER = "ORDER BY unreadable, dated, date DESC, is_copy, name"


class EntryStore:
    """One listing's names and entries. Not shared between threads (a listing is one call)."""

    @_guarded
    def __init__(self) -> None:
        self._db = sqlite3.connect("", isolation_level=None, check_same_thread=True)
        self._pending: list[tuple] = []   # entries put, not yet inserted: inserted together (BATCH)
        try:
            # Private and thrown away at close: nothing to make durable, nothing to roll back.
            self._db.execute("PRAGMA journal_mode=OFF")
            self._db.execute("PRAGMA synchronous=OFF")
            self._db.executescript(_SCHEMA)
            self._db.execute("BEGIN")   # one transaction, never committed: writes stay in the cache
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        self._pending.clear()
        self._db.close()

    def __enter__(self) -> EntryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the folder's names -------------------------------------------------------------
    @_guarded
    def add_names(self, names: Iterable[tuple[str, bool]]) -> None:
        """(name, is a folder) of each of the folder's entries (a name given twice is kept once)."""
        self._db.executemany("INSERT OR IGNORE INTO names VALUES (?, ?)",
                             ((key(name), int(is_dir)) for name, is_dir in names))

    @_guarded
    def names(self) -> Iterator[tuple[str, bool]]:
        """Every name added, in name order (Python's order of the text), a row at a time."""
        for name, is_dir in self._db.execute("SELECT name, is_dir FROM names ORDER BY name"):
            yield text_of(name), bool(is_dir)

    @_guarded
    def put_line(self, name: str, line: bytes | None) -> None:
        """The history cache's new line of the file ``name`` (None: it has none)."""
        self._db.execute("INSERT OR REPLACE INTO lines VALUES (?, ?)", (key(name), line))

    @_guarded
    def names_and_lines(self) -> Iterator[tuple[str, bool, bool, bytes | None]]:
        """(name, is a folder, has a new line, the line) of every name, in name order."""
        for name, is_dir, changed, line in self._db.execute(
                "SELECT n.name, n.is_dir, l.name IS NOT NULL, l.line FROM names n LEFT JOIN lines l ON l.name = n.name "
                "ORDER BY n.name"):
            yield text_of(name), bool(is_dir), bool(changed), line

    # --- entries --------------------------------------------------------------------------
    @_guarded
    def put(self, keys: Keys, blob: bytes) -> None:
        """An entry (a later one of the same name replaces it)."""
        self._pending.append((key(keys.name), int(not keys.readable), int(bool(keys.date)), key(keys.date),
                              int(keys.copy), key(keys.game), int(keys.counts), int(keys.friendly),
                              int(keys.titled), blob))
        if len(self._pending) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        # One statement for a batch of rows: a statement a row was a fifth of a warm listing's time.
        if self._pending:
            self._db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self._pending)
            self._pending.clear()

    @_guarded
    def drop(self, name: str) -> None:
        self._flush()
        self._db.execute("DELETE FROM entries WHERE name = ?", (key(name),))

    @_guarded
    def shared_dates(self) -> Iterator[tuple[str, str]]:
        """(date, game) of every readable, dated match more than one file holds, a row at a
        time: copied aside first (a table of their own), so the entries may change while
        they are walked."""
        self._flush()
        self._db.execute("DROP TABLE IF EXISTS shared")
        self._db.execute("CREATE TABLE shared AS SELECT date, game FROM entries WHERE unreadable = 0 AND dated = 1 "
                         "GROUP BY date, game HAVING count(*) > 1 ORDER BY date, game")
        for d, g in self._db.execute("SELECT date, game FROM shared ORDER BY rowid"):
            yield text_of(d), text_of(g)

    @_guarded
    def sharing(self, date: str, game: str) -> list[bytes]:
        """The entries of the readable files dated ``date`` of ``game``, in name order."""
        self._flush()
        return [b for (b,) in self._db.execute(
            "SELECT blob FROM entries WHERE unreadable = 0 AND dated = 1 AND date = ? AND game = ? ORDER BY name",
            (key(date), key(game)))]

    @_guarded
    def in_list_order(self, game: str | None = None) -> Iterator[bytes]:
        """Every entry (of ``game`` only, when given) in the list's order, a row at a time."""
        self._flush()
        if game is None:
            rows = self._db.execute(f"SELECT blob FROM entries {_LIST_ORDER}")
        else:
            rows = self._db.execute(f"SELECT blob FROM entries WHERE game = ? {_LIST_ORDER}", (key(game),))
        for (blob,) in rows:
            yield blob

    @_guarded
    def counted(self, game: str | None, friendlies: bool, only_friendlies: bool = False) -> Iterator[bytes]:
        """The finished, readable matches that are no altered copy (of ``game``; friendlies only
        with ``friendlies``, nothing else with ``only_friendlies``), oldest first, then by name."""
        self._flush()
        where, params = self._counting(game, friendlies, only_friendlies)
        for (blob,) in self._db.execute(f"SELECT blob FROM entries WHERE {where} ORDER BY date, name", params):
            yield blob

    @_guarded
    def count(self, game: str | None, friendlies: bool = False, only_friendlies: bool = False) -> int:
        """How many ``counted`` gives."""
        self._flush()
        where, params = self._counting(game, friendlies, only_friendlies)
        return self._db.execute(f"SELECT count(*) FROM entries WHERE {where}", params).fetchone()[0]

    @staticmethod
    def _counting(game: str | None, friendlies: bool, only_friendlies: bool) -> tuple[str, tuple[bytes, ...]]:
        where = "counts = 1" + (" AND friendly = 1" if only_friendlies else "" if friendlies else " AND friendly = 0")
        if game is None:
            return where, ()
        return where + " AND game = ?", (key(game),)

    @_guarded
    def games(self) -> list[str]:
        """The games of the readable entries, in order."""
        self._flush()
        return [text_of(g) for (g,) in self._db.execute(
            "SELECT DISTINCT game FROM entries WHERE unreadable = 0 AND game != x'' ORDER BY game")]

    @_guarded
    def titled(self, game: str | None = None) -> bool:
        """Whether an entry (of ``game``) has the coach's title."""
        self._flush()
        if game is None:
            return self._db.execute("SELECT 1 FROM entries WHERE titled = 1 LIMIT 1").fetchone() is not None
        return self._db.execute("SELECT 1 FROM entries WHERE titled = 1 AND game = ? LIMIT 1",
                                (key(game),)).fetchone() is not None

    @_guarded
    def __len__(self) -> int:
        self._flush()
        return self._db.execute("SELECT count(*) FROM entries").fetchone()[0]
