"""The match journal: one SQLite file per match, the single source of truth.

Durability: WAL mode with ``synchronous=FULL``, so ``append`` returns only after SQLite has
fsynced the write-ahead log; a process killed at any instant after that loses nothing. Each
command's events go in one transaction, so a crash never leaves half a command behind.

Nothing is deleted. Undo marks a batch ``undone`` (it stays redoable, also after a
restart); a new command marks all undone batches ``discarded`` in the same transaction
that appends it. The fold reads ``active`` rows only. Each event carries a hash chained to
its predecessor's (companion/journal_chain.py), so loss and edits are detected on reading.

Reading never writes: ``read_stored`` takes one consistent snapshot through a read-only
connection (companion/journal_snapshot.py), beside a live writer too. A file that is not a
Touchline journal, was written by a newer Touchline, is damaged or holds impossible events
is refused with a JournalError and left exactly as it was.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from .errors import JournalError
from .events import Event, format_time, parse_time
from .journal_chain import (ACTIVE, DISCARDED, GENESIS, MAX_EVENTS, UNDONE, Broken, Checked, RawRow, chain_hash,
                            check_rows, dump_json, gc_paused)
from .anchors import MARK_EVERY, AnchorBook, anchored, marks_of
from .final_record import KEY as FINAL_KEY, FinalRecord
from .journal_domains import domain_checker
from .journal_guard import check_schema, planned

log = logging.getLogger(__name__)

APPLICATION_ID = 0x544C4A31  # "TLJ1": marks the file as a Touchline journal
SCHEMA_VERSION = 2  # 1: no hash chain (still read; upgraded when opened for writing)
READABLE_VERSIONS = (1, 2)
GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")

_SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE events (
    seq    INTEGER PRIMARY KEY,
    batch  INTEGER NOT NULL,
    at     TEXT NOT NULL,
    source TEXT NOT NULL,
    type   TEXT NOT NULL,
    data   TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded')),
    hash   TEXT NOT NULL
);
CREATE INDEX events_by_status ON events (status, batch);
"""

# meta "chain": "full" (kept since the first event), or "upgraded <time> at event <seq>" (a
# schema 1 journal whose chain was computed when this version first opened it for writing).
CHAIN_FULL = "full"
# meta "altered": why the journal's events cannot be vouched for (imported, on the user's word,
# from an export whose chain was stripped or that was itself so marked). Kept by every export
# (its header's "altered") and every import of it: an altered match stays marked in every copy.
UNCHAINED_IMPORT = "on import of an export that kept none"  # the chain note such imports left before


def altered_of(meta: dict[str, str]) -> str:
    """Why a journal's (or an export header's) events cannot be vouched for, or ''."""
    altered = meta.get("altered", "")
    if altered:
        return altered
    chain = meta.get("chain", CHAIN_FULL)
    if chain.startswith("computed ") and UNCHAINED_IMPORT in chain:
        return f"imported from an export without its hash chain (hash chain {chain})"
    return ""


@dataclass(frozen=True, slots=True)
class Stored:
    """A journal as one read found it, before the rows are checked."""

    path: Path
    game: str
    version: int
    meta: dict[str, str]
    fetched: tuple[tuple, ...]  # each row as SQLite gave it: seq, batch, at, source, type, data, status, hash

    @property
    def rows(self) -> tuple[RawRow, ...]:
        """The rows as RawRows (made on each call: for export and messages; checking reads
        ``fetched`` as it is)."""
        return tuple(RawRow(*row) for row in self.fetched)

    @property
    def chained(self) -> bool:
        return self.version >= 2

    @property
    def omitted(self) -> dict[int, tuple[int, str]]:
        """Runs of events an imported active-only export left out: first seq -> (last seq, hash)."""
        text = self.meta.get("omitted")
        if not text:
            return {}
        try:
            return {int(first): (int(last), str(digest)) for first, last, digest in json.loads(text)}
        except (ValueError, TypeError):
            raise JournalError(f"{self.path}: the journal's header lists left-out events it cannot read "
                               f"({text[:60]!r}); it was left untouched") from None

    @property
    def altered(self) -> str:
        return altered_of(self.meta)

    def note(self) -> str:
        """What the chain does not vouch for, or '' when it covers every event."""
        if self.altered:
            return f"{self.path}: altered: {self.altered}"
        if not self.chained:
            return (f"{self.path}: journal schema 1 keeps no hash chain (written before Touchline kept "
                    f"one): loss or edits before now cannot be detected")
        chain = self.meta.get("chain", CHAIN_FULL)
        if chain != CHAIN_FULL:
            return f"{self.path}: hash chain {chain}: it vouches for earlier events only as they were then"
        if self.omitted:
            return f"{self.path}: imported from an active-only export: undone and discarded events are not in it"
        return ""


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a journal holds: the active events in order, the redoable batches (oldest undone
    first, which is the order redo takes them), and every checked row for export."""

    game: str
    events: tuple[Event, ...]
    redo: tuple[tuple[Event, ...], ...]
    checked: Checked | None = None
    note: str = ""
    chained: bool = True  # the file stores its hash chain (schema 2)
    altered: str = ""     # why its events cannot be vouched for ('' when nothing says so)


def check_stored(stored: Stored) -> Loaded:
    """Check a journal's rows (order, batches, statuses, chain, decoding, domains)."""
    try:
        checked = check_rows(stored.fetched, chained=stored.chained, omitted=stored.omitted,
                             domain=domain_checker(stored.game))
    except Broken as exc:
        raise JournalError(f"{stored.path}: {_event_name(exc, stored.rows)}{exc.reason}; the journal was left "
                           f"untouched (touchline verify names what is wrong)") from None
    return Loaded(stored.game, checked.active, checked.redo, checked, stored.note(), stored.chained, stored.altered)


