"""Framing: bytes in, frames out, and frames back to bytes. Pure functions, no I/O.

A frame is one ASCII line a person can read in a terminal::

    $ROLL 17 boot=5B1E9C02 dice=d10:home-black:4,d10:home-white:0*6795\r\n

``$``, the body (message type, sequence number, ``key=value`` fields, single spaces
between), ``*``, the CRC-16/CCITT-FALSE of the body as four hex digits, and a line end.
The decoder hunts for ``$`` after garbage, drops a frame cut short by the next ``$``, caps
a line at ``MAX_FRAME`` bytes, and only returns frames whose checksum matches and whose
body is canonical (encoding the frame again gives the same bytes), so a damaged frame is
never mistaken for a good one. The reference firmware's ``trayproto.py`` does the same;
both are checked against the test vectors in ``vectors.json``.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

from .wire import CHECK, END, MAX_FRAME, MAX_SEQ, START, Reject

_TYPE = re.compile(rb"[A-Z]{1,12}\Z")
_SEQ = re.compile(rb"(0|[1-9][0-9]{0,9})\Z")
_KEY = re.compile(rb"[a-z][a-z0-9_]{0,15}\Z")
_VALUE = re.compile(rb"[!-#%-)+-~]+\Z")  # printable, no space, "$" (0x24) or "*" (0x2A)
_HEX = re.compile(rb"[0-9A-Fa-f]{4}\Z")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: its message type, the sender's sequence number and its fields, in order."""

    type: str
    seq: int
    fields: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.fields:
            if k == key:
                return v
        return default

    def keys(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.fields)


@dataclass(frozen=True, slots=True)
class Rejected:
    """Bytes that did not make a frame, and why. ``data`` is kept for the log only."""

    reason: Reject
    data: bytes = b""

    def __repr__(self) -> str:
        shown = self.data if len(self.data) <= 40 else self.data[:40] + b"..."
        return f"Rejected({self.reason!r}, {shown!r})"


def frame_of(type: str, seq: int, /, **fields: object) -> Frame:
    """A frame from keyword fields, e.g. ``frame_of("ACK", 3, boot="5B1E9C02", seq=17)``
    (a field named ``seq`` is fine: it is not the frame's own). None values are left out."""
    return Frame(type, seq, tuple((k, str(v)) for k, v in fields.items() if v is not None))


def encode_body(frame: Frame) -> bytes:
    """The bytes between ``$`` and ``*``. Raises ValueError for a frame the grammar forbids."""
    parts = [frame.type.encode("ascii", "replace"), str(frame.seq).encode("ascii")]
    if not _TYPE.match(parts[0]):
        raise ValueError(f"message type must be 1-12 capital letters, got {frame.type!r}")
    if type(frame.seq) is not int or not 0 <= frame.seq <= MAX_SEQ:
        raise ValueError(f"seq must be an integer 0..{MAX_SEQ}, got {frame.seq!r}")
    seen = set()
    for key, value in frame.fields:
        k, v = key.encode("ascii", "replace"), value.encode("ascii", "replace")
        if not _KEY.match(k):
            raise ValueError(f"field name must be a lower-case word of up to 16 characters, got {key!r}")
        if not _VALUE.match(v):
            raise ValueError(f"field {key}: value must be printable ASCII without spaces, '$' or '*', got {value!r}")
        if key in seen:
            raise ValueError(f"field {key} appears twice")
        seen.add(key)
        parts.append(k + b"=" + v)
    body = b" ".join(parts)
    if len(body) + 8 > MAX_FRAME:  # "$" + body + "*" + 4 hex + "\r\n"
        raise ValueError(f"frame is {len(body) + 8} bytes; the limit is {MAX_FRAME}")
    return body


def encode(frame: Frame) -> bytes:
    """The frame as it goes on the wire, ending in CR LF."""
    body = encode_body(frame)
    return b"%s%s%s%04X\r\n" % (START, body, CHECK, crc16(body))


def parse_line(line: bytes) -> Frame | Rejected:
    """One line from ``$`` up to (not including) its ``\\n``: a frame, or why not."""
    if line.endswith(b"\r"):
        line = line[:-1]
    star = line.rfind(CHECK)
    if not line.startswith(START) or star < 0 or not _HEX.match(line, star + 1):
        return Rejected(Reject.CHECKSUM, line)
    body = line[1:star]
    if crc16(body) != int(line[star + 1:], 16):
        return Rejected(Reject.CHECKSUM, line)
    parts = body.split(b" ")
    if len(parts) < 2 or not _TYPE.match(parts[0]) or not _SEQ.match(parts[1]):
        return Rejected(Reject.MALFORMED, line)
    seq = int(parts[1])
    if seq > MAX_SEQ:
        return Rejected(Reject.MALFORMED, line)
    fields: list[tuple[str, str]] = []
    for part in parts[2:]:
        key, eq, value = part.partition(b"=")
        if not eq or not _KEY.match(key) or not _VALUE.match(value):
            return Rejected(Reject.MALFORMED, line)
        fields.append((key.decode("ascii"), value.decode("ascii")))
    if len({k for k, _ in fields}) != len(fields):
        return Rejected(Reject.MALFORMED, line)
    return Frame(parts[0].decode("ascii"), seq, tuple(fields))


class Decoder:
    """Turns a byte stream into frames and rejections, resynchronising after garbage.

    The state is only the bytes of an unfinished frame (at most ``MAX_FRAME``), so what
    arrives in one piece or byte by byte decodes the same. CR and LF between frames are
    idle, not garbage; other bytes outside a frame are reported as one GARBAGE rejection
    per run (a run ends at the next ``$`` or at the end of the bytes fed).
    """

    __slots__ = ("_buf", "_skipping", "_limit")

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self._buf = bytearray()      # from "$" while inside a frame, else empty
        self._skipping = False       # dropping the rest of an overlong line
        self._limit = max_frame - 1  # bytes a frame may hold before its "\n"

    def feed(self, data: bytes) -> list[Frame | Rejected]:
        out: list[Frame | Rejected] = []
        pos, n = 0, len(data)
        while pos < n:
            if not self._buf and not self._skipping:  # hunting for "$"
                start = data.find(START, pos)
                stop = n if start < 0 else start
                if stop > pos:
                    junk = data[pos:stop]
                    if len(junk) > junk.count(b"\r") + junk.count(b"\n"):
                        out.append(Rejected(Reject.GARBAGE, junk))
                if start < 0:
                    break
                self._buf += START
                pos = start + 1
                continue
            nl, dollar = data.find(END, pos), data.find(START, pos)
            stop = min(i for i in (nl, dollar, n) if i >= 0)
            if self._skipping:
                pos = stop
                if stop < n:
                    self._skipping = False
                    if stop == nl:
                        pos += 1
                continue
            chunk = data[pos:stop]
            if len(self._buf) + len(chunk) > self._limit:
                out.append(Rejected(Reject.OVERLONG, bytes(self._buf[:64]) + chunk[:max(0, 64 - len(self._buf))]))
                self._buf.clear()
                self._skipping = True
                pos = stop
                continue
            self._buf += chunk
            pos = stop
            if stop == n:
                break
            line = bytes(self._buf)
            self._buf.clear()
            if stop == dollar:
                out.append(Rejected(Reject.TRUNCATED, line))
                self._buf += START
            else:
                out.append(parse_line(line))
            pos += 1
        return out

    def pending(self) -> int:
        """Bytes held for an unfinished frame."""
        return len(self._buf)


def decode(data: bytes) -> list[Frame | Rejected]:
    """Everything in ``data``, as if fed to a new decoder at once."""
    return Decoder().feed(data)
