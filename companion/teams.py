"""The two sides of a match and how a figure is named."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def check_colours(colours: tuple[str, ...]) -> None:
    """A team's printed colours: the shirt first, then its trim or numbers, as ``#rrggbb``."""
    if len(colours) > 3:
        raise ValueError(f"colours: at most 3 (shirt, trim, numbers), got {len(colours)}")
    for colour in colours:
        if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
            raise ValueError(f"colours: write each colour as #rrggbb, like #1f4fd1, got {colour!r}")


class CodeEnum(enum.Enum):
    """An enum whose repr reads like the code that names it (``Team.HOME``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)

    # Members are singletons compared by identity (Enum has no __eq__), so identity hashing
    # is consistent, and it is done in C: Enum's own __hash__ is a Python call, and the
    # folds look states up by Team (and the codec by die kind) thousands of times a replay.
    __hash__ = object.__hash__


class Team(CodeEnum):
    HOME = "home"
    AWAY = "away"

    @property
    def other(self) -> "Team":
        return _AWAY if self is _HOME else _HOME

    @property
    def label(self) -> str:
        return self.value.capitalize()


_SIDES = {team.value: team for team in Team}
# The members as module names, for code that runs per event: in Python 3.11 ``Team.HOME``
# goes through the enum metaclass's ``__getattr__`` hook, some forty times slower than
# reading a module global.
_HOME, _AWAY = Team.HOME, Team.AWAY


@dataclass(frozen=True, slots=True, order=True)
class PlayerRef:
    """One figure: its side and jersey number. Written ``home#8`` in JSON and messages."""

    team: Team
    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or isinstance(self.number, bool) or not 0 <= self.number <= 99:
            raise ValueError(f"jersey number must be 0..99, got {self.number!r}")

    def __str__(self) -> str:
        return f"{self.team.value}#{self.number}"

    # Hashed without hashing the Team member (an enum's hash is a Python call): a fold looks
    # players up by ref thousands of times per replay. Equal refs hash equal, as before.
    def __hash__(self) -> int:
        return self.number if self.team is _HOME else 100 + self.number

    @classmethod
    def of(cls, team: Team, number: int) -> "PlayerRef":
        """The player ``team``/``number``, the one shared instance where the number is a
        jersey's: a state's players keyed by it are found by identity, with no ``__eq__``."""
        known = _BY_PAIR.get((team, number)) if cls is PlayerRef and type(number) is int else None
        return known if known is not None else cls(team, number)

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def from_json(cls, value: object) -> "PlayerRef":
        return cls.parse(value)

    @classmethod
    def parse(cls, value: object) -> "PlayerRef":
        if not isinstance(value, str) or "#" not in value:
            raise ValueError(f"expected a player like 'home#8', got {value!r}")
        known = _WRITTEN.get(value)
        if known is not None and cls is PlayerRef:
            return known
        side, _, number = value.partition("#")
        team = _SIDES.get(side)  # a dict lookup: replays parse thousands of these
        if team is None:
            raise ValueError(f"unknown side {side!r} in {value!r}: use 'home' or 'away'")
        if not number.isdigit():
            raise ValueError(f"jersey number must be digits in {value!r}")
        return cls(team, int(number))


# Every player as written ("home#8"), made once: like an enum's members, the whole domain
# (2 sides x 100 numbers) is known, so reading one is a lookup. Anything else ("home#08",
# garbage) goes through the full parse above.
_WRITTEN = {str(ref): ref for ref in (PlayerRef(team, number) for team in Team for number in range(100))}
_BY_PAIR = {(ref.team, ref.number): ref for ref in _WRITTEN.values()}
PlayerRef.JSON_TABLE = _WRITTEN  # the codec decodes a written player by lookup (codec._json_table)
