"""``advance`` runs after every command: while nothing is pending it moves the match on (a
ball carrier's movement goes on to its next space, a finished turn draws its cards and hands
over to the other coach, both coaches' confirmations line the counters up for a kick).

It sits above the turn machine (flow.py) and the movement it continues, so neither of them
imports the other's way up.
"""

from __future__ import annotations

from . import flow
from .model import Phase, Stage
from .movement import continue_movement
from .tx import Tx


def advance(tx: Tx) -> None:
    """Move the match on as far as it can go without a coach or a die."""
    for _ in range(200):
        s = tx.state
        if s.phase is Phase.OVER or s.queue:
            return
        if s.phase is Phase.SET_UP and len(set(s.ready)) == 2:
            flow.apply_set_up(tx)
            continue
        if s.phase is Phase.TURN and s.movement is not None:
            continue_movement(tx)
            continue
        if s.phase is Phase.TURN and s.turn is not None and s.turn.stage is Stage.DONE:
            flow.finish_turn(tx)
            continue
        return
    raise RuntimeError("the turn sequence did not settle; this is a bug in the Football Leader rules")
