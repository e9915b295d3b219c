"""The demo: a highlight of a whole Fublet match played on a rendered table, seen by the
rendered camera, with its dice thrown in the simulated tray. Nothing is faked past the
devices: the figures the director moves are rendered, the vision thread finds them and
proposes moves, the tray simulator sends framed rolls over a pty, and the rules core decides
as in a real match. What is played and said is ui/demo_script.py; this module owns the
devices, the waiting, and the captions the app shows (ui/demo_app.py).
"""

from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

from companion.fublet import commands as c
from companion.fublet.components import load_components, shipped_team
from companion.fublet.model import Phase
from companion.teams import PlayerRef, Team

from .demo_script import CHAPTERS, highlight, owner
from .demo_table import SHAPE, DemoTable

log = logging.getLogger(__name__)

DICE_COLOURS = {"home": ("black", "white"), "away": ("black", "white"), "home-black": ("black",),
                "away-black": ("black",)}
FAST = 0.2           # the share of the pace between steps while rounds are skipped through
READING_WPS = 4.5    # words a second a newcomer reads a caption at (at pace 1); the steps after it add more
SETTLED_FRAMES = 10  # idle camera frames after a hand lets go: the camera has seen it settle


@dataclass(frozen=True)
class Caption:
    """What the demo says now: its chapter, a sentence, and the dice tray's last roll."""

    chapter: int = 0              # 1-based; 0 before the first
    title: str = ""
    text: str = ""
    roll: tuple[tuple[str, int], ...] = ()   # (die colour, face) as the tray read them
    roll_by: str = ""             # whose dice: "Harbour Athletic's"
    chapters: int = len(CHAPTERS)


class DemoStopped(Exception):
    """The demo was stopped (a person tapped Stop, Watch again, or left for a match of their own)."""


