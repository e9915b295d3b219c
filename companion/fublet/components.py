"""Fublet's printed components as data: player cards, tactical boards, the round pace bar,
the referee's call board, and the board geometry.

The rulebook text names these but does not print their values, so they ship as JSON files
in ``companion/fublet/data`` with placeholder values flagged (``"placeholder": true``). A
table enters its own box's numbers by copying a file, editing it, and pointing Touchline at
it. Every file is validated on load; an error names the file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..board import GridBoard
from ..datafiles import decode, file_name, package_folder, read_json
from ..errors import DataFileError
from ..teams import CodeEnum


class Skill(CodeEnum):
    SHORT_PASS = "short_pass"
    LONG_PASS = "long_pass"
    CROSS = "cross"
    DRIBBLING = "dribbling"
    SPEED_DRIBBLING = "speed_dribbling"
    BALL_CONTROL = "ball_control"
    FINALIZATION = "finalization"
    LONG_SHOT = "long_shot"
    VOLLEY = "volley"
    TACKLE = "tackle"
    SLIDING_TACKLE = "sliding_tackle"
    AERIAL_TACKLE = "aerial_tackle"
    TACTICAL_PERCEPTION = "tactical_perception"
    SAVE = "save"
    RUSH_OUT = "rush_out"
    HANDLING = "handling"
    PENALTY_KICK = "penalty_kick"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


GOALKEEPER_SKILLS = (Skill.SAVE, Skill.RUSH_OUT, Skill.HANDLING, Skill.PENALTY_KICK)
FIELD_SKILLS = tuple(s for s in Skill if s not in GOALKEEPER_SKILLS)


class Action(CodeEnum):
    """What the ball carrier declares (the first column of a tactical board)."""

    SHORT_PASS = "short_pass"
    LONG_PASS = "long_pass"
    CROSS = "cross"
    FINALIZATION = "finalization"
    LONG_SHOT = "long_shot"
    KEEP_AND_RUN = "keep_and_run"
    SPEED_DRIBBLING = "speed_dribbling"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()

    @property
    def is_pass(self) -> bool:
        return self in (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS)

    @property
    def is_shot(self) -> bool:
        return self in (Action.FINALIZATION, Action.LONG_SHOT)

    @property
    def is_run(self) -> bool:
        return self in (Action.KEEP_AND_RUN, Action.SPEED_DRIBBLING)

    @property
    def skill(self) -> Skill | None:
        return {
            Action.SHORT_PASS: Skill.SHORT_PASS, Action.LONG_PASS: Skill.LONG_PASS, Action.CROSS: Skill.CROSS,
            Action.FINALIZATION: Skill.FINALIZATION, Action.LONG_SHOT: Skill.LONG_SHOT,
            Action.SPEED_DRIBBLING: Skill.SPEED_DRIBBLING,
        }.get(self)


@dataclass(frozen=True, slots=True)
class PlayerCard:
    number: int
    name: str
    goalkeeper: bool
    speed: int
    skills: dict[Skill, int]
    positions: str = ""
    placeholder: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.number <= 99:
            raise ValueError(f"jersey number must be 0..99, got {self.number}")
        if not 1 <= self.speed <= 20:
            raise ValueError(f"speed is a count of MS, 1..20, got {self.speed}")
        needed = FIELD_SKILLS + (GOALKEEPER_SKILLS if self.goalkeeper else ())
        missing = [s.value for s in needed if s not in self.skills]
        if missing:
            raise ValueError(f"missing skill {missing[0]!r} (a {'goalkeeper' if self.goalkeeper else 'player'} "
                             f"card lists {', '.join(s.value for s in needed)})")
        for skill, value in self.skills.items():
            if not 0 <= value <= 100:
                raise ValueError(f"skill {skill.value} must be 0..100, got {value}")

    def skill(self, skill: Skill) -> int:
        try:
            return self.skills[skill]
        except KeyError:
            raise KeyError(f"#{self.number} {self.name} has no {skill.label} skill (not a goalkeeper)") from None


@dataclass(frozen=True, slots=True)
class TeamRoster:
    """A team's 16 figures and its suggested starting eleven."""

    name: str
    players: tuple[PlayerCard, ...]
    starters: tuple[int, ...]
    placeholder: bool = False

    def __post_init__(self) -> None:
        numbers = [p.number for p in self.players]
        if len(self.players) != 16:
            raise ValueError(f"a Fublet team has 16 figures (11 starters, 5 subs), this one has {len(self.players)}")
        if len(set(numbers)) != len(numbers):
            raise ValueError("two figures share a jersey number")
        if len(self.starters) != 11 or len(set(self.starters)) != 11:
            raise ValueError(f"the starting eleven must name 11 different numbers, got {len(set(self.starters))}")
        unknown = [n for n in self.starters if n not in numbers]
        if unknown:
            raise ValueError(f"starter #{unknown[0]} is not on the roster")
        if sum(1 for p in self.players if p.goalkeeper and p.number in self.starters) != 1:
            raise ValueError("the starting eleven must hold exactly one goalkeeper")

    def card(self, number: int) -> PlayerCard:
        for card in self.players:
            if card.number == number:
                return card
        raise KeyError(f"{self.name} has no #{number}")


