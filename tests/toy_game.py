"""A tiny ruleset for testing the core (match engine, journal, JSON Lines) without Fublet.

The counter game: ``Add(n)`` adds n to a total and is refused when the total would pass
10; reaching exactly 10 also records a derived ``toy.full`` event; ``Reset`` goes back to 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from companion.errors import RuleViolation
from companion.events import Event, EventPayload
from companion.ruleset import Command, Request

LIMIT = 10


@dataclass(frozen=True, slots=True)
class Started(EventPayload):
    TYPE = "toy.started"
    name: str = "toy"


@dataclass(frozen=True, slots=True)
class Added(EventPayload):
    TYPE = "toy.added"
    n: int


@dataclass(frozen=True, slots=True)
class Full(EventPayload):
    TYPE = "toy.full"
    DERIVED = True
    total: int


@dataclass(frozen=True, slots=True)
class Reset(EventPayload):
    TYPE = "toy.reset"


@dataclass(frozen=True, slots=True)
class Start(Command):
    name: str = "toy"


@dataclass(frozen=True, slots=True)
class Add(Command):
    n: int


@dataclass(frozen=True, slots=True)
class ResetCounter(Command):
    pass


@dataclass(frozen=True, slots=True)
class ToyState:
    started: bool = False
    total: int = 0
    adds: int = 0
    fulls: int = 0


class ToyRules:
    game = "toy"
    created_type = Started

    def initial_state(self) -> ToyState:
        return ToyState()

    def decide(self, state: ToyState, command: Command) -> Sequence[EventPayload]:
        if isinstance(command, Start):
            if state.started:
                raise RuleViolation("Toy", "already started")
            return [Started(command.name)]
        if not state.started:
            raise RuleViolation("Toy", "start first")
        if isinstance(command, Add):
            if command.n < 0:
                raise RuleViolation("Toy", "only adds")
            if state.total + command.n > LIMIT:
                raise RuleViolation("Toy", f"{state.total} + {command.n} would pass {LIMIT}")
            out: list[EventPayload] = [Added(command.n)]
            if state.total + command.n == LIMIT and command.n:
                out.append(Full(LIMIT))
            return out
        if isinstance(command, ResetCounter):
            return [Reset()]
        raise RuleViolation("Toy", f"unknown command {command!r}")

    def evolve(self, state: ToyState, event: Event) -> ToyState:
        p = event.payload
        if isinstance(p, Started):
            return ToyState(started=True)
        if isinstance(p, Added):
            return ToyState(True, state.total + p.n, state.adds + 1, state.fulls)
        if isinstance(p, Full):
            return ToyState(True, state.total, state.adds, state.fulls + 1)
        if isinstance(p, Reset):
            return ToyState(True, 0, state.adds, state.fulls)
        raise ValueError(f"toy cannot apply {event.type}")

    def pending(self, state: ToyState) -> tuple[Request, ...]:
        return () if state.started else (Request("start", "action", None, "start the counter"),)

    def summary(self, state: ToyState) -> dict[str, Any]:
        return {"game": "toy", "total": state.total, "adds": state.adds, "fulls": state.fulls}


RULESETS = {"toy": ToyRules()}
