"""The rule that the ball must move in every turn, and ending a turn by choice.

"You Have to Move the Ball": the side with the ball moves it at least once a turn (by a
movement, a pass or a kick), unless it cannot move at all. Whether it can asks every action
in turn, so this sits above the pass and the kick.
"""

from __future__ import annotations

from ..teams import Team
from . import events as ev
from . import queries as q
from .commands import EndTurn
from .kicks import kick_problem
from .model import FutboardState
from .passing import pass_problem
from .ranges import reachable
from .tx import Tx, refuse
from .turns import CORNER, TURN, check_action, corner, next_turn

MOVE_THE_BALL = "You Have to Move the Ball"


def check_ball_rule(s: FutboardState, team: Team, moves_ball: bool) -> None:
    """The side with the ball must move it at least once a turn: the last action must do it
    if nothing has yet (unless the ball cannot move at all)."""
    if moves_ball or s.ball is None or s.ball.team is not team or s.ball_moved or s.actions_left > 1:
        return
    if ball_can_move(s):
        raise refuse(MOVE_THE_BALL, "this is the turn's last action and the ball has not moved: move the player "
                                    "with the ball, pass it or kick to goal")


def ball_can_move(s: FutboardState) -> bool:
    """Can the side with the ball move it by any action now?"""
    carrier = s.ball
    if carrier is None:
        return False
    if carrier not in s.moved and reachable(s, carrier):
        return True
    for mate in q.on_field(s, carrier.team):
        if mate.ref != carrier and pass_problem(s, carrier, mate.ref) is None:
            return True
    return kick_problem(s, carrier) is None


def end_turn(tx: Tx, cmd: EndTurn) -> None:
    s = tx.state
    check_action(s, cmd.team, TURN)
    c = corner(s)
    if c is not None and c.step == "attack" and s.ball == c.taker:
        raise refuse(CORNER, "you have to pass the ball to one of your players this turn; if none can receive it, "
                             "pass it to the opposing goalkeeper")
    if s.ball is not None and s.ball.team is cmd.team and not s.ball_moved and ball_can_move(s):
        raise refuse(MOVE_THE_BALL, "the ball has not moved this turn: move the player with the ball, pass it or "
                                    "kick to goal before ending the turn")
    tx.emit(ev.TurnEnded(cmd.team))
    next_turn(tx, f"{cmd.team.label} ended the turn")
