"""The box editor's form, worked out from a data file's type (no Kivy here).

The editor never knows a file's fields by hand: it reads the dataclass the file decodes to
(``companion.box.BoxItem.schema``) and makes one row per field. This module says what kind of
row each type gets, how a typed text becomes a JSON value and back, and how a loader's error
is put in a coach's words. What is allowed is left to the loaders: the only refusals made here
are texts that are not a value of the field's type at all ("12a" for a number).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import re
import types
import typing
from typing import Any

from companion.errors import DataFileError

Path_ = tuple  # a place in a document: keys and list indices


# --- what a type looks like ----------------------------------------------------------------------

def optional_of(tp: Any) -> tuple[Any, bool]:
    """(the type inside ``X | None``, whether None is allowed)."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def is_custom(tp: Any) -> bool:
    """A type written as one string in the file ("gold-5", "4-8-12")."""
    return isinstance(tp, type) and hasattr(tp, "from_json")


def is_scalar(tp: Any) -> bool:
    return tp in (int, float, str) or is_custom(tp) or (isinstance(tp, type) and issubclass(tp, enum.Enum))


def tuple_args(tp: Any) -> tuple[Any, ...] | None:
    """A tuple type's item types (``(X, Ellipsis)`` for ``tuple[X, ...]``), else None."""
    if typing.get_origin(tp) is tuple:
        return typing.get_args(tp)
    return None


def is_compact(tp: Any, depth: int = 0) -> bool:
    """Typed on one line: a scalar, or a tuple of scalars, or a tuple of fixed tuples."""
    if is_scalar(tp):
        return True
    args = tuple_args(tp)
    if args is None or depth >= 2:
        return False
    items = args[:1] if len(args) == 2 and args[1] is Ellipsis else args
    return all(is_compact(a, depth + 1) and (is_custom(a) or not is_dataclass_type(a)) for a in items)


def kind(tp: Any) -> str:
    """The row a field gets: bool, enum, text, optional (a set / none switch with a group),
    dict, dataclass or list (an entry picker and the picked entry)."""
    inner, optional = optional_of(tp)
    if inner is bool:
        return "bool"
    if isinstance(inner, type) and issubclass(inner, enum.Enum) and not optional:
        return "enum"
    if is_compact(inner):
        return "text"
    if optional:
        return "optional"
    if is_dataclass_type(inner):
        return "inline" if is_inline(inner) else "dataclass"
    if typing.get_origin(inner) is dict:
        return "dict"
    args = tuple_args(inner)
    if args is not None and len(args) == 2 and args[1] is Ellipsis and is_dataclass_type(args[0]):
        return "list"
    raise TypeError(f"the box editor has no row for {tp!r}")


def is_inline(tp: Any) -> bool:
    """A small group of numbers typed on one row (attack and defence MP, a card's two
    thresholds, a rectangle's corners)."""
    names = [(n, t) for n, t in fields(tp) if n != "placeholder"]
    return 2 <= len(names) <= 4 and all(t in (int, float) for _, t in names) and \
        not any(n == "placeholder" for n, _ in fields(tp))


# Fields the data files use as keys (a tactical board's id, which matches' journals name): never
# a coach's to edit, so never shown as a text box; the entry is shown by its name.
FIXED = ("id",)


def fresh_ids(entry: dict, others: list) -> None:
    """A copied entry's keys made unique among ``others`` ("low_short_defensive_2")."""
    for name in FIXED:
        value = entry.get(name)
        if not isinstance(value, str):
            continue
        taken = {o.get(name) for o in others if isinstance(o, dict)}
        n = 2
        while f"{value}_{n}" in taken:
            n += 1
        entry[name] = f"{value}_{n}"


def fields(tp: Any) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(tp)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(tp) if f.init]


def dict_args(tp: Any) -> tuple[Any, Any]:
    inner, _ = optional_of(tp)
    return typing.get_args(inner)


def list_item(tp: Any) -> Any:
    inner, _ = optional_of(tp)
    return tuple_args(inner)[0]


# --- typed text -----------------------------------------------------------------------------------

