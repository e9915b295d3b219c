"""The ``touchline`` command: replay, export and import match journals; the demo match.

    touchline replay FILE [--json-indent N]      a journal or a JSON Lines export -> summary
    touchline export JOURNAL OUT.jsonl [--active-only] [--force]
    touchline import IN.jsonl JOURNAL
    touchline verify FILE                        check the hash chain and every event's domain
    touchline demo

Expected failures (a bad file, a refused import...) print one line on stderr and exit with
status 2; they never show a Python traceback. Each subcommand is registered by a small
``add_*`` function in ``SUBCOMMANDS``, so more (vision, markers, tray tools) plug in the same
way.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sqlite3
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

from . import __version__
from .errors import TouchlineError
from .events import Event
from .anchors import AnchorBook, Verdict, anchored
from .journal import Loaded, Stored, check_stored, read_stored
from .journal_chain import Checked
from .jsonl import Imported, export_file, import_to_journal, read_file, unvouched
from .match import Match
from .match_text import match_text
from .opener import read_head
from .outfiles import OutputRefused, check_target
from .paths import user_data_dir
from .ruleset import Ruleset

log = logging.getLogger("touchline")

EXIT_OK, EXIT_ERROR = 0, 2
SQLITE_HEADER = b"SQLite format 3\x00"
JOURNAL_SUFFIXES = (".sqlite", ".sqlite3", ".db")
DEMO_FILE = "demo/fublet_demo.jsonl"


class CliError(TouchlineError):
    """A command cannot go on (bad arguments, a file in the way, an unknown game)."""


# --- reading matches -----------------------------------------------------------------------------

def is_journal_file(path: Path) -> bool:
    """A journal by its suffix, or by the SQLite header whatever it is called (read without
    blocking: a FIFO or a device is no journal, and is refused when it is read as an export)."""
    if path.suffix.lower() in JOURNAL_SUFFIXES:
        return True
    try:
        return read_head(path, len(SQLITE_HEADER)) == SQLITE_HEADER
    except TouchlineError:
        return False


def ruleset_named(game: str, name: str = "") -> Ruleset:
    """The rules of ``game``; when this Touchline has none, the refusal names the file."""
    from .games import ruleset_for

    try:
        return ruleset_for(game)
    except KeyError as exc:
        raise CliError(f"{name}: {exc.args[0]}; it was left untouched" if name else exc.args[0]) from None


def game_of(events: Sequence[Event], name: str) -> str:
    """The game a JSON Lines file belongs to: the prefix of its first event's type."""
    if not events:
        raise CliError(f"{name}: holds no events; a match starts with its creation event")
    game, dot, _ = events[0].type.partition(".")
    if not dot:
        raise CliError(f"{name}: event {events[0].seq} has type {events[0].type!r}, which names no game "
                       f"(expected '<game>.<event>')")
    return game


def build_match(ruleset: Ruleset, loaded: Loaded | Imported, name: str) -> Match:
    """Fold stored events into a match; a failure names the file and the event's seq."""
    events = loaded.events
    if events and not isinstance(events[0].payload, ruleset.created_type):
        raise CliError(f"{name}: event {events[0].seq} is {events[0].type}; a {ruleset.game} match starts with "
                       f"{ruleset.created_type.TYPE}")
    try:
        return Match.from_events(ruleset, events, loaded.redo)
    except TouchlineError as exc:
        raise CliError(f"{name}: {exc}") from None


def load_export(path: Path) -> tuple[Imported, str, Match]:
    """A JSON Lines export checked line by line, its game, and the match it replays to."""
    imported = read_file(path)
    game = game_of(tuple(event for event, _ in imported.all_rows), str(path))
    match = build_match(ruleset_named(game, str(path)), imported, str(path))
    return imported, game, match


