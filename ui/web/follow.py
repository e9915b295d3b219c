"""Following a match journal that another process (the tablet app) is writing.

The journal is never opened for writing: each look is one read-only snapshot taken the way
every reader takes it (companion/journal_snapshot.py: regular files only, never blocking on
open; SQLite's precautions for untrusted files and the journal's schema checked before any
query, companion/journal_guard.py; no side file made beside it), so the reader never
checkpoints, never creates files next to the journal and never blocks the writer (WAL
readers do not). The file's size and time stamps (with its ``-wal``) are polled; only when
they move is the journal read, and then only the events after the last one seen, unless an
undo took some back (a full refold).

A JSON Lines export can be followed too: it is read again whole when it changes (through
``companion.jsonl.read_file``, as bounded as any reader).

For a server: ``read_match(path)`` is the whole bounded read in one call (a Folded match, or a
FollowError naming the file), and ``Follower`` polls with it; neither ever blocks on a FIFO,
runs what a hostile file defines, or reads past the limits every reader keeps.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.errors import DecodeError, JournalError, TouchlineError
from companion.events import Event
from companion.journal import inspect
from companion.journal_chain import load_payload
from companion.journal_guard import check_schema, planned
from companion.journal_snapshot import read_snapshot
from companion.ruleset import Ruleset

from ..places import has_place, places_for
from ..words import names_for

log = logging.getLogger(__name__)

POLL_S = 0.04


@dataclass
class Folded:
    """A match as far as it has been read: its state, the log's lines and the last event."""

    ruleset: Ruleset
    state: Any
    log: list[str] = field(default_factory=list)
    last: Event | None = None
    seqs: list[int] = field(default_factory=list)

    def apply(self, event: Event) -> None:
        line = self.ruleset.log_line(self.state, event)
        if line and "#" in line:   # "home#7" -> "Touchline Rovers #7 Kit"
            line = names_for(self.ruleset, self.state).line(line)
        if line and has_place(line):   # "(24, 22)" -> "a square in the right half", as on the tablet
            try:
                line = places_for(self.ruleset.game, self.ruleset.board(self.state)).in_words(line)
            except Exception:   # a state without a board: the line as the rules wrote it
                log.debug("no board to say a place by", exc_info=True)
        self.state = self.ruleset.evolve(self.state, event)
        if line:
            self.log.append(line)
            del self.log[:-200]
        self.last = event
        self.seqs.append(event.seq)


class FollowError(TouchlineError):
    """The followed match cannot be shown (damaged, foreign, of an unknown game)."""


class Busy(FollowError):
    """The journal could not be read just now (the writer holds a lock a moment): try again."""


TRANSIENT = ("locked", "busy")
PATIENCE_S = 3.0   # a journal busy this long is said to be unreadable
SETTLE_S = 1.0     # after the files change, keep reading this long (a commit shows after its fsync)


def _ruleset(game: str, where: str) -> Ruleset:
    from companion.games import ruleset_for

    try:
        return ruleset_for(game)
    except KeyError as exc:
        raise FollowError(f"{where}: {exc.args[0]}") from None


def _signature(path: Path) -> tuple:
    out = []
    for p in (path, Path(f"{path}-wal")):
        try:
            st = p.stat()
            out.append((st.st_size, st.st_mtime_ns, st.st_ino))
        except FileNotFoundError:
            out.append(None)
    return tuple(out)


