"""Goals and the end of the match: what a kick, a penalty or the clock leads to.

Below the actions that score, so they call it directly; advance.py moves the match on.
"""

from __future__ import annotations

from ..teams import PlayerRef, Team
from . import events as ev
from .model import KickOff, Phase, Result
from .tx import Tx


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
