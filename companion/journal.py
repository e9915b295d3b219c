"""The match journal: one SQLite file per match, the single source of truth.

Durability: WAL mode with ``synchronous=FULL``, so ``append`` returns only after SQLite has
fsynced the write-ahead log; a process killed at any instant after that loses nothing. Each
command's events go in one transaction, so a crash never leaves half a command behind.

Nothing is deleted. Undo marks a batch ``undone`` (it stays redoable, also after a
restart); a new command marks all undone batches ``discarded`` in the same transaction
that appends it. The fold reads ``active`` rows only.

A file that is not a Touchline journal, was written by a newer Touchline, or is damaged is
refused with a JournalError and left exactly as it was: it is inspected read-only first.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from .errors import DecodeError, JournalError
from .events import Event, format_time, parse_time

log = logging.getLogger(__name__)

APPLICATION_ID = 0x544C4A31  # "TLJ1": marks the file as a Touchline journal
SCHEMA_VERSION = 1

ACTIVE, UNDONE, DISCARDED = "active", "undone", "discarded"

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
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded'))
);
CREATE INDEX events_by_status ON events (status, batch);
"""


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a journal holds: the active events in order, and the redoable batches
    (oldest undone first, which is the order redo takes them)."""

    game: str
    events: tuple[Event, ...]
    redo: tuple[tuple[Event, ...], ...]


class Journal:
    """Durable, append-only storage of one match's events."""

    def __init__(self, path: Path, conn: sqlite3.Connection, game: str) -> None:
        self.path = path
        self.game = game
        self._conn = conn
        self._lock = threading.Lock()

    # --- opening -------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike, game: str) -> "Journal":
        """Create a new journal file. Refuses to overwrite an existing file."""
        path = Path(path)
        if path.exists():
            raise JournalError(f"{path}: a file already exists there; open it, or choose another path")
        path.parent.mkdir(parents=True, exist_ok=True)
        # Built under a temporary name and renamed into place, so a crash during creation
        # never leaves a half-made file at the journal's path.
        tmp = path.with_name(f".{path.name}.{os.getpid()}.creating")
        try:
            conn = sqlite3.connect(tmp)
            try:
                conn.executescript(_SCHEMA)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
                    ("app", "touchline"), ("game", game), ("schema_version", str(SCHEMA_VERSION)),
                ])
                conn.commit()
            finally:
                conn.close()
            _fsync_file(tmp)
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        except OSError as exc:
            raise JournalError(f"{path}: cannot create the journal ({exc.strerror or exc}); "
                               f"check that the folder exists and is writable") from None
        finally:
            if tmp.exists():
                tmp.unlink()
        return cls._connect(path, game)

    @classmethod
    def open(cls, path: str | os.PathLike) -> "Journal":
        """Open an existing journal after checking, read-only, that it is ours and sound."""
        path = Path(path)
        game = inspect(path)
        return cls._connect(path, game)

    @classmethod
    def _connect(cls, path: Path, game: str) -> "Journal":
        try:
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise JournalError(f"{path}: cannot open the journal for writing ({exc}); "
                               f"check the file's permissions") from None
        return cls(path, conn, game)

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
    def append(self, events: Sequence[Event]) -> None:
        """Store one command's events durably; returns once they are on disk."""
        rows = [(e.seq, e.batch, format_time(e.at), e.source.value, e.type, _data_json(e)) for e in events]
        with self._lock:
            self._write(lambda c: (
                c.execute("UPDATE events SET status = 'discarded' WHERE status = 'undone'"),
                c.executemany("INSERT INTO events (seq, batch, at, source, type, data) VALUES (?, ?, ?, ?, ?, ?)",
                              rows),
            ))

    def insert_rows(self, rows: Sequence[tuple[Event, str]]) -> None:
        """Store events with their statuses as they are (importing an export), in one transaction."""
        values = [(e.seq, e.batch, format_time(e.at), e.source.value, e.type, _data_json(e), status)
                  for e, status in rows]
        with self._lock:
            self._write(lambda c: c.executemany(
                "INSERT INTO events (seq, batch, at, source, type, data, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
                values))

    def mark_undone(self, batch: int) -> None:
        with self._lock:
            self._write(lambda c: c.execute(
                "UPDATE events SET status = 'undone' WHERE batch = ? AND status = 'active'", (batch,)))

    def mark_redone(self, batch: int) -> None:
        with self._lock:
            self._write(lambda c: c.execute(
                "UPDATE events SET status = 'active' WHERE batch = ? AND status = 'undone'", (batch,)))

    def _write(self, work) -> None:
        conn = self._conn
        if conn is None:
            raise JournalError(f"{self.path}: the journal is closed")
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
            raise JournalError(f"{self.path}: could not write to the journal ({exc}); the last command "
                               f"was not recorded. Check free disk space and that the file is writable") from None

    # --- reading -------------------------------------------------------------------------
    def load(self) -> Loaded:
        with self._lock:
            conn = self._conn
            if conn is None:
                raise JournalError(f"{self.path}: the journal is closed")
            active = tuple(_decode_rows(self.path, conn.execute(
                "SELECT seq, batch, at, source, type, data FROM events WHERE status = 'active' ORDER BY seq")))
            undone = tuple(_decode_rows(self.path, conn.execute(
                "SELECT seq, batch, at, source, type, data FROM events WHERE status = 'undone' ORDER BY seq")))
        return Loaded(self.game, active, _group_batches(undone))

    def rows(self) -> Iterator[tuple[Event, str]]:
        """Every stored event with its status, in sequence order (for export)."""
        with self._lock:
            conn = self._conn
            rows = conn.execute("SELECT seq, batch, at, source, type, data, status FROM events ORDER BY seq").fetchall()
        for row in rows:
            event = next(iter(_decode_rows(self.path, [row[:6]])))
            yield event, row[6]


