"""Fublet's match state: small frozen records, folded from the journal by ``evolve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..board import Square
from ..dice import DiceSpec, PercentileReading
from ..records import unshadowed
from ..teams import CodeEnum, PlayerRef, Team
from ..typed import check_fields
from .components import Action, Components, PlayerCard, Skill, TeamRoster

MP_CAP = 20
SKILL_MIN, SKILL_MAX = 10, 90
INJURY_RESULTS = (25, 50, 75)
HALF_MINUTES = 45
EXTRA_HALF_MINUTES = 15
MAX_SUBSTITUTIONS = 3
WALL_VALUE_PER_PLAYER = 10
MAX_WALL = 5
GK_DIVE_MAX_MS = 3
GK_DIVE_PENALTY = 10
SHOOTOUT_KICKS = 5
FREE_KICK_DISTANCE_MS = 5


class Period(CodeEnum):
    PRE_MATCH = "pre_match"
    FIRST_HALF = "first_half"
    SECOND_HALF = "second_half"
    EXTRA_FIRST = "extra_time_first"
    EXTRA_SECOND = "extra_time_second"
    SHOOTOUT = "shootout"
    FULL_TIME = "full_time"

    @property
    def minutes(self) -> int:
        return EXTRA_HALF_MINUTES if self in (Period.EXTRA_FIRST, Period.EXTRA_SECOND) else HALF_MINUTES

    @property
    def offset(self) -> int:
        """Minutes played before this period, for the scoreboard's match minute."""
        return {Period.SECOND_HALF: 45, Period.EXTRA_FIRST: 90, Period.EXTRA_SECOND: 105,
                Period.SHOOTOUT: 120, Period.FULL_TIME: 0}.get(self, 0)

    @property
    def label(self) -> str:
        return {Period.PRE_MATCH: "pre-match", Period.FIRST_HALF: "1st half", Period.SECOND_HALF: "2nd half",
                Period.EXTRA_FIRST: "extra time, 1st half", Period.EXTRA_SECOND: "extra time, 2nd half",
                Period.SHOOTOUT: "penalty shoot-out", Period.FULL_TIME: "full time"}[self]


class Phase(CodeEnum):
    OPENING_ROLL = "opening_roll"
    BOARD_PICK = "board_pick"
    KICK_OFF = "kick_off"
    RESTART = "restart"
    DECLARATION = "declaration"
    OUTCOME = "outcome"
    MOVEMENT = "movement"
    EVENT = "event"
    TACTICAL_MOVEMENT = "tactical_movement"
    ROUND_END = "round_end"
    SHOOTOUT = "shootout"
    OVER = "over"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


class RoundKind(CodeEnum):
    REGULAR = "regular"
    TRANSITION = "transition"


class Status(CodeEnum):
    """The card's orientation: upright, sideways (exhausted) or face down (stunned)."""

    READY = "ready"
    EXHAUSTED = "exhausted"
    STUNNED = "stunned"


class Where(CodeEnum):
    PITCH = "pitch"
    BENCH = "bench"
    OUT = "out"  # substituted off, sent off, or injured and gone


class Flight(CodeEnum):
    """How the ball reached a loose PS; decides ball control versus a plain reception."""

    SHORT = "short"      # short pass or throw-in
    HIGH = "high"        # long pass or cross: ball control needed
    LOOSE = "loose"      # scatter, deflection, lost challenge
    SHOT = "shot"        # a good shot on its way to goal


class RestartKind(CodeEnum):
    KICK_OFF = "kick_off"
    FREE_KICK = "free_kick"
    PENALTY = "penalty_kick"
    CORNER = "corner_kick"
    THROW_IN = "throw_in"
    GOAL_KICK = "goal_kick"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


class Zone(CodeEnum):
    DEFENSE = "defense"
    MIDFIELD = "midfield"
    ATTACK = "attack"


@dataclass(frozen=True, slots=True)
class Options:
    championship: bool = False  # draws stand: no extra time, no shoot-out; 3/1/0 points
    percentile: PercentileReading = PercentileReading()
    home_defends_low: bool = True  # home's goal is at x = 0 (no change of ends: see assumptions)

    def __post_init__(self) -> None:
        check_fields(self)


@unshadowed
@dataclass(frozen=True)
class Ball:
    carrier: PlayerRef | None = None
    ps: Square | None = None        # where a loose ball lies
    flight: Flight | None = None    # how it got there, while loose
    last_touch: Team | None = None

    @property
    def loose(self) -> bool:
        return self.carrier is None


