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
from pathlib import Path
from typing import Any, Callable, Sequence

from . import __version__
from .datafiles import package_folder
from .errors import TouchlineError
from .anchors import Verdict, anchored
from .jsonl import Imported, export_file, import_to_journal, unvouched
# Reading a match file lives below the commands and the report (companion/loading.py); the names
# callers took from here (load_match, read_match...) stay importable from here.
from .loading import (MatchFileError, Reading, default_anchors, is_journal_file, load_journal,  # noqa: F401
                      load_match, read_journal, read_match)
from .match_text import match_text
from .outfiles import OutputRefused, check_target

log = logging.getLogger("touchline")

EXIT_OK, EXIT_ERROR = 0, 2
DEMO_FILE = "demo/fublet_demo.jsonl"


class CliError(TouchlineError):
    """A command cannot go on (bad arguments, a file in the way, an unknown game)."""


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
    stored, loaded = read_journal(args.journal)
    found = anchored(default_anchors(), args.journal, loaded.checked, stored.omitted) if loaded.checked else Verdict()
    if found.refused:
        stored, loaded = read_journal(args.journal)  # the app may have appended since: read again once
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
    ref = package_folder(__package__, DEMO_FILE)
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
plugin("club", "ui.web.club_cli", "serve a club: every table live, one league of signed results; or publish a journal to one")


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
