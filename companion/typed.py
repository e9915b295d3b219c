"""Fields that hold the type they say: options and commands checked as they are built.

A frozen dataclass stores whatever it is given; ``Options(phase_limit="egg_timer")`` would
keep a plain string where the rules compare with ``PhaseLimit.EGG_TIMER``, and the egg timer
would then silently never run. ``check_fields`` looks at every field against its annotation
once, at construction, and either converts a value whose meaning is unambiguous or refuses
it with a message naming the field:

- an enum field takes a member, or a member's value or name ("egg_timer", "EGG_TIMER");
- a ``float`` field takes an ``int`` (as a float); ``int`` and ``float`` never take a ``bool``;
- a ``tuple[...]`` field takes a list (made a tuple), its items checked in turn;
- ``X | None``, ``dict[K, V]``, dataclasses and other classes are checked by ``isinstance``.

Everything else is refused with ``FieldTypeError``. Checkers are built once per class, so a
command costs a few isinstance calls.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from typing import Any, Callable

from .errors import TouchlineError


class FieldTypeError(TouchlineError, TypeError, ValueError):
    """A value of the wrong type for a field; ``field`` names it (``phase_limit``,
    ``target_ps[1]``). A TypeError and a ValueError both, so callers that catch either of
    the constructor errors they already expect also catch this one."""

    def __init__(self, owner: str, field: str, message: str) -> None:
        super().__init__(f"{owner}.{field}: {message}")
        self.owner = owner
        self.field = field
        self.reason = message


class _Wrong(Exception):
    """Raised inside a checker: the path below the field, and what is wrong."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


Check = Callable[[Any], Any]   # returns the (possibly converted) value, or raises _Wrong

_checkers: dict[type, tuple[tuple[str, Check], ...]] = {}


def check_fields(obj: Any) -> None:
    """Check (and where unambiguous, convert in place) every field of the dataclass ``obj``;
    raise FieldTypeError naming the first field that is wrong."""
    cls = type(obj)
    try:
        checks = _checkers[cls]
    except KeyError:
        checks = _checkers[cls] = _build_class(cls)
    for name, check in checks:
        value = getattr(obj, name)
        try:
            new = check(value)
        except _Wrong as wrong:
            raise FieldTypeError(cls.__name__, name + wrong.path, wrong.message) from None
        if new is not value:
            object.__setattr__(obj, name, new)


def _build_class(cls: type) -> tuple[tuple[str, Check], ...]:
    module = sys.modules.get(cls.__module__)
    try:
        hints = typing.get_type_hints(cls, vars(module) if module else None)
    except Exception as exc:  # an annotation that names something unimportable is a bug here
        raise TypeError(f"{cls.__name__}: cannot read its field types ({exc})") from exc
    return tuple((f.name, _checker(hints[f.name])) for f in dataclasses.fields(cls) if f.name in hints)


def _describe(value: Any) -> str:
    text = repr(value)
    return (text if len(text) <= 40 else text[:37] + "...") + f" ({type(value).__name__})"


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _checker(tp: Any) -> Check:
    if tp is Any or isinstance(tp, typing.TypeVar):
        return lambda v: v
    if tp is type(None) or tp is None:
        def check_none(v: Any) -> Any:
            if v is not None:
                raise _Wrong("", f"expected None, got {_describe(v)}")
            return v
        return check_none
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return _union(typing.get_args(tp))
    if origin is typing.ClassVar:
        return lambda v: v
    if origin is typing.Literal:
        allowed = typing.get_args(tp)

        def check_literal(v: Any) -> Any:
            if v not in allowed:
                raise _Wrong("", f"expected one of {', '.join(map(repr, allowed))}, got {_describe(v)}")
            return v
        return check_literal
    if origin is tuple:
        return _tuple(typing.get_args(tp))
    if origin is dict or origin is typing.Mapping or origin is frozenset or origin is list:
        return _plain(origin, _name(tp))
    if origin is not None:   # another generic (Sequence[...], Callable[...]): its origin only
        return _plain(origin, _name(tp))
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return _enum(tp)
        if tp is bool:
            return _plain(bool, "bool (True or False)")
        if tp is int:
            def check_int(v: Any) -> Any:
                if type(v) is bool or not isinstance(v, int):
                    raise _Wrong("", f"expected a whole number, got {_describe(v)}")
                return v
            return check_int
        if tp is float:
            def check_float(v: Any) -> Any:
                if type(v) is float:
                    return v
                if type(v) is bool or not isinstance(v, (int, float)):
                    raise _Wrong("", f"expected a number, got {_describe(v)}")
                return float(v)
            return check_float
        if tp is str:
            return _plain(str, "text")
        return _plain(tp, tp.__name__)
    return lambda v: v   # an annotation this module does not know: left to the class's own checks


