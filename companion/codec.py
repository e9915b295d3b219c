"""Typed JSON codec for the core's frozen dataclasses.

Events, rolls and component data cross the journal and JSON Lines as plain JSON. Decoding
is driven by the dataclass field types, so a malformed value is refused with the path of
the field that is wrong (``data.target.col: expected int, got 'x'``) instead of surfacing
later as a strange state. Decoders are built once per type and cached: replaying thousands
of events must stay fast.

Supported field types: ``int``, ``float``, ``str``, ``bool``, ``None``, enums, frozen
dataclasses, ``tuple[X, ...]``, fixed tuples ``tuple[X, Y]``, ``dict[K, V]`` (keys are
str, int or str-valued enums, or types with ``to_json``/``from_json``), ``X | None``, and
any class that provides ``to_json(self)`` and ``from_json(cls, value)`` of its own.
"""

from __future__ import annotations

import __future__

import dataclasses
import enum
import inspect
import threading
import types
import typing
from typing import Any, Callable

from .errors import DecodeError
from .method_cache import code_for
from .twins import dict_twin, slot_twin

# The decoders and builders written here at run time are compiled once and kept, as the
# records' own methods are (method_cache.py): compiled with this module's __future__ flags,
# which exec of their text here would inherit.
GENERATED = "companion.generated"
GENERATED_FLAGS = __future__.annotations.compiler_flag

Decoder = Callable[[Any, "str | None"], Any]

_decoders: dict[Any, Decoder] = {}
_INF = float("inf")


