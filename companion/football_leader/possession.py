"""The ball changes hands to a defender: a missed pass taken (3.3), a failed dodge's ball
lost (3.4). Both the pass and the carrier's movement end this way, so it sits below both."""

from __future__ import annotations

from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .model import BallLostCtx, Choice, RestartKind
from .pitch import Space
from .tx import Tx


def take_ball(tx: Tx, ref: PlayerRef, move_to: Space | None, reason: str) -> None:
    """A defender gets the ball. Taking a missed pass from the next space is no movement
    (no marker). A goalkeeper who takes it restarts with a goal kick (3.8)."""
    s = tx.state
    p = s.players[ref]
    if s.unmarked is not None:
        tx.emit(ev.UnmarkedSet(None))
    if p.goalkeeper:
        tx.emit(ev.BallSet(ref, reason))
        flow.award(tx, RestartKind.GOAL_KICK, ref.team, f"the goalkeeper took the {reason}")
        return
    if move_to is not None and p.space != move_to:
        tx.emit(ev.CounterMoved(ref, move_to, moved=False))
    tx.emit(ev.BallSet(ref, reason))


def lose_ball(tx: Tx, space: Space, defending: Team, reason: str) -> None:
    """3.4: a failed dodge puts the ball on a defending counter in the space, at the
    defending coach's choice; the turn ends."""
    s = tx.state
    candidates = sorted(p.ref for p in q.in_space(s, space, defending))
    if len(candidates) == 1:
        take_ball(tx, candidates[0], None, reason)
    else:
        flow.open_choice(tx, defending, f"{defending.label}: the ball is lost in {q.where(s, space)}: which counter "
                                        f"takes it?", tuple(str(c) for c in candidates), BallLostCtx(space),
                         front=True)
    flow.turn_over(tx)


def choose_ball_taker(tx: Tx, choice: Choice, option: str) -> None:
    take_ball(tx, PlayerRef.parse(option), None, "failed dodge")
