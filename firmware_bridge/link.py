"""The host's side of a tray session, without I/O: bytes and clock readings in; bytes to
send, notices for the consumer and a reconnect request out.

It does the handshake (PING until HELLO), acknowledges each ROLL after its notice is out,
drops duplicates by (tray, boot, seq) and acknowledges them again, refuses a roll with a
bad die (NAK, so the tray stops resending it), hurries a resend after a damaged frame, and
asks for a reconnect when the tray falls silent. Every rejection is counted and logged;
none reaches the rules core. ``session.TraySession`` runs it over a real port.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from dataclasses import dataclass, field

from companion.dice import DieResult, Roll
from companion.events import Source

from . import messages as m
from .framing import Decoder, Frame, Rejected
from .notices import (BatteryReport, DiceTumbling, Notice, RollReceived, TrayConnected, TrayFault, TrayProblem,
                      TrayRebooted)
from .owners import DiceOwners
from .wire import SILENCE, FlashColour, NakReason, Reject

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Timing:
    """The host's timers, in seconds."""

    hello_retry: float = 0.1   # PING again after this long without HELLO, doubling each time...
    hello_retry_max: float = 1.0  # ...up to this (a slow line must not drown in HELLOs)
    hurry: float = 0.05        # after a damaged frame, PING (the tray resends at once) at most this often
    probe: float = 1.5         # PING when the tray has been quiet this long
    silence: float = SILENCE   # then give up on the connection and reopen the port


@dataclass(slots=True)
class Output:
    send: list[bytes] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    reconnect: str = ""        # why the port should be reopened, if it should


@dataclass(slots=True)
class Counters:
    """What came over the line, for logs, ``tray-listen --stats`` and the benchmark."""

    frames: int = 0            # frames with a good checksum
    rolls: int = 0             # rolls passed on to the consumer
    acks: int = 0
    naks: int = 0
    pings: int = 0
    connects: int = 0          # connections made: by a HELLO, or by a frame from the known boot
    reboots: int = 0
    rejected: Counter = field(default_factory=Counter)  # Reject -> count

    def as_dict(self) -> dict[str, object]:
        return {"frames": self.frames, "rolls": self.rolls, "acks": self.acks, "naks": self.naks,
                "pings": self.pings, "connects": self.connects, "reboots": self.reboots,
                "rejected": {reason.value: n for reason, n in sorted(self.rejected.items(), key=lambda i: i[0].value)}}


class SeenRolls:
    """The (tray, boot, seq) of rolls already passed on. Bounded: the tray resends only its
    oldest unacknowledged roll, so only recent keys can come back."""

    def __init__(self, limit: int = 4096) -> None:
        self._keys: OrderedDict[tuple[str, str, int], None] = OrderedDict()
        self._limit = limit

    def __contains__(self, key: tuple[str, str, int]) -> bool:
        return key in self._keys

    def add(self, key: tuple[str, str, int]) -> None:
        self._keys[key] = None
        while len(self._keys) > self._limit:
            self._keys.popitem(last=False)

    def __len__(self) -> int:
        return len(self._keys)


def device_label(device: str, boot: str, seq: int) -> str:
    """What a tray roll journals as its device: ``tray TL-7F3A boot=5B1E9C02#17``."""
    return f"tray {device} boot={boot}#{seq}"


