"""The tablet's club in the app (issue 33): joining and leaving, the outbox fed while a match
is played, both coaches' confirmation at the final whistle, the next pairing at this table.

``ClubDesk`` owns the tablet's outbox (companion/club/client.py: SQLite on disk, backoff) on
one daemon thread of its own: every network call and every write to the outbox runs there, so
nothing a coach does waits for the club. The screens ask it for things (``join``, ``leave``,
``agree``, ``look_for_pairing``) and the controller tells it when a journal grew
(``journal_grew``, cheap from any thread); it hands back an immutable ``ClubState`` through
``post`` (in the app: a queue drained by a Clock trigger). The words a coach reads are pure
functions of that state and the time, tested without a window.

Nothing here imports Kivy; the rules core knows nothing of the club.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable

from companion.club.client import (ClubClient, ClubError, Outbox, RefusedByClub, Transport, Unreachable, Waiting,
                                   urllib_transport)
from companion.club.keys import KeyProblem, TabletKey, parse_join_link
from companion.errors import TouchlineError

log = logging.getLogger(__name__)

POLL_S = 5.0            # a look at the outbox at least this often (a backoff ending, a club back)
SIDES = ("home", "away")


@dataclass(frozen=True)
class Pairing:
    """The next game a club's season puts at this table."""
    home: str
    away: str
    season: str
    game: str
    round: int

    @property
    def words(self) -> str:
        return f"Next at this table: {self.home} v {self.away} ({self.season}, round {self.round})"


@dataclass(frozen=True)
class ClubState:
    """What the screens show of the club, as of one moment (safe to read from any thread)."""
    joined: bool = False
    server: str = ""
    name: str = ""                                 # this tablet's name at the club
    waiting: tuple[Waiting, ...] = ()              # the outbox, one row per journal
    busy: str = ""                                 # "Joining the club..." while it runs
    problem: str = ""                              # the last join's or confirmation's trouble, in words
    agreed: frozenset[tuple[str, str]] = frozenset()   # (journal, side): a coach confirmed the result
    pairing: Pairing | None = None
    ready: bool = False                            # the outbox was read once (before: say nothing)
    joins: int = 0                                 # joins tried to their end (a Join window waits for one more)
    renames: int = 0                               # renames tried to their end (the Rename window waits likewise)
    rename_problem: str = ""                       # why the last rename did not happen ('' when it did)

    def row(self, journal: str) -> Waiting | None:
        key = resolved(journal)
        return next((w for w in self.waiting if w.path == key), None)

    def sides_agreed(self, journal: str) -> set[str]:
        key = resolved(journal)
        return {side for path, side in self.agreed if path == key}


def resolved(journal: str | Path) -> str:
    return str(Path(journal).resolve()) if journal else ""


def in_seconds(seconds: float) -> str:
    seconds = max(1, round(seconds))
    return f"{seconds} s" if seconds < 90 else f"{round(seconds / 60)} min"


def queue_words(waiting: Iterable[Waiting], now: float) -> str:
    """The outbox in a coach's words: "All sent", "3 matches waiting to send", "The club
    cannot be reached: trying again in 40 s (2 matches waiting to send)", a refusal with its
    reason."""
    rows = list(waiting)
    refused = [w for w in rows if w.refused]
    pending = [w for w in rows if not w.done]
    count = f"{len(pending)} match{'es' if len(pending) != 1 else ''} waiting to send"
    if pending:
        failing = [w for w in pending if w.failures > 0]
        if failing:
            due = min(w.next_try for w in failing) - now
            words = (f"The club cannot be reached: trying again in {in_seconds(due)} ({count})" if due > 0.5
                     else f"The club cannot be reached: trying again now ({count})")
        else:
            words = count
    else:
        words = ("Nothing else to send" if refused else "All sent") if rows else \
            "Nothing to send yet: matches are sent while they are played"
    if refused:
        reason = refusal_reason(refused[-1].refused)
        n = len(refused)
        words += (f". The club refused {n} match{'es' if n != 1 else ''}: {reason}" if reason
                  else f". The club refused {n} match{'es' if n != 1 else ''}")
    return words


