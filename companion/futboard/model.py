"""Futboard's match state: small frozen records, folded from the journal by ``evolve``.

The records folded for nearly every event (the state, the players) are plain frozen
dataclasses with a ``__dict__``, so ``evolve`` copies them cheaply; the rest use slots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import ClassVar

from ..board import Square
from ..dice import DiceSpec
from ..events import parse_time
from ..records import unshadowed
from ..teams import CodeEnum, PlayerRef, Team
from ..typed import check_fields
from .components import STREET_SQUAD, SQUAD, Components, TeamTiles, Tile

ACTIONS_PER_TURN = 3           # "You have up to 3 actions to execute on your turn."
MAX_PER_LINE = 4               # "not allowed to have more than 4 players from the same team in the same line"
YELLOWS_TO_SEND_OFF = 2        # "If a player receives 2 yellow cards, he is sent off"
PENALTY_GROUPS = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))  # printed in the goal
PENALTY_SAVED_ACTIONS = 2      # "the player who has suffered the penalty still has 2 actions"
RULER_TOLERANCE_MM = 1.0       # a ruler laid by hand: a tile within 1 mm of the mark is within reach
TIME_UP_TOLERANCE_S = 1.0      # the tablet's clock and the fold may round a second apart


class Variant(CodeEnum):
    FUTBOARD = "futboard"
    STREET = "street"

    @property
    def squad(self) -> int:
        return STREET_SQUAD if self is Variant.STREET else SQUAD

    @property
    def label(self) -> str:
        return "Futboard Street" if self is Variant.STREET else "Futboard"


@dataclass(frozen=True, slots=True)
class Options:
    """Chosen at the start: the variant, who starts with the ball, and the time or the
    number of goals that ends the match (one of them, or both: whichever comes first)."""

    variant: Variant = Variant.FUTBOARD
    kick_off: Team = Team.HOME
    time_limit_min: int | None = None
    goal_limit: int | None = None
    keeper_in_line: bool = False   # table taste: the goalkeeper counts in the four in a line (FB34)

    def __post_init__(self) -> None:
        check_fields(self)
        if self.time_limit_min is None and self.goal_limit is None:
            raise ValueError("choose the time or the number of goals for the match to reach the end")
        if self.time_limit_min is not None and not 1 <= self.time_limit_min <= 600:
            raise ValueError(f"a time limit is 1..600 minutes, got {self.time_limit_min}")
        if self.goal_limit is not None and not 1 <= self.goal_limit <= 99:
            raise ValueError(f"a goal limit is 1..99 goals, got {self.goal_limit}")

    @property
    def street(self) -> bool:
        return self.variant is Variant.STREET


class Phase(CodeEnum):
    LINEUP = "lineup"      # before a kick-off: figures placed in their own fields
    PLAY = "play"          # turns of three actions
    CORNER = "corner"      # the attacking coach puts a player on a corner slot
    PENALTY = "penalty"    # the area is cleared, the taker placed, both coaches roll
    OVER = "over"

    @property
    def label(self) -> str:
        return {Phase.LINEUP: "line-up", Phase.PLAY: "play", Phase.CORNER: "corner kick",
                Phase.PENALTY: "penalty", Phase.OVER: "full time"}[self]


class Where(CodeEnum):
    FIELD = "field"
    RESERVE = "reserve"
    OFF = "sent_off"


@unshadowed
@dataclass(frozen=True)
class PlayerState:
    ref: PlayerRef
    tile: Tile
    where: Where = Where.RESERVE
    space: Square | None = None     # None on the field: not placed yet
    yellow: int = 0
    manual: bool = False            # position last set by a correction

    @property
    def on_field(self) -> bool:
        return self.where is Where.FIELD

    @property
    def goalkeeper(self) -> bool:
        return self.tile.goalkeeper


# --- restarts (tagged, so the journal names them) ---------------------------------------------

@dataclass(frozen=True, slots=True)
class KickOff:
    TAG: ClassVar[str] = "kick_off"
    team: Team


@dataclass(frozen=True, slots=True)
class Corner:
    """A corner kick: ``step`` "place" (a taker goes on a corner slot), "defence" (the other
    coach's up to three moves), "attack" (three actions; the taker must pass)."""

    TAG: ClassVar[str] = "corner"
    team: Team
    taker: PlayerRef | None = None
    step: str = "place"

    def __post_init__(self) -> None:
        if self.step not in ("place", "defence", "attack"):
            raise ValueError(f"a corner's step is place, defence or attack, not {self.step!r}")


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty for ``team`` (the fouled side); ``kicker`` once placed on the spot."""

    TAG: ClassVar[str] = "penalty"
    team: Team
    fouler: PlayerRef
    fouled: PlayerRef
    kicker: PlayerRef | None = None


Restart = KickOff | Corner | Penalty


# --- dice the rules wait for -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Test:
    """One coach's d12 inside a pending contest: success on 1..``target`` (when target is
    given), and ``foul`` the face that is a foul (take the ball)."""

    team: Team
    label: str
    dice: DiceSpec
    player: PlayerRef | None = None
    target: int = 0
    foul: int = 0
    result: int | None = None

    @property
    def success(self) -> bool:
        return self.result is not None and 1 <= self.result <= self.target


@dataclass(frozen=True, slots=True)
class KickCtx:
    """A kick to goal: accuracy minus the field penalty, against the goalkeeper's defence
    force minus the reduction of his space."""

    TAG: ClassVar[str] = "kick"
    kicker: PlayerRef
    keeper: PlayerRef | None
    accuracy: int
    penalty: int
    defence: int = 0
    reduction: int = 0


@dataclass(frozen=True, slots=True)
class TakeCtx:
    TAG: ClassVar[str] = "take"
    taker: PlayerRef
    carrier: PlayerRef
    strength: int
    foul: int


@dataclass(frozen=True, slots=True)
class PenaltyKickCtx:
    TAG: ClassVar[str] = "penalty_kick"
    kicker: PlayerRef
    keeper: PlayerRef | None


ContestCtx = KickCtx | TakeCtx | PenaltyKickCtx


@dataclass(frozen=True, slots=True)
class Contest:
    id: int
    tests: tuple[Test, ...]
    ctx: ContestCtx


def request_id(item: Contest, index: int = 0) -> str:
    """Dice requests are named ``t12`` (one roll) or ``t12.1`` (the second of a contest)."""
    return f"t{item.id}.{index}" if len(item.tests) > 1 else f"t{item.id}"


# --- the match record ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Goal:
    team: Team
    scorer: PlayerRef | None
    how: str        # "kick" or "penalty"
    turn: int


@dataclass(frozen=True, slots=True)
class Booking:
    player: PlayerRef
    yellow_cards: int
    sent_off: bool
    turn: int


@dataclass(frozen=True, slots=True)
class Result:
    winner: Team | None
    home: int
    away: int
    decided_by: str     # "goal limit" or "time"


@dataclass(frozen=True, slots=True)
class Clock:
    """The match clock as a fold of start and pause events (the tablet's instants):
    ``elapsed_s`` counted up to the last pause, ``since`` the instant it last started (None
    while paused), ``last`` the latest instant seen."""

    elapsed_s: float = 0.0
    since: str | None = None
    last: str | None = None

    @property
    def running(self) -> bool:
        return self.since is not None

    def elapsed_at(self, at: datetime) -> float:
        if self.since is None:
            return self.elapsed_s
        return self.elapsed_s + max(0.0, (at - parse_time(self.since)).total_seconds())


@unshadowed
@dataclass(frozen=True)
class FutboardState:
    created: bool = False
    home: TeamTiles | None = None
    away: TeamTiles | None = None
    components: Components | None = None
    options: Options | None = None
    players: dict[PlayerRef, PlayerState] = field(default_factory=dict)
    phase: Phase = Phase.LINEUP
    restart: Restart | None = None
    round: int = 0                  # kick-offs so far ("a new round starts again")
    turn_no: int = 0
    turn: Team | None = None
    actions_left: int = 0
    moved: frozenset[PlayerRef] = frozenset()
    ball_moved: bool = False
    ball: PlayerRef | None = None   # the ball is always on a tile, or on its way to one
    queue: tuple[Contest, ...] = ()
    next_id: int = 1
    score: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    goals: tuple[Goal, ...] = ()
    bookings: tuple[Booking, ...] = ()
    fouls: dict[Team, int] = field(default_factory=lambda: {Team.HOME: 0, Team.AWAY: 0})
    clock: Clock = Clock()
    time_up: bool = False
    result: Result | None = None
    last_outcome: str = ""

    def player(self, ref: PlayerRef) -> PlayerState:
        try:
            return self.players[ref]
        except KeyError:
            raise KeyError(f"no player {ref}") from None

    def roster(self, team: Team) -> TeamTiles:
        roster = self.home if team is Team.HOME else self.away
        assert roster is not None
        return roster

    @property
    def street(self) -> bool:
        return self.options is not None and self.options.street
