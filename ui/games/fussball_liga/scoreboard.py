"""The Fußball-Liga scoreboard, bars, phase stepper and player chips (pure Python)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from companion.fussball_liga.model import LigaState, Phase

from ..base import BarSpec, Chip, Scoreboard
from companion.view import clock_of

from .clocks import bar_specs, mmss

PHASES = ("toss", "line_up", "set_up", "shot", "movement")


class Panels:
    """The face's scoreboard, bars, stepper and chips."""

    def scoreboard(self, summary: dict[str, Any], now: datetime | None = None) -> Scoreboard:
        if not summary.get("created", True) or "score" not in summary:
            return Scoreboard("Fußball-Liga", "", "")
        teams, score = summary["teams"], summary["score"]
        shoot = summary.get("shootout")
        pens = f"  ({shoot['home']}-{shoot['away']} pens)" if shoot else ""
        text = f"{teams['home']}  {score['home']} - {score['away']}  {teams['away']}{pens}"
        clock = clock_of(summary)
        half = clock.period
        w = clock.match
        if w is not None and w.limit_s:
            time = mmss(min(w.elapsed_at(now), w.limit_s))
            if clock.time_up:
                time += " up"
            elif clock.paused:
                time += " paused"
            when = f"{time}  {half}"
        else:
            when = half
        phase = summary.get("phase", "")
        result = summary.get("result")
        if result is not None:
            how = result["decided_by"]
            line = f"Final {result['home']}-{result['away']} ({how})"
        elif phase in ("shot", "movement"):
            att = summary.get("attacking") or ""
            line = f"Turn {summary.get('turn', 0)}: {att.capitalize()} attacks, {phase} phase"
        else:
            line = phase.replace("_", "-")
            if summary.get("restart"):
                rs = summary["restart"]
                line = f"{rs['kind'].replace('_', ' ').capitalize()} for {rs['team'].capitalize()}: {line}"
        return Scoreboard(text, when, line)

    def bars(self, summary: dict[str, Any]) -> list[BarSpec]:
        return bar_specs(summary, datetime.now(UTC))

    def stepper(self, state: LigaState, summary: dict[str, Any]) -> tuple[tuple[str, ...], str]:
        phase = state.phase.value
        extra = (phase,) if phase not in PHASES else ()
        return PHASES + extra, phase

    def chips(self, state: LigaState) -> list[Chip]:
        out = []
        moving = state.phase is Phase.MOVEMENT
        for p in sorted(state.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
            if p.where.value == "bench" or (p.substituted and not p.sent_off):
                continue
            mark = "~" if moving and p.ref in state.movement.by_player else ""
            mark += "Y" * p.yellow + ("R" if p.sent_off else "")
            mark += "?" if p.on_pitch and p.square is None else ""
            out.append(Chip(p.ref, f"{p.ref.number}{mark}", enabled=p.on_pitch))
        return out