def refusal_reason(text: str) -> str:
    """A refusal as the outbox keeps it, in a coach's words: no status code, no file path."""
    text = re.sub(r"^the club refused it \(\d+\):\s*", "", text.strip())
    return re.sub(r"^\S+\.sqlite:\s*", "", text)


def status_words(state: ClubState, now: float) -> str:
    """Settings' line of the club."""
    if state.busy:
        return state.busy
    if not state.joined:
        return state.problem or "This tablet is in no club."
    head = f"In the club at {host_of(state.server)} as \"{state.name or 'this tablet'}\"."
    tail = queue_words(state.waiting, now)
    return f"{head} {tail}." + (f" {state.problem}" if state.problem else "")


def possessive(team: str) -> str:
    """ "Rovers' coach", "Athletic's coach"."""
    return f"{team}'" if team.endswith("s") else f"{team}'s"


def host_of(server: str) -> str:
    return server.split("://", 1)[-1].rstrip("/")


def result_words(state: ClubState, journal: str, teams: dict[str, str], now: float) -> str:
    """Where a finished match's confirmation stands, for the live screen at the final whistle."""
    row = state.row(journal)
    if row is not None and row.result:
        if row.refused:
            return f"Result confirmed by both coaches, but the club refused it: {refusal_reason(row.refused)}"
        if row.result_sent and row.done:
            return "Result confirmed by both coaches and sent to the club: it counts in the club's league."
        if row.failures > 0:   # no countdown here: this panel stays put until the next try
            return ("Result confirmed by both coaches; not sent yet: the club cannot be reached. This tablet "
                    "keeps trying by itself.")
        return "Result confirmed by both coaches; sending it to the club..."
    agreed = state.sides_agreed(journal)
    if state.problem and len(agreed) == 2:
        return state.problem
    if len(agreed) == 2:
        return "Both coaches confirmed: signing the result..."
    if len(agreed) == 1:
        done = next(iter(agreed))
        other = "away" if done == "home" else "home"
        return f"{possessive(teams.get(done, done))} coach confirmed. {possessive(teams.get(other, other))} coach: " \
               f"is the result right?"
    return "For the club's league, both coaches confirm the result on this tablet:"


def next_pairing(seasons: list[dict[str, Any]], table: str) -> Pairing | None:
    """The first game still to play at ``table`` in the club's seasons (each as ``/seasons/<id>``
    answers): the earliest round with an open game there, in the season that starts first."""
    found = []
    for season in seasons:
        for rnd in season.get("rounds", []):
            number = rnd.get("round", 0)
            for game in rnd.get("games", []):
                open_game = (game.get("result") is None and not game.get("winner") and not game.get("bye")
                             and game.get("home") and game.get("away"))
                if open_game and game.get("table") == table:
                    found.append((str(season.get("starts", "")), int(number), int(game.get("sitting", 1)),
                                  Pairing(str(game["home"]), str(game["away"]), str(season.get("name", "")),
                                          str(season.get("game", "")), int(number))))
                    break
            else:
                continue
            break
    found.sort(key=lambda f: f[:3])
    return found[0][3] if found else None


def join_problem(exc: Exception) -> str:
    if isinstance(exc, KeyProblem):
        return ("That is not a club's join link. It looks like http://192.168.1.20:8790/#join=... "
                "(the club's organiser has it; 'touchline club' prints it).")
    if isinstance(exc, Unreachable):
        return ("The club cannot be reached at that address: is this tablet on the club's network, and is "
                "the club's server running? Nothing was changed.")
    if isinstance(exc, RefusedByClub):
        return f"The club refused to let this tablet join: {exc.reason}."
    return f"Could not join the club: {exc}."


