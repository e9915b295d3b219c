"""The scoreboard's connections: a viewer cap that counts only open streams, a 503 that closes
its connection, HTTP/1.0 and 1.1 only, the security headers on every answer, idle and
half-sent requests closed by the server and never holding a seat; each on every HTTP parser
the server may use.

No test here waits on the clock to decide: a deadline only stops a test that would hang."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from tests.test_web_server import fold, offer, open_stream, read_event, request
from ui.web import connection
from ui.web.app import SECURITY_HEADERS, EventStream, Feed, Seats
from ui.web.hub import Hub
from ui.web.server import ScoreboardServer

HANG_S = 20   # only a hung server takes this long


@pytest.fixture(params=connection.PARSERS)
def small(request):
    """A server whose cap is 3 streams, showing a Fublet match: on each HTTP parser installed
    (httptools on a desktop, h11 as on the tablet)."""
    hub = Hub()
    server = ScoreboardServer(hub, "127.0.0.1", 0, max_viewers=3, parser=request.param)
    offer(hub, fold("fublet", 40))
    yield hub, server
    server.stop()


def until(condition, what: str) -> None:
    deadline = time.monotonic() + HANG_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.01)


def hang_up(sock: socket.socket, f) -> None:
    f.close()      # the file object holds the socket open too
    sock.close()


def raw(server: ScoreboardServer, data: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S)
    sock.sendall(data)
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    out = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk


def test_a_closed_stream_gives_its_seat_back_and_a_new_viewer_gets_it(small):
    _hub, server = small
    streams = [open_stream(server) for _ in range(3)]
    assert server.viewers == 3
    extra = raw(server, f"GET /{server.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    answer = read_all(extra)   # the server closes it after the 503: nothing left open
    assert answer.startswith(b"HTTP/1.1 503 ") and b"connection: close" in answer.lower()
    assert b"retry-after: 10" in answer.lower()
    extra.close()
    hang_up(*streams.pop())
    until(lambda: server.viewers == 2, "the closed stream's seat given back")
    sock, f = open_stream(server)   # the newcomer is let in
    assert read_event(f)["game"] == "fublet"
    hang_up(sock, f)
    for stream in streams:
        hang_up(*stream)
    until(lambda: server.viewers == 0, "every seat given back")


def test_many_quick_open_and_close_streams_never_lock_out_a_new_viewer(small):
    """The issue's lockout: 200 streams opened and closed at once left every newcomer a 503."""
    _hub, server = small
    for _ in range(200):
        sock, f = open_stream(server)
        read_event(f)
        hang_up(sock, f)
    until(lambda: server.viewers == 0, "the closed streams' seats given back")
    sock, f = open_stream(server)
    assert read_event(f)["game"] == "fublet"
    hang_up(sock, f)


def test_a_stream_gives_its_seat_back_the_moment_the_viewer_leaves():
    """Without waiting for news or a keep-alive line: the leaving is heard, not written into."""
    hub = Hub()

    async def scenario() -> tuple[int, list[dict]]:
        seats = Seats(1)
        feed = Feed(hub, asyncio.get_running_loop())
        sent: list[dict] = []
        left = asyncio.Event()

        async def receive() -> dict:
            if not sent:
                return {"type": "http.request", "body": b"", "more_body": False}
            await left.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)
            if b"event: state" in message.get("body", b""):   # the first snapshot is out: the viewer hangs up
                left.set()

        stream = EventStream(feed, seats)
        await asyncio.wait_for(stream(
            {"type": "http", "asgi": {"spec_version": "2.4"}}, receive, send), HANG_S)
        feed.close()
        return seats.taken, sent

    try:
        taken, sent = asyncio.run(scenario())
    finally:
        hub.stop()
    assert taken == 0
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"retry: 1000\n\n" and b"event: state" in sent[2]["body"]


@pytest.mark.parametrize("line", [b"GET /{token}/", b"GET /{token}/ HTTP/2.0", b"GET /{token}/ HTTP/0.9",
                                  b"GET /{token}/ HTTP/1.2", b"GET /{token}/ FTP/1.1"])
