"""What a game plugs into the core: commands in, events out, state as a fold, requests.

A ruleset is a *decider*: ``decide(state, command)`` validates a command against the rules
and returns the event payloads it causes (or raises RuleViolation, changing nothing);
``evolve(state, event)`` applies one event and returns the next state. The core (match,
journal, undo) never looks inside a game's state.

``GameRules`` is the one ``decide`` every game shares; a game declares only what differs
(its handlers, its transaction, its ``advance`` and the rulebook sections that refuse).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Callable, ClassVar, Mapping, Protocol, Sequence

from .dice import DiceSpec
from .errors import RuleViolation
from .events import Event, EventPayload
from .sightings import Sighting, Standing
from .teams import Team
from .transaction import Transaction
from .typed import check_fields


class Command:
    """Base of every command: what a coach or a device says happened. Frozen dataclasses.

    Every field holds the type it is annotated with, checked as the command is built
    (``typed.check_fields``): a value of the wrong type is converted where that is
    unambiguous (an enum's value, a list for a tuple) or refused naming the field."""

    __slots__ = ()

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True)
class Request:
    """Something the rules core needs before play can go on, shown to the coaches.

    ``kind`` is "dice" (fulfilled by a roll from any source: tray, keypad, software dice),
    "choice" (a coach picks one of ``options``) or "action" (a coach must do something on
    the board, e.g. pick a substitute).
    """

    id: str
    kind: str
    team: Team | None
    text: str
    dice: DiceSpec | None = None
    options: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind,
                               "team": self.team.value if self.team else None, "text": self.text}
        if self.dice is not None:
            out["dice"] = self.dice.describe()
        if self.options:
            out["options"] = list(self.options)
        return out


@dataclass(frozen=True, slots=True)
class OpenAction:
    """Something a side may declare or do now, as the rules see it.

    ``id`` names the kind of action (a face maps an id to a form and nothing else);
    ``command`` is the command type that does it, ``team`` the side that may, and ``args``
    the command's arguments the rules already know (the ids it takes: a player, a team, a
    kind), as ``(name, value)`` pairs. What the rules cannot know (a target square, a card)
    the face's form asks for. An open action is never refused for being unavailable; it
    may still be refused for its arguments (a target out of reach).
    """

    id: str
    team: Team | None
    command: type
    args: tuple[tuple[str, Any], ...] = ()

    def arg(self, name: str, default: Any = None) -> Any:
        return next((v for k, v in self.args if k == name), default)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.args)
        team = f"Team.{self.team.name}" if self.team is not None else "None"
        return f"OpenAction({self.id!r}, {team}, {self.command.__name__}{args})"


class Ruleset(Protocol):
    """The interface every game implements (Fublet first; three more follow)."""

    game: str
    created_type: type[EventPayload]

    def initial_state(self) -> Any: ...

    def decide(self, state: Any, command: Command) -> Sequence[EventPayload]: ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def pending(self, state: Any) -> tuple[Request, ...]: ...

    def open_actions(self, state: Any) -> tuple[OpenAction, ...]:
        """What each side may declare or do now. While a roll or a choice is awaited only what
        answers it or stands beside it (a deflection called, the match clock) is open."""
        ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    def command_for(self, state: Any, sighting: Sighting) -> Command | None:
        """The command a camera sighting proposes now (see companion/sightings.py)."""
        ...

    def standing(self, state: Any) -> tuple[Standing, ...]:
        """Where the rules have each figure on the board now (its square or space in board
        millimetres), for the camera to check what it reads against (companion/sightings.py)."""
        ...

    # What the tablet draws: the board, a figure's movement range, the event log's lines.
    def board(self, state: Any) -> Any: ...

    def reachable(self, state: Any, player: Any) -> frozenset: ...

    def log_line(self, state_before: Any, event: Event) -> str | None: ...

    # Time belongs to the match: the tablet stops a game's real-time clocks when nobody can
    # see them (the live screen left, the app in the background or dead) and a coach starts
    # them again with one tap. Each returns the command that does it now, or None (no clock
    # runs, or none is stopped mid-play; a game without a real-time clock: always None).
    def stop_clocks(self, state: Any, at: datetime, why: str) -> Command | None: ...

    def start_clocks(self, state: Any, at: datetime) -> Command | None: ...



Handler = Callable[[Any, Any], None]  # (the game's transaction, a command) -> None; raises to refuse


class GameRules:
    """The ``decide`` every game shares, in one place.

    In order: a command the game does not know is refused; before the match is created only
    the game's create command is taken; once the match is over nothing is (not even another
    create command: a new match is a new journal); then the command's handler runs on a
    fresh transaction, ``advance`` moves the match on as far as it goes without a coach or a
    die, and the transaction's events are the decision. A game subclass declares:
    """

    game: ClassVar[str]
    title: ClassVar[str]                          # the game's name in refusals: "Fublet"
    created_type: ClassVar[type[EventPayload]]
    create_command: ClassVar[type[Command]]
    handlers: ClassVar[Mapping[type, Handler]]    # command type -> handler
    transaction: ClassVar[type[Transaction]]      # the game's Tx (its fold)
    advance: ClassVar[Callable[[Any], None]]      # a staticmethod: (tx) -> None
    actions_now: ClassVar[Callable[[Any], tuple[OpenAction, ...]]]  # a staticmethod: (state) -> open actions
    over_phase: ClassVar[Enum]                    # the phase a finished match is in
    setup_section: ClassVar[str]                  # the rulebook section that says to create the match first
    ending_section: ClassVar[str]                 # ... and the one that ends the match
    # A game whose fold also reads an event's envelope (the Fußball-Liga's clocks read its
    # time) names a function (state before, state after the payload's fold, event) -> state
    # here, as a staticmethod: ``evolve`` applies it after the payload's fold, and so does a
    # replay (Match), which calls the payload's handler itself.
    envelope: ClassVar[Callable[[Any, Any, Event], Any] | None] = None

    def refuse(self, section: str, message: str) -> RuleViolation:
        return RuleViolation(f"{self.title} rulebook, {section}", message)

    def decide(self, state: Any, command: Command) -> Sequence[EventPayload]:
        handler = self.handlers.get(type(command))
        if handler is None:
            raise RuleViolation(self.title, f"{type(command).__name__} is not a {self.title} command")
        if not state.created and not isinstance(command, self.create_command):
            raise self.refuse(self.setup_section, "create the match first")
        if state.phase is self.over_phase:
            raise self.refuse(self.ending_section, "the match is over; nothing more can be recorded")
        tx = self.transaction(state)
        handler(tx, command)
        self.advance(tx)
        return tx.out

    def evolve(self, state: Any, event: Event) -> Any:
        s = self.transaction.evolve(state, event.payload)
        envelope = self.envelope
        return s if envelope is None else envelope(state, s, event)

    def open_actions(self, state: Any) -> tuple[OpenAction, ...]:
        if not state.created or state.phase is self.over_phase:
            return ()
        return self.actions_now(state)

    def stop_clocks(self, state: Any, at: datetime, why: str) -> Command | None:
        return None   # no real-time clock (Fublet's stopwatch and Football Leader's decks count play)

    def start_clocks(self, state: Any, at: datetime) -> Command | None:
        return None
