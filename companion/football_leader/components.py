"""Football Leader's printed components as data: player counters, the action-card deck, the board.

The rulebook prints only part of the card distribution (fig. 7) and none of the board
drawing or the counters of the eight teams, so these ship as JSON files in
``companion/football_leader/data`` with placeholder values flagged (``"placeholder": true``).
A table copies a file, enters its own box's values, and points Touchline at the folder.
Every file is validated on load; an error names the file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..datafiles import decode, file_name, package_folder, read_json
from ..errors import DataFileError
from ..teams import CodeEnum
from .pitch import BoardSpace, SpaceBoard

DECK_SIZE = 50
DECK_COLOURS = {"gold": 25, "silver": 15, "bronze": 10}  # 1.7: "25 GOLD cards, 15 SILVER cards and 10 BRONZE"
TEAM_SIZE = 14  # 1.1: "13 player-counters and a goalkeeper-counter"


class Colour(CodeEnum):
    GOLD = "gold"
    SILVER = "silver"
    BRONZE = "bronze"


class Ability(CodeEnum):
    """The ten special abilities (fig. 2, chapter 5)."""

    SHOOT = "shoot"
    UNMARK = "unmark"
    RUNNING_DODGE = "running_dodge"   # chapter 5 calls it "Move and Dodge"
    RUN = "run"
    OUTBURST = "outburst"
    SHOOT_ON_THE_FLY = "shoot_on_the_fly"
    BALL_CONTROL = "ball_control"
    DODGE = "dodge"
    DEFENCE = "defence"
    GAME_VISION = "game_vision"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


def _parse_colour(text: str, what: str) -> Colour:
    try:
        return Colour(text.lower())
    except ValueError:
        raise ValueError(f"{what}: colour must be gold, silver or bronze, not {text!r}") from None


@dataclass(frozen=True, slots=True)
class Trait:
    """A characteristic: its colour and, when printed, its number (a minimum bonus or
    movement; for Defence the dodge difficulty; for a goalkeeper's parry and defence the
    value added to a shot's difficulty). Written ``"gold-5"`` or ``"silver"``."""

    colour: Colour
    value: int | None = None

    def __post_init__(self) -> None:
        if self.value is not None and not 1 <= self.value <= 12:
            raise ValueError(f"a characteristic's number is 1..12, not {self.value}")

    def to_json(self) -> str:
        return self.colour.value if self.value is None else f"{self.colour.value}-{self.value}"

    @classmethod
    def from_json(cls, value: object) -> "Trait":
        if not isinstance(value, str) or not value:
            raise ValueError(f"expected a characteristic like 'gold-5' or 'silver', got {value!r}")
        colour, _, number = value.partition("-")
        if number and not number.isdigit():
            raise ValueError(f"expected a characteristic like 'gold-5' or 'silver', got {value!r}")
        return cls(_parse_colour(colour, value), int(number) if number else None)

    def __str__(self) -> str:
        return self.to_json().upper()

    def __repr__(self) -> str:
        return f"Trait.from_json({self.to_json()!r})"


# Every characteristic there can be, by its written form (decoded by lookup: codec._json_table).
Trait.JSON_TABLE = {trait.to_json(): trait for trait in (Trait(colour, value) for colour in Colour
                                                          for value in (None, *range(1, 13)))}

# A replacement goalkeeper is "considered to have BRONZE-8 in both, parry and defence" (6.2).
ACTING_KEEPER = Trait(Colour.BRONZE, 8)


@dataclass(frozen=True, slots=True)
class Counter:
    """One cardboard player counter. Outfield counters have five characteristics;
    goalkeepers only parry and defence."""

    number: int
    name: str
    goalkeeper: bool = False
    shoot: Trait | None = None
    dodge: Trait | None = None
    passing: Trait | None = None
    movement: Trait | None = None
    defence: Trait | None = None
    parry: Trait | None = None
    abilities: tuple[Ability, ...] = ()
    placeholder: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.number <= 99:
            raise ValueError(f"jersey number must be 0..99, got {self.number}")
        if self.goalkeeper:
            if self.parry is None or self.defence is None or self.parry.value is None or self.defence.value is None:
                raise ValueError(f"goalkeeper #{self.number} needs parry and defence with their numbers")
            if any(t is not None for t in (self.shoot, self.dodge, self.passing, self.movement)) or self.abilities:
                raise ValueError(f"goalkeeper #{self.number} has only parry and defence, no other characteristic "
                                 f"or ability")
        else:
            missing = [n for n in ("shoot", "dodge", "passing", "movement", "defence") if getattr(self, n) is None]
            if missing:
                raise ValueError(f"counter #{self.number} lacks the {missing[0]} characteristic")
            if self.defence.value is None:
                raise ValueError(f"counter #{self.number}: defence needs its number (the dodge difficulty)")
            if self.parry is not None:
                raise ValueError(f"counter #{self.number}: only goalkeepers have a parry characteristic")
        if len(set(self.abilities)) != len(self.abilities) or len(self.abilities) > 3:
            raise ValueError(f"counter #{self.number}: at most three different special abilities")

    def has(self, ability: Ability) -> bool:
        return ability in self.abilities


@dataclass(frozen=True, slots=True)
class TeamRoster:
    """A team's 14 counters: 13 players and a goalkeeper."""

    name: str
    counters: tuple[Counter, ...]
    placeholder: bool = False

    def __post_init__(self) -> None:
        if len(self.counters) != TEAM_SIZE:
            raise ValueError(f"a Football Leader team has {TEAM_SIZE} counters (13 players and a goalkeeper), "
                             f"this one has {len(self.counters)}")
        numbers = [c.number for c in self.counters]
        if len(set(numbers)) != len(numbers):
            raise ValueError("two counters share a jersey number")
        if sum(1 for c in self.counters if c.goalkeeper) != 1:
            raise ValueError("a team has exactly one goalkeeper counter")

    def counter(self, number: int) -> Counter:
        for c in self.counters:
            if c.number == number:
                return c
        raise KeyError(f"{self.name} has no #{number}")

    @property
    def goalkeeper(self) -> Counter:
        return next(c for c in self.counters if c.goalkeeper)


@dataclass(frozen=True, slots=True)
class Card:
    """An action card: its colour, the movement value in its centre and the bonus in its
    corners. Written ``"gold-4-12"``."""

    colour: Colour
    move: int
    bonus: int

    def __post_init__(self) -> None:
        if not 1 <= self.move <= 6 or not 0 <= self.bonus <= 20:
            raise ValueError(f"a card moves 1..6 spaces with a bonus of 0..20, not {self.move}-{self.bonus}")

    def to_json(self) -> str:
        return f"{self.colour.value}-{self.move}-{self.bonus}"

    @classmethod
    def from_json(cls, value: object) -> "Card":
        return cls.parse(value)

    @classmethod
    def parse(cls, value: object) -> "Card":
        parts = value.split("-") if isinstance(value, str) else []
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
            raise ValueError(f"expected a card like 'gold-4-12', got {value!r}")
        return cls(_parse_colour(parts[0], str(value)), int(parts[1]), int(parts[2]))

    def __str__(self) -> str:
        return self.to_json().upper()

    def __repr__(self) -> str:
        return f"Card.parse({self.to_json()!r})"

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Gold first, then by movement and bonus, highest first (the order of fig. 7)."""
        return (list(Colour).index(self.colour), -self.move, -self.bonus)


# Every card there can be, by its written name: decoding a journal looks a card up here
# (codec._json_table) instead of parsing its name again for each event that names it.
Card.JSON_TABLE = {card.to_json(): card for card in (Card(colour, move, bonus) for colour in Colour
                                                      for move in range(1, 7) for bonus in range(21))}


@dataclass(frozen=True, slots=True)
class DeckRow:
    """One row of fig. 7: how many cards of each colour carry this movement and bonus."""

    move: int
    bonus: int
    gold: int = 0
    silver: int = 0
    bronze: int = 0
    placeholder: bool = False

    def __post_init__(self) -> None:
        if min(self.gold, self.silver, self.bronze) < 0:
            raise ValueError("card counts cannot be negative")
        Card(Colour.GOLD, self.move, self.bonus)  # checks the values


@dataclass(frozen=True, slots=True)
class Deck:
    """A coach's deck of action cards (both decks are alike)."""

    rows: tuple[DeckRow, ...]

    def __post_init__(self) -> None:
        pairs = [(r.move, r.bonus) for r in self.rows]
        if len(set(pairs)) != len(pairs):
            raise ValueError("two rows share a movement / bonus value")
        totals = {c: sum(getattr(r, c) for r in self.rows) for c in DECK_COLOURS}
        if totals != DECK_COLOURS:
            raise ValueError(f"a deck holds 25 GOLD, 15 SILVER and 10 BRONZE cards (1.7); these rows hold "
                             f"{totals['gold']}, {totals['silver']} and {totals['bronze']}")

    def counts(self) -> dict[Card, int]:
        out: dict[Card, int] = {}
        for r in self.rows:
            for colour in Colour:
                n = getattr(r, colour.value)
                if n:
                    out[Card(colour, r.move, r.bonus)] = n
        return out

    @property
    def size(self) -> int:
        return sum(self.counts().values())

    @property
    def placeholder(self) -> bool:
        return any(r.placeholder for r in self.rows)


@dataclass(frozen=True, slots=True)
class Components:
    """Everything printed in the box that the rules need, embedded in the match journal so a
    replay never depends on files edited since."""

    board: SpaceBoard
    deck: Deck

    def placeholders(self) -> list[str]:
        notes = []
        if self.board.placeholder or any(sp.placeholder for sp in self.board.spaces):
            notes.append("board layout (spaces, millimetres, dotted lines, grey and central spaces, shooting "
                         "numbers) holds placeholder values: enter the printed ones in the box editor (Board layout and geometry)")
        rows = [f"{r.move}-{r.bonus}" for r in self.deck.rows if r.placeholder]
        if rows:
            notes.append(f"action-card distribution rows {', '.join(rows)} are placeholders (fig. 7 is only "
                         f"partly printed): enter the printed ones in the box editor (Action cards)")
        return notes


# --- loading --------------------------------------------------------------------------------

DATA = package_folder(__package__, "data")


def _items(obj: Any, key: str, file: str) -> list:
    if not isinstance(obj, dict) or not isinstance(obj.get(key), list):
        raise DataFileError(file, "", key, f"expected an object with a list {key!r}")
    return obj[key]


def load_board(path: Path | Any = None) -> SpaceBoard:
    path = path or DATA.joinpath("board.json")
    name = file_name(path)
    obj = read_json(path)
    spaces = _items(obj, "spaces", name)
    for i, sp in enumerate(spaces):  # name a bad space by its label, not only its index
        label = sp.get("label", f"spaces[{i}]") if isinstance(sp, dict) else f"spaces[{i}]"
        decode(BoardSpace, sp, name, f"space {label}")
    return decode(SpaceBoard, obj, name)


def load_deck(path: Path | Any = None) -> Deck:
    path = path or DATA.joinpath("action_cards.json")
    name = file_name(path)
    obj = read_json(path)
    rows = []
    for i, item in enumerate(_items(obj, "rows", name)):
        entry = f"row {item.get('move')}-{item.get('bonus')}" if isinstance(item, dict) else f"rows[{i}]"
        rows.append(decode(DeckRow, item, name, entry))
    try:
        return Deck(tuple(rows))
    except ValueError as exc:
        raise DataFileError(name, "", "rows", str(exc)) from None


def load_team(path: Path | Any) -> TeamRoster:
    name = file_name(path)
    obj = read_json(path)
    if isinstance(obj, dict) and isinstance(obj.get("counters"), list):
        default = obj.get("placeholder", False)
        for i, item in enumerate(obj["counters"]):
            entry = f"#{item.get('number')}" if isinstance(item, dict) else f"counters[{i}]"
            if isinstance(item, dict):
                item.setdefault("placeholder", default)
                decode(Counter, item, name, entry)
    return decode(TeamRoster, obj, name)


def shipped_team(key: str) -> TeamRoster:
    return load_team(DATA.joinpath("teams", f"{key}.json"))


def shipped_teams() -> list[str]:
    return sorted(p.name[:-5] for p in DATA.joinpath("teams").iterdir() if p.name.endswith(".json"))


def load_components(folder: Path | None = None) -> Components:
    """Load the component files, from ``folder`` where it has them, else the shipped ones."""
    def pick(name: str):
        if folder is not None and (Path(folder) / name).exists():
            return Path(folder) / name
        return DATA.joinpath(name)

    return Components(board=load_board(pick("board.json")), deck=load_deck(pick("action_cards.json")))