def inspect(path: Path) -> str:
    """Check a journal file read-only; return its game or raise JournalError. Never writes."""
    if not path.exists():
        raise JournalError(f"{path}: no such journal; check the path, or start a new match")
    if path.is_dir():
        raise JournalError(f"{path}: is a folder, not a journal file")
    with open(path, "rb") as fh:
        header = fh.read(100)
    if not header.startswith(b"SQLite format 3\x00"):
        raise JournalError(f"{path}: not a Touchline journal (not an SQLite file); it was left untouched")
    if len(header) < 100:
        raise JournalError(f"{path}: the journal is damaged (cut short at {len(header)} bytes, shorter than "
                           f"its header); it was left untouched. Restore it from a JSON Lines export if you have one")
    app_id = int.from_bytes(header[68:72], "big")
    if app_id != APPLICATION_ID:
        raise JournalError(f"{path}: an SQLite file, but not a Touchline journal (application id "
                           f"{app_id:#x}); it was left untouched")
    # Without a write-ahead log beside the file nobody is writing to it: read it immutable, so
    # SQLite does not leave -wal and -shm files next to a file that may not even be ours.
    busy = Path(f"{path}-wal").exists() or Path(f"{path}-shm").exists()
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro{'' if busy else '&immutable=1'}", uri=True)
    except sqlite3.Error as exc:
        raise JournalError(f"{path}: cannot be read ({exc}); it was left untouched") from None
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(f"{path}: written by a newer Touchline (journal schema {version}, this "
                               f"version reads up to {SCHEMA_VERSION}); update Touchline to open it")
        if version < 1:
            raise JournalError(f"{path}: journal schema version {version} is not one Touchline wrote")
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise JournalError(f"{path}: the journal is damaged ({check}); it was left untouched. "
                               f"Restore it from a JSON Lines export if you have one")
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        game = meta.get("game")
        if meta.get("app") != "touchline" or not game:
            raise JournalError(f"{path}: the journal's header table is missing or foreign")
        return game
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: the journal is damaged or not a journal ({exc}); it was left untouched") from None
    finally:
        conn.close()


def _data_json(event: Event) -> str:
    return json.dumps(event.to_json()["data"], separators=(",", ":"))


def _decode_rows(path: Path, rows: Iterable[tuple]) -> Iterator[Event]:
    for seq, batch, at, source, type_, data in rows:
        try:
            yield Event.from_json({"seq": seq, "batch": batch, "at": at, "source": source,
                                   "type": type_, "data": json.loads(data)})
        except (DecodeError, json.JSONDecodeError, ValueError) as exc:
            raise JournalError(f"{path}: event {seq} cannot be read ({exc}); the journal was left untouched") from None


def _group_batches(events: Sequence[Event]) -> tuple[tuple[Event, ...], ...]:
    batches: dict[int, list[Event]] = {}
    for event in events:
        batches.setdefault(event.batch, []).append(event)
    return tuple(tuple(batches[b]) for b in sorted(batches))


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


__all__ = ["Journal", "Loaded", "inspect", "ACTIVE", "UNDONE", "DISCARDED", "SCHEMA_VERSION", "parse_time"]