@dataclass(frozen=True, slots=True)
class MpGain:
    attack: int
    defence: int

    def __post_init__(self) -> None:
        if not (0 <= self.attack <= 20 and 0 <= self.defence <= 20):
            raise ValueError("MP earned per declaration must be 0..20")


@dataclass(frozen=True, slots=True)
class MovementCosts:
    """MP a coach spends per movement type (the tactical board's Movement and Tactical
    movement columns)."""

    single: int
    zone: int
    offside: int
    tactical: int

    def __post_init__(self) -> None:
        if min(self.single, self.zone, self.offside, self.tactical) < 0:
            raise ValueError("movement costs cannot be negative")


@dataclass(frozen=True, slots=True)
class TacticalBoard:
    id: str
    name: str
    mp: dict[Action, MpGain]
    costs: MovementCosts
    outcome_boosts: dict[Skill, int] = field(default_factory=dict)
    event_boosts: dict[Skill, int] = field(default_factory=dict)
    placeholder: bool = False

    def __post_init__(self) -> None:
        missing = [a.value for a in Action if a not in self.mp]
        if missing:
            raise ValueError(f"board {self.id!r} has no MP entry for {missing[0]!r}")
        for boosts in (self.outcome_boosts, self.event_boosts):
            for skill, value in boosts.items():
                if not 0 <= value <= 30:
                    raise ValueError(f"boost for {skill.value} must be 0..30, got {value}")


@dataclass(frozen=True, slots=True)
class RoundPaceBar:
    """Each square's big number (the pace) and small number (zone movement and minutes),
    and the minimum pace the attacking coach must reach to earn MP for three actions."""

    small: dict[int, int]
    min_pace_for_mp: dict[Action, int]
    placeholder: bool = False

    def __post_init__(self) -> None:
        paces = sorted(self.small)
        if not paces or paces[0] != 1 or paces != list(range(1, paces[-1] + 1)):
            raise ValueError("the bar must list every pace from 1 up, without gaps")
        if paces[-1] < 15:
            raise ValueError("the bar must reach pace 15 (a goal kick may travel 15 PS)")
        for pace, small in self.small.items():
            if not 0 <= small <= pace:
                raise ValueError(f"small number under pace {pace} must be 0..{pace}, got {small}")
        for action in self.min_pace_for_mp:
            if action not in (Action.SHORT_PASS, Action.KEEP_AND_RUN, Action.SPEED_DRIBBLING):
                raise ValueError(f"only short pass, keep and run and speed dribbling have a minimum pace, "
                                 f"not {action.value}")

    @property
    def max_pace(self) -> int:
        return max(self.small)

    def small_for(self, pace: int) -> int:
        return self.small[min(max(pace, 1), self.max_pace)]


@dataclass(frozen=True, slots=True)
class CardThresholds:
    """A failed test result at or above ``yellow_from`` books the player; at or above
    ``red_from`` sends him off. 101 means never."""

    yellow_from: int
    red_from: int

    def __post_init__(self) -> None:
        if not 1 <= self.yellow_from <= self.red_from <= 101:
            raise ValueError(f"need 1 <= yellow_from <= red_from <= 101, got {self.yellow_from}, {self.red_from}")


@dataclass(frozen=True, slots=True)
class RefereeCallBoard:
    calls: dict[Skill, CardThresholds]
    placeholder: bool = False

    def card_for(self, skill: Skill, result: int) -> str | None:
        thresholds = self.calls.get(skill)
        if thresholds is None:
            return None
        if result >= thresholds.red_from:
            return "red"
        if result >= thresholds.yellow_from:
            return "yellow"
        return None


