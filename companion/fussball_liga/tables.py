"""The result tables: the ones the rulebook prints (goal shot, shot interception, dribbling)
kept as printed, and the ones whose text was lost (penalty-kick, the optional rules), each a
documented reading flagged as a placeholder (docs/assumptions.md, LV entries).

Printed tables have six columns, for a modified die result of 1 or less, 2, 3, 4, 5 and 6 or
more.
"""

from __future__ import annotations

from dataclasses import dataclass

COLUMNS = 6  # 1-, 2, 3, 4, 5, 6+


def column(result: int) -> int:
    """The table column (0..5) of a modified die result: 1 or less, 2..5, 6 or more."""
    return min(max(result, 1), COLUMNS) - 1


def _six(entries: tuple[str, ...], allowed: frozenset[str], what: str) -> None:
    if len(entries) != COLUMNS:
        raise ValueError(f"{what} needs {COLUMNS} columns (1-, 2, 3, 4, 5, 6+), got {len(entries)}")
    bad = [e for e in entries if e not in allowed]
    if bad:
        raise ValueError(f"{what}: {bad[0]!r} is not one of {', '.join(sorted(allowed))}")


# --- the printed tables -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DistanceRow:
    first: int
    last: int
    columns: tuple[str, ...]

    def __post_init__(self) -> None:
        if not 1 <= self.first <= self.last:
            raise ValueError(f"distance row {self.first}-{self.last} is empty")
        _six(self.columns, frozenset(("hit", "-")), f"distance {self.first}-{self.last}")


@dataclass(frozen=True, slots=True)
class GoalShotTable:
    """Rulebook, Goal Shots. The printed rows overlap (5-7 and 7-9): ``overlap`` says which
    row a distance printed twice reads from, "harder" (the row needing more) or "easier"."""

    rows: tuple[DistanceRow, ...]
    overlap: str = "harder"
    placeholder: bool = False

    def __post_init__(self) -> None:
        if self.overlap not in ("harder", "easier"):
            raise ValueError(f"overlap must be 'harder' or 'easier', not {self.overlap!r}")
        covered = {d for r in self.rows for d in range(r.first, r.last + 1)}
        if not self.rows or covered != set(range(1, self.max_distance + 1)):
            raise ValueError("the rows must cover every distance from 1 up without a gap")

    @property
    def max_distance(self) -> int:
        return max(r.last for r in self.rows)

    def row_for(self, distance: int) -> DistanceRow:
        rows = [r for r in self.rows if r.first <= distance <= r.last]
        if not rows:
            raise ValueError(f"no goal-shot row for a distance of {distance}")
        needs = [(r.columns.count("-"), i, r) for i, r in enumerate(rows)]
        pick = max(needs) if self.overlap == "harder" else min(needs)
        return pick[2]

    def hits(self, distance: int, result: int) -> bool:
        return self.row_for(distance).columns[column(result)] == "hit"

    def needs(self, distance: int) -> int:
        """The lowest modified result that hits (1 when every result hits)."""
        return self.row_for(distance).columns.index("hit") + 1


@dataclass(frozen=True, slots=True)
class InterceptionModifiers:
    near: int = 1            # the interception square is adjacent to the ball's origin or target
    at_two: int = -1         # ... is 2 squares from the nearer of them
    beyond_two: int = -2     # ... is more than 2 squares from both
    goalkeeper: int = 1      # the goalkeeper, in his goal or penalty area


@dataclass(frozen=True, slots=True)
class InterceptionTable:
    """Rulebook, Shot Interception table: the ball's path through the defender's square or
    adjacent to it; an original roll in ``original_fails`` always loses."""

    through: tuple[str, ...]
    adjacent: tuple[str, ...]
    modifiers: InterceptionModifiers = InterceptionModifiers()
    original_fails: tuple[int, ...] = (1,)
    placeholder: bool = False

    def __post_init__(self) -> None:
        _six(self.through, frozenset(("ok", "-")), "through")
        _six(self.adjacent, frozenset(("ok", "-")), "adjacent")

    def succeeds(self, through: bool, original: int, modified: int) -> bool:
        if original in self.original_fails:
            return False
        return (self.through if through else self.adjacent)[column(modified)] == "ok"


@dataclass(frozen=True, slots=True)
class DribblingModifiers:
    per_additional_defender: int = 1    # each supporting defender next to the attacker or the ball
    none_adjacent_to_attacker: int = -1  # no committed defender next to the attacking player
    ball_through_defender: int = 2      # the ball was dribbled into the defender's square
    goalkeeper: int = 1                 # the goalkeeper, in his goal or goal area
    fair_play: int = -1


DRIBBLE_ENTRIES = frozenset(("ok", "-", "foul/yellow card?", "foul?"))


