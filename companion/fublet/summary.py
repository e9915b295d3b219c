"""What the tablet and ``touchline replay`` show: the state as plain JSON, and the requests
the rules core is waiting for, worded for the coaches."""

from __future__ import annotations

from typing import Any

from ..ruleset import Request
from ..teams import Team
from . import events as ev
from . import queries as q
from .model import Choice, FubletState, Phase, RoundKind, request_id
from .resolve import describe_test
from .restarts import blockers
from .setup import picker


def pending(s: FubletState) -> tuple[Request, ...]:
    if not s.created:
        return (Request("setup", "action", None, "Create the match: teams, components, options"),)
    out: list[Request] = []
    if s.queue:
        head = s.queue[0]
        if isinstance(head, Choice):
            out.append(Request(f"c{head.id}", "choice", head.team, head.question, options=head.options))
        else:
            for i, t in enumerate(head.tests):
                if t.result is None:
                    out.append(Request(request_id(head, i), "dice", t.team, describe_test(s, t), dice=t.dice))
        return tuple(out)
    out.extend(_phase_requests(s))
    return tuple(out)


def _phase_requests(s: FubletState) -> list[Request]:
    phase = s.phase
    if phase is Phase.BOARD_PICK:
        team = picker(s)
        return [Request("board", "action", team, f"{team.label}: choose a tactical board")]
    if phase is Phase.KICK_OFF and s.restart is not None:
        team = s.restart.team
        return [Request("kick_off", "action", team, f"{team.label}: place the figures in their own halves and kick "
                                                    f"off to a teammate in your midfield zone")]
    if phase is Phase.RESTART and s.restart is not None:
        waiting = blockers(s)
        if waiting:
            return [Request(f"restart{i}", "action", team, text) for i, (team, text) in enumerate(waiting)]
        return [Request("declare", "action", s.restart.team, f"{s.restart.team.label}: take the "
                                                             f"{s.restart.kind.label} (declare an action)")]
    if phase is Phase.DECLARATION and s.ball.carrier is not None:
        c = s.ball.carrier
        return [Request("declare", "action", c.team, f"{c.team.label}: {q.label(c, s)} has the ball: declare an "
                                                     f"action")]
    if phase in (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT):
        if s.round_kind is RoundKind.TRANSITION and s.pace == 0:
            return [Request("reach_ball", "action", None, "Transition round: say who reaches the loose ball "
                                                          "(or place the figures and the ball)")]
        who = s.turn.label if s.turn else "Either coach"
        kind = "zone movement" if s.round_kind is RoundKind.TRANSITION and phase is Phase.MOVEMENT else (
            "movement" if phase is Phase.MOVEMENT else "tactical movement")
        return [Request("move", "action", s.turn, f"{who}: make a {kind} (round pace {s.pace}, zone {s.zone_pace}) "
                                                  f"or pass")]
    if phase is Phase.SHOOTOUT and s.turn is not None:
        return [Request("shootout", "action", s.turn, f"{s.turn.label}: choose the next penalty taker")]
    return []


def placeholders(s: FubletState) -> list[str]:
    if s.components is None:
        return []
    notes = list(s.components.placeholders())
    for team in (Team.HOME, Team.AWAY):
        roster = s.home if team is Team.HOME else s.away
        if roster is not None and (roster.placeholder or any(c.placeholder for c in roster.players)):
            notes.append(f"{team.label} ({roster.name}): player cards hold placeholder skill values; enter the printed "
                         f"ones in the box editor (the team's page)")
    return notes


