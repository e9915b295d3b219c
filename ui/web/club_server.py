"""The club server on uvicorn, in a thread of its own with its own event loop, until ``stop``
(the same arrangement as the scoreboard's server.py: the socket bound first, so a taken port is
one clear line at once and port 0 is known before ``url`` is read)."""

from __future__ import annotations

import asyncio
import logging
import threading

import uvicorn

from companion.club.ledger import Ledger
from companion.errors import TouchlineError

from .app import MAX_HEAD_BYTES
from .club_app import ClubApp, Limiter
from .connection import IDLE_S, connection_class
from .server import BACKLOG, START_S, STOP_S, listen

log = logging.getLogger(__name__)


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        self.ready.set()


class ClubServer:
    """The club's ledger served on one address, until ``stop``."""

    def __init__(self, ledger: Ledger, host: str = "127.0.0.1", port: int = 0, parser: str = "auto",
                 limiter: Limiter | None = None) -> None:
        self.ledger = ledger
        try:
            protocol = connection_class(parser)
        except ValueError as exc:
            raise TouchlineError(str(exc)) from None
        self._sock = listen(host, port, "the club")
        self.host = host
        self.port = self._sock.getsockname()[1]
        self.app = ClubApp(ledger, limiter)
        config = uvicorn.Config(
            self.app, http=protocol, ws="none", lifespan="off", interface="asgi3",
            log_config=None, log_level=logging.ERROR, access_log=False,
            proxy_headers=False, server_header=False, backlog=BACKLOG,
            timeout_keep_alive=IDLE_S, timeout_graceful_shutdown=STOP_S,
            h11_max_incomplete_event_size=MAX_HEAD_BYTES)
        self._server = _Server(config)
        hear = getattr(ledger.store, "listen", None)   # several servers on one database hear each other
        self._unlisten = hear(self.app.hub.changed) if hear is not None else None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._serve()), name="touchline-club",
                                        daemon=True)
        self._thread.start()
        if not self._server.ready.wait(START_S):
            if self._unlisten is not None:
                self._unlisten()
            self._server.should_exit = True
            self._sock.close()
            raise TouchlineError(f"the club server did not start on {host}:{self.port} within {START_S:.0f} s")

    async def _serve(self) -> None:
        self.app.attach(asyncio.get_running_loop())
        try:
            await self._server.serve(sockets=[self._sock])
        finally:
            self.app.detach()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self) -> None:
        self.app.hub.stop()              # every stream ends its response
        if self._unlisten is not None:
            self._unlisten()
        self._server.should_exit = True
        self._thread.join(timeout=STOP_S + 3)
        self._sock.close()