@dataclass(frozen=True)
class Reading:
    """A match file read, checked and folded, with what its chain and this tablet's anchors
    (companion/anchors.py) say of it."""

    path: Path
    game: str
    match: Match
    source: Loaded | Imported
    rows: tuple[tuple[Event, str], ...]
    note: str          # what the chain cannot vouch for ('' when it vouches for every event)
    altered: str       # why its events are not the match as recorded ('' when nothing says so)
    unchained: bool    # an export with no hash chain at all (stripped, or of an older Touchline)
    journal: bool
    checked: Checked | None

    @property
    def head(self) -> str:
        header = getattr(self.source, "header", None)
        if header is not None:
            return header.head
        return self.checked.head if self.checked else ""

    @property
    def last_seq(self) -> int:
        header = getattr(self.source, "header", None)
        if header is not None:
            return header.last_seq
        return self.checked.last_seq if self.checked else 0

    @property
    def first(self) -> str:
        c = self.checked
        return c.hashes[0] if c and c.hashes and c.events[0].seq == 1 else ""

    def hash_at(self, seq: int) -> str | None:
        """The file's hash at ``seq`` (computed for an unchained file), None where it has none."""
        c = self.checked
        if c is None:
            return None
        found = next((h for e, h in zip(c.events, c.hashes) if e.seq == seq), None)
        if found is None:
            omitted = getattr(self.source, "omitted", None)
            found = next((h for last, h in (omitted or {}).values() if last == seq), None)
        return found


def default_anchors() -> AnchorBook:
    """This computer's anchors (the data folder's, ``TOUCHLINE_DATA_DIR`` when set)."""
    return AnchorBook.of_data_dir(user_data_dir())


_DEFAULT = object()


def read_match(path: Path, anchors: Any = _DEFAULT) -> Reading:
    """A match from a journal (one consistent read-only snapshot) or a JSON Lines export,
    checked against this tablet's anchors (``anchors``: an AnchorBook, None for none, or this
    computer's by default). A journal cut short of its anchor, or rewritten, is refused."""
    book = default_anchors() if anchors is _DEFAULT else anchors
    path = Path(path)
    if is_journal_file(path):
        stored, loaded = _journal(path)
        found = anchored(book, path, loaded.checked, stored.omitted, journal=True) if loaded.checked else Verdict()
        if found.refused:  # the app may have appended (and anchored) since the read: read again once
            stored, loaded = _journal(path)
            found = anchored(book, path, loaded.checked, stored.omitted, journal=True) if loaded.checked else Verdict()
        if found.refused:
            raise CliError(f"{path}: {found.text}")
        match = build_match(ruleset_named(loaded.game, str(path)), loaded, str(path))
        source: Loaded | Imported = loaded
        game, checked, rows, unchained = loaded.game, loaded.checked, loaded.checked.rows if loaded.checked else (), False
    else:
        imported, game, match = load_export(path)
        source, checked, rows, unchained = imported, imported.checked, imported.all_rows, imported.unchained
        found = anchored(book, path, checked, imported.omitted, journal=False) if checked else Verdict()
    altered = source.altered or (found.text.partition(": ")[2] if found.kind == "altered" else "")
    note = source.note
    if found.kind == "earlier":
        note = f"{note}; {found.text}" if note else f"{path}: {found.text}"
    return Reading(path, game, match, source, rows, note, altered, unchained, isinstance(source, Loaded), checked)


def _journal(path: Path) -> tuple[Stored, Loaded]:
    stored = read_stored(path)
    return stored, check_stored(stored)


def load_match(path: Path, notes: bool = True) -> Match:
    """A match from a journal (one consistent read-only snapshot) or a JSON Lines export.
    What the file's chain cannot vouch for is logged as a note (unless ``notes`` is off); a
    file marked altered is said as a warning."""
    reading = read_match(path)
    if reading.altered and notes:
        log.warning("%s: altered: %s", path, reading.altered)
    elif reading.note and notes:  # not a fault: `touchline verify` prints it, -v shows it here
        log.info("%s", reading.note)
    return reading.match


def load_journal(path: Path) -> Loaded:
    """A journal's checked contents, read as one consistent snapshot without writing."""
    return check_stored(read_stored(path))


# --- output -----------------------------------------------------------------------------------------

def print_json(value: Any, indent: int) -> None:
    text = json.dumps(value, indent=indent if indent > 0 else None, ensure_ascii=False)
    sys.stdout.write(text + "\n")


