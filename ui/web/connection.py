"""One HTTP connection to the scoreboard: uvicorn's HTTP/1.1 protocol, with the deadlines and
bounds uvicorn leaves out, on either of its parsers.

The parser: httptools (llhttp, compiled) where it is installed, as on a desktop; h11 (pure
Python) where it is not, as on the tablet, where python-for-android has no recipe for
httptools (docs/scoreboard-server.md). ``PARSER`` names the one a server uses; the tests run
every check on each installed (``PARSERS``).

uvicorn parses, answers a malformed request with 400 and closes a connection idle after a
response (``timeout_keep_alive``). It sets no deadline for a request head to arrive: a
connection that sends nothing, or a byte now and then, is held for ever (its keep-alive timer
is cancelled by the first byte); and with httptools no bound on a head's size. Here:

- ``HEAD_TIMEOUT_S``: from the connection's start, and again after each response, the whole
  request head must arrive within this time, or the connection is closed. Nothing is held
  for a connection that has not sent its token: no seat, no thread, no snapshot.
- ``MAX_HEAD_BYTES`` (app.py): a head still arriving past this size is refused with 431 and
  its connection closed (h11 refuses it itself; httptools would buffer it all).
- ``STALL_S``: a viewer whose connection takes nothing more while the server's send buffer
  is full (its phone gone, or never reading) is dropped after this long; ``TCP_USER_TIMEOUT``
  (Linux, Android) has the kernel drop a peer that stopped acknowledging, and TCP keep-alive
  probes an idle one.
- ``MAX_CONNECTIONS``: connections beyond this are closed at once, so a flood cannot take
  every file descriptor; the ones held by idle clients go after ``HEAD_TIMEOUT_S``.
- A request whose head is sound but whose body is broken (bad chunked encoding) has its
  connection closed; uvicorn would write its 400 into the answer already under way (found by
  tests/test_web_fuzz.py).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import socket
from typing import Any

from .app import MAX_HEAD_BYTES, SECURITY_HEADERS

log = logging.getLogger(__name__)

HEAD_TIMEOUT_S = 10.0
STALL_S = 30.0
MAX_CONNECTIONS = 800
IDLE_S = 5                     # uvicorn's keep-alive: idle after a response
_BODY = b"The request's headers are too large.\n"
TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
             + b"".join(f"{name}: {value}\r\n".encode("latin-1") for name, value in SECURITY_HEADERS.items())
             + b"content-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\nconnection: close\r\n\r\n"
             % len(_BODY) + _BODY)


def _tcp_options(transport: asyncio.Transport) -> None:
    sock = transport.get_extra_info("socket")
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        if hasattr(socket, "TCP_KEEPIDLE"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 30)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 10)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 3)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(STALL_S * 1000))
    except OSError:   # a platform without one of them: the deadlines above still hold
        log.debug("TCP options not set", exc_info=True)


class Deadlines:
    """What each of uvicorn's HTTP/1.1 protocols gets here (mixed in before it)."""

    # uvicorn's protocol provides these
    cycle: Any
    connections: set
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        self._stall_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[misc]
        if len(self.connections) > MAX_CONNECTIONS:
            transport.abort()
            return
        _tcp_options(transport)
        self._await_head()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        waiting = self._head_timer is not None
        super().data_received(data)  # type: ignore[misc]
        if self.cycle is not cycle:   # a whole request head arrived: it is answered now
            self._cancel_head_timer()
        elif waiting and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._cancel_head_timer()
                self.transport.write(TOO_LARGE)
                self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        cycle = self.cycle
        pending = getattr(self, "pipeline", None)   # httptools' queue of requests already read
        if cycle is not None and cycle.response_complete and not pending and not self.transport.is_closing():
            self._await_head()   # the next request's head, if the client keeps the connection

    def send_400_response(self, msg: str) -> None:
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            # The request's head was sound and its answer is under way, but what followed it
            # (a broken chunked body) is not: uvicorn would write a 400 into the middle of that
            # answer. No second answer on this connection: it is closed, the answer dropped.
            cycle.disconnected = True
            cycle.message_event.set()
            self.transport.close()
            return
        super().send_400_response(msg)  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._cancel_stall_timer()
        super().connection_lost(exc)  # type: ignore[misc]

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        if self._stall_timer is None:
            self._stall_timer = self.loop.call_later(STALL_S, self._drop, "took nothing")

    def resume_writing(self) -> None:
        super().resume_writing()  # type: ignore[misc]
        self._cancel_stall_timer()

    # --- deadlines -----------------------------------------------------------------------------
    def _await_head(self) -> None:
        self._cancel_head_timer()
        self._head_bytes = 0
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT_S, self._drop, "sent no whole request")

    def _drop(self, why: str) -> None:
        if not self.transport.is_closing():
            log.debug("closing a connection that %s in time", why)
            self.transport.abort()

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _cancel_stall_timer(self) -> None:
        if self._stall_timer is not None:
            self._stall_timer.cancel()
            self._stall_timer = None


# The parsers, fastest first: each is imported only when a server uses it (a process holds one).
PARSERS = tuple(name for name in ("httptools", "h11") if importlib.util.find_spec(name) is not None)
PARSER = PARSERS[0]   # the one a server uses unless told: the fastest installed
_classes: dict[str, type] = {}


def connection_class(parser: str = "auto") -> type:
    """uvicorn's connection class for ``parser`` ("auto": ``PARSER``) with the deadlines."""
    name = PARSER if parser == "auto" else parser
    if name not in _classes:
        if name == "httptools":
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as base
        elif name == "h11":
            from uvicorn.protocols.http.h11_impl import H11Protocol as base
        else:
            raise ValueError(f"no HTTP parser {parser!r} (installed: {', '.join(PARSERS)})")
        _classes[name] = type(f"{base.__name__}WithDeadlines", (Deadlines, base), {"__module__": __name__})
    return _classes[name]