@unshadowed
@dataclass(frozen=True)
class PlayerState:
    ref: PlayerRef
    card: PlayerCard
    where: Where = Where.BENCH
    ms: Square | None = None
    facing: int | None = None       # degrees, 0 = +x, counter-clockwise
    status: Status = Status.READY
    stunned_until: int = 0          # round number at whose end the stun wears off
    goalkeeper: bool = False
    gk_card: PlayerCard | None = None  # an injured goalkeeper's card, taken over
    yellow: int = 0
    red: bool = False
    injured: bool = False
    sent_off: bool = False
    substituted: bool = False
    manual: bool = False            # position last set by hand

    @property
    def on_pitch(self) -> bool:
        return self.where is Where.PITCH

    @property
    def can_move(self) -> bool:
        return self.on_pitch and self.status is Status.READY and not self.injured

    def skill(self, skill: Skill) -> int:
        card = self.gk_card if (self.gk_card is not None and skill in self.gk_card.skills) else self.card
        return card.skill(skill)

    @property
    def speed(self) -> int:
        return self.card.speed


@dataclass(frozen=True, slots=True)
class Modifier:
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Test:
    """One coach's roll inside a pending contest. ``skill`` None is a plain die (scatter,
    opening roll) or the wall. ``result`` is filled when the dice arrive."""

    team: Team | None
    label: str
    dice: DiceSpec
    player: PlayerRef | None = None
    skill: Skill | None = None
    base: int = 0
    modifiers: tuple[Modifier, ...] = ()
    target: int = 0
    injury_risk: bool = False
    result: int | None = None
    carried: bool = False   # the result of an earlier roll, reused (a shot's roll against the save)

    @property
    def is_skill_test(self) -> bool:
        return self.target > 0

    @property
    def success(self) -> bool:
        return self.result is not None and self.result <= self.target


# --- what a pending contest is for (tagged, so the journal names it) --------------------------

@dataclass(frozen=True, slots=True)
class OpeningCtx:
    TAG: ClassVar[str] = "opening"


@dataclass(frozen=True, slots=True)
class ActionCtx:
    """The declared action's own test (pass, cross, shot, speed dribbling), with any
    deflecting or challenging defenders rolling beside it."""

    TAG: ClassVar[str] = "action"
    defenders: tuple[PlayerRef, ...] = ()


@dataclass(frozen=True, slots=True)
class ShotDeflectionCtx:
    TAG: ClassVar[str] = "shot_deflection"
    shot_result: int = 0


@dataclass(frozen=True, slots=True)
class WallCtx:
    TAG: ClassVar[str] = "wall"
    shot_result: int = 0


@dataclass(frozen=True, slots=True)
class SaveCtx:
    TAG: ClassVar[str] = "save"
    shot_result: int = 0
    dive: int = 0
    penalty_kick: bool = False


@dataclass(frozen=True, slots=True)
class HandlingCtx:
    TAG: ClassVar[str] = "handling"
    shot_result: int = 0
    save_ps: Square | None = None


@dataclass(frozen=True, slots=True)
class ScatterCtx:
    TAG: ClassVar[str] = "scatter"
    origin: Square | None = None
    distance: int = 1
    cause: str = ""                 # "pass", "shot", "save", "handling", "deflection", "challenge", "ball_control"
    last_touch: Team | None = None
    towards_team_goal: Team | None = None  # the defending team: face 1 points at its goal


@unshadowed
@dataclass(frozen=True)
class BallControlCtx:
    TAG: ClassVar[str] = "ball_control"


@dataclass(frozen=True, slots=True)
class DisputeCtx:
    TAG: ClassVar[str] = "dispute"
    aerial: bool = False


@dataclass(frozen=True, slots=True)
class EngagementCtx:
    TAG: ClassVar[str] = "engagement"
    foul_ms: Square | None = None


@dataclass(frozen=True, slots=True)
class TacticalMoveCtx:
    TAG: ClassVar[str] = "tactical_move"
    to: Square | None = None
    facing: int | None = None


@dataclass(frozen=True, slots=True)
class OffsideCtx:
    TAG: ClassVar[str] = "offside"
    attacker: PlayerRef | None = None
    defenders: tuple[PlayerRef, ...] = ()
    destinations: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class OffsideEscapeCtx:
    TAG: ClassVar[str] = "offside_escape"
    defence_result: int = 0
    defender: PlayerRef | None = None   # who rolled the trap: after a tie both roll again


