"""Futboard in the match report: one tick a turn (three actions); the actions each turn
used. A kick at goal or a penalty is a shot; one that is not a goal after the goalkeeper
rolls for (his number came up, or the same number sent it for a corner) is a save."""

from __future__ import annotations

from typing import Any, Iterable

from ..futboard import events as ev
from ..futboard.model import FutboardState, PenaltyKickCtx, Where
from ..teams import PlayerRef
from . import common
from .engine import Recorder



class FutboardReport:
    game = "futboard"
    unit = "turn"
    saves_known = True
    injuries_known = False
    high_is_lucky = False   # kicks hit and takes succeed on low faces
    counters = ("team", "actions_used")

    def holder(self, s: FutboardState) -> PlayerRef | None:
        return s.ball

    def figures(self, s: FutboardState) -> Iterable[tuple[PlayerRef, tuple[int, int]]]:
        return [(p.ref, p.space) for p in s.players.values() if p.where is Where.FIELD and p.space is not None]

    def new_tick(self, before, after, payload) -> bool:
        return isinstance(payload, ev.TurnStarted)

    def tick_label(self, s: FutboardState) -> tuple[int, str, str]:
        return s.turn_no, f"round {s.round}", f"turn {s.turn_no}"

    def end_counters(self, s: FutboardState, row: dict[str, Any]) -> None:
        row["actions_used"] = max(0, row.pop("actions", 0) - s.actions_left)

    def observe(self, p, before: FutboardState, after: FutboardState, rec: Recorder) -> None:
        if isinstance(p, ev.TurnStarted):
            rec.set_counter("team", p.team.value)
            rec.set_counter("actions", p.actions)
        elif isinstance(p, ev.BallPassed):
            rec.attempt("pass", p.passer.team, p.passer, "pass")
        elif isinstance(p, ev.KickTaken):
            rec.attempt("shot", p.kicker.team, p.kicker, "kick")
        elif isinstance(p, ev.TakeAttempted):
            rec.attempt("tackle", p.player.team, p.player, "take the ball")
        elif isinstance(p, ev.PendingOpened) and isinstance(p.item.ctx, PenaltyKickCtx):
            kicker = p.item.ctx.kicker
            rec.attempt("shot", kicker.team, kicker, "penalty")
        elif isinstance(p, ev.DiceRolled):
            shot = rec.current_shot()
            if shot is not None and rec.roll_team is shot.team.other:  # the goalkeeper had to roll
                rec.keeper_tested()
        elif isinstance(p, ev.FoulCommitted):
            common.foul(rec, p.fouler, p.fouler.team)
        elif isinstance(p, ev.CardShown):
            common.card(rec, p.player, "yellow", p.sent_off)
        elif isinstance(p, ev.GoalScored):
            common.goal(rec, p.team, p.scorer)
        elif isinstance(p, ev.SubstitutionMade):
            common.substitution(rec, p.off, p.on)

    def goals(self, s: FutboardState) -> list[dict[str, Any]]:
        return [{"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None, "period": "",
                 "when": f"turn {g.turn}", "minute": None, "how": g.how} for g in s.goals]
