"""Reading a journal as one consistent snapshot, beside a live writer, without writing to it.

A journal in use is two files: the database and its write-ahead log (``-wal``), which SQLite
folds back into the database now and then (a checkpoint). Copying the two files one after the
other can straddle a checkpoint and give a torn copy. Instead the whole read (marks, header
table, every row) runs in one SQLite read transaction on a read-only connection: SQLite then
shows exactly the journal as of one commit, the writer goes on appending and checkpointing
meanwhile (a reader never blocks it in WAL mode), and nothing is written to the journal.

Three ways in, tried in order:

1. No ``-wal`` and no ``-shm`` beside the file: nobody has it open for writing. It is read
   ``immutable`` (no locks, no side files made next to a file that may not even be ours), and
   the read counts only if the file did not change meanwhile and no writer appeared.
2. Otherwise, or when 1 saw a change: a ``mode=ro`` connection in one read transaction. It uses
   the ``-shm`` the writer keeps (SQLite may create one if the folder allows).
3. When SQLite cannot open it that way (a read-only folder or ``-shm``, typically a card copied
   from another machine with a leftover ``-wal``), nobody can be writing there either: the two
   files are copied to a private folder and read there, and the copy counts only if neither
   original changed while it was taken.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Callable, TypeVar

from . import opener
from .errors import JournalError, TouchlineError
from .journal_guard import Budget, budget_for, harden, stall_message, stalled

log = logging.getLogger(__name__)

T = TypeVar("T")
SQLITE_HEADER = b"SQLite format 3\x00"
APPLICATION_ID = 0x544C4A31
RETRIES = 5

Reader = Callable[[sqlite3.Connection, Path], T]


def read_snapshot(path: Path, reader: "Reader[T]") -> T:
    """Run ``reader(conn, path)`` on one consistent read-only view of the journal at ``path``."""
    _check_header(path)
    for _ in range(RETRIES):
        wal, shm = _sides(path)
        if not wal and not shm:
            before = _identity(path)
            result = _attempt(path, reader, before)
            if result is not _CHANGED and not _moved(path, before):
                return result  # type: ignore[return-value]
            continue
        # Only one side file: nobody is writing, and an in-place read would make the other one.
        result = _attempt(path, reader, None) if wal and shm else _CANNOT_OPEN
        if result is _CANNOT_OPEN:
            result = _from_copy(path, reader)
        if result is not _CHANGED:
            return result  # type: ignore[return-value]
    raise JournalError(f"{path}: the journal kept changing while it was read ({RETRIES} tries); try again")


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_CHANGED = _Marker("changed")
_CANNOT_OPEN = _Marker("cannot-open")


def _check_header(path: Path) -> None:
    try:
        header = opener.read_head(path, 100, "a journal file",
                                  missing="no such journal; check the path, or start a new match")
    except opener.UnreadableFile as exc:
        raise JournalError(str(exc)) from None
    if not header.startswith(SQLITE_HEADER):
        raise JournalError(f"{path}: not a Touchline journal (not an SQLite file); it was left untouched")
    if len(header) < 100:
        raise JournalError(f"{path}: the journal is damaged (cut short at {len(header)} bytes, shorter than "
                           f"its header); it was left untouched. Restore it from a JSON Lines export if you have one")
    app_id = int.from_bytes(header[68:72], "big")
    if app_id != APPLICATION_ID:
        raise JournalError(f"{path}: an SQLite file, but not a Touchline journal (application id "
                           f"{app_id:#x}); it was left untouched")


def _sides(path: Path) -> tuple[bool, bool]:
    """Whether the ``-wal`` and the ``-shm`` exist (each a regular file, or refused), the
    journal and its ``-wal`` within the size a match file may have."""
    try:
        wal = opener.side_file(f"{path}-wal", "write-ahead log (-wal)")
        shm = opener.side_file(f"{path}-shm", "shared-memory index (-shm)")
        opener.within(path, _size(path) + (wal.st_size if wal else 0))
    except opener.UnreadableFile as exc:
        raise JournalError(str(exc)) from None
    return wal is not None, shm is not None


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _side_files(path: Path) -> bool:
    return Path(f"{path}-wal").exists() or Path(f"{path}-shm").exists()


def _identity(path: Path) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return ()
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _moved(path: Path, before: tuple) -> bool:
    """A writer appeared, or the file changed, since ``before`` was taken."""
    return _side_files(path) or _identity(path) != before


def _connect(uri: str, budget: Budget) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        return harden(conn, budget)
    except BaseException:
        conn.close()
        raise


def _attempt(path: Path, reader: "Reader[T]", before: tuple | None) -> "T | _Marker":
    """Read once; ``before`` (the file's identity) asks for an immutable read, which counts
    only if the file has not moved since: any error then may just be a writer's doing."""
    immutable = before is not None
    uri = f"{path.resolve().as_uri()}?mode=ro{'&immutable=1' if immutable else ''}"
    budget = budget_for(_size(path) + _size(Path(f"{path}-wal")))
    try:
        conn = _connect(uri, budget)
    except sqlite3.Error as exc:
        if not immutable and _cannot_open(exc):
            return _CANNOT_OPEN
        raise JournalError(f"{path}: cannot be read ({_words(exc)}); it was left untouched") from None
    try:
        conn.execute("BEGIN")  # one read transaction: every statement sees the same commit
        try:
            return reader(conn, path)
        finally:
            try:
                conn.execute("COMMIT")
            except sqlite3.Error:
                pass
    except JournalError:
        if immutable and _moved(path, before):
            return _CHANGED  # a writer appeared mid-read: read again through the WAL
        raise
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # damaged text can fail to decode in either
        if immutable and _moved(path, before):
            return _CHANGED
        if stalled(exc, budget):
            raise JournalError(stall_message(path)) from None
        if not immutable and _cannot_open(exc):
            return _CANNOT_OPEN
        raise JournalError(f"{path}: the journal is damaged or not a journal ({_words(exc)}); it was left "
                           f"untouched. Restore it from a JSON Lines export if you have one") from None
    finally:
        conn.close()


def _cannot_open(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY):
        return True
    text = str(exc).lower()
    return "unable to open" in text or "readonly" in text or "read-only" in text


def _from_copy(path: Path, reader: "Reader[T]") -> "T | _Marker":
    wal = Path(f"{path}-wal")
    before = (_identity(path), _identity(wal))
    folder = Path(tempfile.mkdtemp(prefix="touchline-read-"))
    copy = folder / "journal.sqlite"
    try:
        _copy(path, copy)
        if wal.exists():
            _copy(wal, Path(f"{copy}-wal"))
        if (_identity(path), _identity(wal)) != before:
            return _CHANGED
        log.info("%s: read through a private copy (its side files would be made or changed in place)", path)
        budget = budget_for(_size(copy) + _size(Path(f"{copy}-wal")))
        try:
            conn = _connect(f"{copy.resolve().as_uri()}?mode=ro", budget)
        except sqlite3.Error as exc:
            raise JournalError(f"{path}: cannot be read ({_words(exc)}); it was left untouched") from None
        try:
            conn.execute("BEGIN")
            return reader(conn, path)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if stalled(exc, budget):
                raise JournalError(stall_message(path)) from None
            raise JournalError(f"{path}: the journal is damaged or not a journal ({_words(exc)}); it was left "
                               f"untouched") from None
        finally:
            conn.close()
    except OSError as exc:
        raise JournalError(f"{path}: cannot be read ({exc.strerror or exc}); it was left untouched") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _copy(src: Path, dst: Path) -> None:
    """Copy a regular file of at most a match file's size (checked on what was opened)."""
    try:
        with opener.open_binary(src, "a journal file") as fin, open(dst, "wb") as fout:
            shutil.copyfileobj(fin, fout, 1024 * 1024)
    except TouchlineError as exc:
        raise JournalError(str(exc)) from None


def _words(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


__all__ = ["read_snapshot"]
