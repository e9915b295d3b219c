"""Futboard's scoreboard, bars, phase stepper and player chips, and the tablet's clock: the
match clock read as of now, and "time is up" proposed when it runs out (pure Python)."""

from __future__ import annotations

import logging
import math
from datetime import datetime
from typing import Any

from companion.futboard import commands as c
from companion.futboard.model import ACTIONS_PER_TURN, Phase, Where
from companion.teams import Team
from companion.view import clock_of

from ..base import TEAM_BAR, BarSpec, Chip, Scoreboard

log = logging.getLogger(__name__)

STEPS = ("line-up", "action 1", "action 2", "action 3", "corner kick", "penalty", "full time")
TIME_UP_RETRY_S = 5.0    # a refused or lost "time is up" is proposed again after this long


def _mmss(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _team(value: str | None) -> Team | None:
    return Team(value) if value else None



class Panels:
    """The face's scoreboard, bars, stepper, chips and ``tick``."""

    def scoreboard(self, summary: dict[str, Any], now: datetime | None = None) -> Scoreboard:
        teams, score = summary.get("teams", {}), summary.get("score", {})
        board = f"{teams.get('home', 'Home')}  {score.get('home', 0)} - {score.get('away', 0)}  " \
                f"{teams.get('away', 'Away')}"
        limits = summary.get("limits") or {}
        clock = clock_of(summary)
        w = clock.match
        if w is not None and w.limit_s:
            state = "" if w.running or clock.time_up else "  (stopped)"
            clock_text = f"{_mmss(min(w.elapsed_at(now), w.limit_s))} / {_mmss(w.limit_s)}{state}"
        else:
            clock_text = f"Turn {summary.get('turn_no', 0)}"
        if limits.get("goals"):
            clock_text += f"   first to {limits['goals']}"
        return Scoreboard(board, clock_text, self.phase_line(summary))

    @staticmethod
    def phase_line(summary: dict[str, Any]) -> str:
        """One short line: what the match is waiting for."""
        phase = summary.get("phase", "")
        restart = summary.get("restart") or {}
        side = (_team(restart.get("team")) or Team.HOME).label
        street = "Street: " if summary.get("variant") == "street" else ""
        if phase == "over":
            result = summary.get("result") or {}
            winner = _team(result.get("winner"))
            return f"Full time: {winner.label} win" if winner else "Full time: a draw"
        if phase == "lineup":
            return f"{street}Line-up, {side} kicks off"
        if phase == "corner":
            return f"Corner kick for {side}"
        if phase == "penalty":
            return f"Penalty for {side}"
        turn = _team(summary.get("turn"))
        if turn is None:
            return f"{street}Round {summary.get('round', 0)}"
        n = summary.get("actions_left", 0)
        corner = " (corner)" if restart.get("kind") == "corner" else ""
        return f"{street}{turn.label}'s turn{corner}: {n} of {summary.get('actions_per_turn', ACTIONS_PER_TURN)} " \
               f"actions left"

    def bars(self, summary: dict[str, Any]) -> list[BarSpec]:
        out = []
        turn = _team(summary.get("turn"))
        n = summary.get("actions_left", 0) if turn is not None else 0
        per = summary.get("actions_per_turn", ACTIONS_PER_TURN)
        out.append(BarSpec(f"{turn.label + ' actions' if turn else 'Actions'} {n}/{per}", n, per,
                           TEAM_BAR[turn] if turn else (0.5, 0.5, 0.5, 1)))
        limits = summary.get("limits") or {}
        w = clock_of(summary).match
        if w is not None and w.limit_s:
            total = w.limit_s
            left = w.left_at(self.now()) or 0.0
            out.append(BarSpec(f"Time left {_mmss(math.ceil(left))}", left, total, (0.3, 0.8, 0.45, 1)))
        if limits.get("goals"):
            score = summary.get("score", {})
            for team in (Team.HOME, Team.AWAY):
                out.append(BarSpec(f"{team.label} {score.get(team.value, 0)} of {limits['goals']} goals",
                                   score.get(team.value, 0), limits["goals"], TEAM_BAR[team]))
        return out

    def stepper(self, state: Any, summary: dict[str, Any]) -> tuple[tuple[str, ...], str]:
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

