"""A decision in progress: the events decided so far and the state they lead to.

Rules code reads ``tx.state`` (which already includes what it emitted) and calls
``tx.emit``; when the command is refused it raises, and the engine drops the transaction,
so a refused command changes nothing.
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
    """The exception for a refused command; ``section`` names the rulebook section
    (for example "3.3 Pass")."""
    return RuleViolation(f"Football Leader rulebook, {section}", message)
