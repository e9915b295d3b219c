"""Football Leader's commands: what a coach (through the tablet) or a device says happened.

Cards are named by colour and values (``Card.parse("gold-4-12")``): the coach lays the card
face up. A movement may leave its card out (the camera sees a counter move, not the card):
the rules then ask which card it was. Every other action names its card.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ruleset import Command
from ..teams import PlayerRef, Team
from .components import Card, Components, TeamRoster
from .model import DodgePlan, Options, StrategySheet
from .pitch import Space


@dataclass(frozen=True, slots=True)
class CreateMatch(Command):
    home: TeamRoster
    away: TeamRoster
    components: Components
    options: Options = Options()


@dataclass(frozen=True, slots=True)
class WriteStrategy(Command):
    """1.3: a coach's strategy sheet, before the match."""

    team: Team
    sheet: StrategySheet


@dataclass(frozen=True, slots=True)
class ChangeStrategy(Command):
    """6.1: one of three position modifications: a counter's goal-kick and/or kick-off space."""

    team: Team
    player: PlayerRef
    goal_kick: Space | None = None
    kick_off: Space | None = None


@dataclass(frozen=True, slots=True)
class Replace(Command):
    """6.1: one of three replacements; the new counter takes the spaces given, else those of
    the counter leaving."""

    team: Team
    off: PlayerRef
    on: PlayerRef
    goal_kick: Space | None = None
    kick_off: Space | None = None


@dataclass(frozen=True, slots=True)
class ConfirmSetUp(Command):
    """A coach's counters stand as his sheet says; the kick can be taken once both confirm."""

    team: Team


@dataclass(frozen=True, slots=True)
class KickOff(Command):
    """3.9: the kicker names the counter, in a central space, that carries the ball."""

    player: PlayerRef


@dataclass(frozen=True, slots=True)
class Move(Command):
    """A movement (main action or extra movement). ``path`` lists the spaces after the start
    (the cheapest is used when empty); a ball carrier leaving defended spaces names one
    ``dodges`` plan per dodge, or is asked for each card."""

    player: PlayerRef
    to: Space
    card: Card | None = None
    path: tuple[Space, ...] = ()
    dodges: tuple[DodgePlan, ...] = ()


@dataclass(frozen=True, slots=True)
class Pass(Command):
    """A pass from the ball carrier. ``dodge_card`` makes it a pass and dodge (the receiver
    dodges first); ``two_dice_on`` ("dodge" or "pass") is where an Unmark counter rolls two."""

    receiver: PlayerRef
    card: Card
    dodge_card: Card | None = None
    two_dice_on: str = ""


@dataclass(frozen=True, slots=True)
class Dodge(Command):
    """A simple dodge by the ball carrier, optionally supported by a teammate in his space."""

    card: Card
    supporter: PlayerRef | None = None
    support_card: Card | None = None


@dataclass(frozen=True, slots=True)
class Shoot(Command):
    """A shot by the ball carrier, or a direct free kick or penalty by ``taker``."""

    card: Card
    taker: PlayerRef | None = None


@dataclass(frozen=True, slots=True)
class Tackle(Command):
    """A tackle on the ball carrier. ``hard`` for a hard tackle; ``move_card`` makes it a move
    and tackle (one space into the carrier's space, always hard)."""

    player: PlayerRef
    card: Card
    hard: bool = False
    move_card: Card | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """No (more) actions this turn: no extra movement, or nothing to play."""

    team: Team


@dataclass(frozen=True, slots=True)
class CallGoalKick(Command):
    """3.6: the goalkeeper who won the ball in a tackle takes a goal kick."""

    team: Team


@dataclass(frozen=True, slots=True)
class SetShootoutOrder(Command):
    """6.3: the order in which a coach's counters shoot."""

    team: Team
    kickers: tuple[PlayerRef, ...]


@dataclass(frozen=True, slots=True)
class TakeShootoutKick(Command):
    team: Team
    card: Card
