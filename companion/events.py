"""Events: the journal's records. Match state is a fold of them; nothing else changes it.

An event is a frozen envelope (sequence number, batch, wall-clock time, source) around a
typed payload. Every payload type registers itself under a stable name such as
``"fublet.action_declared"``; that name and the payload's fields are the journal format,
documented in docs/journal.md. Payloads derived by the rules (MP earned, a skill test's
verdict) are marked ``DERIVED`` and always carry the source ``rules``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, ClassVar

from .codec import from_json, to_json
from .errors import DecodeError
from .games import ruleset_for
from .teams import CodeEnum


class Source(CodeEnum):
    """Who proposed what an event records."""

    VISION = "vision"
    TRAY = "tray"
    MANUAL = "manual"
    SOFTWARE = "software"  # software dice: seeded RNG, seed journaled with the roll
    RULES = "rules"


class EventPayload:
    """Base of every event payload. Subclasses are frozen dataclasses with a ``TYPE`` name."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    DERIVED: ClassVar[bool] = False
    registry: ClassVar[dict[str, type["EventPayload"]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("TYPE", "")
        if not name:
            return
        existing = EventPayload.registry.get(name)
        if existing is not None and existing.__qualname__ != cls.__qualname__:
            raise TypeError(f"event type {name!r} registered twice ({existing!r} and {cls!r})")
        EventPayload.registry[name] = cls


_ENVELOPE = frozenset(("seq", "batch", "at", "source", "type", "data", "status"))
_SOURCES = {s.value: s for s in Source}


def payload_type(name: str) -> type[EventPayload]:
    """The payload class registered under ``name``. A game's types register when its rules
    module is imported; a name like ``"fublet.goal_scored"`` loads that game on first use, so
    reading a journal or an export never depends on what happened to be imported before."""
    try:
        return EventPayload.registry[name]
    except KeyError:
        pass
    game, dot, _ = name.partition(".")
    if dot:
        try:
            ruleset_for(game)
        except KeyError:
            pass
    try:
        return EventPayload.registry[name]
    except KeyError:
        raise DecodeError("type", f"unknown event type {name!r}") from None


@dataclass(frozen=True, slots=True)
class Event:
    """One journaled fact. ``batch`` is the seq of the first event of the same command."""

    seq: int
    batch: int
    at: datetime
    source: Source
    payload: EventPayload

    @property
    def type(self) -> str:
        return self.payload.TYPE

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "batch": self.batch,
            "at": format_time(self.at),
            "source": self.source.value,
            "type": self.payload.TYPE,
            "data": to_json(self.payload),
        }

    def to_line(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=False)

    @classmethod
    def from_json(cls, obj: Any) -> "Event":
        if type(obj) is not dict:
            raise DecodeError("", f"expected a JSON object for an event, got {type(obj).__name__}")
        if not _ENVELOPE.issuperset(obj):
            raise DecodeError(next(k for k in obj if k not in _ENVELOPE), "unknown field")
        try:
            seq, at, source, name, data = obj["seq"], obj["at"], obj["source"], obj["type"], obj["data"]
        except KeyError as exc:
            raise DecodeError(exc.args[0], "missing field") from None
        if type(seq) is not int or seq < 1:
            raise DecodeError("seq", f"must be an integer of 1 or more, got {seq!r}")
        batch = obj.get("batch", seq)
        if type(batch) is not int or not 1 <= batch <= seq:
            raise DecodeError("batch", f"must be an integer between 1 and seq ({seq}), got {batch!r}")
        source = _SOURCES.get(source) if isinstance(source, str) else None
        if source is None:
            raise DecodeError("source", f"expected one of {', '.join(_SOURCES)}, got {obj['source']!r}")
        if not isinstance(name, str):
            raise DecodeError("type", f"expected a string, got {name!r}")
        ptype = payload_type(name)
        payload = from_json(ptype, data, "data")
        if ptype.DERIVED and source is not Source.RULES:
            raise DecodeError("source", f"{name} is derived by the rules; its source must be 'rules'")
        return cls(seq=seq, batch=batch, at=parse_time(at), source=source, payload=payload)

    @classmethod
    def from_line(cls, line: str) -> "Event":
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DecodeError("", f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        return cls.from_json(obj)


def now() -> datetime:
    return datetime.now(timezone.utc)


def format_time(at: datetime) -> str:
    return at.astimezone(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def parse_time(value: Any) -> datetime:
    if not isinstance(value, str):
        raise DecodeError("at", f"expected an ISO 8601 time string, got {value!r}")
    try:
        at = datetime.fromisoformat(value)  # Python 3.11 on reads a trailing Z as UTC
    except ValueError:
        raise DecodeError("at", f"not an ISO 8601 time: {value!r}") from None
    if at.tzinfo is None:
        raise DecodeError("at", f"time must carry a zone (end it with Z): {value!r}")
    return at


def payload_fields(payload: EventPayload) -> dict[str, Any]:
    return {f.name: getattr(payload, f.name) for f in dataclasses.fields(payload)}
