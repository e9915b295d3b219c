"""Fublet's commands: what a coach (through the tablet) or a device says happened."""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square
from ..ruleset import Command
from ..teams import PlayerRef, Team
from .components import Action, Components, TeamRoster
from .model import Options, ShotPlan, Zone


@dataclass(frozen=True, slots=True)
class CreateMatch(Command):
    home: TeamRoster
    away: TeamRoster
    components: Components
    options: Options = Options()


@dataclass(frozen=True, slots=True)
class ChooseBoard(Command):
    team: Team
    board: str


@dataclass(frozen=True, slots=True)
class KickOff(Command):
    """Kick-off, a free action: the ball goes to a teammate in the kicker's midfield zone."""

    player: PlayerRef


@dataclass(frozen=True, slots=True)
class Declare(Command):
    """The ball carrier declares an action. Passes and crosses name the target PS; runs
    name the target MS; shots carry their plan. ``distance`` is needed only where the
    figures' positions are not known (otherwise it is measured, and must agree if given)."""

    player: PlayerRef
    action: Action
    target_ps: Square | None = None
    target_ms: Square | None = None
    distance: int | None = None
    shot: ShotPlan | None = None
    opponents: tuple[PlayerRef, ...] = ()


@dataclass(frozen=True, slots=True)
class Volley(Command):
    """A player meeting a long pass or cross in the opponents' half shoots first time, at
    ``target_ps`` (a goal-line PS; the trajectory's last PS, or the first goal-line PS, when
    not given)."""

    player: PlayerRef
    shot: ShotPlan
    target_ps: Square | None = None


@dataclass(frozen=True, slots=True)
class CallDeflection(Command):
    defender: PlayerRef


@dataclass(frozen=True, slots=True)
class Move(Command):
    """A single movement (Movement phase), or a positioning at a restart. ``engage`` ends the
    move next to the ball carrier to tackle him in the Event phase."""

    player: PlayerRef
    to: Square
    facing: int | None = None
    engage: bool = False
    tackle: str = ""


@dataclass(frozen=True, slots=True)
class ZoneMove(Command):
    team: Team
    zone: Zone
    moves: tuple[tuple[PlayerRef, Square], ...]


@dataclass(frozen=True, slots=True)
class TacticalMove(Command):
    player: PlayerRef
    to: Square
    facing: int | None = None


@dataclass(frozen=True, slots=True)
class CallOffside(Command):
    attacker: PlayerRef
    defenders: tuple[PlayerRef, ...]
    destinations: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class PassTurn(Command):
    """A coach makes no (more) movements this phase, or ends his positioning step."""

    team: Team


@dataclass(frozen=True, slots=True)
class CallSubstitution(Command):
    team: Team
    off: PlayerRef
    on: PlayerRef


@dataclass(frozen=True, slots=True)
class SetWall(Command):
    team: Team
    players: tuple[PlayerRef, ...]


@dataclass(frozen=True, slots=True)
class ChooseTaker(Command):
    player: PlayerRef


@dataclass(frozen=True, slots=True)
class ReachBall(Command):
    """Transition round, when positions are not known: who reached the loose ball, and how
    many MS the nearest ran."""

    players: tuple[PlayerRef, ...]
    distance: int


@dataclass(frozen=True, slots=True)
class TakeShootoutKick(Command):
    kicker: PlayerRef
