"""The Fußball-Liga variant's match state: small frozen records folded from the journal.

Records folded at every event (the state, players, the ball, the movement phase's books)
keep a ``__dict__`` so the fold copies them cheaply; the rest use slots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..board import Square
from ..dice import DiceSpec
from ..records import unshadowed
from ..teams import CodeEnum, PlayerRef, Team
from ..typed import check_fields
from .clock import STOPPED, Instant, Stopwatch
from .components import Components, LigaPlayer, Roster

SHOOTOUT_KICKS = 5


class Period(CodeEnum):
    PRE_MATCH = "pre_match"
    FIRST_HALF = "first_half"
    SECOND_HALF = "second_half"
    EXTRA_FIRST = "extra_time_first"
    EXTRA_SECOND = "extra_time_second"
    SHOOTOUT = "shootout"
    FULL_TIME = "full_time"

    @property
    def label(self) -> str:
        return {Period.PRE_MATCH: "pre-match", Period.FIRST_HALF: "1st half", Period.SECOND_HALF: "2nd half",
                Period.EXTRA_FIRST: "extra time, 1st half", Period.EXTRA_SECOND: "extra time, 2nd half",
                Period.SHOOTOUT: "penalty shoot-out", Period.FULL_TIME: "full time"}[self]

    @property
    def extra(self) -> bool:
        return self in (Period.EXTRA_FIRST, Period.EXTRA_SECOND)

    @property
    def timed(self) -> bool:
        return self in (Period.FIRST_HALF, Period.SECOND_HALF, Period.EXTRA_FIRST, Period.EXTRA_SECOND)


class Phase(CodeEnum):
    TOSS = "toss"
    LINE_UP = "line_up"          # figures placed freely before a kick-off
    SET_UP = "set_up"            # re-positioning after a stoppage (free placement for a penalty kick)
    SHOT = "shot"
    MOVEMENT = "movement"
    SHOOTOUT = "shootout"
    OVER = "over"

    @property
    def label(self) -> str:
        return self.value.replace("_", "-")

    @property
    def in_play(self) -> bool:
        """A game-turn phase: the phase timer runs here."""
        return self in (Phase.SHOT, Phase.MOVEMENT)


class Control(CodeEnum):
    CLOSE = "close"   # the ball in the player's own square
    LOOSE = "loose"   # the ball in a square next to him ("wide" control)
    HANDS = "hands"   # the goalkeeper holds it after an interception


class Where(CodeEnum):
    PITCH = "pitch"
    BENCH = "bench"
    OUT = "out"       # substituted off or sent off


class RestartKind(CodeEnum):
    KICK_OFF = "kick_off"
    FREE_KICK = "free_kick"              # direct
    INDIRECT_FREE_KICK = "indirect_free_kick"
    PENALTY = "penalty_kick"
    CORNER = "corner_kick"
    THROW_IN = "throw_in"
    GOAL_KICK = "goal_kick"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @property
    def forfeited_at_time_up(self) -> bool:
        """Rulebook: direct free-kicks and penalty-kicks must be completed when time is up;
        the others are forfeited."""
        return self not in (RestartKind.FREE_KICK, RestartKind.PENALTY)


class SetupStep(CodeEnum):
    DEFENDER = "defender"   # the defending coach re-positions first
    ATTACKER = "attacker"
    KICK = "kick"           # set-up done: the kick is due
    FREE = "free"           # penalty kick: both coaches place freely


class PhaseLimit(CodeEnum):
    NONE = "none"
    EGG_TIMER = "egg_timer"      # one timer for the whole phase
    CHESS_CLOCK = "chess_clock"  # each coach's own time in the phase, running while he is to act


@dataclass(frozen=True, slots=True)
class Options:
    half_minutes: int = 45
    extra_time: bool = False
    extra_half_minutes: int = 15
    golden_goal: bool = False
    shootout: bool = False
    phase_limit: PhaseLimit = PhaseLimit.EGG_TIMER
    phase_seconds: float = 30.0
    change_ends: bool = True
    max_substitutions: int = 3
    tournament: bool = False
    carried_yellows: tuple[PlayerRef, ...] = ()  # booked in an earlier match of this tournament round
    suspended: tuple[PlayerRef, ...] = ()        # may not be fielded in this match
    third_foul_two_cards: bool = False  # table taste (LV36): a third foul that is a "1" shows two yellow cards
    # The optional rules, each switched on by consent.
    goalkeeper_save: bool = False
    taking_a_pass: bool = False
    goal_posts: bool = False
    bonus_points: bool = False

    def __post_init__(self) -> None:
        check_fields(self)   # "egg_timer" becomes PhaseLimit.EGG_TIMER; a wrong type is refused
        if not 1 <= self.half_minutes <= 90 or not 1 <= self.extra_half_minutes <= 45:
            raise ValueError("a half lasts 1..90 minutes, an extra-time half 1..45")
        if not 5 <= self.phase_seconds <= 600:
            raise ValueError(f"a phase time limit of {self.phase_seconds} s is not 5..600 s")
        if self.golden_goal and not self.extra_time:
            raise ValueError("golden goal needs extra time")
        if not 0 <= self.max_substitutions <= 11:
            raise ValueError("max_substitutions must be 0..11")

    def half_seconds(self, period: Period) -> float:
        return 60.0 * (self.extra_half_minutes if period.extra else self.half_minutes)


@unshadowed
@dataclass(frozen=True)
class PlayerState:
    ref: PlayerRef
    card: LigaPlayer
    where: Where = Where.BENCH
    square: Square | None = None
    goalkeeper: bool = False
    stand_in: bool = False          # a field player replacing a sent-off goalkeeper
    fouls: int = 0
    yellow: int = 0
    sent_off: bool = False
    substituted: bool = False
    pool_used: int = 0              # bonus points of a "pool" spent so far
    manual: bool = False            # position last set by a correction

    @property
    def on_pitch(self) -> bool:
        return self.where is Where.PITCH

    @property
    def placed(self) -> bool:
        return self.where is Where.PITCH and self.square is not None


@unshadowed
@dataclass(frozen=True)
class Ball:
    square: Square | None = None
    holder: PlayerRef | None = None
    control: Control | None = None
    last_team: Team | None = None        # the side that played it last (who put it out)
    no_touch: PlayerRef | None = None    # a restart's kicker, until another player has played it

    @property
    def loose(self) -> bool:
        return self.holder is None


@dataclass(frozen=True, slots=True)
class Restart:
    kind: RestartKind
    team: Team                  # the side taking it
    spot: Square | None         # where the ball is placed (a goal kick's square is the kicker's choice)
    step: SetupStep
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Attempt:
    player: PlayerRef
    index: int                  # the path square (0 = first square after the origin)


@dataclass(frozen=True, slots=True)
class Flight:
    """A kick on its way: announced target, the squares it crosses, interception attempts."""

    kicker: PlayerRef
    origin: Square
    target: Square
    path: tuple[Square, ...]
    distance: int
    kind: str                   # "shot", "follow_up", or the restart's kind ("throw_in"...)
    receiver: PlayerRef | None = None
    attempts: tuple[Attempt, ...] = ()

    @property
    def follow_up(self) -> bool:
        return self.kind == "follow_up"


@unshadowed
@dataclass(frozen=True)
class Movement:
    """The movement phase's books (and a stoppage's re-positioning: ``by_player`` only)."""

    spent: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    by_player: dict[PlayerRef, int] = field(default_factory=dict)
    turn: Team | None = None           # whose movement step it is
    current: PlayerRef | None = None   # the player moving now: the only one who may go on
    attacker_moved: bool = False       # the attacker has moved a player in this step
    attacker_done: bool = False        # the attacker moves no more: the defender's last step
    committed: tuple[PlayerRef, ...] = ()  # defenders committed to a dribbling interception
    tackled: bool = False              # an attempt was made since the ball last moved


EMPTY_MOVEMENT = Movement()


@dataclass(frozen=True, slots=True)
class Modifier:
    label: str
    value: int


# --- what a dice request is for (tagged, so the journal names it) ------------------------------

@dataclass(frozen=True, slots=True)
class InterceptCtx:
    TAG: ClassVar[str] = "intercept"
    player: PlayerRef
    square: Square
    index: int
    through: bool


@dataclass(frozen=True, slots=True)
class GoalShotCtx:
    TAG: ClassVar[str] = "goal_shot"
    distance: int
    post: bool = False          # the path crosses a goal-post edge


@dataclass(frozen=True, slots=True)
class GoalPostCtx:
    TAG: ClassVar[str] = "goal_post"


@dataclass(frozen=True, slots=True)
class SaveCtx:
    TAG: ClassVar[str] = "save"
    player: PlayerRef
    square: Square


@dataclass(frozen=True, slots=True)
class DribbleCtx:
    TAG: ClassVar[str] = "dribble"
    principal: PlayerRef
    supporters: tuple[PlayerRef, ...]
    fair_play: bool
    close: bool
    foul_possible: bool         # a committed defender stands next to the attacker


@dataclass(frozen=True, slots=True)
class PenaltyCtx:
    TAG: ClassVar[str] = "penalty"
    kicker: PlayerRef
    keeper_number: int | None   # the numbered goal square the goalkeeper stands on


@dataclass(frozen=True, slots=True)
class TakePassCtx:
    TAG: ClassVar[str] = "take_pass"
    receiver: PlayerRef
    distance: int


AskCtx = InterceptCtx | GoalShotCtx | GoalPostCtx | SaveCtx | DribbleCtx | PenaltyCtx | TakePassCtx


@dataclass(frozen=True, slots=True)
class Ask:
    """Dice the rules wait for: one coach's roll, read against a table."""

    TAG: ClassVar[str] = "ask"
    id: int
    team: Team
    label: str
    dice: DiceSpec
    ctx: AskCtx
    modifiers: tuple[Modifier, ...] = ()
    player: PlayerRef | None = None

    @property
    def bonus(self) -> int:
        return sum(m.value for m in self.modifiers)


