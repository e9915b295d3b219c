"""The dice model: kinds, identities, rolls, and how two d10 read as a percentile.

Faces are what the die shows: d6 1-6, d8 1-8, d12 1-12, and d10 0-9 (the ten-sided dice
sold for percentile rolls are printed 0-9; a lone d10 reads its 0 as 10, see
``DieResult.value``). A roll carries its source (tray, keypad, software) and each die's
identity (kind, colour, owning coach), because the rules need to know whose dice rolled and
which die is the tens.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .errors import DiceMismatch
from .events import Source
from .teams import CodeEnum, Team


class DieKind(CodeEnum):
    D6 = "d6"
    D8 = "d8"
    D10 = "d10"
    D12 = "d12"

    @property
    def sides(self) -> int:
        return int(self.value[1:])

    @property
    def lowest(self) -> int:
        return 0 if self is DieKind.D10 else 1

    @property
    def highest(self) -> int:
        return 9 if self is DieKind.D10 else self.sides

    def check_face(self, face: int) -> None:
        low, high = _FACES[self]  # a table, not two properties: a replay checks every die read
        if isinstance(face, bool) or not isinstance(face, int) or not low <= face <= high:
            raise ValueError(f"a {self.value} shows {low}..{high}, not {face!r}")


_FACES = {kind: (kind.lowest, kind.highest) for kind in DieKind}


@dataclass(frozen=True, slots=True)
class Die:
    """Which physical die: its kind, colour (``"black"``, ``"white"``...) and owning coach."""

    kind: DieKind
    colour: str = ""
    owner: Team | None = None


@dataclass(frozen=True, slots=True)
class DieResult:
    die: Die
    face: int

    def __post_init__(self) -> None:
        self.die.kind.check_face(self.face)

    @property
    def value(self) -> int:
        """The face as a number to count with: a lone d10's 0 reads 10."""
        if self.die.kind is DieKind.D10 and self.face == 0:
            return 10
        return self.face


@dataclass(frozen=True, slots=True)
class Roll:
    """One throw of one or more dice, as a tray, the keypad or software dice reported it."""

    dice: tuple[DieResult, ...]
    source: Source = Source.MANUAL
    device: str = ""  # tray id, "keypad", or "software seed=...#n"

    def __post_init__(self) -> None:
        if not self.dice:
            raise ValueError("a roll needs at least one die")
        if self.source is Source.RULES or self.source is Source.VISION:
            raise ValueError(f"dice cannot come from {self.source.value}; use tray, manual or software")

    @property
    def kinds(self) -> tuple[DieKind, ...]:
        return tuple(d.die.kind for d in self.dice)

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice)

    @property
    def total(self) -> int:
        return sum(d.value for d in self.dice)

    def describe(self) -> str:
        parts = []
        for d in self.dice:
            colour = f" {d.die.colour}" if d.die.colour else ""
            parts.append(f"{d.die.kind.value}{colour}={d.face}")
        return ", ".join(parts)


def roll_of(kind: DieKind, *faces: int, owner: Team | None = None, colours: tuple[str, ...] = (),
            source: Source = Source.MANUAL, device: str = "") -> Roll:
    """Build a roll of same-kind dice, e.g. ``roll_of(DieKind.D10, 4, 4, owner=Team.HOME)``."""
    dice = tuple(
        DieResult(Die(kind, colours[i] if i < len(colours) else "", owner), face)
        for i, face in enumerate(faces)
    )
    return Roll(dice, source, device)


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """What a pending request needs: a group of dice kinds, rolled by one coach (or either)."""

    kinds: tuple[DieKind, ...]
    owner: Team | None = None

    def __post_init__(self) -> None:
        if not self.kinds:
            raise ValueError("a dice request needs at least one die")

    def describe(self) -> str:
        counts = Counter(k.value for k in self.kinds)
        return " + ".join(f"{n}{kind}" for kind, n in counts.items())

    def check(self, roll: Roll, rule: str, what: str) -> None:
        """Refuse a roll of the wrong kind or count, or thrown with the other coach's dice."""
        if Counter(roll.kinds) != Counter(self.kinds):
            got = DiceSpec(roll.kinds).describe()
            raise DiceMismatch(rule, f"{what} needs {self.describe()}, but the roll was {got}; "
                                     f"roll again with the right dice")
        if self.owner is not None:
            foreign = [d for d in roll.dice if d.die.owner is not None and d.die.owner is not self.owner]
            if foreign:
                raise DiceMismatch(rule, f"{what} is {self.owner.label}'s roll, but the dice belong to "
                                         f"{foreign[0].die.owner.label}")


@dataclass(frozen=True, slots=True)
class PercentileReading:
    """How two d10 make 1..100 (or 0..99).

    ``tens`` is the colour of the tens die; when no die in the roll has that colour (a keypad
    entry, say), the first die is the tens. ``zero_zero`` is what "00" reads as: 100 by
    default (the usual percentile convention, so 00 always fails a skill test), or 0.
    """

    tens: str = "black"
    zero_zero: int = 100

    def __post_init__(self) -> None:
        if self.zero_zero not in (0, 100):
            raise ValueError(f"'00' reads as 0 or 100, not {self.zero_zero!r}")

    def read(self, roll: Roll) -> int:
        if roll.kinds != (DieKind.D10, DieKind.D10):
            raise ValueError(f"a percentile reading needs exactly two d10, got {DiceSpec(roll.kinds).describe()}")
        first, second = roll.dice
        tens, units = first, second
        if self.tens:
            marked = [d for d in roll.dice if d.die.colour == self.tens]
            if len(marked) == 1:
                tens = marked[0]
                units = second if tens is first else first
        value = tens.face * 10 + units.face
        return self.zero_zero if value == 0 else value


@dataclass(slots=True)
class SoftwareDice:
    """Seeded dice for tables without physical dice.

    Roll number n is drawn from its own generator seeded with ``(seed, n)``, so the device
    label journaled with each roll (``software seed=42#7``) is enough to reproduce it, and a
    resumed match continues the sequence from ``count``.
    """

    seed: int
    count: int = 0

    def roll(self, spec: DiceSpec, colours: tuple[str, ...] = ()) -> Roll:
        self.count += 1
        rng = random.Random(f"{self.seed}:{self.count}")
        dice = []
        for i, kind in enumerate(spec.kinds):
            colour = colours[i] if i < len(colours) else ""
            dice.append(DieResult(Die(kind, colour, spec.owner), rng.randint(kind.lowest, kind.highest)))
        return Roll(tuple(dice), Source.SOFTWARE, f"software seed={self.seed}#{self.count}")


def rolls_in(events) -> list[Roll]:
    """The dice rolls a sequence of events records, in order (any payload with a ``roll``)."""
    out = []
    for event in events:
        roll = getattr(event.payload, "roll", None)
        if isinstance(roll, Roll):
            out.append(roll)
    return out
