"""Typed readings of a game's summary for the screens: the game clock.

A ruleset's ``summary(state)`` is plain JSON for the report, the web scoreboard and
``touchline replay``; the tablet reads the same facts typed, through ``clock_of``, the one
place that knows how each game spells its clock. The four games' clocks:

* Fublet: no running clock; the match minute follows the rounds (``minute``).
* Football Leader: no clock at all; a half lasts as long as the decks.
* Futboard: one match clock against a time limit (``match``), or none for a goal limit.
* Fußball-Liga: the half's clock (``match``), and the phase limit: one egg timer
  (``phase``) or each coach's chess clock (``chess``); the tablet calls time up itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .events import parse_time
from .teams import Team


@dataclass(frozen=True, slots=True)
class Watch:
    """One clock as of the last clock event: ``elapsed_s`` then, and since ``since`` when it
    runs; ``limit_s`` its limit (None: it only counts)."""

    elapsed_s: float = 0.0
    limit_s: float | None = None
    running: bool = False
    since: datetime | None = None

    def elapsed_at(self, now: datetime | None) -> float:
        """Its reading at ``now`` (the reading as of the last event when ``now`` is None)."""
        if self.running and self.since is not None and now is not None:
            return self.elapsed_s + max(0.0, (now - self.since).total_seconds())
        return self.elapsed_s

    def left_at(self, now: datetime | None) -> float | None:
        return None if self.limit_s is None else max(0.0, self.limit_s - self.elapsed_at(now))

    def runs_out_by(self, now: datetime) -> bool:
        """Running, with a limit, and reached it by ``now``."""
        return self.running and bool(self.limit_s) and self.elapsed_at(now) >= self.limit_s

    def __repr__(self) -> str:
        since = f", since={self.since.isoformat()!r}" if self.since is not None else ""
        return f"Watch({self.elapsed_s!r}, limit_s={self.limit_s!r}, running={self.running!r}{since})"


@dataclass(frozen=True, slots=True)
class GameClock:
    """A match's clock as the screens show it. ``period`` is the period's words ("1st half"),
    ``minute`` a match minute counted by the rules (Fublet's rounds); ``match`` the clock the
    match or half runs against, ``phase`` the Liga's egg timer, ``chess`` each coach's chess
    clock; ``time_up`` the match's (or half's) time is up, ``phase_time_up`` the phase's."""

    period: str = ""
    minute: int | None = None
    match: Watch | None = None
    phase: Watch | None = None
    chess: tuple[tuple[Team, Watch], ...] = ()
    time_up: bool = False
    phase_time_up: bool = False
    paused: bool = False
    as_of: str | None = None          # the instant of the clock reading (the Liga's last clock event)

    @property
    def real_time(self) -> bool:
        """Some clock here runs in real time (the tablet refreshes and may call time up)."""
        return self.match is not None or self.phase is not None or bool(self.chess)

    def chess_of(self, team: Team) -> Watch | None:
        return next((w for t, w in self.chess if t is team), None)

    def expired(self, now: datetime) -> list[tuple[str, Team | None]]:
        """The Liga's time-up calls due at ``now``: ("half", None), ("phase", None) for the egg
        timer, ("phase", team) for a coach's chess clock; never one already taken."""
        due: list[tuple[str, Team | None]] = []
        if self.match is not None and not self.time_up and self.match.runs_out_by(now):
            due.append(("half", None))
        if self.phase_time_up:
            return due
        if self.phase is not None and self.phase.runs_out_by(now):
            due.append(("phase", None))
        for team, watch in sorted(self.chess, key=lambda tw: tw[0].value):
            if watch.runs_out_by(now):
                due.append(("phase", team))
        return due


def _time(value: Any) -> datetime | None:
    return parse_time(value) if isinstance(value, str) and value else None


def _watch(raw: Mapping[str, Any], since: Any = None, limit_s: float | None = None) -> Watch:
    limit = raw.get("limit_s", limit_s)
    return Watch(float(raw.get("elapsed_s") or 0.0), float(limit) if limit else None, bool(raw.get("running")),
                 _time(since if since is not None else raw.get("since")))


def clock_of(summary: Mapping[str, Any]) -> GameClock:
    """The clock in a game's JSON summary, typed."""
    period = str(summary.get("half") or "")
    raw = summary.get("clock")
    if not isinstance(raw, Mapping):
        minute = summary.get("match_minute")
        return GameClock(period=period, minute=int(minute) if isinstance(minute, (int, float)) else None,
                         time_up=bool(summary.get("time_up")))
    if "half" in raw or "phase_limit" in raw:   # the Fußball-Liga: half, egg timer or chess clocks
        as_of = raw.get("as_of")
        half = raw.get("half")
        phase = raw.get("phase")
        chess = raw.get("chess") or {}
        return GameClock(period=period, match=_watch(half, as_of) if isinstance(half, Mapping) else None,
                         phase=_watch(phase, as_of) if isinstance(phase, Mapping) else None,
                         chess=tuple((Team(t), _watch(w, as_of)) for t, w in sorted(chess.items())),
                         time_up=bool(raw.get("half_time_up")), phase_time_up=bool(raw.get("phase_time_up")),
                         paused=bool(raw.get("paused")), as_of=as_of)
    limits = summary.get("limits") or {}        # Futboard: one match clock against a time limit
    minutes = limits.get("time_min")
    return GameClock(period=period, match=_watch(raw, limit_s=minutes * 60.0 if minutes else None),
                     time_up=bool(summary.get("time_up")))
