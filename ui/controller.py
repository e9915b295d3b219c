"""Between the screens and the rules core.

The controller owns the match (its journal on disk), runs every command on a worker thread
(the journal's fsync never runs on the UI thread), and hands the screens an immutable
``View`` after each change through ``post`` (in the app: a queue drained by a Kivy Clock
trigger). It holds no game state of its own: the view is a fold of the journal.

The dice (ui/controller_dice.py) and the camera (ui/controller_camera.py) are parts of the
controller kept in their own modules; they run on the same worker.

Nothing here imports Kivy, so the controller is tested without a window.
"""

from __future__ import annotations

import logging
import queue
import random
import re
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any, Callable

from companion.anchors import AnchorBook
from companion.commands import Choose, PlaceFigure
from companion.dice import Roll
from companion.errors import TouchlineError
from companion.events import Source, now
from companion.journal import Journal
from companion.match import Match
from companion.paths import user_data_dir
from companion.ruleset import Command, OpenAction, Request, Ruleset
from companion.sightings import Sighting
from companion.teams import PlayerRef, Team
from companion.view import GameClock, Summary, summary_of
from firmware_bridge.feed import Feed
from firmware_bridge.sources import KeypadSource, SoftwareSource, TraySource

from .autoflow import MAX_STEPS as MAX_FORCED
from .autoflow import Auto, Expectation, Proposal, forced_step, forced_words
from .controller_camera import CameraDesk
from .controller_dice import DiceDesk
from . import played_here
from .status import NO_MATCH, NO_MATCH_TO_RESUME, Health
from .places import has_place, places_for
from .words import TEAM_SIDE, names_for, option_name

log = logging.getLogger(__name__)

LOG_LINES = 200
DEVICE_WORDS = {Source.VISION: "camera"}   # a roll's line names its device already


FIELD_WORDS = {"ms": "square", "ps": "pass square", "board": "tactical board"}



def question_of(rules: Any, state: Any, payload: Any) -> str:
    """The question a choice answered (the pending request it names), or ""."""
    request = getattr(payload, "request", None)
    if request is None or not hasattr(payload, "option"):
        return ""
    try:
        return next((r.text for r in rules.pending(state) if r.id == request), "")
    except Exception:   # a state the rules cannot list: the choice is said without its question
        return ""


def decision_line(payload: Any, question: str = "") -> str:
    """A coach's accepted decision the rules word no line for (a tactical board chosen, a
    line-up): its name and what was decided, in words. A choice says the question and the
    answer as its button did: "Home won the toss: take the first kick-off, or the choice of
    ends? Kick off"."""
    import dataclasses
    import enum

    option = getattr(payload, "option", None)
    if isinstance(option, str) and hasattr(payload, "request"):
        answer = TEAM_SIDE.get(option) or (option if "#" in option else option_name(option))
        return f"{question.rstrip()} {answer}" if question else f"Chosen: {answer}"
    name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(payload).__name__).lower().capitalize()
    parts = []
    if dataclasses.is_dataclass(payload):
        for f in dataclasses.fields(payload):
            value = getattr(payload, f.name)
            if isinstance(value, enum.Enum):
                value = getattr(value, "label", None) or value.value
            if f.name == "request":   # a request's id ("c12") means nothing to a coach
                continue
            label = FIELD_WORDS.get(f.name, f.name.replace("_", " "))
            if f.name == "team" and isinstance(value, str):
                parts.append(value)
            elif isinstance(value, PlayerRef):
                # The id: _lines says it by team, number and name ("Touchline Rovers #7 Kit").
                parts.append(str(value) if f.name == "player" else f"{label} {value}")
            elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
                parts.append(f"{label} {str(value).replace('_', ' ')}")
            elif isinstance(value, (tuple, list)) and 0 < len(value) <= 11 and all(
                    isinstance(v, (PlayerRef, str, int)) for v in value):
                parts.append(f"{label} {', '.join(str(v) for v in value)}")
    text = f"{name}: {'; '.join(parts)}" if parts else name
    return text if len(text) <= 160 else text[:157] + "..."