def _event_name(exc: Broken, rows: Sequence[RawRow]) -> str:
    if not exc.seq:
        return ""
    kind = next((r.type for r in rows if r.seq == exc.seq and isinstance(r.type, str)), "")
    return f"event {exc.seq}{f' ({kind[:60]})' if kind else ''}: "


def read_stored(path: str | os.PathLike) -> Stored:
    """One consistent, read-only snapshot of a journal file (see journal_snapshot)."""
    from .journal_snapshot import read_snapshot

    return read_snapshot(Path(path), _read_all)


def load_file(path: str | os.PathLike) -> Loaded:
    """Read and check a journal without writing anything: for replay, export and verify."""
    return check_stored(read_stored(path))


def inspect(path: Path) -> str:
    """Check a journal file read-only; return its game or raise JournalError. Never writes."""
    return load_file(path).game


class Journal:
    """Durable, append-only storage of one match's events."""

    def __init__(self, path: Path, conn: sqlite3.Connection, game: str, head: str = GENESIS,
                 loaded: Loaded | None = None) -> None:
        self.path = path
        self.game = game
        self._conn = conn
        self._lock = threading.Lock()
        self._head = head            # hash of the last stored event
        self._loaded = loaded        # what open() read, until the first write
        self._anchors: AnchorBook | None = None  # where the app anchors each append (companion/anchors.py)
        self._first = ""             # the hash of event 1 and its time: name the match in the anchors
        self._start = ""
        self._last_seq = 0
        self._marks: dict[int, str] = {}
        self._final = ""             # the digest of the final record in the file ('' none)
        self._has_final = False      # the header table holds a final record (even one not ours)

    # --- opening -------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike, game: str, anchors: AnchorBook | None = None) -> "Journal":
        """Create a new journal file. Refuses to overwrite an existing file. With ``anchors``
        (the app's), each append is anchored outside the journal (companion/anchors.py)."""
        path = Path(path)
        _check_free(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.creating")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Built under a temporary name and renamed into place, so a crash during creation
            # never leaves a half-made file at the journal's path.
            _make(tmp, game)
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"{path}: cannot create the journal ({_reason(exc)}); check that the folder "
                               f"is writable and the disk has room") from None
        finally:
            _remove_quietly(tmp)
        journal = cls._connect(path, game)
        journal._anchors = anchors
        return journal

    @classmethod
    def create_with(cls, path: str | os.PathLike, game: str, rows: Sequence[RawRow],
                    meta: dict[str, str] | None = None) -> "Journal":
        """Create a journal already holding ``rows`` (an import), built whole under a temporary
        name and renamed into place only when complete: a failure leaves nothing at ``path``."""
        path = Path(path)
        _check_free(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.creating")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            _make(tmp, game, rows, meta or {})
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        except (OSError, sqlite3.Error, OverflowError) as exc:
            raise JournalError(f"{path}: cannot create the journal ({_reason(exc)}); check that the folder "
                               f"is writable and the disk has room") from None
        finally:
            _remove_quietly(tmp)
        return cls.open(path)

    @classmethod
    def open(cls, path: str | os.PathLike, anchors: AnchorBook | None = None) -> "Journal":
        """Open an existing journal after checking, read-only, that it is ours and sound. A
        schema 1 journal is upgraded in place (its hash chain computed) in one transaction.
        With ``anchors`` (the app's), a journal that ends before its anchor or was rewritten is
        refused, and each append is anchored."""
        path = Path(path)
        with gc_paused():
            stored = read_stored(path)
            loaded = check_stored(stored)
            chained = stored.chained
            omitted = stored.omitted
            final_text = stored.meta.get(FINAL_KEY)
            del stored  # the raw rows are garbage now: freed before the collector looks at them
        if anchors is not None and chained and loaded.checked is not None:
            found = anchored(anchors, path, loaded.checked, omitted, journal=True)
            if found.refused:
                raise JournalError(f"{path}: {found.text}")
        journal = cls._connect(path, loaded.game, loaded.checked.head if loaded.checked else GENESIS)
        if not chained:
            try:
                journal._upgrade(loaded)
            except BaseException:
                journal.close()
                raise
            return cls.open(path, anchors)
        journal._loaded = loaded
        journal._has_final = final_text is not None
        if anchors is not None and loaded.checked is not None:
            journal._anchor_from(anchors, loaded.checked, omitted)
        return journal

    def _anchor_from(self, anchors: AnchorBook, checked: Checked, omitted: dict[int, tuple[int, str]]) -> None:
        """Start anchoring this journal's appends; anchor it now where its anchor lags (or
        has none yet: a journal this app opens to play from now on)."""
        self._anchors = anchors
        pairs = [(e.seq, h) for e, h in zip(checked.events, checked.hashes)]
        pairs += [(last, digest) for last, digest in omitted.values()]
        self._marks = marks_of(pairs)
        if checked.hashes and checked.events[0].seq == 1:
            self._first, self._start = checked.hashes[0], format_time(checked.events[0].at)
        self._last_seq = checked.last_seq
        own = anchors.lookup(self.path)
        if self._first and (own is None or own.last_seq < self._last_seq):
            anchors.record(self.path, self._first, self._last_seq, self._head, self._marks, self._start)

    @classmethod
    def _connect(cls, path: Path, game: str, head: str = GENESIS) -> "Journal":
        try:
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA trusted_schema = OFF")  # checked when read; nothing in it runs for us
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise JournalError(f"{path}: cannot open the journal for writing ({_reason(exc)}); "
                               f"check the file's and the folder's permissions") from None
        return cls(path, conn, game, head)

    def _upgrade(self, loaded: Loaded) -> None:
        """Schema 1 -> 2: add the hash column and compute the chain over the rows as they are."""
        checked = loaded.checked
        assert checked is not None
        rows = [(digest, event.seq) for (event, _), digest in zip(checked.rows, checked.hashes)]
        note = f"upgraded {format_time(_now())} at event {checked.last_seq}"

        def work(c: sqlite3.Connection) -> None:
            count = c.execute("SELECT count(*) FROM events").fetchone()[0]
            if count != len(rows):
                raise JournalError(f"{self.path}: the journal changed while it was being upgraded; open it again")
            c.execute("ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT ''")
            c.executemany("UPDATE events SET hash = ? WHERE seq = ?", rows)
            c.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                          [("schema_version", str(SCHEMA_VERSION)), ("chain", note)])
            c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        with self._lock:
            self._write(work)
        log.info("%s: upgraded from journal schema 1 to %d (hash chain computed over %d events)",
                 self.path, SCHEMA_VERSION, len(rows))

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None  # type: ignore[assignment]

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing -------------------------------------------------------------------------
    def append(self, events: Sequence[Event], result: dict | None = None, active: int = 0) -> None:
        """Store one command's events durably; returns once they are on disk. ``result``: the
        finished match's summary fields with ``active`` events after these
        (companion/final_record.py), kept in the same transaction; None while it is not finished."""
        with self._lock:
            try:
                rows, head = _chained_rows(self._head, [(e, ACTIVE) for e in events])
                record = FinalRecord(head, active, result) if result is not None and rows else None
                text = record.text() if record is not None else None
            except ValueError as exc:  # a payload JSON cannot hold (NaN...): refuse, store nothing
                raise JournalError(f"{self.path}: an event cannot be stored ({exc}); the command was not "
                                   f"recorded") from None
            self._write(lambda c: (
                c.execute("UPDATE events SET status = 'discarded' WHERE status = 'undone'"),
                c.executemany("INSERT INTO events (seq, batch, at, source, type, data, status, hash) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows),
                self._keep_final(c, text),
            ))
            self._head = head
            self._kept_final(record)
            if self._anchors is not None and rows:
                self._anchor(rows)

    def _keep_final(self, c: sqlite3.Connection, text: str | None) -> None:
        """Write the final record, or remove the one the file holds (inside a write)."""
        if text is not None:
            c.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (FINAL_KEY, text))
        elif self._has_final:
            c.execute("DELETE FROM meta WHERE key = ?", (FINAL_KEY,))

    def _kept_final(self, record: FinalRecord | None) -> bool:
        """After the commit: remember the record; True when the anchor must say so."""
        digest = record.digest() if record is not None else ""
        changed = digest != self._final or self._has_final != (record is not None)
        self._final, self._has_final = digest, record is not None
        return changed

    def _anchor(self, rows: list[tuple]) -> None:
        """Anchor the journal's new end outside it (after the commit: never ahead of it)."""
        if not self._first and rows[0][0] == 1:
            self._first, self._start = rows[0][-1], rows[0][2]
        for row in rows:
            if not row[0] % MARK_EVERY:
                self._marks[row[0]] = row[-1]
        self._last_seq = rows[-1][0]
        if self._first:
            self._anchors.record(self.path, self._first, self._last_seq, self._head, self._marks, self._start,
                                 self._final)

    def mark_undone(self, batch: int, result: dict | None = None, active: int = 0) -> None:
        """Mark a batch undone; ``result`` and ``active`` as for ``append`` (the match after it)."""
        self._mark(batch, "undone", "active", result, active)

    def mark_redone(self, batch: int, result: dict | None = None, active: int = 0) -> None:
        """Mark an undone batch active again; ``result`` and ``active`` as for ``append``."""
        self._mark(batch, "active", "undone", result, active)

    def _mark(self, batch: int, status: str, was: str, result: dict | None, active: int) -> None:
        with self._lock:
            record = FinalRecord(self._head, active, result) if result is not None else None
            text = record.text() if record is not None else None
            self._write(lambda c: (
                c.execute("UPDATE events SET status = ? WHERE batch = ? AND status = ?", (status, batch, was)),
                self._keep_final(c, text),
            ))
            if self._kept_final(record) and self._anchors is not None and self._first:
                self._anchors.record(self.path, self._first, self._last_seq, self._head, self._marks,
                                     self._start, self._final)

    def _write(self, work) -> None:
        conn = self._conn
        if conn is None:
            raise JournalError(f"{self.path}: the journal is closed")
        self._loaded = None
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                work(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            raise JournalError(f"{self.path}: refused a write that would break the journal ({exc})") from None
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: could not write to the journal ({_reason(exc)}); the last command "
                               f"was not recorded. Check free disk space and that the file is writable") from None

    # --- reading -------------------------------------------------------------------------
    def load(self) -> Loaded:
        """Everything the journal holds, checked. Right after ``open`` this is what open read."""
        with self._lock:
            if self._loaded is not None:
                return self._loaded
            conn = self._conn
            if conn is None:
                raise JournalError(f"{self.path}: the journal is closed")
            try:
                conn.execute("BEGIN")
                try:
                    stored = _read_all(conn, self.path)
                finally:
                    conn.execute("COMMIT")
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path}: the journal cannot be read ({_reason(exc)})") from None
        return check_stored(stored)

    def rows(self) -> Iterator[tuple[Event, str]]:
        """Every stored event with its status, in sequence order (for export)."""
        checked = self.load().checked
        return iter(checked.rows if checked else ())


