"""Turns of three actions, and the rule that the ball must move in every turn.

Coaches alternate turns whoever has the ball. A turn is up to three actions (move a player,
pass, kick, try to take the ball); it ends when they are used or the coach ends it. Taking
the ball gives the taker's side three actions from that moment; a foul ends the fouler's
turn and starts the fouled side's.
"""

from __future__ import annotations

from ..teams import Team
from . import events as ev
from . import queries as q
from .commands import EndTurn
from .model import ACTIONS_PER_TURN, Corner, FutboardState, Phase
from .tx import Tx, refuse

TURN = "Start"
MOVE_THE_BALL = "You Have to Move the Ball"
CORNER = "Corner Kick"


def check_action(s: FutboardState, team: Team, section: str) -> None:
    """A coach may act: play is on, no roll is awaited, it is his turn, an action is left."""
    if s.phase is Phase.LINEUP:
        raise refuse(TURN, "the round has not started: place the players, then kick off with a pass from the "
                           "centre circle")
    if s.phase is Phase.CORNER:
        raise refuse(CORNER, f"{s.restart.team.label} first puts a player with the ball on a corner slot")
    if s.phase is Phase.PENALTY:
        raise refuse("Penalty", "the penalty comes first: clear the area, place the taker, roll")
    if s.queue:
        raise refuse(section, "a roll is awaited first: " + ", ".join(t.label for t in s.queue[0].tests
                                                                      if t.result is None))
    if s.turn is not team:
        raise refuse(TURN, f"it is {s.turn.label}'s turn" if s.turn else "nobody's turn now")
    if s.actions_left <= 0:
        raise refuse(TURN, f"{team.label} has used all {ACTIONS_PER_TURN} actions of this turn")


def corner(s: FutboardState) -> Corner | None:
    return s.restart if isinstance(s.restart, Corner) else None


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
    from .passing import pass_problem
    from .ranges import reachable
    carrier = s.ball
    if carrier is None:
        return False
    if carrier not in s.moved and reachable(s, carrier):
        return True
    for mate in q.on_field(s, carrier.team):
        if mate.ref != carrier and pass_problem(s, carrier, mate.ref) is None:
            return True
    from .kicks import kick_problem
    return kick_problem(s, carrier) is None


def start_turn(tx: Tx, team: Team, reason: str, actions: int = ACTIONS_PER_TURN) -> None:
    tx.emit(ev.TurnStarted(team, actions, reason))


def next_turn(tx: Tx, reason: str) -> None:
    """The turn passes: to the other coach, or through the steps of a corner kick."""
    s = tx.state
    c = corner(s)
    if c is not None and c.step == "defence":
        tx.emit(ev.RestartSet(Corner(c.team, c.taker, "attack")))
        start_turn(tx, c.team, "corner kick: three actions, and the taker must pass")
        return
    start_turn(tx, s.turn.other, reason)


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
