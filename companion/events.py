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

from .codec import decoder_for, to_json
from .errors import DecodeError
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


def payload_type(name: str) -> type[EventPayload]:
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
        if not isinstance(obj, dict):
            raise DecodeError("", f"expected a JSON object for an event, got {type(obj).__name__}")
        missing = [k for k in ("seq", "at", "source", "type", "data") if k not in obj]
        if missing:
            raise DecodeError(missing[0], "missing field")
        unknown = [k for k in obj if k not in ("seq", "batch", "at", "source", "type", "data", "status")]
        if unknown:
            raise DecodeError(unknown[0], "unknown field")
        seq = decoder_for(int)(obj["seq"], "seq")
        if seq < 1:
            raise DecodeError("seq", f"must be 1 or more, got {seq}")
        batch = decoder_for(int)(obj.get("batch", seq), "batch")
        if not 1 <= batch <= seq:
            raise DecodeError("batch", f"must be between 1 and seq ({seq}), got {batch}")
        at = parse_time(obj["at"])
        source = decoder_for(Source)(obj["source"], "source")
        name = decoder_for(str)(obj["type"], "type")
        ptype = payload_type(name)
        payload = decoder_for(ptype)(obj["data"], "data")
        if ptype.DERIVED and source is not Source.RULES:
            raise DecodeError("source", f"{name} is derived by the rules; its source must be 'rules'")
        return cls(seq=seq, batch=batch, at=at, source=source, payload=payload)

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
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise DecodeError("at", f"not an ISO 8601 time: {value!r}") from None
    if at.tzinfo is None:
        raise DecodeError("at", f"time must carry a zone (end it with Z): {value!r}")
    return at


def payload_fields(payload: EventPayload) -> dict[str, Any]:
    return {f.name: getattr(payload, f.name) for f in dataclasses.fields(payload)}
