"""The end of a movement phase: both coaches have passed, and the Event phase opens with what
it must resolve (engagements, a shot's save, the ball's arrival), or the round ends.

Above the round sequence (flow.py) and the shots, so the round sequence never reaches up
into the modules that resolve what it opens.
"""

from __future__ import annotations

from . import flow
from .model import Flight, Phase
from .shots import open_save
from .tx import Tx


def end_of_movement(tx: Tx) -> None:
    """Both coaches have passed: Movement -> Event, Tactical movement -> end of round."""
    s = tx.state
    if s.phase is Phase.MOVEMENT:
        flow.start_phase(tx, Phase.EVENT)
        detect_events(tx)
    elif s.phase is Phase.TACTICAL_MOVEMENT:
        flow.start_phase(tx, Phase.ROUND_END)
        flow.detect_loose_ball(tx, after_tactical=True)


def detect_events(tx: Tx) -> None:
    """Queue what the Event phase must resolve: engagements, a shot's save, the ball's arrival."""
    s = tx.state
    for eng in s.engagements:
        flow.open_engagement(tx, eng)
    d = s.declaration
    if s.ball.loose and s.ball.flight is Flight.SHOT and d is not None:
        open_save(tx)
        return
    if s.ball.loose and s.ball.ps is not None and not s.engagements:
        flow.detect_loose_ball(tx, after_tactical=False)