@dataclass(frozen=True, slots=True)
class ThrowInPositionCtx:
    TAG: ClassVar[str] = "throw_in_position"
    to: Square | None = None
    facing: int | None = None


@dataclass(frozen=True, slots=True)
class VolleyCtx:
    TAG: ClassVar[str] = "volley"


@dataclass(frozen=True, slots=True)
class ShootoutCtx:
    TAG: ClassVar[str] = "shootout"


ContestCtx = (OpeningCtx | ActionCtx | ShotDeflectionCtx | WallCtx | SaveCtx | HandlingCtx | ScatterCtx
              | BallControlCtx | DisputeCtx | EngagementCtx | TacticalMoveCtx | OffsideCtx | OffsideEscapeCtx
              | ThrowInPositionCtx | VolleyCtx | ShootoutCtx)


@unshadowed
@dataclass(frozen=True)
class Contest:
    """Dice the rules wait for: one test, or a challenge of two (or more) tests."""

    TAG: ClassVar[str] = "contest"
    id: int
    tests: tuple[Test, ...]
    ctx: ContestCtx

    @property
    def complete(self) -> bool:
        return all(t.result is not None for t in self.tests)


# --- choices a coach must make --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class FoulChoiceCtx:
    TAG: ClassVar[str] = "foul"
    fouler: PlayerRef | None = None
    fouled: PlayerRef | None = None
    skill: Skill | None = None       # the fouler's tested skill, for the referee's call board
    result: int = 0                  # the fouler's failed result
    spot: Square | None = None       # MS of the foul (the fouled player's)
    penalty: bool = False            # committed inside the fouler's own penalty area
    on_advantage: str = ""           # what advantage means here: "ball_to_fouled", "play_on", "dribble_on"


@dataclass(frozen=True, slots=True)
class CatchChoiceCtx:
    TAG: ClassVar[str] = "catch"
    shot_result: int = 0
    dive: int = 0
    save_ps: Square | None = None


@dataclass(frozen=True, slots=True)
class ShotDeflectionChoiceCtx:
    TAG: ClassVar[str] = "shot_deflection_choice"
    shot_result: int = 0


@dataclass(frozen=True, slots=True)
class EngagementResponseCtx:
    """Speed dribbling: the defending coach accepts or lets the attacker go."""

    TAG: ClassVar[str] = "engagement_response"


@dataclass(frozen=True, slots=True)
class ReceiverChoiceCtx:
    TAG: ClassVar[str] = "receiver"


@dataclass(frozen=True, slots=True)
class SubstituteChoiceCtx:
    """An injured player must go: his coach picks the substitute (or none left)."""

    TAG: ClassVar[str] = "substitute"
    injured: PlayerRef | None = None


@dataclass(frozen=True, slots=True)
class VolleyChoiceCtx:
    """A player receives a high ball in the opponents' half: ball control, or a volley. With
    opponents in the PS (``contested``): the aerial dispute, or a volley they challenge;
    ``receivers`` are the attackers there who may volley (two of one side fit in a PS)."""

    TAG: ClassVar[str] = "volley_choice"
    contested: bool = False
    receivers: tuple[PlayerRef, ...] = ()


@dataclass(frozen=True, slots=True)
class GoalkeeperChoiceCtx:
    """No goalkeeper left: an outfield player takes the injured goalkeeper's card."""

    TAG: ClassVar[str] = "goalkeeper"
    card_of: PlayerRef | None = None


ChoiceCtx = (FoulChoiceCtx | CatchChoiceCtx | ShotDeflectionChoiceCtx | EngagementResponseCtx | ReceiverChoiceCtx
             | SubstituteChoiceCtx | VolleyChoiceCtx | GoalkeeperChoiceCtx)


@dataclass(frozen=True, slots=True)
class Choice:
    TAG: ClassVar[str] = "choice"
    id: int
    team: Team
    question: str
    options: tuple[str, ...]
    ctx: ChoiceCtx
    player: PlayerRef | None = None


Pending = Contest | Choice


@dataclass(frozen=True, slots=True)
class ShotPlan:
    """How a shot was declared: the shot-on-goal tokens' penalties (5 or 10 each), the
    save-attempt token (5 central, 10 angled or chip), and where that token lies."""

    tokens: tuple[int, ...] = ()
    save_token: int = 5
    save_ms: Square | None = None
    trajectory: tuple[Square, ...] = ()
    chip: bool = False
    curved: bool = False
    crosses_wall: bool = True
    gk_dive: int | None = None  # MS the goalkeeper must dive, when positions are not known

    @property
    def penalty(self) -> int:
        return sum(self.tokens) + self.save_token


