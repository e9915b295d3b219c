"""A simulated dice tray on a pseudo-terminal, for tests, the benchmark, demos and
``touchline tray-sim``.

The tray's behaviour is the reference firmware's own (``firmware/traycore.py``, run here
under CPython), so the simulator is the documented tray by construction. Around it: a pty
whose path stays put (a symlink, re-pointed when the "cable" is plugged back in), seeded
faces, and fault injection: lost, changed and repeated bytes and frames, disconnects,
restarts in the middle of a frame, and a slow line.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import random
import re
import selectors
import tempfile
import threading
import time
import tty
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .faults import Faults, mangle
from .firmware import traycore, trayproto

log = logging.getLogger(__name__)

# The reference tray: Fublet's dice. (kind, id, colour)
REFERENCE_DICE: tuple[tuple[str, str, str], ...] = (
    ("d10", "home-black", "black"), ("d10", "home-white", "white"),
    ("d10", "away-black", "black"), ("d10", "away-white", "white"),
    ("d8", "green", "green"),
)
REFERENCE_GROUPS: dict[str, tuple[str, ...]] = {
    "home": ("home-black", "home-white"), "away": ("away-black", "away-white"), "scatter": ("green",),
}


_ROLL_HEAD = re.compile(rb"\$ROLL (\d+) boot=([0-9A-F]{8}) ")


@dataclass(frozen=True, slots=True)
class Made:
    """A roll the simulated tray made: how the host must name it, and its dice."""

    boot: str
    seq: int
    dice: str  # wire form: "d10:home-black:4,d10:home-white:0"


class TraySim:
    """A tray on a pty. ``start()`` returns the stable path to open; commands (``roll``,
    ``disconnect``, ``reboot``) may come from any thread and run in the tray's own."""

    def __init__(self, *, link: str | os.PathLike | None = None, device_id: str = "SIM-0001",
                 dice: Sequence[tuple[str, str, str]] = REFERENCE_DICE,
                 groups: dict[str, tuple[str, ...]] | None = None,
                 faults: Faults = Faults(), seed: int | None = None, beat_ms: int = traycore.BEAT_MS,
                 resend_ms: int = traycore.RESEND_MS, tumble: float = 0.0) -> None:
        self.dice = tuple(dice)
        ids = tuple(die_id for _, die_id, _ in self.dice)
        self.groups = dict(groups if groups is not None else
                           (REFERENCE_GROUPS if set(ids) >= {i for g in REFERENCE_GROUPS.values() for i in g} else {}))
        self.groups.setdefault("all", ids)
        self.device_id = device_id
        self.faults = faults
        self.rng = random.Random(seed)
        self.beat_ms, self.resend_ms, self.tumble = beat_ms, resend_ms, tumble
        self._own_dir = None
        if link is None:
            self._own_dir = tempfile.mkdtemp(prefix="touchline-tray-")
            link = Path(self._own_dir) / "tray"
        self.link = Path(link)
        self.store = traycore.MemoryStore()   # the tray's flash: survives reboots
        self.made: list[Made] = []
        self.first_sent: dict[tuple[str, int], float] = {}   # (boot, seq) -> perf_counter of first write
        self.returned: list[float] = []       # monotonic times the port came back after a disconnect
        self.boots: list[str] = []
        self.tray: traycore.Tray | None = None
        self._commands: queue.SimpleQueue = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        self._stop = threading.Event()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._master = self._slave = -1
        self._out = bytearray()
        self._next_byte_at = 0.0
        self._down_until = 0.0
        self._scheduled: list[tuple[float, tuple]] = []
        self._unrun = 0                      # commands queued and not yet done
        self.on_made = None                  # callback(Made) for each roll made (the CLI prints them)

    # --- control (any thread) -------------------------------------------------------------------
    def start(self) -> str:
        self._open_pty()
        self._boot(mid_frame=False)
        self._thread = threading.Thread(target=self._run, name="tray-sim", daemon=True)
        self._thread.start()
        return str(self.link)

    def stop(self) -> None:
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(5)
        self._close_pty()
        os.close(self._wake_r)
        os.close(self._wake_w)
        if self._own_dir:
            try:
                os.rmdir(self._own_dir)
            except OSError:
                pass

    def __enter__(self) -> "TraySim":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def roll(self, group: str = "home", faces: Sequence[int] | None = None) -> None:
        """Roll a group of dice (a name in ``groups``, or die ids joined by '+'), with random
        faces or the ones given."""
        ids = self.ids_of(group)
        if faces is not None:
            if len(faces) != len(ids):
                raise ValueError(f"{group} is {len(ids)} dice; give {len(ids)} faces, not {len(faces)}")
            kinds = {die_id: kind for kind, die_id, _ in self.dice}
            for die_id, face in zip(ids, faces):
                low, high = traycore.KINDS[kinds[die_id]]
                if not low <= face <= high:
                    raise ValueError(f"{die_id} is a {kinds[die_id]}: faces {low}..{high}, not {face}")
        self._command(("roll", ids, tuple(faces) if faces is not None else None))

    def roll_raw(self, dice: str) -> None:
        """Send a ROLL with these dice as given, unchecked (``d10:home-black:12``): a faulty tray."""
        self._command(("raw", dice))

    def disconnect(self, down: float = 0.3) -> None:
        """Pull the cable: the port disappears for ``down`` seconds; the tray keeps running."""
        self._command(("disconnect", down))

    def reboot(self, mid_frame: bool = True) -> None:
        """Restart the tray (new boot id), optionally cutting a frame in half first."""
        self._command(("reboot", mid_frame))

    def ids_of(self, group: str) -> tuple[str, ...]:
        if group in self.groups:
            return self.groups[group]
        ids = tuple(group.split("+"))
        known = {die_id for _, die_id, _ in self.dice}
        if not all(i in known for i in ids):
            raise ValueError(f"unknown dice {group!r}: name a group ({', '.join(self.groups)}) or die ids joined "
                             f"by '+' ({', '.join(sorted(known))})")
        return ids

    @property
    def pending(self) -> int:
        """Rolls the tray holds unacknowledged."""
        return len(self.store.rolls)

    @property
    def backlog(self) -> int:
        """Rolls unacknowledged plus commands not yet run: what pacing should look at."""
        return len(self.store.rolls) + self._unrun

    def wait_settled(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` rolls were made and every one was acknowledged."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not (len(self.made) >= count and not self.store.rolls):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every command given so far has run and every roll was acknowledged."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._unrun or self._scheduled or self.store.rolls:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def _command(self, command: tuple) -> None:
        with self._changed:
            self._unrun += 1
        self._commands.put(command)
        os.write(self._wake_w, b"x")

    # --- the tray's thread ------------------------------------------------------------------------
    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._wake_r, selectors.EVENT_READ)
        registered = -1
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                if self._master < 0 and now >= self._down_until:
                    self._open_pty()
                    self.returned.append(time.monotonic())
                if self._master != registered:
                    if registered >= 0:
                        selector.unregister(registered)
                    registered = self._master
                    if registered >= 0:
                        selector.register(registered, selectors.EVENT_READ)
                for key, _ in selector.select(timeout=0.005):
                    if key.fd == self._wake_r:
                        os.read(self._wake_r, 4096)
                    else:
                        self._read_host()
                self._run_commands()
                self._run_scheduled()
                if not self._out:  # on a slow line the tray waits for its UART, as the real one does
                    self.tray.poll(self._ms())
                self._flush()
                with self._changed:
                    self._changed.notify_all()
        except Exception:  # a bug here must not hang the tests silently
            log.exception("tray simulator stopped")
            raise
        finally:
            selector.close()

    def _ms(self) -> int:
        return int(time.monotonic() * 1000)

    def _read_host(self) -> None:
        try:
            data = os.read(self._master, 4096)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EIO):  # EIO: nobody has the port open
                return
            raise
        data = mangle(data, self.rng, self.faults.reply_drop, self.faults.reply_corrupt)
        self.tray.receive(data, self._ms())

    def _run_commands(self) -> None:
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                return
            try:
                self._run_command(command)
            finally:
                with self._changed:
                    self._unrun -= 1

    def _run_command(self, command: tuple) -> None:
        name = command[0]
        if name == "roll":
            ids, faces = command[1], command[2]
            if self.tumble > 0:
                self.tray.tumbling(ids, self._ms())
                self._scheduled.append((time.monotonic() + self.tumble, ("throw", ids, faces)))
            else:
                self._throw(ids, faces)
        elif name == "raw":
            self.tray.pending.append((self.tray.boot, self.tray._next(), command[1]))
            self.store.save(self.tray.pending)
            self.tray.poll(self._ms())
        elif name == "disconnect":
            self._close_pty()
            self._down_until = time.monotonic() + command[1]
        elif name == "reboot":
            self._boot(mid_frame=command[1])

    def _run_scheduled(self) -> None:
        now = time.monotonic()
        due = [item for item in self._scheduled if item[0] <= now]
        if not due:
            return
        with self._changed:
            self._scheduled = [item for item in self._scheduled if item[0] > now]
        for _, (_, ids, faces) in due:
            self._throw(ids, faces)

    def _throw(self, ids: tuple[str, ...], faces: tuple[int, ...] | None) -> None:
        now = self._ms()
        if faces is None:
            chosen = [(i, traycore.random_face(self._kind(i), self.rng.randbytes)) for i in ids]
        else:
            chosen = list(zip(ids, faces))
        seq = self.tray.roll(chosen, now)
        if seq is not None:
            boot, seq, text = self.tray.pending[-1]
            self.made.append(Made(boot, seq, text))
            if self.on_made is not None:
                self.on_made(self.made[-1])

    def _kind(self, die_id: str) -> str:
        return next(kind for kind, i, _ in self.dice if i == die_id)

    def _boot(self, mid_frame: bool) -> None:
        if mid_frame and self.tray is not None:
            frame = self.tray.pending and trayproto.encode("ROLL", self.tray.pending[0][1],
                                                           [("boot", self.tray.pending[0][0]),
                                                            ("dice", self.tray.pending[0][2])])
            frame = frame or trayproto.encode("BEAT", self.tray.seq + 1, [("pending", 0)])
            self._write(frame[:self.rng.randrange(1, len(frame) - 1)])
        boot = "%08X" % self.rng.getrandbits(32)
        self.boots.append(boot)
        self.tray = traycore.Tray(self.device_id, list(self.dice), boot, self._write, self.store,
                                  beat_ms=self.beat_ms, resend_ms=self.resend_ms)
        self.tray.start(self._ms())

    # --- the line ----------------------------------------------------------------------------------
    def _write(self, frame: bytes) -> None:
        sent = _ROLL_HEAD.match(frame)
        if sent and frame.endswith(b"\r\n"):  # when a roll first leaves: the benchmark's clock starts
            self.first_sent.setdefault((sent.group(2).decode(), int(sent.group(1))), time.perf_counter())
        if self._master < 0:
            return  # the cable is out: the tray's bytes go nowhere
        copies = 2 if self.faults.duplicate and self.rng.random() < self.faults.duplicate else 1
        for _ in range(copies):
            self._out += mangle(frame, self.rng, self.faults.drop, self.faults.corrupt)
        self._flush()

    def _flush(self) -> None:
        if self._master < 0 or not self._out:
            self._out.clear()
            return
        size = len(self._out)
        if self.faults.baud:
            now = time.monotonic()
            self._next_byte_at = max(self._next_byte_at, now - 0.05)
            size = min(size, int((now - self._next_byte_at) * self.faults.baud / 10))
            if size <= 0:
                return
            self._next_byte_at += size * 10 / self.faults.baud
        try:
            written = os.write(self._master, bytes(self._out[:size]))
        except BlockingIOError:
            written = 0
        except OSError:
            written = len(self._out)
        if written == 0 and len(self._out) > 4096:  # nobody reads: a real line loses what it cannot carry
            written = len(self._out)
        del self._out[:written]

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)   # no echo, no line editing: bytes pass as they are
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        name = os.ttyname(slave)
        fresh = self.link.with_name(self.link.name + ".new")
        try:
            fresh.unlink()
        except FileNotFoundError:
            pass
        os.symlink(name, fresh)
        os.replace(fresh, self.link)   # atomic: a host never sees a half-made link
        self._out.clear()

    def _close_pty(self) -> None:
        try:
            self.link.unlink()
        except FileNotFoundError:
            pass
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1
        self._out.clear()
