"""Commands every game understands: a roll for a pending request, a coach's choice, and
a figure seen or put somewhere. Devices and the tablet send exactly these (the keypad sends
the same roll a tray would; a tap sends the same placement the camera would)."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Square
from .dice import Roll
from .ruleset import Command
from .teams import PlayerRef


@dataclass(frozen=True, slots=True)
class SubmitRoll(Command):
    """Dice for a pending request. Without ``request`` the roll goes to the only request
    its dice fit (by kind, count and owning coach); if several fit, name one."""

    roll: Roll
    request: str | None = None


@dataclass(frozen=True, slots=True)
class Choose(Command):
    request: str
    option: str


@dataclass(frozen=True, slots=True)
class PlaceFigure(Command):
    """A figure is at a square, or at a board point in millimetres (the camera's contract),
    or off the pitch (``square`` and ``x_mm`` both None). ``correction`` marks a person
    overriding what the camera or the rules had."""

    player: PlayerRef
    square: Square | None = None
    x_mm: float | None = None
    y_mm: float | None = None
    facing: int | None = None
    correction: bool = False
