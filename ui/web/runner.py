"""An ASGI application on uvicorn, in a thread of its own with its own event loop, until
``stop``: what the scoreboard (server.py) and the club server (club_server.py) both run on.

uvicorn owns the connections: HTTP/1.1 parsing (httptools where installed, h11 on the tablet:
connection.py), keep-alive, a 400 for a malformed request, and the listen backlog.
connection.py adds the deadlines and bounds it leaves out. The socket is bound here, before the
thread starts, so a taken port or a foreign address is one clear line at once, and port 0 is
known before ``url`` is read.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from typing import Any, Protocol

import uvicorn

from companion.errors import TouchlineError

from .app import MAX_HEAD_BYTES
from .connection import IDLE_S, connection_class

log = logging.getLogger(__name__)

BACKLOG = 1024           # connections the kernel queues before they are accepted
START_S = 10.0           # the server thread must be serving within this time
STOP_S = 2               # streams and requests still open when stopping get this long


class Attachable(Protocol):
    """An ASGI application told of the server's event loop once it runs, and when it ends."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None: ...
    def attach(self, loop: asyncio.AbstractEventLoop) -> None: ...
    def detach(self) -> None: ...


class _Server(uvicorn.Server):
    """uvicorn's server that says when it listens (``ready``) and leaves signals to the caller."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.ready.set()


def listen(host: str, port: int, what: str = "the scoreboard") -> socket.socket:
    """A listening socket on ``host:port``, or one line saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise TouchlineError(f"cannot serve {what} on {host}:{port} ({exc.strerror or exc}); "
                             f"choose another --port, or a --host this machine has") from None
    sock.setblocking(False)
    return sock


def http_protocol(parser: str) -> type:
    """uvicorn's HTTP protocol class for ``parser`` (auto, httptools, h11), or one line why not."""
    try:
        return connection_class(parser)
    except ValueError as exc:
        raise TouchlineError(str(exc)) from None


class ServerThread:
    """``app`` served on ``host:port`` (0: a free port, known as ``port`` at once) from a thread
    of its own, until ``stop``. ``what`` names the server in the messages ("the club")."""

    def __init__(self, app: Attachable, host: str, port: int, what: str, parser: str = "auto",
                 thread_name: str = "touchline-web") -> None:
        protocol = http_protocol(parser)
        self.app = app
        self._sock = listen(host, port, what)
        self.host = host
        self.port = self._sock.getsockname()[1]
        config = uvicorn.Config(
            app, http=protocol, ws="none", lifespan="off", interface="asgi3",
            log_config=None, log_level=logging.ERROR, access_log=False,   # a bad request is no news
            proxy_headers=False, server_header=False, backlog=BACKLOG,
            timeout_keep_alive=IDLE_S, timeout_graceful_shutdown=STOP_S,
            h11_max_incomplete_event_size=MAX_HEAD_BYTES)
        self._server = _Server(config)
        self._thread = threading.Thread(target=lambda: asyncio.run(self._serve()), name=thread_name, daemon=True)
        self._thread.start()
        if not self._server.ready.wait(START_S):
            self._server.should_exit = True
            self._sock.close()
            raise TouchlineError(f"{what} did not start on {host}:{self.port} within {START_S:.0f} s")

    async def _serve(self) -> None:
        self.app.attach(asyncio.get_running_loop())
        try:
            await self._server.serve(sockets=[self._sock])
        finally:
            self.app.detach()

    @property
    def base_url(self) -> str:
        """http://host:port, an IPv6 host in brackets."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def connections(self) -> int:
        """Connections open now."""
        return len(self._server.server_state.connections)

    def stop(self) -> None:
        """Stop listening at once (uvicorn closes the listening socket, then the connections);
        the caller ends its streams first."""
        self._server.should_exit = True
        self._thread.join(timeout=STOP_S + 3)
        self._sock.close()
