"""The event types' own domains, checked on every event read from a file.

The codec already holds each field to its type (an int is an int, an enum one of its
values, a die face one its die shows, a float finite). What a type alone cannot say is
checked here, from what the payloads themselves declare:

- a dice reading (a payload with a ``roll`` and an int ``reading``) is one the roll can read
  as: one die's value, the faces' total, or the two-d10 percentile (00 as 100 or 0);
- a square or space (a field annotated with the board's ``Square`` or Football Leader's
  ``Space``, at any depth) lies on the match's own board, as its ``match_created`` event
  describes it (each game's board answers through its own ``on_board``/``has``/``is_ms``).

A game without a board (the tests' toy game) gets the reading check only.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from functools import lru_cache
from typing import Any, Callable

from .board import GridBoard, Square
from .codec import type_hints
from .dice import DieKind, Roll

OnBoard = Callable[[Any], bool]
Walker = Callable[[Any, OnBoard], None]


def _space_aliases() -> tuple[Any, ...]:
    """The hints that mean a square: the board's ``Square`` and, once Football Leader's pitch
    is loaded, its ``Space``. Not imported here: a class whose hints name ``Space`` comes from
    a module that imported it, so no other game's replay needs to load that module."""
    space = getattr(sys.modules.get("companion.football_leader.pitch"), "Space", None)
    return (Square,) if space is None else (Square, space)


_SQUARES: tuple[Any, ...] | None = None


def domain_checker(game: str) -> Callable[[Any], None]:
    """A checker for one file's payloads, in order: it learns the board from the first one."""
    board: list[OnBoard | None] = [None]
    plans: dict[type, Walker | None] = {}

    def check(payload: Any) -> None:
        tp = type(payload)
        if board[0] is None and tp.TYPE.endswith(".match_created"):
            board[0] = board_test(payload)
            plans.clear()
        try:
            plan = plans[tp]
        except KeyError:
            plan = plans[tp] = _plan(tp, board[0] is not None)
        if plan is not None:
            plan(payload, board[0])
    return check


@lru_cache(maxsize=None)
def _plan(tp: type, with_board: bool) -> Walker | None:
    """What to check on a payload of this type: its reading, its squares, both or nothing.
    Worked out once per type from its annotations (the checks themselves run per event)."""
    hints = _hints(tp)
    reads = hints.get("roll") is Roll and hints.get("reading") is int
    walker = _walker_for(tp) if with_board else None
    if not reads and walker is None:
        return None

    def plan(payload: Any, on_board: OnBoard) -> None:
        if reads:
            roll, reading = payload.roll, payload.reading
            dice = roll.dice
            # One die reads as its face or its value (what readings() gives for it), the
            # commonest case: checked without building the set.
            if len(dice) == 1 and (reading == dice[0].face or reading == dice[0].value):
                pass
            elif reading not in readings(roll):
                raise ValueError(f"data.reading: {reading} is not a reading of the roll {roll.describe()} "
                                 f"(it reads as {', '.join(map(str, sorted(readings(roll))))})")
        if walker is not None:
            walker(payload, on_board)
    return plan


def _hints(tp: type) -> dict[str, Any]:
    try:
        return type_hints(tp)
    except Exception:  # an annotation that does not resolve: nothing to check by type
        return {}


def readings(roll: Roll) -> frozenset[int]:
    """Every number a roll can be read as by some game's rules."""
    values = [d.value for d in roll.dice]
    out = set(values) | set(d.face for d in roll.dice) | {sum(values)}
    d10 = [d.face for d in roll.dice if d.die.kind is DieKind.D10]
    if len(d10) == 2:
        for tens, units in ((d10[0], d10[1]), (d10[1], d10[0])):
            value = tens * 10 + units
            out.add(value)
            if value == 0:
                out.add(100)
    return frozenset(out)


def board_test(created: Any) -> OnBoard | None:
    """How the match's board says whether a square or space is on it: where the board can
    list its squares, a lookup in that set (a C call, not a Python one, per square: a
    replay checks thousands), else the board's own test."""
    components = getattr(created, "components", None)
    for name in ("pitch", "board"):
        board = getattr(components, name, None)
        if board is None:
            continue
        if isinstance(board, GridBoard):
            return board.ms_squares().__contains__  # every movement or pass square lies inside the MS grid
        squares = getattr(board, "board_squares", None)
        if callable(squares):
            return squares().__contains__
        for method in ("on_board", "has"):
            test = getattr(board, method, None)
            if callable(test):
                return test
    return None


