"""What the tablet and ``touchline replay`` show: the state as plain JSON, and the requests
the rules core is waiting for, worded for the coaches."""

from __future__ import annotations

from typing import Any

from ..ruleset import Request
from ..teams import Team
from . import events as ev
from . import queries as q
from .flow import follow_up_player
from .model import Choice, Control, LigaState, Phase, RestartKind, SetupStep, request_id
from .movement import defender_allowance, remaining
from .resolve import describe_ask
from .timing import clock_readings


def pending(s: LigaState) -> tuple[Request, ...]:
    if not s.created:
        return (Request("setup", "action", None, "Create the match: teams, box data, options"),)
    if s.phase is Phase.OVER:
        return ()
    if s.queue:
        head = s.queue[0]
        if isinstance(head, Choice):
            return (Request(request_id(head), "choice", head.team, head.question, options=head.options),)
        return (Request(request_id(head), "dice", head.team, describe_ask(head), dice=head.dice),)
    return tuple(_phase_requests(s))


def _phase_requests(s: LigaState) -> list[Request]:
    r = s.restart
    att = s.attacking
    if s.phase is Phase.LINE_UP and r is not None:
        return [Request("kick_off", "action", r.team,
                        f"{r.team.label}: place the figures in their own halves (no defender in or touching the centre "
                        f"circle) and kick off: a pass of up to {q.limits(s).max_kick_off} squares from a square "
                        f"touching the ball to a teammate")]
    if s.phase is Phase.SET_UP and r is not None:
        if r.kind is RestartKind.PENALTY:
            return [Request("penalty", "action", r.team,
                            f"Penalty-kick for {r.team.label}: place the figures (only the goalkeeper and the kicker in "
                            f"the penalty area or on the penalty circle; no defender in the attacker's end); "
                            f"{r.team.other.label} puts the goalkeeper on goal square 1-4; then take the penalty")]
        mover = r.team.other if r.step is SetupStep.DEFENDER else r.team
        rule = (f"keep {q.limits(s).setup_distance} squares from the ball" if mover is not r.team
                else f"one player into position for the {r.kind.label}")
        return [Request("set_up", "action", mover,
                        f"{r.kind.label.capitalize()} for {r.team.label}: {mover.label} re-positions (up to "
                        f"{q.limits(s).setup_mp_per_player} points a player; {rule}), then passes")]
    if s.phase is Phase.SHOT:
        if s.flight is not None:
            f = s.flight
            return [Request("intercept", "action", f.kicker.team.other,
                            f"{f.kicker.team.other.label}: the ball flies {f.origin} -> {f.target}: call an interception "
                            f"attempt (a defender in or next to a square of its path) or let it go")]
        if r is not None:
            return [Request("restart_kick", "action", r.team, f"{r.team.label}: take the {r.kind.label}")]
        if s.holding is not None and s.hold_turn < s.turn_no:
            return [Request("drop_kick", "action", att, f"{att.label}: the goalkeeper drops the ball to a free square "
                                                        f"next to him and kicks it")]
        follower = follow_up_player(s)
        if s.kicked and follower is not None:
            return [Request("follow_up", "action", att, f"{att.label}: {q.label(follower, s)} may move the ball on "
                                                        f"with a follow-up (up to {q.limits(s).max_follow_up} squares), "
                                                        f"or pass")]
        h = s.ball.holder
        if s.ball.control is Control.HANDS:
            return [Request("keeper", "action", att, f"{att.label}: {q.label(h, s)} has the ball in his hands: kick it, "
                                                     f"let a teammate next to it kick it, or hold it for a turn")]
        return [Request("shoot", "action", att, f"{att.label}: shot phase: {q.label(h, s)} may shoot or pass "
                                                f"(or pass the phase)")]
    if s.phase is Phase.MOVEMENT:
        m = s.movement
        team = m.turn
        if team is att:
            text = (f"{att.label}: movement step ({remaining(s, att)} of {q.limits(s).mp_per_side} points left): move "
                    f"one player, or pass" + (" (ends the step)" if m.attacker_moved else " (moves no more players)"))
        else:
            text = (f"{team.label}: movement step: up to {defender_allowance(s)} points now"
                    + (" (the last step)" if m.attacker_done else "") + "; move players, try a dribbling interception, "
                    "or pass")
        return [Request("move", "action", team, text)]
    if s.phase is Phase.SHOOTOUT:
        return [Request("shootout", "action", att, f"{att.label}: choose the next penalty taker (the other "
                                                   f"goalkeeper on goal square 1-4)")]
    return []


