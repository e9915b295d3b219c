"""Plain twins of frozen record classes: the fast way to build a record without calling its
frozen ``__init__`` (for the codec's decoders and the folds' ``changed``).

A twin has the record's bases and layout but ordinary attribute setting. A record is built
as a twin, its fields set (or its ``__dict__`` given at once), then given its real class:
Python checks on that assignment that the two lay out their memory the same way, so the
result is the instance ``__init__`` would make, field for field. Each function returns
``None`` where that does not apply (another metaclass or ``__new__``, a name Python would
mangle, a layout that differs), and its callers then take the ordinary way.

Imports nothing of Touchline: codec.py and records.py both use it.
"""

from __future__ import annotations

_dict_twins: dict[type, type | None] = {}
_slot_twins: dict[type, type | None] = {}


def dict_twin(cls: type) -> type | None:
    """The twin of a frozen record class that keeps a ``__dict__`` (no ``__slots__`` of its
    own): ``o = twin(); o.__dict__ = fields; o.__class__ = cls``."""
    try:
        return _dict_twins[cls]
    except KeyError:
        pass
    twin = None
    if (type(cls) is type and cls.__new__ is object.__new__ and "__slots__" not in cls.__dict__
            and "__dict__" in dir(cls)):
        try:
            twin = type(cls.__name__, cls.__bases__, {
                "__init__": object.__init__, "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
                "__module__": __name__, "__qualname__": f"dict_twin.{cls.__name__}"})
            probe = twin()
            probe.__dict__ = {}
            probe.__class__ = cls  # Python refuses (TypeError) unless the layouts agree
        except TypeError:
            twin = None
    _dict_twins[cls] = twin
    return twin


def slot_twin(cls: type) -> type | None:
    """The twin of a frozen slotted record class, with the same slots: ``o = twin();
    o.field = value ...; o.__class__ = cls``. Setting a slot as an attribute is done inline by
    Python, where calling each slot's setter makes a call with an argument tuple."""
    try:
        return _slot_twins[cls]
    except KeyError:
        pass
    twin = None
    slots = cls.__dict__.get("__slots__")
    if (type(cls) is type and cls.__new__ is object.__new__ and isinstance(slots, tuple)
            and not any(name.startswith("__") for name in slots)):
        try:
            twin = type(cls.__name__, cls.__bases__, {
                "__slots__": slots, "__init__": object.__init__, "__setattr__": object.__setattr__,
                "__module__": __name__, "__qualname__": f"slot_twin.{cls.__name__}"})
            twin().__class__ = cls  # Python refuses (TypeError) unless the layouts agree
        except TypeError:
            twin = None
    _slot_twins[cls] = twin
    return twin
