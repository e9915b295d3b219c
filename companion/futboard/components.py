"""Futboard's printed components as data: the player tiles, the ruler and the field.

The rulebook text says where each value is printed but not the values: a tile shows its
movement and the dribble symbol at the top, the pass ruler and kick accuracy on the right,
the take-the-ball strength and the foul number ("X 12") on the left, and its tactical
position by the colour at its base; the field shows the kick penalties on its sides and the
goalkeeper's defence reductions in the spaces near the goal. They ship as JSON files in
``companion/futboard/data`` with placeholder values flagged (``"placeholder": true``); a
table enters its own box's numbers by editing a copy. Every file is validated on load; an
error names the file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..codec import to_json
from ..datafiles import decode, file_name, package_folder, read_json
from ..errors import DataFileError
from ..teams import CodeEnum
from .pitch import Pitch

SQUAD = 11          # "place 10 players plus the Goalkeeper"
STREET_SQUAD = 7    # "6 players plus the Goalkeeper ... 2 players from each tactical position"


class Position(CodeEnum):
    """The tactical position, shown by the colour at the base of a tile."""

    GOALKEEPER = "goalkeeper"
    DEFENDER = "defender"
    MIDFIELDER = "midfielder"
    ATTACKER = "attacker"


OUTFIELD = (Position.DEFENDER, Position.MIDFIELDER, Position.ATTACKER)


@dataclass(frozen=True, slots=True)
class Tile:
    """One player tile. ``defence`` is the goalkeeper's defence force (goalkeepers only)."""

    number: int
    name: str
    position: Position
    movement: int       # top: spaces he may move
    dribble: bool       # top: the dribble symbol
    pass_ruler: int     # right: ruler marks a pass may reach
    accuracy: int       # right: kick accuracy on the d12
    strength: int       # left: take-the-ball strength on the d12
    foul: int           # left: the roll that is a foul ("X 12")
    defence: int | None = None
    placeholder: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.number <= 99:
            raise ValueError(f"jersey number must be 0..99, got {self.number}")
        if not 1 <= self.movement <= 12:
            raise ValueError(f"movement is 1..12 spaces, got {self.movement}")
        if not 0 <= self.pass_ruler <= 40:
            raise ValueError(f"pass_ruler is 0..40 ruler marks, got {self.pass_ruler}")
        for name in ("accuracy", "strength"):
            value = getattr(self, name)
            if not 0 <= value <= 12:
                raise ValueError(f"{name} is 0..12 (rolled on a d12), got {value}")
        if not 1 <= self.foul <= 12:
            raise ValueError(f"foul is a d12 face, 1..12, got {self.foul}")
        if self.position is Position.GOALKEEPER:
            if self.defence is None or not 0 <= self.defence <= 12:
                raise ValueError(f"a goalkeeper tile needs a defence force of 0..12, got {self.defence}")
        elif self.defence is not None:
            raise ValueError("only goalkeeper tiles have a defence force")

    @property
    def goalkeeper(self) -> bool:
        return self.position is Position.GOALKEEPER


@dataclass(frozen=True, slots=True)
class TeamTiles:
    """A team's tiles, its suggested starting eleven and its suggested Street seven."""

    name: str
    tiles: tuple[Tile, ...]
    starters: tuple[int, ...]
    street_starters: tuple[int, ...]
    placeholder: bool = False

    def __post_init__(self) -> None:
        numbers = [t.number for t in self.tiles]
        if len(set(numbers)) != len(numbers):
            raise ValueError("two tiles share a jersey number")
        if len(self.tiles) < SQUAD:
            raise ValueError(f"a Futboard team needs at least {SQUAD} tiles, this one has {len(self.tiles)}")
        check_lineup(self, self.starters, street=False)
        check_lineup(self, self.street_starters, street=True)

    def tile(self, number: int) -> Tile:
        for tile in self.tiles:
            if tile.number == number:
                return tile
        raise KeyError(f"{self.name} has no #{number}")


