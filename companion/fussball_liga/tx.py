"""A decision in progress: the events decided so far and the state they lead to.

Rules code reads ``tx.state`` (which already includes what it emitted) and calls
``tx.emit``; a refused command raises, the engine drops the transaction, and nothing
changes. The fold here has no event times, so the clocks in ``tx.state`` are as of the
last journaled event; nothing decided within one command reads them.
"""

from __future__ import annotations

from ..errors import RuleViolation
from ..transaction import Transaction
from .evolve import evolve_payload


class Tx(Transaction):
    """A decision in progress on this game's state (see companion/transaction.py)."""

    __slots__ = ()
    evolve = staticmethod(evolve_payload)


def refuse(section: str, message: str) -> RuleViolation:
    """The exception for a refused command; ``section`` is the rulebook section's title."""
    return RuleViolation(f"Fußball-Liga rulebook, {section}", message)
