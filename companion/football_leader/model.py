"""Football Leader's match state: small frozen records, folded from the journal by ``evolve``.

Records folded on every event (the state, players, turn) are plain frozen dataclasses with a
``__dict__`` so ``evolve._with`` copies them cheaply; the rest are slotted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..dice import DiceSpec
from ..records import unshadowed
from ..teams import CodeEnum, PlayerRef, Team
from ..typed import check_fields
from .components import ACTING_KEEPER, Card, Components, Counter, TeamRoster, Trait
from .pitch import Space

HAND = 5                 # 2.1: "draws five cards"
GOAL_KICK_HAND = 6       # 3.8: "an extra card up to a maximum of six"
EXTRA_TIME_DECK = 25     # 2.2: "divide the deck into two parts of 25 cards each"
MARKERS = 5              # 1.5: "the five markers of a color"
POSITION_CHANGES = 3     # 6.1
REPLACEMENTS = 3         # 6.1
SHOOTOUT_KICKS = 5       # 6.3


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
                Period.SHOOTOUT: "penalty kick series", Period.FULL_TIME: "full time"}[self]


class Phase(CodeEnum):
    STRATEGY = "strategy"            # both coaches write their strategy sheets
    OPENING_ROLL = "opening_roll"    # a die decides the first player
    SET_UP = "set_up"                # before a kick-off or goal kick: sheet changes, then both confirm
    KICK_OFF = "kick_off"            # the kicker names the counter that carries the ball
    TURN = "turn"                    # a coach's turn
    SHOOTOUT = "shootout"
    OVER = "over"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


class Stage(CodeEnum):
    """Where a turn stands: which actions are open now."""

    START = "start"                  # nothing done yet: the main action
    CARRIER_MOVED = "carrier_moved"  # the ball carrier moved: he may still shoot (move and shoot)
    PASSED = "passed"                # a pass arrived: the receiver may shoot (pass and shoot)
    AFTER_MAIN = "after_main"        # main action over: an extra movement (or a Game Vision pass)
    VISION_PASSED = "vision_passed"  # a Game Vision pass arrived: the receiver may shoot; no extra movement
    FREE_KICK = "free_kick"          # an indirect free kick: the fouled counter passes
    DIRECT_KICK = "direct_kick"      # a direct free kick or penalty: a counter shoots
    GOAL_KICK = "goal_kick"          # the goalkeeper passes
    DONE = "done"                    # nothing more this turn


class Where(CodeEnum):
    PITCH = "pitch"
    BENCH = "bench"
    OUT = "out"  # replaced or sent off


class RestartKind(CodeEnum):
    KICK_OFF = "kick_off"
    GOAL_KICK = "goal_kick"
    DIRECT_KICK = "direct_kick"
    INDIRECT_KICK = "indirect_kick"
    PENALTY = "penalty_kick"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @property
    def set_up(self) -> bool:
        """Counters line up by the strategy sheets (and the sheets may change) only before these."""
        return self in (RestartKind.KICK_OFF, RestartKind.GOAL_KICK)


@dataclass(frozen=True, slots=True)
class Options:
    extra_time: bool = True              # 2.2: "extra time can be played"
    shootout: bool = True                # 6.3: a tie after extra time goes to a penalty kick series
    tackle_loop_rule: bool = True        # 3.6: recommended "tackle loop" rule
    pass_one_loses_in_origin: bool = False  # 3.3: optional rule
    second_yellow_sends_off: bool = True  # not in the text: see docs/assumptions.md
    home_defends_low: bool = True        # home's goal is at x = 0 for the whole match

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True)
class StrategySheet:
    """Where each of the ten outfield starters stands before a goal kick and before a kick-off
    (1.3); the goalkeeper always stands in his goal space. Spaces are from the board (the
    team defending x = L finds its grey spaces on the board turned half round)."""

    goalkeeper: int
    goal_kick: dict[int, Space]
    kick_off: dict[int, Space]


@unshadowed
@dataclass(frozen=True)
class PlayerState:
    ref: PlayerRef
    counter: Counter
    where: Where = Where.BENCH
    space: Space | None = None
    markers: int = 0                # Moved Markers on the counter (two only with Run)
    goalkeeper: bool = False        # plays in goal now
    acting_keeper: bool = False     # an outfield counter in goal: BRONZE-8 parry and defence
    yellow: int = 0
    sent_off: bool = False
    replaced: bool = False
    manual: bool = False            # put there by a person's correction, not by a move

    @property
    def on_pitch(self) -> bool:
        return self.where is Where.PITCH

    @property
    def parry(self) -> Trait | None:
        return ACTING_KEEPER if self.acting_keeper else self.counter.parry

    @property
    def keeper_defence(self) -> Trait | None:
        if self.acting_keeper:
            return ACTING_KEEPER
        return self.counter.defence if self.goalkeeper else None


@unshadowed
@dataclass(frozen=True)
class CardBook:
    """A coach's cards as the rules know them. Decks are physical and shuffled by hand, so
    the rules count cards in the deck and in hand; a played card is named (it lies face up),
    and it must be one the deck still holds (``played`` counts this deck's cards played)."""

    deck: int = 0
    hand: int = 0
    size: int = 0                   # the deck in use this period: 50, or 25 in extra time
    played: dict[Card, int] = field(default_factory=dict)


@unshadowed
@dataclass(frozen=True)
class Turn:
    number: int
    team: Team
    stage: Stage = Stage.START
    moved: tuple[PlayerRef, ...] = ()        # counters moved this turn
    markers: tuple[PlayerRef, ...] = ()      # Moved Markers put this turn (kept when the fifth clears)
    receiver: PlayerRef | None = None        # received a pass this turn: pass and shoot
    dodged: PlayerRef | None = None          # got unmarked by a dodge this turn: no shot
    supported: bool = False                  # the one supported dodge of the turn is used
    startup: PlayerRef | None = None         # start-up rule: this carrier moves one space at most


@dataclass(frozen=True, slots=True)
class Restart:
    kind: RestartKind
    team: Team
    space: Space | None = None        # where the foul was
    player: PlayerRef | None = None   # the fouled counter (indirect kick)


@dataclass(frozen=True, slots=True)
class Unmarked:
    """A counter that lost its markers by a dodge: unmarked through the defender's next turn
    and its own turn after that (3.4)."""

    player: PlayerRef
    space: Space
    until_turn: int


@dataclass(frozen=True, slots=True)
class DodgePlan:
    """A dodge on the way of a moving ball carrier: the card, and an optional support."""

    card: Card | None = None
    supporter: PlayerRef | None = None
    support_card: Card | None = None


@dataclass(frozen=True, slots=True)
class Movement:
    """A ball carrier's movement in progress: each defended space he leaves costs a dodge."""

    player: PlayerRef
    start: Space
    path: tuple[Space, ...]
    card: Card
    plans: tuple[DodgePlan, ...] = ()
    at: int = 0                      # spaces of the path covered so far
    dodges: int = 0                  # dodges rolled so far (plans used)


# --- dice the rules wait for ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Test:
    """One roll: a d12 (or two, keeping the best) plus a card bonus against a difficulty.
    ``difficulty`` 0 is a plain roll (the opening roll, a foul check). ``pick`` says which
    die counts: "best" (keep the best, only the black die's 1 is an automatic miss), or the
    foul check's "low" / "high"."""

    team: Team
    label: str
    dice: DiceSpec
    player: PlayerRef | None = None
    difficulty: int = 0
    bonus: int = 0
    pick: str = "best"
    result: int | None = None
    miss: bool = False

    @property
    def is_test(self) -> bool:
        return self.difficulty > 0

    @property
    def total(self) -> int | None:
        return None if self.result is None else self.result + self.bonus

    @property
    def success(self) -> bool:
        return self.result is not None and not self.miss and self.result + self.bonus >= self.difficulty


@dataclass(frozen=True, slots=True)
class OpeningCtx:
    TAG: ClassVar[str] = "opening"


@dataclass(frozen=True, slots=True)
class PassCtx:
    """A pass on its way. ``how``: "pass", "vision" (Game Vision), "free_kick", "goal_kick".
    (No field may be called ``kind``: the journal's tag for the context is ``kind``.)"""

    TAG: ClassVar[str] = "pass"
    passer: PlayerRef
    receiver: PlayerRef
    origin: Space
    dest: Space
    card: Card
    how: str = "pass"
    two_dice: bool = False
    after_dodge: bool = False    # the pass of a pass and dodge: the receiver ends unmarked


@dataclass(frozen=True, slots=True)
class ReceiverDodgeCtx:
    """Pass and dodge: the receiver dodges first; the pass follows only if he gets free."""

    TAG: ClassVar[str] = "receiver_dodge"
    pass_ctx: PassCtx
    pass_difficulty: int
    pass_bonus: int


@dataclass(frozen=True, slots=True)
class DodgeCtx:
    TAG: ClassVar[str] = "dodge"
    player: PlayerRef
    space: Space


@dataclass(frozen=True, slots=True)
class MoveDodgeCtx:
    """A dodge inside a ball carrier's movement (the movement itself is ``state.movement``)."""

    TAG: ClassVar[str] = "move_dodge"
    leaving: Space


@dataclass(frozen=True, slots=True)
class ShotCtx:
    """``how``: "shot", "direct" (a direct free kick) or "penalty"."""

    TAG: ClassVar[str] = "shot"
    shooter: PlayerRef
    space: Space
    how: str = "shot"


@dataclass(frozen=True, slots=True)
class TackleCtx:
    TAG: ClassVar[str] = "tackle"
    tackler: PlayerRef
    carrier: PlayerRef
    space: Space
    hard: bool = False


@dataclass(frozen=True, slots=True)
class FoulCheckCtx:
    TAG: ClassVar[str] = "foul_check"
    tackler: PlayerRef
    carrier: PlayerRef
    space: Space
    hard: bool = False


@dataclass(frozen=True, slots=True)
class ShootoutCtx:
    TAG: ClassVar[str] = "shootout"
    kicker: PlayerRef


RollCtx = (OpeningCtx | PassCtx | ReceiverDodgeCtx | DodgeCtx | MoveDodgeCtx | ShotCtx | TackleCtx | FoulCheckCtx
           | ShootoutCtx)


@unshadowed
@dataclass(frozen=True)
class Roll:
    """Dice the rules wait for: one test, or the opening roll's two."""

    TAG: ClassVar[str] = "roll"
    id: int
    tests: tuple[Test, ...]
    ctx: RollCtx

    @property
    def complete(self) -> bool:
        return all(t.result is not None for t in self.tests)


# --- choices a coach must make --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class InterceptCtx:
    """A missed pass: the defending coach picks the counter that gets the ball (3.3).
    ``move`` when the candidates stand in a space next to the destination."""

    TAG: ClassVar[str] = "intercept"
    dest: Space
    move: bool = False


@dataclass(frozen=True, slots=True)
class BallLostCtx:
    """A failed dodge: the defending coach picks which of his counters in the space takes it."""

    TAG: ClassVar[str] = "ball_lost"
    space: Space


@dataclass(frozen=True, slots=True)
class MoveCardCtx:
    """A counter moved (seen by the camera, or tapped) without a card named: which card?"""

    TAG: ClassVar[str] = "move_card"
    player: PlayerRef
    path: tuple[Space, ...]


@dataclass(frozen=True, slots=True)
class DodgeCardCtx:
    """The moving ball carrier must dodge to leave a space: which card?"""

    TAG: ClassVar[str] = "dodge_card"
    leaving: Space


@dataclass(frozen=True, slots=True)
class KeeperCtx:
    """The goalkeeper was sent off: who goes in goal (6.2)."""

    TAG: ClassVar[str] = "keeper"
    sent_off: PlayerRef
    substitute: bool = True   # the options are substitutes (a replacement), else counters on the pitch


ChoiceCtx = InterceptCtx | BallLostCtx | MoveCardCtx | DodgeCardCtx | KeeperCtx


@dataclass(frozen=True, slots=True)
class Choice:
    TAG: ClassVar[str] = "choice"
    id: int
    team: Team
    question: str
    options: tuple[str, ...]
    ctx: ChoiceCtx


Pending = Roll | Choice


@dataclass(frozen=True, slots=True)
class Goal:
    team: Team
    scorer: PlayerRef | None
    period: Period
    turn: int


@dataclass(frozen=True, slots=True)
class Booking:
    player: PlayerRef
    colour: str
    period: Period
    turn: int
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
    decided_by: str  # "full time", "extra time", "penalty kicks", "draw"


def _per_team(value):
    return field(default_factory=lambda: {Team.HOME: value, Team.AWAY: value})


@unshadowed
@dataclass(frozen=True)
class FootballLeaderState:
    created: bool = False
    home: TeamRoster | None = None
    away: TeamRoster | None = None
    components: Components | None = None
    options: Options = Options()
    players: dict[PlayerRef, PlayerState] = field(default_factory=dict)
    sheets: dict[Team, StrategySheet] = field(default_factory=dict)
    period: Period = Period.PRE_MATCH
    phase: Phase = Phase.STRATEGY
    first_player: Team | None = None        # won the opening roll: kicked off the first half
    turn: Turn | None = None
    turns: int = 0                           # turns started this match
    last_turn: int | None = None             # the half ends after this turn (a deck ran out)
    ball: PlayerRef | None = None
    unmarked: Unmarked | None = None
    guard: tuple[PlayerRef, int] | None = None  # won the ball by a tackle in that turn (tackle loop)
    movement: Movement | None = None
    restart: Restart | None = None
    ready: tuple[Team, ...] = ()             # confirmed the set-up
    cards: dict[Team, CardBook] = _per_team(CardBook())
    changes_used: dict[Team, int] = _per_team(0)
    replacements_used: dict[Team, int] = _per_team(0)
    score: dict[Team, int] = _per_team(0)
    goals: tuple[Goal, ...] = ()
    bookings: tuple[Booking, ...] = ()
    queue: tuple[Pending, ...] = ()
    next_id: int = 1
    shootout_order: dict[Team, tuple[PlayerRef, ...]] = field(default_factory=dict)
    shootout: tuple[ShootoutKick, ...] = ()
    shootout_first: Team | None = None
    result: Result | None = None
    last_outcome: str = ""

    # --- small lookups used everywhere ---------------------------------------------------------
    def player(self, ref: PlayerRef) -> PlayerState:
        try:
            return self.players[ref]
        except KeyError:
            raise KeyError(f"no counter {ref}") from None

    def roster(self, team: Team) -> TeamRoster:
        roster = self.home if team is Team.HOME else self.away
        assert roster is not None
        return roster

    @property
    def attacking(self) -> Team | None:
        """The side with the ball."""
        return self.ball.team if self.ball is not None else None


def request_id(item: Pending, index: int = 0) -> str:
    """Pending items are named "t12" (dice; "t12.1" for the second of two) or "c13" (choice)."""
    if isinstance(item, Choice):
        return f"c{item.id}"
    return f"t{item.id}.{index}" if len(item.tests) > 1 else f"t{item.id}"