def _plain(tp: type, what: str) -> Check:
    def check(v: Any) -> Any:
        if not isinstance(v, tp):
            raise _Wrong("", f"expected {what}, got {_describe(v)}")
        return v
    return check


def _enum(tp: type[enum.Enum]) -> Check:
    by_value = {m.value: m for m in tp}
    by_name = {m.name.lower(): m for m in tp}
    allowed = ", ".join(repr(m.value) for m in tp)

    def check(v: Any) -> Any:
        if isinstance(v, tp):
            return v
        if isinstance(v, enum.Enum):   # a member of another enum is never taken for one of these
            raise _Wrong("", f"expected {tp.__name__} ({allowed}), got {v!r}")
        try:
            member = by_value.get(v)
        except TypeError:   # unhashable
            member = None
        if member is None and isinstance(v, str):
            member = by_name.get(v.lower())
        if member is None or type(v) is bool:
            raise _Wrong("", f"expected {tp.__name__} ({allowed}), got {_describe(v)}")
        return member
    return check


def _union(args: tuple) -> Check:
    optional = type(None) in args
    members = [a for a in args if a is not type(None)]
    checks = [_checker(a) for a in members]
    what = " or ".join(_name(a) for a in members) + (" or None" if optional else "")
    if len(checks) == 1:
        only = checks[0]

        def check_optional(v: Any) -> Any:
            return v if v is None and optional else only(v)
        return check_optional

    def check(v: Any) -> Any:
        if v is None and optional:
            return v
        for c in checks:   # the first member the value already is wins, before any conversion
            try:
                out = c(v)
            except _Wrong:
                continue
            if out is v:
                return v
        for c in checks:
            try:
                return c(v)
            except _Wrong:
                continue
        raise _Wrong("", f"expected {what}, got {_describe(v)}")
    return check


def _tuple(args: tuple) -> Check:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _checker(args[0])

        def check_var(v: Any) -> Any:
            if not isinstance(v, (tuple, list)):
                raise _Wrong("", f"expected a tuple, got {_describe(v)}")
            out, same = [], isinstance(v, tuple)
            for i, x in enumerate(v):
                try:
                    y = item(x)
                except _Wrong as w:
                    raise _Wrong(f"[{i}]{w.path}", w.message) from None
                same = same and y is x
                out.append(y)
            return v if same else tuple(out)
        return check_var
    if not args:
        return _plain(tuple, "a tuple")
    items = [_checker(a) for a in args]

    def check_fixed(v: Any) -> Any:
        if not isinstance(v, (tuple, list)) or len(v) != len(items):
            raise _Wrong("", f"expected a tuple of {len(items)}, got {_describe(v)}")
        out, same = [], isinstance(v, tuple)
        for i, (c, x) in enumerate(zip(items, v)):
            try:
                y = c(x)
            except _Wrong as w:
                raise _Wrong(f"[{i}]{w.path}", w.message) from None
            same = same and y is x
            out.append(y)
        return v if same else tuple(out)
    return check_fixed
