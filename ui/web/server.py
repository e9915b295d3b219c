"""The scoreboard page served over HTTP: the ASGI application (app.py) on uvicorn, in a thread
of its own with its own event loop, until ``stop``.

uvicorn owns the connections: HTTP/1.1 parsing (httptools where installed, h11 on the tablet:
connection.py), keep-alive, a 400 for a malformed request, and the listen backlog.
connection.py adds the deadlines and bounds it leaves out. The socket is bound here, before the thread starts, so a taken port or a foreign
address is one clear line at once, and port 0 is known before ``url`` is read.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading

import uvicorn

from companion.errors import TouchlineError

from .app import MAX_HEAD_BYTES, MAX_VIEWERS, ScoreboardApp, new_token
from .connection import IDLE_S, connection_class
from .hub import Hub

log = logging.getLogger(__name__)

BACKLOG = 1024           # connections the kernel queues before they are accepted
START_S = 10.0           # the server thread must be serving within this time
STOP_S = 2               # streams and requests still open when stopping get this long


class _Server(uvicorn.Server):
    """uvicorn's server that says when it listens (``ready``) and leaves signals to the caller."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.ready.set()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise TouchlineError(f"cannot serve the scoreboard on {host}:{port} ({exc.strerror or exc}); "
                             f"choose another --port, or a --host this machine has") from None
    sock.setblocking(False)
    return sock


class ScoreboardServer:
    """The page served from one hub on one address, until ``stop``."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                 max_viewers: int = MAX_VIEWERS, parser: str = "auto") -> None:
        self.hub = hub
        self.token = token or new_token()
        try:
            protocol = connection_class(parser)
        except ValueError as exc:
            raise TouchlineError(str(exc)) from None
        self._sock = _listen(host, port)
        self.host = host
        self.port = self._sock.getsockname()[1]
        self.app = ScoreboardApp(hub, self.token, max_viewers)
        config = uvicorn.Config(
            self.app, http=protocol, ws="none", lifespan="off", interface="asgi3",
            log_config=None, log_level=logging.ERROR, access_log=False,   # a bad request is no news
            proxy_headers=False, server_header=False, backlog=BACKLOG,
            timeout_keep_alive=IDLE_S, timeout_graceful_shutdown=STOP_S,
            h11_max_incomplete_event_size=MAX_HEAD_BYTES)
        self._server = _Server(config)
        self._thread = threading.Thread(target=self._run, name="touchline-web", daemon=True)
        self._thread.start()
        if not self._server.ready.wait(START_S):
            self._server.should_exit = True
            self._sock.close()
            raise TouchlineError(f"the scoreboard did not start on {host}:{self.port} within {START_S:.0f} s")

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self.app.attach(asyncio.get_running_loop())
        try:
            await self._server.serve(sockets=[self._sock])
        finally:
            self.app.detach()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/{self.token}/"

    @property
    def viewers(self) -> int:
        """Event streams open now."""
        return self.app.seats.taken

    @property
    def connections(self) -> int:
        """Connections open now, viewers or not."""
        return len(self._server.server_state.connections)

    def stop(self) -> None:
        """Stop listening at once; the viewers' streams end."""
        self.hub.stop()                  # every stream ends its response
        self._server.should_exit = True  # uvicorn closes the listening socket, then the connections
        self._thread.join(timeout=STOP_S + 3)
        self._sock.close()