class ClubDesk:
    """The club's thread: the outbox, sending and the club's pages, off the UI thread."""

    def __init__(self, folder: Path, post: Callable[[ClubState], None] | None = None,
                 transport: Transport = urllib_transport, clock: Callable[[], float] = time.time,
                 poll_s: float = POLL_S) -> None:
        self.folder = Path(folder)
        self._post = post or (lambda state: None)
        self.transport = transport
        self.clock = clock
        self.poll_s = poll_s
        self.state = ClubState()
        self._jobs: queue.Queue = queue.Queue()
        self._grown: set[str] = set()
        self._lock = threading.Lock()
        self._outbox: Outbox | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="touchline-club", daemon=True)
        self._thread.start()

    # --- asked from any thread (cheap: nothing here waits) -------------------------------------
    def journal_grew(self, journal: str) -> None:
        """The controller appended to a journal: it is sent (when the tablet is in a club)."""
        if not journal or not self.state.joined:
            return
        with self._lock:
            self._grown.add(resolved(journal))
        self._jobs.put(None)   # a wake-up

    def join(self, link: str, name: str) -> None:
        self._jobs.put(lambda: self._join(link, name))

    def leave(self) -> None:
        self._jobs.put(self._leave)

    def rename(self, name: str) -> None:
        """This tablet's name at the club (its table's pairings are found by it)."""
        self._jobs.put(lambda: self._rename(name))

    def agree(self, journal: str, side: str) -> None:
        """One coach says the final result is right; with both, the tablet signs it and sends it."""
        self._jobs.put(lambda: self._agree(resolved(journal), side))

    def look_for_pairing(self) -> None:
        self._jobs.put(self._look_for_pairing)

    def wait(self, timeout: float = 30.0) -> bool:
        """Block until what was asked so far ran (tests only)."""
        done = threading.Event()
        self._jobs.put(done)
        return done.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        self._jobs.put(None)
        self._thread.join(timeout=2)   # a call to the club under way ends by its own timeout (daemon)

    # --- on the club's thread ------------------------------------------------------------------
    def _run(self) -> None:
        # A tablet in no club writes nothing: its key and outbox are made when it first joins.
        if (self.folder / "outbox.sqlite").exists():
            self._open()   # when it cannot be, Settings says why and a join tries again
        self._set(ready=True)
        while not self._stop.is_set():
            try:
                jobs = [self._jobs.get(timeout=self._sleep())]
            except queue.Empty:
                jobs = []
            while True:   # whatever else was asked meanwhile, before one round of sending
                try:
                    jobs.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            if self._stop.is_set():
                break
            waiters = [j for j in jobs if isinstance(j, threading.Event)]
            for job in jobs:
                if job is None or isinstance(job, threading.Event):
                    continue
                try:
                    job()
                except Exception:   # the club must never take the table down: logged, tried again later
                    log.exception("club: a job failed")
            self._send()
            for waiter in waiters:   # after the round of sending: what was asked has been tried
                waiter.set()
        if self._outbox is not None:
            self._outbox.close()

    def _open(self) -> bool:
        try:
            self._outbox = Outbox(self.folder / "outbox.sqlite",
                                  TabletKey.load_or_create(self.folder / "tablet-key.pem"),
                                  transport=self.transport, clock=self.clock)
        except Exception as exc:   # a damaged file or folder: the tablet still plays; Settings says why not
            log.warning("club: cannot open the outbox in %s: %s", self.folder, exc)
            self._set(ready=True, problem=f"The club's data on this tablet cannot be opened ({exc}).")
            return False
        return True

    def _sleep(self) -> float:
        pending = [w for w in self.state.waiting if not w.done]
        if not self.state.joined or not pending:
            return self.poll_s
        due = min(w.next_try for w in pending) - self.clock()
        return max(0.05, min(self.poll_s, due))

    def _send(self) -> None:
        box = self._outbox
        if box is None or not box.server:
            self._set()
            return
        with self._lock:
            grown, self._grown = self._grown, set()
        for path in grown:
            if Path(path).exists():
                box.add(Path(path))
        try:
            box.send_due()
        except Exception:   # a journal that cannot be read: kept, the rest go on
            log.exception("club: sending failed")
        # Both coaches' word on a journal whose signed result the outbox dropped (the match went on
        # after they confirmed): asked again at the next final whistle.
        signed = {w.path for w in box.waiting() if w.result}
        both = {path for path, _side in self.state.agreed
                if all((path, s) in self.state.agreed for s in SIDES)}
        stale = {path for path in both - signed if any(w.path == path for w in box.waiting())}
        if stale:
            self._set(agreed=frozenset(a for a in self.state.agreed if a[0] not in stale))
            return
        self._set()

    def _set(self, **changes: Any) -> None:
        box = self._outbox
        if box is not None:
            changes.setdefault("joined", bool(box.server))
            changes.setdefault("server", box.server)
            changes.setdefault("name", box.name)
            changes.setdefault("waiting", tuple(box.waiting()))
        state = replace(self.state, **changes)
        if state != self.state:   # news only: a screen rebuilt every poll would flicker for nothing
            self.state = state
            self._post(state)

    def _join(self, link: str, name: str) -> None:
        name = " ".join(name.split()) or "Table"
        self._set(busy="Joining the club...", problem="")
        problem = ""
        try:
            server, token = parse_join_link(link)
            if self._outbox is None and not self._open():
                problem = self.state.problem
            else:
                self._outbox.join(server, token, name)
        except (TouchlineError, ValueError) as exc:
            problem = join_problem(exc)
        self._set(busy="", problem=problem, pairing=None, joins=self.state.joins + 1)
        if not problem:
            self._look_for_pairing()

    def _rename(self, name: str) -> None:
        name = " ".join(name.split())
        box = self._outbox
        problem = ""
        if box is None or not box.server:
            problem = "This tablet is in no club: join one first."
        elif not name:
            problem = "Give this tablet's name at the club (for example: Table 3)."
        else:
            try:
                box.rename(name)
            except Unreachable:
                problem = (f"The club cannot be reached: this tablet is still called \"{box.name}\". Try again when "
                           f"it is on the club's network.")
            except RefusedByClub as exc:
                problem = f"The club refused the new name: {exc.reason}."
            except ClubError as exc:
                problem = f"Could not rename this tablet: {exc}."
        self._set(rename_problem=problem, renames=self.state.renames + 1)
        if not problem:
            self._look_for_pairing()   # the pairings at a table are found by its name

    def _leave(self) -> None:
        if self._outbox is not None:
            self._outbox.leave()
        self._set(problem="", pairing=None, agreed=frozenset())

    def _agree(self, journal: str, side: str) -> None:
        if side not in SIDES or self._outbox is None or not self._outbox.server:
            return
        agreed = self.state.agreed | {(journal, side)}
        self._set(agreed=agreed, problem="")
        if all((journal, s) in agreed for s in SIDES):
            try:
                self._outbox.confirm(Path(journal))
            except TouchlineError as exc:
                self._set(problem=f"The result could not be signed: {exc}")

    def _look_for_pairing(self) -> None:
        box = self._outbox
        if box is None or not box.server or not box.name:
            self._set(pairing=None)
            return
        client = ClubClient(box.server, box.key, self.transport)
        details = []
        # Seasons and cups, then Swiss tournaments: each read alone, so a club without one kind
        # (or a page that fails) still gives the other.
        for listing, key in (("/seasons", "season"), ("/swiss", "tournament")):
            try:
                found = client.read(listing)
                items = found.get("seasons" if key == "season" else "tournaments", [])
                details += [client.read(f"{listing}/{item[key]}") for item in items
                            if isinstance(item, dict) and key in item]
            except (ClubError, KeyError, TypeError, ValueError) as exc:   # a quiet miss: Home shows nothing
                log.info("club: no pairing from %s (%s)", listing, exc)
        try:
            pairing = next_pairing(details, box.name)
        except (KeyError, TypeError, ValueError) as exc:   # a page of another shape: nothing shown
            log.info("club: no next pairing (%s)", exc)
            pairing = None
        self._set(pairing=pairing)
