"""The Fußball-Liga variant's box data: the board, the result tables (tables.py), the rule
values and the teams, as validated dataclasses loaded from ``data/*.json``.

Where the text lost a table or a value in transcription (the penalty-kick results, the
movement cost list, the maximum shot distance, the optional rules' tables) the file holds a
documented reading flagged ``"placeholder": true``; the match reports it while in use (see
docs/assumptions.md, LV entries). Every file is validated on load; an error names the file,
the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..datafiles import decode, file_name, package_folder, read_json
from ..errors import DataFileError
from .pitch import Pitch
from .tables import (COLUMNS, DistanceRow, DribblingModifiers, DribblingTable, GoalPostTable,  # noqa: F401
                     GoalShotTable, InterceptionModifiers, InterceptionTable, PenaltyTable, SaveTable, Tables,
                     TakingAPassTable, column)

# --- rule values -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MovementCosts:
    """Movement points per square (the rulebook's cost list is lost; close control's 2 and
    the ball's 1 per 45 degrees around the player are printed elsewhere)."""

    free: int = 1            # a player without the ball
    close_control: int = 2   # with the ball in his own square
    loose_control: int = 1   # with the ball in a front square, moved beside him
    ball_around: int = 1     # the ball moved one square around the player
    placeholder: bool = True

    def __post_init__(self) -> None:
        if min(self.free, self.close_control, self.loose_control, self.ball_around) < 1:
            raise ValueError("every movement costs at least 1 point")


@dataclass(frozen=True, slots=True)
class Limits:
    """The numbers the rulebook prints (and the shot range it lost: ``max_shot``)."""

    mp_per_side: int = 18
    mp_per_player: int = 6
    max_shot: int = 12
    max_follow_up: int = 6
    max_kick_off: int = 6
    max_throw_in: int = 6
    max_corner: int = 12
    max_goal_kick: int = 12
    setup_mp_per_player: int = 6
    setup_distance: int = 3
    goal_area_per_side: int = 2
    hold_distance: int = 3
    fouls_per_yellow: int = 3
    yellows_to_send_off: int = 2
    diagonal_gap_blocked: bool = True
    placeholder: bool = True  # max_shot and diagonal_gap_blocked are readings (see LV entries)

    def __post_init__(self) -> None:
        for name in ("mp_per_side", "mp_per_player", "max_shot", "max_follow_up", "max_kick_off", "max_throw_in",
                     "max_corner", "max_goal_kick", "setup_mp_per_player", "setup_distance", "fouls_per_yellow",
                     "yellows_to_send_off"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.mp_per_player > self.mp_per_side:
            raise ValueError("a player cannot spend more points than his side has")


@dataclass(frozen=True, slots=True)
class RuleValues:
    limits: Limits = Limits()
    costs: MovementCosts = MovementCosts()


# --- teams -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Bonus:
    """Optional rule "Bonus Points". An ace's bonus counts in his favour; a wash-out's is
    applied by the opposing coach, who picks when and the sign. ``form`` "constant": the
    points on every eligible roll; "pool": points for the match, spent a roll at a time."""

    kind: str
    form: str
    points: int

    def __post_init__(self) -> None:
        if self.kind not in ("ace", "washout"):
            raise ValueError(f"a bonus is 'ace' or 'washout', not {self.kind!r}")
        if self.form not in ("constant", "pool"):
            raise ValueError(f"a bonus comes as 'constant' or 'pool', not {self.form!r}")
        if not 1 <= self.points <= 6:
            raise ValueError(f"bonus points are 1..6, got {self.points}")


@dataclass(frozen=True, slots=True)
class LigaPlayer:
    number: int
    name: str
    goalkeeper: bool = False
    bonus: Bonus | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.number <= 99:
            raise ValueError(f"jersey number must be 0..99, got {self.number}")


@dataclass(frozen=True, slots=True)
class Roster:
    """A team: its figures and its starting eleven. Player no. 1 is always the goalkeeper."""

    name: str
    players: tuple[LigaPlayer, ...]
    starters: tuple[int, ...]
    placeholder: bool = False

    def __post_init__(self) -> None:
        numbers = [p.number for p in self.players]
        if len(set(numbers)) != len(numbers):
            raise ValueError("two figures share a jersey number")
        if len(self.starters) != 11 or len(set(self.starters)) != 11:
            raise ValueError(f"the starting eleven must name 11 different numbers, got {len(set(self.starters))}")
        unknown = [n for n in self.starters if n not in numbers]
        if unknown:
            raise ValueError(f"starter #{unknown[0]} is not on the roster")
        if 1 not in self.starters or not self.player(1).goalkeeper:
            raise ValueError("player no. 1 is always the goalkeeper and starts the match")
        if sum(1 for n in self.starters if self.player(n).goalkeeper) != 1:
            raise ValueError("the starting eleven holds exactly one goalkeeper")

    def player(self, number: int) -> LigaPlayer:
        for p in self.players:
            if p.number == number:
                return p
        raise KeyError(f"{self.name} has no #{number}")


@dataclass(frozen=True, slots=True)
class Components:
    """Everything printed in the box, embedded in the match's first event so a replay never
    depends on files edited later."""

    pitch: Pitch
    tables: Tables
    rules: RuleValues

    def __post_init__(self) -> None:
        limits = self.rules.limits
        if limits.max_shot > self.tables.goal_shot.max_distance:
            raise ValueError(f"shots carry up to {limits.max_shot} squares but the goal-shot table stops at "
                             f"{self.tables.goal_shot.max_distance}")

    def placeholders(self, options: Any = None) -> list[str]:
        notes = []
        if self.pitch.placeholder:
            notes.append("board geometry (size, goals, areas, marks, square size) holds placeholder values: enter "
                         "the printed ones in the box editor (Board geometry)")
        if self.rules.costs.placeholder:
            notes.append("movement costs without the ball and with loose control are readings of a lost list: "
                         "check them in the box editor (Rule values)")
        if self.rules.limits.placeholder:
            notes.append("the maximum shot distance (12) and the gap rule are readings of lost text: check "
                         "them in the box editor (Rule values)")
        if self.tables.goal_shot.placeholder:
            notes.append(f"goal-shot table: a distance printed in two rows (7) reads the {self.tables.goal_shot.overlap} "
                         f"row: check it in the box editor (Tables)")
        if self.tables.penalty.placeholder:
            notes.append("penalty-kick results are a reading of a lost list: enter the printed ones in the box editor (Tables)")
        on = (lambda name: getattr(options, name, False)) if options is not None else (lambda name: True)
        if on("goalkeeper_save") and self.tables.save.placeholder:
            notes.append("optional goalkeeper's save table is a placeholder: enter the printed one in the box editor (Tables)")
        if on("taking_a_pass") and self.tables.taking_a_pass.placeholder:
            notes.append("optional taking-a-pass table is a placeholder: enter the printed one in the box editor (Tables)")
        if on("goal_posts") and self.tables.goal_post.placeholder:
            notes.append("optional goal-post table is a placeholder: enter the printed one in the box editor (Tables)")
        return notes


# --- loading -------------------------------------------------------------------------------------

DATA = package_folder(__package__, "data")


def load_pitch(path: Path | Any = None) -> Pitch:
    path = path or DATA.joinpath("pitch.json")
    return decode(Pitch, read_json(path), file_name(path))


def load_tables(path: Path | Any = None) -> Tables:
    path = path or DATA.joinpath("tables.json")
    return decode(Tables, read_json(path), file_name(path))


def load_rule_values(path: Path | Any = None) -> RuleValues:
    path = path or DATA.joinpath("rules.json")
    return decode(RuleValues, read_json(path), file_name(path))


def load_team(path: Path | Any) -> Roster:
    return decode(Roster, read_json(path), file_name(path))


def shipped_team(key: str) -> Roster:
    return load_team(DATA.joinpath("teams", f"{key}.json"))


def shipped_teams() -> list[str]:
    return sorted(p.name[:-5] for p in DATA.joinpath("teams").iterdir() if p.name.endswith(".json"))


def load_components(folder: Path | None = None) -> Components:
    """Load every component file, from ``folder`` where it has one, else the shipped one."""
    def pick(name: str):
        if folder is not None and (Path(folder) / name).exists():
            return Path(folder) / name
        return DATA.joinpath(name)

    pitch, tables, rules = load_pitch(pick("pitch.json")), load_tables(pick("tables.json")), \
        load_rule_values(pick("rules.json"))
    try:
        return Components(pitch=pitch, tables=tables, rules=rules)
    except ValueError as exc:
        raise DataFileError(str(folder or "shipped data"), "", "", str(exc)) from None