class JournalReader:
    """Reads a journal's active events read-only, a little at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.game = inspect(path)   # checks, read-only, that it is a sound Touchline journal

    def read(self, known: list[int]) -> tuple[bool, list[Event]]:
        """(still_valid, new events): ``still_valid`` is False when an event already read was
        undone (the caller folds again from ``read([])``)."""
        last = known[-1] if known else 0

        def look(conn: sqlite3.Connection, path: Path) -> tuple[bool, list[tuple]]:
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                check_schema(conn, path, version)  # what is read now may not be what inspect saw
                count = conn.execute("SELECT count(*) FROM events WHERE status = 'active' AND seq <= ?",
                                     (last,)).fetchone()[0]
                if count != len(known):
                    return False, []
                # NOT INDEXED: walked in the table's own key order, never sorted (journal_guard)
                return True, planned(conn, path, "SELECT seq, batch, at, source, type, data FROM events NOT INDEXED "
                                                 "WHERE status = 'active' AND seq > ? ORDER BY seq", (last,)).fetchall()
            except sqlite3.OperationalError as exc:
                if any(word in str(exc).lower() for word in TRANSIENT):
                    raise Busy(f"{self.path}: the journal stayed busy ({exc}); is another program holding "
                               f"it?") from None
                raise
        try:
            valid, rows = read_snapshot(self.path, look)
        except JournalError as exc:
            raise FollowError(str(exc)) from None
        return valid, [self._decode(row) for row in rows]

    def _decode(self, row: tuple) -> Event:
        seq, batch, at, source, type_, data = row
        try:
            return Event.from_json({"seq": seq, "batch": batch, "at": at, "source": source, "type": type_,
                                    "data": load_payload(data)})
        except (DecodeError, ValueError, TypeError) as exc:
            raise FollowError(f"{self.path}: event {seq} cannot be read ({exc})") from None


def read_match(path: str | Path) -> Folded:
    """The match in a journal or an export as it stands now: one bounded read, every check a
    replay makes (the chain, the domains), folded. Anything wrong is a FollowError naming the
    file (a FIFO or a device, a view where the events are, a file too large, events that do
    not replay)."""
    from companion.loading import is_journal_file
    from companion.journal import load_file
    from companion.jsonl import read_file

    path = Path(path)
    try:
        if is_journal_file(path):
            loaded = load_file(path)
            game, events = loaded.game, loaded.events
        else:
            imported = read_file(path)
            game, events = imported.game, imported.events
        if not events:
            raise FollowError(f"{path}: holds no events; a match starts with its creation event")
        folded = Folded(_ruleset(game, str(path)), None)
        folded.state = folded.ruleset.initial_state()
        for event in events:
            folded.apply(event)
    except FollowError:
        raise
    except TouchlineError as exc:
        raise FollowError(str(exc)) from None
    except Exception as exc:  # events the rules cannot fold: say which file, never a traceback
        log.debug("read_match failed", exc_info=True)
        raise FollowError(f"{path}: the stored events do not replay ({exc})") from None
    return folded


class Follower:
    """Polls a match file and calls ``on_match(folded)`` after each change it reads, or
    ``on_problem(message)`` when the file cannot be shown (and keeps watching: a journal being
    copied in, or put right, is picked up)."""

    def __init__(self, path: Path, on_match: Callable[[Folded], None], on_problem: Callable[[str], None],
                 interval: float = POLL_S) -> None:
        self.path = Path(path)
        self.on_match, self.on_problem = on_match, on_problem
        self.interval = interval
        self._sig: tuple | None = None
        self._reader: JournalReader | None = None
        self._folded: Folded | None = None
        self._problem = ""
        self._busy_since = 0.0
        self._changed_at = -SETTLE_S - 1.0
        self._export = False          # a JSON Lines export: read again only when it changes
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- one look ------------------------------------------------------------------------------
    def poll(self) -> bool:
        """Look once; True when something new was handed on."""
        sig = _signature(self.path)
        now = time.monotonic()
        if sig != self._sig:
            self._changed_at = now
        elif now - self._changed_at > SETTLE_S or self._export:
            return False
        # Still inside the settle window: the writer's frames can reach the -wal (its stamps move)
        # before its commit is visible to readers (after the fsync), so look again for a while.
        try:
            changed = self._read()
        except Busy as exc:   # look again next time, whatever the files' stamps say
            self._changed_at = now
            self._busy_since = self._busy_since or now
            if now - self._busy_since < PATIENCE_S:
                return False
            self._busy_since = 0.0
            if str(exc) != self._problem:
                self._problem = str(exc)
                self.on_problem(str(exc))
                return True
            return False
        except (TouchlineError, OSError) as exc:
            message = str(exc) if isinstance(exc, TouchlineError) else f"{self.path}: {exc.strerror or exc}"
            self._sig, self._reader, self._folded = sig, None, None
            if message != self._problem:
                self._problem = message
                self.on_problem(message)
                return True
            return False
        except Exception as exc:  # events the rules cannot fold: say which, keep watching
            log.debug("follow failed", exc_info=True)
            message = f"{self.path}: the stored events do not replay ({exc})"
            self._sig, self._reader, self._folded = sig, None, None
            if message != self._problem:
                self._problem = message
                self.on_problem(message)
                return True
            return False
        self._sig = sig
        self._busy_since = 0.0
        self._problem = ""
        if changed:
            self.on_match(self._folded)
        return changed

    def _read(self) -> bool:
        if not self.path.exists():
            raise FollowError(f"{self.path}: no such match file; check the path")
        self._export = self._is_export()
        if self._export:
            return self._read_export()
        if self._reader is None:
            self._reader = JournalReader(self.path)
            self._folded = None
        if self._folded is None:
            self._folded = Folded(_ruleset(self._reader.game, str(self.path)), None)
            self._folded.state = self._folded.ruleset.initial_state()
            fresh = True
        else:
            fresh = False
        try:
            valid, events = self._reader.read(self._folded.seqs)
        except Busy:
            raise
        except FollowError:
            JournalReader(self.path)   # the file was replaced or damaged: its check says how, if it can
            raise
        if not valid:  # an undo took back events already shown: fold again from the start
            ruleset = self._folded.ruleset
            self._folded = Folded(ruleset, ruleset.initial_state())
            fresh = True
            _, events = self._reader.read([])
        for event in events:
            self._folded.apply(event)
        return bool(events) or fresh

    def _is_export(self) -> bool:
        from companion.loading import is_journal_file

        return not is_journal_file(self.path)

    def _read_export(self) -> bool:
        from companion.jsonl import read_file

        imported = read_file(self.path)
        events = imported.events
        if not events:
            raise FollowError(f"{self.path}: holds no events; a match starts with its creation event")
        game = events[0].type.partition(".")[0]
        folded = Folded(_ruleset(game, str(self.path)), None)
        folded.state = folded.ruleset.initial_state()
        for event in events:
            folded.apply(event)
        self._folded = folded
        return True

    # --- the thread ----------------------------------------------------------------------------
    def start(self) -> None:
        self.poll()
        self._thread = threading.Thread(target=self._run, name="touchline-follow", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.poll()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            try:
                self._thread.join(timeout=2)
            except RuntimeError:   # Ctrl+C / SIGTERM came while it was starting: it sees the stop at once
                pass


__all__ = ["Follower", "Folded", "FollowError", "JournalReader", "POLL_S", "read_match"]
