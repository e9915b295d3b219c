"""The tablet's side of a club: its key, and an outbox on disk that sends each match's journal
to the club server while the match is played, whenever the network lets it.

Offline first: ``Outbox.add`` only writes down a journal's path (nothing waits on the
network); ``Outbox.send_due`` sends, for each journal whose turn has come, the events the
club does not hold yet (from the club's own answer of how far it holds the match), in
batches, then the signed result once the coaches confirmed it. A failure to reach the club
(no network, the server restarting, a 5xx, a 429) is tried again after a backoff that
doubles up to ``MAX_BACKOFF_S`` (with jitter, so tablets do not all come back at once); a
refusal (a fork, a broken chain, an unknown key) is kept with its reason and not retried. The
outbox is an SQLite file: what is sent, what waits and until when survive a restart of the
tablet, as the club keeps what it acknowledged across its own.

Pure Python (urllib): no Kivy, usable from the app, the command line and the tests.
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import TouchlineError
from ..journal import check_stored, read_stored
from ..journal_chain import DISCARDED, UNDONE
from . import keys

log = logging.getLogger(__name__)

BATCH = 500                 # events in one upload
BASE_BACKOFF_S = 2.0
# At most half a minute between tries: a tablet whose network came back is seen at the club
# within that (with five minutes, the load benchmark's tablets back from a two-minute outage
# waited another 105 s), and 32 tablets trying every 30 s are about one request a second.
MAX_BACKOFF_S = 30.0
TIMEOUT_S = 20.0
RETRY_STATUSES = (408, 425, 429, 500, 502, 503, 504)


class ClubError(TouchlineError):
    """The club cannot be reached or refused what was sent."""


class Unreachable(ClubError):
    """Worth trying again later: no answer, or a server that says so."""


class RefusedByClub(ClubError):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"the club refused it ({status}): {reason}")
        self.status = status
        self.reason = reason


Transport = Callable[[str, str, bytes, dict[str, str]], tuple[int, bytes]]


def urllib_transport(method: str, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body if method != "GET" else None, method=method,
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except (urllib.error.URLError, OSError) as exc:   # refused, reset, timed out, no route
        raise Unreachable(f"{url}: cannot reach the club ({getattr(exc, 'reason', exc)})") from None


class ClubClient:
    """Signed requests to one club server."""

    def __init__(self, server: str, key: keys.TabletKey, transport: Transport = urllib_transport) -> None:
        self.server = server.rstrip("/")
        self.key = key
        self.transport = transport

    def _call(self, method: str, path: str, value: Any = None, signed: bool = True) -> dict[str, Any]:
        body = b"" if value is None else json.dumps(value, separators=(",", ":")).encode("utf-8")
        headers = {}
        if signed:
            headers = {"X-Touchline-Tablet": self.key.id,
                       "X-Touchline-Signature": keys.b64(self.key.sign(keys.request_message(method, path, body)))}
        status, raw = self.transport(method, self.server + path, body, headers)
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError):
            answer = {}
        if status in RETRY_STATUSES:
            raise Unreachable(f"the club answered {status}: {answer.get('error', 'try again later')}")
        if status >= 400:
            raise RefusedByClub(status, str(answer.get("error", "no reason given")) if isinstance(answer, dict)
                                else "no reason given")
        return answer if isinstance(answer, dict) else {}

    def join(self, join_token: str, name: str) -> str:
        return self.register(join_token, name)[0]

    def register(self, join_token: str, name: str) -> tuple[str, str]:
        """Join: the tablet's id, and its name at the club (a tablet that joined before keeps
        the name it joined with)."""
        answer = self._call("POST", "/tablets", {"join_token": join_token, "name": name,
                                                 "public_key": keys.b64(self.key.public_raw)}, signed=False)
        return str(answer["tablet"]), str(answer.get("name") or name)

    def rename(self, name: str) -> str:
        """This tablet's new name at the club (its table's pairings are found by it); the name
        the club now knows."""
        answer = self._call("POST", f"/tablets/{self.key.id}/name", {"name": name})
        return str(answer.get("name") or name)

    def read(self, path: str) -> dict[str, Any]:
        """A public page of the club as JSON (``/seasons``, ``/seasons/<id>``)."""
        return self._call("GET", path, signed=False)

    def held(self, match: str) -> int:
        try:
            return int(self._call("GET", f"/matches/{match}", signed=False)["held"])
        except RefusedByClub as exc:
            if exc.status == 404:
                return 0
            raise

    def publish(self, match: str, rows: list[dict[str, Any]], statuses: dict[str, Any]) -> dict[str, Any]:
        return self._call("POST", f"/matches/{match}/events", {"match": match, "events": rows, "statuses": statuses})

    def confirm(self, result: dict[str, Any]) -> dict[str, Any]:
        return self._call("POST", f"/matches/{result['match']}/result", result)


@dataclass(frozen=True)
class JournalRead:
    match: str
    rows: tuple[tuple, ...]      # seq, batch, at, source, type, data, status, hash
    undone: tuple[int, ...]
    discarded: tuple[int, ...]
    finished: bool

    @property
    def last_seq(self) -> int:
        return self.rows[-1][0] if self.rows else 0

    @property
    def head(self) -> str:
        return self.rows[-1][7] if self.rows else ""

    @property
    def statuses(self) -> str:
        return keys.statuses_text(self.undone, self.discarded)


def read_journal(path: Path, fold: bool = False) -> JournalRead:
    """A journal read as one snapshot and checked whole (a broken one is not sent); with
    ``fold``, replayed too, to know whether the match is finished."""
    stored = read_stored(path)
    loaded = check_stored(stored)
    rows = tuple(tuple(r) for r in stored.fetched)
    if not rows or loaded.checked is None or not stored.chained:
        raise ClubError(f"{path}: holds no chained events to publish")
    undone = tuple(sorted({r[1] for r in rows if r[6] == UNDONE}))
    discarded = tuple(sorted({r[1] for r in rows if r[6] == DISCARDED}))
    finished = False
    if fold:
        from ..games import ruleset_for
        from ..match import Match

        try:
            summary = Match.from_events(ruleset_for(loaded.game), loaded.events, loaded.redo).summary()
        except (KeyError, TouchlineError) as exc:
            raise ClubError(f"{path}: does not replay ({exc})") from None
        finished = isinstance(summary.get("result"), dict)
    return JournalRead(rows[0][7], rows, undone, discarded, finished)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journals (
    path TEXT PRIMARY KEY, match TEXT NOT NULL DEFAULT '', sent INTEGER NOT NULL DEFAULT 0,
    rev INTEGER NOT NULL DEFAULT 0, statuses TEXT NOT NULL DEFAULT 'u:;d:', acked_rev INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0, next_try REAL NOT NULL DEFAULT 0, refused TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '', result_sent INTEGER NOT NULL DEFAULT 0, last_seq INTEGER NOT NULL DEFAULT 0);
"""


