"""The Fußball-Liga variant's event payloads: the journal format of its matches (see
docs/journal.md, "Fußball-Liga variant events").

Input events record what a coach or a device said and carry its source; derived events
(``DERIVED = True``) record what the rules concluded and always carry the source ``rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square
from ..dice import Roll
from ..events import EventPayload
from ..teams import PlayerRef, Team
from .clock import Instant
from .components import Components, Roster
from .model import Ask, Ball, Choice, Options, Period, Phase, Restart, Result


# --- input events --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MatchCreated(EventPayload):
    TYPE = "fussball_liga.match_created"
    home: Roster
    away: Roster
    components: Components
    options: Options = Options()


@dataclass(frozen=True, slots=True)
class DiceRolled(EventPayload):
    """A roll for a pending request; ``reading`` is the total of the faces."""

    TYPE = "fussball_liga.dice_rolled"
    request: str
    roll: Roll
    reading: int


@dataclass(frozen=True, slots=True)
class ChoiceMade(EventPayload):
    TYPE = "fussball_liga.choice_made"
    request: str
    option: str


@dataclass(frozen=True, slots=True)
class FigurePlaced(EventPayload):
    """A figure put somewhere outside any movement rule: the line-up before a kick-off, the
    free placement before a penalty kick, a substitute entering, or a correction."""

    TYPE = "fussball_liga.figure_placed"
    player: PlayerRef
    square: Square | None
    correction: bool = False


@dataclass(frozen=True, slots=True)
class BallPlaced(EventPayload):
    """A person corrects where the ball lies (and who controls it)."""

    TYPE = "fussball_liga.ball_placed"
    ball: Ball


@dataclass(frozen=True, slots=True)
class KickTaken(EventPayload):
    """A shot, pass, follow-up or restart kick: the announced target and the squares the
    ball will cross (``path``, the origin left out)."""

    TYPE = "fussball_liga.kick_taken"
    player: PlayerRef
    origin: Square
    target: Square
    path: tuple[Square, ...]
    kind: str
    receiver: PlayerRef | None = None


@dataclass(frozen=True, slots=True)
class InterceptionCalled(EventPayload):
    """A defender tries to stop a kick at a square of its path (``index`` into the path)."""

    TYPE = "fussball_liga.interception_called"
    player: PlayerRef
    square: Square
    index: int


@dataclass(frozen=True, slots=True)
class PlayerMoved(EventPayload):
    """A movement (movement phase) or a re-positioning (after a stoppage): the squares the
    figure stepped through and the movement points it cost."""

    TYPE = "fussball_liga.player_moved"
    player: PlayerRef
    path: tuple[Square, ...]
    cost: int


@dataclass(frozen=True, slots=True)
class BallMoved(EventPayload):
    """The ball carrier moves the ball around himself, into or out of his own square."""

    TYPE = "fussball_liga.ball_moved"
    player: PlayerRef
    to: Square
    cost: int


@dataclass(frozen=True, slots=True)
class TackleCalled(EventPayload):
    """A dribbling interception: the defender trying to get the ball, the ones supporting
    him, and whether he declared "fair play"."""

    TYPE = "fussball_liga.tackle_called"
    principal: PlayerRef
    supporters: tuple[PlayerRef, ...] = ()
    fair_play: bool = False


@dataclass(frozen=True, slots=True)
class TurnPassed(EventPayload):
    """A coach is done: no kick this shot phase, no more interception attempts on this kick,
    the end of his movement step, or the end of his re-positioning."""

    TYPE = "fussball_liga.turn_passed"
    team: Team


@dataclass(frozen=True, slots=True)
class GoalkeeperHeld(EventPayload):
    """The goalkeeper who intercepted announces he holds the ball for one turn."""

    TYPE = "fussball_liga.goalkeeper_held"
    player: PlayerRef


@dataclass(frozen=True, slots=True)
class PenaltyTaken(EventPayload):
    TYPE = "fussball_liga.penalty_taken"
    kicker: PlayerRef


@dataclass(frozen=True, slots=True)
class MisconductCalled(EventPayload):
    """A coach acting as referee calls a violation: ``offence`` is "foul" (foul play),
    "shot_out", "played_on" (after time ran out) or "other" (willful misconduct)."""

    TYPE = "fussball_liga.misconduct_called"
    player: PlayerRef
    offence: str


@dataclass(frozen=True, slots=True)
class SubstitutionMade(EventPayload):
    TYPE = "fussball_liga.substitution_made"
    off: PlayerRef
    on: PlayerRef
    goalkeeper: bool = False


@dataclass(frozen=True, slots=True)
class ClockPaused(EventPayload):
    """The tablet's match clock stops (an interruption); the envelope's time is when."""

    TYPE = "fussball_liga.clock_paused"
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ClockResumed(EventPayload):
    TYPE = "fussball_liga.clock_resumed"


@dataclass(frozen=True, slots=True)
class TimeUp(EventPayload):
    """The tablet (or a coach) says time ran out: ``kind`` "half" (playing time) or "phase"
    (the phase limit; ``team`` names whose chess-clock time it was). ``at`` is the tablet's
    time and ``reading`` the clock's reading then, in seconds."""

    TYPE = "fussball_liga.time_up"
    kind: str
    at: Instant
    reading: float
    team: Team | None = None
    correction: bool = False


