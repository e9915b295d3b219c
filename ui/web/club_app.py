"""The club server as an ASGI application (Starlette's requests and responses), over the
club's ledger (companion/club/ledger.py).

Public, read-only (no token; cacheable: an ETag, and 304 for a matching If-None-Match):

    GET  /                       the page of every table and the league (club.html), live from /events

    GET  /tables                 every match: teams, score, where it stands, confirmed or not
    GET  /league                 the league table per game of the confirmed results; the rest apart
    GET  /seasons                the club's seasons
    GET  /seasons/<season>       a season's rounds, each game at its table with its confirmed result, and its table
    GET  /swiss                  the club's Swiss tournaments
    GET  /swiss/<tournament>     its rounds (games at their tables, confirmed results, the bye), standings with
                                 tie-breaks, and what happens next in words
    GET  /matches/<match>        how far the club holds a match's journal (a tablet resumes from there)
    GET  /events                 server-sent events: the tables at once, then each time they change
    GET  /tables/<match>/        that table's scoreboard: the same page as a tablet's (page.html), with
                                 its events, state.json, board and rules beside it, from the club's
                                 copy of the match (club_tables.py); every card on / links to it

Writes, each signed by a registered tablet (headers X-Touchline-Tablet and
X-Touchline-Signature: Ed25519 over the method, the path and the body's SHA-256) or with the
organiser's token (Authorization: Bearer <token>):

    POST /tablets                join: {join_token, name, public_key}; answers the tablet's id
    POST /matches/<match>/events publish a batch of the journal's events (signed)
    POST /matches/<match>/result the signed result (signed)
    GET  /forks                  the refused forks (organiser)
    POST /seasons                a new round-robin season: {name, game, teams, tables, home_and_away, starts} (organiser)
    POST /swiss                  a new Swiss tournament: {name, game, teams, tables, rounds, starts}; round 1 paired (organiser)
    POST /swiss/<tournament>/next  pair the next round now, or be told which games still lack a confirmed result (organiser)
    GET  /tablets                the tablets that joined (organiser)
    POST /tablets/<id>/remove    take a tablet out of the club: it can write no more (organiser)
    POST /tablets/<id>/name      rename a tablet: {name} (signed by that tablet, or the organiser)

A body is at most ``MAX_BODY`` bytes (413). Writes are rate-limited (a token bucket:
``WRITE_BURST`` at once, ``WRITE_RATE`` a second after that; 429 with Retry-After beyond it,
which a tablet's outbox takes as "try again later"): per tablet for a tablet's signed writes
(a club's tablets may share one address behind a router), per client address for the rest. Anything refused is a 4xx with one line of JSON,
{"error": "..."}; nothing answers with a traceback.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from importlib import resources
from typing import Any, Awaitable, Callable

import asyncio

import anyio
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from companion.club.ledger import Ledger, Refused, read_upload
from companion.club.swiss_club import SwissClub

from .app import SECURITY_HEADERS, EventStream, Feed, Seats, reply
from .club_feed import TablesHub
from .club_tables import BoardSeats, NoRoom, TableScoreboards
from .pages import club_page_html, message_page, rules_page

log = logging.getLogger(__name__)

MAX_BODY = 4 * 1024 * 1024   # a batch of 1,000 events is about 1 MB; a match's creation about 20 kB
JSON = "application/json"
WRITE_RATE = 20.0        # writes a second per tablet or address, sustained (a tablet sends one a command at most)
WRITE_BURST = 200        # and this many at once (a tablet catching up after being offline)
MAX_CLIENTS = 10_000     # addresses remembered; beyond, the oldest are forgotten
# Event streams at once: a club room's spectators, below connection.py's cap on connections
# (800) so the tablets and page requests always find room.
MAX_VIEWERS = 700
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Cross-Origin-Resource-Policy": "cross-origin"}


def answer(status: int, value: Any, extra: dict[str, str] | None = None) -> Response:
    body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(body, status, {**HEADERS, "Cache-Control": "no-store", **(extra or {})}, JSON)


def refusal(status: int, reason: str) -> Response:
    return answer(status, {"error": " ".join(reason.split())})


def cacheable(request: Request, value: Any) -> Response:
    """The JSON with a strong ETag of its bytes; 304 when the client holds those bytes already."""
    body = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {**HEADERS, "ETag": tag, "Cache-Control": "no-cache"}   # revalidated each time: live tables
    sent = request.headers.get("if-none-match", "")
    if tag in [t.strip() for t in sent.split(",")] or sent.strip() == "*":
        return Response(b"", 304, headers)
    return Response(body, 200, headers, JSON)


async def read_body(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise Refused(413, f"the body is larger than {MAX_BODY} bytes" if declared.isdigit()
                      else "Content-Length is not a number")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(413, f"the body is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "the body is not JSON") from None


class TooMany(Refused):
    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(429, reason)
        self.retry_after = retry_after


class Limiter:
    """A token bucket per client address, on the clock given (tests pass their own)."""

    def __init__(self, rate: float = WRITE_RATE, burst: int = WRITE_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str) -> float:
        """0 when the client may go on; else the seconds until it may."""
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if len(self._buckets) >= MAX_CLIENTS:
            self._buckets.pop(next(iter(self._buckets)))
        if tokens >= 1:
            self._buckets[client] = (tokens - 1, now)
            return 0.0
        self._buckets[client] = (tokens, now)
        return (1 - tokens) / self.rate


class ClubApp:
    """The routes over one ledger. Every store call runs in a worker thread: the event loop
    keeps answering readers while a batch is checked."""

    def __init__(self, ledger: Ledger, limiter: Limiter | None = None, max_viewers: int = MAX_VIEWERS) -> None:
        self.ledger = ledger
        self.swiss = SwissClub(ledger)   # pairs a tournament's next round when a confirmation completes one
        self.limiter = limiter or Limiter()
        self.hub = TablesHub(ledger)
        self.scoreboards = TableScoreboards(ledger.store)
        ledger.on_change(self.changed)
        self.seats = Seats(max_viewers)
        self.feed: Feed | None = None   # made on the server's loop (``attach``)
        self.page = resources.files(__package__).joinpath("club.html").read_bytes()
        self.table_page = club_page_html()
        self.app = Starlette(routes=[
            Route("/events", self.events, methods=["GET"]),
            Route("/", self.index, methods=["GET"]),
            Route("/tables", self.tables, methods=["GET"]),
            Route("/tables/{match}", self.table_page_moved, methods=["GET"]),
            Route("/tables/{match}/", self.table, methods=["GET"]),
            Route("/tables/{match}/{part}", self.table, methods=["GET"]),
            Route("/league", self.league, methods=["GET"]),
            Route("/forks", self.forks, methods=["GET"]),
            Route("/tablets", self.register, methods=["POST"]),
            Route("/tablets", self.tablets, methods=["GET"]),
            Route("/tablets/{tablet}/remove", self.remove_tablet, methods=["POST"]),
            Route("/tablets/{tablet}/name", self.rename_tablet, methods=["POST"]),
            Route("/seasons", self.seasons, methods=["GET"]),
            Route("/seasons", self.create_season, methods=["POST"]),
            Route("/seasons/{season}", self.season, methods=["GET"]),
            Route("/swiss", self.swiss_list, methods=["GET"]),
            Route("/swiss", self.create_swiss, methods=["POST"]),
            Route("/swiss/{tournament}", self.swiss_one, methods=["GET"]),
            Route("/swiss/{tournament}/next", self.swiss_next, methods=["POST"]),
            Route("/matches/{match}", self.held, methods=["GET"]),
            Route("/matches/{match}/events", self.publish, methods=["POST"]),
            Route("/matches/{match}/result", self.result, methods=["POST"]),
        ], exception_handlers={404: self._not_found, 405: self._not_allowed})

    def changed(self) -> None:
        """The club's tables may have changed (a write here, or another server's NOTIFY)."""
        self.hub.changed()
        self.scoreboards.changed()

    def close(self) -> None:
        """Every table's scoreboard stops (its streams end)."""
        self.scoreboards.close()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.feed = Feed(self.hub, loop)

    def detach(self) -> None:
        if self.feed is not None:
            self.feed.close()

    async def __call__(self, scope, receive, send) -> None:
        await self.app(scope, receive, send)

    async def events(self, request: Request) -> Response:
        if self.feed is None:
            return refusal(503, "the club server is starting; try again shortly")
        return EventStream(self.feed, self.seats)

    async def table_page_moved(self, request: Request) -> Response:
        """/tables/<match>: the page wants its trailing slash for its relative links."""
        return reply(301, b"", "text/plain; charset=utf-8", {"Location": f"/tables/{request.path_params['match']}/"})

    async def table(self, request: Request) -> Response:
        """A table's scoreboard, the tablet's page and what it asks for, read-only."""
        part = request.path_params.get("part", "")
        if part not in ("", "index.html", "events", "state.json", "board", "rules"):
            return reply(404, message_page("Not found", "This scoreboard has no such page."))
        try:
            board = await self._run(self.scoreboards.get, request.path_params["match"])
        except NoRoom as exc:
            return reply(503, message_page("Too many scoreboards open", str(exc)), extra={"Retry-After": "10"})
        except Exception:
            log.exception("club server: a table's scoreboard could not be opened")
            return reply(503, message_page("The scoreboard cannot be opened right now",
                                           "The club server could not read its store just now; try again in a "
                                           "moment."), extra={"Retry-After": "5"})
        if board is None:
            return reply(404, message_page("No such table", "The club holds no match at this address. Open the "
                                           "page of every table and choose a table there."))
        snapshot = board.hub.snapshot
        if part in ("", "index.html"):
            return reply(200, self.table_page, extra={"Cache-Control": "no-cache"})
        if part == "state.json":
            return reply(200, json.dumps(snapshot.data, ensure_ascii=False).encode("utf-8"),
                         "application/json; charset=utf-8")
        if part == "board":
            return reply(200, snapshot.board.encode("utf-8"), "image/svg+xml; charset=utf-8")
        if part == "rules":
            return reply(200, rules_page(snapshot.data.get("game", "")))
        if board.feed is None:   # made here, on the server's loop, as the tables' feed is in ``attach``
            board.feed = Feed(board.hub, asyncio.get_running_loop())
        return EventStream(board.feed, BoardSeats(self.seats, board))

    async def _not_found(self, request: Request, exc: Exception) -> Response:
        return refusal(404, "no such address on this club server")

    async def _not_allowed(self, request: Request, exc: Exception) -> Response:
        return refusal(405, f"{request.method} is not allowed here")

    async def _write(self, request: Request, work: Callable[[], Awaitable[Response]]) -> Response:
        """A write not signed by a tablet (joining, the organiser's): limited per client address."""
        self._limit("address " + (request.client.host if request.client else ""), "this address")
        return await self._guarded(work)

    def _limit(self, who: str, words: str) -> None:
        wait = self.limiter.take(who)
        if wait:
            raise TooMany(f"too many writes from {words}; try again shortly", max(1, math.ceil(wait)))

    @staticmethod
    async def _guarded(work: Callable[[], Awaitable[Response]]) -> Response:
        try:
            return await work()
        except TooMany as exc:
            return answer(429, {"error": exc.reason}, {"Retry-After": str(exc.retry_after)})
        except Refused as exc:
            return refusal(exc.status, exc.reason)
        except ClientDisconnect:
            return refusal(400, "the request ended before its body")
        except Exception:   # a fault of ours: logged with its traceback, answered in one line
            log.exception("club server: a request failed")
            return refusal(500, "the club server failed on this request; its log says why")

    async def _run(self, fn, *args):
        return await anyio.to_thread.run_sync(fn, *args)

    async def index(self, request: Request) -> Response:
        return Response(self.page, 200, {**SECURITY_HEADERS, "Cache-Control": "no-cache"}, "text/html; charset=utf-8")

    async def tables(self, request: Request) -> Response:
        return await self._guarded(lambda: self._cached(request, self.ledger.tables, "tables"))

    async def league(self, request: Request) -> Response:
        return await self._guarded(lambda: self._cached(request, self.ledger.league, None))

    async def _cached(self, request: Request, fn, key: str | None) -> Response:
        value = await self._run(fn)
        return cacheable(request, {key: value} if key else value)

    async def seasons(self, request: Request) -> Response:
        return await self._guarded(lambda: self._cached(request, self.ledger.seasons, "seasons"))

    async def season(self, request: Request) -> Response:
        ident = request.path_params["season"]
        return await self._guarded(lambda: self._cached(request, lambda: self.ledger.season(ident), None))

    async def create_season(self, request: Request) -> Response:
        async def work() -> Response:
            self._organiser(request)
            body = parse_json(await read_body(request))
            return answer(200, await self._run(self.ledger.create_season, body))
        return await self._write(request, work)

    async def swiss_list(self, request: Request) -> Response:
        return await self._guarded(lambda: self._cached(request, self.swiss.tournaments, "tournaments"))

    async def swiss_one(self, request: Request) -> Response:
        ident = request.path_params["tournament"]
        return await self._guarded(lambda: self._cached(request, lambda: self.swiss.tournament(ident), None))

    async def create_swiss(self, request: Request) -> Response:
        async def work() -> Response:
            self._organiser(request)
            body = parse_json(await read_body(request))
            return answer(200, await self._run(self.swiss.create, body))
        return await self._write(request, work)

    async def swiss_next(self, request: Request) -> Response:
        async def work() -> Response:
            self._organiser(request)
            return answer(200, await self._run(self.swiss.next_round, request.path_params["tournament"]))
        return await self._write(request, work)

    async def held(self, request: Request) -> Response:
        return await self._guarded(lambda: self._held(request))

    async def _held(self, request: Request) -> Response:
        return answer(200, await self._run(self.ledger.held, request.path_params["match"]))

    def _organiser(self, request: Request) -> None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not self.ledger.is_organiser(token.strip()):
            raise Refused(401, "the organiser's token is needed (Authorization: Bearer <token>)")

    async def forks(self, request: Request) -> Response:
        async def work() -> Response:
            self._organiser(request)
            return answer(200, {"forks": await self._run(self.ledger.forks)})
        return await self._guarded(work)

    async def tablets(self, request: Request) -> Response:
        async def work() -> Response:
            self._organiser(request)
            return answer(200, {"tablets": await self._run(self.ledger.tablets)})
        return await self._guarded(work)

    async def remove_tablet(self, request: Request) -> Response:
        async def work() -> Response:
            self._organiser(request)
            return answer(200, await self._run(self.ledger.remove_tablet, request.path_params["tablet"]))
        return await self._write(request, work)

    async def rename_tablet(self, request: Request) -> Response:
        async def work() -> Response:
            body = await read_body(request)
            signer = None
            if request.headers.get("authorization"):   # the organiser, limited per address
                self._limit("address " + (request.client.host if request.client else ""), "this address")
                self._organiser(request)
            else:                                      # the tablet itself
                signer = await self._signer(request, body)
            return answer(200, await self._run(self.ledger.rename_tablet, request.path_params["tablet"],
                                               parse_json(body), signer))
        return await self._guarded(work)

    async def register(self, request: Request) -> Response:
        async def work() -> Response:
            body = parse_json(await read_body(request))
            tablet = await self._run(self.ledger.register, body)
            return answer(200, {"tablet": tablet.id, "name": tablet.name})
        return await self._write(request, work)

    async def _signer(self, request: Request, body: bytes) -> Any:
        """The tablet that signed the request; limited per tablet (its signature checked first:
        nobody spends another tablet's allowance), a request that is no tablet's per client
        address."""
        try:
            tablet = await self._run(self.ledger.signed_by, request.headers.get("x-touchline-tablet", ""),
                                     request.headers.get("x-touchline-signature", ""), request.method,
                                     request.url.path, body)
        except Refused:
            self._limit("address " + (request.client.host if request.client else ""), "this address")
            raise
        self._limit("tablet " + tablet.id, "this tablet")
        return tablet

    async def _signed(self, request: Request) -> tuple[Any, Any]:
        """The tablet that signed a write to a match, and the write's body."""
        body = await read_body(request)
        tablet = await self._signer(request, body)
        value = parse_json(body)
        if isinstance(value, dict) and value.get("match") != request.path_params["match"]:
            raise Refused(400, "the body's match is not the one in the address")
        return tablet, value

    async def publish(self, request: Request) -> Response:
        async def work() -> Response:
            tablet, value = await self._signed(request)
            upload = read_upload(value)
            return answer(200, await self._run(self.ledger.publish, tablet, upload))
        return await self._guarded(work)

    async def result(self, request: Request) -> Response:
        async def work() -> Response:
            tablet, value = await self._signed(request)
            return answer(200, await self._run(self.ledger.confirm, tablet, value))
        return await self._guarded(work)