@lru_cache(maxsize=None)
def _walker_for(tp: type) -> Walker | None:
    global _SQUARES
    _SQUARES = _space_aliases()  # once per type (cached): Football Leader's may have loaded since
    if tp.__name__ == "MatchCreated":
        return None  # the board describes itself; its own validation runs on decoding
    return _dataclass_walker(tp, 0)


def _dataclass_walker(tp: type, depth: int) -> Walker | None:
    if depth > 6 or not dataclasses.is_dataclass(tp):
        return None
    try:
        hints = type_hints(tp)
    except Exception:  # an annotation that does not resolve: nothing to check by type
        return None
    parts = []
    for f in dataclasses.fields(tp):
        # A field annotated with the bare alias: ``get_type_hints`` hands back a new
        # ``tuple[int, int]`` for it (it rebuilds every generic alias it evaluates), not the
        # alias itself, and any int pair is not a square: the annotation's own text says it is.
        walk = _square_walker if f.type in ("Square", "Space") else _walker(hints.get(f.name), depth + 1)
        if walk is not None:
            parts.append((f.name, walk))
    if not parts:
        return None
    if len(parts) == 1:  # the commonest shape: one field holds the squares
        (only_name, only_walk), = parts

        def walk_one_field(value: Any, on_board: OnBoard) -> None:
            only_walk(getattr(value, only_name), on_board)
        return walk_one_field

    def walk_dataclass(value: Any, on_board: OnBoard) -> None:
        for name, walk in parts:
            walk(getattr(value, name), on_board)
    return walk_dataclass


def _square_walker(value: Any, on_board: OnBoard) -> None:
    if not on_board(value):
        raise ValueError(f"square {tuple(value)} is not on this match's board")


def _walker(hint: Any, depth: int) -> Walker | None:
    if hint is None or depth > 8:
        return None
    if any(hint is alias for alias in _SQUARES or ()):
        def walk_square(value: Any, on_board: OnBoard) -> None:
            if not on_board(value):
                raise ValueError(f"square {tuple(value)} is not on this match's board")
        return walk_square
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        walks = [w for w in (_walker(a, depth + 1) for a in inner) if w is not None]
        if len(inner) != 1 or not walks:
            return None
        only = walks[0]
        if any(inner[0] is alias for alias in _SQUARES or ()):
            def walk_optional_square(value: Any, on_board: OnBoard) -> None:
                if value is not None and not on_board(value):
                    raise ValueError(f"square {tuple(value)} is not on this match's board")
            return walk_optional_square

        def walk_optional(value: Any, on_board: OnBoard) -> None:
            if value is not None:
                only(value, on_board)
        return walk_optional
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        if any(args[0] is alias for alias in _SQUARES or ()):
            def walk_squares(value: Any, on_board: OnBoard) -> None:  # a path: no call per square
                for v in value:
                    if not on_board(v):
                        raise ValueError(f"square {tuple(v)} is not on this match's board")
            return walk_squares
        item = _walker(args[0], depth + 1)
        if item is None:
            return None

        def walk_items(value: Any, on_board: OnBoard) -> None:
            for v in value:
                item(v, on_board)
        return walk_items
    if origin is tuple:
        walks_at = [(i, w) for i, w in enumerate(_walker(a, depth + 1) for a in args) if w is not None]
        if not walks_at:
            return None

        def walk_fixed(value: Any, on_board: OnBoard) -> None:
            for i, w in walks_at:
                w(value[i], on_board)
        return walk_fixed
    if origin is dict:
        key = _walker(args[0], depth + 1) if args else None
        val = _walker(args[1], depth + 1) if args else None
        if key is None and val is None:
            return None

        def walk_dict(value: Any, on_board: OnBoard) -> None:
            for k, v in value.items():
                if key is not None:
                    key(k, on_board)
                if val is not None:
                    val(v, on_board)
        return walk_dict
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_walker(hint, depth)
    return None


__all__ = ["domain_checker", "readings", "board_test"]
