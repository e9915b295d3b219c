"""Fublet in the match report: one tick a round; MP earned and spent and the round pace."""

from __future__ import annotations

from typing import Any, Iterable

from ..fublet import events as ev
from ..fublet.model import Contest, Choice, EngagementCtx, FoulChoiceCtx, FubletState, HandlingCtx, SaveCtx, Where
from ..teams import PlayerRef
from . import common
from .engine import Recorder


class FubletReport:
    game = "fublet"
    unit = "round"
    saves_known = True
    injuries_known = True
    high_is_lucky = False   # skill tests succeed at or under the skill: low percentiles help
    counters = ("round_pace", "mp_earned_home", "mp_spent_home", "mp_earned_away", "mp_spent_away")

    def holder(self, s: FubletState) -> PlayerRef | None:
        return s.ball.carrier

    def figures(self, s: FubletState) -> Iterable[tuple[PlayerRef, tuple[int, int]]]:
        return [(p.ref, p.ms) for p in s.players.values() if p.where is Where.PITCH and p.ms is not None]

    def new_tick(self, before: FubletState, after: FubletState, payload) -> bool:
        return isinstance(payload, ev.PhaseStarted) and after.round != before.round and after.round > 0

    def tick_label(self, s: FubletState) -> tuple[int, str, str]:
        return s.round, s.period.label, f"{s.match_minute}'"

    def end_counters(self, s: FubletState, row: dict[str, Any]) -> None:
        pass

    def observe(self, p, before: FubletState, after: FubletState, rec: Recorder) -> None:
        if isinstance(p, ev.ActionDeclared):
            d = p.declaration
            how = d.action.label.lower()
            if d.penalty_kick:
                how = "penalty kick"
            elif d.restart is not None:
                how += f" ({d.restart.label})"
            if d.action.is_pass:
                rec.attempt("pass", d.team, d.player, how)
            elif d.action.is_shot:
                rec.attempt("shot", d.team, d.player, how)
        elif isinstance(p, ev.PendingOpened):
            item = p.item
            if isinstance(item, Contest) and isinstance(item.ctx, (SaveCtx, HandlingCtx)):
                rec.keeper_tested()
            elif isinstance(item, Contest) and isinstance(item.ctx, EngagementCtx):
                carrier = before.ball.carrier
                tackler = next((t for t in item.tests if t.team is not None and carrier is not None
                                and t.team is not carrier.team), None)
                if tackler is not None:
                    rec.attempt("tackle", tackler.team, tackler.player, "tackle")
            elif isinstance(item, Choice) and isinstance(item.ctx, FoulChoiceCtx):
                fouler = item.ctx.fouler
                common.foul(rec, fouler, fouler.team if fouler else item.team.other)
        elif isinstance(p, ev.GoalScored):
            common.goal(rec, p.team, p.scorer)
        elif isinstance(p, ev.CardShown):
            common.card(rec, p.player, p.colour, p.sent_off)
        elif isinstance(p, ev.PlayerInjured):
            common.injury(rec, p.player)
        elif isinstance(p, ev.SubstitutionMade):
            common.substitution(rec, p.off, p.on)
        elif isinstance(p, ev.PeriodStarted):
            common.period(rec, p.period.label)
        elif isinstance(p, ev.MpChanged) and p.delta:
            side = p.team.value
            rec.counter(f"mp_earned_{side}" if p.delta > 0 else f"mp_spent_{side}", abs(p.delta))
        elif isinstance(p, ev.PaceSet):
            rec.set_counter("round_pace", p.pace)
        elif isinstance(p, ev.ShootoutKickResolved):
            rec.note(p.team, "shootout", f"shoot-out: {p.kicker} {'scores' if p.scored else 'misses'}")

    def goals(self, s: FubletState) -> list[dict[str, Any]]:
        return [{"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None, "period": g.period.label,
                 "when": f"{g.minute}'", "minute": g.minute} for g in s.goals]  # already the match minute
