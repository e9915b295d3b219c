"""A decision in progress: the events decided so far and the state they lead to.

Rules code reads ``tx.state`` (which already includes what it emitted) and calls
``tx.emit``; a refused command raises, the engine drops the transaction, and nothing
changes. The fold here has no event times, so the clocks in ``tx.state`` are as of the
last journaled event; nothing decided within one command reads them.
"""

from __future__ import annotations

from ..errors import RuleViolation
from ..events import EventPayload
from .evolve import evolve_payload
from .model import LigaState


class Tx:
    __slots__ = ("state", "out")

    def __init__(self, state: LigaState) -> None:
        self.state = state
        self.out: list[EventPayload] = []

    def emit(self, payload: EventPayload) -> None:
        self.out.append(payload)
        self.state = evolve_payload(self.state, payload)

    @property
    def next_id(self) -> int:
        return self.state.next_id


def refuse(section: str, message: str) -> RuleViolation:
    """The exception for a refused command; ``section`` is the rulebook section's title."""
    return RuleViolation(f"Fußball-Liga rulebook, {section}", message)
