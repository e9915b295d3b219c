"""The Fußball-Liga clocks on the tablet: the half's real-time clock and the phase timer(s)
read as of now (``companion.view.GameClock``), the time-up calls due, and the bars that show
them (pure Python). The
tablet is the game's clock: the face calls "time up" itself (``Clocks.tick``)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from companion.fussball_liga import commands as c
from companion.fussball_liga.clock import Instant
from companion.teams import Team
from companion.view import Counter, Summary

from ...looks.fussball_liga import mmss
from ..base import TEAM_BAR, BarSpec

log = logging.getLogger(__name__)

TIMER = (0.95, 0.8, 0.2, 1)
LATE = (0.95, 0.35, 0.2, 1)


def expired(summary: Summary, now: datetime) -> list[tuple[str, Team | None]]:
    """The time-up calls due now: ("half", None), ("phase", None) for the egg timer, or
    ("phase", team) for a coach's chess clock; never one the rules have already taken."""
    return summary.clock.expired(now)


def bar_specs(summary: Summary, now: datetime | None) -> list[BarSpec]:
    """Each side's movement points left, what the defender may spend now, the phase timer
    (egg timer or each coach's chess clock) and the half's clock."""
    out = []
    for team in (Team.HOME, Team.AWAY):
        mp = summary.counter("mp", team) or Counter(18, 18)   # no movement phase: all 18 left
        per_side = mp.maximum or 18
        out.append(BarSpec(f"{team.label} MP {mp.value}/{per_side}", mp.value, per_side, TEAM_BAR[team]))
    may = summary.counter("defender_mp")
    per_side = (summary.counter("mp", Team.HOME) or Counter(18, 18)).maximum or 18
    out.append(BarSpec(f"Defender MP {may.value if may else 0}", may.value if may else 0, per_side,
                       (0.6, 0.6, 0.65, 1)))
    clock = summary.clock
    if clock.phase is not None:
        w = clock.phase
        left = w.left_at(now) or 0.0
        caption = "Time up!" if clock.phase_time_up else f"Timer {left:.0f} s"
        out.append(BarSpec(caption, left, w.limit_s or 1, LATE if left < 10 else TIMER))
    elif clock.chess:
        for team in (Team.HOME, Team.AWAY):
            w = clock.chess_of(team)
            left = (w.left_at(now) if w is not None else None) or 0.0
            limit = w.limit_s if w is not None else None
            out.append(BarSpec(f"{team.label} clock {left:.0f} s", left, limit or 1, LATE if left < 10 else TIMER))
    else:
        out.append(BarSpec("No time limit", 0, 1))
    half = clock.match
    if half is not None and half.limit_s:
        shown = min(half.elapsed_at(now), half.limit_s)
        out.append(BarSpec(f"Half {mmss(shown)}", shown, half.limit_s, (0.55, 0.8, 0.95, 1)))
    elif summary.over:
        out.append(BarSpec("Full time", 1, 1, (0.55, 0.8, 0.95, 1)))
    else:
        out.append(BarSpec("Half not started", 0, 1, (0.55, 0.8, 0.95, 1)))
    return out



class Clocks:
    """The face's ``tick``: time-up calls made once per expiry."""

    def tick(self, screen: Any, view: Any, now: datetime) -> None:
        """The tablet is the game's clock: show the running clocks, and call time up once for
        each expiry (the rules check the reading against their own fold)."""
        summary: Summary = view.summary
        clock = summary.clock
        for kind, team in clock.expired(now):
            key = (kind, team, clock.as_of)
            if key in self._sent:
                continue
            self._sent.add(key)
            log.info("time up: %s%s", kind, f" ({team.label})" if team else "")
            screen.controller.submit(c.CallTimeUp(kind, Instant.of(now), team))
            if hasattr(screen, "time_up"):
                screen.time_up()
        screen.build_bars(summary)

