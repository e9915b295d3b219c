"""The Fußball-Liga variant's own commands. Dice arrive as the core's SubmitRoll, choices as
Choose, figure positions as PlaceFigure (camera or tap): see companion/commands.py."""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square
from ..ruleset import Command
from ..teams import PlayerRef, Team
from .clock import Instant
from .components import Components, Roster
from .model import Control, Options


@dataclass(frozen=True, slots=True)
class CreateMatch(Command):
    home: Roster
    away: Roster
    components: Components
    options: Options = Options()


@dataclass(frozen=True, slots=True)
class Kick(Command):
    """A shot or pass to an announced target square, a follow-up, or a restart's kick.
    ``receiver`` names the teammate taking a pass to a square next to several of them;
    ``drop`` is where a goalkeeper who held the ball drops it before kicking."""

    player: PlayerRef
    target: Square
    receiver: PlayerRef | None = None
    drop: Square | None = None


@dataclass(frozen=True, slots=True)
class Intercept(Command):
    """A defender tries to stop a kick in a square of its path."""

    player: PlayerRef
    square: Square


@dataclass(frozen=True, slots=True)
class Move(Command):
    """Move a figure to ``to`` (the ball carrier takes the ball along). ``path``: the squares
    stepped through, ending at ``to``; without it the cheapest legal path is charged.
    ``hand_to``: the teammate next to the ball who takes it over at the end of the move."""

    player: PlayerRef
    to: Square
    path: tuple[Square, ...] = ()
    hand_to: PlayerRef | None = None


@dataclass(frozen=True, slots=True)
class MoveBall(Command):
    """The ball carrier moves the ball around himself (one point per 45 degrees), out to a
    square next to him, or into his own square."""

    player: PlayerRef
    to: Square


@dataclass(frozen=True, slots=True)
class Tackle(Command):
    """A dribbling interception: ``principal`` (next to the ball) tries to get it; the
    ``supporters`` commit themselves too."""

    principal: PlayerRef
    supporters: tuple[PlayerRef, ...] = ()
    fair_play: bool = False


@dataclass(frozen=True, slots=True)
class PassTurn(Command):
    """The coach is done for now: no kick, no more interception attempts, the end of a
    movement step, or the end of his re-positioning."""

    team: Team


@dataclass(frozen=True, slots=True)
class HoldBall(Command):
    """The goalkeeper who intercepted holds the ball for one turn."""

    player: PlayerRef


@dataclass(frozen=True, slots=True)
class TakePenalty(Command):
    kicker: PlayerRef


@dataclass(frozen=True, slots=True)
class CallMisconduct(Command):
    """A coach acting as referee calls a violation by ``player``: "foul" (foul play: a
    free-kick), or a willful one (a yellow card): "shot_out" (a shot aimed off the field),
    "played_on" (playing on after time ran out) or "other"."""

    player: PlayerRef
    offence: str


@dataclass(frozen=True, slots=True)
class Substitute(Command):
    off: PlayerRef
    on: PlayerRef
    goalkeeper: bool = False


@dataclass(frozen=True, slots=True)
class PlaceBall(Command):
    """A correction of where the ball lies and who controls it."""

    square: Square | None
    holder: PlayerRef | None = None
    control: Control | None = None


@dataclass(frozen=True, slots=True)
class PauseClock(Command):
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ResumeClock(Command):
    pass


@dataclass(frozen=True, slots=True)
class CallTimeUp(Command):
    """The tablet's clock (or a coach) says time ran out at ``at``: "half" or "phase"
    (``team``: whose chess-clock time). ``correction``: a person overrides the clock."""

    kind: str
    at: Instant
    team: Team | None = None
    correction: bool = False
