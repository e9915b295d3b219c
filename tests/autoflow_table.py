"""A table for counting a coach's taps: the tablet's controller, a dice tray and a camera,
all simulated, all deterministic.

The tray is the reference firmware's own core (``firmware/traycore.py``) joined to the host's
``TrayLink`` in memory with a fake clock: a throw goes over the framed protocol (HELLO lists
the dice, ROLL, ACK) and its notices reach the controller's queue as the serial thread would
put them there, then the controller pumps them on its worker, as the session's ``wake`` does.
With ``wire="pty"`` the tray is the simulator on a pseudo-terminal instead, reached through
the app's own serial session and the controller's worker thread. The camera is a stream of
committed sightings handed to ``Controller.sighting``, where the
app's camera relay hands the live tracker's. A coach's touch is a call of the controller the
live screen makes (submit, choose, keypad, software dice, a tapped move, override, undo):
``tap`` counts it, as a declaration or as something else.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.sightings import Sighting
from companion.teams import PlayerRef
from firmware_bridge.firmware import traycore
from firmware_bridge.link import TrayLink
from firmware_bridge.owners import GAME_DICE, DiceOwners
from ui.controller import Controller

DECLARATION = "declaration"


def tray_dice(game: str) -> list[tuple[str, str, str]]:
    """The reference tray's dice for a game, as its HELLO lists them: (kind, id, colour)."""
    dice = GAME_DICE[game]["dice"]
    return [(entry["kind"], die_id, entry["colour"]) for die_id, entry in dice.items()]


class MemoryTray:
    """The firmware's tray and the host's link, joined in memory with a fake clock."""

    def __init__(self, ctl: Controller, game: str, device: str = "MEM-1") -> None:
        self.ctl = ctl
        self.now = 0.0
        self.to_host = bytearray()
        self.link = TrayLink("mem", DiceOwners.for_game(game))
        self.tray = traycore.Tray(device, tray_dice(game), "0000BEEF", self.to_host.extend, traycore.MemoryStore())
        self.tray.start(self._ms())
        self._deliver(self.link.open(self.now))
        self.settle()

    def _ms(self) -> int:
        return int(self.now * 1000)

    def _deliver(self, out) -> None:
        if out.notices:
            for notice in out.notices:
                self.ctl.notices.put(notice)   # the session's thread puts them on this queue...
            self.ctl.wake_tray()               # ...and wakes the controller's worker
        for data in out.send:
            self.tray.receive(data, self._ms())

    def step(self, dt: float = 0.01) -> None:
        self.now += dt
        self.tray.poll(self._ms())
        data, self.to_host[:] = bytes(self.to_host), b""
        self._deliver(self.link.receive(data, self.now))
        self._deliver(self.link.tick(self.now))

    def settle(self, steps: int = 50) -> None:
        for _ in range(steps):
            self.step()
            if not self.tray.pending and not self.to_host:
                break

    def throw(self, faces: dict[str, int]) -> None:
        """Dice thrown in the tray: die id -> face."""
        seq = self.tray.roll(list(faces.items()), self._ms())
        assert seq is not None, "the tray's queue is full"
        self.settle()
        assert not self.tray.pending, "the host did not acknowledge the roll"


class PtyTray:
    """The tray simulator (``firmware_bridge.sim``: the firmware's core on a pseudo-terminal)
    reached through the app's own path: ``Controller.start_tray`` opens the port, its session
    thread frames and acknowledges the rolls and wakes the controller's worker."""

    def __init__(self, ctl: Controller, game: str) -> None:
        from firmware_bridge.sim import TraySim

        self.ctl = ctl
        self.sim = TraySim(dice=tray_dice(game), seed=7)
        self.sim.start()
        ctl.start_tray(str(self.sim.link), owners=DiceOwners.for_game(game))
        deadline = time.monotonic() + 120   # a guard against hangs only: a loaded machine is slow
        while ctl.view.tray != "ok" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ctl.view.tray == "ok", ctl.view.log[-3:]

    def throw(self, faces: dict[str, int]) -> None:
        before = len(self.sim.made)
        self.sim.roll("+".join(faces), list(faces.values()))
        assert self.sim.wait_settled(before + 1, 120), "the host did not acknowledge the roll"
        self.ctl.wait()   # the session woke the worker before it acknowledged: the roll is pumped

    def close(self) -> None:
        self.ctl.stop_tray()
        self.sim.stop()


class SyncController(Controller):
    """The app's controller with its worker thread, each call waited for: commands still run on
    the worker (as in the app), and the scenario reads the view they posted."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(threaded=True, data_dir=data_dir)

    def _queue(self, job) -> None:
        super()._queue(job)
        if threading.current_thread() is not self._worker:
            self.wait()


@dataclass
class Tap:
    kind: str     # DECLARATION, or what else the coach had to do
    what: str


@dataclass
class Table:
    """A controller (no worker thread: each call runs to its end), a tray and a camera."""

    data_dir: Path
    game: str
    wire: str = "memory"   # "memory": no threads, a fake clock; "pty": the simulator, the app's threads
    ctl: Controller = field(init=False)
    tray: MemoryTray | PtyTray | None = field(init=False, default=None)
    taps: list[Tap] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        if self.wire == "pty":
            self.ctl = SyncController(self.data_dir)
        else:
            self.ctl = Controller(threaded=False, data_dir=self.data_dir)

    # --- devices -----------------------------------------------------------------------------------
    def connect_tray(self) -> None:
        self.tray = PtyTray(self.ctl, self.game) if self.wire == "pty" else MemoryTray(self.ctl, self.game)

    def connect_camera(self) -> None:
        self.ctl.set_health("camera", "ok", "reading the board")

    def see(self, ref: PlayerRef | None, point_mm: tuple[float, float] | None, facing: float | None = None) -> None:
        """The camera commits a sighting: a figure settled at a board point (None: off the pitch)."""
        x, y = point_mm if point_mm is not None else (None, None)
        self.ctl.sighting(Sighting(ref, x, y, facing))

    # --- the coach ---------------------------------------------------------------------------------
    def tap(self, kind: str, what: str, call: Callable[[], Any]) -> None:
        self.taps.append(Tap(kind, what))
        call()

    def declare(self, command: Any, what: str) -> None:
        self.tap(DECLARATION, what, lambda: self.ctl.submit(command))

    def start_counting(self) -> None:
        self.taps = []

    @property
    def view(self):
        return self.ctl.view

    @property
    def state(self):
        return self.ctl.view.state

    def close(self) -> None:
        if isinstance(self.tray, PtyTray):
            self.tray.close()
        self.ctl.close()