@dataclass(frozen=True, slots=True)
class Components:
    """Everything printed in the box that the rules need, embedded in the match journal so a
    replay never depends on files that may have been edited since."""

    board: GridBoard
    tactical_boards: tuple[TacticalBoard, ...]
    pace_bar: RoundPaceBar
    referee: RefereeCallBoard

    def __post_init__(self) -> None:
        ids = [b.id for b in self.tactical_boards]
        if len(ids) != len(set(ids)):
            raise ValueError("two tactical boards share an id")
        if len(ids) < 2:
            raise ValueError("need at least two tactical boards, one per coach")

    def tactical_board(self, board_id: str) -> TacticalBoard:
        for board in self.tactical_boards:
            if board.id == board_id:
                return board
        raise KeyError(f"no tactical board {board_id!r}; known: {', '.join(b.id for b in self.tactical_boards)}")

    def placeholders(self) -> list[str]:
        notes = []
        if self.board.placeholder or any(a.placeholder for a in self.board.areas.values()):
            notes.append("board geometry (pitch size, zone lines, penalty, cross and outstanding-shot areas) "
                         "holds placeholder values: enter the printed ones in the box editor (Board geometry)")
        boards = [b.name for b in self.tactical_boards if b.placeholder]
        if boards:
            notes.append(f"tactical boards hold placeholder MP, costs and boosts ({len(boards)} of "
                         f"{len(self.tactical_boards)}: {'; '.join(boards)}): enter the printed ones in "
                         f"the box editor (Tactical boards)")
        if self.pace_bar.placeholder:
            notes.append("round pace bar small numbers and minimum paces are placeholders: enter the printed "
                         "ones in the box editor (Round pace bar)")
        if self.referee.placeholder:
            notes.append("referee's call board thresholds are placeholders: enter the printed ones in "
                         "the box editor (Referee's call board)")
        return notes


# --- loading --------------------------------------------------------------------------------

DATA = package_folder(__package__, "data")


def load_board(path: Path | Any = None) -> GridBoard:
    path = path or DATA.joinpath("board.json")
    return decode(GridBoard, read_json(path), file_name(path), "")


def load_tactical_boards(path: Path | Any = None) -> tuple[TacticalBoard, ...]:
    path = path or DATA.joinpath("tactical_boards.json")
    name = file_name(path)
    obj = read_json(path)
    if not isinstance(obj, dict) or not isinstance(obj.get("boards"), list):
        raise DataFileError(name, "", "boards", "expected an object with a list 'boards'")
    default_placeholder = obj.get("placeholder", False)
    boards = []
    for i, item in enumerate(obj["boards"]):
        entry = item.get("id", f"boards[{i}]") if isinstance(item, dict) else f"boards[{i}]"
        if isinstance(item, dict):
            item = {"placeholder": default_placeholder, **item}
        boards.append(decode(TacticalBoard, item, name, str(entry)))
    if len({b.id for b in boards}) != len(boards):
        raise DataFileError(name, "", "id", "two boards share an id")
    return tuple(boards)


def load_pace_bar(path: Path | Any = None) -> RoundPaceBar:
    path = path or DATA.joinpath("round_pace_bar.json")
    obj = read_json(path)
    name = file_name(path)
    if isinstance(obj, dict) and isinstance(obj.get("squares"), list):
        small = {}
        for i, sq in enumerate(obj["squares"]):
            if not isinstance(sq, dict) or not isinstance(sq.get("pace"), int) or not isinstance(sq.get("small"), int):
                raise DataFileError(name, f"squares[{i}]", "", "each square needs integer 'pace' and 'small'")
            small[str(sq["pace"])] = sq["small"]
        obj = {k: v for k, v in obj.items() if k != "squares"} | {"small": small}
    return decode(RoundPaceBar, obj, name, "")


def load_referee(path: Path | Any = None) -> RefereeCallBoard:
    path = path or DATA.joinpath("referee_call_board.json")
    return decode(RefereeCallBoard, read_json(path), file_name(path), "")


def load_team(path: Path | Any) -> TeamRoster:
    return decode(TeamRoster, read_json(path), file_name(path), "")


def shipped_team(key: str) -> TeamRoster:
    return load_team(DATA.joinpath("teams", f"{key}.json"))


def shipped_teams() -> list[str]:
    return sorted(p.name[:-5] for p in DATA.joinpath("teams").iterdir() if p.name.endswith(".json"))


def load_components(folder: Path | None = None) -> Components:
    """Load all component files, from ``folder`` where it has them, else the shipped ones."""
    def pick(name: str):
        if folder is not None and (Path(folder) / name).exists():
            return Path(folder) / name
        return DATA.joinpath(name)

    try:
        return Components(
            board=load_board(pick("board.json")),
            tactical_boards=load_tactical_boards(pick("tactical_boards.json")),
            pace_bar=load_pace_bar(pick("round_pace_bar.json")),
            referee=load_referee(pick("referee_call_board.json")),
        )
    except ValueError as exc:
        raise DataFileError(str(folder or "shipped data"), "", "", str(exc)) from None
