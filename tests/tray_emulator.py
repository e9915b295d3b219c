"""A dice tray written from docs/dice-tray-protocol.md alone, as issue 30's tester did: it
imports nothing of Touchline's, so it checks the host against the document, not against the
project's own reading of it (the reference firmware in firmware_bridge/firmware/ is that).

Pure: bytes in (``receive``), bytes out (``outbox``), a clock in milliseconds passed in. It
keeps a log of what it sent and what the host answered, so tests can ask "did every roll the
tray saw acknowledged reach the host?" and "did every ACK or NAK name a roll the tray sent?".

Knobs a broken or hostile tray has: ``restart(reuse_boot=True)`` restarts under the boot id it
had (its numbers start again at 1), and ``send_raw_roll`` sends a ROLL of any shape.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field

RESEND_MS = 250   # "resends it every 250 ms (any interval works)"
BEAT_MS = 1000    # "after 1 s without sending anything else"
MAX_PENDING = 8   # "It keeps up to 8 unacknowledged rolls"
MAX_FRAME = 512

_BODY = re.compile(rb"([A-Z]{1,12}) (0|[1-9][0-9]{0,9})((?: [a-z][a-z0-9_]{0,15}=[!-#%-)+-~]+)*)\Z")


def crc(body: bytes) -> int:
    """CRC-16/CCITT-FALSE, as the document gives it."""
    return binascii.crc_hqx(body, 0xFFFF)


def frame(mtype: str, seq: int, fields: list[tuple[str, object]]) -> bytes:
    body = " ".join([mtype, str(seq)] + [f"{k}={v}" for k, v in fields]).encode("ascii")
    return b"$" + body + b"*%04X\r\n" % crc(body)


@dataclass
class Received:
    """A host frame the tray read: its type, seq and fields."""

    type: str
    seq: int
    fields: dict[str, str]


def parse(line: bytes) -> Received | None:
    """One line from "$" to before LF (a CR before it allowed); None unless CRC and grammar hold."""
    if line.endswith(b"\r"):
        line = line[:-1]
    star = line.rfind(b"*")
    if not line.startswith(b"$") or star < 0 or len(line) - star - 1 != 4:
        return None
    body = line[1:star]
    try:
        if crc(body) != int(line[star + 1:], 16):
            return None
    except ValueError:
        return None
    match = _BODY.match(body)
    if not match:
        return None
    fields: dict[str, str] = {}
    for part in match.group(3).split():
        key, _, value = part.decode("ascii").partition("=")
        if key in fields:
            return None
        fields[key] = value
    return Received(match.group(1).decode("ascii"), int(match.group(2)), fields)


class Reader:
    """The document's receiver: skip to "$", a "$" inside a frame cuts it, 512 bytes at most."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.skipping = False

    def feed(self, data: bytes) -> list[Received | None]:
        out: list[Received | None] = []
        for b in data:
            c = bytes([b])
            if self.skipping:
                if c in (b"\n", b"$"):
                    self.skipping = False
                    if c == b"$":
                        self.buf = bytearray(c)
                continue
            if not self.buf:
                if c == b"$":
                    self.buf = bytearray(c)
                continue
            if c == b"$":
                out.append(None)
                self.buf = bytearray(c)
            elif c == b"\n":
                out.append(parse(bytes(self.buf)))
                self.buf = bytearray()
            else:
                self.buf += c
                if len(self.buf) >= MAX_FRAME:
                    out.append(None)
                    self.buf = bytearray()
                    self.skipping = True
        return out


@dataclass
class Pending:
    boot: str
    seq: int
    dice: str