@unshadowed
@dataclass(frozen=True)
class Declaration:
    team: Team
    player: PlayerRef
    action: Action
    distance: int
    start_ms: Square | None = None
    start_ps: Square | None = None
    target_ps: Square | None = None
    target_ms: Square | None = None
    shot: ShotPlan | None = None
    opponents: tuple[PlayerRef, ...] = ()   # speed dribbling: defenders challenged on the way
    deflectors: tuple[PlayerRef, ...] = ()
    wall: tuple[PlayerRef, ...] = ()
    restart: RestartKind | None = None
    penalty_kick: bool = False
    shot_result: int | None = None   # a good shot's roll, carried to the save
    gk_ms: Square | None = None      # where the goalkeeper stood when the shot was declared


@dataclass(frozen=True, slots=True)
class Engagement:
    defender: PlayerRef
    attacker: PlayerRef
    skill: Skill


@unshadowed
@dataclass(frozen=True)
class Restart:
    kind: RestartKind
    team: Team
    spot_ms: Square | None = None
    spot_ps: Square | None = None
    taker: PlayerRef | None = None
    step: int = 0                       # tactical positioning step (free kicks, corners, throw-ins)
    wall: tuple[PlayerRef, ...] = ()


@dataclass(frozen=True, slots=True)
class Goal:
    team: Team
    scorer: PlayerRef | None
    period: Period
    minute: int


@dataclass(frozen=True, slots=True)
class Booking:
    player: PlayerRef
    colour: str
    period: Period
    minute: int
    sent_off: bool = False


@dataclass(frozen=True, slots=True)
class ShootoutKick:
    team: Team
    kicker: PlayerRef
    scored: bool


@dataclass(frozen=True, slots=True)
class Result:
    winner: Team | None
    home: int
    away: int
    decided_by: str  # "full time", "extra time", "shoot-out", "draw"
    points_home: int | None = None
    points_away: int | None = None


@unshadowed
@dataclass(frozen=True)
class FubletState:
    created: bool = False
    home: TeamRoster | None = None
    away: TeamRoster | None = None
    components: Components | None = None
    options: Options = Options()
    players: dict[PlayerRef, PlayerState] = field(default_factory=dict)
    period: Period = Period.PRE_MATCH
    phase: Phase = Phase.OPENING_ROLL
    round: int = 0
    round_kind: RoundKind | None = None
    attacking: Team | None = None
    minute: int = 0
    time_up: bool = False
    pace: int = 0
    zone_pace: int = 0
    mp: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    score: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    boards: dict[Team, str] = field(default_factory=dict)
    first_picker: Team | None = None
    first_kicker: Team | None = None   # who kicked off the first half
    ball: Ball = Ball()
    declaration: Declaration | None = None
    engagements: tuple[Engagement, ...] = ()
    queue: tuple[Pending, ...] = ()
    next_id: int = 1
    turn: Team | None = None
    passes: int = 0
    moves_this_phase: int = 0
    restart: Restart | None = None
    subs_used: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    subs_pending: tuple[tuple[PlayerRef, PlayerRef], ...] = ()
    goals: tuple[Goal, ...] = ()
    bookings: tuple[Booking, ...] = ()
    round_ended_by: str = ""     # "goal", "out", "foul", "offside"... when a round stopped early
    shootout: tuple[ShootoutKick, ...] = ()
    shootout_first: Team | None = None
    result: Result | None = None
    last_outcome: str = ""

    # --- small lookups used everywhere ---------------------------------------------------------
    def player(self, ref: PlayerRef) -> PlayerState:
        try:
            return self.players[ref]
        except KeyError:
            raise KeyError(f"no player {ref}") from None

    def roster(self, team: Team) -> TeamRoster:
        roster = self.home if team is Team.HOME else self.away
        assert roster is not None
        return roster

    @property
    def defending(self) -> Team | None:
        return self.attacking.other if self.attacking else None

    @property
    def match_minute(self) -> int:
        return self.period.offset + self.minute


# Pending items are looked up by a request id such as "t12" (dice) or "c13" (choice).
def request_id(item: Pending, index: int = 0) -> str:
    if isinstance(item, Choice):
        return f"c{item.id}"
    return f"t{item.id}.{index}" if len(item.tests) > 1 else f"t{item.id}"