def placeholders(s: LigaState) -> list[str]:
    if s.components is None:
        return []
    notes = s.components.placeholders(s.options)
    for team in (Team.HOME, Team.AWAY):
        roster = s.roster(team)
        if roster.placeholder:
            notes.append(f"{team.label} ({roster.name}) is an invented team: names"
                         + (" and bonus characteristics" if s.options.bonus_points else "") + " are placeholders; "
                         "enter your own in the box editor (the team's page)")
    return notes


def _sq(sq) -> list[int] | None:
    return list(sq) if sq is not None else None


def summary(s: LigaState) -> dict[str, Any]:
    if not s.created:
        return {"game": "fussball_liga", "created": False, "pending": [r.to_json() for r in pending(s)]}
    players = []
    for p in sorted(s.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
        bonus = p.card.bonus
        players.append({
            "player": str(p.ref), "name": p.card.name, "where": p.where.value, "square": _sq(p.square),
            "goalkeeper": p.goalkeeper, "stand_in_goalkeeper": p.stand_in, "fouls": p.fouls,
            "yellow_cards": p.yellow, "sent_off": p.sent_off, "substituted": p.substituted,
            "moved_points": s.movement.by_player.get(p.ref, 0),
            "bonus": ({"kind": bonus.kind, "form": bonus.form, "points": bonus.points,
                       "left": bonus.points - p.pool_used if bonus.form == "pool" else None}
                      if bonus is not None and s.options.bonus_points else None),
        })
    ball = s.ball
    m = s.movement
    r = s.restart
    f = s.flight
    movement = None
    if s.phase is Phase.MOVEMENT:
        movement = {"spent": {t.value: m.spent[t] for t in (Team.HOME, Team.AWAY)},
                    "per_side": q.limits(s).mp_per_side, "per_player": q.limits(s).mp_per_player,
                    "turn": m.turn.value if m.turn else None, "moving": str(m.current) if m.current else None,
                    "attacker_done": m.attacker_done, "defender_may_spend": defender_allowance(s),
                    "committed": [str(x) for x in m.committed]}
    result = None
    if s.result is not None:
        res = s.result
        result = {"winner": res.winner.value if res.winner else None, "home": res.home, "away": res.away,
                  "decided_by": res.decided_by}
        if res.points_home is not None:
            result["points"] = {"home": res.points_home, "away": res.points_away}
    shootout = None
    if s.shootout_first is not None:
        shootout = {t.value: sum(1 for k in s.shootout if k.team is t and k.scored) for t in (Team.HOME, Team.AWAY)}
        shootout["first"] = s.shootout_first.value
        shootout["kicks"] = [{"team": k.team.value, "kicker": str(k.kicker), "scored": k.scored} for k in s.shootout]
    o = s.options
    return {
        "game": "fussball_liga",
        "teams": {"home": s.home.name, "away": s.away.name},
        "score": {"home": s.score[Team.HOME], "away": s.score[Team.AWAY]},
        "period": s.period.value,
        "half": s.period.label,
        "turn": s.turn_no,
        "phase": s.phase.value,
        "attacking": s.attacking.value if s.attacking else None,
        "ends": {"home": s.end_of(Team.HOME), "away": s.end_of(Team.AWAY)},
        "clock": clock_readings(s),
        "ball": {"square": _sq(ball.square), "holder": str(ball.holder) if ball.holder else None,
                 "control": ball.control.value if ball.control else None,
                 "no_touch": str(ball.no_touch) if ball.no_touch else None},
        "kick": ({"kicker": str(f.kicker), "origin": _sq(f.origin), "target": _sq(f.target),
                  "path": [list(x) for x in f.path], "kind": f.kind,
                  "receiver": str(f.receiver) if f.receiver else None,
                  "attempts": [{"player": str(a.player), "square": list(f.path[a.index])} for a in f.attempts]}
                 if f is not None else None),
        "restart": ({"kind": r.kind.value, "team": r.team.value, "spot": _sq(r.spot), "step": r.step.value}
                    if r is not None else None),
        "holding": str(s.holding) if s.holding else None,
        "movement": movement,
        "substitutions_used": {"home": s.subs_used[Team.HOME], "away": s.subs_used[Team.AWAY]},
        "goals": [{"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None, "period": g.period.value,
                   "turn": g.turn, "clock_s": g.clock_s} for g in s.goals],
        "cards": [{"player": str(b.player), "colour": "yellow-red" if b.sent_off else b.colour, "reason": b.reason,
                   "sent_off": b.sent_off, "period": b.period.value, "turn": b.turn} for b in s.bookings],
        "fouls": [{"player": str(x.player), "square": list(x.spot), "period": x.period.value, "turn": x.turn}
                  for x in s.fouls],
        "players": players,
        "options": {"half_minutes": o.half_minutes, "phase_limit": o.phase_limit.value,
                    "phase_seconds": o.phase_seconds, "extra_time": o.extra_time, "golden_goal": o.golden_goal,
                    "shootout": o.shootout, "tournament": o.tournament,
                    "optional_rules": [name for name in ("goalkeeper_save", "taking_a_pass", "goal_posts",
                                                         "bonus_points") if getattr(o, name)]},
        "tournament": tournament(s) if o.tournament else None,
        "last_outcome": s.last_outcome,
        "pending": [x.to_json() for x in pending(s)],
        "placeholders": placeholders(s),
        "shootout": shootout,
        "result": result,
    }


def tournament(s: LigaState) -> dict[str, Any]:
    """Yellow cards carried over within a tournament round: a player booked here who was
    booked in an earlier match of the round may not be fielded in the next match."""
    booked = sorted({b.player for b in s.bookings}, key=lambda r: (r.team.value, r.number))
    carried = set(s.options.carried_yellows)
    return {"carried_yellows": [str(r) for r in s.options.carried_yellows],
            "suspended_this_match": [str(r) for r in s.options.suspended],
            "booked_this_match": [str(r) for r in booked],
            "suspended_next_match": [str(r) for r in booked if r in carried],
            "yellow_carried_over": [str(r) for r in booked if r not in carried]}


def log_line(before: LigaState, payload) -> str | None:
    """A line for the tablet's event log, or None for bookkeeping events nobody reads."""
    if isinstance(payload, ev.RollResolved):
        return payload.outcome
    if isinstance(payload, ev.KickTaken):
        what = payload.kind.replace("_", " ")
        to = f" to {payload.receiver}" if payload.receiver else ""
        return f"{payload.player}: {what} {payload.origin} -> {payload.target}{to}"
    if isinstance(payload, ev.InterceptionCalled):
        return f"{payload.player} tries to intercept in {payload.square}"
    if isinstance(payload, ev.TackleCalled):
        sup = f" (supported by {', '.join(map(str, payload.supporters))})" if payload.supporters else ""
        return f"{payload.principal} tries a dribbling interception{sup}" + (", fair play" if payload.fair_play else "")
    if isinstance(payload, ev.PlayerMoved) and before.phase is Phase.MOVEMENT:
        return f"{payload.player} moves to {payload.path[-1]} ({payload.cost} points)"
    if isinstance(payload, ev.GoalScored):
        who = f" ({payload.scorer})" if payload.scorer else ""
        return f"GOAL for {payload.team.label}{who}"
    if isinstance(payload, ev.CardShown):
        return f"{'Yellow-red' if payload.sent_off else 'Yellow'} card: {payload.player} ({payload.reason})" + (
            ", sent off" if payload.sent_off else "")
    if isinstance(payload, ev.FoulCommitted):
        return f"Foul by {payload.player} (his foul no. {payload.fouls})"
    if isinstance(payload, ev.OffsideGiven):
        return f"Off-side: {payload.player} at {payload.square}"
    if isinstance(payload, ev.RestartSet) and payload.restart is not None and before.restart is None:
        return f"{payload.restart.kind.label.capitalize()} for {payload.restart.team.label} ({payload.reason})"
    if isinstance(payload, ev.PeriodStarted):
        return f"--- {payload.period.label} ---"
    if isinstance(payload, ev.PeriodEnded):
        return f"End of the {payload.period.label} ({payload.reason})"
    if isinstance(payload, ev.PhaseStarted) and payload.turn != before.turn_no and payload.phase is Phase.SHOT:
        return f"Turn {payload.turn}: {payload.attacking.label} attacks"
    if isinstance(payload, ev.ClockPaused):
        return f"Clock stopped: {payload.reason}" if payload.reason else "Clock stopped"
    if isinstance(payload, ev.ClockResumed):
        return "Clock started again"
    if isinstance(payload, ev.TimeUp):
        return f"Time up ({payload.kind}" + (f", {payload.team.label}" if payload.team else "") + ")"
    if isinstance(payload, ev.SubstitutionMade):
        return f"Substitution: {payload.off} off, {payload.on} on" + (" (goalkeeper)" if payload.goalkeeper else "")
    if isinstance(payload, ev.GoalkeeperNamed):
        return f"{payload.player} goes in goal"
    if isinstance(payload, ev.MatchEnded):
        res = payload.result
        return f"Final: {res.home}-{res.away}" + (f", {res.winner.label} win ({res.decided_by})" if res.winner else
                                                  " (draw)")
    if isinstance(payload, ev.FigurePlaced) and payload.correction:
        return f"Correction: {payload.player} placed at {payload.square}"
    return None
