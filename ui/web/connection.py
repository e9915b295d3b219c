"""One HTTP connection to the scoreboard: uvicorn's HTTP/1.1 protocol on h11 (pure Python, the
same parser on a desktop and on the tablet), with the deadlines uvicorn leaves out.

uvicorn parses, answers malformed requests with 400, caps the request head (h11's
``max_incomplete_event_size``) and closes a connection idle after a response
(``timeout_keep_alive``). It sets no deadline for a request head to arrive: a connection
that sends nothing, or a byte now and then, would be held for ever (its keep-alive timer is
cancelled by the first byte). Here:

- ``HEAD_TIMEOUT_S``: from the connection's start, and again after each response, the whole
  request head must arrive within this time, or the connection is closed. Nothing is held
  for a connection that has not sent its token: no seat, no thread, no snapshot.
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
import logging
import socket
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

HEAD_TIMEOUT_S = 10.0
STALL_S = 30.0
MAX_CONNECTIONS = 800
IDLE_S = 5                     # uvicorn's keep-alive: idle after a response


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


class Connection(H11Protocol):
    """uvicorn's h11 connection with a deadline for each request head and for a stalled viewer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._stall_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS:
            transport.abort()
            return
        _tcp_options(transport)
        self._await_head()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:   # a whole request head arrived: it is answered now
            self._cancel_head_timer()

    def on_response_complete(self) -> None:
        cycle = self.cycle
        super().on_response_complete()
        if self.cycle is cycle and not self.transport.is_closing():
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
        super().send_400_response(msg)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._cancel_stall_timer()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall_timer is None:
            self._stall_timer = self.loop.call_later(STALL_S, self._drop, "took nothing")

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_stall_timer()

    # --- deadlines -----------------------------------------------------------------------------
    def _await_head(self) -> None:
        self._cancel_head_timer()
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