@dataclass
class EmulatedTray:
    device: str = "EMU-1"
    dice: tuple[tuple[str, str], ...] = (("d10", "home-black"), ("d10", "home-white"), ("d10", "away-black"),
                                         ("d10", "away-white"), ("d8", "green"))
    boot: str = "00C0FFEE"
    outbox: bytearray = field(default_factory=bytearray)
    pending: list[Pending] = field(default_factory=list)   # "kept across a restart (written to flash)"
    seq: int = 0
    last_sent: int = 0
    last_roll_sent: int | None = None
    rolls_sent: set[tuple[str, int]] = field(default_factory=set)    # names of every ROLL it sent
    acked: list[Pending] = field(default_factory=list)               # rolls settled by an ACK
    naked: list[tuple[Pending, str]] = field(default_factory=list)   # rolls settled by a NAK, and why
    stray: list[Received] = field(default_factory=list)              # ACKs and NAKs naming no roll it sent
    boots_used: int = 0

    def __post_init__(self) -> None:
        self.reader = Reader()

    # --- the tray's life -------------------------------------------------------------------------
    def start(self, now: int) -> None:
        self.seq = 0
        self.reader = Reader()
        self._hello(now)
        self._send_head(now)

    def restart(self, now: int, reuse_boot: bool = False, new_boot: str | None = None) -> None:
        """Power cycle: pending rolls survive; the frame numbers start again at 1."""
        if not reuse_boot:
            self.boots_used += 1
            self.boot = new_boot or "%08X" % (0xB0070000 + self.boots_used)
        self.last_roll_sent = None
        self.start(now)

    def poll(self, now: int) -> None:
        if self.pending and (self.last_roll_sent is None or now - self.last_roll_sent >= RESEND_MS):
            self._send_head(now)
        elif now - self.last_sent >= BEAT_MS:
            self._send("BEAT", [("boot", self.boot), ("pending", len(self.pending))], now)

    def throw(self, faces: list[tuple[str, int]], now: int) -> int | None:
        """A roll of (die id, face); its seq, or None when 8 rolls wait (ERROR queue-full)."""
        if len(self.pending) >= MAX_PENDING:
            self._send("ERROR", [("code", "queue-full")], now)
            return None
        kinds = dict((i, k) for k, i in self.dice)
        self.seq += 1
        self.pending.append(Pending(self.boot, self.seq, ",".join(f"{kinds[i]}:{i}:{f}" for i, f in faces)))
        if len(self.pending) == 1:
            self._send_head(now)
        return self.seq

    def send_raw_roll(self, seq: int, fields: list[tuple[str, object]], now: int) -> None:
        """A ROLL of any shape (a lower-case boot, no boot, a bad die), sent once."""
        self.outbox += frame("ROLL", seq, fields)
        self.rolls_sent.add((str(dict(fields).get("boot", "")), seq))
        self.last_sent = now

    def receive(self, data: bytes, now: int) -> None:
        for item in self.reader.feed(data):
            if item is None:
                continue
            if item.type == "PING":
                self._hello(now)
                if self.pending:
                    self._send_head(now)
                else:
                    self._send("BEAT", [("boot", self.boot), ("pending", 0)], now)
            elif item.type in ("ACK", "NAK"):
                name = (item.fields.get("boot", ""), int(item.fields["seq"]) if item.fields.get("seq", "").isdigit()
                        else -1)
                if name not in self.rolls_sent:
                    self.stray.append(item)
                head = self.pending[0] if self.pending else None
                if head is not None and (head.boot, head.seq) == name:
                    self.pending.pop(0)
                    if item.type == "ACK":
                        self.acked.append(head)
                    else:
                        self.naked.append((head, item.fields.get("reason", "")))
                    self.last_roll_sent = None
                    if self.pending:
                        self._send_head(now)

    # --- inside ------------------------------------------------------------------------------------
    def _hello(self, now: int) -> None:
        dice = ",".join(f"{k}:{i}" for k, i in self.dice)
        self._send("HELLO", [("id", self.device), ("fw", "0.1"), ("proto", 1), ("boot", self.boot), ("dice", dice)],
                   now)

    def _send_head(self, now: int) -> None:
        if self.pending:
            head = self.pending[0]
            self.outbox += frame("ROLL", head.seq, [("boot", head.boot), ("dice", head.dice)])
            self.rolls_sent.add((head.boot, head.seq))
            self.last_sent = self.last_roll_sent = now

    def _send(self, mtype: str, fields: list[tuple[str, object]], now: int) -> None:
        self.seq += 1
        self.outbox += frame(mtype, self.seq, fields)
        self.last_sent = now

    def take(self) -> bytes:
        data = bytes(self.outbox)
        self.outbox.clear()
        return data
