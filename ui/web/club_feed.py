"""The club's tables as one event stream for every spectator: ``TablesHub`` keeps the newest
``/tables`` as one server-sent event, built once per change and shared by every stream
(app.py's Feed and EventStream carry it to the viewers, as they carry a table's scoreboard).

A change is heard from the ledger (a write in this process) or, where several servers share
a PostgreSQL store, from the database's NOTIFY (companion/club/postgres.py): a spectator on
any server sees a table change whichever server took the upload.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Callable

from companion.club.ledger import Ledger

log = logging.getLogger(__name__)


class TablesHub:
    """The newest tables as (version, event bytes), rebuilt on each change (any thread)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self._lock = threading.Lock()
        self._watchers: list[Callable[[], None]] = []
        self._version = 0
        self._payload = b""
        self._stopping = False
        self.changed()

    @property
    def stopping(self) -> bool:
        return self._stopping

    def changed(self) -> None:
        """Something may have changed: build the tables again, and tell the streams if they differ."""
        if self._stopping:
            return
        try:
            tables = self.ledger.tables()
        except Exception:   # a store gone (the server stopping): the streams keep what they have
            log.debug("the club's tables could not be read", exc_info=True)
            return
        text = json.dumps({"tables": tables}, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        payload = f"event: tables\ndata: {text}\n\n".encode("utf-8")
        with self._lock:
            if payload == self._payload:
                return
            self._version += 1
            self._payload = payload
        self._tell()

    def current(self) -> tuple[int, bytes]:
        with self._lock:
            return self._version, self._payload

    def watch(self, changed: Callable[[], None]) -> None:
        with self._lock:
            self._watchers.append(changed)

    def unwatch(self, changed: Callable[[], None]) -> None:
        with self._lock:
            if changed in self._watchers:
                self._watchers.remove(changed)

    def _tell(self) -> None:
        with self._lock:
            watchers = list(self._watchers)
        for changed in watchers:
            try:
                changed()
            except Exception:
                log.debug("a tables watcher failed", exc_info=True)

    def stop(self) -> None:
        self._stopping = True
        self._tell()
