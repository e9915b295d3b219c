"""Football Leader's event payloads: the journal format of a Football Leader match
(see docs/journal.md).

Input events record what a coach or device said (they carry its source); derived events
(``DERIVED = True``) record what the rules concluded, always with source ``rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dice import Roll as DiceRoll
from ..events import EventPayload
from ..teams import PlayerRef, Team
from .components import Card, Components, TeamRoster
from .model import (Choice, DodgePlan, Movement, Options, Period, Phase, Restart, Result, Roll, Stage,
                    StrategySheet, Unmarked)
from .pitch import Space


# --- input events ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MatchCreated(EventPayload):
    TYPE = "football_leader.match_created"
    home: TeamRoster
    away: TeamRoster
    components: Components
    options: Options = Options()


@dataclass(frozen=True, slots=True)
class StrategyWritten(EventPayload):
    TYPE = "football_leader.strategy_written"
    team: Team
    sheet: StrategySheet


@dataclass(frozen=True, slots=True)
class DiceRolled(EventPayload):
    """A roll for a pending request: ``reading`` is the die that counts, ``miss`` an
    automatic miss."""

    TYPE = "football_leader.dice_rolled"
    request: str
    roll: DiceRoll
    reading: int
    miss: bool = False


@dataclass(frozen=True, slots=True)
class ChoiceMade(EventPayload):
    TYPE = "football_leader.choice_made"
    request: str
    option: str


@dataclass(frozen=True, slots=True)
class StrategyChanged(EventPayload):
    TYPE = "football_leader.strategy_changed"
    team: Team
    player: PlayerRef
    goal_kick: Space | None = None
    kick_off: Space | None = None


@dataclass(frozen=True, slots=True)
class PlayerReplaced(EventPayload):
    TYPE = "football_leader.player_replaced"
    team: Team
    off: PlayerRef
    on: PlayerRef
    goal_kick: Space
    kick_off: Space


@dataclass(frozen=True, slots=True)
class SetUpConfirmed(EventPayload):
    TYPE = "football_leader.set_up_confirmed"
    team: Team


@dataclass(frozen=True, slots=True)
class KickOffTaken(EventPayload):
    TYPE = "football_leader.kick_off_taken"
    team: Team
    player: PlayerRef


@dataclass(frozen=True, slots=True)
class MoveDeclared(EventPayload):
    """A movement: the path (spaces after the start), its card when named, and the dodge
    plans of a ball carrier."""

    TYPE = "football_leader.move_declared"
    player: PlayerRef
    path: tuple[Space, ...]
    card: Card | None = None
    dodges: tuple[DodgePlan, ...] = ()


@dataclass(frozen=True, slots=True)
class PassDeclared(EventPayload):
    TYPE = "football_leader.pass_declared"
    passer: PlayerRef
    receiver: PlayerRef
    card: Card
    dodge_card: Card | None = None
    two_dice_on: str = ""


@dataclass(frozen=True, slots=True)
class DodgeDeclared(EventPayload):
    TYPE = "football_leader.dodge_declared"
    player: PlayerRef
    card: Card
    supporter: PlayerRef | None = None
    support_card: Card | None = None


@dataclass(frozen=True, slots=True)
class ShotDeclared(EventPayload):
    TYPE = "football_leader.shot_declared"
    shooter: PlayerRef
    card: Card


@dataclass(frozen=True, slots=True)
class TackleDeclared(EventPayload):
    TYPE = "football_leader.tackle_declared"
    tackler: PlayerRef
    card: Card
    hard: bool = False
    move_card: Card | None = None


@dataclass(frozen=True, slots=True)
class TurnEndCalled(EventPayload):
    TYPE = "football_leader.turn_end_called"
    team: Team


@dataclass(frozen=True, slots=True)
class GoalKickCalled(EventPayload):
    TYPE = "football_leader.goal_kick_called"
    team: Team


@dataclass(frozen=True, slots=True)
class ShootoutOrderSet(EventPayload):
    TYPE = "football_leader.shootout_order_set"
    team: Team
    kickers: tuple[PlayerRef, ...]


@dataclass(frozen=True, slots=True)
class ShootoutKickTaken(EventPayload):
    TYPE = "football_leader.shootout_kick_taken"
    team: Team
    kicker: PlayerRef
    card: Card


@dataclass(frozen=True, slots=True)
class FigurePlaced(EventPayload):
    """A counter seen (vision) or put (manual) in a space outside any movement: at a set-up,
    or as a correction."""

    TYPE = "football_leader.figure_placed"
    player: PlayerRef
    space: Space | None
    correction: bool = False


# --- derived events ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PendingOpened(EventPayload):
    TYPE = "football_leader.pending_opened"
    DERIVED = True
    item: Roll | Choice
    front: bool = False


@dataclass(frozen=True, slots=True)
class RollResolved(EventPayload):
    """A pending roll's dice are all in; ``outcome`` says what they meant."""

    TYPE = "football_leader.roll_resolved"
    DERIVED = True
    id: int
    outcome: str


@dataclass(frozen=True, slots=True)
class FirstPlayerSet(EventPayload):
    TYPE = "football_leader.first_player_set"
    DERIVED = True
    team: Team


@dataclass(frozen=True, slots=True)
class PeriodStarted(EventPayload):
    TYPE = "football_leader.period_started"
    DERIVED = True
    period: Period


