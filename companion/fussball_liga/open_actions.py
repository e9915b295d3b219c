"""What each coach may do now, for the tablet's buttons (``Ruleset.open_actions``).

Written from the same conditions the handlers refuse by: the phase, the restart's set-up
step (``restarts.setup_mover``), the kick on its way, the follow-up (``flow.follow_up_player``),
the movement step's turn, and the match clock. tests/test_open_actions.py plays whole matches
and checks that the two agree.

Ids: "kick_off", "place" (a figure placed freely: line-up, penalty), "substitute", "penalty",
"set_up" (a re-positioning move) and "set_up_done", "intercept" and "let_go", "kick" (``kind``:
restart, drop, follow_up, keeper or shot), "hold", "pass", "move", "move_ball", "tackle",
"misconduct", "shootout"; for either coach (``team`` None) "pause_clock", "resume_clock",
"time_up".
"""

from __future__ import annotations

from ..ruleset import OpenAction
from ..teams import Team
from . import commands as c
from . import flow
from . import queries as q
from .model import Control, LigaState, Phase, RestartKind
from .movement import defender_allowance, remaining
from .restarts import setup_mover, setup_problems

BOTH = (Team.HOME, Team.AWAY)


def open_actions(s: LigaState) -> tuple[OpenAction, ...]:
    out = list(_clock(s))
    if s.queue:
        return tuple(out)
    r = s.restart
    att = s.attacking
    phase = s.phase
    if phase in (Phase.LINE_UP, Phase.SET_UP):
        out.extend(OpenAction("substitute", t, c.Substitute) for t in BOTH if s.subs_used[t] < s.options.max_substitutions)
    if phase is Phase.LINE_UP and r is not None:
        out.append(OpenAction("kick_off", r.team, c.Kick, (("kind", "kick_off"),)))
        out.extend(OpenAction("place", t, c.Move) for t in BOTH)
    elif phase is Phase.SET_UP and r is not None and r.kind is RestartKind.PENALTY:
        out.append(OpenAction("penalty", r.team, c.TakePenalty))
        out.extend(OpenAction("place", t, c.Move) for t in BOTH)
    elif phase is Phase.SET_UP and r is not None:
        mover = setup_mover(s)
        if mover is not None:
            out.append(OpenAction("set_up", mover, c.Move))
            if not setup_problems(s, r, mover):
                out.append(OpenAction("set_up_done", mover, c.PassTurn, (("team", mover),)))
    elif phase is Phase.SHOT:
        out.extend(_shot(s, att))
    elif phase is Phase.MOVEMENT and s.movement is not None and not s.phase_time_up:
        out.extend(_movement(s, att))
    elif phase is Phase.SHOOTOUT and att is not None:
        out.append(OpenAction("shootout", att, c.TakePenalty))
    if phase not in (Phase.TOSS, Phase.SHOOTOUT):
        out.extend(OpenAction("misconduct", t, c.CallMisconduct) for t in BOTH)
    return tuple(out)


def _clock(s: LigaState) -> list[OpenAction]:
    out = []
    if s.clocks.paused:
        out.append(OpenAction("resume_clock", None, c.ResumeClock))
    elif s.clocks.half_on:
        out.append(OpenAction("pause_clock", None, c.PauseClock))
    if s.created and s.phase not in (Phase.TOSS, Phase.SHOOTOUT):
        out.append(OpenAction("time_up", None, c.CallTimeUp))
    return out


def _shot(s: LigaState, att: Team) -> list[OpenAction]:
    if s.flight is not None:
        defending = s.flight.kicker.team.other
        return [OpenAction("intercept", defending, c.Intercept), OpenAction("let_go", defending, c.PassTurn,
                                                                            (("team", defending),))]
    if s.phase_time_up:
        return []
    if s.restart is not None:
        return [OpenAction("kick", s.restart.team, c.Kick, (("kind", "restart"),))]
    out = []
    holding = s.holding is not None
    if holding and s.hold_turn < s.turn_no:
        return [OpenAction("kick", att, c.Kick, (("kind", "drop"), ("player", s.holding)))]
    follower = flow.follow_up_player(s)
    if s.kicked:
        if follower is not None:
            out.append(OpenAction("kick", att, c.Kick, (("kind", "follow_up"), ("player", follower))))
    else:
        ball = s.ball
        keeper = ball.control is Control.HANDS
        out.append(OpenAction("kick", att, c.Kick, (("kind", "keeper" if keeper else "shot"),
                                                    ("player", ball.holder))))
        h = q.holder(s)
        if keeper and h is not None and q.in_penalty_area(s, s.end_of(h.ref.team), h.square):
            out.append(OpenAction("hold", att, c.HoldBall, (("player", h.ref),)))
    if not holding or s.hold_turn >= s.turn_no:
        out.append(OpenAction("pass", att, c.PassTurn, (("team", att),)))
    return out


def _movement(s: LigaState, att: Team) -> list[OpenAction]:
    m = s.movement
    team = m.turn
    # Every move costs at least a point (components.MovementCosts): with none left to spend
    # (the defender has matched what the attacker spent) passing is all that is left.
    spend = remaining(s, team) if team is att else defender_allowance(s)
    out = [OpenAction("move", team, c.Move)] if spend > 0 else []
    ball = s.ball
    holder = ball.holder
    if (spend > 0 and team is att and holder is not None and holder.team is att
            and ball.control in (Control.CLOSE, Control.LOOSE)):
        out.append(OpenAction("move_ball", team, c.MoveBall, (("player", holder),)))
    if (team is not att and not m.tackled and holder is not None and holder.team is att
            and ball.control in (Control.CLOSE, Control.LOOSE) and s.holding is None
            and any(p.placed and p.ref.team is team and p.ref not in m.committed and q.near(p.square, ball.square)
                    for p in s.players.values())):
        out.append(OpenAction("tackle", team, c.Tackle))
    out.append(OpenAction("pass", team, c.PassTurn, (("team", team),)))
    return out
