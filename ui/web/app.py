"""The scoreboard page as an ASGI application (Starlette's requests and responses).

    /<token>/            the page
    /<token>/events      server-sent events: the newest snapshot at once, then each new one
    /<token>/state.json  the newest snapshot as JSON
    /<token>/board       the printed board (an SVG group), asked for when its key changes
    /<token>/rules       the rules reference of the game shown (what the "Rulebook:" links open)

HTTP/1.0 and 1.1 only (505 otherwise), an HTTP/1.1 request with its Host (400 otherwise, as
RFC 9112 says and h11 does; httptools does not check it), a request head of at most 16 kB
(431); GET only (every other method 405); a path without the token 404, a wrong token 403.
Every answer carries the security headers below and is never cached (the snapshot changes
with every command). The answers are the same whichever parser read the request.

An event stream holds a seat while it is open and gives it back the moment the viewer leaves:
the stream watches ``receive()`` for the server's ``http.disconnect`` beside its writing, so
a closed stream frees its place at once, not at its next write. Up to ``MAX_VIEWERS`` streams
at once; one more gets 503 and its connection is closed. Nothing before the token check holds
a seat, a thread or a snapshot.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets

import anyio
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from .hub import Hub
from .pages import message_page, page_html, rules_page

log = logging.getLogger(__name__)

MAX_VIEWERS = 400        # event streams at once (each costs a connection and a few kB, no thread)
KEEPALIVE_S = 15.0       # a comment line this often keeps proxies and phones from dropping the stream
RETRY = b"retry: 1000\n\n"  # a browser's EventSource comes back this soon (ms) after the stream ends
HTTP_VERSIONS = ("1.0", "1.1")
MAX_HEAD_BYTES = 16 * 1024   # request line and headers: h11 refuses a longer one still arriving, this a whole one
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",          # the token is in the URL
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                               "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Cross-Origin-Resource-Policy": "same-origin",
}
HTML, TEXT = "text/html; charset=utf-8", "text/plain; charset=utf-8"


def new_token() -> str:
    return secrets.token_urlsafe(18)


def reply(status: int, body: bytes, media_type: str = HTML, extra: dict[str, str] | None = None) -> Response:
    return Response(body, status, {**SECURITY_HEADERS, **(extra or {})}, media_type)


def path_of(scope: Scope) -> str:
    """The request's path as sent, not percent-decoded, without a fragment; from an
    absolute-form target ("http://host/path", which RFC 9112 says a server must accept) its
    path. The same whichever parser read it."""
    target = scope.get("raw_path", b"").decode("latin-1").partition("?")[0].partition("#")[0]
    if not target.startswith("/"):
        scheme, sep, rest = target.partition("://")
        if sep and scheme.lower() in ("http", "https"):
            target = "/" + rest.partition("/")[2]
    return target


def head_size(scope: Scope) -> int:
    """About the bytes of a request's line and headers."""
    return len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) + sum(
        len(name) + len(value) + 4 for name, value in scope.get("headers", ()))


class Seats:
    """The viewers' seats: only open event streams hold one. Used on the server's loop only."""

    def __init__(self, limit: int = MAX_VIEWERS) -> None:
        self.limit = limit
        self.taken = 0

    def take(self) -> bool:
        if self.taken >= self.limit:
            return False
        self.taken += 1
        return True

    def give_back(self) -> None:
        self.taken -= 1


class Feed:
    """The hub's newest snapshot for the streams on the server's event loop: the hub's thread
    tells the loop of each new one, and the loop wakes every stream waiting for it (a future
    each: no task per stream and wait)."""

    def __init__(self, hub: Hub, loop: asyncio.AbstractEventLoop) -> None:
        self.hub = hub
        self._loop = loop
        self._waiting: set[asyncio.Future] = set()
        hub.watch(self._from_hub)

    def _from_hub(self) -> None:   # on the hub's thread
        try:
            self._loop.call_soon_threadsafe(self._wake)
        except RuntimeError:   # the loop is closed: the server has stopped
            pass

    def _wake(self) -> None:
        waiting, self._waiting = self._waiting, set()
        for future in waiting:
            if not future.done():
                future.set_result(True)

    def current(self) -> tuple[int, bytes]:
        return self.hub.current()

    async def newer(self, version: int, timeout: float) -> tuple[int, bytes] | None | bool:
        """The newest (version, event) once newer than ``version``; None when ``timeout``
        passed first; False once the hub stops."""
        while True:
            if self.hub.stopping:
                return False
            newest = self.hub.current()
            if newest[0] > version:
                return newest
            # Nothing can come between the look above and the wait: both run on this loop,
            # and the hub's news arrives through it (``call_soon_threadsafe``).
            future = self._loop.create_future()
            self._waiting.add(future)
            timer = self._loop.call_later(timeout, _settle, future, False)
            try:
                if not await future:
                    return None
            finally:
                timer.cancel()
                self._waiting.discard(future)

    def close(self) -> None:
        self.hub.unwatch(self._from_hub)


