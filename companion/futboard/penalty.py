"""The penalty: the fouling side leaves the area, the fouled side puts a taker on the spot,
both coaches roll at the same time. Numbers from different groups of the goal (1-4, 5-8,
9-12) are a goal; from the same group, the goalkeeper defended, the goalkeeper has the
ball and the fouled side still has 2 actions.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef
from . import events as ev
from . import queries as q
from .flow import score_goal
from .kicks import close
from .model import PENALTY_GROUPS, PENALTY_SAVED_ACTIONS, Contest, FutboardState, Penalty, PenaltyKickCtx, Phase, Test
from .movement import must_leave_area
from .tx import Tx, refuse
from .turns import start_turn

PENALTY = "Penalty"


def group(face: int) -> int:
    """Which group of the goal a d12 face falls in: 0 (1-4), 1 (5-8) or 2 (9-12)."""
    for i, faces in enumerate(PENALTY_GROUPS):
        if face in faces:
            return i
    raise ValueError(f"a d12 shows 1..12, not {face}")


def place_kicker(tx: Tx, ref: PlayerRef, space) -> None:
    s = tx.state
    pen: Penalty = s.restart
    spot = q.pitch(s).spot(q.attacked_end(pen.team))
    if ref.team is not pen.team:
        raise refuse(PENALTY, f"{pen.team.label} takes the penalty; {ref.team.label}'s players leave the area")
    if pen.kicker is not None:
        raise refuse(PENALTY, f"{pen.kicker} is already on the spot to take the penalty")
    if space is None or tuple(space) != spot:
        raise refuse(PENALTY, f"place the penalty taker in the area indicated for kicking, space {spot}")
    other = q.occupant(s, spot)
    if other is not None and other != ref:
        raise refuse(PENALTY, f"the penalty spot {spot} is taken by {other}; move him first")
    tx.emit(ev.FigurePlaced(ref, spot))
    tx.emit(ev.RestartSet(Penalty(pen.team, pen.fouler, pen.fouled, ref)))
    tx.emit(ev.BallSet(ref, "penalty taker"))


def ready(s: FutboardState) -> bool:
    pen = s.restart
    return isinstance(pen, Penalty) and pen.kicker is not None and not must_leave_area(s)


def take_penalty(tx: Tx) -> None:
    """Both coaches roll at the same time; with no goalkeeper on the field it is a goal."""
    s = tx.state
    pen: Penalty = s.restart
    keeper = q.keeper(s, pen.team.other)
    if keeper is None:
        tx.emit(ev.RestartSet(None))
        score_goal(tx, pen.team, pen.kicker, "penalty")
        return
    d12 = (DieKind.D12,)
    tests = (Test(pen.team, f"Penalty kick by {pen.kicker}", DiceSpec(d12, pen.team), pen.kicker),
             Test(pen.team.other, f"Penalty: goalkeeper {keeper.ref} jumps", DiceSpec(d12, pen.team.other),
                  keeper.ref))
    tx.emit(ev.PendingOpened(Contest(tx.next_id, tests, PenaltyKickCtx(pen.kicker, keeper.ref))))


def resolve_penalty(tx: Tx, contest: Contest) -> None:
    kick, dive = contest.tests
    if kick.result is None or dive.result is None:
        return
    ctx: PenaltyKickCtx = contest.ctx
    pen: Penalty = tx.state.restart
    said = f"penalty: {ctx.kicker} rolls {kick.result}, {ctx.keeper} rolls {dive.result}"
    tx.emit(ev.RestartSet(None))
    if group(kick.result) != group(dive.result):
        close(tx, contest, f"{said}: different groups, GOAL")
        score_goal(tx, pen.team, ctx.kicker, "penalty")
        return
    close(tx, contest, f"{said}: the same group, the goalkeeper defends")
    tx.emit(ev.PhaseStarted(Phase.PLAY, "penalty defended"))
    tx.emit(ev.BallSet(ctx.keeper, "the goalkeeper defended the penalty"))
    start_turn(tx, pen.team, "penalty defended: the fouled side still has 2 actions", PENALTY_SAVED_ACTIONS)