class DemoDirector:
    """Plays the highlight through the controller, the rendered table and the tray.

    ``on_done(error)`` is called from the director's thread at the end ("" when it went well,
    "stopped" when it was stopped). ``on_caption(caption)`` and ``on_gesture(name, value)``
    are called from the same thread whenever the demo says something or shows a touch on the
    tablet ("override" True/False, "select" a figure or None, "report"); the app hands them to
    its UI thread."""

    def __init__(self, controller, on_done: Callable[[str], None] | None = None, size=(1280, 720),
                 wait_s: float = 300.0, pace: float = 0.0, camera=None,
                 on_caption: Callable[[Caption], None] | None = None,
                 on_gesture: Callable[[str, object], None] | None = None) -> None:
        self.ctl = controller
        self.camera = camera  # the app's CameraService, so its preview and calibration work in the demo
        self.pace = pace  # seconds between steps, so people watching can follow
        self.on_done = on_done or (lambda error: None)
        self.on_caption = on_caption or (lambda caption: None)
        self.on_gesture = on_gesture or (lambda name, value: None)
        self.size = size      # the rendered frames: 720p reads every cap, in a third of 1080p's time
        self.wait_s = wait_s  # only ends a hung demo: a loaded machine takes far longer than a quiet one
        self.table: DemoTable | None = None
        self.sim = None
        self.worker = None
        self._relay = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._speed = 1.0
        self.caption = Caption()
        self.captions: list[str] = []   # every caption said, in order (the demo's result file)
        self.steps: list[str] = []
        self.journal = ""               # the demo match's journal file

    # --- running -----------------------------------------------------------------------------------
    def start(self) -> "DemoDirector":
        self._thread = threading.Thread(target=self._run, name="touchline-demo", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop playing and let go of the devices (the match stays in its journal). The app's
        camera, when it has one, is the app's to stop."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self.table is not None:
            self.table.stop()
        if self.worker is not None:
            self.worker.stop()
        if self._relay is not None:
            self._relay.stop()
        if self.sim is not None:
            self.ctl.release_tray(then=self.sim.stop)

    def join(self, timeout: float) -> None:
        """Wait for the director's thread to end (after ``stop``), unless called from it."""
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _run(self) -> None:
        error = ""
        try:
            highlight(self)
        except DemoStopped:
            error = "stopped"
        except Exception as exc:  # the demo says what went wrong on screen rather than hang
            if self.stopped:
                error = "stopped"
            else:
                log.exception("demo failed")
                error = f"the demo stopped: {exc}"
        self.on_done(error)

    def pause(self, seconds: float) -> None:
        """Time for people to look, scaled by the pace; returns early when stopped."""
        if seconds > 0 and self._stop.wait(seconds):
            raise DemoStopped()
        if self.stopped:
            raise DemoStopped()

    @contextmanager
    def faster(self):
        """Steps played quickly (rounds skipped through to the next highlight)."""
        before, self._speed = self._speed, FAST
        try:
            yield
        finally:
            self._speed = before

    # --- what the demo says --------------------------------------------------------------------------
    def chapter(self, title: str) -> None:
        self.caption = Caption(CHAPTERS.index(title) + 1, title, "", self.caption.roll, self.caption.roll_by)
        self.on_caption(self.caption)

    def say(self, text: str, hold: float = 1.0) -> None:
        """A caption, held long enough to read (``hold`` times a newcomer's reading time)."""
        self.caption = Caption(self.caption.chapter, self.caption.title, text, self.caption.roll,
                               self.caption.roll_by)
        self.captions.append(text)
        self.on_caption(self.caption)
        self.pause(self.pace * hold * max(1.5, len(text.split()) / READING_WPS))

    def show_report(self) -> None:
        self.on_gesture("report", None)
        self.steps.append("the report")

    # --- names, for the captions -----------------------------------------------------------------
    @property
    def state(self):
        return self.ctl.view.state

    def team(self, team: Team) -> str:
        roster = self.state.home if team is Team.HOME else self.state.away
        return roster.name if roster is not None else team.label

    def name(self, ref: PlayerRef) -> str:
        return self.state.players[ref].card.name

    def who(self, ref: PlayerRef) -> str:
        return f"#{ref.number} {self.name(ref)}"

    def minute(self) -> str:
        return f"{self.state.period.offset + self.state.minute}'"

    def score(self) -> str:
        s = self.state
        return f"{self.team(Team.HOME)} {s.score[Team.HOME]}-{s.score[Team.AWAY]} {self.team(Team.AWAY)}"

    def result(self) -> str:
        s = self.state
        home, away = s.score[Team.HOME], s.score[Team.AWAY]
        if home == away:
            return f"a {home}-{away} draw"
        winner = Team.HOME if home > away else Team.AWAY
        return f"{self.team(winner)} win {max(home, away)}-{min(home, away)}"

    # --- waiting for the rules core ---------------------------------------------------------------------
    def wait(self, what: str, check: Callable[[], bool]) -> None:
        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            if self.stopped:
                raise DemoStopped()
            if self.ctl.idle and self.ctl.view.active and check():
                self.steps.append(what)
                self.pause(self.pace * self._speed)
                return
            time.sleep(0.05)
        raise TimeoutError(f"waited {self.wait_s:g} s for {what}; last message: {self.ctl.view.error or 'none'}")

    def _vision(self):
        return self.camera.worker if self.camera is not None else self.worker

    def _camera_quiet(self) -> bool:
        """The table's hand has let go and the camera has seen every figure settle."""
        worker = self._vision()
        return self.table.settled(SETTLED_FRAMES) and (worker is None or worker.sightings.empty())

    # --- the devices --------------------------------------------------------------------------------
    def start_devices(self) -> None:
        """A new match, the simulated tray on a pty, and the rendered table under the camera."""
        from firmware_bridge.sim import TraySim
        from vision.live import VisionWorker
        from vision.sources import IterSource

        from .camera import CameraRelay, synthetic_setup

        components = load_components()
        old = self.ctl.view.path
        self.ctl.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), components), seed=11)
        self.wait("a new match", lambda: self.ctl.view.path not in ("", old) and self.state is not None)
        self.journal = self.ctl.view.path
        self.sim = TraySim(seed=5)
        self.sim.start()
        self.ctl.start_tray(str(self.sim.link))
        self.wait("the dice tray", lambda: self.ctl.view.tray == "ok")
        self.table = DemoTable(components.board, self.size)
        self.table.set_up(SHAPE)
        if self.stopped:
            raise DemoStopped()
        if self.camera is not None:
            self.camera.start("demo", table=self.table)
        else:
            setup = synthetic_setup(self.table)
            self.worker = VisionWorker(lambda: IterSource(self.table.frames(), "demo table"), setup,
                                       stop_at_end=False).start()
            self._relay = CameraRelay(self.worker, self.ctl).start()

    def roll(self, group: str, faces: list[int], what: str) -> None:
        """Throw dice in the simulated tray; the roll arrives framed over the serial line."""
        side = Team(group.partition("-")[0])
        self.caption = Caption(self.caption.chapter, self.caption.title, self.caption.text,
                               tuple(zip(DICE_COLOURS[group], faces)), owner(self.team(side)))
        self.on_caption(self.caption)
        before = self.ctl.match.last_seq if self.ctl.match else 0
        self.sim.roll(group, faces)
        self.wait(what, lambda: self.ctl.match.last_seq > before)

    def submit(self, command, what: str) -> None:
        before = self.ctl.match.last_seq
        self.ctl.submit(command)
        self.wait(what, lambda: self.ctl.match.last_seq > before or bool(self.ctl.view.error))
        if self.ctl.match.last_seq == before:
            raise RuntimeError(f"{what} was refused: {self.ctl.view.error}")

    def choose(self, option: str, what: str) -> None:
        request = next((r for r in self.ctl.view.pending if r.kind == "choice" and option in r.options), None)
        if request is None:
            raise RuntimeError(f"no choice offers {option!r} for {what}")
        before = self.ctl.match.last_seq
        self.ctl.choose(request.id, option)
        self.wait(what, lambda: self.ctl.match.last_seq > before or bool(self.ctl.view.error))
        if self.ctl.match.last_seq == before:
            raise RuntimeError(f"{what} was refused: {self.ctl.view.error}")

    def hand_move(self, ref: PlayerRef, ms: tuple[int, int], what: str) -> None:
        """A coach's hand moves a figure on the table; the camera proposes the move."""
        self.table.move(ref, ms)
        self.wait(what, lambda: self.state.players[ref].ms == ms and self._camera_quiet())

    def follow(self, what: str) -> None:
        """The coaches' hands put the figures where the rules have them now (a declared run, a
        line-up), and the camera sees them settle there before anything else happens: a figure
        seen landing late, after the rules moved it on, would read as a move back."""
        s = self.state
        moved = [(p.ref, p.ms) for p in s.players.values()
                 if p.on_pitch and p.ms is not None and self.table.squares.get(p.ref) != p.ms]
        if len(moved) > 3:
            self.table.set_up({p.ref: p.ms for p in s.players.values() if p.on_pitch and p.ms is not None})
        else:
            for ref, ms in moved:
                self.table.move(ref, ms)
        self.wait(what, self._camera_quiet)

    def override(self, ref: PlayerRef, ms: tuple[int, int], what: str) -> None:
        """Override on, the figure selected, its square tapped: the coach's correction."""
        self.on_gesture("override", True)
        self.on_gesture("select", ref)
        self.pause(self.pace * 2)
        x_mm, y_mm = self.state.components.board.ms_center_mm(ms)
        before = self.ctl.match.last_seq
        self.ctl.override(ref, x_mm, y_mm)
        self.wait(what, lambda: self.ctl.match.last_seq > before or bool(self.ctl.view.error))
        self.on_gesture("select", None)
        self.on_gesture("override", False)
        if self.state.players[ref].ms != ms:
            raise RuntimeError(f"{what} was refused: {self.ctl.view.error}")
        self.follow("the figure set where the coach put it")

    def undo(self, what: str, check: Callable[[], bool]) -> None:
        before = self.ctl.view.can_undo
        self.ctl.undo()
        self.wait(what, lambda: self.ctl.view.can_undo < before and check())

    def lineup(self, what: str) -> None:
        """Both teams back in their kick-off shape in one tap (the live screen's Line-up), then
        the coaches' hands stand the figures there."""
        from companion.commands import PlaceFigure

        s = self.state
        on = [p.ref for p in s.players.values() if p.on_pitch]
        commands = [PlaceFigure(ref, square=None) for ref in on]
        commands += [PlaceFigure(ref, square=SHAPE[ref], facing=0 if ref.team is Team.HOME else 180) for ref in on]
        before = self.ctl.match.last_seq
        self.ctl.submit_many(commands, what="line-up")
        self.wait(what, lambda: self.ctl.match.last_seq > before
                  and all(self.state.players[ref].ms == SHAPE[ref] for ref in on))
        self.follow("the camera to see the line-up")

    def pass_phase(self, phase: Phase) -> None:
        """Both coaches pass the phase (quickly: nothing to see but the phase moving on)."""
        with self.faster():
            while self.state.phase is phase:
                team = self.state.turn or Team.HOME
                self.submit(c.PassTurn(team), f"{team.label} passes the {phase.label}")
