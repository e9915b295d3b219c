"""Messages: frames read as typed values, and typed values written as frames.

One small frozen dataclass per message type (docs/dice-tray-protocol.md lists their
fields). ``parse`` checks a frame's fields and raises ``MessageError`` with a ``Reject``
reason; fields a message does not define are ignored, so a later minor version can add
some without breaking this host.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Union

from companion.dice import DieKind

from .framing import Frame, encode, frame_of
from .wire import PROTOCOL_VERSION, Direction, FlashColour, MsgType, NakReason, Reject

_DEVICE_ID = re.compile(r"[A-Za-z0-9._-]{1,32}\Z")
_TOKEN = re.compile(r"[a-z0-9][a-z0-9-]{0,15}\Z")
BOOT_ID = re.compile(r"[0-9A-F]{8}\Z")
_NUMBER = re.compile(r"(0|[1-9][0-9]{0,9})\Z")
MAX_DICE = 16
_KINDS = {k.value: k for k in DieKind}


class MessageError(ValueError):
    """A frame that is not a valid message: ``reason`` says which kind of problem."""

    def __init__(self, reason: Reject, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class TrayDie:
    """A die the tray holds, as HELLO lists it: ``d10:home-black:black``."""

    kind: DieKind
    id: str
    colour: str = ""

    def __str__(self) -> str:
        colour = f":{self.colour}" if self.colour and self.colour != self.id else ""
        return f"{self.kind.value}:{self.id}{colour}"


@dataclass(frozen=True, slots=True)
class RolledDie:
    """One die of a ROLL: ``d10:home-black:4``. The face is as printed (a d10 shows 0-9)."""

    kind: DieKind
    id: str
    face: int

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.id}:{self.face}"


# --- tray -> host ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hello:
    TYPE: ClassVar[MsgType] = MsgType.HELLO
    seq: int
    device: str
    firmware: str
    protocol: int
    boot: str
    dice: tuple[TrayDie, ...]

    def fields(self) -> dict[str, object]:
        return {"id": self.device, "fw": self.firmware, "proto": self.protocol, "boot": self.boot,
                "dice": ",".join(map(str, self.dice))}

    @classmethod
    def from_frame(cls, f: Frame) -> "Hello":
        protocol = number(f, "proto")
        if protocol != PROTOCOL_VERSION:  # checked first: a newer tray may change everything else
            raise MessageError(Reject.WRONG_VERSION, f"the tray speaks dice-tray protocol {protocol}; this "
                                                     f"Touchline speaks {PROTOCOL_VERSION}")
        device = text(f, "id", _DEVICE_ID, "1-32 letters, digits, '.', '_' or '-'")
        firmware = text(f, "fw", None, "")
        return cls(f.seq, device, firmware, protocol, boot(f), tray_dice(required(f, "dice")))


@dataclass(frozen=True, slots=True)
class Beat:
    """The heartbeat; its boot lets a host that reconnects recognise the tray at once."""

    TYPE: ClassVar[MsgType] = MsgType.BEAT
    seq: int
    boot: str
    pending: int = 0

    def fields(self) -> dict[str, object]:
        return {"boot": self.boot, "pending": self.pending}

    @classmethod
    def from_frame(cls, f: Frame) -> "Beat":
        return cls(f.seq, boot(f), number(f, "pending", default=0))


@dataclass(frozen=True, slots=True)
class Rolling:
    TYPE: ClassVar[MsgType] = MsgType.ROLLING
    seq: int
    dice: tuple[str, ...] = ()

    def fields(self) -> dict[str, object]:
        return {"dice": ",".join(self.dice) or None}

    @classmethod
    def from_frame(cls, f: Frame) -> "Rolling":
        value = f.get("dice")
        return cls(f.seq, tuple(value.split(",")) if value else ())


@dataclass(frozen=True, slots=True)
class RollReport:
    """A ROLL report: ``boot`` and ``seq`` name it (a resend reuses both, even after a reboot)."""

    TYPE: ClassVar[MsgType] = MsgType.ROLL
    seq: int
    boot: str
    dice: tuple[RolledDie, ...]

    def fields(self) -> dict[str, object]:
        return {"boot": self.boot, "dice": ",".join(map(str, self.dice))}

    @classmethod
    def from_frame(cls, f: Frame) -> "RollReport":
        return cls(f.seq, boot(f), rolled_dice(required(f, "dice")))


@dataclass(frozen=True, slots=True)
class Battery:
    TYPE: ClassVar[MsgType] = MsgType.BATTERY
    seq: int
    percent: int
    millivolts: int | None = None
    charging: bool | None = None

    def fields(self) -> dict[str, object]:
        charging = None if self.charging is None else int(self.charging)
        return {"percent": self.percent, "mv": self.millivolts, "charging": charging}

    @classmethod
    def from_frame(cls, f: Frame) -> "Battery":
        percent = number(f, "percent")
        if percent > 100:
            raise MessageError(Reject.BAD_FIELD, f"BATTERY percent={percent}: must be 0..100")
        charging = f.get("charging")
        if charging not in (None, "0", "1"):
            raise MessageError(Reject.BAD_FIELD, f"BATTERY charging={charging}: must be 0 or 1")
        mv = number(f, "mv", default=None)
        return cls(f.seq, percent, mv, None if charging is None else charging == "1")


@dataclass(frozen=True, slots=True)
class DeviceError:
    TYPE: ClassVar[MsgType] = MsgType.ERROR
    seq: int
    code: str
    detail: str = ""

    def fields(self) -> dict[str, object]:
        return {"code": self.code, "detail": self.detail or None}

    @classmethod
    def from_frame(cls, f: Frame) -> "DeviceError":
        return cls(f.seq, text(f, "code", _TOKEN, "a lower-case word"), f.get("detail") or "")


# --- host -> tray ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Ping:
    TYPE: ClassVar[MsgType] = MsgType.PING
    seq: int
    protocol: int = PROTOCOL_VERSION

    def fields(self) -> dict[str, object]:
        return {"proto": self.protocol}

    @classmethod
    def from_frame(cls, f: Frame) -> "Ping":
        return cls(f.seq, number(f, "proto"))


@dataclass(frozen=True, slots=True)
class Ack:
    TYPE: ClassVar[MsgType] = MsgType.ACK
    seq: int
    boot: str
    roll: int  # the ROLL's seq

    def fields(self) -> dict[str, object]:
        return {"boot": self.boot, "seq": self.roll}

    @classmethod
    def from_frame(cls, f: Frame) -> "Ack":
        return cls(f.seq, boot(f), number(f, "seq"))


@dataclass(frozen=True, slots=True)
class Nak:
    TYPE: ClassVar[MsgType] = MsgType.NAK
    seq: int
    boot: str
    roll: int
    reason: NakReason

    def fields(self) -> dict[str, object]:
        return {"boot": self.boot, "seq": self.roll, "reason": self.reason.value}

    @classmethod
    def from_frame(cls, f: Frame) -> "Nak":
        return cls(f.seq, boot(f), number(f, "seq"), choice(f, "reason", NakReason))


@dataclass(frozen=True, slots=True)
class Flash:
    TYPE: ClassVar[MsgType] = MsgType.FLASH
    seq: int
    colour: FlashColour

    def fields(self) -> dict[str, object]:
        return {"colour": self.colour.value}

    @classmethod
    def from_frame(cls, f: Frame) -> "Flash":
        return cls(f.seq, choice(f, "colour", FlashColour))


Message = Union[Hello, Beat, Rolling, RollReport, Battery, DeviceError, Ping, Ack, Nak, Flash]
MESSAGES: dict[str, type] = {cls.TYPE.value: cls for cls in
                             (Hello, Beat, Rolling, RollReport, Battery, DeviceError, Ping, Ack, Nak, Flash)}


def parse(frame: Frame, sender: Direction = Direction.DEVICE) -> Message:
    """The message a frame carries, as sent by ``sender``; raises MessageError."""
    cls = MESSAGES.get(frame.type)
    if cls is None:
        raise MessageError(Reject.UNKNOWN_TYPE, f"unknown message type {frame.type}")
    if cls.TYPE.direction is not sender:
        raise MessageError(Reject.WRONG_DIRECTION, f"{frame.type} is sent by the {cls.TYPE.direction.value}, "
                                                   f"not the {sender.value} (is the port echoing?)")
    return cls.from_frame(frame)


def to_frame(message: Message) -> Frame:
    return frame_of(message.TYPE.value, message.seq, **message.fields())


def to_bytes(message: Message) -> bytes:
    return encode(to_frame(message))


# --- field readers ----------------------------------------------------------------------------------

def required(f: Frame, key: str) -> str:
    value = f.get(key)
    if value is None:
        raise MessageError(Reject.BAD_FIELD, f"{f.type} needs a {key}= field")
    return value


def text(f: Frame, key: str, pattern: re.Pattern | None, what: str) -> str:
    value = required(f, key)
    if pattern is not None and not pattern.match(value):
        raise MessageError(Reject.BAD_FIELD, f"{f.type} {key}={value}: expected {what}")
    return value


def number(f: Frame, key: str, default: object = ...) -> int:
    value = f.get(key)
    if value is None and default is not ...:
        return default  # type: ignore[return-value]
    value = required(f, key)
    if not _NUMBER.match(value):
        raise MessageError(Reject.BAD_FIELD, f"{f.type} {key}={value}: expected a whole number")
    return int(value)


def boot(f: Frame) -> str:
    return text(f, "boot", BOOT_ID, "8 upper-case hex digits")


def choice(f: Frame, key: str, enum: type):
    value = required(f, key)
    try:
        return enum(value)
    except ValueError:
        options = ", ".join(e.value for e in enum)
        raise MessageError(Reject.BAD_FIELD, f"{f.type} {key}={value}: expected one of {options}") from None


def _kind(token: str, where: str) -> DieKind:
    kind = _KINDS.get(token)
    if kind is None:
        raise MessageError(Reject.BAD_DIE, f"{where}: unknown die kind {token!r} (known: {', '.join(_KINDS)})")
    return kind


def _ids_unique(ids: list[str], what: str) -> None:
    if len(set(ids)) != len(ids):
        raise MessageError(Reject.BAD_FIELD, f"{what} names a die twice")


def tray_dice(value: str) -> tuple[TrayDie, ...]:
    """``d10:home-black:black,d8:green`` -> the dice a HELLO lists."""
    out = []
    for item in value.split(","):
        parts = item.split(":")
        if len(parts) not in (2, 3) or not all(_TOKEN.match(p) for p in parts[1:]):
            raise MessageError(Reject.BAD_FIELD, f"HELLO die {item!r}: expected kind:id or kind:id:colour "
                                                 f"(lower-case words), e.g. d10:home-black:black")
        kind = _kind(parts[0], f"HELLO die {item!r}")
        out.append(TrayDie(kind, parts[1], parts[2] if len(parts) == 3 else parts[1]))
    if len(out) > MAX_DICE:
        raise MessageError(Reject.BAD_FIELD, f"HELLO lists {len(out)} dice; at most {MAX_DICE}")
    _ids_unique([d.id for d in out], "HELLO")
    return tuple(out)


def rolled_dice(value: str) -> tuple[RolledDie, ...]:
    """``d10:home-black:4,d10:home-white:0`` -> the dice of a ROLL, each face checked."""
    out = []
    for item in value.split(","):
        parts = item.split(":")
        if len(parts) != 3 or not _TOKEN.match(parts[1]) or not _NUMBER.match(parts[2]):
            raise MessageError(Reject.BAD_FIELD, f"ROLL die {item!r}: expected kind:id:face, e.g. d10:home-black:4")
        kind = _kind(parts[0], f"ROLL die {item!r}")
        face = int(parts[2])
        try:
            kind.check_face(face)
        except ValueError as exc:
            raise MessageError(Reject.BAD_DIE, f"ROLL die {item!r}: {exc}") from None
        out.append(RolledDie(kind, parts[1], face))
    if len(out) > MAX_DICE:
        raise MessageError(Reject.BAD_FIELD, f"ROLL has {len(out)} dice; at most {MAX_DICE}")
    _ids_unique([d.id for d in out], "ROLL")
    return tuple(out)


__all__ = ["Hello", "Beat", "Rolling", "RollReport", "Battery", "DeviceError", "Ping", "Ack", "Nak", "Flash", "Message",
           "TrayDie", "RolledDie", "MessageError", "parse", "to_frame", "to_bytes"]
