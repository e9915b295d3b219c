"""What a game plugs into the core: commands in, events out, state as a fold, requests.

A ruleset is a *decider*: ``decide(state, command)`` validates a command against the rules
and returns the event payloads it causes (or raises RuleViolation, changing nothing);
``evolve(state, event)`` applies one event and returns the next state. The core (match,
journal, undo) never looks inside a game's state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from .dice import DiceSpec
from .events import Event, EventPayload
from .sightings import Sighting
from .teams import Team


class Command:
    """Base of every command: what a coach or a device says happened. Frozen dataclasses."""

    __slots__ = ()


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


class Ruleset(Protocol):
    """The interface every game implements (Fublet first; three more follow)."""

    game: str
    created_type: type[EventPayload]

    def initial_state(self) -> Any: ...

    def decide(self, state: Any, command: Command) -> Sequence[EventPayload]: ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def pending(self, state: Any) -> tuple[Request, ...]: ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    def command_for(self, state: Any, sighting: Sighting) -> Command | None:
        """The command a camera sighting proposes now (see companion/sightings.py)."""
        ...

    # What the tablet draws: the board, a figure's movement range, the event log's lines.
    def board(self, state: Any) -> Any: ...

    def reachable(self, state: Any, player: Any) -> frozenset: ...

    def log_line(self, state_before: Any, event: Event) -> str | None: ...