STEP_WORDS = 40      # characters of a step's words on the Undo and Redo buttons (two short lines)
DEVICE_TAIL = re.compile(r" \((?:camera|keypad|tray|software dice)\)$")


def short_names(teams: tuple[str, ...]) -> dict[str, str]:
    """Each team by one word of its name, for a small button ("SV Rotstein" -> "Rotstein",
    "Touchline Rovers" -> "Touchline"): the first word that is not a club's letters (FC, SV,
    1.); the full names when the words would not tell the two teams apart."""
    def word(name: str) -> str:
        return next((w for w in name.split() if not (w.isupper() and len(w) <= 3) and "." not in w), name)
    short = {team: word(team) for team in teams if team}
    return short if len(set(short.values())) == len(short) else {}


def step_words(lines: list[str], teams: tuple[str, ...] = ()) -> str:
    """A command's log lines as the Undo or Redo button says them: the first line (a roll's
    line names the roll: "roll black 7"), without the device it came from, a figure by number and name alone
    ("Touchline Rovers #7 Kit" -> "#7 Kit": the button is small), a team by one word of its
    name (``short_names``); "last step" when the rules
    word none (a line-up's placements, a clock's start). The button cuts it to fit."""
    text = next((DEVICE_TAIL.sub("", line.strip(" -")) for line in lines if line.strip(" -")), "")
    short = short_names(teams)
    for team in teams:
        if team and text.startswith(f"{team} rolled "):   # a roll: its faces say it ("roll black 7")
            text = "roll " + text[len(team) + len(" rolled "):]
    for team in teams:
        if team:
            text = text.replace(f"{team} #", "#").replace(team, short.get(team, team))
    if not text:
        return "last step"
    if len(text) <= STEP_WORDS:
        return text
    cut = text[:STEP_WORDS - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


@dataclass(frozen=True)
class View:
    """Everything a screen shows, as of one moment: safe to read from any thread.

    A screen draws from the view alone: ``ruleset`` and ``board`` are those of the match the
    view was made from, so a screen never reaches into the controller's match (which the
    worker may replace at any moment)."""

    state: Any = None                 # the ruleset's folded state (immutable)
    game: str = ""                    # the ruleset's game name ("fublet", ...); "" with no match
    ruleset: Ruleset | None = None    # the match's rules, for what a screen asks of them (a reach)
    board: Any = None                 # the ruleset's board for ``state`` (what the rules speak)
    phase: Enum | None = None         # the state's phase: a member of the game's Phase enum
    over: bool = False                # the match is over
    acting: Team | None = None        # the side the rules wait for (None: either, or nobody)
    summary: Summary = Summary()      # score, turn, restart, result, counters, clock (companion/view.py)
    pending: tuple[Request, ...] = ()
    actions: tuple[OpenAction, ...] = ()   # what each side may declare or do now, by the rules
    log: tuple[str, ...] = ()
    can_undo: int = 0
    can_redo: int = 0
    error: str = ""                   # the last refusal, worded by the rules
    path: str = ""                    # the journal file
    camera: Health = Health.OFF
    tray: Health = Health.OFF
    placeholders: tuple[str, ...] = ()
    proposals: tuple[Proposal, ...] = ()   # camera sightings held for a person (take or drop)
    auto: bool = False                # forced steps are taken by themselves now (ui/autoflow.py)
    expecting: PlayerRef | None = None   # a declaration waits for where the camera sees him go
    expected: int = 0                 # declarations the camera finished (a screen closes its form)
    clock_action: str = ""            # the match's real-time clock: "start" (stopped mid-play), "stop" (running), ""
    undo_what: str = ""               # what Undo would take back, in the log's words ("" : nothing named)
    redo_what: str = ""               # what Redo would bring back

    @property
    def active(self) -> bool:
        return self.state is not None

    @property
    def clock(self) -> GameClock:
        """The game's clock, typed (what runs, elapsed and left, the period, time up)."""
        return self.summary.clock


class Controller(DiceDesk, CameraDesk):
    """Runs commands against the match off the UI thread and publishes views."""

    def __init__(self, post: Callable[[View], None] | None = None, threaded: bool = True,
                 data_dir: Path | None = None, clock: Callable[[], datetime] = now) -> None:
        self._post = post or (lambda view: None)
        self.clock = clock   # the tablet's time: what the match's events and its clocks read (tests drive it)
        self.data_dir = Path(data_dir) if data_dir else user_data_dir()
        self.match: Match | None = None
        self.view = View()
        self._log: list[str] = []
        self._batch_lines: dict[int, list[str]] = {}   # a command's log lines, by its batch: what Undo names
        # Every roll, from the keypad, software dice or the tray, goes through one queue and
        # the bridge's feed, which submits it on this worker and passes refusals on.
        self.notices: queue.Queue = queue.Queue()
        self.keypad = KeypadSource(self.notices)
        self.software: SoftwareSource | None = None
        self.tray: TraySource | None = None
        self.feed: Feed | None = None
        self._refusal = ""
        self._why_no_match = ""
        self._health: dict[str, Health] = {"camera": Health.OFF, "tray": Health.OFF}
        self.vision_enabled = True   # a coach can switch the camera's proposals off
        self.auto = Auto.DEVICES     # forced steps by themselves: with the tray or camera in use
        self._proposals: list[Proposal] = []
        self._next_proposal = 1
        self._expect: Expectation | None = None
        self._expected = 0
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
        except (OSError, sqlite3.Error) as exc:   # the data folder or the journal file
            log.warning("data folder: %s", exc, exc_info=True)
            error = self.storage_problem(exc)
        except Exception as exc:  # a bug must not kill the worker: show it, log it, keep the journal
            log.exception("command failed")
            error = (f"Something went wrong inside Touchline ({type(exc).__name__}: {exc}). The match is safe in "
                     f"its journal: undo the last step, or go to Menu and resume the match.")
        self._publish(error)

    def storage_problem(self, exc: BaseException) -> str:
        """An OS or SQLite failure, said so a coach knows what to do."""
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        where = getattr(exc, "filename", None) or self.data_dir
        return (f"Cannot write to the data folder ({where}: {reason}). Free some space, or start Touchline "
                f"with a folder it can write to (touchline --data-dir FOLDER, or TOUCHLINE_DATA_DIR); "
                f"nothing already saved was lost.")

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
        self.stop_tray()
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
        camera, tray = self._health["camera"], self._health["tray"]
        if m is None:
            # Why there is no match (a failed start or resume) stays said until one opens: a
            # device's news must not wipe it off the screen.
            self._why_no_match = error or self._why_no_match
            self.view = View(error=self._why_no_match, camera=camera, tray=tray)
        else:
            state, rules = m.state, m.ruleset
            summary = rules.summary(state)
            pending = rules.pending(state)
            at = self.clock()
            clock_action = ("start" if rules.start_clocks(state, at) is not None
                            else "stop" if rules.stop_clocks(state, at, "") is not None else "")
            self.view = View(state=state, game=rules.game, ruleset=rules, board=rules.board(state),
                             phase=state.phase, over=state.phase is getattr(rules, "over_phase", None),
                             acting=next((r.team for r in pending if r.team is not None), None),
                             summary=summary_of(summary), pending=pending, actions=rules.open_actions(state),
                             log=tuple(self._log[-LOG_LINES:]), can_undo=m.can_undo, can_redo=m.can_redo,
                             error=error, path=str(m.journal.path) if m.journal else "", camera=camera, tray=tray,
                             placeholders=tuple(summary.get("placeholders", ())),
                             proposals=tuple(self._proposals), auto=self.auto_on,
                             expecting=self._expect.player if self._expect is not None else None,
                             expected=self._expected, clock_action=clock_action, **self._steps_named(m))
        self._post(self.view)

    # --- matches -------------------------------------------------------------------------------
    def matches_dir(self) -> Path:
        return self.data_dir / "matches"

    def anchors(self) -> AnchorBook:
        """Where each journal's end is anchored as it is written (companion/anchors.py)."""
        return AnchorBook.of_data_dir(self.data_dir)

    def last_journal(self) -> Path | None:
        """The unfinished match this tablet played last (ui/played_here.py): never a finished
        one, nor one copied or imported into the matches folder. It may replay that journal
        (when it changed since the history's cache read it): call it off the UI thread."""
        unfinished = played_here.unfinished(self.data_dir, self.matches_dir())
        return unfinished[0].path if unfinished else None

    def has_played(self) -> bool:
        """This tablet played a match that is still in the matches folder (cheap: no replay)."""
        return bool(played_here.played_files(self.data_dir, self.matches_dir()))

    def new_match(self, create: Command, game: str = "fublet", seed: int | None = None) -> None:
        """Start a match with its creation command, in a new journal file."""
        def job() -> None:
            # The new journal first: when the data folder cannot take it, the match in play
            # stays open and the screen says why.
            folder = self.matches_dir()
            folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
            path = folder / f"{game}-{stamp}.sqlite"
            n = 1
            while path.exists():
                n += 1
                path = folder / f"{game}-{stamp}-{n}.sqlite"
            from companion.games import ruleset_for
            journal = Journal.create(path, game, anchors=self.anchors())
            if self.match is not None:
                self.match.close()
            self.match = Match(ruleset_for(game), journal, self.clock)
            played_here.note_played(self.data_dir, path)
            self._log, self._batch_lines = [], {}
            self._proposals, self._expect = [], None
            self._attach_dice(seed if seed is not None else random.SystemRandom().randrange(10**9))
            self._apply(lambda: self.match.submit(create, Source.MANUAL))
        self._queue(job)

    def resume(self, path: Path | None = None, quiet: bool = False) -> None:
        """Reopen a match from its journal (when no path is given: the unfinished match this
        tablet played last; ``quiet``: none is no error, as when the app starts)."""
        def job() -> str | None:
            target = path or self.last_journal()
            if target is None:
                return None if quiet else NO_MATCH_TO_RESUME
            try:
                # a damaged journal, or one cut short of its anchor, raises here, leaving the match in play
                opened = Match.open(target, clock=self.clock, anchors=self.anchors())
            except TouchlineError as exc:
                # The coach needs the reason and the file's name, not its whole path.
                reason = str(exc).replace(f"{target}: ", "").rstrip(".")
                kept = "" if "untouched" in reason or "as it was" in reason else " The file was left as it was."
                return (f"Cannot resume this match: {reason} (file {target.name}).{kept} Start a new match, or "
                        f"open another one from Matches and league.")
            if self.match is not None:
                self.match.close()
            self.match = opened
            played_here.note_played(self.data_dir, Path(target))
            self._log = self._replay_log()
            self._proposals, self._expect = [], None
            self._attach_dice(self._software_seed())
            # A clock still running in the journal ran while the app was dead: it stands where
            # the last event put it, and a coach starts it again.
            self._stop_clocks("the app was closed", as_of_last_event=True)
            return None
        self._queue(job)

    def _replay_log(self) -> list[str]:
        m = self.match
        rules = m.ruleset
        state = rules.initial_state()
        lines: list[str] = []
        said: set[int] = set()
        self._batch_lines = {}
        for event in m.events:
            new = self._lines(rules, state, event, said)
            self._batch_lines.setdefault(event.batch, []).extend(new)
            lines += new
            state = rules.evolve(state, event)
        return lines[-LOG_LINES:]

    def _steps_named(self, m: Match) -> dict[str, str]:
        """What Undo and Redo would take back or bring back, in the log's words (the lines the
        command's events made; a redo's worded from the state it would follow)."""
        undo, redo = m.undo_batch, m.redo_batch
        undo_lines = self._batch_lines.get(undo[0].batch, []) if undo else []
        redo_lines: list[str] = []
        if redo:
            try:
                state, said = m.state, set()
                for event in redo:
                    redo_lines += self._lines(m.ruleset, state, event, said)
                    state = m.ruleset.evolve(state, event)
            except Exception:   # words only: a step the rules cannot word is still redone as "Redo"
                log.debug("redo not worded", exc_info=True)
        teams = tuple(names_for(m.ruleset, m.state).teams.values())
        return {"undo_what": step_words(undo_lines, teams) if undo else "",
                "redo_what": step_words(redo_lines, teams) if redo else ""}

    @classmethod
    def _lines(cls, rules, state: Any, event, said: set[int] | None = None) -> list[str]:
        """What the log says of one event: the rules' own line; a roll's value as it arrives
        (the rules may say what it meant only later, when the other coach has rolled too);
        every decision a coach made, in words where the rules have no line for it."""
        out = []
        roll = getattr(event.payload, "roll", None)
        if isinstance(roll, Roll) and event.source is not Source.RULES:
            teams = rules.summary(state).get("teams", {}) if getattr(state, "created", True) else {}
            out.append(cls.roll_line(roll, teams if isinstance(teams, dict) else {}))
        line = rules.log_line(state, event)
        if not line and event.source is Source.MANUAL and roll is None:
            line = decision_line(event.payload, question_of(rules, state, event.payload))
        if line and roll is None and event.source in DEVICE_WORDS and said is not None and event.batch not in said:
            said.add(event.batch)   # what a device did by itself: said on its command's first line
            line = f"{line} ({DEVICE_WORDS[event.source]})"
        if line:
            out.append(line)
        if any("#" in o for o in out):   # "home#7" -> "Touchline Rovers #7 Kit"
            names = names_for(rules, state)
            out = [names.line(o) for o in out]
        if any(has_place(o) for o in out):   # "(24, 22)" -> "a square in the right half"
            try:
                places = places_for(rules.game, rules.board(state))
            except Exception:   # a state without a board yet: the line as the rules wrote it
                return out
            out = [places.in_words(o) for o in out]
        return out

    def _apply(self, submit: Callable[[], tuple], source: Source = Source.MANUAL) -> None:
        """Run one change and add its log lines; then the steps the rules leave no choice about."""
        before = self.match.state
        events = submit()
        self._log_events(before, events)
        if events:
            self._forced_steps(source)

    # --- automatic steps ---------------------------------------------------------------------------
    @property
    def auto_on(self) -> bool:
        """Whether forced steps are taken by themselves now (the "Automatic steps" setting)."""
        if self.auto is Auto.DEVICES:
            return self._health["tray"] is not Health.OFF or self._health["camera"] is not Health.OFF
        return self.auto is Auto.ON

    def set_auto(self, auto: Auto | str) -> None:
        auto = Auto(auto)

        def job() -> None:
            self.auto = auto
        self._queue(job)

    def _forced_steps(self, source: Source) -> None:
        """Submit the steps the rules leave no choice about (a pass with nothing left to move,
        the end of a turn with nothing left to do), each through the rules like a tap, journaled
        with the source of the roll or move that led to it, and said in the log."""
        if not self.auto_on or self.match is None:
            return
        source = source if source in (Source.TRAY, Source.VISION) else Source.MANUAL
        for _ in range(MAX_FORCED):
            m = self.match
            state, rules = m.state, m.ruleset
            found = forced_step(rules.open_actions(state), rules.pending(state))
            if found is None:
                return
            action, command = found
            try:
                events = m.submit(command, source)
            except TouchlineError as exc:   # the rules listed it and refuse it: leave it to the coach
                log.warning("automatic %r refused: %s", command, exc)
                return
            self._log.append(forced_words(action))
            self._log_events(state, events)
            if not events:
                return

    def _log_events(self, before: Any, events: tuple) -> None:
        rules = self.match.ruleset
        state = before
        said: set[int] = set()
        for event in events:
            new = self._lines(rules, state, event, said)
            self._batch_lines.setdefault(event.batch, []).extend(new)
            self._log += new
            state = rules.evolve(state, event)

    # --- commands ------------------------------------------------------------------------------
    def submit(self, command: Command, source: Source = Source.MANUAL) -> None:
        def job() -> str | None:
            if self.match is None:
                return NO_MATCH
            self._apply(lambda: self.match.submit(command, source))
            return None
        self._queue(job)

    def submit_many(self, commands: list[Command], source: Source = Source.MANUAL, what: str = "") -> None:
        """Several commands in one job (a whole line-up): each is decided on its own; the
        refused ones are named in the message, the accepted ones stay."""
        def job() -> str | None:
            if self.match is None:
                return "no match: start or resume one first"
            refused = []
            for command in commands:
                try:
                    self._apply(lambda c=command: self.match.submit(c, source))
                except TouchlineError as exc:
                    refused.append(str(exc))
            placed = len(commands) - len(refused)
            if what:
                self._log.append(f"{what[:1].upper()}{what[1:]}: {placed} of {len(commands)} placements")
            if refused:
                return f"{len(refused)} of {len(commands)} placements refused, place those by hand: {refused[0]}"
            return None
        self._queue(job)

    def choose(self, request_id: str, option: str) -> None:
        self.submit(Choose(request_id, option))

    def roll_keypad(self, request: Request, digits: str) -> None:
        """Faces typed on the keypad ("47" for two d10: black 4 is the tens, white 7)."""
        def job() -> str | None:
            self.keypad.enter(request, digits)
            return self._pump()
        self._queue(job)

    def roll_software(self, request: Request) -> None:
        def job() -> str | None:
            if self.software is None:
                return NO_MATCH
            self.software.roll_for(request)
            return self._pump()
        self._queue(job)


    def tap_move(self, player: PlayerRef, x_mm: float, y_mm: float, facing: int | None = None) -> None:
        """A coach moves a figure on the tablet: the same proposal the camera would make (a
        sighting at a board point), so every game reads it with its own rules."""
        def job() -> str | None:
            m = self.match
            if m is None:
                return NO_MATCH
            command = m.ruleset.command_for(m.state, Sighting(player, x_mm, y_mm, facing))
            if command is None:
                return None
            self._apply(lambda: m.submit(command, Source.MANUAL))
            return None
        self._queue(job)

    def override(self, player: PlayerRef, x_mm: float | None, y_mm: float | None,
                 facing: int | None = None) -> None:
        """Manual override: put the figure at that board point (None: off the pitch), whatever
        the camera or the rules had."""
        if x_mm is None or y_mm is None:
            self.submit(PlaceFigure(player, facing=facing, correction=True))
        else:
            self.submit(PlaceFigure(player, x_mm=x_mm, y_mm=y_mm, facing=facing, correction=True))

    def undo(self, steps: int = 1) -> None:
        def job() -> str | None:
            if self.match is None:
                return NO_MATCH
            if not self.match.undo(steps):   # the match's creation is never undone
                return "Nothing to undo: the match has just been set up (start a new match to change that)."
            self._log = self._replay_log()
            return None
        self._queue(job)

    def redo(self, steps: int = 1) -> None:
        def job() -> str | None:
            if self.match is None:
                return NO_MATCH
            if not self.match.redo(steps):
                return "Nothing to redo."
            self._log = self._replay_log()
            return None
        self._queue(job)

    # --- the match's clocks -----------------------------------------------------------------------
    def stop_clocks(self, why: str) -> None:
        """Nobody can see the clocks now (the live screen left, the app in the background or
        closing): stop every real-time clock the match keeps, as a journaled event."""
        self._queue(lambda: self._stop_clocks(why))

    def start_clocks(self) -> None:
        """A coach starts the stopped clock again (one tap)."""
        def job() -> str | None:
            m = self.match
            if m is None:
                return NO_MATCH
            command = m.ruleset.start_clocks(m.state, self.clock())
            if command is not None:
                self._apply(lambda: m.submit(command))
            return None
        self._queue(job)

    def _stop_clocks(self, why: str, as_of_last_event: bool = False) -> None:
        m = self.match
        if m is None or not m.events:
            return None
        at = m.events[-1].at if as_of_last_event else self.clock()
        command = m.ruleset.stop_clocks(m.state, at, why)
        if command is not None:
            self._apply(lambda: m.submit(command, Source.MANUAL, at=at if as_of_last_event else None))
        return None

    def set_health(self, device: str, health: str, reason: str = "") -> None:
        """A device's health changed (camera or tray): shown, and said in the log. ``health``
        is a Health or its value ("off", "ok", "degraded", "lost")."""
        health = Health(health)

        def job() -> None:
            if self._health.get(device) != health:
                self._health[device] = health
                self._log.append(f"{device.capitalize()} {health}" + (f": {reason}" if reason else ""))
        self._queue(job)

    def note(self, text: str) -> None:
        """A line for the log (device notices)."""
        def job() -> None:
            self._log.append(text)
        self._queue(job)
