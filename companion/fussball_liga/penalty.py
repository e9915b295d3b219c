"""The penalty roll: the goalkeeper on a numbered goal square, the kicker's roll and what the
penalty table makes of it. Shared by a penalty-kick in play (restarts.py) and the
shoot-out's kicks (shootout.py).
"""

from __future__ import annotations

from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .bonus import plan_roll
from .model import PenaltyCtx
from .tx import Tx, refuse

PENALTY = "Penalty-Kick"


def keeper_number(s, team: Team) -> int | None:
    """The numbered goal square (1 to 4) the goalkeeper of ``team`` stands on."""
    gk = q.goalkeeper(s, team)
    if gk is None or gk.square is None:
        return None
    numbers = q.pitch(s).ends[s.end_of(team)].goal_numbers
    return next((n for n, sq in numbers.items() if sq == gk.square), None)


def open_penalty(tx: Tx, kicker: PlayerRef) -> None:
    s = tx.state
    number = keeper_number(s, kicker.team.other)
    if number is None and q.goalkeeper(s, kicker.team.other) is not None:
        raise refuse(PENALTY, "the defender first puts his goalkeeper in one of the goal squares numbered 1 to 4")
    tx.emit(ev.PenaltyTaken(kicker))
    where = f"goalkeeper on goal square {number}" if number is not None else "no goalkeeper"
    plan = plan_roll(s, kicker.team, f"penalty-kick by {kicker} ({where})", PenaltyCtx(kicker, number),
                     player=kicker)
    flow.open_roll(tx, plan)


def penalty_result(s, ctx: PenaltyCtx, face: int) -> str:
    """"goal", "saved" or "miss" for a penalty roll (the table is data: a placeholder)."""
    result = q.tables(s).penalty.results[min(max(face, 1), 6)]
    if result.startswith("aim:"):
        return "saved" if ctx.keeper_number == int(result[4:]) else "goal"
    return result
