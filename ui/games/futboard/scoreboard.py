"""Futboard's bars, phase stepper and player chips, and the tablet's clock: the match clock
read as of now, and "time is up" proposed when it runs out (pure Python)."""

from __future__ import annotations

import logging
import math
from datetime import datetime
from typing import Any

from companion.futboard import commands as c
from companion.futboard.model import ACTIONS_PER_TURN, Phase, Where
from companion.teams import Team
from companion.view import Summary

from ...looks.futboard import mmss
from ..base import TEAM_BAR, BarSpec, Chip

log = logging.getLogger(__name__)

STEPS = ("line-up", "action 1", "action 2", "action 3", "corner kick", "penalty", "full time")
TIME_UP_RETRY_S = 5.0    # a refused or lost "time is up" is proposed again after this long


class Panels:
    """The face's bars, stepper, chips and ``tick`` (the scoreboard is the look's)."""

    def bars(self, summary: Summary) -> list[BarSpec]:
        out = []
        turn = summary.turn
        team = turn.team if turn is not None else None
        n = (turn.actions_left or 0) if team is not None else 0
        per = (turn.actions_per_turn if turn is not None else None) or ACTIONS_PER_TURN
        out.append(BarSpec(f"{team.label + ' actions' if team else 'Actions'} {n}/{per}", n, per,
                           TEAM_BAR[team] if team else (0.5, 0.5, 0.5, 1)))
        w = summary.clock.match
        if w is not None and w.limit_s:
            left = w.left_at(self.now()) or 0.0
            out.append(BarSpec(f"Time left {mmss(math.ceil(left))}", left, w.limit_s, (0.3, 0.8, 0.45, 1)))
        if summary.goal_limit:
            for t in (Team.HOME, Team.AWAY):
                out.append(BarSpec(f"{t.label} {summary.goals(t)} of {summary.goal_limit} goals",
                                   summary.goals(t), summary.goal_limit, TEAM_BAR[t]))
        return out

    def stepper(self, state: Any, summary: Summary) -> tuple[tuple[str, ...], str]:
        phase = state.phase
        if phase is Phase.PLAY:
            used = max(1, ACTIONS_PER_TURN - state.actions_left + 1)
            return STEPS, f"action {min(used, ACTIONS_PER_TURN)}"
        return STEPS, {Phase.LINEUP: "line-up", Phase.CORNER: "corner kick", Phase.PENALTY: "penalty",
                       Phase.OVER: "full time"}[phase]

    def chips(self, state: Any) -> list[Chip]:
        self._learn_state(state)
        out = []
        for p in sorted(state.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
            if p.where is Where.RESERVE:
                continue
            # Y per yellow card, R sent off, ? on the field but not placed, ~ moved this turn.
            mark = "Y" * p.yellow + ("R" if p.where is Where.OFF else "")
            mark += "?" if p.on_field and p.space is None else ""
            mark += "~" if p.ref in state.moved else ""
            out.append(Chip(p.ref, f"{p.ref.number}{mark}", enabled=p.on_field))
        return out

    # --- the clock ---------------------------------------------------------------------------------------
    def tick(self, screen: Any, view: Any, now: datetime) -> None:
        """Refresh the time bar; propose "time is up" once the tablet's clock reaches the limit."""
        s = view.state
        if not s.created or s.options.time_limit_min is None:
            return
        screen.build_bars(view.summary)
        if s.time_up or s.phase is Phase.OVER or not s.clock.running:
            return
        if s.clock.elapsed_at(now) < s.options.time_limit_min * 60:
            return
        last = self._time_up_at
        if last is not None and (now - last).total_seconds() < TIME_UP_RETRY_S:
            return
        self._time_up_at = now
        # Straight to the controller: the coach may be in the middle of a mode.
        screen.controller.submit(c.CallTimeUp(now))
        if hasattr(screen, "time_up"):
            screen.time_up()

