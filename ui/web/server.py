"""The scoreboard page over HTTP: read-only, behind a random token, pushed by server-sent events.

    /<token>/            the page
    /<token>/events      server-sent events: the newest snapshot at once, then each new one
    /<token>/state.json  the newest snapshot as JSON
    /<token>/board       the printed board (an SVG group), asked for when its key changes
    /<token>/rules       the rules reference of the game shown (what the "Rulebook:" links open)

GET only: every other method is answered 405. A path without the token is 404, a wrong
token 403. Python's standard ``http.server``, one thread per viewer.
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from .hub import Hub

log = logging.getLogger(__name__)

MAX_VIEWERS = 200        # streams at once; more get 503 (each holds a thread)
KEEPALIVE_S = 15.0       # a comment line this often keeps proxies and phones from dropping the stream
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",          # the token is in the URL
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                               "img-src 'self' data:",
}


def new_token() -> str:
    return secrets.token_urlsafe(18)


def page_html() -> bytes:
    return resources.files(__package__).joinpath("page.html").read_bytes()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], hub: Hub, token: str) -> None:
        self.hub, self.token = hub, token
        self.page = page_html()
        self.viewers = 0
        self.viewers_lock = threading.Lock()
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.address_family = family
        super().__init__(address, Handler)


class Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "Touchline"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
        log.debug("%s %s", self.address_string(), format % args)

    # --- methods ------------------------------------------------------------------------------
    def __getattr__(self, name: str):
        if name.startswith("do_"):   # every method but GET, including ones http.server does not know
            return self._not_allowed
        raise AttributeError(name)

    def _not_allowed(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"This scoreboard is read-only: only GET is allowed.\n",
                   "text/plain; charset=utf-8", {"Allow": "GET"})

    def do_GET(self) -> None:
        path, _, _query = self.path.partition("?")
        parts = path.split("/")
        # "/<token>/rest": parts = ["", token, rest...]
        if len(parts) < 2 or not parts[1]:
            return self._send(HTTPStatus.NOT_FOUND, _message_page(
                "No scoreboard here", "Open the full link the coach's tablet shows (it ends in a long code)."))
        if not hmac.compare_digest(parts[1].encode(), self.server.token.encode()):
            return self._send(HTTPStatus.FORBIDDEN, _message_page(
                "This scoreboard link is not valid",
                "The code in the link is wrong or old. Scan the QR code on the coach's tablet again."))
        if len(parts) == 2:   # "/<token>": the page wants its trailing slash for relative links
            return self._send(HTTPStatus.MOVED_PERMANENTLY, b"", "text/plain", {"Location": f"/{parts[1]}/"})
        rest = "/".join(parts[2:])
        hub = self.server.hub
        if rest in ("", "index.html"):
            return self._send(HTTPStatus.OK, self.server.page, "text/html; charset=utf-8")
        if rest == "state.json":
            body = json.dumps(hub.snapshot.data, ensure_ascii=False).encode("utf-8")
            return self._send(HTTPStatus.OK, body, "application/json; charset=utf-8")
        if rest == "board":
            return self._send(HTTPStatus.OK, hub.snapshot.board.encode("utf-8"), "image/svg+xml; charset=utf-8")
        if rest == "events":
            return self._stream()
        if rest == "rules":
            return self._send(HTTPStatus.OK, rules_page(hub.snapshot.data.get("game", "")))
        return self._send(HTTPStatus.NOT_FOUND, _message_page("Not found", "This scoreboard has no such page."))

    # --- responses ----------------------------------------------------------------------------
    def _send(self, status: HTTPStatus, body: bytes, ctype: str = "text/html; charset=utf-8",
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for key, value in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _stream(self) -> None:
        server = self.server
        with server.viewers_lock:
            if server.viewers >= MAX_VIEWERS:
                return self._send(HTTPStatus.SERVICE_UNAVAILABLE, b"Too many viewers right now; try again soon.\n",
                                  "text/plain; charset=utf-8", {"Retry-After": "10"})
            server.viewers += 1
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            for key, value in SECURITY_HEADERS.items():
                self.send_header(key, value)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            version, payload = server.hub.current()
            self.wfile.write(b"retry: 1000\n\n" + payload)
            self.wfile.flush()
            while not server.hub.stopping:
                newer = server.hub.wait_newer(version, KEEPALIVE_S)
                if server.hub.stopping:
                    break
                if newer is None:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    version, payload = newer
                    self.wfile.write(payload)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            pass   # the viewer left
        finally:
            with server.viewers_lock:
                server.viewers -= 1


def _message_page(title: str, text: str) -> bytes:
    from html import escape

    return (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>{escape(title)}</title><body style='font:20px system-ui,sans-serif;background:#111;color:#eee;"
            f"padding:2em'><h1>{escape(title)}</h1><p>{escape(text)}</p></body></html>").encode("utf-8")


def rules_page(game: str) -> bytes:
    """The game's rules reference as one page: every section's summary, anchored by its id."""
    from html import escape

    from companion.errors import DataFileError
    from companion.reference import for_game

    try:
        ref = for_game(game)
    except (KeyError, DataFileError):
        return _message_page("No rules reference", "There is no rules reference for this match's game.")
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
             f"<meta name=referrer content=no-referrer><title>{escape(ref.rulebook)}</title>"
             f"<style>body{{font:18px/1.4 system-ui,sans-serif;background:#111;color:#eee;margin:0;padding:1em 1.4em}}"
             f"h2{{color:#ffd84a;margin:1.2em 0 .2em}}:target{{background:#2b2411}}a{{color:#9cc9ff}}"
             f"small{{color:#9aa3ad}}</style><p><a href='./'>&larr; back to the scoreboard</a></p>"
             f"<h1>{escape(ref.rulebook)}</h1><p><small>Summaries written for Touchline; the printed rulebook is "
             f"the authority.</small></p>"]
    for section in ref.sections:
        readings = f"<p><small>Touchline's readings: {escape(', '.join(section.readings))} " \
                   f"(the tablet's Rules screen tells each one)</small></p>" if section.readings else ""
        parts.append(f"<section id='{escape(section.id)}'><h2>{escape(section.title)}</h2>"
                     f"<p>{escape(section.summary)}</p>{readings}</section>")
    return "".join(parts).encode("utf-8")


class ScoreboardServer:
    """The page served from one hub on one address, until ``stop``."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 0, token: str | None = None) -> None:
        self.hub = hub
        self.token = token or new_token()
        try:
            self._httpd = _Server((host, port), hub, self.token)
        except OSError as exc:
            from companion.errors import TouchlineError

            raise TouchlineError(f"cannot serve the scoreboard on {host}:{port} ({exc.strerror or exc}); "
                                 f"choose another --port, or a --host this machine has") from None
        self.host = host
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="touchline-web", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/{self.token}/"

    @property
    def viewers(self) -> int:
        return self._httpd.viewers

    def stop(self) -> None:
        """Stop listening at once; the viewers' streams end."""
        self.hub.stop()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=2)