@dataclass(frozen=True, slots=True)
class RollPlan:
    """A roll about to be asked for, waiting for bonus-point decisions (optional rule):
    ``deciders`` lists the players whose bonus still needs a coach's choice, each with the
    sign that favours the rolling side (+1) or the other (-1)."""

    team: Team
    label: str
    dice: DiceSpec
    ctx: AskCtx
    modifiers: tuple[Modifier, ...] = ()
    player: PlayerRef | None = None
    deciders: tuple[tuple[PlayerRef, int], ...] = ()


# --- choices a coach must make ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TossCtx:
    TAG: ClassVar[str] = "toss"


@dataclass(frozen=True, slots=True)
class TossPickCtx:
    TAG: ClassVar[str] = "toss_pick"
    winner: Team


@dataclass(frozen=True, slots=True)
class EndsCtx:
    TAG: ClassVar[str] = "ends"
    kicker: Team                # who takes the first kick-off
    winner: Team                # who won the coin toss


@dataclass(frozen=True, slots=True)
class AdvantageCtx:
    TAG: ClassVar[str] = "advantage"
    fouler: PlayerRef
    spot: Square
    penalty: bool


@dataclass(frozen=True, slots=True)
class KeeperCtx:
    """A goalkeeper was sent off: a field player must be named to replace him."""

    TAG: ClassVar[str] = "keeper"
    team: Team