def test_only_http_1_0_and_1_1_are_answered(small, line):
    _hub, server = small
    sock = raw(server, line.replace(b"{token}", server.token.encode()) + b"\r\nHost: x\r\n\r\n")
    answer = read_all(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 ") and not answer.startswith(b"HTTP/1.1 200")
    assert b"EventSource" not in answer   # never the page, with headers or without


def test_http_1_0_is_answered(small):
    _hub, server = small
    sock = raw(server, f"GET /{server.token}/ HTTP/1.0\r\n\r\n".encode())
    answer = read_all(sock)   # HTTP/1.0: the server closes after the answer
    sock.close()
    assert answer.startswith(b"HTTP/1.1 200 ") and b"EventSource" in answer


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/{token}/", 200), ("GET", "/{token}/state.json", 200), ("GET", "/{token}/board", 200),
    ("GET", "/{token}/rules", 200), ("GET", "/{token}", 301), ("GET", "/", 404), ("GET", "/{token}/x", 404),
    ("GET", "/wrong/", 403), ("POST", "/{token}/", 405), ("HEAD", "/{token}/state.json", 405)])
def test_every_answer_carries_the_security_headers(small, method, path, status):
    _hub, server = small
    got, headers, _body = request(server, method, path.replace("{token}", server.token))
    assert got == status
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value, name
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Cache-Control"] == "no-store"
    assert headers.get("Server") is None   # nothing said about the software


@pytest.fixture
def quick_deadlines(monkeypatch):
    """The request-head deadline short, so idle connections go within the test."""
    monkeypatch.setattr(connection, "HEAD_TIMEOUT_S", 0.3)


@pytest.mark.parametrize("sent", [b"", b"GET /", b"GET /{token}/events HTTP/1.1\r\nHost: x\r\n"])
def test_idle_and_half_sent_requests_are_closed_by_the_server_and_hold_no_seat(small, quick_deadlines, sent):
    _hub, server = small
    socks = [raw(server, sent.replace(b"{token}", server.token.encode())) for _ in range(5)]
    assert server.viewers == 0
    for sock in socks:
        assert read_all(sock) == b""   # closed, unanswered: the whole request never came
        sock.close()
    sock, f = open_stream(server)   # and the page still serves
    assert read_event(f)["game"] == "fublet"
    hang_up(sock, f)


def test_a_kept_alive_connection_must_send_its_next_request_in_time(small, quick_deadlines):
    _hub, server = small
    sock = raw(server, f"GET /{server.token}/state.json HTTP/1.1\r\nHost: x\r\n\r\nGET /{server.token}/".encode())
    answer = read_all(sock)   # the first answered; the second, half sent, closed
    sock.close()
    assert answer.startswith(b"HTTP/1.1 200 ") and answer.count(b"HTTP/1.1 ") == 1


@pytest.mark.parametrize("pieces", [1, 40])
def test_a_request_head_too_large_is_refused(small, pieces):
    """Arriving whole (the application measures it) or bit by bit (h11 stops buffering it)."""
    _hub, server = small
    head = f"GET /{server.token}/ HTTP/1.1\r\nHost: x\r\nX-Big: {'a' * 70_000}\r\n\r\n".encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S)
    size = len(head) // pieces + 1
    try:
        for i in range(0, len(head), size):
            sock.sendall(head[i:i + size])
    except (BrokenPipeError, ConnectionResetError):
        pass   # refused before the rest arrived
    answer = read_all(sock)
    sock.close()
    assert answer.startswith((b"HTTP/1.1 400 ", b"HTTP/1.1 431 ")), answer[:60]


def test_connections_beyond_the_cap_are_closed_at_once(small, monkeypatch):
    _hub, server = small
    monkeypatch.setattr(connection, "MAX_CONNECTIONS", 2)
    held = [raw(server, b"") for _ in range(2)]
    until(lambda: server.connections == 2, "two connections accepted")
    beyond = raw(server, b"")
    assert read_all(beyond) == b""
    beyond.close()
    for sock in held:
        sock.close()


def test_stopping_ends_the_open_streams(tmp_path):
    hub = Hub()
    server = ScoreboardServer(hub)
    offer(hub, fold("fublet", 40))
    sock, f = open_stream(server)
    read_event(f)
    server.stop()
    with pytest.raises(EOFError):
        while True:
            read_event(f)
    hang_up(sock, f)


@pytest.mark.parametrize("page", ["events", "state.json"])
def test_a_sound_head_with_a_broken_body_closes_the_connection_without_a_fault(small, caplog, page):
    """uvicorn answers a broken body with a 400 written over the answer already under way
    (found by the fuzz suite): the connection is closed instead, and nothing is logged."""
    import logging

    caplog.set_level(logging.WARNING)
    _hub, server = small
    sock = raw(server, f"GET /{server.token}/{page} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                       f"zz\r\nnot hex\r\n".encode())
    answer = read_all(sock)
    sock.close()
    assert b" 400 " not in answer.split(b"\r\n\r\n")[-1]   # no 400 after (or inside) the answer
    until(lambda: server.viewers == 0, "the stream's seat given back")
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
