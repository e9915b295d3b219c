"""A decision in progress: the events decided so far and the state they lead to.

Rules code reads ``tx.state`` (which already includes what it emitted) and calls
``tx.emit``; when the command is refused it raises, and the engine drops the transaction,
so a refused command changes nothing.
"""

from __future__ import annotations

from ..errors import RuleViolation
from ..events import EventPayload
from .evolve import evolve_payload
from .model import FootballLeaderState


class Tx:
    __slots__ = ("state", "out")

    def __init__(self, state: FootballLeaderState) -> None:
        self.state = state
        self.out: list[EventPayload] = []

    def emit(self, payload: EventPayload) -> None:
        self.out.append(payload)
        self.state = evolve_payload(self.state, payload)

    @property
    def next_id(self) -> int:
        return self.state.next_id


def refuse(section: str, message: str) -> RuleViolation:
    """The exception for a refused command; ``section`` names the rulebook section
    (for example "3.3 Pass")."""
    return RuleViolation(f"Football Leader rulebook, {section}", message)
