"""What each coach may do now, for the tablet's buttons (``Ruleset.open_actions``).

Written from the same conditions the handlers refuse by: ``turns.check_action`` (play on, no
roll awaited, his turn, an action left), the ball rule (``move_the_ball``), the corner's steps,
``kicks.kick_problem``, and the penalty's cleared area (``movement.must_leave_area``).
tests/test_open_actions.py plays whole matches and checks that the two agree.

Ids: "line_up" (a side sets its figures for the kick-off), "kick_off" (the round's first pass,
once both line-ups are legal: ``lineup.lineup_problems``), "substitute", "corner_taker" (a player
with the ball put on a corner slot), "penalty_taker" (one put on the spot), "leave_area" (a
defender leaves the penalty area), "move", "pass" and "kick" (``player``: the one with the ball), "take_ball",
"end_turn"; and for either coach (``team`` None) "start_clock", "pause_clock", "time_up".
"""

from __future__ import annotations

from ..errors import RuleViolation
from ..ruleset import OpenAction
from ..teams import Team
from . import commands as c
from . import queries as q
from ..commands import PlaceFigure
from .kicks import kick_problem
from .lineup import lineup_problems
from .model import Corner, FutboardState, KickOff, Penalty, Phase
from .move_the_ball import ball_can_move
from .movement import must_leave_area
from .turns import TURN, check_action, corner


def open_actions(s: FutboardState) -> tuple[OpenAction, ...]:
    out = [OpenAction("pause_clock" if s.clock.running else "start_clock", None,
                      c.PauseClock if s.clock.running else c.StartClock)]
    if s.options.time_limit_min is not None and not s.time_up:
        out.append(OpenAction("time_up", None, c.CallTimeUp))
    if s.queue:
        return tuple(out)
    if s.phase is Phase.LINEUP and isinstance(s.restart, KickOff):
        out.extend(OpenAction("line_up", t, PlaceFigure) for t in (Team.HOME, Team.AWAY))
        if not lineup_problems(s):
            out.append(OpenAction("kick_off", s.restart.team, c.Pass))
        out.extend(OpenAction("substitute", t, c.Substitute) for t in (Team.HOME, Team.AWAY) if q.reserves(s, t))
    elif s.phase is Phase.CORNER and isinstance(s.restart, Corner):
        out.append(OpenAction("corner_taker", s.restart.team, PlaceFigure))
    elif s.phase is Phase.PENALTY and isinstance(s.restart, Penalty):
        leave = must_leave_area(s)
        if leave:
            out.append(OpenAction("leave_area", leave[0].team, c.Move))
        if s.restart.kicker is None:
            out.append(OpenAction("penalty_taker", s.restart.team, PlaceFigure))
    elif s.phase is Phase.PLAY and s.turn is not None:
        out.extend(_turn(s, s.turn))
    return tuple(out)


def _turn(s: FutboardState, team: Team) -> list[OpenAction]:
    try:
        check_action(s, team, TURN)
    except RuleViolation:
        return []
    carrier = s.ball
    ours = carrier is not None and carrier.team is team
    cn = corner(s)
    out = [OpenAction("move", team, c.Move)]
    if ours:
        out.append(OpenAction("pass", team, c.Pass, (("player", carrier),)))
        if kick_problem(s, carrier) is None:
            out.append(OpenAction("kick", team, c.Kick, (("player", carrier),)))
    elif carrier is not None and not (cn is not None and cn.step == "defence"):
        out.append(OpenAction("take_ball", team, c.TakeBall))
    corner_pass_due = cn is not None and cn.step == "attack" and s.ball == cn.taker
    ball_due = ours and not s.ball_moved and ball_can_move(s)
    if not corner_pass_due and not ball_due:
        out.append(OpenAction("end_turn", team, c.EndTurn, (("team", team),)))
    return out
