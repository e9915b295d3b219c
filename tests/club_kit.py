"""A club server for the tests: the real one (companion/club/, ui/web/club_*.py) on 127.0.0.1,
port 0, in this process; tablets that talk to it over HTTP; and journals of the shipped
scripted matches (tests/data/*_full_match.jsonl) written as the tablet writes them."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.club.client import ClubClient, read_journal
from companion.club.folder import open_club
from companion.club.keys import TabletKey, b64, request_message
from companion.club.ledger import Ledger
from tests.journal_fixtures import journal_of
from ui.web.club_server import ClubServer

DATA = Path(__file__).resolve().parent / "data"
GAMES = ("fublet", "futboard", "fussball_liga", "football_leader")


def match_journal(folder: Path, game: str) -> Path:
    """The shipped scripted match of ``game`` (played to its final whistle) as a journal."""
    return journal_of(DATA / f"{game}_full_match.jsonl", folder / f"{game}.sqlite")


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]

    @property
    def json(self) -> Any:
        return json.loads(self.body)


def http(method: str, url: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> Reply:
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as resp:
            return Reply(resp.status, resp.read(), {k.lower(): v for k, v in resp.headers.items()})
    except urllib.error.HTTPError as exc:
        return Reply(exc.code, exc.read(), {k.lower(): v for k, v in exc.headers.items()})


class Club:
    """A club folder served; ``restart`` stops the server and opens the folder again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ledger: Ledger = open_club(folder)
        self.server = ClubServer(self.ledger, "127.0.0.1", 0)

    @property
    def url(self) -> str:
        return self.server.url

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return http("GET", self.url + path, headers=headers)

    def restart(self) -> None:
        self.stop()
        self.ledger = open_club(self.folder)
        self.server = ClubServer(self.ledger, "127.0.0.1", 0)

    def stop(self) -> None:
        self.server.stop()
        self.ledger.store.close()

    def tablet(self, name: str = "Table 1", join: bool = True) -> "Tablet":
        tablet = Tablet(self, TabletKey.generate())
        if join:
            tablet.client().join(self.ledger.join_token, name)
        return tablet


@dataclass
class Tablet:
    club: Club
    key: TabletKey

    def client(self) -> ClubClient:
        return ClubClient(self.club.url, self.key)

    def post(self, path: str, value: Any, key: TabletKey | None = None, tablet_id: str | None = None) -> Reply:
        """A signed POST (by ``key``, this tablet's unless given), answered whatever it says."""
        body = json.dumps(value).encode()
        signer = key or self.key
        headers = {"X-Touchline-Tablet": tablet_id or self.key.id,
                   "X-Touchline-Signature": b64(signer.sign(request_message("POST", path, body))),
                   "Content-Type": "application/json"}
        return http("POST", self.club.url + path, body, headers)

    def upload(self, match: str, rows: list[dict[str, Any]], rev: int = 0, undone=(), discarded=()) -> Reply:
        return self.post(f"/matches/{match}/events", {"match": match, "events": rows, "statuses": {
            "rev": rev, "undone": list(undone), "discarded": list(discarded)}})

    def upload_all(self, match: str, rows: list[dict[str, Any]], size: int = 500) -> Reply:
        """Every row, in uploads of ``size``; the last answer."""
        for part in chunks(rows, size):
            reply = self.upload(match, part)
            assert reply.status == 200, reply.body
        return reply


def wire_rows(journal: Path) -> tuple[str, list[dict[str, Any]]]:
    """A journal's match id and its rows as a tablet sends them."""
    read = read_journal(journal)
    return read.match, [dict(zip(("seq", "batch", "at", "source", "type", "data"), r[:6]), hash=r[7])
                        for r in read.rows]


def chunks(rows: list, size: int) -> list[list]:
    return [rows[i:i + size] for i in range(0, len(rows), size)]


class Stream:
    """A spectator on the club's event stream (/events): each ``next()`` is the tables sent next.
    The socket's timeout only bounds a hang; nothing is timed."""

    def __init__(self, club_or_url) -> None:
        import http.client
        from urllib.parse import urlsplit

        url = urlsplit(club_or_url if isinstance(club_or_url, str) else club_or_url.url)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        self.conn.request("GET", "/events")
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200 and self.resp.getheader("Content-Type").startswith("text/event-stream")

    def next(self) -> dict[str, Any]:
        kind = None
        while True:
            line = self.resp.readline().decode("utf-8")
            assert line, "the stream ended"
            if line.startswith("event: "):
                kind = line[7:].strip()
            elif line.startswith("data: ") and kind == "tables":
                return json.loads(line[6:])

    def close(self) -> None:
        self.conn.close()