def to_json(value: Any) -> Any:
    """Turn a core value into JSON-compatible Python data (dict, list, str, int...)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, enum.Enum):
            return value.value
        return value
    if isinstance(value, enum.Enum):
        return value.value
    custom = getattr(value, "to_json", None)
    if custom is not None:
        return custom()
    if dataclasses.is_dataclass(value):
        out = {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
        tag = getattr(type(value), "TAG", None)
        return {"kind": tag, **out} if tag else out
    if isinstance(value, (tuple, list, frozenset, set)):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {_key_to_json(k): to_json(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__} as JSON: {value!r}")


def _key_to_json(key: Any) -> str:
    if isinstance(key, enum.Enum):
        return str(key.value)
    if isinstance(key, str):
        return key
    if isinstance(key, int):
        return str(key)
    custom = getattr(key, "to_json", None)
    if custom is not None:
        encoded = custom()
        if isinstance(encoded, str):
            return encoded
    raise TypeError(f"cannot use {type(key).__name__} as a JSON object key: {key!r}")


def from_json(tp: Any, value: Any, path: str = "") -> Any:
    """Decode ``value`` as type ``tp``; raise DecodeError naming the field that is wrong.

    Decoding first runs without tracking field paths (building a path string for every
    field would cost more than the decoding); only when it fails does it run again with
    paths, to say exactly where.
    """
    decoder = decoder_for(tp)
    try:
        return decoder(value, None)
    except DecodeError:
        return decoder(value, path)


def _sub(p: str | None, name: object) -> str | None:
    if p is None:
        return None
    return f"{p}.{name}" if p else str(name)


def _item(p: str | None, index: int) -> str | None:
    return None if p is None else f"{p}[{index}]"


def decoder_for(tp: Any) -> Decoder:
    try:
        return _decoders[tp]
    except KeyError:
        pass
    except TypeError:  # unhashable annotation objects are rebuilt each time
        return _build(tp)
    decoder = _build(tp)
    _decoders[tp] = decoder
    return decoder


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _build(tp: Any) -> Decoder:
    if tp is Any:
        return lambda v, p: v
    if tp is type(None) or tp is None:
        def dec_none(v: Any, p: str) -> None:
            if v is not None:
                raise DecodeError(p, f"expected null, got {_describe(v)}")
        return dec_none
    if tp is bool:
        def dec_bool(v: Any, p: str) -> bool:
            if not isinstance(v, bool):
                raise DecodeError(p, f"expected true or false, got {_describe(v)}")
            return v
        return dec_bool
    if tp is int:
        def dec_int(v: Any, p: str) -> int:
            if isinstance(v, bool) or not isinstance(v, int):
                raise DecodeError(p, f"expected an integer, got {_describe(v)}")
            return v
        return dec_int
    if tp is float:
        def dec_float(v: Any, p: str) -> float:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise DecodeError(p, f"expected a number, got {_describe(v)}")
            if v != v or v in (_INF, -_INF):  # NaN and infinities are no measurement
                raise DecodeError(p, f"expected a finite number, got {_describe(v)}")
            try:
                return float(v)
            except OverflowError:
                raise DecodeError(p, f"expected a finite number, got {_describe(v)}") from None
        return dec_float
    if tp is str:
        def dec_str(v: Any, p: str) -> str:
            if not isinstance(v, str):
                raise DecodeError(p, f"expected a string, got {_describe(v)}")
            return v
        return dec_str
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_decoder(tp)
    if isinstance(tp, type) and hasattr(tp, "from_json"):
        factory = tp.from_json
        table = _json_table(tp) or {}

        def dec_custom(v: Any, p: str) -> Any:
            if type(v) is str:
                known = table.get(v)
                if known is not None:
                    return known
            try:
                return factory(v)
            except DecodeError:
                raise
            except (ValueError, TypeError, KeyError) as exc:
                raise DecodeError(p, str(exc)) from None
        return dec_custom
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(args)
    if origin is typing.Literal:
        allowed = args

        def dec_literal(v: Any, p: str) -> Any:
            if v not in allowed:
                raise DecodeError(p, f"expected one of {list(allowed)}, got {_describe(v)}")
            return v
        return dec_literal
    if origin is tuple:
        return _tuple_decoder(args)
    if origin in (frozenset,):
        item = decoder_for(args[0])

        def dec_frozenset(v: Any, p: str) -> frozenset:
            if not isinstance(v, list):
                raise DecodeError(p, f"expected a list, got {_describe(v)}")
            return frozenset(item(x, _item(p, i)) for i, x in enumerate(v))
        return dec_frozenset
    if origin is dict or origin is typing.Mapping or tp is dict:
        key_tp, val_tp = args if args else (str, Any)
        return _dict_decoder(key_tp, val_tp)
    raise TypeError(f"codec: unsupported type {tp!r}")


def _json_table(tp: type) -> dict[str, Any] | None:
    """A value class's ``JSON_TABLE``: every value of its whole (small) domain by its JSON text,
    each exactly what ``from_json`` gives for that text (``PlayerRef``'s 200 players, say).
    Decoding looks a text up there first and calls ``from_json`` only for anything else."""
    table = tp.__dict__.get("JSON_TABLE")
    return table if isinstance(table, dict) else None


def _enum_decoder(tp: type[enum.Enum]) -> Decoder:
    by_value = {m.value: m for m in tp}
    names = ", ".join(repr(m.value) for m in tp)

    def dec_enum(v: Any, p: str) -> enum.Enum:
        try:
            return by_value[v]
        except (KeyError, TypeError):
            raise DecodeError(p, f"expected one of {names}, got {_describe(v)}") from None
    return dec_enum


def _union_decoder(args: tuple) -> Decoder:
    non_none = [a for a in args if a is not type(None)]
    optional = len(non_none) != len(args)
    if len(non_none) > 1 and all(getattr(a, "TAG", None) for a in non_none):
        return _tagged_decoder(non_none, optional)
    if len(non_none) == 1:
        inner = decoder_for(non_none[0])

        def dec_optional(v: Any, p: str) -> Any:
            if v is None:
                if optional:
                    return None
                raise DecodeError(p, "a value is required here, got null")
            return inner(v, p)
        return dec_optional
    inners = [decoder_for(a) for a in non_none]

    def dec_union(v: Any, p: str) -> Any:
        if v is None and optional:
            return None
        errors = []
        for inner in inners:
            try:
                return inner(v, p)
            except DecodeError as exc:
                errors.append(exc.reason)
        raise DecodeError(p, "; or ".join(errors))
    return dec_union


def _tagged_decoder(members: list, optional: bool) -> Decoder:
    """A union of dataclasses that each carry a ``TAG``: the JSON ``kind`` picks the member."""
    by_tag = {a.TAG: a for a in members}
    tags = ", ".join(repr(t) for t in by_tag)

    def dec_tagged(v: Any, p: str) -> Any:
        if v is None and optional:
            return None
        if not isinstance(v, dict):
            raise DecodeError(p, f"expected an object, got {_describe(v)}")
        try:
            member = by_tag.get(v.get("kind"))
        except TypeError:  # an unhashable kind (a list...) names no member either
            member = None
        if member is None:
            raise DecodeError(_sub(p, "kind"), f"expected one of {tags}, got {_describe(v.get('kind'))}")
        if p is None:
            return fast_decoder(member)(v)
        return decoder_for(member)(v, p)
    return dec_tagged


def _tuple_decoder(args: tuple) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        item = decoder_for(args[0])

        def dec_var_tuple(v: Any, p: str) -> tuple:
            if not isinstance(v, list):
                raise DecodeError(p, f"expected a list, got {_describe(v)}")
            if p is None:
                return tuple([item(x, None) for x in v])
            return tuple(item(x, _item(p, i)) for i, x in enumerate(v))
        return dec_var_tuple
    items = [decoder_for(a) for a in args]
    n = len(items)
    if args == (int, int):  # a square: the commonest value in a match, decoded inline
        def dec_int_pair(v: Any, p: str) -> tuple:
            if type(v) is list and len(v) == 2:
                a, b = v
                if type(a) is int and type(b) is int:
                    return (a, b)
            return dec_fixed_tuple(v, p)
    else:
        dec_int_pair = None

    def dec_fixed_tuple(v: Any, p: str) -> tuple:
        if p is None and type(v) is list and len(v) == n:
            return tuple([dec(x, None) for dec, x in zip(items, v)])
        if not isinstance(v, list) or len(v) != n:
            raise DecodeError(p, f"expected a list of {n} values, got {_describe(v)}")
        return tuple(dec(x, _item(p, i)) for i, (dec, x) in enumerate(zip(items, v)))
    return dec_int_pair or dec_fixed_tuple


def _dict_decoder(key_tp: Any, val_tp: Any) -> Decoder:
    val = decoder_for(val_tp)
    if key_tp is str:
        def key(k: str, p: str) -> Any:
            return k
    elif key_tp is int:
        def key(k: str, p: str) -> Any:
            try:
                return int(k)
            except ValueError:
                raise DecodeError(p, f"expected an integer key, got {_describe(k)}") from None
    else:
        key = decoder_for(key_tp)

    plain_keys = key_tp is str  # its key decoder gives each key back as it is

    def dec_dict(v: Any, p: str | None) -> dict:
        if not isinstance(v, dict):
            raise DecodeError(p, f"expected an object, got {_describe(v)}")
        if p is None:  # the fast pass (no field paths): no path string built per entry
            if plain_keys:
                return {k: val(x, None) for k, x in v.items()}
            return {key(k, None): val(x, None) for k, x in v.items()}
        return {key(k, _sub(p, k)): val(x, _sub(p, k)) for k, x in v.items()}
    return dec_dict


_hints: dict[type, dict[str, Any]] = {}


def type_hints(tp: type) -> dict[str, Any]:
    """``typing.get_type_hints(tp)``, worked out once per class (it evaluates each string
    annotation, and the codec and the domain checks both ask for the same classes). A class
    whose hints do not resolve raises as ``get_type_hints`` does, each time. The dict is
    shared: read it, do not change it."""
    try:
        return _hints[tp]
    except KeyError:
        pass
    hints = _hints[tp] = typing.get_type_hints(tp)
    return hints


def _dataclass_decoder(tp: type) -> Decoder:
    hints = type_hints(tp)
    specs = [(f.name, f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
             for f in dataclasses.fields(tp) if f.init]
    known = frozenset([name for name, _ in specs] + (["kind"] if getattr(tp, "TAG", None) else []))
    tag = getattr(tp, "TAG", None)
    name_of = tp.__name__
    # Field decoders are looked up on first use, so self-referencing dataclasses work.
    resolved: list[tuple[str, bool, Decoder]] = []

    def fields() -> list[tuple[str, bool, Decoder]]:
        if not resolved:
            resolved.extend((name, required, decoder_for(hints[name])) for name, required in specs)
        return resolved

    def dec_slow(v: Any, p: str | None) -> Any:
        if type(v) is not dict:
            raise DecodeError(p, f"expected an object for {name_of}, got {_describe(v)}")
        if not known.issuperset(v):
            unknown = next(k for k in v if k not in known)
            raise DecodeError(p, f"unknown field {unknown!r} for {name_of}")
        if tag and v.get("kind", tag) != tag:
            raise DecodeError(_sub(p, "kind"), f"expected {tag!r}, got {_describe(v.get('kind'))}")
        kwargs = {}
        for name, required, dec in resolved or fields():
            if name in v:
                kwargs[name] = dec(v[name], None if p is None else (f"{p}.{name}" if p else name))
            elif required:
                raise DecodeError(_sub(p, name), f"missing field for {name_of}")
        try:
            return tp(**kwargs)
        except DecodeError:
            raise
        except (ValueError, TypeError) as exc:
            raise DecodeError(p, f"invalid {name_of}: {exc}") from None

    _plans[tp] = (hints, fields, known, tag, dec_slow)
    fast: list[Callable[[Any], Any]] = []

    def dec_dataclass(v: Any, p: str | None) -> Any:
        if p is not None:
            return dec_slow(v, p)
        if not fast:
            fast.append(fast_decoder(tp))
        return fast[0](v)
    return dec_dataclass


# What the fast decoders are built from, per dataclass: its hints, its field decoders (a
# function: they resolve on first use), its known keys, its TAG and its full decoder.
_plans: dict[type, tuple] = {}
_fast: dict[type, Callable[[Any], Any]] = {}
_compiling: set[type] = set()
_compile_lock = threading.RLock()


def fast_decoder(tp: type) -> Callable[[Any], Any]:
    """The fast decoder of a type: ``f(value)`` returns the decoded value or raises
    DecodeError without a field path (``from_json`` then decodes again to name the field)."""
    try:
        return _fast[tp]
    except KeyError:
        pass
    decoder = decoder_for(tp)
    if tp not in _plans:  # not a dataclass: its own decoder is the fast one
        return lambda v: decoder(v, None)
    with _compile_lock:
        if tp in _fast:
            return _fast[tp]
        if tp in _compiling:  # a dataclass that contains itself: reach it once it is built
            def late(v: Any, _tp: type = tp) -> Any:
                return _fast[_tp](v)
            return late
        _compiling.add(tp)
        try:
            hints, fields, known, tag, slow = _plans[tp]
            fn = _compile_fast(tp, fields(), hints, known, tag, slow)
        finally:
            _compiling.discard(tp)
        _fast[tp] = fn
        return fn


_INLINE = {int: "int", str: "str", bool: "bool"}


def _compile_fast(tp: type, fields: list, hints: dict, known: frozenset, tag: Any, slow: Decoder) -> Callable:
    """A decoder for the common case, generated once per dataclass: plain values, enums,
    nested dataclasses, tuples of them and optional ones are checked and converted inline
    (no closure call, no path string per field), and the instance is built in one go.
    Anything irregular goes to the full decoder, which either accepts it or raises the
    precise DecodeError, so the fast path never accepts what the full one would refuse."""
    defaults = {f.name: f for f in dataclasses.fields(tp)}
    env: dict[str, Any] = {"tp": tp, "slow": slow, "known": known, "TAG": tag, "_M": _MISSING,
                           "DecodeError": DecodeError, "int": int, "str": str, "bool": bool, "dict": dict,
                           "list": list, "tuple": tuple, "len": len, "KeyError": KeyError,
                           "TypeError": TypeError, "ValueError": ValueError}
    lines = ["def fast(v):",
             "    if type(v) is not dict or not known.issuperset(v):",
             "        return slow(v, None)"]
    if tag:
        lines += ["    if v.get('kind', TAG) != TAG:", "        return slow(v, None)"]
    names, variables = [], []
    for i, (name, required, dec) in enumerate(fields):
        var = f"a{i}"
        names.append(name)
        variables.append(var)
        # Subscripts, not v.get(): no method call per field (most fields are present).
        if required:
            lines += ["    try:", f"        {var} = v[{name!r}]", "    except KeyError:",
                      "        return slow(v, None)"]
            lines += ["    " + line for line in _convert(hints[name], dec, var, f"{i}", env)]
        else:
            field = defaults[name]
            lines.append(f"    if {name!r} in v:")
            lines.append(f"        {var} = v[{name!r}]")
            lines += ["        " + line for line in _convert(hints[name], dec, var, f"{i}", env)]
            lines.append("    else:")
            if field.default is not dataclasses.MISSING:
                env[f"default{i}"] = field.default
                lines.append(f"        {var} = default{i}")
            else:
                env[f"factory{i}"] = field.default_factory
                lines.append(f"        {var} = factory{i}()")
    build = builder_lines(tp, names, variables, env)
    lines += ["    try:"] + ["        " + line for line in build] + [
              "    except DecodeError:", "        raise",
              "    except (ValueError, TypeError):", "        return slow(v, None)"]
    exec(code_for("\n".join(lines), GENERATED, GENERATED_FLAGS), env)  # noqa: S102 - code built here from field names only
    return env["fast"]


def _convert(hint: Any, dec: Decoder, var: str, key: str, env: dict[str, Any]) -> list[str]:
    """Lines that check ``var`` (a field's JSON value, present) as ``hint`` and convert it in
    place, or ``return slow(v, None)`` to let the full decoder decide."""
    bail = "return slow(v, None)"
    inline = _INLINE.get(hint)
    if inline:
        return [f"if type({var}) is not {inline}:", f"    {bail}"]
    if hint is float:  # a finite float is kept as it is (an int, NaN or infinity: the full decoder decides)
        env["INF"] = _INF
        return [f"if type({var}) is not float or not -INF < {var} < INF:", f"    {bail}"]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and len(args) == 2:  # X | None
            body = _convert(inner[0], decoder_for(inner[0]), var, key, env)
            return [f"if {var} is not None:"] + ["    " + line for line in body]
        if len(inner) > 1 and len(inner) == len(args) and all(getattr(a, "TAG", None) for a in inner):
            env[f"t{key}"] = {a.TAG: fast_decoder(a) for a in inner}
            return [f"if type({var}) is not dict:", f"    {bail}",
                    "try:", f"    f = t{key}[{var}.get('kind')]",
                    "except (KeyError, TypeError):", f"    {bail}",
                    f"{var} = f({var})"]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        env[f"m{key}"] = {m.value: m for m in hint}
        return ["try:", f"    {var} = m{key}[{var}]", "except (KeyError, TypeError):", f"    {bail}"]
    if isinstance(hint, type) and hasattr(hint, "from_json"):
        env[f"c{key}"] = hint.from_json
        call = ["try:", f"    {var} = c{key}({var})", "except DecodeError:", "    raise",
                "except (ValueError, TypeError, KeyError):", f"    {bail}"]
        table = _json_table(hint)
        if table is None:
            return call
        env[f"k{key}"] = table
        return [f"x = k{key}.get({var}) if type({var}) is str else None", "if x is not None:", f"    {var} = x",
                "else:"] + ["    " + line for line in call]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        env[f"f{key}"] = fast_decoder(hint)
        return [f"{var} = f{key}({var})"]
    if origin is tuple and args == (int, int):  # a square: the commonest value in a match
        return [f"if type({var}) is list and len({var}) == 2 and type({var}[0]) is int "
                f"and type({var}[1]) is int:",
                f"    {var} = ({var}[0], {var}[1])", "else:", f"    {bail}"]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        head = [f"if type({var}) is not list:", f"    {bail}"]
        if item == tuple[int, int]:  # a path of squares, item by item as above
            return head + ["t = []", f"for x in {var}:",
                           "    if type(x) is list and len(x) == 2 and type(x[0]) is int and type(x[1]) is int:",
                           "        t.append((x[0], x[1]))", "    else:", f"        {bail}", f"{var} = tuple(t)"]
        if isinstance(item, type) and issubclass(item, enum.Enum):
            env[f"m{key}"] = {m.value: m for m in item}
            return head + ["try:", f"    {var} = tuple([m{key}[x] for x in {var}])",
                           "except (KeyError, TypeError):", f"    {bail}"]
        if (isinstance(item, type) and dataclasses.is_dataclass(item) and not hasattr(item, "from_json")
                and not issubclass(item, enum.Enum)):
            env[f"f{key}"] = fast_decoder(item)
            return head + [f"{var} = tuple([f{key}(x) for x in {var}])"]
        if item in _INLINE:
            return head + [f"for x in {var}:", f"    if type(x) is not {_INLINE[item]}:", f"        {bail}",
                           f"{var} = tuple({var})"]
        table = _json_table(item) if isinstance(item, type) and hasattr(item, "from_json") else None
        if table is not None:  # players by their written names, say: looked up, anything else decided by slow
            env[f"k{key}"] = table
            return head + ["t = []", f"for x in {var}:", f"    x = k{key}.get(x) if type(x) is str else None",
                           "    if x is None:", f"        {bail}", "    t.append(x)", f"{var} = tuple(t)"]
    env[f"d{key}"] = dec
    return [f"{var} = d{key}({var}, None)"]


def builder_lines(tp: type, names: list[str], variables: list[str], env: dict[str, Any]) -> list[str]:
    """Lines that build ``tp`` from the decoded fields and return it."""
    setters = _slot_setters(tp, names)
    if setters is None:
        plain = dict_twin(tp) if _generated_init(tp, names) and not any(
            hasattr(type(inspect.getattr_static(tp, n, None)), "__set__") for n in names) else None
        if plain is None:
            return [f"return tp({', '.join(f'{n}={v}' for n, v in zip(names, variables))})"]
        # A record that keeps a __dict__ (the folds' big records: a ball, a contest): built
        # as its plain twin given the fields' dict, in field order as __init__ would set
        # them, then its class: one dict, no frozen __setattr__ call per field.
        env["dtwin"] = plain
        fields = ", ".join(f"{n!r}: {v}" for n, v in zip(names, variables))
        lines = ["o = dtwin()", f"o.__dict__ = {{{fields}}}", "o.__class__ = tp"]
        post = getattr(tp, "__post_init__", None)
        if post is not None:
            env["post"] = post
            lines.append("post(o)")
        return lines + ["return o"]
    env["new"] = object.__new__  # (marks a record built slot by slot, for the callers)
    twin = slot_twin(tp)
    if twin is not None:
        env["twin"] = twin
        lines = ["o = twin()"] + [f"o.{name} = {var}" for name, var in zip(names, variables)] + ["o.__class__ = tp"]
    else:
        lines = ["o = new(tp)"]
        for i, (setter, var) in enumerate(zip(setters, variables)):
            env[f"s{i}"] = setter
            lines.append(f"s{i}(o, {var})")
    post = getattr(tp, "__post_init__", None)
    if post is not None:
        env["post"] = post
        lines.append("post(o)")
    return lines + ["return o"]


def _generated_init(tp: type, names: list[str]) -> bool:
    """The class's ``__init__`` is the one dataclasses wrote and takes exactly ``names``: it
    only sets every field (then calls ``__post_init__``)."""
    init = tp.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or code.co_filename != "<string>":
        return False
    all_fields = getattr(tp, "__dataclass_fields__", {})
    if any(f._field_type is not dataclasses._FIELD or not f.init  # type: ignore[attr-defined]
           for f in all_fields.values() if f._field_type is not dataclasses._FIELD_CLASSVAR):  # type: ignore
        return False  # InitVar or init=False fields: the generated __init__ does more
    return sorted(names) == sorted(n for n, f in all_fields.items()
                                   if f._field_type is dataclasses._FIELD)  # type: ignore[attr-defined]


def _slot_setters(tp: type, names: list[str]) -> list[Callable[[Any, Any], None]] | None:
    """For a slotted dataclass whose ``__init__`` is the one dataclasses wrote (it only sets
    every field, then calls ``__post_init__``): the fields' slot setters, in the order the
    fields are given; filling the slots directly builds the same instance about twice as
    fast as calling the frozen ``__init__``. ``None`` for any other class."""
    if not _generated_init(tp, names):
        return None
    setters = []
    for name in names:
        slot = inspect.getattr_static(tp, name, None)
        if type(slot) is not types.MemberDescriptorType:
            return None
        setters.append(slot.__set__)
    return setters


def record_twin(tp: type) -> type | None:
    """The plain twin of a frozen slotted record class (see twins.py), for a hot loop that
    builds such records inline: ``o = twin(); o.field = value; o.__class__ = tp`` makes the
    instance the class's own ``__init__`` would (when it only sets the fields). ``None``
    where that does not apply."""
    if tp.__dict__.get("__post_init__") is not None or getattr(tp, "__post_init__", None) is not None:
        return None
    if _slot_setters(tp, [f.name for f in dataclasses.fields(tp)]) is None:
        return None
    return slot_twin(tp)


def constructor(tp: type) -> Callable[..., Any]:
    """A positional constructor for a slotted dataclass, built like the fast decoders build
    (fill the slots, then ``__post_init__``); the class itself when that does not apply."""
    names = [f.name for f in dataclasses.fields(tp)]
    env: dict[str, Any] = {"tp": tp}
    build = builder_lines(tp, names, [f"a{i}" for i in range(len(names))], env)
    if "new" not in env:
        return tp
    lines = [f"def make({', '.join(f'a{i}' for i in range(len(names)))}):"] + ["    " + line for line in build]
    exec(code_for("\n".join(lines), GENERATED, GENERATED_FLAGS), env)  # noqa: S102 - code built here from field names only
    return env["make"]


_MISSING = object()
