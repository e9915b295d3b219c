"""What the tablet and ``touchline replay`` show: the state as plain JSON, the requests the
rules core is waiting for (worded for the coaches), and the event log's lines."""

from __future__ import annotations

from typing import Any

from ..ruleset import Request
from ..teams import Team
from . import events as ev
from . import queries as q
from .clock import clock_text
from .lineup import lineup_problems
from .model import ACTIONS_PER_TURN, Corner, FutboardState, KickOff, Penalty, Phase, request_id
from .movement import must_leave_area
from .resolve import describe_test


def pending(s: FutboardState) -> tuple[Request, ...]:
    if not s.created:
        return (Request("setup", "action", None, "Create the match: teams, box data, variant, who starts with the "
                                                 "ball, and the time or the number of goals that ends it"),)
    if s.phase is Phase.OVER:
        return ()
    if s.queue:
        head = s.queue[0]
        return tuple(Request(request_id(head, i), "dice", t.team, describe_test(t), dice=t.dice)
                     for i, t in enumerate(head.tests) if t.result is None)
    out = _phase_requests(s)
    o = s.options
    if o.time_limit_min is not None and not s.clock.running and not s.time_up:
        out.append(Request("clock", "action", None, f"Start the match clock ({clock_text(s.clock.elapsed_s)} of "
                                                    f"{o.time_limit_min}:00 played)"))
    return tuple(out)


def _phase_requests(s: FutboardState) -> list[Request]:
    out: list[Request] = []
    r = s.restart
    if s.phase is Phase.LINEUP and isinstance(r, KickOff):
        for problem in lineup_problems(s):
            team = Team.HOME if problem.startswith(Team.HOME.label) else Team.AWAY
            out.append(Request(f"lineup_{team.value}", "action", team, problem))
        out.append(Request("kick_off", "action", r.team, f"{r.team.label}: kick off: the player with the ball in the "
                                                         f"centre circle passes to a teammate (the first action)"))
        return out
    if s.phase is Phase.CORNER and isinstance(r, Corner):
        slots = q.pitch(s).corners(q.attacked_end(r.team))
        out.append(Request("corner", "action", r.team, f"{r.team.label}: corner kick: put any of your players with "
                                                        f"the ball on a corner slot ({', '.join(map(str, slots))})"))
        return out
    if s.phase is Phase.PENALTY and isinstance(r, Penalty):
        leave = must_leave_area(s)
        if leave:
            out.append(Request("clear_area", "action", r.team.other,
                               f"{r.team.other.label}: penalty: move {', '.join(map(str, leave))} out of the area "
                               f"(following the movement rules)"))
        if r.kicker is None:
            spot = q.pitch(s).spot(q.attacked_end(r.team))
            out.append(Request("penalty_taker", "action", r.team, f"{r.team.label}: penalty: place one of your "
                                                                  f"players on the penalty spot {spot}"))
        return out
    if s.phase is Phase.PLAY and s.turn is not None:
        out.append(Request("turn", "action", s.turn, turn_text(s)))
    return out


def turn_text(s: FutboardState) -> str:
    team, n = s.turn, s.actions_left
    actions = f"{n} action{'s' if n != 1 else ''} left"
    c = s.restart if isinstance(s.restart, Corner) else None
    if c is not None and c.step == "defence":
        return f"{team.label}: corner kick: up to {n} more move{'s' if n != 1 else ''}, or end the turn"
    if c is not None and c.step == "attack" and s.ball == c.taker:
        return (f"{team.label}: corner kick, {actions}: {c.taker} must pass to one of your players (to the opposing "
                f"goalkeeper if none can receive it); no offside on this pass")
    if s.ball is not None and s.ball.team is team:
        must = "" if s.ball_moved else "; the ball must move this turn"
        return (f"{team.label}: {actions}: move a player, pass, kick to goal, or end the turn "
                f"({s.ball} has the ball{must})")
    return f"{team.label}: {actions}: move a player, try to take the ball from {s.ball}, or end the turn"


def placeholders(s: FutboardState) -> list[str]:
    if s.components is None:
        return []
    notes = list(s.components.placeholders())
    for team in (Team.HOME, Team.AWAY):
        roster = s.roster(team)
        if roster.placeholder or any(t.placeholder for t in roster.tiles):
            notes.append(f"{team.label} ({roster.name}): the tiles hold placeholder values; enter the printed ones in "
                         f"the box editor (the team's page)")
    return notes


def _restart_json(r) -> dict[str, Any] | None:
    if r is None:
        return None
    out: dict[str, Any] = {"kind": r.TAG, "team": r.team.value}
    if isinstance(r, Corner):
        out.update(taker=str(r.taker) if r.taker else None, step=r.step)
    if isinstance(r, Penalty):
        out.update(fouler=str(r.fouler), fouled=str(r.fouled), kicker=str(r.kicker) if r.kicker else None)
    return out