def scoreboard(summary: dict[str, Any]) -> str:
    """One line for people: teams, score, period and minute, or the result."""
    teams, score = summary.get("teams"), summary.get("score")
    if not isinstance(teams, dict) or not isinstance(score, dict):
        return f"{summary.get('game', 'match')}: {summary.get('phase', 'not started')}"
    line = f"{teams.get('home')} {score.get('home')} - {score.get('away')} {teams.get('away')}"
    shootout = summary.get("shootout")
    if isinstance(shootout, dict):
        line += f" ({shootout.get('home')} - {shootout.get('away')} on penalties)"
    result = summary.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        who = teams.get(winner, winner) if winner else None
        verdict = f"{who} win" if who else "a draw"
        return f"{line} | final: {verdict} ({result.get('decided_by')})"
    where = f"{summary.get('half')}, {summary.get('minute')}'"
    return f"{line} | {where} | round {summary.get('round')}, {str(summary.get('phase', '')).replace('_', ' ')}"


# --- subcommands --------------------------------------------------------------------------------------

def add_replay(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="rebuild a match from a journal or a JSON Lines export and print its summary",
                       description="Rebuild a match from its events and print the state summary as JSON. FILE is "
                                   "a journal (.sqlite/.db, read as one consistent snapshot, also while a match is being "
                                   "written to it: never modified) or a "
                                   "JSON Lines export.")
    p.add_argument("file", type=Path, metavar="FILE")
    add_indent(p)
    p.set_defaults(run=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    match = load_match(args.file)
    print_json(match.summary(), args.json_indent)
    return EXIT_OK


def add_export(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write a journal's events as JSON Lines",
                       description="Write every event of a journal as JSON Lines (undone and discarded ones "
                                   "carry their status), for sharing and bug reports. The journal is not modified.")
    p.add_argument("journal", type=Path, metavar="JOURNAL")
    p.add_argument("out", type=Path, metavar="OUT.jsonl")
    p.add_argument("--active-only", action="store_true", help="leave out undone and discarded events")
    p.add_argument("--force", action="store_true", help="replace OUT.jsonl if it exists")
    p.set_defaults(run=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    out: Path = args.out
    check_target(out, args.force)  # a link, a folder or (without --force) any file there: refused
    if out.exists() and is_journal_file(out):
        raise CliError(f"{out}: is an SQLite file (a journal?); it will not be replaced by an export")
    stored, loaded = _journal(args.journal)
    found = anchored(default_anchors(), args.journal, loaded.checked, stored.omitted) if loaded.checked else Verdict()
    if found.refused:
        stored, loaded = _journal(args.journal)  # the app may have appended since: read again once
        found = anchored(default_anchors(), args.journal, loaded.checked, stored.omitted) if loaded.checked \
            else Verdict()
    if found.refused:
        raise CliError(f"{args.journal}: {found.text}; nothing was written")
    altered = found.text.partition(": ")[2] if found.kind == "altered" else ""
    try:
        count = export_file(stored, loaded, out, include_undone=not args.active_only, force=args.force,
                            altered=altered)
    except OutputRefused:
        raise
    except OSError as exc:
        raise CliError(f"{out}: cannot write the export ({exc.strerror or exc}); nothing was written") from None
    kind = "active events (an --active-only export, as its header says)" if args.active_only else "events"
    print(f"exported {count} {kind} from {args.journal} to {out}")
    if loaded.note or altered:
        print(f"note: {loaded.note or f'{args.journal}: altered: {altered}'}")
    return EXIT_OK


def add_import(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="make a new journal from a JSON Lines export",
                       description="Check a JSON Lines export line by line, replay it, and write it into a new "
                                   "journal file (never over an existing file).")
    p.add_argument("source", type=Path, metavar="IN.jsonl")
    p.add_argument("journal", type=Path, metavar="JOURNAL")
    p.add_argument("--accept-altered", action="store_true",
                   help="import an export that carries no hash chain (stripped, or of an older Touchline) or is "
                        "marked altered; the new journal, and every export and import of it, stays marked altered")
    p.set_defaults(run=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    target: Path = args.journal
    if target.exists():
        raise CliError(f"{target}: a file already exists there; importing never overwrites: choose a new path")
    reading = read_match(args.source)  # refuses what would not replay
    if is_journal_file(args.source) or not isinstance(reading.source, Imported):
        raise CliError(f"{args.source}: is a journal, not a JSON Lines export: copy the file, or export it first")
    imported, game = reading.source, reading.game
    why = unvouched(imported, str(args.source)) or (f"{args.source}: {reading.altered}" if reading.altered else "")
    if why and not args.accept_altered:
        raise CliError(f"{why}; it was not imported. To import it anyway, marked altered in the new journal and "
                       f"every copy of it, add --accept-altered")
    import_to_journal(imported, target, game, accept_altered=args.accept_altered, source=str(args.source),
                      altered=reading.altered).close()
    print(f"imported {len(imported.all_rows)} events ({game}) from {args.source} into {target}")
    if why:
        print(f"note: {target}: marked altered: its events were accepted on your word")
    elif imported.note:
        print(f"note: {imported.note}")
    return EXIT_OK


def add_verify(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check a journal or an export: hash chain, order, domains, replay",
                       description="Check every event of a journal or a JSON Lines export, in order: the hash "
                                   "chain, sequence and batches, statuses, each event type's domain, and that the "
                                   "events replay. Names the first event where anything breaks (exit status 2); "
                                   "never modifies the file.")
    p.add_argument("file", type=Path, metavar="FILE")
    p.set_defaults(run=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    path: Path = args.file
    reading = read_match(path)
    rows, note, game, head = reading.rows, reading.note, reading.game, reading.head
    chained = not reading.unchained and getattr(reading.source, "chained", True)
    statuses = {s: sum(1 for _, st in rows if st == s) for s in ("active", "undone", "discarded")}
    counts = ", ".join(f"{n} {s}" for s, n in statuses.items() if n)
    if reading.altered:
        raise CliError(f"{path}: altered: {reading.altered}; its {len(rows)} {game} events replay, but they cannot "
                       f"be vouched for as the match played")
    if reading.unchained:
        raise CliError(f"{path}: no hash chain (no header and no hashes: an export whose chain was stripped, or "
                       f"of an older Touchline): its {len(rows)} {game} events replay, but an edited event cannot "
                       f"be told, so it is not vouched for")
    chain = f"hash chain intact (head {head[:16]})" if chained else "no hash chain stored"
    print(f"{path}: ok: {len(rows)} {game} events ({counts or 'none'}); {chain}; every event in its domain "
          f"and the match replays")
    if note:
        print(f"note: {note}")
    return EXIT_OK


def add_demo(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="the tablet app playing the highlights of a whole match on a rendered table, "
                                    "seen by the rendered camera, with its dice thrown in the simulated tray",
                       description="Start the tablet app in demo mode: the highlights of a whole Fublet match, "
                                   "kick-off to final whistle and report, played through the synthetic camera and "
                                   "the dice-tray simulator, each moment said on screen. With --text, replay the "
                                   "shipped demo match instead and print its scoreboard (--json: its summary "
                                   "as JSON).")
    p.add_argument("--text", action="store_true", help="no window: replay the shipped match and print its scoreboard")
    p.add_argument("--json", action="store_true", help="with --text: print the match's summary as JSON instead")
    p.add_argument("--pace", type=float, default=1.0, metavar="S",
                   help="seconds between the demo's steps, so people can follow (default 1; 0 runs flat out)")
    p.add_argument("--exit-when-done", action="store_true", help="close the app when the demo ends")
    p.add_argument("--result", type=Path, metavar="FILE", help="write the final state and the steps as JSON")
    add_indent(p)
    p.set_defaults(run=cmd_demo)


def demo_path() -> Path | None:
    """The shipped demo match, if this installation has one."""
    ref = resources.files(__package__).joinpath(DEMO_FILE)
    try:
        if ref.is_file():
            return Path(os.fspath(ref))
    except (OSError, TypeError):  # not a plain file on disk (zipped install)
        return None
    return None


def cmd_demo(args: argparse.Namespace) -> int:
    if not args.text:
        try:  # by name, as the plugins are: the core never imports the tablet app
            run_demo = importlib.import_module("ui.demo_app").run_demo
        except ImportError as exc:
            raise CliError(f"the demo needs the tablet app and its devices ({exc.name}): install the project with "
                           f"its dependencies, or use 'touchline demo --text'") from None
        return run_demo(args)
    path = demo_path()
    if path is None:
        print(f"The demo match is not shipped in this version yet (companion/{DEMO_FILE} is missing).\n"
              f"Replay a match of your own instead: touchline replay MATCH.sqlite (or an export .jsonl).")
        return EXIT_OK
    match = load_match(path, notes=False)  # the shipped demo is a fixture, written without a chain
    if args.json:
        print_json(match.summary(), args.json_indent)
    else:
        print(match_text(match))
    return EXIT_OK


def add_indent(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json-indent", type=int, default=2, metavar="N",
                   help="indent the JSON by N spaces (0: one line); default 2")


# Each entry registers one subcommand; add new ones (vision, markers, tray-sim, tray-listen...) here.
SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [add_replay, add_export, add_import, add_verify,
                                                                   add_demo]


# Subcommands that live in the other packages (camera, dice tray, tablet). Their modules may
# import cv2, serial or kivy, so each is imported only when its own command runs: the rules
# core stays pure and ``touchline replay`` stays quick. A plugin module provides
# ``add_arguments(parser)``, which must ``parser.set_defaults(run=...)``; ``run(args)``
# returns the exit status.
PLUGINS: dict[str, tuple[str, str]] = {}


def plugin(name: str, module: str, help_text: str) -> None:
    PLUGINS[name] = (module, help_text)


plugin("app", "ui.cli", "start the tablet app (what plain 'touchline' does)")
plugin("serve", "ui.web.cli", "serve a read-only live scoreboard web page for a match, following its journal")
plugin("vision", "vision.cli", "locate the figures on camera images, or watch a camera live")
plugin("markers", "vision.markers_cli", "write the printable sheet of figure caps, ball token and corner markers")
plugin("calibrate-lens", "calibration.lens_cli", "calibrate the camera's lens with a ChArUco board")
plugin("tray-sim", "firmware_bridge.sim_cli", "run a simulated dice tray on a virtual serial port")
plugin("tray-listen", "firmware_bridge.listen_cli", "print the rolls a dice tray reports, as JSON lines")
plugin("report", "companion.report.cli", "write a match's report: a web page with plots, CSV and JSON")
plugin("history", "companion.report.history_cli", "list every match in the data folder")
plugin("league", "companion.report.league_cli", "league tables, head to head and each team's record")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="touchline", description="Touchline: the companion for football board "
                                                                   "games. Journals, replays and the demo match.")
    parser.add_argument("--version", action="version", version=f"touchline {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    for name, (module, help_text) in PLUGINS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            try:
                importlib.import_module(module).add_arguments(p)
            except ImportError as exc:
                raise CliError(f"'touchline {name}' needs {exc.name or 'a missing module'}: install the project "
                               f"with its dependencies (pip install -e .)") from None
        else:
            p.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def _default_argv(argv: list[str]) -> list[str]:
    """Plain ``touchline`` starts the tablet app."""
    return argv or ["app"]


def _command_of(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if not arg.startswith("-"):
            return arg
    return None


def configure_logging(verbosity: int) -> Callable[[], None]:
    """Log to this command's stderr; returns how to put the previous logging back (``main``
    does when the command ends, so a caller in the same process, a test, keeps no handler
    bound to a stream that may be closed by then)."""
    level = logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("touchline: %(levelname)s: %(name)s: %(message)s"))
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    root.handlers[:] = [handler]
    root.setLevel(level)

    def restore() -> None:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
    return restore


def describe_error(exc: BaseException) -> str:
    """One line: what is wrong, naming the file where there is one."""
    if isinstance(exc, OSError) and not isinstance(exc, TouchlineError):
        where = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        text = f"{where}: {reason}" if where else reason
    elif isinstance(exc, sqlite3.Error):
        text = f"the journal cannot be used ({exc})"
    else:
        text = str(exc)
    return " ".join(text.split())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``touchline`` command; returns the exit status (0 ok, 2 expected failure)."""
    argv = _default_argv(list(sys.argv[1:] if argv is None else argv))
    try:
        parser = build_parser(_command_of(argv))
    except CliError as exc:
        print(f"touchline: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) or a usage error (2): argparse printed why
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    restore_logging = configure_logging(args.verbose)
    try:
        return args.run(args)
    except (TouchlineError, OSError, sqlite3.Error) as exc:
        log.debug("%s failed", args.command, exc_info=True)
        print(f"touchline {args.command}: error: {describe_error(exc)}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"touchline {args.command}: interrupted", file=sys.stderr)
        return 130
    finally:
        restore_logging()


__all__ = ["main", "build_parser", "SUBCOMMANDS", "PLUGINS", "plugin", "load_match", "load_journal", "scoreboard", "CliError"]


if __name__ == "__main__":
    raise SystemExit(main())
