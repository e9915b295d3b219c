"""Play stops and a restart is awarded: the restart named, and where a ball out of play
restarts from (a throw-in, a corner-kick or a goal-kick). Landing balls, interceptions,
fouls and off-sides all end here; the set-up and the kick that follow are restarts.py.
"""

from __future__ import annotations

from ..board import Square
from ..teams import Team
from . import flow
from . import queries as q
from .model import RestartKind
from .tx import Tx


def award(tx: Tx, kind: RestartKind, team: Team, reason: str, spot: Square | None) -> None:
    """Stop play and give ``team`` a restart."""
    flow.stop_play(tx, reason, flow.restart(kind, team, spot, reason))


def corner_for(s, end: str, near: Square) -> tuple[RestartKind, Square]:
    """The corner area of ``end`` on the side nearer ``near``."""
    corners = q.pitch(s).ends[end].corners
    return RestartKind.CORNER, min(corners, key=lambda c: (abs(c[1] - near[1]), c))


def goal_kick(s, team: Team) -> tuple[RestartKind, Square | None]:
    return RestartKind.GOAL_KICK, None  # the kicker picks one of the goal area's squares


def ball_out(tx: Tx, out: Square, last_team: Team, reason: str) -> None:
    """Across a touch line: a throw-in from the first square outside. Across a goal line (or
    diagonally across a corner): a corner-kick if the side defending that line played it
    out, else a goal-kick for them."""
    s = tx.state
    pitch = q.pitch(s)
    if 0 <= out[0] < pitch.cols:
        award(tx, RestartKind.THROW_IN, last_team.other, reason, out)
        return
    end = "low" if out[0] < 0 else "high"
    defenders = Team.HOME if s.end_of(Team.HOME) == end else Team.AWAY
    if last_team is defenders:
        kind, spot = corner_for(s, end, out)
        award(tx, kind, defenders.other, reason, spot)
    else:
        kind, spot = goal_kick(s, defenders)
        award(tx, kind, defenders, reason, spot)