def summary(s: FutboardState) -> dict[str, Any]:
    if not s.created:
        return {"game": "futboard", "created": False, "pending": [r.to_json() for r in pending(s)]}
    o = s.options
    players = []
    for p in sorted(s.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
        t = p.tile
        players.append({
            "player": str(p.ref), "name": t.name, "position": t.position.value, "where": p.where.value,
            "space": list(p.space) if p.space is not None else None, "yellow_cards": p.yellow,
            "sent_off": p.where.value == "sent_off", "moved_this_turn": p.ref in s.moved, "has_ball": s.ball == p.ref,
            "tile": {"movement": t.movement, "dribble": t.dribble, "pass_ruler": t.pass_ruler,
                     "accuracy": t.accuracy, "strength": t.strength, "foul": t.foul, "defence": t.defence},
        })
    ball_space = s.players[s.ball].space if s.ball is not None else None
    result = None
    if s.result is not None:
        r = s.result
        result = {"winner": r.winner.value if r.winner else None, "home": r.home, "away": r.away,
                  "decided_by": r.decided_by}
    return {
        "game": "futboard",
        "variant": o.variant.value,
        "teams": {"home": s.home.name, "away": s.away.name},
        "score": {"home": s.score[Team.HOME], "away": s.score[Team.AWAY]},
        "limits": {"time_min": o.time_limit_min, "goals": o.goal_limit},
        "clock": {"running": s.clock.running, "elapsed_s": round(s.clock.elapsed_s, 3), "since": s.clock.since,
                  "text": clock_text(s.clock.elapsed_s)},
        "time_up": s.time_up,
        "phase": s.phase.value,
        "round": s.round,
        "turn_no": s.turn_no,
        "turn": s.turn.value if s.turn else None,
        "actions_left": s.actions_left,
        "actions_per_turn": ACTIONS_PER_TURN,
        "ball_moved_this_turn": s.ball_moved,
        "ball": {"carrier": str(s.ball) if s.ball else None,
                 "space": list(ball_space) if ball_space is not None else None},
        "restart": _restart_json(s.restart),
        "fouls": {"home": s.fouls[Team.HOME], "away": s.fouls[Team.AWAY]},
        "goals": [{"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None, "how": g.how,
                   "turn": g.turn} for g in s.goals],
        "cards": [{"player": str(b.player), "colour": "yellow", "yellow_cards": b.yellow_cards,
                   "sent_off": b.sent_off, "turn": b.turn} for b in s.bookings],
        "players": players,
        "last_outcome": s.last_outcome,
        "pending": [r.to_json() for r in pending(s)],
        "placeholders": placeholders(s),
        "result": result,
    }


def log_line(before: FutboardState, payload) -> str | None:
    """A line for the tablet's event log, or None for bookkeeping nobody reads."""
    if isinstance(payload, ev.ContestResolved):
        return payload.outcome
    if isinstance(payload, ev.PlayerMoved):
        how = "" if payload.action else " (out of the area)"
        spaces = "space" if payload.steps == 1 else "spaces"
        return f"{payload.player} moves {payload.start} -> {payload.to}, {payload.steps} {spaces}{how}"
    if isinstance(payload, ev.BallPassed):
        return f"{payload.passer} passes to {payload.receiver} ({payload.marks:g} ruler marks)"
    if isinstance(payload, ev.KickTaken):
        return f"{payload.kicker} kicks to goal from {payload.space}"
    if isinstance(payload, ev.TakeAttempted):
        return f"{payload.player} tries to take the ball from {payload.carrier}"
    if isinstance(payload, ev.KickOffTaken):
        return f"--- Round {before.round + 1}: {payload.team.label} kicks off ({payload.player}) ---"
    if isinstance(payload, ev.TurnStarted):
        return f"{payload.team.label}'s turn ({payload.actions} actions): {payload.reason}"
    if isinstance(payload, ev.FoulCommitted):
        where = " inside the area: PENALTY" if payload.penalty else ""
        return f"Foul by {payload.fouler} on {payload.fouled}{where}"
    if isinstance(payload, ev.CardShown):
        return f"Yellow card: {payload.player}" + (" (second yellow: sent off)" if payload.sent_off else "")
    if isinstance(payload, ev.GoalScored):
        who = f" ({payload.scorer})" if payload.scorer else ""
        return f"GOAL for {payload.team.label}{who}" + (", from the penalty spot" if payload.how == "penalty" else "")
    if isinstance(payload, ev.SubstitutionMade):
        return f"Substitution: {payload.off} off, {payload.on} on"
    if isinstance(payload, ev.RestartSet) and isinstance(payload.restart, Corner) and payload.restart.step == "place":
        return f"Corner kick for {payload.restart.team.label}"
    if isinstance(payload, ev.BallSet) and payload.reason in ("corner taker", "penalty taker"):
        return f"{payload.carrier} is the {payload.reason}"
    if isinstance(payload, ev.ClockStarted):
        return f"Clock started ({clock_text(before.clock.elapsed_s)} played)"
    if isinstance(payload, ev.ClockPaused):
        return f"Clock stopped: {payload.reason}" if payload.reason else "Clock paused"
    if isinstance(payload, ev.TimeUpCalled):
        return f"Time is up ({clock_text(payload.elapsed_s)})"
    if isinstance(payload, ev.MatchEnded):
        r = payload.result
        return f"Final: {r.home}-{r.away}" + (f", {r.winner.label} win ({r.decided_by})" if r.winner else
                                              f" (draw, {r.decided_by})")
    if isinstance(payload, ev.FigurePlaced) and payload.correction:
        return f"Correction: {payload.player} placed on {payload.space}"
    return None
