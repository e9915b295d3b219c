"""Between the screens and the rules core.

The controller owns the match (its journal on disk), runs every command on a worker thread
(the journal's fsync never runs on the UI thread), and hands the screens an immutable
``View`` after each change through ``post`` (in the app: a queue drained by a Kivy Clock
trigger). It holds no game state of its own: the view is a fold of the journal.

Nothing here imports Kivy, so the controller is tested without a window.
"""

from __future__ import annotations

import logging
import queue
import random
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import Die, DieKind, DieResult, Roll, SoftwareDice
from companion.errors import TouchlineError
from companion.events import Source
from companion.journal import Journal
from companion.match import Match
from companion.paths import user_data_dir
from companion.ruleset import Command, Request
from companion.sightings import Sighting
from companion.teams import PlayerRef

log = logging.getLogger(__name__)

LOG_LINES = 200


@dataclass(frozen=True)
class View:
    """Everything a screen shows, as of one moment: safe to read from any thread."""

    state: Any = None                 # the ruleset's folded state (immutable)
    summary: dict[str, Any] = field(default_factory=dict)
    pending: tuple[Request, ...] = ()
    log: tuple[str, ...] = ()
    can_undo: int = 0
    can_redo: int = 0
    error: str = ""                   # the last refusal, worded by the rules
    path: str = ""                    # the journal file
    camera: str = "off"               # off / ok / degraded / lost
    tray: str = "off"
    placeholders: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return self.state is not None


def keypad_roll(request: Request, digits: str) -> Roll:
    """Dice typed on the keypad for a request: "47" for 2d10 reads black 4 (tens) and white
    7; one digit per die otherwise. Raises ValueError with what to type instead."""
    spec = request.dice
    if spec is None:
        raise ValueError("this request does not want dice")
    text = digits.strip()
    kinds = spec.kinds
    if kinds == (DieKind.D10, DieKind.D10):
        if not re.fullmatch(r"\d\d", text):
            raise ValueError("type two digits: the black die (tens) then the white die (units); 00 is 100")
        faces = (int(text[0]), int(text[1]))
        colours = ("black", "white")
    else:
        parts = text.split() if " " in text else ([text] if len(kinds) == 1 else list(text))
        if len(parts) != len(kinds) or not all(p.isdigit() for p in parts):
            raise ValueError(f"type {len(kinds)} face(s) for {spec.describe()}")
        faces = tuple(int(p) for p in parts)
        colours = tuple("" for _ in kinds)
    dice = []
    for kind, face, colour in zip(kinds, faces, colours):
        kind.check_face(face)
        dice.append(DieResult(Die(kind, colour, spec.owner), face))
    return Roll(tuple(dice), Source.MANUAL, "keypad")