def check_lineup(team: TeamTiles, numbers: tuple[int, ...], street: bool) -> None:
    """Raise ValueError unless ``numbers`` is a legal starting line-up for the variant."""
    size = STREET_SQUAD if street else SQUAD
    if len(numbers) != size or len(set(numbers)) != size:
        raise ValueError(f"a {'Street ' if street else ''}line-up names {size} different players, "
                         f"got {len(set(numbers))}")
    known = {t.number: t for t in team.tiles}
    unknown = [n for n in numbers if n not in known]
    if unknown:
        raise ValueError(f"#{unknown[0]} is not one of {team.name}'s tiles")
    positions = [known[n].position for n in numbers]
    if positions.count(Position.GOALKEEPER) != 1:
        raise ValueError("a line-up holds exactly one goalkeeper")
    if street:
        for pos in OUTFIELD:
            if positions.count(pos) != 2:
                raise ValueError(f"Futboard Street: choose 2 players from each tactical position; this line-up "
                                 f"has {positions.count(pos)} {pos.value}s")


@dataclass(frozen=True, slots=True)
class Ruler:
    """The pass ruler: the distance between two of its marks, and how many marks it has."""

    mark_mm: float
    marks: int
    placeholder: bool = False

    def __post_init__(self) -> None:
        if self.mark_mm <= 0 or self.marks < 1:
            raise ValueError("the ruler needs a positive mark spacing and at least one mark")


@dataclass(frozen=True, slots=True)
class Components:
    """Everything printed in the box that the rules need, embedded in the match journal so a
    replay never depends on files edited since."""

    pitch: Pitch
    ruler: Ruler

    def placeholders(self) -> list[str]:
        notes = []
        p = self.pitch
        if p.placeholder:
            notes.append(f"field geometry ({p.name}: space size, penalty areas, spots, centre circle, corner slots"
                         f"{', yellow lines' if p.yellow_lines else ''}) holds placeholder values: enter the "
                         f"printed ones in the box editor (Board geometry)")
        if p.kick_penalties.placeholder:
            notes.append("kick penalties printed on the sides of the field are placeholders: enter the printed "
                         "ones in the box editor (Board geometry, kick penalties)")
        if p.keeper.placeholder:
            notes.append("goalkeeper defence reductions printed near the goal are placeholders: enter the printed "
                         "ones in the box editor (Board geometry, goalkeeper)")
        if self.ruler.placeholder:
            notes.append("the pass ruler's mark spacing is a placeholder: measure your ruler and enter it in "
                         "the box editor (Pass ruler)")
        return notes


# --- loading --------------------------------------------------------------------------------

DATA = package_folder(__package__, "data")
BOARDS = {"futboard": "board.json", "street": "street_board.json"}


def load_pitch(path: Path | Any = None) -> Pitch:
    path = path or DATA.joinpath(BOARDS["futboard"])
    return decode(Pitch, read_json(path), file_name(path))


def load_ruler(path: Path | Any = None) -> Ruler:
    path = path or DATA.joinpath("ruler.json")
    return decode(Ruler, read_json(path), file_name(path))


def load_team(path: Path | Any) -> TeamTiles:
    """A team file: the tiles are checked one by one, so an error names the tile."""
    name = file_name(path)
    obj = read_json(path)
    if not isinstance(obj, dict) or not isinstance(obj.get("tiles"), list):
        raise DataFileError(name, "", "tiles", "expected an object with a list 'tiles'")
    default_placeholder = obj.get("placeholder", False)
    tiles = []
    for i, item in enumerate(obj["tiles"]):
        entry = f"#{item['number']}" if isinstance(item, dict) and "number" in item else f"tiles[{i}]"
        if isinstance(item, dict):
            item = {"placeholder": default_placeholder, **item}
        tiles.append(decode(Tile, item, name, entry))
    rest = {k: v for k, v in obj.items() if k != "tiles"}
    return decode(TeamTiles, {**rest, "tiles": [to_json(t) for t in tiles]}, name)


def shipped_team(key: str) -> TeamTiles:
    return load_team(DATA.joinpath("teams", f"{key}.json"))


def shipped_teams() -> list[str]:
    return sorted(p.name[:-5] for p in DATA.joinpath("teams").iterdir() if p.name.endswith(".json"))


def load_components(folder: Path | None = None, board: str = "futboard") -> Components:
    """Load the field (``board``: "futboard" or "street") and the ruler, from ``folder`` where
    it has them, else the shipped files."""
    if board not in BOARDS:
        raise DataFileError(str(folder or "shipped data"), "", "board",
                            f"no board {board!r}; choose one of {', '.join(BOARDS)}")

    def pick(name: str):
        if folder is not None and (Path(folder) / name).exists():
            return Path(folder) / name
        return DATA.joinpath(name)

    return Components(pitch=load_pitch(pick(BOARDS[board])), ruler=load_ruler(pick("ruler.json")))
