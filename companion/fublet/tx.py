"""A decision in progress: the events decided so far and the state they lead to.

Rules code reads ``tx.state`` (which already includes what it emitted) and calls
``tx.emit``; when the command is refused it raises, and the engine drops the transaction,
so a refused command changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from ..errors import RuleViolation
from ..transaction import Transaction
from .evolve import evolve_payload


class Tx(Transaction):
    """A decision in progress on this game's state (see companion/transaction.py)."""

    __slots__ = ()
    evolve = staticmethod(evolve_payload)
    # What an advantage goes on with, by a foul's ``on_advantage`` ("dribble_on": the speed
    # dribble runs on); rules.py builds it, as it builds the resolvers.
    after_advantage: ClassVar[Mapping[str, Callable[[Any, Any], None]]] = MappingProxyType({})


def refuse(section: str, message: str) -> RuleViolation:
    """The exception for a refused command; ``section`` is the rulebook section's title."""
    return RuleViolation(f"Fublet rulebook, {section}", message)