class Controller:
    """Runs commands against the match off the UI thread and publishes views."""

    def __init__(self, post: Callable[[View], None] | None = None, threaded: bool = True,
                 data_dir: Path | None = None) -> None:
        self._post = post or (lambda view: None)
        self.data_dir = Path(data_dir) if data_dir else user_data_dir()
        self.match: Match | None = None
        self.view = View()
        self._log: list[str] = []
        self._dice: SoftwareDice | None = None
        self._health = {"camera": "off", "tray": "off"}
        self.vision_enabled = True   # a coach can switch the camera's proposals off
        self._threaded = threaded
        self._jobs: queue.Queue = queue.Queue()
        self._in_flight = 0
        self._count_lock = threading.Lock()
        self._worker: threading.Thread | None = None
        if threaded:
            self._worker = threading.Thread(target=self._run, name="touchline-commands", daemon=True)
            self._worker.start()

    # --- the worker ----------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, counted = item
            self._do(job)
            if counted:  # only after its view was posted, so "idle" means the screen can know
                with self._count_lock:
                    self._in_flight -= 1

    def _do(self, job: Callable[[], str | None]) -> None:
        try:
            error = job() or ""
        except TouchlineError as exc:
            error = str(exc)
        except Exception as exc:  # a bug must not kill the worker: show it, log it, keep the journal
            log.exception("command failed")
            error = f"internal error: {exc}"
        self._publish(error)

    def _queue(self, job: Callable[[], str | None]) -> None:
        if not self._threaded:
            self._do(job)
            return
        with self._count_lock:
            self._in_flight += 1
        self._jobs.put((job, True))

    @property
    def idle(self) -> bool:
        """No command is queued or running."""
        with self._count_lock:
            return self._in_flight == 0

    def wait(self, timeout: float = 10.0) -> None:
        """Block until every queued command ran (tests and shutdown only)."""
        if not self._threaded:
            return
        done = threading.Event()
        self._jobs.put((lambda: done.set(), False))
        done.wait(timeout)

    def close(self) -> None:
        if self._worker is not None:
            self.wait()
            self._jobs.put(None)
            self._worker.join(timeout=5)
            self._worker = None
        if self.match is not None:
            self.match.close()
            self.match = None

    def _publish(self, error: str = "") -> None:
        m = self.match
        if m is None:
            self.view = View(error=error, camera=self._health["camera"], tray=self._health["tray"])
        else:
            summary = m.summary()
            self.view = View(state=m.state, summary=summary, pending=m.pending(), log=tuple(self._log[-LOG_LINES:]),
                             can_undo=m.can_undo, can_redo=m.can_redo, error=error,
                             path=str(m.journal.path) if m.journal else "", camera=self._health["camera"],
                             tray=self._health["tray"], placeholders=tuple(summary.get("placeholders", ())))
        self._post(self.view)

    # --- matches -------------------------------------------------------------------------------
    def matches_dir(self) -> Path:
        return self.data_dir / "matches"

    def last_journal(self) -> Path | None:
        folder = self.matches_dir()
        if not folder.is_dir():
            return None
        files = sorted(folder.glob("*.sqlite"), key=lambda p: p.stat().st_mtime)
        return files[-1] if files else None

    def new_match(self, create: Command, game: str = "fublet", seed: int | None = None) -> None:
        """Start a match with its creation command, in a new journal file."""
        def job() -> None:
            if self.match is not None:
                self.match.close()
            folder = self.matches_dir()
            folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
            path = folder / f"{game}-{stamp}.sqlite"
            n = 1
            while path.exists():
                n += 1
                path = folder / f"{game}-{stamp}-{n}.sqlite"
            from companion.games import ruleset_for
            journal = Journal.create(path, game)
            self.match = Match(ruleset_for(game), journal)
            self._log = []
            self._dice = SoftwareDice(seed if seed is not None else random.SystemRandom().randrange(10**9))
            self._apply(lambda: self.match.submit(create, Source.MANUAL))
        self._queue(job)

    def resume(self, path: Path | None = None) -> None:
        """Reopen a match from its journal (the last one played when no path is given)."""
        def job() -> str | None:
            target = path or self.last_journal()
            if target is None:
                return "no match to resume yet: start a new match"
            if self.match is not None:
                self.match.close()
            self.match = Match.open(target)
            self._log = self._replay_log()
            self._dice = self._resume_dice()
            return None
        self._queue(job)

    def _replay_log(self) -> list[str]:
        m = self.match
        rules = m.ruleset
        state = rules.initial_state()
        lines = []
        for event in m.events:
            line = rules.log_line(state, event)
            state = rules.evolve(state, event)
            if line:
                lines.append(line)
        return lines[-LOG_LINES:]

    def _resume_dice(self) -> SoftwareDice:
        """Software dice carry on from the journal's last software roll (seed and count)."""
        for event in reversed(self.match.events):
            roll = getattr(event.payload, "roll", None)
            if isinstance(roll, Roll) and roll.source is Source.SOFTWARE:
                found = re.fullmatch(r"software seed=(\d+)#(\d+)", roll.device)
                if found:
                    return SoftwareDice(int(found.group(1)), int(found.group(2)))
        return SoftwareDice(random.SystemRandom().randrange(10**9))

    def _apply(self, submit: Callable[[], tuple]) -> None:
        """Run one change and add its log lines."""
        m = self.match
        before = m.state
        events = submit()
        state = before
        for event in events:
            line = m.ruleset.log_line(state, event)
            state = m.ruleset.evolve(state, event)
            if line:
                self._log.append(line)

    # --- commands ------------------------------------------------------------------------------
    def submit(self, command: Command, source: Source = Source.MANUAL) -> None:
        def job() -> str | None:
            if self.match is None:
                return "no match: start or resume one first"
            self._apply(lambda: self.match.submit(command, source))
            return None
        self._queue(job)

    def choose(self, request_id: str, option: str) -> None:
        self.submit(Choose(request_id, option))

    def roll_keypad(self, request: Request, digits: str) -> None:
        def job() -> str | None:
            try:
                roll = keypad_roll(request, digits)
            except ValueError as exc:
                return f"keypad: {exc}"
            self._apply(lambda: self.match.submit(SubmitRoll(roll, request.id), Source.MANUAL))
            return None
        self._queue(job)

    def roll_software(self, request: Request) -> None:
        def job() -> str | None:
            if request.dice is None:
                return "this request does not want dice"
            colours = ("black", "white") if request.dice.kinds == (DieKind.D10, DieKind.D10) else ()
            roll = self._dice.roll(request.dice, colours)
            self._apply(lambda: self.match.submit(SubmitRoll(roll, request.id), Source.SOFTWARE))
            return None
        self._queue(job)

    def submit_roll(self, roll: Roll, request_id: str | None = None) -> None:
        """A roll from a device (the tray): the same command the keypad sends."""
        self.submit(SubmitRoll(roll, request_id), roll.source)

    def tap_move(self, player: PlayerRef, square: tuple[int, int], facing: int | None = None) -> None:
        """A coach moves a figure on the tablet: the same proposal the camera would make."""
        def job() -> str | None:
            m = self.match
            board = m.ruleset.board(m.state)
            x, y = board.ms_center_mm(square)
            command = m.ruleset.command_for(m.state, Sighting(player, x, y, facing))
            if command is None:
                return None
            self._apply(lambda: m.submit(command, Source.MANUAL))
            return None
        self._queue(job)

    def override(self, player: PlayerRef, square: tuple[int, int] | None, facing: int | None = None) -> None:
        """Manual override: put the figure there whatever the camera or the rules had."""
        self.submit(PlaceFigure(player, square=square, facing=facing, correction=True))

    def enable_vision(self, on: bool) -> None:
        self.vision_enabled = on

    def sighting(self, sighting: Sighting) -> None:
        """A committed camera sighting (from the vision thread)."""
        def job() -> str | None:
            if self.match is None or not self.vision_enabled:
                return None
            self._apply(lambda: self.match.sight(sighting))
            return None
        self._queue(job)

    def undo(self, steps: int = 1) -> None:
        def job() -> None:
            self.match.undo(steps)
            self._log = self._replay_log()
        self._queue(job)

    def redo(self, steps: int = 1) -> None:
        def job() -> None:
            self.match.redo(steps)
            self._log = self._replay_log()
        self._queue(job)

    def set_health(self, device: str, health: str) -> None:
        def job() -> None:
            self._health[device] = health
        self._queue(job)
