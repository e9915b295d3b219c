"""The Fußball-Liga variant in the match report: one tick a turn (a pair of phases); the
movement points each side spent. A kick aimed into the goal is a shot; its goalkeeper's
save roll, a saved penalty, or the keeper taking the ball out of the air make it a save."""

from __future__ import annotations

from typing import Any, Iterable

from ..fussball_liga import events as ev
from ..fussball_liga import queries as q
from ..fussball_liga.model import Ask, LigaState, PenaltyCtx, SaveCtx, Where
from ..teams import PlayerRef
from . import common
from .engine import Recorder


class FussballLigaReport:
    game = "fussball_liga"
    unit = "turn"
    saves_known = True
    injuries_known = False
    high_is_lucky = True    # goal shots, interceptions and tackles all want high d6
    counters = ("attacking", "mp_spent_home", "mp_spent_away")

    def __init__(self) -> None:
        self._interceptors: set[PlayerRef] = set()   # who tried to intercept the kick in the air

    def holder(self, s: LigaState) -> PlayerRef | None:
        return s.ball.holder

    def figures(self, s: LigaState) -> Iterable[tuple[PlayerRef, tuple[int, int]]]:
        return [(p.ref, p.square) for p in s.players.values() if p.where is Where.PITCH and p.square is not None]

    def is_keeper(self, s: LigaState, ref: PlayerRef) -> bool:
        p = s.players.get(ref)
        return bool(p and (p.goalkeeper or p.stand_in))

    def new_tick(self, before: LigaState, after: LigaState, payload) -> bool:
        return isinstance(payload, ev.PhaseStarted) and after.turn_no != before.turn_no

    def tick_label(self, s: LigaState) -> tuple[int, str, str]:
        return s.turn_no, s.period.label, f"turn {s.turn_no}"

    def end_counters(self, s: LigaState, row: dict[str, Any]) -> None:
        pass

    def observe(self, p, before: LigaState, after: LigaState, rec: Recorder) -> None:
        shot = rec.current_shot()
        holder = after.ball.holder
        if shot is not None and holder is not None and holder != before.ball.holder and holder in self._interceptors \
                and holder.team is not shot.team and self.is_keeper(after, holder):
            rec.keeper_tested()  # the goalkeeper took the shot out of the air
        if isinstance(p, ev.InterceptionCalled):
            self._interceptors.add(p.player)
        elif isinstance(p, ev.PhaseStarted):
            rec.set_counter("attacking", p.attacking.value if p.attacking else "")
        elif isinstance(p, ev.KickTaken):
            self._interceptors = set()
            at_goal = p.receiver is None and q.pitch(after).goal_end(p.target) is not None
            kind = p.kind.replace("_", " ")
            rec.attempt("shot" if at_goal else "pass", p.player.team, p.player, kind if kind != "shot" else "kick")
        elif isinstance(p, ev.PenaltyTaken):
            rec.attempt("shot", p.kicker.team, p.kicker, "penalty kick")
        elif isinstance(p, ev.PendingOpened) and isinstance(p.item, Ask) and isinstance(p.item.ctx,
                                                                                       (SaveCtx, PenaltyCtx)):
            rec.keeper_tested()
        elif isinstance(p, ev.TackleCalled):
            rec.attempt("tackle", p.principal.team, p.principal, "tackle")
        elif isinstance(p, ev.FoulCommitted):
            common.foul(rec, p.player, p.player.team)
        elif isinstance(p, (ev.PlayerMoved, ev.BallMoved)):
            rec.counter(f"mp_spent_{p.player.team.value}", p.cost)
        elif isinstance(p, ev.GoalScored):
            common.goal(rec, p.team, p.scorer)
        elif isinstance(p, ev.CardShown):
            common.card(rec, p.player, p.colour, p.sent_off)
        elif isinstance(p, ev.SubstitutionMade):
            common.substitution(rec, p.off, p.on)
        elif isinstance(p, ev.PeriodStarted):
            common.period(rec, p.period.label)
        elif isinstance(p, ev.ShootoutKickResolved):
            rec.note(p.team, "shootout", f"shoot-out: {p.kicker} {'scores' if p.scored else 'misses'}")

    def goals(self, s: LigaState) -> list[dict[str, Any]]:
        out = []
        for g in s.goals:
            before = {"second_half": 1, "extra_first": 2, "extra_second": 3}.get(g.period.value, 0)
            half = s.options.half_minutes
            base = before * half if before <= 2 else 2 * half + (before - 2) * s.options.extra_half_minutes
            minute = base + int(g.clock_s // 60) + 1
            out.append({"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None,
                        "period": g.period.label, "when": f"{minute}' (turn {g.turn})", "minute": minute})
        return out
