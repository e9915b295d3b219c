"""The Fußball-Liga bars, phase stepper and player chips (pure Python; the scoreboard is the
look's, ui/looks/fussball_liga)."""

from __future__ import annotations

from datetime import UTC, datetime

from companion.fussball_liga.model import LigaState, Phase
from companion.view import Summary

from ..base import BarSpec, Chip
from .clocks import bar_specs

PHASES = ("toss", "line_up", "set_up", "shot", "movement")


class Panels:
    """The face's bars, stepper and chips."""

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

