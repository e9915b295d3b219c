"""The Fußball-Liga clocks on the tablet: the half's real-time clock and the phase timer(s)
read as of now, the time-up calls due, and the bars that show them (pure Python). The
tablet is the game's clock: the face calls "time up" itself (``Clocks.tick``)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from companion.fussball_liga import commands as c
from companion.fussball_liga.clock import Instant
from companion.teams import Team

from ..base import TEAM_BAR, BarSpec

log = logging.getLogger(__name__)

TIMER = (0.95, 0.8, 0.2, 1)
LATE = (0.95, 0.35, 0.2, 1)


def _elapsed(watch: dict, as_of: str | None, now: datetime | None) -> float:
    """A clock's reading now: the reading at the last event plus the time since, if running."""
    value = float(watch.get("elapsed_s") or 0.0)
    if watch.get("running") and as_of and now is not None:
        value += max(0.0, Instant.of(now).seconds_since(Instant.parse(as_of)))
    return value


def readings(summary: dict, now: datetime | None) -> dict[str, Any]:
    """The half's clock and the phase timer(s) as of ``now``: {"half": (elapsed, limit, running),
    "phase": (...), or "chess": {team: (...)}}."""
    clock = summary.get("clock") or {}
    as_of = clock.get("as_of")
    out: dict[str, Any] = {}
    half = clock.get("half")
    if half is not None:
        out["half"] = (_elapsed(half, as_of, now), half.get("limit_s"), bool(half.get("running")))
    if "phase" in clock:
        w = clock["phase"]
        out["phase"] = (_elapsed(w, as_of, now), w.get("limit_s"), bool(w.get("running")))
    if "chess" in clock:
        out["chess"] = {t: (_elapsed(w, as_of, now), w.get("limit_s"), bool(w.get("running")))
                        for t, w in clock["chess"].items()}
    return out


def expired(summary: dict, now: datetime) -> list[tuple[str, Team | None]]:
    """The time-up calls due now: ("half", None), ("phase", None) for the egg timer, or
    ("phase", team) for a coach's chess clock; never one the rules have already taken."""
    clock = summary.get("clock") or {}
    r = readings(summary, now)
    due: list[tuple[str, Team | None]] = []
    value, limit, running = r.get("half", (0.0, None, False))
    if running and limit and not clock.get("half_time_up") and value >= limit:
        due.append(("half", None))
    if clock.get("phase_time_up"):
        return due
    if "phase" in r:
        value, limit, running = r["phase"]
        if running and limit and value >= limit:
            due.append(("phase", None))
    for team, (value, limit, running) in sorted(r.get("chess", {}).items()):
        if running and limit and value >= limit:
            due.append(("phase", Team(team)))
    return due


def mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"

def bar_specs(summary: dict[str, Any], now: datetime | None) -> list[BarSpec]:
    """Each side's movement points left, what the defender may spend now, the phase timer
    (egg timer or each coach's chess clock) and the half's clock."""
    out = []
    mv = summary.get("movement")
    per_side = (mv or {}).get("per_side", 18)
    spent = (mv or {}).get("spent", {"home": 0, "away": 0})
    for team in (Team.HOME, Team.AWAY):
        left = per_side - spent.get(team.value, 0)
        out.append(BarSpec(f"{team.label} MP {left}/{per_side}", left, per_side, TEAM_BAR[team]))
    att = summary.get("attacking")
    if mv is not None and att:
        may = mv.get("defender_may_spend", 0)
        out.append(BarSpec(f"Defender MP {may}", may, per_side, (0.6, 0.6, 0.65, 1)))
    else:
        out.append(BarSpec("Defender MP 0", 0, per_side, (0.6, 0.6, 0.65, 1)))
    r = readings(summary, now)
    clock = summary.get("clock") or {}
    if "phase" in r:
        value, limit, _running = r["phase"]
        left = max(0.0, (limit or 0) - value)
        caption = "Time up!" if clock.get("phase_time_up") else f"Timer {left:.0f} s"
        out.append(BarSpec(caption, left, limit or 1, LATE if left < 10 else TIMER))
    elif "chess" in r:
        for team in (Team.HOME, Team.AWAY):
            value, limit, _running = r["chess"][team.value]
            left = max(0.0, (limit or 0) - value)
            out.append(BarSpec(f"{team.label} clock {left:.0f} s", left, limit or 1, LATE if left < 10 else TIMER))
    else:
        out.append(BarSpec("No time limit", 0, 1))
    if "half" in r and r["half"][1]:
        value, limit, _running = r["half"]
        out.append(BarSpec(f"Half {mmss(min(value, limit))}", min(value, limit), limit, (0.55, 0.8, 0.95, 1)))
    else:
        out.append(BarSpec("Half not started", 0, 1, (0.55, 0.8, 0.95, 1)))
    return out



class Clocks:
    """The face's ``tick``: time-up calls made once per expiry."""

    def tick(self, screen: Any, view: Any, now: datetime) -> None:
        """The tablet is the game's clock: show the running clocks, and call time up once for
        each expiry (the rules check the reading against their own fold)."""
        summary = view.summary
        as_of = (summary.get("clock") or {}).get("as_of")
        for kind, team in expired(summary, now):
            key = (kind, team, as_of)
            if key in self._sent:
                continue
            self._sent.add(key)
            log.info("time up: %s%s", kind, f" ({team.label})" if team else "")
            screen.controller.submit(c.CallTimeUp(kind, Instant.of(now), team))
            if hasattr(screen, "time_up"):
                screen.time_up()
        screen.build_bars(summary)