class TrayLink:
    """One tray on one port. ``open`` at each (re)connection; ``seen`` outlives connections."""

    def __init__(self, port: str = "", owners: DiceOwners | None = None, seen: SeenRolls | None = None,
                 timing: Timing = Timing(), counters: Counters | None = None) -> None:
        self.port = port
        self.owners = owners if owners is not None else DiceOwners.fublet()
        self.seen = seen if seen is not None else SeenRolls()
        self.timing = timing
        self.counters = counters if counters is not None else Counters()
        self.hello: m.Hello | None = None
        self._decoder = Decoder()
        self._colours: dict[str, str] = {}
        self._seq = 0
        self._last_heard = self._last_ping = 0.0
        self._hello_wait = timing.hello_retry
        self._last_boot = ""                       # survives reconnects: a new one is a reboot
        self._known: m.Hello | None = None         # the last HELLO, from before a reconnect
        self._warned: set[str] = set()            # log lines already written, this connection
        self._told: set[str] = set()              # problems already shown to people

    # --- driving -------------------------------------------------------------------------------
    def open(self, now: float) -> Output:
        """A new connection: forget the half-read frame and the HELLO, ask the tray for one."""
        self._decoder = Decoder()
        self._known = self.hello or self._known
        self.hello = None
        self._last_heard = now
        self._hello_wait = self.timing.hello_retry
        self._warned.clear()
        out = Output()
        self._ping(out, now)
        return out

    def receive(self, data: bytes, now: float) -> Output:
        out = Output()
        for item in self._decoder.feed(data):
            if isinstance(item, Rejected):
                self._rejected(item.reason, repr(item))
                if item.reason in (Reject.CHECKSUM, Reject.TRUNCATED) and now - self._last_ping >= self.timing.hurry:
                    self._ping(out, now)  # the frame may have been a roll: have it resent now
                continue
            self._last_heard = now
            try:
                message = m.parse(item)
            except m.MessageError as exc:
                self._refused(item, exc, out)
                continue
            self.counters.frames += 1
            self._handle(message, out, now)
        return out

    def tick(self, now: float) -> Output:
        out = Output()
        quiet = now - self._last_heard
        if quiet >= self.timing.silence:
            out.reconnect = f"no frame from the tray for {quiet:.1f} s"
        elif (self.hello is None or quiet >= self.timing.probe) and now - self._last_ping >= self._hello_wait:
            self._ping(out, now)
            self._hello_wait = min(self._hello_wait * 2, self.timing.hello_retry_max)
        return out

    def flash(self, colour: FlashColour) -> bytes:
        return self._frame(m.Flash(self._next(), colour))

    # --- handling ------------------------------------------------------------------------------
    def _handle(self, message: m.Message, out: Output, now: float) -> None:
        known = self._known
        if (self.hello is None and known is not None and isinstance(message, (m.Beat, m.RollReport))
                and message.boot == known.boot):
            self._recognised(known, out)  # the same tray, same boot: no need to wait for its HELLO
        if isinstance(message, m.RollReport):
            self._roll(message, out, now)
        elif isinstance(message, m.Hello):
            self._hello(message, out)
        elif isinstance(message, m.Rolling) and self.hello:
            out.notices.append(DiceTumbling(self.hello.device, message.dice))
        elif isinstance(message, m.Battery) and self.hello:
            out.notices.append(BatteryReport(self.hello.device, message.percent, message.charging))
        elif isinstance(message, m.DeviceError):
            device = self.hello.device if self.hello else self.port
            log.warning("%s: tray %s reports an error: %s %s", self.port, device, message.code, message.detail)
            out.notices.append(TrayFault(device, message.code, message.detail))

    def _recognised(self, hello: m.Hello, out: Output) -> None:
        self.counters.connects += 1
        log.info("%s: tray %s is back (boot %s)", self.port, hello.device, hello.boot)
        out.notices.append(TrayConnected(self.port, hello.device, hello.firmware, hello.boot,
                                         tuple(map(str, hello.dice))))
        self.hello = hello

    def _hello(self, hello: m.Hello, out: Output) -> None:
        first = self.hello is None or self.hello.device != hello.device
        if first:
            self.counters.connects += 1
            log.info("%s: tray %s (firmware %s, boot %s) holds %s", self.port, hello.device, hello.firmware,
                     hello.boot, ", ".join(map(str, hello.dice)))
            out.notices.append(TrayConnected(self.port, hello.device, hello.firmware, hello.boot,
                                             tuple(map(str, hello.dice))))
            for problem in self.owners.check_tray(hello.device, {d.id: d.kind for d in hello.dice}):
                log.warning("%s", problem)
                out.notices.append(TrayProblem(self.port, problem))
        if self._last_boot and hello.boot != self._last_boot:
            self.counters.reboots += 1
            log.info("%s: tray %s restarted (boot %s, was %s)", self.port, hello.device, hello.boot, self._last_boot)
            out.notices.append(TrayRebooted(self.port, hello.device, hello.boot, self._last_boot))
        self._last_boot = hello.boot
        self.hello = hello
        self._hello_wait = self.timing.hello_retry
        self._colours = {d.id: d.colour for d in hello.dice}

    def _roll(self, report: m.RollReport, out: Output, now: float) -> None:
        if self.hello is None:  # no device id to name it by yet; it will be resent after HELLO
            self._rejected(Reject.NO_HELLO, f"ROLL {report.seq} before HELLO")
            if now - self._last_ping >= self.timing.hurry:
                self._ping(out, now)
            return
        device = self.hello.device
        key = (device, report.boot, report.seq)
        if key not in self.seen:
            dice = tuple(DieResult(self.owners.die(device, d.id, d.kind, self._colours.get(d.id, "")), d.face)
                         for d in report.dice)
            roll = Roll(dice, Source.TRAY, device_label(device, report.boot, report.seq))
            self.seen.add(key)
            self.counters.rolls += 1
            out.notices.append(RollReceived(roll))  # the session queues notices before it sends
        else:
            self._rejected(Reject.DUPLICATE, f"ROLL {report.boot}#{report.seq} again (its ACK was lost)")
        self.counters.acks += 1
        out.send.append(self._frame(m.Ack(self._next(), report.boot, report.seq)))

    def _refused(self, frame: Frame, exc: m.MessageError, out: Output) -> None:
        reason = exc.reason
        self._rejected(reason, str(exc))
        if reason is Reject.WRONG_VERSION and str(exc) not in self._told:  # it answers every PING: say it once
            self._told.add(str(exc))
            out.notices.append(TrayProblem(self.port, f"{exc}: update Touchline or flash the tray with firmware "
                                                      f"for this protocol version"))
        boot = frame.get("boot") or ""
        if frame.type == "ROLL" and m.BOOT_ID.match(boot) and self.hello is not None:
            why = NakReason.BAD_DIE if reason is Reject.BAD_DIE else NakReason.MALFORMED
            self.counters.naks += 1
            out.send.append(self._frame(m.Nak(self._next(), boot, frame.seq, why)))
            out.notices.append(TrayProblem(self.port, f"tray {self.hello.device} sent a roll Touchline cannot use "
                                                      f"({exc}); roll again (and report the tray's fault)"))

    def _rejected(self, reason: Reject, detail: str) -> None:
        self.counters.rejected[reason] += 1
        loud = reason in (Reject.WRONG_VERSION, Reject.BAD_DIE, Reject.UNKNOWN_TYPE, Reject.WRONG_DIRECTION,
                          Reject.BAD_FIELD)
        if loud and detail not in self._warned:
            self._warned.add(detail)
            log.warning("%s: ignored: %s", self.port, detail)
        else:
            log.debug("%s: ignored (%s): %s", self.port, reason.value, detail)

    # --- sending -------------------------------------------------------------------------------
    def _ping(self, out: Output, now: float) -> None:
        self._last_ping = now
        self.counters.pings += 1
        out.send.append(self._frame(m.Ping(self._next())))

    def _next(self) -> int:
        self._seq = self._seq + 1 if self._seq < 2**32 - 1 else 1
        return self._seq

    @staticmethod
    def _frame(message: m.Message) -> bytes:
        return m.to_bytes(message)