@dataclass(frozen=True, slots=True)
class ReceiverCtx:
    TAG: ClassVar[str] = "receiver"
    square: Square


@dataclass(frozen=True, slots=True)
class BonusCtx:
    TAG: ClassVar[str] = "bonus"
    player: PlayerRef
    plan: RollPlan


ChoiceCtx = TossCtx | TossPickCtx | EndsCtx | AdvantageCtx | KeeperCtx | ReceiverCtx | BonusCtx


@dataclass(frozen=True, slots=True)
class Choice:
    TAG: ClassVar[str] = "choice"
    id: int
    team: Team | None
    question: str
    options: tuple[str, ...]
    ctx: ChoiceCtx


Pending = Ask | Choice


def request_id(item: Pending) -> str:
    return f"c{item.id}" if isinstance(item, Choice) else f"d{item.id}"


# --- the record of a match ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Goal:
    team: Team
    scorer: PlayerRef | None
    period: Period
    turn: int
    clock_s: float


@dataclass(frozen=True, slots=True)
class Booking:
    player: PlayerRef
    colour: str                 # "yellow" or "red" (a second yellow)
    reason: str
    period: Period
    turn: int
    sent_off: bool = False


@dataclass(frozen=True, slots=True)
class Foul:
    player: PlayerRef
    spot: Square
    period: Period
    turn: int


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
    decided_by: str             # "full time", "extra time", "golden goal", "shoot-out", "draw"
    points_home: int | None = None
    points_away: int | None = None


