"""Where a loose ball scatters (d8 and a distance), and what follows when it leaves the
pitch: a throw-in, a corner or a goal kick. Opening a scatter is resolve.open_scatter; this
module says what its die means, so it sits above the restarts and the shots it leads to.
"""

from __future__ import annotations

from ..board import Square, scatter_step
from ..teams import Team
from . import events as ev
from . import queries as q
from .model import Ball, Contest, Flight, RestartKind, ScatterCtx
from .resolve import close
from .restarts import award
from .shots import score_goal
from .tx import Tx


def resolve_scatter(tx: Tx, contest: Contest) -> None:
    """d8: 1 points at the defending team's goal, then clockwise. A ball leaving the pitch
    is out of play; after a save, face 1 flies over the bar (corner); after a fumbled
    catch, face 1 ends in the net."""
    s = tx.state
    ctx: ScatterCtx = contest.ctx
    face = contest.tests[0].result
    b = q.board(s)
    defending = ctx.towards_team_goal
    goal_end = q.own_end(s, defending)
    if face == 1 and ctx.cause in ("save", "handling"):
        if ctx.cause == "save":
            close(tx, contest, f"scatter {face}: over the crossbar, corner kick")
            award(tx, RestartKind.CORNER, defending.other, "saved over the bar", corner_end=goal_end,
                  near_row=(ctx.origin or (0, 0))[1])
        else:
            close(tx, contest, f"scatter {face}: the fumbled ball rolls into the net")
            score_goal(tx, defending.other, None)
        return
    if ctx.origin is None:
        close(tx, contest, f"scatter {face}: the ball's square was not known; place the ball")
        tx.emit(ev.BallSet(Ball(ps=None, flight=Flight.LOOSE, last_touch=ctx.last_touch)))
        return
    step = scatter_step(face, towards_high_x=goal_end == "high")
    pos = ctx.origin
    for _ in range(ctx.distance):
        nxt = (pos[0] + step[0], pos[1] + step[1])
        if not b.is_ps(nxt):
            close(tx, contest, f"scatter {face}: out of play from PS {pos}")
            ball_out(tx, pos, nxt, ctx.last_touch)
            return
        pos = nxt
    close(tx, contest, f"scatter {face}: ball to PS {pos}")
    tx.emit(ev.BallSet(Ball(ps=pos, flight=Flight.LOOSE, last_touch=ctx.last_touch)))


def ball_out(tx: Tx, last_in: Square, beyond: Square, last_touch: Team | None) -> None:
    """Over a touch line: throw-in; over a goal line: corner if the defenders of that goal
    touched it last, else goal kick. Always to the team that did not play it out."""
    s = tx.state
    b = q.board(s)
    to_team = last_touch.other if last_touch else (s.defending or Team.HOME)
    if 0 <= beyond[0] < b.ps_cols:
        award(tx, RestartKind.THROW_IN, to_team, "ball out over the touch line", spot_ps=last_in)
        return
    end = "low" if beyond[0] < 0 else "high"
    defenders = Team.HOME if q.own_end(s, Team.HOME) == end else Team.AWAY
    if last_touch is defenders:
        award(tx, RestartKind.CORNER, defenders.other, "ball out over the goal line", corner_end=end,
              near_row=last_in[1] * b.ms_per_ps)
    else:
        award(tx, RestartKind.GOAL_KICK, defenders, "ball out over the goal line")
