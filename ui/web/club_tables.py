"""Each table's scoreboard on the club server: the page a tablet serves of its own match
(page.html, the same snapshots built by snapshot.py through hub.py), fed from the club's copy of
that match's journal, read-only. Spectators follow a table from the club; they never load a
tablet.

A ``TableScoreboard`` folds the events the club holds of one match (checked from event 1 up to
``held``; the active ones, by the undone and discarded batches the tablet last sent) with the
game's rules, as follow.py folds a journal file, and offers the fold to its own hub. It reads on
from the last event it folded; when the tablet's undo or redo changed the statuses it folds
again from event 1. ``TableScoreboards`` keeps the scoreboards asked for (at most
``MAX_SCOREBOARDS``: the least recently asked for with no viewer makes room) and refreshes them
on a thread of its own whenever the club's tables may have changed (a write here, or another
server's NOTIFY), so an upload's request never waits for a scoreboard.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict

from companion.events import Event
from companion.journal_chain import load_payload

from .app import Feed, Seats
from .follow import Folded
from .hub import Hub

log = logging.getLogger(__name__)

MAX_SCOREBOARDS = 64     # matches followed at once (a hub and its thread each); a club night has 8 to 32
FIRST_BUILD_S = 10.0     # a new scoreboard's first snapshot is awaited this long at most
MATCH_ID = re.compile(r"[0-9a-f]{64}")


class NoRoom(Exception):
    """Every scoreboard kept has a viewer: none can make room for another."""


_UNREAD = object()


class TableScoreboard:
    """One match's scoreboard from the club's store. ``refresh`` may run on any thread."""

    def __init__(self, store, match_id: str) -> None:
        self.store = store
        self.match = match_id
        self.hub = Hub()
        self.feed: Feed | None = None   # made on the server's loop by the first request that wants it
        self.viewers = 0                # streams open on it (changed on the server's loop only)
        self._lock = threading.Lock()
        self._folded: Folded | None = None
        self._statuses: tuple = ()
        self._seq = 0                   # the last event folded
        self.offered = 0                # snapshots offered to the hub

    def refresh(self, row=_UNREAD) -> bool:
        """Fold what the club holds now beyond what was folded (``row``: the match's row, when
        the caller read every match's at once); False when the club holds no such match. A
        store that cannot be read (PostgreSQL restarting) keeps what is shown."""
        with self._lock:
            try:
                if row is _UNREAD:
                    row = self.store.match(self.match)
                if row is None:
                    return False
                if not row.game or row.held == 0:
                    return True          # no event checked yet: "Waiting for the match to start..."
                statuses = (row.undone, row.discarded)
                fresh = self._folded is None or statuses != self._statuses
                if fresh:
                    from companion.games import ruleset_for

                    try:
                        ruleset = ruleset_for(row.game)
                    except KeyError as exc:
                        self.hub.offer_problem(f"this club server cannot show the match: {exc.args[0]}")
                        self.offered += 1
                        return True
                    self._folded = Folded(ruleset, ruleset.initial_state())
                    self._statuses, self._seq = statuses, 0
                if row.held <= self._seq and not fresh:
                    return True
                taken_back = set(row.undone) | set(row.discarded)
                for seq, batch, at, source, type_, data, _ in self.store.events(self.match, self._seq):
                    if seq > row.held:
                        break            # beyond a gap: not checked yet
                    if batch not in taken_back:
                        self._folded.apply(Event.from_json({"seq": seq, "batch": batch, "at": at, "source": source,
                                                            "type": type_, "data": load_payload(data)}))
                    self._seq = seq
            except Exception as exc:
                if _store_gone(exc):
                    log.debug("the club's store could not be read for a scoreboard", exc_info=True)
                    return True
                log.exception("a table's scoreboard could not be folded")
                self._folded = None
                self.hub.offer_problem(f"the club's copy of this match cannot be shown ({exc})")
                self.offered += 1
                return True
            folded = self._folded
            self.hub.offer_match(folded.ruleset, folded.state, folded.log, folded.last)
            self.offered += 1
            return True

    def stop(self) -> None:
        if self.feed is not None:
            self.feed.close()
        self.hub.stop()


def _store_gone(exc: Exception) -> bool:
    """A store that went away for a moment, not a match that cannot be folded."""
    from companion.club.store import StoreError

    if isinstance(exc, StoreError):
        return True
    # sqlite3's and psycopg's (PostgreSQL restarting, a connection reset) by name: psycopg is optional
    return any(c.__name__ in ("OperationalError", "InterfaceError") and c.__module__.split(".")[0] in ("sqlite3", "psycopg")
               for c in type(exc).__mro__)


class BoardSeats:
    """The club's seats, counted for one scoreboard too (a scoreboard with viewers is kept)."""

    def __init__(self, seats: Seats, board: TableScoreboard) -> None:
        self.seats, self.board = seats, board

    def take(self) -> bool:
        if not self.seats.take():
            return False
        self.board.viewers += 1
        return True

    def give_back(self) -> None:
        self.board.viewers -= 1
        self.seats.give_back()


class TableScoreboards:
    """The scoreboards spectators asked for, kept fresh by one thread."""

    def __init__(self, store, limit: int = MAX_SCOREBOARDS) -> None:
        self.store = store
        self.limit = limit
        self._boards: OrderedDict[str, TableScoreboard] = OrderedDict()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="touchline-club-tables", daemon=True)
        self._thread.start()

    def get(self, match_id: str) -> TableScoreboard | None:
        """The match's scoreboard, made and folded if it is new; None when the club holds no
        such match; NoRoom when every scoreboard kept has viewers. Blocks: call from a worker."""
        with self._lock:
            board = self._boards.get(match_id)
            if board is not None:
                self._boards.move_to_end(match_id)
                return board
        if self._stopping or not MATCH_ID.fullmatch(match_id):
            return None
        if self.store.match(match_id) is None:   # a store gone for a moment raises: the caller says so
            return None
        board = TableScoreboard(self.store, match_id)
        if not board.refresh():
            board.stop()
            return None
        if board.offered:   # the first spectator sees the match at once, not "Waiting..." until the next change
            board.hub.wait_version(1, FIRST_BUILD_S)
        evicted = None
        with self._lock:
            known = self._boards.get(match_id)
            if known is None and len(self._boards) >= self.limit:
                idle = next((k for k, b in self._boards.items() if b.viewers == 0), None)
                if idle is not None:
                    evicted = self._boards.pop(idle)
            if known is None and len(self._boards) < self.limit:
                self._boards[match_id] = board
                known, board = board, None
        for spare in (evicted, board):
            if spare is not None:
                spare.stop()
        if known is None:
            raise NoRoom(f"{self.limit} tables' scoreboards are being watched; try again soon")
        return known

    def changed(self) -> None:
        """The club's tables may have changed (any thread; returns at once)."""
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            if self._stopping:
                return
            self._wake.clear()
            with self._lock:
                boards = list(self._boards.values())
            if not boards:
                continue
            try:   # one query for every match, not one per scoreboard; only those that moved read on
                rows = {m.id: m for m in self.store.matches()}
            except Exception as exc:
                if not _store_gone(exc):
                    log.exception("the club's matches could not be read for the scoreboards")
                continue
            for board in boards:
                if self._stopping:
                    return
                board.refresh(rows.get(board.match))

    def close(self) -> None:
        self._stopping = True
        self._wake.set()
        self._thread.join(timeout=5)
        with self._lock:
            boards, self._boards = list(self._boards.values()), OrderedDict()
        for board in boards:
            board.stop()
