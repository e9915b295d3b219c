"""The scoreboard server: GET only, the token, the stream of snapshots, every game's pitch."""

from __future__ import annotations

import http.client
import json
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from companion.games import ruleset_for
from companion.match import Match
from tests.web_kit import GAMES, GrowingJournal, full_match
from ui.web.connection import PARSERS
from ui.web.follow import Follower
from ui.web.hub import Hub
from ui.web.server import ScoreboardServer


def fold(game: str, upto: int | None = None) -> Match:
    events = full_match(game)
    return Match.from_events(ruleset_for(game), events if upto is None else events[:upto])


@pytest.fixture
def served():
    hub = Hub()
    server = ScoreboardServer(hub, "127.0.0.1", 0)
    yield hub, server
    server.stop()


def request(server: ScoreboardServer, method: str, path: str) -> tuple[int, Any, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request(method, path)
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()   # headers: any case, as HTTP says
    finally:
        conn.close()


def offer(hub: Hub, match: Match) -> None:
    version = hub.current()[0]
    hub.offer_match(match.ruleset, match.state, ["a line"], match.events[-1] if match.events else None)
    assert hub.wait_version(version + 1, 10)


def test_the_page_is_behind_the_token(served):
    hub, server = served
    path = urlsplit(server.url).path
    assert server.url.startswith("http://127.0.0.1:") and len(server.token) >= 20
    status, headers, body = request(server, "GET", path)
    assert status == 200 and b"EventSource" in body
    assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"
    assert request(server, "GET", "/")[0] == 404
    assert request(server, "GET", "/favicon.ico")[0] == 403
    assert request(server, "GET", "/" + "x" * len(server.token) + "/")[0] == 403
    assert request(server, "GET", "/" + server.token[:-1] + "/events")[0] == 403
    assert request(server, "GET", path + "nothing")[0] == 404
    assert request(server, "GET", path.rstrip("/"))[0] == 301


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "PROPFIND",
                                    "BREW"])
def test_every_method_but_get_is_refused(method, parser):
    server = ScoreboardServer(Hub(), parser=parser)
    try:
        status, headers, _ = request(server, method, urlsplit(server.url).path)
    finally:
        server.stop()
    if method == "BREW" and parser == "httptools":
        assert status == 400   # llhttp knows every registered method and refuses others as malformed
    else:
        assert status == 405 and headers["Allow"] == "GET"


def test_two_servers_never_share_a_token():
    a, b = Hub(), Hub()
    one, two = ScoreboardServer(a), ScoreboardServer(b)
    try:
        assert one.token != two.token
        assert request(one, "GET", f"/{two.token}/")[0] == 403
    finally:
        one.stop()
        two.stop()


def read_event(sock_file) -> dict:
    """The next 'state' event's data from a server-sent event stream."""
    data, kind = None, None
    while True:
        line = sock_file.readline().decode("utf-8")
        if line == "":
            raise EOFError("the stream ended")
        line = line.rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and data is not None:
            if kind == "state":
                return json.loads(data)
            data, kind = None, None


