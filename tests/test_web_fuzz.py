"""Hostile HTTP requests against the scoreboard, seeded: broken request lines, unknown and
malformed methods and versions, odd paths and tokens, headers too many, too long, folded, with
NUL or non-ASCII bytes, conflicting lengths, bodies on a GET, requests cut short.

Bounded by construction: a fixed number of cases, each on its own connection, each read for
at most a few seconds (the request-head deadline is shortened so a half-sent request is
closed at once). What must hold for every one: the server answers with a well-formed HTTP/1.1
status line or closes the connection; only a well-formed GET of a known page with the right
token is ever a 200; never a 500; every answer of the page's own carries the security headers;
no seat is left taken; and the page still serves afterwards, with nothing logged as an error.
"""

from __future__ import annotations

import logging
import random
import re
import socket
import time

import pytest

from tests.test_web_server import fold, offer, open_stream, read_event
from ui.web import connection
from ui.web.app import SECURITY_HEADERS
from ui.web.hub import Hub
from ui.web.server import ScoreboardServer

CASES = 300
READ_S = 5.0          # no answer ever takes this long; a stream is read no further than its head
PAGES = ("", "index.html", "state.json", "board", "rules", "events")


METHODS = [b"POST", b"HEAD", b"PUT", b"DELETE", b"OPTIONS", b"TRACE", b"CONNECT", b"PATCH", b"BREW", b"get",
           b"G\x00T", b"GET GET", b"\xff\xfe", b"", b"X" * 300, b"PRI"]
VERSIONS = [b"HTTP/1.0", b"", b"HTTP/0.9", b"HTTP/2.0", b"HTTP/1.2", b"HTTP/1", b"HTTP/11", b"http/1.1",
            b"HTTP/1.1 extra", b"HTTP/\xff"]
PATHS = ["../etc/passwd", "events/../", "state.json%00", "rules?x=<script>", "board?k=" + "a" * 3000, "EVENTS",
         "index.html/", "//", "%2Fevents", "nothing"]
HEADERS = [b"X-A: " + b"a" * 100, b"X-A: " + b"a" * 20_000, b"Accept: text/event-stream", b"Connection: close",
           b"Connection: keep-alive, Upgrade", b"Upgrade: websocket", b"Content-Length: 5", b"Content-Length: -1",
           b"Content-Length: 99999999999999999999", b"Content-Length: 3\r\nContent-Length: 4",
           b"Transfer-Encoding: chunked", b"Transfer-Encoding: gzip, chunked", b"Expect: 100-continue",
           b"No-Colon-Here", b" folded: line", b"\tfolded", b"X-Nul: a\x00b", b"X-High: \xe9\xff",
           b": empty name", b"Host: other", b"X-Forwarded-For: 1.2.3.4", b"Range: bytes=0-1",
           b"Cookie: c=" + b"z" * 4000]
BODIES = [b"hello", b"0\r\n\r\n", b"zz\r\nnot hex\r\n", b"x" * 70_000, b"GET / HTTP/1.1\r\n\r\n"]


def hostile_request(rng: random.Random, token: str) -> bytes:
    """One request: a well-formed GET of a page with the token, and then none, one or several
    of the things that break servers in place of its parts."""
    method, version, sp = b"GET", b"HTTP/1.1", b" "
    tok, page = token, rng.choice(PAGES)
    headers, body = [b"Host: 127.0.0.1"], b""
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        part = rng.randrange(9)
        if part == 0:
            method = rng.choice(METHODS)
        elif part == 1:
            version = rng.choice(VERSIONS)
        elif part == 2:
            tok = rng.choice([token[:-1], token + "x", token.upper(), "%2e%2e", "..", "", "x" * 5000, token + "%00",
                              "\u00e9", "*"])
        elif part == 3:
            page = rng.choice(PATHS)
        elif part == 4:
            sp = rng.choice([b"  ", b"\t", b""])
        elif part == 5:
            headers += rng.choices(HEADERS, k=rng.choice([1, 3, 10, 150]))
        elif part == 6:
            headers = []
        elif part == 7:
            body = rng.choice(BODIES)
        else:
            headers.append(rng.choice(HEADERS))
    target = rng.choice([f"/{tok}/{page}"] * 6 + [f"/{tok}", "/", "*", f"http://evil/{tok}/{page}",
                                                  f"/{tok}/{page}#frag", f"{tok}/{page}"])
    line = method + sp + target.encode("utf-8") + (sp + version if version else b"")
    data = line + b"\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n" + body
    if rng.random() < 0.1:    # cut short anywhere
        data = data[:rng.randrange(0, max(1, len(data)))]
    if rng.random() < 0.05:   # bare LF line ends
        data = data.replace(b"\r\n", b"\n")
    return data


