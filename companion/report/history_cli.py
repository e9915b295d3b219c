"""``touchline history`` and ``touchline league``: the matches in the data folder.

    touchline history [--data-dir DIR] [--game G] [--team T] [--csv FILE] [--json]
    touchline league  [--data-dir DIR] [--game G] [--team T] [--csv FILE]

The folder is the app's matches folder (``<data dir>/matches``; ``--data-dir`` as for
``touchline app``, or ``--folder`` for any folder of journals and exports). Files are read
through private copies, never changed; a damaged or foreign file is listed as unreadable.
``--csv`` never writes through a link and replaces an existing file only with ``--force``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..cli import CliError, EXIT_OK
from ..outfiles import check_target
from ..paths import user_data_dir
from . import history as h


def _common(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--data-dir", type=Path, metavar="DIR",
                       help="the app's data folder (its matches/ are read); default: this computer's")
    where.add_argument("--folder", type=Path, metavar="DIR", help="read the journals and exports in DIR itself")
    p.add_argument("--game", choices=sorted(h.GAME_NAMES), help="only this game's matches")
    p.add_argument("--team", metavar="NAME", help="only matches of a team whose name contains NAME")
    p.add_argument("--csv", type=Path, metavar="FILE", help="also write the table(s) as CSV")
    p.add_argument("--force", action="store_true", help="replace the CSV file(s) if they exist")


def folder_of(args: argparse.Namespace) -> Path:
    if args.folder is not None:
        if not args.folder.is_dir():
            raise CliError(f"{args.folder}: no such folder")
        return args.folder
    return (args.data_dir if args.data_dir is not None else user_data_dir()) / "matches"


def table(header: list[str], rows: list[list[Any]]) -> str:
    cells = [[str(c) for c in header]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "List every match in the data folder: game, teams, score, date, finished or not."
    _common(p)
    p.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    p.set_defaults(run=run_history)


def run_history(args: argparse.Namespace) -> int:
    folder = folder_of(args)
    if args.csv is not None:
        check_target(args.csv, args.force)  # refused before the folder is read, not after
    entries = h.scan(folder)
    shown = h.select(entries, args.game, args.team)
    if args.game or args.team:  # unreadable files belong to no game or team, but stay in sight
        shown += [e for e in entries if not e.ok and e not in shown]
    if args.json:
        for e in shown:
            sys.stdout.write(json.dumps(e.to_json(), ensure_ascii=False) + "\n")
    elif not shown:
        print(f"no matches in {folder}" + (" for this filter" if entries else ""))
    else:
        rows = [[r[0][:16].replace("T", " "), r[1], r[2], r[3], f"{r[4]}-{r[5]}" if r[6] != "unreadable" else "",
                 r[6] + (", friendly" if e.friendly else ""), r[7],
                 r[8] + (f" (+{len(e.copies)} cop{'y' if len(e.copies) == 1 else 'ies'})" if e.copies else ""), r[9]]
                + ([e.title] if any(x.title for x in shown) else []) for r, e in zip(h.history_rows(shown), shown)]
        print(table(["date (UTC)", "game", "home", "away", "score", "status", "result", "file", "problem"]
                    + (["name"] if any(e.title for e in shown) else []), rows))
    if args.csv is not None:
        h.write_csv(args.csv, h.HISTORY_HEADER, h.history_rows(shown), args.force)
        print(f"wrote {args.csv}", file=sys.stderr)
    return EXIT_OK