def format_value(tp: Any, value: Any) -> str:
    """A JSON value as the coach sees it in a text box."""
    inner, _ = optional_of(tp)
    if value is None:
        return ""
    args = tuple_args(inner)
    if args is not None:
        item = args[0]
        if tuple_args(item) is not None:   # pairs: "14 9; 14 10"
            return "; ".join(" ".join(str(x) for x in pair) for pair in value)
        return ", ".join(str(x) for x in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    return str(value)


NAMED_HINTS = {"colours": "like #1f4fd1, #ffffff", "teams": "like #1f4fd1, #ffffff"}


def hint(tp: Any, name: str = "") -> str:
    """What to type, shown in an empty box."""
    if name in NAMED_HINTS:
        return NAMED_HINTS[name]
    inner, optional = optional_of(tp)
    args = tuple_args(inner)
    blank = " (blank: none)" if optional else ""
    if args is not None:
        item = args[0]
        if tuple_args(item) is not None:
            return "pairs like 14 9; 14 10"
        return "numbers like 1, 2, 3" if item in (int, float) else "values separated by commas"
    if inner is int:
        return "a whole number" + blank
    if inner is float:
        return "a number" + blank
    if is_custom(inner):
        return CUSTOM_HINTS.get(inner.__name__, "text") + blank
    return "text" + blank


CUSTOM_HINTS = {"Trait": "like gold-5 or silver", "ShootNumbers": "like 4-8-12 or 23", "Card": "like gold-4-12"}


class TypedTextError(ValueError):
    """The text is not a value of the field's type at all."""


def _scalar(tp: Any, text: str) -> Any:
    text = text.strip()
    if tp is int:
        if not re.fullmatch(r"[+-]?\d+", text):
            raise TypedTextError("type a whole number")
        return int(text)
    if tp is float:
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            raise TypedTextError("type a number (millimetres may have a decimal point)") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise TypedTextError("type a number")
        return number
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if text.lower() in (str(member.value).lower(), member.name.lower(), enum_label(member).lower()):
                return member.value
        raise TypedTextError("one of " + ", ".join(enum_label(m) for m in tp))
    if is_custom(tp) and text.isdigit():
        return text   # the type's own reader decides ("23" is a shooting number)
    return text


def parse_value(tp: Any, text: str) -> Any:
    """A typed text as the field's JSON value; blank is None where the field allows none."""
    inner, optional = optional_of(tp)
    if not text.strip():
        if optional:
            return None
        if inner is str:
            return ""
        args = tuple_args(inner)
        if args is not None and len(args) == 2 and args[1] is Ellipsis:
            return []
        raise TypedTextError("cannot be left blank")
    args = tuple_args(inner)
    if args is None:
        return _scalar(inner, text)
    variadic = len(args) == 2 and args[1] is Ellipsis
    item = args[0]
    if tuple_args(item) is not None:
        parts = [p for p in re.split(r"[;\n]", text) if p.strip()]
        value = [parse_value(item, p) for p in parts]
    else:
        parts = [p for p in re.split(r"[,;\s]+", text.strip()) if p]
        if variadic:
            value = [_scalar(item, p) for p in parts]
        else:
            if len(parts) != len(args):
                raise TypedTextError(f"type {len(args)} values, like {' '.join(['1'] * len(args))}")
            value = [_scalar(a, p) for a, p in zip(args, parts)]
    return value


def default_for(tp: Any) -> Any:
    """A value to start a new entry from (the loaders say what must change)."""
    inner, optional = optional_of(tp)
    if optional and not is_dataclass_type(inner):
        return None
    if inner is bool:
        return False
    if inner is int:
        return 0
    if inner is float:
        return 0.0
    if inner is str or is_custom(inner):
        return ""
    if isinstance(inner, type) and issubclass(inner, enum.Enum):
        return next(iter(inner)).value
    if typing.get_origin(inner) is dict:
        return {}
    if tuple_args(inner) is not None:
        args = tuple_args(inner)
        if len(args) == 2 and args[1] is Ellipsis:
            return []
        return [default_for(a) for a in args]
    if is_dataclass_type(inner):
        out = {}
        for f in dataclasses.fields(inner):
            if not f.init:
                continue
            if f.default is not dataclasses.MISSING:
                out[f.name] = copy.deepcopy(f.default.value if isinstance(f.default, enum.Enum) else f.default)
            elif f.default_factory is not dataclasses.MISSING:
                out[f.name] = f.default_factory()
            else:
                out[f.name] = default_for(typing.get_type_hints(inner)[f.name])
        if "placeholder" in out:
            out["placeholder"] = True
        return out
    return None


# --- words ------------------------------------------------------------------------------------------

# Names whose plain reading would puzzle a coach (the rest read well as they are).
LABELS = {
    "ps_cols": "Pass squares along the pitch", "ps_rows": "Pass squares across",
    "ms_per_ps": "Movement squares per pass square", "mp": "MP earned per declaration",
    "small": "Small number under each pace", "min_pace_for_mp": "Minimum pace to earn MP",
    "calls": "Cards by the failed result (101: never)", "yellow_from": "Yellow from",
    "red_from": "Red from", "x0": "From x (mm)", "y0": "From y (mm)",
    "x1": "To x (mm)", "y1": "To y (mm)", "col0": "From column", "row0": "From row", "col1": "To column",
    "row1": "To row", "starters": "Starting eleven (numbers)", "street_starters": "Street seven (numbers)",
    "pass_ruler": "Pass ruler marks", "key": "Space (row lane)", "half_rows": "Rows with halved spaces",
    "shoot": "Shooting numbers", "rows": "Rows", "by_line": "Penalty per line",
    "elsewhere": "Reduction elsewhere", "mark_mm": "Mark spacing (mm)", "colours": "Colours (shirt, numbers)",
}


def label(name: str) -> str:
    if name in LABELS:
        return LABELS[name]
    text = name.replace("_", " ")
    if text.endswith(" mm"):
        text = text[:-3] + " (mm)"
    return text[:1].upper() + text[1:]


def enum_label(member: enum.Enum) -> str:
    text = str(member.value).replace("_", " ")
    return text[:1].upper() + text[1:]


def key_label(key_tp: Any, key: str) -> str:
    if isinstance(key_tp, type) and issubclass(key_tp, enum.Enum):
        try:
            return enum_label(key_tp(key))
        except ValueError:
            return key
    if key_tp is int:
        return f"{key}"
    return label(key)


def entry_label(entry: Any, index: int) -> str:
    """How an entry of a list is named in its picker."""
    if not isinstance(entry, dict):
        return f"{index + 1}"
    if "number" in entry:
        return f"#{entry['number']} {entry.get('name', '')}".strip()
    for k in ("label", "name", "id"):
        if entry.get(k):
            return str(entry[k])
    if "move" in entry and "bonus" in entry:
        return f"Move {entry['move']}, bonus {entry['bonus']}"
    if "first" in entry and "last" in entry:
        return f"Distance {entry['first']}-{entry['last']}"
    scalars = [f"{label(k).lower()} {v}" for k, v in entry.items()
               if isinstance(v, (int, float, str)) and not isinstance(v, bool)][:4]
    return ", ".join(scalars) or f"{index + 1}"


# --- documents --------------------------------------------------------------------------------------

def get_at(doc: Any, path: Path_) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def set_at(doc: Any, path: Path_, value: Any) -> None:
    """Set (or, for a dict entry set to None with ``drop``, remove) the value at ``path``."""
    parent = get_at(doc, path[:-1])
    parent[path[-1]] = value


def drop_at(doc: Any, path: Path_) -> None:
    parent = get_at(doc, path[:-1])
    if isinstance(parent, dict):
        parent.pop(path[-1], None)
    else:
        del parent[path[-1]]


def owner_of(doc: Any, path: Path_) -> Path_ | None:
    """The nearest entry at or above ``path`` that carries a placeholder flag: typing a
    value enters that entry."""
    for n in range(len(path), -1, -1):
        try:
            node = get_at(doc, path[:n])
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(node, dict) and "placeholder" in node:
            return path[:n]
    return None


def human_path(doc: Any, steps: list) -> str:
    """``["players", 3, "skills", "tackle"]`` as "Players #4 Ray › Skills › Tackle"."""
    words: list[str] = []
    node = doc
    for step in steps:
        try:
            child = node[step]
        except (KeyError, IndexError, TypeError):
            words.append(label(str(step)) if isinstance(step, str) else str(step))
            node = None
            continue
        if isinstance(step, int):
            words.append(entry_label(child, step))
        else:
            words.append(label(step))
        node = child
    return " › ".join(words)


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def split_path(text: str) -> list:
    return [int(idx) if idx else name for name, idx in _STEP.findall(text or "")]


def explain(exc: DataFileError, doc: Any) -> str:
    """A loader's refusal in a coach's words: where (entry and field, as the form names them)
    and the loader's own message with the allowed range."""
    text = str(exc)
    where_raw = " / ".join(p for p in (exc.entry, exc.field) if p)
    message = text
    prefix = f"{exc.file}: " + (f"{where_raw}: " if where_raw else "")
    if text.startswith(prefix):
        message = text[len(prefix):]
    message = re.sub(r"^invalid [A-Za-z]+: ", "", message)
    steps = split_path(exc.entry) + split_path(exc.field) if exc.entry and re.fullmatch(r"[\w.\[\]]+", exc.entry) \
        else None
    if steps:
        where = human_path(doc, steps)
    else:
        where = " › ".join(p for p in (exc.entry, human_path(get_entry(doc, exc.entry), split_path(exc.field))
                                       if exc.field else "") if p)
    return f"{where}: {message}" if where else message


def get_entry(doc: Any, entry: str) -> Any:
    """The entry a loader named by its id, label or number ("space A1", "#7", "row 4-12")."""
    name = entry.removeprefix("space ").removeprefix("row ").lstrip("#")
    for lst in (doc.values() if isinstance(doc, dict) else [doc]):
        if isinstance(lst, list):
            for e in lst:
                if isinstance(e, dict) and name in (str(e.get("id")), str(e.get("label")), str(e.get("number")),
                                                    f"{e.get('move')}-{e.get('bonus')}"):
                    return e
    return doc