def well_formed_get(data: bytes, token: str) -> bool:
    """Whether a 200 may answer this request: a GET of one of the pages with the token, over
    HTTP/1.0, or HTTP/1.1 with its Host header (the request line's parts may be parted by
    more than one space or a tab: RFC 9112 lets a server read it on word boundaries; the
    target may be in absolute form, which RFC 9112 says a server must accept, and a fragment
    no client should send is ignored)."""
    line, _, rest = data.partition(b"\n")
    pattern = rb"GET[ \t]+(?:https?://[^/\s]*)?/" + re.escape(token.encode()) + \
        rb"/(|index\.html|state\.json|board|rules|events)([?#]\S*)?[ \t]+HTTP/1\.([01])"
    found = re.fullmatch(pattern, line.rstrip(b"\r"))
    head = rest.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    has_host = re.search(rb"(?im)^host:", head) is not None
    return found is not None and (found.group(3) == b"0" or has_host)


def exchange(port: int, data: bytes) -> bytes:
    """Send ``data`` and read until the server closes, a response is whole, or READ_S passes."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=READ_S)
    got = b""
    try:
        try:
            sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass   # refused before the rest arrived: what it said is read below
        deadline = time.monotonic() + READ_S
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            got += chunk
            head, sep, body = got.partition(b"\r\n\r\n")
            if sep and b"text/event-stream" in head:
                break   # a stream: its head is what is checked
            length = re.search(rb"(?i)\r\ncontent-length: (\d+)", head)
            if sep and length and len(body) >= int(length.group(1)):
                break   # one whole answer (the connection may be kept alive)
    finally:
        sock.close()
    return got


@pytest.fixture(params=connection.PARSERS)
def served(request, monkeypatch, caplog):
    """The page on each HTTP parser installed (httptools on a desktop, h11 as on the tablet)."""
    monkeypatch.setattr(connection, "HEAD_TIMEOUT_S", 0.3)
    caplog.set_level(logging.WARNING)
    hub = Hub()
    server = ScoreboardServer(hub, "127.0.0.1", 0, max_viewers=5, parser=request.param)
    offer(hub, fold("fublet", 40))
    yield server, caplog
    server.stop()


def test_hostile_requests(served):
    server, caplog = served
    rng = random.Random(20261206)
    statuses: dict[int, int] = {}
    for case in range(CASES):
        data = hostile_request(rng, server.token)
        got = exchange(server.port, data)
        if not got:
            statuses[0] = statuses.get(0, 0) + 1   # closed unanswered (a request that never came whole)
            continue
        status_line = re.match(rb"HTTP/1\.1 (\d{3}) [^\r\n]*\r\n", got)
        assert status_line, (case, data[:200], got[:200])
        status = int(status_line.group(1))
        statuses[status] = statuses.get(status, 0) + 1
        assert status != 500, (case, data[:200], got[:300])
        if status == 200:
            assert well_formed_get(data, server.token), (case, data[:200])
        if status not in (400,):   # uvicorn's own refusal of a malformed request carries no page headers
            head = got.partition(b"\r\n\r\n")[0].decode("latin-1").lower()
            for name, value in SECURITY_HEADERS.items():
                assert f"\r\n{name.lower()}: {value.lower()}" in head, (case, name, data[:200])
    print("answers by status (0: closed unanswered):", dict(sorted(statuses.items())))
    # The run met every kind of answer, not one kind over and over.
    assert {0, 200, 301, 400, 403, 404, 405, 505} <= set(statuses), statuses
    deadline = time.monotonic() + 20
    while server.viewers and time.monotonic() < deadline:   # the streams read above were closed
        time.sleep(0.01)
    assert server.viewers == 0
    sock, f = open_stream(server)   # the page still serves
    assert read_event(f)["game"] == "fublet"
    f.close()
    sock.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors[:5]]
