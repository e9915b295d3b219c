"""The Fußball-Liga scoreboard, bars, phase stepper and player chips (pure Python)."""

from __future__ import annotations

from datetime import UTC, datetime

from companion.fussball_liga.model import LigaState, Phase

from ..base import BarSpec, Chip, Scoreboard, scoreline
from companion.view import Summary

from .clocks import bar_specs, mmss

PHASES = ("toss", "line_up", "set_up", "shot", "movement")


class Panels:
    """The face's scoreboard, bars, stepper and chips."""

    def scoreboard(self, summary: Summary, now: datetime | None = None) -> Scoreboard:
        if not summary.created:
            return Scoreboard("Fußball-Liga", "", "")
        shoot = summary.shootout
        pens = f"  ({shoot[0]}-{shoot[1]} pens)" if shoot is not None else ""
        text = scoreline(summary) + pens
        clock = summary.clock
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
        phase = summary.phase
        result = summary.result
        if result is not None:
            line = f"Final {result.home}-{result.away} ({result.decided_by})"
        elif phase in ("shot", "movement"):
            turn = summary.turn
            att = turn.team.label if turn is not None and turn.team is not None else ""
            line = f"Turn {turn.number if turn else 0}: {att} attacks, {phase} phase"
        else:
            line = phase.replace("_", "-")
            rs = summary.restart
            if rs is not None:
                line = f"{rs.kind.replace('_', ' ').capitalize()} for {rs.team.label}: {line}"
        return Scoreboard(text, when, line)

    def bars(self, summary: Summary) -> list[BarSpec]:
        return bar_specs(summary, datetime.now(UTC))

    def stepper(self, state: LigaState, summary: Summary) -> tuple[tuple[str, ...], str]:
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

