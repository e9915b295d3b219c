"""A decision in progress: the events decided so far and the state they lead to.

Rules code reads ``tx.state`` (which already includes what it emitted) and calls
``tx.emit``; when the command is refused it raises, and the engine drops the transaction,
so a refused command changes nothing. Each game subclasses it with its own fold.

A game's rules module (the top of the game) hands its handlers a subclass that also carries
the game's dispatch tables: what a finished contest or roll means (``resolvers``) and what a
coach's answer to a choice means (``choices``), by the type of the pending item's context.
Code low in the game (the round sequence) reaches a resolver through the transaction it was
handed, so it never imports the modules above it that hold the resolvers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from .events import EventPayload


class Transaction:
    __slots__ = ("state", "out")

    evolve: ClassVar[Callable[[Any, EventPayload], Any]]   # the game's fold of one payload (a staticmethod)
    resolvers: ClassVar[Mapping[type, Callable[..., None]]] = MappingProxyType({})  # context type -> resolver
    choices: ClassVar[Mapping[type, Callable[..., None]]] = MappingProxyType({})    # context type -> answer handler

    def __init__(self, state: Any) -> None:
        self.state = state
        self.out: list[EventPayload] = []

    def emit(self, payload: EventPayload) -> None:
        self.out.append(payload)
        self.state = self.evolve(self.state, payload)

    @property
    def next_id(self) -> int:
        return self.state.next_id
