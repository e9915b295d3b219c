"""The demo: a scripted Fublet match played on a rendered table, seen by the rendered camera,
with its dice thrown in the simulated tray. Nothing is faked past the devices: the figures
the director moves are rendered, the vision thread finds them and proposes moves, the tray
simulator sends framed rolls over a pty, and the rules core decides as in a real match.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from companion.fublet import commands as c
from companion.fublet.components import Action, load_components, shipped_team
from companion.fublet.model import Phase, ShotPlan
from companion.teams import PlayerRef, Team

from .demo_table import SHAPE, A, DemoTable, H

log = logging.getLogger(__name__)


class DemoDirector:
    """Plays the scripted match through the controller, the rendered table and the tray.

    ``on_done(error)`` is called from the director's thread at the end ("" when it went well)."""

    def __init__(self, controller, on_done: Callable[[str], None] | None = None, size=(1920, 1080),
                 wait_s: float = 60.0, pace: float = 0.0, camera=None) -> None:
        self.ctl = controller
        self.camera = camera  # the app's CameraService, so its preview and calibration work in the demo
        self.pace = pace  # seconds between steps, so people watching can follow
        self.on_done = on_done or (lambda error: None)
        self.size = size
        self.wait_s = wait_s
        self.table: DemoTable | None = None
        self.sim = None
        self.worker = None
        self._relay = None
        self._thread: threading.Thread | None = None
        self.steps: list[str] = []

    # --- running -----------------------------------------------------------------------------------
    def start(self) -> "DemoDirector":
        self._thread = threading.Thread(target=self._run, name="touchline-demo", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self.table is not None:
            self.table.stop()
        if self.worker is not None:
            self.worker.stop()
        if self._relay is not None:
            self._relay.stop()
        if self.sim is not None:
            self.sim.stop()

    def _run(self) -> None:
        error = ""
        try:
            self.play()
        except Exception as exc:  # the demo says what went wrong on screen rather than hang
            log.exception("demo failed")
            error = f"the demo stopped: {exc}"
        self.on_done(error)

    # --- waiting for the rules core ---------------------------------------------------------------------
    @property
    def state(self):
        return self.ctl.view.state

    def wait(self, what: str, check: Callable[[], bool]) -> None:
        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            if self.ctl.idle and self.ctl.view.active and check():
                self.steps.append(what)
                if self.pace:
                    time.sleep(self.pace)
                return
            time.sleep(0.05)
        raise TimeoutError(f"waited {self.wait_s:g} s for {what}; last message: {self.ctl.view.error or 'none'}")

    def roll(self, group: str, faces: list[int], what: str) -> None:
        """Throw dice in the simulated tray; the roll arrives framed over the serial line."""
        before = self.ctl.match.last_seq if self.ctl.match else 0
        self.sim.roll(group, faces)
        self.wait(what, lambda: self.ctl.match.last_seq > before)

    def submit(self, command, what: str) -> None:
        before = self.ctl.match.last_seq
        self.ctl.submit(command)
        self.wait(what, lambda: self.ctl.match.last_seq > before or bool(self.ctl.view.error))
        if self.ctl.match.last_seq == before:
            raise RuntimeError(f"{what} was refused: {self.ctl.view.error}")

    def hand_move(self, ref: PlayerRef, ms: tuple[int, int], what: str) -> None:
        self.table.move(ref, ms)
        self.wait(what, lambda: self.state.players[ref].ms == ms)

    def pass_phase(self, phase: Phase) -> None:
        while self.state.phase is phase:
            team = self.state.turn or Team.HOME
            self.submit(c.PassTurn(team), f"{team.label} passes the {phase.label}")

    # --- the match ---------------------------------------------------------------------------------------
    def play(self) -> None:
        from firmware_bridge.sim import TraySim
        from vision.live import VisionWorker
        from vision.sources import IterSource

        from .camera import CameraRelay, synthetic_setup

        components = load_components()
        self.ctl.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), components), seed=11)
        self.wait("a new match", lambda: self.state is not None)
        # The devices: a simulated tray on a pty, and the rendered camera.
        self.sim = TraySim(seed=5)
        self.sim.start()
        self.ctl.start_tray(str(self.sim.link))
        self.wait("the dice tray", lambda: self.ctl.view.tray == "ok")
        self.table = DemoTable(components.board, self.size)
        self.table.set_up(SHAPE)
        if self.camera is not None:
            self.camera.start("demo", table=self.table)
        else:
            setup = synthetic_setup(self.table)
            self.worker = VisionWorker(lambda: IterSource(self.table.frames(), "demo table"), setup,
                                       stop_at_end=False).start()
            self._relay = CameraRelay(self.worker, self.ctl).start()

        self.roll("home-black", [7], "Home's opening roll")
        self.roll("away-black", [3], "Away's opening roll")
        self.submit(c.ChooseBoard(Team.HOME, "high_short_offensive"), "Home's tactical board")
        self.submit(c.ChooseBoard(Team.AWAY, "low_long_offensive"), "Away's tactical board")
        self.wait("the camera to see the line-up",
                  lambda: all(self.state.players[r].ms == ms for r, ms in SHAPE.items()))
        self.submit(c.KickOff(A(8)), "the kick-off")
        # Round 1: a short pass to #9; Home steps up in the Movement phase (seen by the camera).
        self.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(12, 9)), "Away's short pass")
        self.roll("away", [1, 2], "the pass's dice")
        self.hand_move(H(8), (20, 19), "Home's #8 moving up")
        self.pass_phase(Phase.MOVEMENT)
        self.pass_phase(Phase.TACTICAL_MOVEMENT)
        self.wait("#9 to have the ball", lambda: self.state.ball.carrier == A(9))
        # Round 2: #9 keeps the ball and runs at goal; his figure goes where the rules put him.
        self.submit(c.Declare(A(9), Action.KEEP_AND_RUN, target_ms=(18, 17)), "#9's run")
        self.hand_move(A(9), (18, 17), "the camera to see #9's run")
        self.pass_phase(Phase.MOVEMENT)
        self.pass_phase(Phase.TACTICAL_MOVEMENT)
        # Round 3: a long shot; the keeper's save fails: a goal.
        plan = ShotPlan(tokens=(10, 10, 5, 5, 5), save_token=5, save_ms=(1, 14))
        self.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7), shot=plan), "#9's long shot")
        self.roll("away", [0, 5], "the shot's dice")
        self.pass_phase(Phase.MOVEMENT)
        self.roll("home", [9, 6], "the keeper's save")
        self.wait("the goal", lambda: self.state.score[Team.AWAY] == 1)
