"""The typed JSON codec: round trips of every supported field type, and errors naming the field."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import pytest

from companion.codec import decoder_for, from_json, to_json
from companion.errors import DecodeError
from companion.teams import PlayerRef, Team


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


@dataclass(frozen=True)
class Point:
    col: int
    row: int


@dataclass(frozen=True)
class Move:
    who: PlayerRef
    to: Point
    path: tuple[Point, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class Circle:
    TAG: ClassVar[str] = "circle"
    r: float


@dataclass(frozen=True)
class Square:
    TAG: ClassVar[str] = "square"
    side: float


@dataclass(frozen=True)
class Drawing:
    shape: Circle | Square
    spare: Circle | Square | None = None


@dataclass(frozen=True)
class Positive:
    n: int

    def __post_init__(self) -> None:
        if self.n <= 0:
            raise ValueError(f"n must be positive, got {self.n}")


@dataclass(frozen=True)
class WithDefaults:
    a: int
    b: tuple[int, ...] = field(default_factory=tuple)
    c: str = "x"


ROUND_TRIPS = [
    (int, 7, 7),
    (int, -3, -3),
    (float, 2.5, 2.5),
    (float, 3, 3.0),                      # an integer is a fine number
    (str, "hé", "hé"),
    (bool, True, True),
    (type(None), None, None),
    (Colour, Colour.BLUE, "blue"),
    (Level, Level.HIGH, 2),
    (Team, Team.AWAY, "away"),
    (PlayerRef, PlayerRef(Team.HOME, 8), "home#8"),
    (Point, Point(3, 4), {"col": 3, "row": 4}),
    (tuple[int, ...], (1, 2, 3), [1, 2, 3]),
    (tuple[int, ...], (), []),
    (tuple[int, str], (1, "a"), [1, "a"]),
    (tuple[tuple[PlayerRef, Point], ...], ((PlayerRef(Team.AWAY, 9), Point(1, 2)),),
     [["away#9", {"col": 1, "row": 2}]]),
    (dict[str, int], {"a": 1}, {"a": 1}),
    (dict[int, str], {3: "c"}, {"3": "c"}),
    (dict[Colour, int], {Colour.RED: 5}, {"red": 5}),
    (dict[Team, int], {Team.HOME: 1, Team.AWAY: 0}, {"home": 1, "away": 0}),
    (int | None, None, None),
    (int | None, 4, 4),
    (Point | None, Point(0, 0), {"col": 0, "row": 0}),
    (int | str, "x", "x"),
    (Literal["a", "b"], "b", "b"),
    (frozenset[int], frozenset({2}), [2]),
    (Drawing, Drawing(Circle(1.5)), {"shape": {"kind": "circle", "r": 1.5}, "spare": None}),
    (Drawing, Drawing(Square(2.0), Circle(1.0)),
     {"shape": {"kind": "square", "side": 2.0}, "spare": {"kind": "circle", "r": 1.0}}),
    (Move, Move(PlayerRef(Team.HOME, 10), Point(5, 6), (Point(4, 6),), "run"),
     {"who": "home#10", "to": {"col": 5, "row": 6}, "path": [{"col": 4, "row": 6}], "note": "run"}),
    (Any, {"free": [1, "form"]}, {"free": [1, "form"]}),
]


@pytest.mark.parametrize("tp, value, encoded", ROUND_TRIPS, ids=[str(i) for i in range(len(ROUND_TRIPS))])
def test_round_trip(tp, value, encoded):
    assert to_json(value) == encoded
    text = json.dumps(to_json(value))  # survives a trip through JSON text too
    assert from_json(tp, json.loads(text)) == value


def test_defaults_fill_missing_optional_fields():
    assert from_json(WithDefaults, {"a": 1}) == WithDefaults(1)
    assert from_json(Move, {"who": "away#1", "to": {"col": 0, "row": 0}}) == Move(PlayerRef(Team.AWAY, 1), Point(0, 0))


ERRORS = [
    (int, "7", "", "expected an integer, got '7'"),
    (int, True, "", "expected an integer, got True"),          # bool is not an int here
    (int, 1.5, "", "expected an integer"),
    (float, "1.5", "", "expected a number"),
    (float, False, "", "expected a number"),
    (str, 5, "", "expected a string"),
    (bool, 1, "", "expected true or false"),
    (type(None), 0, "", "expected null"),
    (Colour, "green", "", "expected one of 'red', 'blue', got 'green'"),
    (Level, "1", "", "expected one of 1, 2"),
    (PlayerRef, "home-8", "", "expected a player like 'home#8'"),
    (PlayerRef, "left#8", "", "unknown side 'left'"),
    (Point, [1, 2], "", "expected an object for Point"),
    (Point, {"col": 1}, "row", "missing field for Point"),
    (Point, {"col": 1, "row": 2, "z": 3}, "", "unknown field 'z' for Point"),
    (Point, {"col": 1, "row": "2"}, "row", "expected an integer"),
    (Move, {"who": "home#1", "to": {"col": "x", "row": 0}}, "to.col", "expected an integer, got 'x'"),
    (Move, {"who": "home#1", "to": {"col": 0, "row": 0}, "path": [{"col": 0, "row": 0}, {"col": 1}]},
     "path[1].row", "missing field"),
    (tuple[int, ...], {"a": 1}, "", "expected a list"),
    (tuple[int, ...], [1, "2"], "[1]", "expected an integer"),
    (tuple[int, str], [1], "", "expected a list of 2 values"),
    (tuple[int, str], [1, 2], "[1]", "expected a string"),
    (dict[str, int], [], "", "expected an object"),
    (dict[str, int], {"a": "b"}, "a", "expected an integer"),
    (dict[int, str], {"x": "y"}, "x", "expected an integer key"),
    (dict[Team, int], {"middle": 1}, "middle", "expected one of 'home', 'away'"),
    (Point | None, 5, "", "expected an object for Point"),
    (int | str, [1], "", "expected an integer, got [1]; or expected a string"),
    (Literal["a", "b"], "c", "", "expected one of ['a', 'b']"),
    (Drawing, {"shape": {"kind": "triangle"}}, "shape.kind", "expected one of 'circle', 'square'"),
    (Drawing, {"shape": {"r": 1.0}}, "shape.kind", "expected one of"),
    (Drawing, {"shape": "circle"}, "shape", "expected an object"),
    (Drawing, {"shape": None}, "shape", "expected an object, got None"),
    (Point | None, {"col": None, "row": 0}, "col", "expected an integer, got None"),
    (Positive, {"n": 0}, "", "invalid Positive: n must be positive, got 0"),
    (frozenset[int], "x", "", "expected a list"),
]


@pytest.mark.parametrize("tp, value, path, message", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_decode_errors_name_the_field(tp, value, path, message):
    with pytest.raises(DecodeError) as info:
        from_json(tp, value)
    assert info.value.path == path
    assert message in info.value.reason
    assert str(info.value) == (f"{path}: {info.value.reason}" if path else info.value.reason)


def test_error_paths_start_from_the_given_prefix():
    with pytest.raises(DecodeError) as info:
        from_json(Move, {"who": "home#1", "to": {"col": 0}}, "data")
    assert info.value.path == "data.to.row"
    assert str(info.value).startswith("data.to.row: missing field")


def test_long_values_are_shortened_in_messages():
    with pytest.raises(DecodeError) as info:
        from_json(int, "x" * 100)
    assert "..." in info.value.reason and len(info.value.reason) < 80


def test_decoders_are_cached():
    assert decoder_for(Move) is decoder_for(Move)


def test_unsupported_types_fail_loudly():
    with pytest.raises(TypeError, match="unsupported type"):
        decoder_for(set[int])
    with pytest.raises(TypeError, match="cannot encode"):
        to_json(object())
    with pytest.raises(TypeError, match="object key"):
        to_json({(1, 2): "tuple keys are not JSON"})
