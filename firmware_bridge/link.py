"""The host's side of a tray session, without I/O: bytes and clock readings in; bytes to
send, notices for the consumer and a reconnect request out.

It does the handshake (PING until HELLO, less and less often), acknowledges each ROLL after
its notice is out, drops a resent roll (the last one passed on, come again because its ACK
was lost: see ``SeenRolls``) and acknowledges it again,
refuses a roll with a bad die or a die the tray's HELLO did not list (NAK, so the tray stops
resending it), notices a tray that restarted under the boot id it had before, hurries a
resend after a damaged frame, and asks for a reconnect when the tray falls silent. Every
rejection is counted and logged; none reaches the rules core. What people must act on is a
``TrayProblem`` notice and only a debug line in the log, so it is shown once.
``session.TraySession`` runs it over a real port.
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


@dataclass(slots=True)
class LastRoll:
    """The last roll passed on under one (tray, boot): the only one the tray can send again."""

    seq: int
    dice: str
    settled: bool = False   # the tray showed it holds no roll (a later BEAT with pending=0)
    epoch: int = 0          # how many times this boot's roll numbers started over before it


class SeenRolls:
    """What tells a resent roll from a new one, for each (tray, boot).

    A tray sends its oldest unacknowledged roll and moves to the next only when that one is
    acknowledged, and it never goes back: so the only roll that can come again is the *last*
    one passed on (its ACK was lost), and only until the tray shows that it moved past it.
    Any other roll is new, whatever its name and faces, which is what keeps a tray that
    restarts under its old boot id from losing a throw that happens to repeat an earlier
    roll's number and faces. Bounded: a hostile tray inventing boot ids keeps ``limit``.
    """

    def __init__(self, limit: int = 4096) -> None:
        self._last: OrderedDict[tuple[str, str], LastRoll] = OrderedDict()
        self._limit = limit

    def last(self, device: str, boot: str) -> LastRoll | None:
        return self._last.get((device, boot))

    def is_resend(self, device: str, boot: str, seq: int, dice: str) -> bool:
        last = self._last.get((device, boot))
        return last is not None and not last.settled and last.seq == seq and last.dice == dice

    def passed(self, device: str, boot: str, seq: int, dice: str, epoch: int) -> None:
        self._last[(device, boot)] = LastRoll(seq, dice, False, epoch)
        self._last.move_to_end((device, boot))
        while len(self._last) > self._limit:
            self._last.popitem(last=False)

    def settle(self, device: str, boot: str) -> None:
        last = self._last.get((device, boot))
        if last is not None:
            last.settled = True

    def __len__(self) -> int:
        return len(self._last)


def device_label(device: str, boot: str, seq: int, restart: int = 0) -> str:
    """What a tray roll journals as its device: ``tray TL-7F3A boot=5B1E9C02#17``. A tray
    that restarted under a boot id it had used gets ``boot=5B1E9C02~1#17`` for its first
    such restart, so its rolls keep names of their own."""
    boot = f"{boot}~{restart}" if restart else boot
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
        self._kinds: dict[str, object] = {}
        self._seq = 0
        self._last_heard = self._last_ping = 0.0
        self._hello_wait = timing.hello_retry
        self._last_boot = ""                       # survives reconnects: a new one is a reboot
        self._known: m.Hello | None = None         # the last HELLO, from before a reconnect
        self._warned: set[str] = set()            # log lines already written, this connection
        self._told: set[str] = set()              # problems already shown to people
        self._frame_seq: dict[tuple[str, str], int] = {}  # (tray, boot) -> its last non-ROLL frame's seq
        self._restarts: dict[tuple[str, str], int] = {}   # (tray, boot) -> restarts under that same boot
        self._fallbacks: dict[tuple[str, str], int] = {}  # (tray, boot) -> restarts whose fall in numbers is unused

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
                if item.reason in (Reject.CHECKSUM, Reject.TRUNCATED):
                    if self.hello is None and item.data.startswith(b"$HELLO"):
                        self._hello_wait = self.timing.hello_retry  # it answers: the line is noisy
                    self._hurry(out, now)  # the frame may have been a roll: have it resent now
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
        # Only frames that name their boot count: a ROLLING or ERROR may come from a tray that
        # restarted under a new boot whose HELLO was lost, and a resent ROLL keeps its old seq.
        if isinstance(message, m.Hello):
            self._count_frame(message.device, message.boot, message.seq, out)
        elif isinstance(message, m.Beat) and self.hello is not None and message.boot == self.hello.boot:
            self._count_frame(self.hello.device, message.boot, message.seq, out)
            last = self.seen.last(self.hello.device, message.boot)
            if message.pending == 0 and last is not None and (message.seq > last.seq or
                                                             self._fallbacks.get((self.hello.device, message.boot))):
                # The tray holds no roll: the last one was acknowledged. (A BEAT numbered below
                # that roll was sent before it, unless the tray has restarted since.)
                self.seen.settle(self.hello.device, message.boot)
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
            log.debug("%s: tray %s reports an error: %s %s", self.port, device, message.code, message.detail)
            out.notices.append(TrayFault(device, message.code, message.detail))

    def _recognised(self, hello: m.Hello, out: Output) -> None:
        self.counters.connects += 1
        log.info("%s: tray %s is back (boot %s)", self.port, hello.device, hello.boot)
        out.notices.append(TrayConnected(self.port, hello.device, hello.firmware, hello.boot,
                                         tuple(map(str, hello.dice))))
        self.hello = hello

    def _count_frame(self, device: str, boot: str, seq: int, out: Output) -> None:
        """A tray numbers its frames upwards within a boot; a number that falls back means it
        restarted and kept its boot id (its random number generator is not random)."""
        key = (device, boot)
        last = self._frame_seq.get(key)
        self._frame_seq[key] = seq
        roll = self.seen.last(device, boot)
        if last is not None and seq < last:  # equal: the same frame twice (a line can repeat one)
            self._restarted_same_boot(device, boot, out)
        elif roll is not None and seq <= roll.seq and not self._fallbacks.get(key):
            # Numbered at or below a roll of this run: the count started again (frames of the
            # run before may not have come, a busy tray sends only ROLLs). While a restart's
            # fall is still to come, the last roll may be one kept from the run before.
            self._restarted_same_boot(device, boot, out)

    def _restarted_same_boot(self, device: str, boot: str, out: Output) -> None:
        """Count the restart and tell people once; the next new roll of that boot starts a new
        run of names (``~n``)."""
        key = (device, boot)
        self._restarts[key] = self._restarts.get(key, 0) + 1
        self._fallbacks[key] = self._fallbacks.get(key, 0) + 1
        self.counters.reboots += 1
        log.info("%s: tray %s restarted and kept boot %s", self.port, device, boot)
        out.notices.append(TrayRebooted(self.port, device, boot, boot))
        self._problem(out, f"tray {device} restarted but kept its boot id {boot}: its firmware must pick a new "
                           f"random boot id at every start (until then Touchline names its rolls by the order they "
                           f"come in: check each roll on the screen)")

    def _hello(self, hello: m.Hello, out: Output) -> None:
        first = self.hello is None or self.hello.device != hello.device
        if first:
            self.counters.connects += 1
            log.info("%s: tray %s (firmware %s, boot %s) holds %s", self.port, hello.device, hello.firmware,
                     hello.boot, ", ".join(map(str, hello.dice)))
            out.notices.append(TrayConnected(self.port, hello.device, hello.firmware, hello.boot,
                                             tuple(map(str, hello.dice))))
            for problem in self.owners.check_tray(hello.device, {d.id: d.kind for d in hello.dice}):
                self._problem(out, problem)
        if self._last_boot and hello.boot != self._last_boot:
            self.counters.reboots += 1
            log.info("%s: tray %s restarted (boot %s, was %s)", self.port, hello.device, hello.boot, self._last_boot)
            out.notices.append(TrayRebooted(self.port, hello.device, hello.boot, self._last_boot))
        self._last_boot = hello.boot
        self.hello = hello
        self._hello_wait = self.timing.hello_retry
        self._colours = {d.id: d.colour for d in hello.dice}
        self._kinds = {d.id: d.kind for d in hello.dice}

    def _roll(self, report: m.RollReport, out: Output, now: float) -> None:
        if self.hello is None:  # no device id to name it by yet; it will be resent after HELLO
            self._rejected(Reject.NO_HELLO, f"ROLL {report.seq} before HELLO")
            self._hurry(out, now)
            return
        device = self.hello.device
        unknown = self._unlisted(report)
        if unknown:
            self._rejected(Reject.BAD_DIE, unknown)
            self.counters.naks += 1
            out.send.append(self._frame(m.Nak(self._next(), report.boot, report.seq, NakReason.BAD_DIE)))
            self._problem(out, f"tray {device} sent a roll Touchline cannot use ({unknown}); roll again, and "
                               f"check the dice in the tray's config.py", once=False)
            return
        text = ",".join(map(str, report.dice))
        if self.seen.is_resend(device, report.boot, report.seq, text):
            self._rejected(Reject.DUPLICATE, f"ROLL {report.boot}#{report.seq} again (its ACK was lost)")
        else:
            epoch = self._epoch_of(device, report)
            if epoch is None:
                self._rejected(Reject.OUT_OF_ORDER, f"ROLL {report.boot}#{report.seq} after #"
                                                    f"{self.seen.last(device, report.boot).seq} with no restart seen")
                self._hurry(out, now)  # a tray that restarted answers with a HELLO numbered from 1
                return
            dice = tuple(DieResult(self.owners.die(device, d.id, d.kind, self._colours.get(d.id, "")), d.face)
                         for d in report.dice)
            roll = Roll(dice, Source.TRAY, device_label(device, report.boot, report.seq, epoch))
            self.seen.passed(device, report.boot, report.seq, text, epoch)
            self.counters.rolls += 1
            out.notices.append(RollReceived(roll))  # the session queues notices before it sends
        self.counters.acks += 1
        out.send.append(self._frame(m.Ack(self._next(), report.boot, report.seq)))

    def _epoch_of(self, device: str, report: m.RollReport) -> int | None:
        """The ``~n`` of a new roll's name, or None to hold the roll unanswered.

        Within one run of the tray its rolls come with rising numbers. After a restart it
        sends the rolls it kept (still rising), then those of its new run, numbered from low
        again: one fall in numbers for each restart seen (a HELLO or BEAT numbered lower),
        and that roll starts a new run of names. A fall with no restart seen is a replayed or
        stray frame, or a restart whose HELLO was lost: the roll is held and the host PINGs,
        so a tray that did restart says so and resends it."""
        key = (device, report.boot)
        last = self.seen.last(device, report.boot)
        if last is None:
            return self._restarts.get(key, 0)
        if report.seq > last.seq:
            return last.epoch
        if not self._fallbacks.get(key):
            return None
        self._fallbacks[key] -= 1
        return last.epoch + 1

    def _unlisted(self, report: m.RollReport) -> str:
        """Why a roll names dice its tray's HELLO did not list, or "" if it names none."""
        for die in report.dice:
            kind = self._kinds.get(die.id)
            if kind is None:
                listed = ", ".join(sorted(self._kinds)) or "none"
                return f"die {die.id!r} is not one its HELLO listed ({listed})"
            if kind != die.kind:
                return f"die {die.id!r} rolled as a {die.kind.value}, but its HELLO says it is a {kind.value}"
        return ""

    def _refused(self, frame: Frame, exc: m.MessageError, out: Output) -> None:
        reason = exc.reason
        self._rejected(reason, str(exc))
        if reason is Reject.WRONG_VERSION:  # it answers every PING: say it once
            self._problem(out, f"{exc}: update Touchline or flash the tray with firmware for this protocol version")
        if frame.type == "HELLO" and reason is Reject.BAD_FIELD:  # it answers every PING: say it once
            self._problem(out, f"the tray's HELLO cannot be read ({exc}): Touchline cannot name the tray, so none "
                               f"of its rolls is taken; its firmware must be fixed")
        boot = frame.get("boot") or ""
        if frame.type == "ROLL" and not boot and self.hello is not None:
            # Nothing names the roll, so nothing can stop its resends: no answer, told once.
            self._problem(out, f"tray {self.hello.device} sends rolls without a boot= field: they cannot be "
                               f"acknowledged or refused, and none is taken; its firmware must be fixed")
        if frame.type == "ROLL" and boot and self.hello is not None:
            # The NAK echoes the boot as sent (even one that breaks the grammar, say in lower
            # case), since the tray stops resending only a roll named exactly as it named it.
            why = NakReason.BAD_DIE if reason is Reject.BAD_DIE else NakReason.MALFORMED
            self.counters.naks += 1
            out.send.append(self._frame(m.Nak(self._next(), boot, frame.seq, why)))
            self._problem(out, f"tray {self.hello.device} sent a roll Touchline cannot use ({exc}); roll again "
                               f"(and report the tray's fault)", once=False)

    def _problem(self, out: Output, message: str, once: bool = True) -> None:
        """Tell people (a ``TrayProblem``); the log gets a debug line, so it is shown once."""
        if once and message in self._told:
            return
        self._told.add(message)
        log.debug("%s: %s", self.port, message)
        out.notices.append(TrayProblem(self.port, message))

    def _rejected(self, reason: Reject, detail: str) -> None:
        self.counters.rejected[reason] += 1
        # Wrong versions and bad dice are shown to people as problems: not logged loudly as well.
        loud = reason in (Reject.UNKNOWN_TYPE, Reject.WRONG_DIRECTION, Reject.BAD_FIELD)
        if loud and detail not in self._warned:
            self._warned.add(detail)
            log.warning("%s: ignored: %s", self.port, detail)
        else:
            log.debug("%s: ignored (%s): %s", self.port, reason.value, detail)

    # --- sending -------------------------------------------------------------------------------
    def _hurry(self, out: Output, now: float) -> None:
        """PING so that a damaged or early roll comes again at once. With no HELLO yet, as
        often as the handshake's back-off allows, not once per resent roll."""
        if self.hello is None:
            if now - self._last_ping >= self._hello_wait:
                self._ping(out, now)
                self._hello_wait = min(self._hello_wait * 2, self.timing.hello_retry_max)
        elif now - self._last_ping >= self.timing.hurry:
            self._ping(out, now)

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
