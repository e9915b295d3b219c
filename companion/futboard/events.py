"""Futboard's event payloads: the journal format of a Futboard match (see docs/journal.md).

Input events record what a coach or device said (they carry its source); derived events
(``DERIVED = True``) record what the rules concluded, always with source ``rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square
from ..dice import Roll
from ..events import EventPayload, parse_time
from ..teams import PlayerRef, Team
from .components import Components, TeamTiles
from .model import Contest, Options, Phase, Restart, Result


class _Instant:
    """Clock events carry the tablet's instant as ISO 8601 text with a zone."""

    __slots__ = ()

    def __post_init__(self) -> None:
        parse_time(self.at)  # raises DecodeError (a ValueError's sibling) on a bad instant


# --- input events ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MatchCreated(EventPayload):
    TYPE = "futboard.match_created"
    home: TeamTiles
    away: TeamTiles
    components: Components
    options: Options
    home_lineup: tuple[int, ...]
    away_lineup: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FigurePlaced(EventPayload):
    """A figure seen (vision) or put (manual) on a space outside any action: line-ups, the
    corner taker, the penalty taker, and corrections. ``space`` None: lifted off the board."""

    TYPE = "futboard.figure_placed"
    player: PlayerRef
    space: Square | None
    correction: bool = False


@dataclass(frozen=True, slots=True)
class PlayerMoved(EventPayload):
    """A movement: one of the turn's actions, or (``action`` false) a player leaving the
    penalty area before a penalty."""

    TYPE = "futboard.player_moved"
    player: PlayerRef
    start: Square
    to: Square
    steps: int
    action: bool = True


@dataclass(frozen=True, slots=True)
class BallPassed(EventPayload):
    """A pass, measured with the ruler (``marks`` from tile centre to tile centre)."""

    TYPE = "futboard.ball_passed"
    passer: PlayerRef
    receiver: PlayerRef
    marks: float


@dataclass(frozen=True, slots=True)
class KickTaken(EventPayload):
    TYPE = "futboard.kick_taken"
    kicker: PlayerRef
    space: Square


@dataclass(frozen=True, slots=True)
class TakeAttempted(EventPayload):
    TYPE = "futboard.take_attempted"
    player: PlayerRef
    carrier: PlayerRef


@dataclass(frozen=True, slots=True)
class DiceRolled(EventPayload):
    """A d12 for a pending request; ``reading`` is the face the rules use."""

    TYPE = "futboard.dice_rolled"
    request: str
    roll: Roll
    reading: int


@dataclass(frozen=True, slots=True)
class TurnEnded(EventPayload):
    """A coach ends his turn before using all three actions."""

    TYPE = "futboard.turn_ended"
    team: Team


@dataclass(frozen=True, slots=True)
class SubstitutionMade(EventPayload):
    TYPE = "futboard.substitution_made"
    off: PlayerRef
    on: PlayerRef


@dataclass(frozen=True, slots=True)
class ClockStarted(_Instant, EventPayload):
    TYPE = "futboard.clock_started"
    at: str


@dataclass(frozen=True, slots=True)
class ClockPaused(_Instant, EventPayload):
    TYPE = "futboard.clock_paused"
    at: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TimeUpCalled(_Instant, EventPayload):
    """The tablet's clock says the time limit is reached; ``elapsed_s`` as the fold counts it."""

    TYPE = "futboard.time_up_called"
    at: str
    elapsed_s: float


# --- derived events ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PendingOpened(EventPayload):
    TYPE = "futboard.pending_opened"
    DERIVED = True
    item: Contest


@dataclass(frozen=True, slots=True)
class ContestResolved(EventPayload):
    """A contest is settled; ``outcome`` says what it meant, for the log and the tablet."""

    TYPE = "futboard.contest_resolved"
    DERIVED = True
    id: int
    outcome: str


@dataclass(frozen=True, slots=True)
class KickOffTaken(EventPayload):
    """The kick-off: a new round starts, the ball with ``player`` in the centre circle."""

    TYPE = "futboard.kick_off_taken"
    DERIVED = True
    team: Team
    player: PlayerRef


@dataclass(frozen=True, slots=True)
class TurnStarted(EventPayload):
    """A coach's turn of ``actions`` actions starts (three, or two after a saved penalty)."""

    TYPE = "futboard.turn_started"
    DERIVED = True
    team: Team
    actions: int
    reason: str


@dataclass(frozen=True, slots=True)
class BallSet(EventPayload):
    TYPE = "futboard.ball_set"
    DERIVED = True
    carrier: PlayerRef | None
    reason: str


@dataclass(frozen=True, slots=True)
class PhaseStarted(EventPayload):
    TYPE = "futboard.phase_started"
    DERIVED = True
    phase: Phase
    reason: str


@dataclass(frozen=True, slots=True)
class RestartSet(EventPayload):
    TYPE = "futboard.restart_set"
    DERIVED = True
    restart: Restart | None


@dataclass(frozen=True, slots=True)
class FoulCommitted(EventPayload):
    TYPE = "futboard.foul_committed"
    DERIVED = True
    fouler: PlayerRef
    fouled: PlayerRef
    space: Square | None
    penalty: bool


@dataclass(frozen=True, slots=True)
class CardShown(EventPayload):
    """A yellow card; the second one sends the player off (he leaves the field)."""

    TYPE = "futboard.card_shown"
    DERIVED = True
    player: PlayerRef
    yellow_cards: int
    sent_off: bool


@dataclass(frozen=True, slots=True)
class GoalScored(EventPayload):
    TYPE = "futboard.goal_scored"
    DERIVED = True
    team: Team
    scorer: PlayerRef | None
    how: str


@dataclass(frozen=True, slots=True)
class MatchEnded(EventPayload):
    TYPE = "futboard.match_ended"
    DERIVED = True
    result: Result
