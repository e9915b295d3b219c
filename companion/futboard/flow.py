"""The match moving on by itself: turns passing, the penalty's dice, goals, the end.

``advance`` runs after every command: while no roll is awaited it ends a turn whose
actions are used, opens the penalty's dice once the area is clear and the taker is on the
spot, and ends the match once the time is up (a penalty already awarded is still taken).
"""

from __future__ import annotations

from ..teams import PlayerRef, Team
from . import events as ev
from .model import KickOff, Phase, Result
from .penalty import ready, take_penalty
from .tx import Tx
from .turns import next_turn


def advance(tx: Tx) -> None:
    for _ in range(20):
        s = tx.state
        if s.phase is Phase.OVER or s.queue:
            return
        if s.time_up and s.phase is not Phase.PENALTY:
            end_match(tx, "time")
            return
        if s.phase is Phase.PENALTY:
            if not ready(s):
                return
            take_penalty(tx)
            continue
        if s.phase is Phase.PLAY and s.turn is not None and s.actions_left <= 0:
            next_turn(tx, f"{s.turn.label} used the three actions")
            continue
        return
    raise RuntimeError("the Futboard flow did not settle; this is a bug in the rules")


def score_goal(tx: Tx, team: Team, scorer: PlayerRef | None, how: str) -> None:
    """A goal; the match ends at the goal limit, else a new round starts with each team in
    its own field and the side that conceded kicks off."""
    tx.emit(ev.GoalScored(team, scorer, how))
    s = tx.state
    limit = s.options.goal_limit
    if limit is not None and s.score[team] >= limit:
        end_match(tx, "goal limit")
        return
    tx.emit(ev.RestartSet(KickOff(team.other)))
    tx.emit(ev.PhaseStarted(Phase.LINEUP, "goal: each team back in its own field"))
    tx.emit(ev.BallSet(None, "goal"))


def end_match(tx: Tx, how: str) -> None:
    s = tx.state
    home, away = s.score[Team.HOME], s.score[Team.AWAY]
    winner = None if home == away else (Team.HOME if home > away else Team.AWAY)
    tx.emit(ev.MatchEnded(Result(winner, home, away, how)))
