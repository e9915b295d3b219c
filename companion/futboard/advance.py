"""The match moving on by itself, after every command: while no roll is awaited ``advance``
ends a turn whose actions are used, opens the penalty's dice once the area is clear and the
taker is on the spot, and ends the match once the time is up (a penalty already awarded is
still taken).
"""

from __future__ import annotations

from . import flow
from .model import Phase
from .penalty import ready, take_penalty
from .tx import Tx
from .turns import next_turn


def advance(tx: Tx) -> None:
    for _ in range(20):
        s = tx.state
        if s.phase is Phase.OVER or s.queue:
            return
        if s.time_up and s.phase is not Phase.PENALTY:
            flow.end_match(tx, "time")
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
