"""Football Leader in the match report: one tick a turn; the action cards each coach played
and has left (deck and hand). Its shots succeed or fail on one roll against a difficulty
that already counts the goalkeeper, so the journal cannot tell a save from a miss."""

from __future__ import annotations

from typing import Any, Iterable

from ..football_leader import events as ev
from ..football_leader.model import FootballLeaderState, FoulCheckCtx, Roll, Where
from ..teams import PlayerRef
from . import common
from .engine import Recorder


class FootballLeaderReport:
    game = "football_leader"
    unit = "turn"
    saves_known = False
    injuries_known = False
    high_is_lucky = True    # 2d12 plus a characteristic against a difficulty: high helps
    counters = ("team", "cards_played_home", "cards_played_away", "cards_left_home", "cards_left_away")

    def __init__(self) -> None:
        self._foul_checks: dict[int, FoulCheckCtx] = {}

    def holder(self, s: FootballLeaderState) -> PlayerRef | None:
        return s.ball

    def figures(self, s: FootballLeaderState) -> Iterable[tuple[PlayerRef, tuple[int, int]]]:
        return [(p.ref, tuple(p.space)) for p in s.players.values() if p.where is Where.PITCH and p.space is not None]

    def new_tick(self, before, after, payload) -> bool:
        return isinstance(payload, ev.TurnStarted)

    def tick_label(self, s: FootballLeaderState) -> tuple[int, str, str]:
        return s.turns, s.period.label, f"turn {s.turns}"

    def end_counters(self, s: FootballLeaderState, row: dict[str, Any]) -> None:
        for team, book in s.cards.items():
            row[f"cards_left_{team.value}"] = book.deck + book.hand

    def observe(self, p, before: FootballLeaderState, after: FootballLeaderState, rec: Recorder) -> None:
        if isinstance(p, ev.TurnStarted):
            rec.set_counter("team", p.team.value)
        elif isinstance(p, ev.PassDeclared):
            rec.attempt("pass", p.passer.team, p.passer, "pass")
        elif isinstance(p, ev.ShotDeclared):
            rec.attempt("shot", p.shooter.team, p.shooter, "")
        elif isinstance(p, ev.TackleDeclared):
            rec.attempt("tackle", p.tackler.team, p.tackler, "hard tackle" if p.hard else "tackle")
        elif isinstance(p, ev.CardPlayed):
            rec.counter(f"cards_played_{p.team.value}")
            shot = rec.current_shot()
            if shot is not None and not shot.how:
                shot.how = p.purpose
        elif isinstance(p, ev.PendingOpened) and isinstance(p.item, Roll) and isinstance(p.item.ctx, FoulCheckCtx):
            self._foul_checks[p.item.id] = p.item.ctx
        elif isinstance(p, ev.RollResolved) and p.id in self._foul_checks:
            ctx = self._foul_checks.pop(p.id)
            # The foul check's outcome reads "Foul check N: foul[, CARD]" or "...: nothing happens".
            if p.outcome.partition(":")[2].strip().startswith("foul"):
                common.foul(rec, ctx.tackler, ctx.tackler.team)
        elif isinstance(p, ev.GoalScored):
            common.goal(rec, p.team, p.scorer)
        elif isinstance(p, ev.CardShown):
            common.card(rec, p.player, p.colour, p.sent_off)
        elif isinstance(p, ev.PlayerReplaced):
            common.substitution(rec, p.off, p.on)
        elif isinstance(p, ev.PeriodStarted):
            common.period(rec, p.period.label)
        elif isinstance(p, ev.ShootoutKickResolved):
            rec.note(p.team, "shootout", f"shoot-out: {p.kicker} {'scores' if p.scored else 'misses'}")

    def goals(self, s: FootballLeaderState) -> list[dict[str, Any]]:
        return [{"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None, "period": g.period.label,
                 "when": f"turn {g.turn}", "minute": None} for g in s.goals]
