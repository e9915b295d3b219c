"""What the tablet may do by itself with the tray and the camera on: steps the rules leave no
choice about, a declaration finished by the move the camera sees, and camera sightings too
doubtful to take without a person.

Nothing here decides a rule. A forced step is read off the rules' own open actions: when a
side's only open action is one that closes its part (a pass, the end of a turn) and the rules
fill in all its arguments, there is nothing to ask the coach, so the controller submits it
through the same ``Match.submit`` as a tap would, journaled with the source of the device
whose roll or move led to it, and logged as automatic so undo and the log show it.

A declaration that waits only for where a figure goes (Football Leader's movement once its
card is chosen, Fublet's keep-and-run or speed dribbling once declared) is an ``Expectation``:
the face says which figure and how the place makes the command; the next sighting of that
figure settling elsewhere fills it in and the command goes to the rules as the camera's.

A camera sighting is held for a person (a ``Proposal``: one tap to take it, one to drop it)
when the camera says it is unsure (health ``degraded``: corner markers hidden, the board
moved, frames too slow), when the figure stands on a line between two squares, or when the rules refuse what it proposes
(a figure seen where no move of the rules takes it): taking it is then a correction, as
if a person had put the figure there by hand.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Sequence

from companion.commands import PlaceFigure
from companion.ruleset import Command, OpenAction, Request
from companion.sightings import Sighting

# Open actions that close a side's part of the play: submitted alone when nothing else is open.
CLOSING = frozenset({"pass", "end_turn", "restart_step", "set_up_done"})
# Open actions that stand beside play (either side, any time): they leave the step forced.
ASIDE = frozenset({"substitute", "misconduct", "start_clock", "pause_clock", "resume_clock", "time_up"})
MAX_STEPS = 6   # forced steps after one command (a phase's passes, then the next phase's)
LINE_MM = 1.0   # a sighting this close to a square's edge is on the line (the camera's median error)


class Auto(str, Enum):
    """The "Automatic steps" setting."""

    DEVICES = "devices"   # on while the tray or the camera is in use (the default)
    ON = "on"
    OFF = "off"


def filled(action: OpenAction) -> Command | None:
    """The command of an open action whose every required argument the rules give, or None."""
    fields = {f.name for f in dataclasses.fields(action.command)}
    required = {f.name for f in dataclasses.fields(action.command)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    known = {k: v for k, v in action.args if k in fields and v is not None}
    return action.command(**known) if required <= set(known) else None


def forced_step(actions: Sequence[OpenAction], pending: Sequence[Request]) -> tuple[OpenAction, Command] | None:
    """The step the rules leave a side no choice about, or None: no roll or question is
    waiting, and a side's only open action (besides substitutions, misconduct and clocks) is
    one that closes its part, with every argument known."""
    if any(r.kind in ("dice", "choice") for r in pending):
        return None
    by_team: dict[Any, list[OpenAction]] = {}
    for a in actions:
        if a.team is not None and a.id not in ASIDE:
            by_team.setdefault(a.team, []).append(a)
    for acts in by_team.values():
        if len(acts) == 1 and acts[0].id in CLOSING:
            command = filled(acts[0])
            if command is not None:
                return acts[0], command
    return None


def forced_words(action: OpenAction) -> str:
    side = action.team.label if action.team is not None else "The table"
    what = {"pass": "passes", "end_turn": "ends the turn", "restart_step": "ends the positioning step",
            "set_up_done": "ends the re-positioning"}.get(action.id, action.id.replace("_", " "))
    return f"Automatic: {side} {what} (nothing else is open to {side} now)"


@dataclass(frozen=True)
class Expectation:
    """A declaration waiting for the place the camera will see ``player`` settle at:
    ``build(state, sighting)`` is the declared command with that place (None: not a place
    it can take, e.g. where the figure already stands)."""

    player: Any
    build: Callable[[Any, Sighting], Command | None]
    what: str

    def __repr__(self) -> str:
        return f"Expectation({self.player!r}, {self.what!r})"


def expect(screen: Any, player: Any, build: Callable[[Any, Sighting], Command | None], what: str) -> None:
    """A face's form now waits only for where ``player`` goes: let the camera finish it (a
    screen without the hook, as in some tests, just waits for the touch)."""
    hook = getattr(screen, "expect_move", None)
    if hook is not None:
        hook(Expectation(player, build, what))


@dataclass(frozen=True)
class Proposal:
    """A camera sighting held for a person: ``command`` is what taking it submits."""

    id: int
    sighting: Sighting
    command: Command
    text: str          # what the camera saw and why it asks, for the button's label

    def __repr__(self) -> str:
        return f"Proposal({self.id}, {self.command!r}, {self.text!r})"


def on_a_line(rules: Any, state: Any, sighting: Sighting, command: Command, margin_mm: float = LINE_MM) -> bool:
    """Whether the figure stands on the line between two squares or spaces: the rules read a
    point ``margin_mm`` to one side of the sighting as another command (the camera's
    position error is about 1 mm; on a line, either square is a coin's throw)."""
    if not sighting.on_pitch or margin_mm <= 0:
        return False
    for dx, dy in ((margin_mm, 0.0), (-margin_mm, 0.0), (0.0, margin_mm), (0.0, -margin_mm)):
        moved = dataclasses.replace(sighting, x_mm=sighting.x_mm + dx, y_mm=sighting.y_mm + dy)
        if rules.command_for(state, moved) != command:
            return True
    return False


def correction_for(sighting: Sighting) -> Command | None:
    """What the camera saw, as the correction a person would make by hand (``override``):
    the figure at the sighting's board point, or off the pitch. None for the ball."""
    if sighting.player is None:
        return None
    facing = None if sighting.facing is None else int(round(sighting.facing)) % 360
    if not sighting.on_pitch:
        return PlaceFigure(sighting.player, facing=facing, correction=True)
    return PlaceFigure(sighting.player, x_mm=sighting.x_mm, y_mm=sighting.y_mm, facing=facing, correction=True)
