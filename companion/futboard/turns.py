"""Turns of three actions (the rule that the ball must move in every turn: move_the_ball.py).

Coaches alternate turns whoever has the ball. A turn is up to three actions (move a player,
pass, kick, try to take the ball); it ends when they are used or the coach ends it. Taking
the ball gives the taker's side three actions from that moment; a foul ends the fouler's
turn and starts the fouled side's.
"""

from __future__ import annotations

from ..teams import Team
from . import events as ev
from .model import ACTIONS_PER_TURN, Corner, FutboardState, Phase
from .tx import Tx, refuse

TURN = "Start"
CORNER = "Corner Kick"
LINE = "Line / Column"  # refused by the movement, the corner taker's placement and corrections


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