def _read_all(conn: sqlite3.Connection, path: Path) -> Stored:
    """Read the marks, the header table and every row (inside the caller's read transaction).
    sqlite3 errors propagate; the caller words them."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JournalError(f"{path}: written by a newer Touchline (journal schema {version}, this "
                           f"version reads up to {SCHEMA_VERSION}); update Touchline to open it")
    if version not in READABLE_VERSIONS:
        raise JournalError(f"{path}: journal schema version {version} is not one Touchline wrote")
    check_schema(conn, path, version)  # exactly our tables and columns, before any query reads them
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise JournalError(f"{path}: the journal is damaged ({' '.join(str(check).split())[:200]}); it was left "
                           f"untouched. Restore it from a JSON Lines export if you have one")
    try:
        meta_rows = conn.execute("SELECT key, value FROM meta").fetchall()
    except sqlite3.OperationalError as exc:
        raise JournalError(f"{path}: the journal's header table is missing or foreign ({exc}); it was left "
                           f"untouched") from None
    meta = {k: v for k, v in meta_rows if isinstance(k, str) and isinstance(v, str)}
    game = meta.get("game")
    if meta.get("app") != "touchline" or not game:
        raise JournalError(f"{path}: the journal's header table is missing or foreign; it was left untouched")
    if not GAME_NAME.fullmatch(game):
        raise JournalError(f"{path}: the journal's header names the game {game[:40]!r}, which is no game's name "
                           f"(lower-case letters, digits and _); it was left untouched")
    if meta.get("schema_version") != str(version):
        raise JournalError(f"{path}: the header table says schema {str(meta.get('schema_version'))[:20]!r} but "
                           f"the file is marked schema {version}: one of them was changed; it was left untouched")
    columns = "seq, batch, at, source, type, data, status, " + ("hash" if version >= 2 else "NULL")
    try:
        count = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        if count > MAX_EVENTS:
            raise JournalError(f"{path}: holds {count:,} events, more than any match ({MAX_EVENTS:,} at most; a full "
                               f"match is a few thousand); it was not read, and was left untouched")
        cursor = planned(conn, path, f"SELECT {columns} FROM events ORDER BY seq")
    except sqlite3.OperationalError as exc:
        raise JournalError(f"{path}: the events table is missing or changed ({exc}); it was left "
                           f"untouched") from None
    return Stored(path, game, version, meta, tuple(cursor))


def _chained_rows(head: str, events) -> tuple[list[tuple], str]:
    return _chain_raw(head, [(e.seq, e.batch, format_time(e.at), e.source.value, e.type, _data_json(e), status)
                             for e, status in events])


def _chain_raw(head: str, rows: Sequence[tuple], omitted: dict[int, tuple[int, str]] | None = None
               ) -> tuple[list[tuple], str]:
    """Rows (seq, batch, at, source, type, data text, status) with their chained hashes;
    ``omitted`` runs (first seq -> last seq, hash) are stepped over as check_rows does."""
    values: list[tuple] = []
    last = 0
    for row in rows:
        seq = row[0]
        hop = omitted.get(last + 1) if omitted else None
        if hop is not None and seq == hop[0] + 1:
            head = hop[1]
        head = chain_hash(head, *row[:6])
        values.append((*row[:7], head))
        last = seq
    return values, head


def _make(path: Path, game: str, rows: Sequence[RawRow] = (), meta: dict[str, str] | None = None) -> None:
    """Write a complete journal file at ``path`` (a temporary name) and fsync it."""
    _remove_quietly(path)
    meta = dict(meta or {})
    conn = sqlite3.connect(path)
    try:
        conn.executescript(_SCHEMA)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", sorted({
            "app": "touchline", "game": game, "schema_version": str(SCHEMA_VERSION), "chain": CHAIN_FULL, **meta,
        }.items()))
        if rows:
            omitted = {int(f): (int(l), str(h)) for f, l, h in json.loads(meta["omitted"])} \
                if "omitted" in meta else None
            values, _ = _chain_raw(GENESIS, [(r.seq, r.batch, r.at, r.source, r.type, r.data, r.status)
                                             for r in rows], omitted)
            conn.executemany("INSERT INTO events (seq, batch, at, source, type, data, status, hash) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values)
        conn.commit()
    finally:
        conn.close()
    _fsync_file(path)


def _check_free(path: Path) -> None:
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise JournalError(f"{path}: cannot create the journal there: {parent} is a file, not a folder")
            break
    if path.exists():
        raise JournalError(f"{path}: a file already exists there; open it, or choose another path")
    for side in ("-wal", "-shm", "-journal"):
        stale = Path(f"{path}{side}")
        if stale.exists():
            raise JournalError(f"{path}: a stale {stale.name} lies there (left by a journal that was at this "
                               f"path); SQLite would apply it to the new journal. Move it away or choose another "
                               f"path; it was left untouched")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return " ".join(str(exc).split())[:200]


def _remove_quietly(path: Path) -> None:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        try:
            p.unlink()
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as exc:
            log.warning("%s: could not remove a temporary file (%s)", p, exc)


def _now():
    from .events import now

    return now()


def _data_json(event: Event) -> str:
    return dump_json(event.to_json()["data"])


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = ["Journal", "Loaded", "Stored", "inspect", "load_file", "read_stored", "check_stored", "ACTIVE", "UNDONE",
           "DISCARDED", "SCHEMA_VERSION", "parse_time"]
