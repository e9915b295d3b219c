"""Futboard's commands: what a coach (through the tablet) or a device says happened.

Dice arrive as the core's SubmitRoll and figures seen or tapped as PlaceFigure; a camera
sighting during a coach's turn becomes a Move (see sightings.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..board import Square
from ..ruleset import Command
from ..teams import PlayerRef, Team
from .components import Components, TeamTiles
from .model import Options


@dataclass(frozen=True, slots=True)
class CreateMatch(Command):
    """Teams, box data and options; the line-ups default to each team's suggested one."""

    home: TeamTiles
    away: TeamTiles
    components: Components
    options: Options
    home_lineup: tuple[int, ...] = ()
    away_lineup: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Move(Command):
    """Action C: move a player to a space (or, before a penalty, out of the area)."""

    player: PlayerRef
    to: Square


@dataclass(frozen=True, slots=True)
class Pass(Command):
    """Action A: pass the ball to a teammate (the kick-off is the first pass of a round)."""

    player: PlayerRef
    to: PlayerRef


@dataclass(frozen=True, slots=True)
class Kick(Command):
    """Action B: kick the ball to goal."""

    player: PlayerRef


@dataclass(frozen=True, slots=True)
class TakeBall(Command):
    """Action D: try to take the ball out of the adjacent opposing ball carrier."""

    player: PlayerRef


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """A coach is done before using all three actions."""

    team: Team


@dataclass(frozen=True, slots=True)
class Substitute(Command):
    """Replace a player on the field with a reserve, before the kick-off after a goal."""

    off: PlayerRef
    on: PlayerRef


@dataclass(frozen=True, slots=True)
class StartClock(Command):
    """Start (or resume) the match clock at the tablet's instant ``at``."""

    at: datetime


@dataclass(frozen=True, slots=True)
class PauseClock(Command):
    at: datetime
    reason: str = ""     # why, when the tablet stopped it itself ("the live screen was left")


@dataclass(frozen=True, slots=True)
class CallTimeUp(Command):
    """The tablet's clock proposes that the time limit is reached at ``at``."""

    at: datetime
