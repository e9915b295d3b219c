"""The demo: a scripted Fublet match played on a rendered table, seen by the rendered camera,
with its dice thrown in the simulated tray. Nothing is faked past the devices: the figures
the director moves are rendered, the vision thread finds them and proposes moves, the tray
simulator sends framed rolls over a pty, and the rules core decides as in a real match.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import replace
from typing import Callable

from companion.fublet import commands as c
from companion.fublet.components import Action, load_components, shipped_team
from companion.fublet.model import Phase, ShotPlan
from companion.teams import PlayerRef, Team

log = logging.getLogger(__name__)

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731

# Kick-off shape (movement squares); Home defends x = 0, Away is its mirror image.
HOME_SHAPE = {1: (1, 15), 2: (8, 4), 3: (8, 12), 4: (8, 19), 5: (8, 27), 6: (16, 4), 7: (16, 12), 8: (18, 19),
              10: (16, 27), 9: (22, 12), 11: (22, 19)}
SHAPE = {**{H(n): ms for n, ms in HOME_SHAPE.items()},
         **{A(n): (47 - ms[0], 31 - ms[1]) for n, ms in HOME_SHAPE.items()}}


def shape_for(board) -> dict[PlayerRef, tuple[int, int]]:
    """SHAPE on another board's grid (the demo camera watching another game's table): the same
    places as shares of the pitch."""
    if (board.ms_cols, board.ms_rows) == (48, 32):
        return SHAPE
    return {ref: (min(board.ms_cols - 1, ms[0] * board.ms_cols // 48),
                  min(board.ms_rows - 1, ms[1] * board.ms_rows // 32)) for ref, ms in SHAPE.items()}


class DemoTable:
    """A rendered table: the board, its figures, and a hand that moves them when told.

    ``frames()`` yields ``(image, time)`` for ``vision.sources.IterSource``: idle frames, or the
    frames of a queued move (a hand comes down, lifts the figure, carries it, lets go)."""

    def __init__(self, board, size: tuple[int, int] = (1920, 1080), fps: float = 30.0, seed: int = 3) -> None:
        from vision.config import MarkerMap, MarkerSet
        from vision.synth import random_scene

        self.markers = MarkerSet()
        self.marker_map = MarkerMap.default(self.markers)
        self.marker_of = {e.player: m for m, e in self.marker_map.entries.items()}
        scene = random_scene(seed, board, self.markers, size=size, hand=False, distortion=0.0, look_strength=0.3)
        self.board = board
        self.fps = fps
        self.scene = replace(scene, figures=(), hands=())
        self._moves: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._frame = 0

    def set_up(self, positions: dict[PlayerRef, tuple[int, int]]) -> None:
        """Stand figures on their squares before the camera starts (the coaches set up)."""
        from vision.synth import FigurePose

        figures = []
        for ref, ms in positions.items():
            x, y = self.board.ms_center_mm(ms)
            figures.append(FigurePose(self.marker_of[ref], x, y, 0.0 if ref.team is Team.HOME else 180.0,
                                      team=ref.team.value))
        self.scene = replace(self.scene, figures=tuple(figures))

    def move(self, ref: PlayerRef, ms: tuple[int, int], facing: float | None = None) -> None:
        """A coach's hand moves a figure to a square (queued; the camera sees it happen)."""
        from vision.scenario import Move

        x, y = self.board.ms_center_mm(ms)
        marker = self.marker_of[ref]
        current = next(f for f in self.scene.figures if f.marker == marker)
        self._moves.put(Move(marker, x, y, current.facing_deg if facing is None else facing))

    def stop(self) -> None:
        self._stop.set()

    def frames(self):
        from vision.scenario import Idle, frames
        from vision.synth import render

        while not self._stop.is_set():
            try:
                step = self._moves.get_nowait()
            except queue.Empty:
                step = Idle(1)
            for scene, _t, _truth in frames(self.scene, [step], self.fps, vary_look=False, seed=self._frame):
                image, _ = render(scene)
                self._frame += 1
                yield image, self._frame / self.fps
                last = scene
            if not isinstance(step, Idle):
                self.scene = replace(last, hands=())


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
