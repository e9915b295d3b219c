"""Difficulty numbers for pass, dodge, shot and tackle, and the foul check table.

Pure functions of the board and the counts the rules look up, so the rulebook's worked
examples test them directly (tests/test_football_leader_examples.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .pitch import ShootNumbers, Space, SpaceBoard, Step

PASS_FORWARD = 4       # 3.3: "4 for each space forwards (or backwards)"
PASS_SIDEWAYS = 3      # "3 for each space across the pitch sideways"
PASS_DOTTED = 2        # "or 2 if the path crosses a dotted line"
PASS_PER_DEFENDER = 3  # "adding 3 for each defending player"
DODGE_BASE = 6         # 3.4: "6 + the value of the defending characteristic"
TACKLE = 16            # 3.6: "a fixed difficulty value of 16"
HARD_TACKLE = 12       # "a difficulty value reduced to 12"
HARD_UNMARKED = 4      # "increased by +4 (so difficulty is increased to 16 as for basic tackle)"
MOVE_AND_TACKLE = 4    # 4.6: "its difficulty number is increased by +4"
COMBINED_SHOT = 4      # 4.4, 4.5: "+4 penalty in the shooting difficulty"
ON_THE_FLY = 4         # 5: "reduces the difficulty by 4 of the Shoot in Pass and Shoot"
PENALTY_BASE = 4       # 3.7: "4 + value of the goalkeeper parry characteristic"
STRONG_PARRY = 11      # 3.5: "a parry value of 11 or 12, converts 23 difficulty shoots into 24"


def halve(value: int) -> int:
    """Half, rounded up (a sideways or supported dodge)."""
    return (value + 1) // 2


# --- pass -------------------------------------------------------------------------------------

def pass_step_cost(board: SpaceBoard) -> Callable[[Space, Space, bool], int | None]:
    def cost(a: Space, b: Space, dotted: bool) -> int | None:
        if dotted:
            return PASS_DOTTED
        return PASS_SIDEWAYS if a[0] == b[0] else PASS_FORWARD
    return cost


@dataclass(frozen=True, slots=True)
class PassDifficulty:
    distance: int
    path: tuple[Space, ...]
    origin_defenders: int   # counted (0 for a backward pass, or an indirect kick's own space)
    dest_defenders: int
    backward: bool

    @property
    def total(self) -> int:
        return self.distance + PASS_PER_DEFENDER * (self.origin_defenders + self.dest_defenders)

    def describe(self) -> str:
        parts = [f"distance {self.distance}"]
        for count, where in ((self.origin_defenders, "passer"), (self.dest_defenders, "receiver")):
            if count:
                parts.append(f"{count} defender(s) at the {where} +{PASS_PER_DEFENDER * count}")
        return ", ".join(parts)


def pass_difficulty(board: SpaceBoard, origin: Space, dest: Space, towards_high: bool,
                    defenders_in: Callable[[Space], int], ignore_origin: bool = False) -> PassDifficulty:
    """The distance along the cheapest path, plus 3 per defending counter in the origin and
    destination spaces; a backward pass (and an indirect kick's own space) leaves the
    origin's defenders out."""
    found = board.cheapest(origin, dest, pass_step_cost(board))
    if found is None:
        raise ValueError(f"no path from {board.label(origin)} to {board.label(dest)}")
    distance, path = found
    backward = board.step(origin, dest, towards_high) is Step.BACKWARD
    origin_defenders = 0 if (backward or ignore_origin) else defenders_in(origin)
    return PassDifficulty(distance, path, origin_defenders, defenders_in(dest), backward)


# --- dodge ------------------------------------------------------------------------------------

def dodge_difficulty(defence_values: list[int] | tuple[int, ...]) -> int:
    """6 plus the defence value of each defending counter in the space."""
    return DODGE_BASE + sum(defence_values)


def move_dodge_difficulty(base: int, step: Step, supported: bool) -> int:
    """A dodge to leave a space while moving: the simple dodge's difficulty forward, half
    (rounded up) sideways; a supported dodge halves it (forward moves only)."""
    value = base if step is Step.FORWARD else halve(base)
    return halve(value) if supported else value


# --- shot -------------------------------------------------------------------------------------

def shot_difficulty(numbers: ShootNumbers, defenders: int, unmarked: bool, keeper_value: int, keeper_parry: int,
                    combined: bool = False, on_the_fly: bool = False) -> int:
    """X-Y-Z by the defenders in the space (one fewer for an unmarked shooter) plus the
    goalkeeper's value (parry outside the goal area, defence inside it); a single 23 or 24
    ignores the goalkeeper, except that a parry of 11 or 12 makes 23 into 24. A move or pass
    before the shot adds 4; shooting on the fly takes 4 off a pass and shoot."""
    if numbers.three:
        index = min(2, max(0, defenders - (1 if unmarked else 0)))
        value = numbers.values[index] + keeper_value
    else:
        value = numbers.values[0]
        if value == 23 and keeper_parry >= STRONG_PARRY:
            value = 24
    if combined:
        value += COMBINED_SHOT
        if on_the_fly:
            value -= ON_THE_FLY
    return value


def direct_kick_difficulty(numbers: ShootNumbers, keeper_value: int) -> int:
    """3.7: "the same as if there were a single defending player-counter in the space"."""
    return numbers.values[1] + keeper_value


def penalty_difficulty(keeper_parry: int) -> int:
    return PENALTY_BASE + keeper_parry


# --- tackle -------------------------------------------------------------------------------------

def tackle_difficulty(hard: bool, unmarked: bool, moved: bool) -> int:
    """Basic 16 (never against an unmarked counter); hard 12, +4 against an unmarked one;
    move and tackle is always hard, +4 more: 16, or 20 against an unmarked counter."""
    if not hard and not moved:
        if unmarked:
            raise ValueError("a basic tackle cannot be made against an unmarked counter")
        return TACKLE
    value = HARD_TACKLE
    if unmarked:
        value += HARD_UNMARKED
    if moved:
        value += MOVE_AND_TACKLE
    return value


# --- foul check ---------------------------------------------------------------------------------

FOUL_TABLE = (
    (12, 12, "red"),      # Foul! RED CARD
    (10, 11, "yellow"),   # Foul! YELLOW CARD
    (6, 9, "foul"),       # Foul!
    (1, 5, ""),           # Nothing happens
)


def foul_check(value: int) -> str:
    """"red", "yellow", "foul" or "" (nothing happens) for the die the check keeps."""
    for low, high, outcome in FOUL_TABLE:
        if low <= value <= high:
            return outcome
    raise ValueError(f"a foul check reads one d12, 1..12, not {value}")