def summary(s: FubletState) -> dict[str, Any]:
    if not s.created:
        return {"game": "fublet", "created": False, "pending": [r.to_json() for r in pending(s)]}
    ball = s.ball
    players = []
    for p in sorted(s.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
        players.append({
            "player": str(p.ref), "name": p.card.name, "where": p.where.value, "status": p.status.value,
            "ms": list(p.ms) if p.ms is not None else None, "goalkeeper": p.goalkeeper,
            "yellow_cards": p.yellow, "red_card": p.red, "sent_off": p.sent_off, "injured": p.injured,
            "substituted": p.substituted, "stunned_until_round": p.stunned_until or None,
        })
    result = None
    if s.result is not None:
        r = s.result
        result = {"winner": r.winner.value if r.winner else None, "home": r.home, "away": r.away,
                  "decided_by": r.decided_by}
        if r.points_home is not None:
            result["points"] = {"home": r.points_home, "away": r.points_away}
    shootout = None
    if s.shootout or s.shootout_first:
        shootout = {t.value: sum(1 for k in s.shootout if k.team is t and k.scored) for t in (Team.HOME, Team.AWAY)}
        shootout["kicks"] = [{"team": k.team.value, "kicker": str(k.kicker), "scored": k.scored} for k in s.shootout]
    return {
        "game": "fublet",
        "teams": {"home": s.home.name, "away": s.away.name},
        "score": {"home": s.score[Team.HOME], "away": s.score[Team.AWAY]},
        "period": s.period.value,
        "half": s.period.label,
        "minute": s.minute,
        "match_minute": s.match_minute,
        "time_up": s.time_up,
        "round": s.round,
        "round_kind": s.round_kind.value if s.round_kind else None,
        "phase": s.phase.value,
        "attacking": s.attacking.value if s.attacking else None,
        "round_pace": s.pace,
        "zone_pace": s.zone_pace,
        "mp": {"home": s.mp[Team.HOME], "away": s.mp[Team.AWAY]},
        "tactical_boards": {t.value: b for t, b in s.boards.items()},
        "ball": {"carrier": str(ball.carrier) if ball.carrier else None,
                 "ps": list(ball.ps) if ball.ps is not None else None,
                 "flight": ball.flight.value if ball.flight else None},
        "restart": ({"kind": s.restart.kind.value, "team": s.restart.team.value,
                     "taker": str(s.restart.taker) if s.restart.taker else None} if s.restart else None),
        "substitutions_used": {"home": s.subs_used[Team.HOME], "away": s.subs_used[Team.AWAY]},
        "goals": [{"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None, "minute": g.minute,
                   "period": g.period.value} for g in s.goals],
        "cards": [{"player": str(b.player), "colour": b.colour, "sent_off": b.sent_off, "minute": b.minute,
                   "period": b.period.value} for b in s.bookings],
        "players": players,
        "last_outcome": s.last_outcome,
        "pending": [r.to_json() for r in pending(s)],
        "placeholders": placeholders(s),
        "shootout": shootout,
        "result": result,
    }


def log_line(state_before: FubletState, payload) -> str | None:
    """A line for the tablet's event log, or None for bookkeeping events nobody reads."""

    if isinstance(payload, ev.ContestResolved):
        return payload.outcome
    if isinstance(payload, ev.ActionDeclared):
        d = payload.declaration
        target = d.target_ps or d.target_ms
        return f"{d.team.label}: #{d.player.number} declares {d.action.label.lower()}" + (f" to {target}" if target else "")
    if isinstance(payload, ev.GoalScored):
        who = f" (#{payload.scorer.number})" if payload.scorer else ""
        return f"GOAL for {payload.team.label}{who}"
    if isinstance(payload, ev.CardShown):
        sent = ", sent off" if payload.sent_off else ""
        return f"{payload.colour.capitalize()} card: {payload.player}{sent}"
    if isinstance(payload, ev.PlayerInjured):
        return f"{payload.player} is injured (rolled {payload.result})"
    if isinstance(payload, ev.SubstitutionMade):
        return f"Substitution: {payload.off} off" + (f", {payload.on} on" if payload.on else " (no substitute left)")
    if isinstance(payload, ev.PeriodStarted):
        return f"--- {payload.period.label} ---"
    if isinstance(payload, ev.PhaseStarted) and payload.round != state_before.round:
        if payload.round_kind is RoundKind.TRANSITION:
            return f"Round {payload.round} (transition: nobody has the ball)"
        return f"Round {payload.round}"
    if isinstance(payload, ev.RestartSet) and payload.restart is not None and state_before.restart is None:
        return f"{payload.restart.kind.label.capitalize()} for {payload.restart.team.label} ({payload.reason})"
    if isinstance(payload, ev.PaceSet):
        return f"Round pace {payload.pace} (zone {payload.zone_pace})"
    if isinstance(payload, ev.MpChanged) and payload.delta:
        sign = "+" if payload.delta > 0 else ""
        return f"{payload.team.label} MP {sign}{payload.delta} = {payload.total} ({payload.reason})"
    if isinstance(payload, ev.MatchEnded):
        r = payload.result
        return f"Final: {r.home}-{r.away}" + (f", {r.winner.label} win ({r.decided_by})" if r.winner else " (draw)")
    if isinstance(payload, ev.FigurePlaced) and payload.correction:
        return f"Correction: {payload.player} placed at {payload.ms}"
    return None
