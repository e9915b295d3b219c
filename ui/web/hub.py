"""Between whoever knows the match (a journal follower, or the app's controller) and the page's
viewers: the newest snapshot, built on the hub's own thread.

``offer_*`` only stores what it is given and wakes the builder, so the thread that offers (the
tablet's command worker, right after its journal append) never waits for SVG or JSON work. Each
snapshot is encoded once, as the server-sent event every viewer receives.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from datetime import UTC, datetime
from typing import Any, Callable, Sequence

from companion.events import Event
from companion.ruleset import Ruleset

from ..looks import Look, look_for
from .snapshot import Builder, RuleLink, Snapshot, problem_snapshot

log = logging.getLogger(__name__)

TICK_S = 1.0   # how often a game with a running clock has its clock line built again


def encode(snapshot: Snapshot) -> bytes:
    """The snapshot as one server-sent event."""
    data = json.dumps(snapshot.data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {snapshot.version}\nevent: state\ndata: {data}\n\n".encode("utf-8")


class Hub:
    def __init__(self, rule_link: RuleLink | None = None, looks: Callable[[str], Look] | None = None) -> None:
        if rule_link is None:   # the rules reference's sections, unless a test hands in its own
            from .reference_link import rule_link
        self.rule_link = rule_link
        self._looks = looks            # game -> look (by default the hub's own instance of each game's look)
        self._own_looks: dict[str, Look] = {}
        self._watchers: list[Callable[[], None]] = []
        self._cond = threading.Condition()
        self._version = 0
        self._snapshot = problem_snapshot(0, "Waiting for the match to start...")
        self._payload = encode(self._snapshot)
        self._offer: tuple | None = None     # the newest offer not built yet
        self._offer_lock = threading.Lock()  # an offer never lost between taking and clearing the slot
        self._last_input: tuple | None = None
        self._wake = threading.Event()
        self._stopping = False
        self._builders: dict[str, Builder] = {}
        self._thread = threading.Thread(target=self._run, name="touchline-web-hub", daemon=True)
        self._thread.start()

    # --- offers (any thread, cheap) ---------------------------------------------------------------
    def offer_match(self, ruleset: Ruleset, state: Any, log_lines: Sequence[str], last: Event | None,
                    error: str = "") -> None:
        with self._offer_lock:
            self._offer = ("match", ruleset, state, tuple(log_lines), last, error)
        self._wake.set()

    def offer_problem(self, message: str) -> None:
        with self._offer_lock:
            self._offer = ("problem", message)
        self._wake.set()

    # --- viewers -----------------------------------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def stopping(self) -> bool:
        return self._stopping

    def current(self) -> tuple[int, bytes]:
        with self._cond:
            return self._version, self._payload

    def watch(self, changed: Callable[[], None]) -> None:
        """Call ``changed()`` after each new snapshot and when the hub stops (on the hub's
        thread, or the stopping one: it must only hand the news on, as the server's
        ``call_soon_threadsafe`` does)."""
        with self._cond:
            self._watchers.append(changed)

    def unwatch(self, changed: Callable[[], None]) -> None:
        with self._cond:
            if changed in self._watchers:
                self._watchers.remove(changed)

    def _tell_watchers(self) -> None:
        with self._cond:
            watchers = list(self._watchers)
        for changed in watchers:
            try:
                changed()
            except Exception:   # a watcher gone (a server's loop closed) never stops the hub
                log.debug("a scoreboard watcher failed", exc_info=True)

    def wait_version(self, version: int, timeout: float) -> bool:
        """Block until a snapshot at least ``version`` exists (tests and benchmarks)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._version >= version, timeout)

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        with self._cond:
            self._cond.notify_all()
        self._tell_watchers()
        self._thread.join(timeout=2)

    # --- the builder thread -----------------------------------------------------------------------
    def _run(self) -> None:
        next_tick = time.monotonic() + TICK_S
        while not self._stopping:
            woke = self._wake.wait(max(0.0, next_tick - time.monotonic()))
            if self._stopping:
                return
            if woke:
                self._wake.clear()
                with self._offer_lock:
                    offer, self._offer = self._offer, None
                if offer is not None:
                    self._build(offer)
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + TICK_S
                if self._last_input is not None and self._ticking():
                    self._build(self._last_input, only_if_changed=True)

    def _ticking(self) -> bool:
        offer = self._last_input
        if offer is None or offer[0] != "match":
            return False
        builder = self._builders.get(offer[1].game)
        return builder is not None and bool(getattr(builder.look, "tick_s", None))

    def _look(self, game: str) -> Look:
        """The game's look: an instance of the hub's own, so the tablet's screen (which keeps
        caches on its face) and this thread never share one."""
        if self._looks is not None:
            return self._looks(game)
        look = self._own_looks.get(game)
        if look is None:
            look = self._own_looks[game] = look_for(game)
        return look

    def _build(self, offer: tuple, only_if_changed: bool = False) -> None:
        version = self._version + 1
        try:
            if offer[0] == "problem":
                snapshot = problem_snapshot(version, offer[1])
            else:
                _, ruleset, state, log_lines, last, error = offer
                builder = self._builders.get(ruleset.game)
                if builder is None or builder.ruleset is not ruleset:
                    builder = self._builders[ruleset.game] = Builder(ruleset, self._look(ruleset.game), self.rule_link)
                snapshot = builder.build(version, state, log_lines, last, datetime.now(UTC), error)
        except KeyError as exc:   # a game with no look on this Touchline
            snapshot = problem_snapshot(version, f"this Touchline cannot draw the match: {exc.args[0]}")
        except Exception as exc:  # never leave viewers on a stale page without saying why
            log.exception("the scoreboard could not be built")
            snapshot = problem_snapshot(version, f"the scoreboard could not be built ({exc})")
        self._last_input = offer
        if only_if_changed and _same(snapshot.data, self._snapshot.data):
            return
        payload = encode(snapshot)
        with self._cond:
            self._version = version
            self._snapshot, self._payload = snapshot, payload
            self._cond.notify_all()
        self._tell_watchers()


def _same(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k != "version"} == {k: v for k, v in b.items() if k != "version"}
