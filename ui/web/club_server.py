"""The club server on uvicorn, in a thread of its own with its own event loop, until ``stop``
(runner.py, the same arrangement as the scoreboard's server.py: the socket bound first, so a
taken port is one clear line at once and port 0 is known before ``url`` is read)."""

from __future__ import annotations

import logging

from companion.club.ledger import Ledger

from .club_app import ClubApp, Limiter
from .runner import ServerThread

log = logging.getLogger(__name__)


class ClubServer:
    """The club's ledger served on one address, until ``stop``."""

    def __init__(self, ledger: Ledger, host: str = "127.0.0.1", port: int = 0, parser: str = "auto",
                 limiter: Limiter | None = None) -> None:
        self.ledger = ledger
        self.app = ClubApp(ledger, limiter)
        hear = getattr(ledger.store, "listen", None)   # several servers on one database hear each other
        self._unlisten = hear(self.app.changed) if hear is not None else None
        try:
            self._runner = ServerThread(self.app, host, port, "the club", parser, "touchline-club")
        except BaseException:
            self._stop_listening()
            self.app.close()
            raise
        self.host, self.port = host, self._runner.port

    @property
    def url(self) -> str:
        return self._runner.base_url

    def _stop_listening(self) -> None:
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None

    def stop(self) -> None:
        self.app.hub.stop()              # every stream ends its response
        self.app.close()                 # and every table's scoreboard
        self._stop_listening()
        self._runner.stop()
