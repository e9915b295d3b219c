"""Changed copies of frozen records, fast enough to run for every event of a replay.

A fold makes a new state per event, usually by changing a field or two of the state and of
a player. ``dataclasses.replace`` does that by reading every field and calling the class
again (several microseconds); replaying a long match does it thousands of times, so the
folds use ``changed`` instead. It gives an equal result:

- a record that keeps a ``__dict__`` (the big folded records: states, players, the ball) is
  copied as one dict copy with the changes laid over it, as the games' folds always did
  (no ``__post_init__``: those records are built from checked values and have none);
- a slotted record is built again through its class, its ``__init__`` and
  ``__post_init__`` running as with ``dataclasses.replace``, which it falls back to for
  a record with ``InitVar`` or ``init=False`` fields.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .twins import dict_twin

_new = object.__new__
_set_attr = object.__setattr__
_names: dict[type, tuple[str, ...] | None] = {}
# The one record a replay may change in place (see ``in_place``), or None.
UNSHARED: list[Any] = [None]   # [the record a replay marked in_place] (read by match.py and timing.py)


def changed(obj: Any, **changes: Any) -> Any:
    """A copy of the frozen dataclass ``obj`` with ``changes`` made (or ``obj`` itself,
    changed, when it is the record a replay marked ``in_place``)."""
    if obj is UNSHARED[0]:
        obj.__dict__.update(changes)
        return obj
    cls = obj.__class__
    try:
        twin = _plain[cls]
    except KeyError:  # first sight of the class (asked of the class, not by catching a miss per call)
        twin = _plain[cls] = dict_twin(cls) if hasattr(obj, "__dict__") else _SLOTTED
    if twin is _SLOTTED:
        return _rebuilt(obj, changes)
    # A new dict, not ``fields.copy()``: a record built by its class keeps its fields in a
    # dict sharing the class's keys, and a copy of that shares them too; Python 3.11 reads
    # an attribute of such a copy the slow, general way (about five times slower) every
    # time. This dict has its own keys, and so have the copies made from it.
    fields = {**obj.__dict__, **changes}
    if twin is None:
        new = _new(cls)
        _set_attr(new, "__dict__", fields)
        return new
    new = twin()
    new.__dict__ = fields
    new.__class__ = cls
    return new


def player_changed(state: Any, ref: Any, **changes: Any) -> Any:
    """``state`` with ``ref``'s record in its ``players`` dict changed (every game's fold)."""
    players = dict(state.players)
    players[ref] = changed(players[ref], **changes)
    return changed(state, players=players)


def player_put(state: Any, ref: Any, player: Any) -> Any:
    """``state`` with ``player`` as ``ref``'s record in its ``players`` dict: for a fold that
    has read the old record already (one lookup and one keyword call less than
    ``player_changed``)."""
    players = dict(state.players)
    players[ref] = player
    return changed(state, players=players)


# Record classes -> a plain twin (or None) for those with a __dict__ (see twins.py),
# _SLOTTED for those without.
_SLOTTED = object()
_plain: dict[type, Any] = {}


def unshadowed(cls: type) -> type:
    """Class decorator, applied over ``@dataclass``: drop the class attributes that hold the
    fields' plain defaults. Every instance holds every field in its ``__dict__`` (``__init__``
    takes the defaults from its own signature, not from the class), but while the class has
    an attribute of a field's name, Python 3.11 reads that field from an instance the slow,
    general way (about ten times slower): the folds read state fields millions of times."""
    for f in getattr(cls, "__dataclass_fields__", {}).values():
        if f._field_type is dataclasses._FIELD and f.name in cls.__dict__:  # type: ignore[attr-defined]
            if cls.__dict__[f.name] is f.default:
                delattr(cls, f.name)
    return cls


def in_place(obj: Any) -> None:
    """Let ``changed`` change ``obj`` in place until another record is marked (``None``:
    none). Only for a record nobody else can see yet: a replay marks the state a fold step
    has just made, which the next step would copy and drop, and marks none before it keeps
    or hands out a state. Saves copying a whole state (dozens of fields) per event."""
    UNSHARED[0] = obj


def _rebuilt(obj: Any, changes: dict[str, Any]) -> Any:
    cls = obj.__class__
    try:
        rebuild = _rebuilders[cls]
    except KeyError:
        rebuild = _rebuilders[cls] = _rebuilder(cls)
    if rebuild is not None:
        new = rebuild(obj, changes)
        if new is not None:
            return new
    try:
        names = _names[cls]
    except KeyError:
        names = _names[cls] = _init_names(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)
    values = {name: getattr(obj, name) for name in names}
    values.update(changes)  # a name that is no field fails in __init__, as with replace
    return cls(**values)


_rebuilders: dict[type, Any] = {}


def _rebuilder(cls: type) -> Any:
    """For a slotted dataclass whose ``__init__`` only sets its fields (then runs
    ``__post_init__``): a function building the changed copy the same way, filling the slots
    directly (codec's decoders build records so), or returning None for a name that is no
    field (the caller then fails as ``replace`` does). None when that does not apply."""
    from .codec import GENERATED, GENERATED_FLAGS, builder_lines
    from .method_cache import code_for

    names = _init_names(cls)
    if not names:
        return None
    env: dict[str, Any] = {"tp": cls, "known": frozenset(names)}
    values = [f"ch[{name!r}] if {name!r} in ch else obj.{name}" for name in names]
    build = builder_lines(cls, list(names), values, env)
    if "new" not in env:  # not a slotted record: codec's builder would call the class
        return None
    lines = ["def rebuild(obj, ch):", "    if not known.issuperset(ch):", "        return None"]
    exec(code_for("\n".join(lines + ["    " + line for line in build]), GENERATED, GENERATED_FLAGS),  # noqa: S102
         env)  # from field names only; compiled once and kept (method_cache.py)
    return env["rebuild"]


def _init_names(cls: type) -> tuple[str, ...] | None:
    """The fields ``__init__`` takes, when they are all of its arguments; else ``None``."""
    fields = getattr(cls, "__dataclass_fields__", None)
    if fields is None:
        return None
    names = []
    for f in fields.values():
        kind = f._field_type  # type: ignore[attr-defined]
        if kind is dataclasses._FIELD_CLASSVAR:  # type: ignore[attr-defined]
            continue
        if kind is not dataclasses._FIELD or not f.init:  # type: ignore[attr-defined]
            return None
        names.append(f.name)
    return tuple(names)


__all__ = ["changed", "in_place", "player_changed", "player_put", "unshadowed"]