def _settle(future: asyncio.Future, value: bool) -> None:
    if not future.done():
        future.set_result(value)


class EventStream(Response):
    """One viewer's stream: the newest snapshot at once, then each new one, a comment line
    every ``KEEPALIVE_S``. Takes a seat when it starts (503 and the connection closed when none
    is free) and gives it back when it ends, whatever ends it: the viewer leaving (heard at
    once: ``receive()`` is watched beside the writing, as Starlette's StreamingResponse does),
    the page stopping, or the server."""

    media_type = "text/event-stream; charset=utf-8"
    HEADERS = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in
               {**SECURITY_HEADERS, "X-Accel-Buffering": "no", "Content-Type": media_type}.items()]

    def __init__(self, feed: Feed, seats: Seats) -> None:
        self.status_code = 200
        self.background = None
        self.raw_headers = self.HEADERS   # built once: every stream sends the same
        self.feed, self.seats = feed, seats

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.seats.take():
            full = reply(503, b"Too many viewers right now; try again soon.\n", TEXT,
                         {"Retry-After": "10", "Connection": "close"})
            return await full(scope, receive, send)
        try:
            async with anyio.create_task_group() as group:
                async def until_gone() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    group.cancel_scope.cancel()   # the viewer left: stop writing now

                group.start_soon(until_gone)
                await self._stream(send)
                group.cancel_scope.cancel()
        finally:
            self.seats.give_back()

    async def _stream(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        version, payload = self.feed.current()
        await send({"type": "http.response.body", "body": RETRY, "more_body": True})
        # The hub's own bytes, shared by every viewer: never a copy per viewer.
        await send({"type": "http.response.body", "body": payload, "more_body": True})
        while True:
            newer = await self.feed.newer(version, KEEPALIVE_S)
            if newer is False:
                break   # the page stops: the stream ends cleanly
            if newer is None:
                payload = b": keep-alive\n\n"
            else:
                version, payload = newer
            await send({"type": "http.response.body", "body": payload, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


class ScoreboardApp:
    """The ASGI application: one hub, one token."""

    def __init__(self, hub: Hub, token: str, max_viewers: int = MAX_VIEWERS) -> None:
        self.hub, self.token = hub, token
        self.page = page_html()
        self.seats = Seats(max_viewers)
        self.feed: Feed | None = None   # made on the server's loop (``attach``)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.feed = Feed(self.hub, loop)

    def detach(self) -> None:
        if self.feed is not None:
            self.feed.close()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":   # no lifespan, no websockets: the server is set up without them
            return
        response = self.respond(Request(scope, receive))
        await response(scope, receive, send)

    def respond(self, request: Request) -> Response:
        if request.scope.get("http_version") not in HTTP_VERSIONS:
            return reply(505, b"HTTP/1.0 or HTTP/1.1 only.\n", TEXT, {"Connection": "close"})
        if head_size(request.scope) > MAX_HEAD_BYTES:
            return reply(431, b"The request's headers are too large.\n", TEXT, {"Connection": "close"})
        if request.scope["http_version"] == "1.1" and b"host" not in (name for name, _ in request.scope["headers"]):
            return reply(400, b"An HTTP/1.1 request names its Host.\n", TEXT, {"Connection": "close"})
        if request.method != "GET":
            return reply(405, b"This scoreboard is read-only: only GET is allowed.\n", TEXT, {"Allow": "GET"})
        # The path as sent (no percent-decoding): "/<token>/rest" -> ["", token, rest...]
        parts = path_of(request.scope).split("/")
        if len(parts) < 2 or not parts[1]:
            return reply(404, message_page(
                "No scoreboard here", "Open the full link the coach's tablet shows (it ends in a long code)."))
        if not hmac.compare_digest(parts[1].encode("latin-1"), self.token.encode("latin-1")):
            return reply(403, message_page(
                "This scoreboard link is not valid",
                "The code in the link is wrong or old. Scan the QR code on the coach's tablet again."))
        if len(parts) == 2:   # "/<token>": the page wants its trailing slash for relative links
            return reply(301, b"", TEXT, {"Location": f"/{self.token}/"})
        rest = "/".join(parts[2:])
        hub = self.hub
        if rest in ("", "index.html"):
            return reply(200, self.page)
        if rest == "state.json":
            return reply(200, json.dumps(hub.snapshot.data, ensure_ascii=False).encode("utf-8"),
                         "application/json; charset=utf-8")
        if rest == "board":
            return reply(200, hub.snapshot.board.encode("utf-8"), "image/svg+xml; charset=utf-8")
        if rest == "events" and self.feed is not None:
            return EventStream(self.feed, self.seats)
        if rest == "rules":
            return reply(200, rules_page(hub.snapshot.data.get("game", "")))
        return reply(404, message_page("Not found", "This scoreboard has no such page."))