@dataclass(frozen=True, slots=True)
class DribblingTable:
    """Rulebook, Dribbling table: the attacker's ball control (wide or close), read with the
    modified result. An original roll in ``foul_on`` is a foul (unless "fair play" or no
    defender next to the attacker), with a yellow card for one in ``yellow_on``."""

    wide: tuple[str, ...]
    close: tuple[str, ...]
    modifiers: DribblingModifiers = DribblingModifiers()
    foul_on: tuple[int, ...] = (1, 2)
    yellow_on: tuple[int, ...] = (1,)
    placeholder: bool = False

    def __post_init__(self) -> None:
        _six(self.wide, DRIBBLE_ENTRIES, "wide")
        _six(self.close, DRIBBLE_ENTRIES, "close")
        if not set(self.yellow_on) <= set(self.foul_on):
            raise ValueError("a roll that shows a yellow card must also be a foul")

    def fouls(self, original: int, fair_play: bool, next_to_attacker: bool) -> bool:
        """"An original die roll of "1" or "2" is a foul if any defender and the attacker are
        on adjacent squares and the defender did not declare "fair play"" (LV30)."""
        return original in self.foul_on and not fair_play and next_to_attacker

    def succeeds(self, close: bool, original: int, modified: int, foul: bool = False) -> bool:
        """A foul never wins the ball (the fouled side has the free-kick). Otherwise the modified
        result reads the table, an original 1 or 2 included: the headings are modified results
        ("d1-", "d6+") and only the interception table says an original "1" always loses (LV30)."""
        if foul:
            return False
        return (self.close if close else self.wide)[column(modified)] == "ok"


PENALTY_OUTCOMES = ("goal", "miss", "saved")


@dataclass(frozen=True, slots=True)
class PenaltyTable:
    """Rulebook, Penalty-Kick: "the attacker rolls a die. These are the possible results:"
    (the list is lost). Each face reads "aim:N" (at goal square N: saved if the goalkeeper
    stands there, else a goal), "goal", "miss" or "saved"."""

    results: dict[int, str]
    placeholder: bool = True

    def __post_init__(self) -> None:
        if sorted(self.results) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("the penalty-kick table needs a result for each face 1 to 6")
        for face, result in self.results.items():
            if result.startswith("aim:"):
                if result[4:] not in ("1", "2", "3", "4"):
                    raise ValueError(f"face {face}: aim at goal square 1 to 4, not {result!r}")
            elif result not in PENALTY_OUTCOMES:
                raise ValueError(f"face {face}: {result!r} is not aim:N, goal, miss or saved")


# --- the optional rules' tables (their text is lost) ----------------------------------------------

@dataclass(frozen=True, slots=True)
class SaveTable:
    """Optional rule "Goalkeeper's Save": a die after a successful interception in the
    penalty area. Each face: "hold", "parry" (the ball stays loose where it was stopped) or
    "corner"."""

    results: dict[int, str]
    placeholder: bool = True

    def __post_init__(self) -> None:
        if sorted(self.results) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("the goalkeeper's save table needs a result for each face 1 to 6")
        for face, result in self.results.items():
            if result not in ("hold", "parry", "corner"):
                raise ValueError(f"face {face}: {result!r} is not hold, parry or corner")


@dataclass(frozen=True, slots=True)
class TakingAPassTable:
    """Optional rule "Taking a Pass": two dice against the pass's distance. With ``margin``
    = total - distance: at least ``taken_from`` takes the pass; at least ``rebound_from``
    rebounds to the first empty square beyond the player; less rolls the ball on
    (distance - total) squares past him."""

    taken_from: int = 1
    rebound_from: int = 0
    placeholder: bool = True

    def __post_init__(self) -> None:
        if self.rebound_from > self.taken_from:
            raise ValueError("rebound_from cannot exceed taken_from")

    def outcome(self, total: int, distance: int) -> str:
        margin = total - distance
        if margin >= self.taken_from:
            return "taken"
        if margin >= self.rebound_from:
            return "rebound"
        return "roll_on"


@dataclass(frozen=True, slots=True)
class GoalPostTable:
    """Optional rule "Goal Posts": a goal shot over a goal-post edge. Each face: "post"
    (the ball rebounds to the last square it crossed in the field) or "in"."""

    results: dict[int, str]
    placeholder: bool = True

    def __post_init__(self) -> None:
        if sorted(self.results) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("the goal-post table needs a result for each face 1 to 6")
        for face, result in self.results.items():
            if result not in ("post", "in"):
                raise ValueError(f"face {face}: {result!r} is not post or in")


@dataclass(frozen=True, slots=True)
class Tables:
    goal_shot: GoalShotTable
    interception: InterceptionTable
    dribbling: DribblingTable
    penalty: PenaltyTable
    save: SaveTable
    taking_a_pass: TakingAPassTable
    goal_post: GoalPostTable