@dataclass(frozen=True, slots=True)
class PhaseSet(EventPayload):
    TYPE = "football_leader.phase_set"
    DERIVED = True
    phase: Phase


@dataclass(frozen=True, slots=True)
class DeckShuffled(EventPayload):
    """A coach shuffles a deck of ``size`` cards (his hand goes back into it). ``fresh`` False
    for the second part of an extra-time deck: the cards played from the first part count."""

    TYPE = "football_leader.deck_shuffled"
    DERIVED = True
    team: Team
    size: int
    fresh: bool = True


@dataclass(frozen=True, slots=True)
class CardsDrawn(EventPayload):
    TYPE = "football_leader.cards_drawn"
    DERIVED = True
    team: Team
    count: int
    reason: str


@dataclass(frozen=True, slots=True)
class CardPlayed(EventPayload):
    TYPE = "football_leader.card_played"
    DERIVED = True
    team: Team
    card: Card
    purpose: str


@dataclass(frozen=True, slots=True)
class LastTurnSet(EventPayload):
    """A deck ran out: the half ends after turn ``turn``."""

    TYPE = "football_leader.last_turn_set"
    DERIVED = True
    team: Team
    turn: int


@dataclass(frozen=True, slots=True)
class TurnStarted(EventPayload):
    TYPE = "football_leader.turn_started"
    DERIVED = True
    team: Team
    number: int
    stage: Stage = Stage.START


@dataclass(frozen=True, slots=True)
class StageSet(EventPayload):
    TYPE = "football_leader.stage_set"
    DERIVED = True
    stage: Stage


@dataclass(frozen=True, slots=True)
class TurnNoted(EventPayload):
    """What a combined action needs to know later in the turn: ``what`` is "receiver" (got a
    pass), "dodged" (got unmarked), "supported" (the turn's supported dodge is used) or
    "startup" (this carrier moves one space at most)."""

    TYPE = "football_leader.turn_noted"
    DERIVED = True
    what: str
    player: PlayerRef | None = None


@dataclass(frozen=True, slots=True)
class TurnFinished(EventPayload):
    TYPE = "football_leader.turn_finished"
    DERIVED = True
    team: Team
    number: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class CounterMoved(EventPayload):
    """A counter changes space: ``moved`` True for a movement (it counts for the turn's
    combined actions), False when the rules put it there (taking a missed pass)."""

    TYPE = "football_leader.counter_moved"
    DERIVED = True
    player: PlayerRef
    to: Space
    moved: bool = True


@dataclass(frozen=True, slots=True)
class MarkerPlaced(EventPayload):
    """A Moved Marker on ``player``; ``cleared`` lose theirs (the fifth marker)."""

    TYPE = "football_leader.marker_placed"
    DERIVED = True
    player: PlayerRef
    cleared: tuple[PlayerRef, ...] = ()


@dataclass(frozen=True, slots=True)
class MovementSet(EventPayload):
    TYPE = "football_leader.movement_set"
    DERIVED = True
    movement: Movement | None


@dataclass(frozen=True, slots=True)
class BallSet(EventPayload):
    TYPE = "football_leader.ball_set"
    DERIVED = True
    player: PlayerRef | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class UnmarkedSet(EventPayload):
    TYPE = "football_leader.unmarked_set"
    DERIVED = True
    unmarked: Unmarked | None


@dataclass(frozen=True, slots=True)
class GuardSet(EventPayload):
    """Tackle loop rule: ``player`` won the ball by a tackle in turn ``turn``."""

    TYPE = "football_leader.guard_set"
    DERIVED = True
    player: PlayerRef
    turn: int


@dataclass(frozen=True, slots=True)
class CardShown(EventPayload):
    TYPE = "football_leader.card_shown"
    DERIVED = True
    player: PlayerRef
    colour: str
    sent_off: bool


@dataclass(frozen=True, slots=True)
class KeeperAssigned(EventPayload):
    """A counter goes in goal with BRONZE-8 parry and defence (6.2); ``substitute`` when he
    comes from the bench (a replacement)."""

    TYPE = "football_leader.keeper_assigned"
    DERIVED = True
    player: PlayerRef
    substitute: bool


@dataclass(frozen=True, slots=True)
class RestartSet(EventPayload):
    TYPE = "football_leader.restart_set"
    DERIVED = True
    restart: Restart | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FormationSet(EventPayload):
    """The counters line up as the strategy sheets say (``kind``: "goal_kick" or "kick_off");
    every Moved Marker comes off."""

    TYPE = "football_leader.formation_set"
    DERIVED = True
    kind: str
    positions: tuple[tuple[PlayerRef, Space], ...]


@dataclass(frozen=True, slots=True)
class GoalScored(EventPayload):
    TYPE = "football_leader.goal_scored"
    DERIVED = True
    team: Team
    scorer: PlayerRef | None


@dataclass(frozen=True, slots=True)
class ShootoutStarted(EventPayload):
    TYPE = "football_leader.shootout_started"
    DERIVED = True
    first: Team


@dataclass(frozen=True, slots=True)
class ShootoutKickResolved(EventPayload):
    TYPE = "football_leader.shootout_kick_resolved"
    DERIVED = True
    team: Team
    kicker: PlayerRef
    scored: bool


@dataclass(frozen=True, slots=True)
class MatchEnded(EventPayload):
    TYPE = "football_leader.match_ended"
    DERIVED = True
    result: Result