# --- derived events ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PendingOpened(EventPayload):
    TYPE = "fussball_liga.pending_opened"
    DERIVED = True
    item: Ask | Choice
    front: bool = False


@dataclass(frozen=True, slots=True)
class RollResolved(EventPayload):
    """A roll read against its table; ``outcome`` says what it meant."""

    TYPE = "fussball_liga.roll_resolved"
    DERIVED = True
    id: int
    original: int
    modified: int
    outcome: str


@dataclass(frozen=True, slots=True)
class PendingDropped(EventPayload):
    TYPE = "fussball_liga.pending_dropped"
    DERIVED = True
    ids: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class BallSet(EventPayload):
    TYPE = "fussball_liga.ball_set"
    DERIVED = True
    ball: Ball


@dataclass(frozen=True, slots=True)
class FlightEnded(EventPayload):
    """A kick's flight is over (arrived, intercepted, or stopped by a whistle)."""

    TYPE = "fussball_liga.flight_ended"
    DERIVED = True
    reason: str


@dataclass(frozen=True, slots=True)
class PhaseStarted(EventPayload):
    TYPE = "fussball_liga.phase_started"
    DERIVED = True
    phase: Phase
    turn: int
    attacking: Team | None


@dataclass(frozen=True, slots=True)
class StepChanged(EventPayload):
    """Movement phase: whose step it is now, and whether the attacker is done moving."""

    TYPE = "fussball_liga.step_changed"
    DERIVED = True
    turn: Team | None
    attacker_done: bool
    reason: str


@dataclass(frozen=True, slots=True)
class RestartSet(EventPayload):
    TYPE = "fussball_liga.restart_set"
    DERIVED = True
    restart: Restart | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class OffsideGiven(EventPayload):
    TYPE = "fussball_liga.offside_given"
    DERIVED = True
    player: PlayerRef
    square: Square


@dataclass(frozen=True, slots=True)
class FoulCommitted(EventPayload):
    TYPE = "fussball_liga.foul_committed"
    DERIVED = True
    player: PlayerRef
    spot: Square
    fouls: int


@dataclass(frozen=True, slots=True)
class CardShown(EventPayload):
    TYPE = "fussball_liga.card_shown"
    DERIVED = True
    player: PlayerRef
    colour: str
    reason: str
    sent_off: bool = False


@dataclass(frozen=True, slots=True)
class GoalkeeperNamed(EventPayload):
    TYPE = "fussball_liga.goalkeeper_named"
    DERIVED = True
    player: PlayerRef
    stand_in: bool


@dataclass(frozen=True, slots=True)
class GoalScored(EventPayload):
    TYPE = "fussball_liga.goal_scored"
    DERIVED = True
    team: Team
    scorer: PlayerRef | None


@dataclass(frozen=True, slots=True)
class KickOffSet(EventPayload):
    """After the coin toss: who kicks off first and which end Home defends first."""

    TYPE = "fussball_liga.kick_off_set"
    DERIVED = True
    toss_winner: Team
    kicker: Team
    home_end: str


@dataclass(frozen=True, slots=True)
class PeriodStarted(EventPayload):
    TYPE = "fussball_liga.period_started"
    DERIVED = True
    period: Period
    kicker: Team
    home_end: str


@dataclass(frozen=True, slots=True)
class HalfClockStarted(EventPayload):
    """The half's kick-off is taken: its real-time clock starts (at the envelope's time)."""

    TYPE = "fussball_liga.half_clock_started"
    DERIVED = True
    period: Period


@dataclass(frozen=True, slots=True)
class PeriodEnded(EventPayload):
    TYPE = "fussball_liga.period_ended"
    DERIVED = True
    period: Period
    reason: str


@dataclass(frozen=True, slots=True)
class HoldingSet(EventPayload):
    """A goalkeeper holds the ball for a turn (``player``), or stops holding it (None)."""

    TYPE = "fussball_liga.holding_set"
    DERIVED = True
    player: PlayerRef | None
    turn: int = 0


@dataclass(frozen=True, slots=True)
class BonusSpent(EventPayload):
    """Optional rule Bonus Points: points of a player's pool used on a roll."""

    TYPE = "fussball_liga.bonus_spent"
    DERIVED = True
    player: PlayerRef
    points: int


@dataclass(frozen=True, slots=True)
class ShootoutStarted(EventPayload):
    TYPE = "fussball_liga.shootout_started"
    DERIVED = True
    first: Team


@dataclass(frozen=True, slots=True)
class ShootoutKickResolved(EventPayload):
    TYPE = "fussball_liga.shootout_kick_resolved"
    DERIVED = True
    team: Team
    kicker: PlayerRef
    scored: bool


@dataclass(frozen=True, slots=True)
class MatchEnded(EventPayload):
    TYPE = "fussball_liga.match_ended"
    DERIVED = True
    result: Result