def open_stream(server: ScoreboardServer):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    sock.sendall(f"GET /{server.token}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    f = sock.makefile("rb")
    status = f.readline()
    assert b" 200 " in status, status
    while f.readline() not in (b"\r\n", b""):
        pass
    return sock, f


def test_the_stream_sends_the_newest_state_at_once_then_each_change(served):
    hub, server = served
    match = fold("fublet", 200)
    offer(hub, match)
    sock, f = open_stream(server)
    try:
        first = read_event(f)
        assert first["seq"] == match.events[-1].seq and first["game"] == "fublet"
        assert "Touchline Rovers" in first["score"] and first["figures"].count("<circle") >= 22
        later = fold("fublet", 260)
        offer(hub, later)
        second = read_event(f)
        assert second["seq"] == later.events[-1].seq and second["version"] > first["version"]
    finally:
        sock.close()


def test_the_printed_board_is_served_once_under_its_key(served):
    hub, server = served
    offer(hub, fold("fublet", 100))
    state = json.loads(request(server, "GET", f"/{server.token}/state.json")[2])
    status, headers, board = request(server, "GET", f"/{server.token}/board?k={state['board_key']}")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
    assert board.count(b"<rect") > 100 and b"<script" not in board
    assert state["board_key"] and "<rect" not in state["figures"].split("fig")[0]


@pytest.mark.parametrize("game", GAMES)
def test_every_games_pitch_and_figures(served, game):
    hub, server = served
    match = fold(game, len(full_match(game)) // 2)   # mid-match: both sides on the board
    offer(hub, match)
    data = hub.snapshot.data
    assert data["game"] == game and not data.get("problem")
    assert data["viewbox"][0] > 0 and data["viewbox"][1] > 0
    assert data["figures"].count('class="fig home') >= 1 and data["figures"].count('class="fig away') >= 1
    assert hub.snapshot.board.startswith("<rect")
    summary_score = match.summary()["score"]
    assert f"{summary_score['home']} - {summary_score['away']}" in data["score"]


def test_the_pending_request_and_the_log_are_shown(served):
    hub, server = served
    match = fold("fublet", 50)
    hub.offer_match(match.ruleset, match.state, [f"line {i}" for i in range(30)], match.events[-1])
    assert hub.wait_version(1, 10)
    data = hub.snapshot.data
    assert [p["text"] for p in data["pending"]] == [r.text for r in match.pending()]
    assert data["log"][0] == "line 29" and len(data["log"]) == 12


def test_a_problem_is_a_clear_page(served):
    hub, server = served
    hub.offer_problem("m.sqlite: the journal is damaged (database disk image is malformed)")
    assert hub.wait_version(1, 10)
    data = json.loads(request(server, "GET", f"/{server.token}/state.json")[2])
    assert data["problem"].startswith("m.sqlite: the journal is damaged")


def test_names_with_markup_are_escaped(served):
    hub, server = served
    match = fold("fublet", 30)
    hub.offer_match(match.ruleset, match.state, ["<script>alert(1)</script>"], match.events[-1])
    assert hub.wait_version(1, 10)
    body = request(server, "GET", f"/{server.token}/state.json")[2]
    assert json.loads(body)["log"][0] == "<script>alert(1)</script>"   # text, set with textContent
    assert b"<script" not in hub.snapshot.board.encode() and "<script" not in hub.snapshot.data["figures"]


def test_following_a_growing_journal_reaches_the_viewers(tmp_path):
    table = GrowingJournal(tmp_path / "m.sqlite", upto=30)
    hub = Hub()
    follower = Follower(table.path, lambda f: hub.offer_match(f.ruleset, f.state, f.log, f.last), hub.offer_problem,
                        interval=0.02)
    follower.start()
    server = ScoreboardServer(hub)
    sock, f = open_stream(server)
    try:
        deadline = time.monotonic() + 20
        data = read_event(f)
        while data["seq"] != table.last.seq and time.monotonic() < deadline:
            data = read_event(f)
        assert data["seq"] == table.last.seq
        table.grow(2)
        while data["seq"] != table.last.seq and time.monotonic() < deadline:
            data = read_event(f)
        assert data["seq"] == table.last.seq
    finally:
        sock.close()
        follower.stop()
        server.stop()
        table.close()


def test_a_stopped_server_no_longer_listens(served):
    hub, server = served
    port = server.port
    server.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_the_apps_switch_serves_the_views_it_is_handed_and_stops(tmp_path):
    from types import SimpleNamespace

    from ui.web.in_app import AppScoreboard

    match = fold("fublet", 80)
    view = SimpleNamespace(active=True, state=match.state, log=("Round 1",), error="")
    board = AppScoreboard()
    board.offer(view, match)                   # before the switch: kept, nothing served
    assert not board.on and board.url == ""
    url = board.start("127.0.0.1", 0)
    try:
        assert board.hub.wait_version(1, 10)
        status, _headers, body = request(board.server, "GET", urlsplit(url).path + "state.json")
        assert status == 200 and json.loads(body)["seq"] == match.events[-1].seq
        later = fold("fublet", 120)
        board.offer(SimpleNamespace(active=True, state=later.state, log=(), error=""), later)
        deadline = time.monotonic() + 10
        while board.hub.snapshot.data.get("seq") != later.events[-1].seq and time.monotonic() < deadline:
            time.sleep(0.02)
        assert board.hub.snapshot.data["seq"] == later.events[-1].seq
    finally:
        port = board.server.port
        board.stop()
    assert not board.on
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_a_running_clock_is_sent_again_without_a_new_event():
    from companion.events import now
    from ui.looks.base import RectGeometry, Scoreboard

    class Ticking:
        game, title, tick_s = "fublet", "Fublet", 1.0

        def scoreboard(self, summary, at=None):
            return Scoreboard("A 0 - 0 B", (at or now()).strftime("%H:%M:%S.%f"), "running")

        def geometry(self, board):
            return RectGeometry(100, 60, 10, 6)

        def figures(self, state):
            return []

        def ball(self, state, board):
            from ui.looks.base import BallMark
            return BallMark()

    match = fold("fublet", 30)
    hub = Hub(looks=lambda game: Ticking())
    try:
        hub.offer_match(match.ruleset, match.state, [], match.events[-1])
        assert hub.wait_version(1, 10)
        first = hub.snapshot.data["clock"]
        assert hub.wait_version(2, 10)               # no new offer: the clock's tick built it
        assert hub.snapshot.data["clock"] != first and hub.snapshot.data["seq"] == match.events[-1].seq
    finally:
        hub.stop()


def test_the_rulebook_links_open_the_games_reference(served):
    hub, server = served
    match = fold("fublet", 50)
    offer(hub, match)
    rule = hub.snapshot.data["pending"][0]["rule"]
    status, headers, body = request(server, "GET", f"/{server.token}/rules")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert f"id='{rule['section']}'".encode() in body and rule["title"].encode() in body
    assert request(server, "GET", "/wrong-token/rules")[0] == 403
