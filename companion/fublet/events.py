"""Fublet's event payloads: the journal format of a Fublet match (see docs/journal.md).

Input events record what a coach or device said (they carry its source); derived events
(``DERIVED = True``) record what the rules concluded, always with source ``rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Square
from ..dice import Roll
from ..events import EventPayload
from ..teams import PlayerRef, Team
from .components import Components, TeamRoster
from .model import (Ball, Choice, Contest, Declaration, Options, Period, Phase, Restart, Result, RoundKind,
                    Status, Test, Where)


# --- input events ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MatchCreated(EventPayload):
    TYPE = "fublet.match_created"
    home: TeamRoster
    away: TeamRoster
    components: Components
    options: Options = Options()


@dataclass(frozen=True, slots=True)
class DiceRolled(EventPayload):
    """A roll for a pending request; ``reading`` is the number the rules use (a percentile
    for 2d10, the die's value for a single die)."""

    TYPE = "fublet.dice_rolled"
    request: str
    roll: Roll
    reading: int


@dataclass(frozen=True, slots=True)
class BoardChosen(EventPayload):
    TYPE = "fublet.board_chosen"
    team: Team
    board: str


@dataclass(frozen=True, slots=True)
class FigurePlaced(EventPayload):
    """A figure seen (vision) or put (manual) somewhere, outside any rules movement:
    line-ups, restarts' positioning, entering substitutes, and corrections."""

    TYPE = "fublet.figure_placed"
    player: PlayerRef
    ms: Square | None
    facing: int | None = None
    correction: bool = False


@dataclass(frozen=True, slots=True)
class KickOffTaken(EventPayload):
    TYPE = "fublet.kick_off_taken"
    team: Team
    player: PlayerRef


@dataclass(frozen=True, slots=True)
class ActionDeclared(EventPayload):
    TYPE = "fublet.action_declared"
    declaration: Declaration


@dataclass(frozen=True, slots=True)
class DeflectionCalled(EventPayload):
    """A defender next to the passer tries to deflect; his test joins the pass's test."""

    TYPE = "fublet.deflection_called"
    defender: PlayerRef
    test: Test


@dataclass(frozen=True, slots=True)
class ChoiceMade(EventPayload):
    TYPE = "fublet.choice_made"
    request: str
    option: str


@dataclass(frozen=True, slots=True)
class PlayerMoved(EventPayload):
    """A single movement (Movement phase) or a tactical positioning of a restart."""

    TYPE = "fublet.player_moved"
    player: PlayerRef
    to: Square | None
    facing: int | None = None
    distance: int | None = None
    engage: bool = False
    tackle: str = ""


@dataclass(frozen=True, slots=True)
class ZoneMoved(EventPayload):
    TYPE = "fublet.zone_moved"
    team: Team
    zone: str
    moves: tuple[tuple[PlayerRef, Square], ...]


@dataclass(frozen=True, slots=True)
class TacticalMoveAttempted(EventPayload):
    TYPE = "fublet.tactical_move_attempted"
    player: PlayerRef
    to: Square | None
    facing: int | None = None


@dataclass(frozen=True, slots=True)
class OffsideCalled(EventPayload):
    TYPE = "fublet.offside_called"
    attacker: PlayerRef
    defenders: tuple[PlayerRef, ...]
    destinations: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnPassed(EventPayload):
    TYPE = "fublet.turn_passed"
    team: Team


@dataclass(frozen=True, slots=True)
class SubstitutionCalled(EventPayload):
    TYPE = "fublet.substitution_called"
    team: Team
    off: PlayerRef
    on: PlayerRef


@dataclass(frozen=True, slots=True)
class WallSet(EventPayload):
    TYPE = "fublet.wall_set"
    team: Team
    players: tuple[PlayerRef, ...]


@dataclass(frozen=True, slots=True)
class GoalkeeperAssigned(EventPayload):
    TYPE = "fublet.goalkeeper_assigned"
    player: PlayerRef
    card_of: PlayerRef


@dataclass(frozen=True, slots=True)
class TakerChosen(EventPayload):
    TYPE = "fublet.taker_chosen"
    player: PlayerRef


@dataclass(frozen=True, slots=True)
class BallReached(EventPayload):
    """Transition round: who reached the loose ball, when positions do not tell."""

    TYPE = "fublet.ball_reached"
    players: tuple[PlayerRef, ...]
    distance: int


@dataclass(frozen=True, slots=True)
class ShootoutKickTaken(EventPayload):
    TYPE = "fublet.shootout_kick_taken"
    team: Team
    kicker: PlayerRef


# --- derived events ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PendingOpened(EventPayload):
    TYPE = "fublet.pending_opened"
    DERIVED = True
    item: Contest | Choice
    front: bool = False


@dataclass(frozen=True, slots=True)
class ContestResolved(EventPayload):
    """A contest's dice are all in; ``outcome`` says what it meant, for the log and the UI."""

    TYPE = "fublet.contest_resolved"
    DERIVED = True
    id: int
    outcome: str


@dataclass(frozen=True, slots=True)
class PendingDropped(EventPayload):
    """Pending tests or choices that no longer matter (play stopped)."""

    TYPE = "fublet.pending_dropped"
    DERIVED = True
    ids: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class MpChanged(EventPayload):
    TYPE = "fublet.mp_changed"
    DERIVED = True
    team: Team
    delta: int
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class BallSet(EventPayload):
    TYPE = "fublet.ball_set"
    DERIVED = True
    ball: Ball


@dataclass(frozen=True, slots=True)
class PlayerRelocated(EventPayload):
    """The rules moved a figure (offside trap, speed dribbling stop, transition run,
    substitution, sending off)."""

    TYPE = "fublet.player_relocated"
    DERIVED = True
    player: PlayerRef
    ms: Square | None
    where: Where
    reason: str
    facing: int | None = None


@dataclass(frozen=True, slots=True)
class StatusSet(EventPayload):
    TYPE = "fublet.status_set"
    DERIVED = True
    player: PlayerRef
    status: Status
    stunned_until: int = 0


@dataclass(frozen=True, slots=True)
class PlayerInjured(EventPayload):
    TYPE = "fublet.player_injured"
    DERIVED = True
    player: PlayerRef
    result: int


@dataclass(frozen=True, slots=True)
class CardShown(EventPayload):
    TYPE = "fublet.card_shown"
    DERIVED = True
    player: PlayerRef
    colour: str
    sent_off: bool


@dataclass(frozen=True, slots=True)
class SubstitutionMade(EventPayload):
    TYPE = "fublet.substitution_made"
    DERIVED = True
    off: PlayerRef
    on: PlayerRef | None


@dataclass(frozen=True, slots=True)
class PaceSet(EventPayload):
    TYPE = "fublet.pace_set"
    DERIVED = True
    pace: int
    zone_pace: int


@dataclass(frozen=True, slots=True)
class ClockAdvanced(EventPayload):
    TYPE = "fublet.clock_advanced"
    DERIVED = True
    minutes: int
    minute: int
    time_up: bool


@dataclass(frozen=True, slots=True)
class PhaseStarted(EventPayload):
    TYPE = "fublet.phase_started"
    DERIVED = True
    phase: Phase
    round: int
    round_kind: RoundKind | None = None
    attacking: Team | None = None


@dataclass(frozen=True, slots=True)
class PeriodStarted(EventPayload):
    """A half begins: the stopwatch and both coaches' MP go back to 0."""

    TYPE = "fublet.period_started"
    DERIVED = True
    period: Period


@dataclass(frozen=True, slots=True)
class PicksSet(EventPayload):
    """Who picks a tactical board first this time, and who kicks off."""

    TYPE = "fublet.picks_set"
    DERIVED = True
    first_picker: Team
    kicker: Team


@dataclass(frozen=True, slots=True)
class GoalScored(EventPayload):
    TYPE = "fublet.goal_scored"
    DERIVED = True
    team: Team
    scorer: PlayerRef | None


@dataclass(frozen=True, slots=True)
class RestartSet(EventPayload):
    TYPE = "fublet.restart_set"
    DERIVED = True
    restart: Restart | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class DeclarationSet(EventPayload):
    TYPE = "fublet.declaration_set"
    DERIVED = True
    declaration: Declaration | None


@dataclass(frozen=True, slots=True)
class RoundStopped(EventPayload):
    """The round ends early (goal, ball out of play, foul, offside)."""

    TYPE = "fublet.round_stopped"
    DERIVED = True
    reason: str


@dataclass(frozen=True, slots=True)
class ShootoutKickResolved(EventPayload):
    TYPE = "fublet.shootout_kick_resolved"
    DERIVED = True
    team: Team
    kicker: PlayerRef
    scored: bool


@dataclass(frozen=True, slots=True)
class ShootoutStarted(EventPayload):
    TYPE = "fublet.shootout_started"
    DERIVED = True
    first: Team


@dataclass(frozen=True, slots=True)
class MatchEnded(EventPayload):
    TYPE = "fublet.match_ended"
    DERIVED = True
    result: Result