@dataclass(frozen=True)
class Waiting:
    path: str
    match: str
    sent: int
    last_seq: int
    failures: int
    next_try: float
    refused: str
    result: bool
    result_sent: bool

    @property
    def done(self) -> bool:
        return bool(self.refused) or (self.sent >= self.last_seq > 0 and (not self.result or self.result_sent))


class Outbox:
    """The journals this tablet publishes to its club, and how far each has gone."""

    def __init__(self, path: Path, key: keys.TabletKey, transport: Transport = urllib_transport,
                 clock: Callable[[], float] = time.time, rng: random.Random | None = None) -> None:
        self.path = Path(path)
        self.key = key
        self.transport = transport
        self.clock = clock
        self.rng = rng or random.Random()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = FULL")
        self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        self._conn.close()

    # --- the club ------------------------------------------------------------------------------
    def _config(self, key: str) -> str:
        row = self._conn.execute("SELECT value FROM config WHERE key = ?", (key,)).fetchone()
        return row[0] if row else ""

    def _set(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO config (key, value) VALUES (?, ?)", (key, value))

    @property
    def server(self) -> str:
        return self._config("server")

    def client(self) -> ClubClient:
        if not self.server:
            raise ClubError("this tablet has joined no club")
        return ClubClient(self.server, self.key, self.transport)

    @property
    def name(self) -> str:
        """This tablet's name at the club ("Table 3"), as the club knows it."""
        return self._config("name")

    def join(self, server: str, join_token: str, name: str) -> str:
        """Join the club at ``server`` (needs the network once)."""
        client = ClubClient(server, self.key, self.transport)
        tablet, known_as = client.register(join_token, name)
        self._set("server", server.rstrip("/"))
        self._set("tablet", tablet)
        self._set("name", known_as)
        wanted = " ".join(name.split())
        if wanted and wanted != known_as:   # joined before under another name: the one typed now counts
            self._set("name", client.rename(wanted))
        return tablet

    def rename(self, name: str) -> str:
        """This tablet's new name at the club (needs the network); the name the club knows."""
        known_as = self.client().rename(name)
        self._set("name", known_as)
        return known_as

    def leave(self) -> None:
        """Forget the club and what waited to be sent to it (the journals stay on the tablet;
        the club keeps what it received)."""
        self._conn.execute("DELETE FROM config WHERE key IN ('server', 'tablet', 'name')")
        self._conn.execute("DELETE FROM journals")

    # --- the queue -----------------------------------------------------------------------------
    def add(self, journal: Path, now: bool = False) -> None:
        """Send this journal (and what it grows by); only written down here. A journal waiting
        out a backoff keeps waiting (the app adds its journal after every command), unless
        ``now`` (someone asked, as ``touchline club publish`` does)."""
        key = str(Path(journal).resolve())
        self._conn.execute("INSERT OR IGNORE INTO journals (path) VALUES (?)", (key,))
        if now:
            self._conn.execute("UPDATE journals SET next_try = 0 WHERE path = ? AND refused = ''", (key,))

    def confirm(self, journal: Path) -> None:
        """Both coaches confirmed the result: sign the journal's end, to be sent after its events."""
        read = read_journal(Path(journal), fold=True)
        if not read.finished:
            raise ClubError(f"{journal}: the match is not finished; a result is confirmed after the final whistle")
        result = {"match": read.match, "last_seq": read.last_seq, "head": read.head, "statuses": read.statuses,
                  "signature": keys.b64(self.key.sign(keys.result_message(read.match, read.last_seq, read.head,
                                                                          read.statuses)))}
        self.add(journal, now=True)
        self._conn.execute("UPDATE journals SET result = ?, result_sent = 0, next_try = 0 WHERE path = ?",
                           (json.dumps(result), str(Path(journal).resolve())))

    def waiting(self) -> list[Waiting]:
        rows = self._conn.execute("SELECT path, match, sent, last_seq, failures, next_try, refused, result != '', "
                                  "result_sent FROM journals ORDER BY path").fetchall()
        return [Waiting(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), bool(r[8])) for r in rows]

    def state_in_words(self) -> str:
        pending = [w for w in self.waiting() if not w.done]
        refused = [w for w in self.waiting() if w.refused]
        words = ("nothing waiting to send" if not pending else
                 f"{len(pending)} match{'es' if len(pending) != 1 else ''} waiting to send")
        if refused:
            words += f"; {len(refused)} refused by the club"
        return words

    def send_due(self) -> list[Waiting]:
        """Send what is due now; returns what still waits (each with when it is tried next)."""
        now = self.clock()
        for w in self.waiting():
            if w.refused or w.next_try > now:
                continue
            try:
                self._send(Path(w.path))
            except Unreachable as exc:
                failures = w.failures + 1
                delay = min(MAX_BACKOFF_S, BASE_BACKOFF_S * 2 ** (failures - 1)) * (0.5 + self.rng.random() / 2)
                self._conn.execute("UPDATE journals SET failures = ?, next_try = ? WHERE path = ?",
                                   (failures, now + delay, w.path))
                log.info("%s: not sent (%s); trying again in %.0f s", w.path, exc, delay)
            except (RefusedByClub, ClubError) as exc:
                self._conn.execute("UPDATE journals SET refused = ? WHERE path = ?", (str(exc), w.path))
                log.warning("%s: %s", w.path, exc)
        return [w for w in self.waiting() if not w.done]

    def _send(self, path: Path) -> None:
        read = read_journal(path)
        key = str(path.resolve())
        row = self._conn.execute("SELECT sent, rev, statuses, acked_rev, result, result_sent FROM journals "
                                 "WHERE path = ?", (key,)).fetchone()
        sent, rev, statuses, acked_rev, result, result_sent = row
        if statuses != read.statuses:
            rev += 1
        self._conn.execute("UPDATE journals SET match = ?, last_seq = ?, rev = ?, statuses = ? WHERE path = ?",
                           (read.match, read.last_seq, rev, read.statuses, key))
        client = self.client()
        if sent == 0:   # resume from what the club holds (a reinstalled outbox, a club restored)
            sent = min(client.held(read.match), read.last_seq)
            self._conn.execute("UPDATE journals SET sent = ? WHERE path = ?", (sent, key))
        status_body = {"rev": rev, "undone": list(read.undone), "discarded": list(read.discarded)}
        while sent < read.last_seq or acked_rev < rev:
            chunk = [dict(zip(("seq", "batch", "at", "source", "type", "data"), r[:6]), hash=r[7])
                     for r in read.rows[sent:sent + BATCH]]
            answer = client.publish(read.match, chunk, status_body)
            held = int(answer.get("held", 0))
            if chunk and held <= sent:   # sent from what the club holds, yet it holds no more
                raise Unreachable(f"the club took none of events {chunk[0]['seq']}-{chunk[-1]['seq']}")
            sent, acked_rev = held, rev
            self._conn.execute("UPDATE journals SET sent = ?, acked_rev = ?, failures = 0 WHERE path = ?",
                               (sent, acked_rev, key))
            if not chunk and sent >= read.last_seq:
                break
        if result and not result_sent:
            signed = json.loads(result)
            if (signed["last_seq"], signed["head"], signed["statuses"]) != (read.last_seq, read.head, read.statuses):
                # The match went on after the coaches confirmed (a step undone at the final whistle):
                # that signature vouches for another journal. Dropped, not refused: the events are
                # still sent, and the coaches confirm again at the next final whistle.
                self._conn.execute("UPDATE journals SET result = '' WHERE path = ?", (key,))
                log.info("%s: changed after its result was confirmed; the result waits for a new confirmation", path)
                return
            client.confirm(signed)
            self._conn.execute("UPDATE journals SET result_sent = 1, failures = 0 WHERE path = ?", (key,))