@unshadowed
@dataclass(frozen=True)
class Clocks:
    """The half's real-time clock, the phase timer (egg timer) and each coach's chess-clock
    time in the phase. ``half_on``: the half has kicked off and not ended."""

    half: Stopwatch = STOPPED
    phase: Stopwatch = STOPPED
    chess: dict[Team, Stopwatch] = field(default_factory=lambda: {Team.HOME: STOPPED, Team.AWAY: STOPPED})
    half_on: bool = False
    paused: bool = False


@unshadowed
@dataclass(frozen=True)
class LigaState:
    created: bool = False
    home: Roster | None = None
    away: Roster | None = None
    components: Components | None = None
    options: Options = Options()
    players: dict[PlayerRef, PlayerState] = field(default_factory=dict)
    period: Period = Period.PRE_MATCH
    phase: Phase = Phase.TOSS
    turn_no: int = 0
    attacking: Team | None = None
    home_end: str = "low"              # the end Home defends in this period
    first_kicker: Team | None = None   # who took the first half's kick-off
    toss_winner: Team | None = None
    ball: Ball = Ball()
    restart: Restart | None = None
    flight: Flight | None = None
    last_kick: Flight | None = None    # the shot phase's last kick, once it has landed
    kicked: bool = False               # the shot phase's kick (and its follow-up chance) is used
    movement: Movement = EMPTY_MOVEMENT
    holding: PlayerRef | None = None   # a goalkeeper holding the ball for one turn
    hold_turn: int = 0
    queue: tuple[Pending, ...] = ()
    next_id: int = 1
    score: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    goals: tuple[Goal, ...] = ()
    bookings: tuple[Booking, ...] = ()
    fouls: tuple[Foul, ...] = ()
    subs_used: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    half_time_up: bool = False         # playing time is over: the current phase is the last
    phase_time_up: bool = False        # the phase's time ran out: it ends when nothing is pending
    time_ran_out_at: Square | None = None  # where the ball was when a phase's time ran out
    clocks: Clocks = Clocks()
    clock_at: Instant | None = None    # the time of the last event folded: readings are exact as of then
    shootout: tuple[ShootoutKick, ...] = ()
    shootout_first: Team | None = None
    result: Result | None = None
    last_outcome: str = ""

    # --- small lookups used everywhere -----------------------------------------------------------
    def player(self, ref: PlayerRef) -> PlayerState:
        try:
            return self.players[ref]
        except KeyError:
            raise KeyError(f"no player {ref}") from None

    def roster(self, team: Team) -> Roster:
        roster = self.home if team is Team.HOME else self.away
        assert roster is not None
        return roster

    @property
    def defending(self) -> Team | None:
        return self.attacking.other if self.attacking else None

    def end_of(self, team: Team) -> str:
        """The end ("low" or "high") ``team`` defends this period."""
        return self.home_end if team is Team.HOME else ("high" if self.home_end == "low" else "low")

    def attacked_end(self, team: Team) -> str:
        return self.end_of(team.other)
