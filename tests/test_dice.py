"""The dice model: faces, rolls, requests' specs, percentile reading, software dice."""

from __future__ import annotations

import pytest

from companion.dice import (Die, DiceSpec, DieKind, DieResult, PercentileReading, Roll, SoftwareDice, roll_of)
from companion.errors import DiceMismatch
from companion.events import Source
from companion.teams import Team

D6, D8, D10, D12 = DieKind.D6, DieKind.D8, DieKind.D10, DieKind.D12


@pytest.mark.parametrize("kind, sides, lowest, highest", [
    (D6, 6, 1, 6), (D8, 8, 1, 8), (D10, 10, 0, 9), (D12, 12, 1, 12),
])
def test_faces_and_ranges(kind, sides, lowest, highest):
    assert (kind.sides, kind.lowest, kind.highest) == (sides, lowest, highest)
    for face in range(lowest, highest + 1):
        kind.check_face(face)
    for bad in (lowest - 1, highest + 1, 2.0, True, "3", None):
        with pytest.raises(ValueError, match=f"a {kind.value} shows {lowest}..{highest}"):
            kind.check_face(bad)


@pytest.mark.parametrize("kind, face, value", [
    (D10, 0, 10), (D10, 9, 9), (D10, 1, 1), (D6, 6, 6), (D8, 1, 1), (D12, 12, 12),
])
def test_a_lone_d10_reads_its_zero_as_ten(kind, face, value):
    assert DieResult(Die(kind), face).value == value


def test_die_result_checks_its_face():
    with pytest.raises(ValueError):
        DieResult(Die(D6), 0)


def test_rolls():
    roll = roll_of(D10, 4, 0, owner=Team.HOME, colours=("black", "white"), source=Source.TRAY, device="tray-1")
    assert roll.kinds == (D10, D10)
    assert roll.faces == (4, 0)
    assert roll.total == 14  # 4 + the lone-d10 value of 0
    assert roll.describe() == "d10 black=4, d10 white=0"
    assert all(d.die.owner is Team.HOME for d in roll.dice)
    assert roll_of(D6, 3).describe() == "d6=3"
    with pytest.raises(ValueError, match="at least one die"):
        Roll(())
    for source in (Source.RULES, Source.VISION):
        with pytest.raises(ValueError, match="dice cannot come from"):
            roll_of(D6, 1, source=source)


@pytest.mark.parametrize("kinds, text", [
    ((D10, D10), "2d10"), ((D8,), "1d8"), ((D6, D10, D6), "2d6 + 1d10"),
])
def test_spec_describe(kinds, text):
    assert DiceSpec(kinds).describe() == text


def test_spec_needs_dice():
    with pytest.raises(ValueError):
        DiceSpec(())


@pytest.mark.parametrize("spec, roll", [
    (DiceSpec((D10, D10)), roll_of(D10, 1, 2)),
    (DiceSpec((D10, D10), Team.HOME), roll_of(D10, 1, 2, owner=Team.HOME)),
    (DiceSpec((D10, D10), Team.HOME), roll_of(D10, 1, 2)),          # unowned dice (keypad) are fine
    (DiceSpec((D6, D10)), Roll((DieResult(Die(D10), 3), DieResult(Die(D6), 2)))),  # order does not matter
    (DiceSpec((D8,)), roll_of(D8, 8, owner=Team.AWAY)),            # either coach's request
])
def test_spec_accepts(spec, roll):
    spec.check(roll, "Rule", "the test")


@pytest.mark.parametrize("spec, roll, message", [
    (DiceSpec((D10, D10)), roll_of(D10, 1), "the test needs 2d10, but the roll was 1d10"),
    (DiceSpec((D10, D10)), roll_of(D10, 1, 2, 3), "needs 2d10, but the roll was 3d10"),
    (DiceSpec((D8,)), roll_of(D6, 1), "needs 1d8, but the roll was 1d6"),
    (DiceSpec((D10, D10), Team.HOME), roll_of(D10, 1, 2, owner=Team.AWAY),
     "the test is Home's roll, but the dice belong to Away"),
])
def test_spec_refuses(spec, roll, message):
    with pytest.raises(DiceMismatch, match=message) as info:
        spec.check(roll, "Fublet rulebook, Skill Tests", "the test")
    assert info.value.rule == "Fublet rulebook, Skill Tests"
    assert str(info.value).startswith("Fublet rulebook, Skill Tests: ")


def pct(tens: int, units: int, colours=("black", "white")) -> Roll:
    return roll_of(D10, tens, units, colours=colours)


@pytest.mark.parametrize("reading, roll, value", [
    (PercentileReading(), pct(4, 7), 47),
    (PercentileReading(), pct(4, 7, ("white", "black")), 74),      # the black die is the tens, wherever it is
    (PercentileReading(), pct(0, 0), 100),                          # "00" reads 100 by default
    (PercentileReading(), pct(0, 5), 5),
    (PercentileReading(), pct(9, 9), 99),
    (PercentileReading(), pct(1, 0), 10),
    (PercentileReading(), pct(3, 8, ("", "")), 38),                 # keypad: no colours, the first is the tens
    (PercentileReading(), pct(3, 8, ("black", "black")), 38),       # two black dice: the first is the tens
    (PercentileReading(zero_zero=0), pct(0, 0), 0),
    (PercentileReading(tens="white"), pct(4, 7), 74),
    (PercentileReading(tens="red"), pct(4, 7), 47),                 # no red die: the first is the tens
    (PercentileReading(tens=""), pct(4, 7, ("white", "black")), 47),
])
def test_percentile_reading(reading, roll, value):
    assert reading.read(roll) == value


def test_percentile_reading_refuses_other_dice_and_settings():
    with pytest.raises(ValueError, match="exactly two d10"):
        PercentileReading().read(roll_of(D10, 1, 2, 3))
    with pytest.raises(ValueError, match="exactly two d10"):
        PercentileReading().read(roll_of(D6, 1, 2))
    with pytest.raises(ValueError, match="'00' reads as 0 or 100"):
        PercentileReading(zero_zero=50)


def test_software_dice_are_reproducible_by_seed_and_count():
    spec = DiceSpec((D10, D10), Team.AWAY)
    a, b = SoftwareDice(seed=42), SoftwareDice(seed=42)
    rolls_a = [a.roll(spec, ("black", "white")) for _ in range(20)]
    rolls_b = [b.roll(spec, ("black", "white")) for _ in range(20)]
    assert rolls_a == rolls_b
    assert a.count == 20
    assert rolls_a[6].device == "software seed=42#7"
    assert all(r.source is Source.SOFTWARE for r in rolls_a)
    assert all(d.die.owner is Team.AWAY and d.die.kind is D10 for r in rolls_a for d in r.dice)
    assert [d.die.colour for d in rolls_a[0].dice] == ["black", "white"]
    # A resumed match continues the sequence from the journaled count.
    resumed = SoftwareDice(seed=42, count=10)
    assert [resumed.roll(spec, ("black", "white")) for _ in range(10)] == rolls_a[10:]
    # Another seed gives another sequence.
    other = SoftwareDice(seed=43)
    assert [other.roll(spec, ("black", "white")).faces for _ in range(20)] != [r.faces for r in rolls_a]


@pytest.mark.parametrize("kind", list(DieKind))
def test_software_dice_stay_in_range_and_reach_every_face(kind):
    dice = SoftwareDice(seed=1)
    faces = {dice.roll(DiceSpec((kind,))).faces[0] for _ in range(400)}
    assert faces == set(range(kind.lowest, kind.highest + 1))
