"""Session: a thread that runs a ``TrayLink`` over a port, and reopens the port with
backoff when it goes away. Notices (rolls first of all) go on a ``queue.Queue``; a roll's
notice is on the queue before its ACK is written, so an acknowledged roll is never lost by
the host. ``wake`` (e.g. a Kivy ``Clock.create_trigger``) is called after each put.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Callable

import serial

from .link import Counters, Output, SeenRolls, Timing, TrayLink
from .notices import Notice, TrayDisconnected, TrayProblem
from .owners import DiceOwners
from .transport import BAUDRATE, PortError, PortTrouble, open_port
from .wire import FlashColour

log = logging.getLogger(__name__)

Opener = Callable[[], serial.SerialBase]


class Backoff:
    """Waits between reopen attempts: doubling from ``first`` up to ``cap``. The cap is
    what bounds how late a reconnect can be once the port is back."""

    def __init__(self, first: float = 0.05, cap: float = 0.25) -> None:
        self.first, self.cap = first, cap
        self._next = first

    def next(self) -> float:
        wait = self._next
        self._next = min(self._next * 2, self.cap)
        return wait

    def reset(self) -> None:
        self._next = self.first


class TraySession:
    """Keeps one tray connected and its rolls flowing into ``notices``.

    ``port`` is what ``serial_for_url`` accepts; ``opener`` replaces opening it (tests hand
    in a ``loop://`` port they also write to; ``discovery`` hands in one it found).
    """

    def __init__(self, port: str, notices: "queue.Queue[Notice] | None" = None, owners: DiceOwners | None = None,
                 *, baudrate: int = BAUDRATE, opener: Opener | None = None, wake: Callable[[], None] | None = None,
                 timing: Timing = Timing(), backoff: Backoff | None = None) -> None:
        self.port = port
        self.notices: queue.Queue[Notice] = notices if notices is not None else queue.Queue()
        self.counters = Counters()
        self.link = TrayLink(port, owners, SeenRolls(), timing, self.counters)
        self._opener = opener or (lambda: open_port(port, baudrate))
        self._wake = wake
        self._backoff = backoff or Backoff()
        self._stop = threading.Event()
        self._outbox: queue.SimpleQueue[FlashColour] = queue.SimpleQueue()  # the I/O thread frames them
        self._thread: threading.Thread | None = None
        self._reported: set[str] = set()
        self.connected = threading.Event()   # set while a tray has said HELLO on the open port

    # --- control -------------------------------------------------------------------------------
    def start(self) -> "TraySession":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"tray {self.port}", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> "TraySession":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def flash(self, colour: FlashColour) -> None:
        """Ask the tray to show a colour (say, green for a passed test). Any thread."""
        self._outbox.put(colour)

    # --- the thread ----------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = self._opener()
            except PortError as exc:
                self._open_failed(exc)
                self._stop.wait(self._backoff.next())
                continue
            self._reported.clear()
            reason = self._serve(port)
            self.connected.clear()
            self._put([TrayDisconnected(self.port, reason)])
            if not self._stop.is_set():
                self._stop.wait(self._backoff.next())

    def _open_failed(self, exc: PortError) -> None:
        if exc.trouble is PortTrouble.MISSING and self.counters.connects:
            log.debug("%s", exc)  # unplugged after a connection: TrayDisconnected said so already
            return
        if str(exc) not in self._reported:  # once per outage, not once per attempt
            self._reported.add(str(exc))
            log.debug("%s", exc)  # the problem notice is what people see: not twice
            self._put([TrayProblem(self.port, str(exc))])

    def _serve(self, port: serial.SerialBase) -> str:
        """Run the link until the port fails, the tray falls silent, or stop(); returns why."""
        try:
            out = self.link.open(time.monotonic())
            while True:
                self._emit(port, out)
                if out.reconnect:
                    return out.reconnect
                if self._stop.is_set():
                    return "stopped"
                data = port.read(port.in_waiting or 1)
                now = time.monotonic()
                out = self.link.receive(data, now) if data else Output()
                later = self.link.tick(now)
                out.send += later.send
                out.notices += later.notices
                out.reconnect = out.reconnect or later.reconnect
                while True:
                    try:
                        out.send.append(self.link.flash(self._outbox.get_nowait()))
                    except queue.Empty:
                        break
        except (serial.SerialException, OSError) as exc:
            return f"the port failed: {exc}"
        finally:
            try:
                port.close()
            except Exception:  # closing a port that vanished can fail too; it is closed either way
                pass

    def _emit(self, port: serial.SerialBase, out: Output) -> None:
        self._put(out.notices)  # before the ACKs: an acknowledged roll must already be queued
        if self.link.hello is not None and not self.connected.is_set():
            self.connected.set()
            self._backoff.reset()
        for data in out.send:
            port.write(data)

    def _put(self, notices: list[Notice]) -> None:
        for notice in notices:
            self.notices.put(notice)
        if notices and self._wake is not None:
            self._wake()
