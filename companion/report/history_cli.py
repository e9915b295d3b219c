"""``touchline history`` and ``touchline league``: the matches in the data folder.

    touchline history [--data-dir DIR] [--game G] [--team T] [--csv FILE] [--json]
    touchline league  [--data-dir DIR] [--game G] [--team T] [--csv FILE]

The folder is the app's matches folder (``<data dir>/matches``; ``--data-dir`` as for
``touchline app``, or ``--folder`` for any folder of journals and exports). Files are read
through private copies, never changed; a damaged or foreign file is listed as unreadable.
What each file holds is kept in the history's cache (companion/report/history.py), the one
the app's Matches screen keeps beside the matches (``<data dir>/reports/history-cache.json``):
a file is replayed again only when it changed. A ``--folder`` is left as found, so it has no
cache unless ``--cache FILE`` names one; ``--no-cache`` reads every file again and writes none.
``--csv`` never writes through a link and replaces an existing file only with ``--force``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TextIO

from ..cli import CliError, EXIT_OK
from ..errors import TouchlineError
from ..opener import read_head
from ..outfiles import check_target
from ..paths import user_data_dir
from . import history as h


def add_common_arguments(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--data-dir", type=Path, metavar="DIR",
                       help="the app's data folder (its matches/ are read); default: this computer's")
    where.add_argument("--folder", type=Path, metavar="DIR", help="read the journals and exports in DIR itself")
    p.add_argument("--game", choices=sorted(h.GAME_NAMES), help="only this game's matches")
    p.add_argument("--team", metavar="NAME", help="only matches of a team whose name contains NAME")
    p.add_argument("--csv", type=Path, metavar="FILE", help="also write the table(s) as CSV")
    p.add_argument("--force", action="store_true", help="replace the CSV file(s) if they exist")
    cached = p.add_mutually_exclusive_group()
    cached.add_argument("--cache", type=Path, metavar="FILE",
                        help="keep what the files hold in FILE (default: the data folder's reports/"
                             "history-cache.json, the app's; none for a --folder, which is left as found)")
    cached.add_argument("--no-cache", action="store_true",
                        help="read every match file again, and keep no cache of what they hold")


def folder_of(args: argparse.Namespace) -> Path:
    if args.folder is not None:
        if not args.folder.is_dir():
            raise CliError(f"{args.folder}: no such folder")
        return args.folder
    return (args.data_dir if args.data_dir is not None else user_data_dir()) / "matches"


def cache_of(args: argparse.Namespace) -> Path | None:
    """The history's cache the listing reads and keeps: ``--cache``, else the app's for a data
    folder; None for a ``--folder`` (nothing is written into it) and with ``--no-cache``."""
    if args.no_cache:
        return None
    if args.cache is not None:
        if args.cache.exists() or args.cache.is_symlink():
            try:
                ours = read_head(args.cache, len(h.CACHE_HEAD), "a history cache") == h.CACHE_HEAD
            except TouchlineError:
                ours = False
            if not ours:  # a file of the coach's named by mistake is never written over
                raise CliError(f"{args.cache}: exists and is no history cache; --cache names a new file or "
                               f"one an earlier listing wrote")
        return args.cache
    if args.folder is not None:
        return None
    return h.cache_path(args.data_dir if args.data_dir is not None else user_data_dir())


def table(header: list[str], rows: list[list[Any]]) -> str:
    """The rows under the header in aligned columns (two spaces apart), a rule under the header."""
    out = io.StringIO()
    write_table(out, header, lambda: rows)
    return out.getvalue()[:-1]


def write_table(out: TextIO, header: list[str], rows: Callable[[], Iterable[list[Any]]]) -> None:
    """What ``table`` makes, written a line at a time: the columns' widths from a first pass
    over ``rows()``, the lines from a second, so no table of every row's cells is held (a
    season of 10,000 matches would be some 100,000 strings at once)."""
    widths = [len(str(c)) for c in header]
    for r in rows():
        widths = [max(w, len(c)) for w, c in zip(widths, _cells(r))]
    out.write(_line([str(c) for c in header], widths) + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for r in rows():
        out.write(_line(_cells(r), widths) + "\n")


def _cells(row: list[Any]) -> list[str]:
    return ["" if c is None else str(c) for c in row]


def _line(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "List every match in the data folder: game, teams, score, date, finished or not."
    add_common_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    p.set_defaults(run=run_history)


def _listed(e: h.Entry, titled: bool) -> list[Any]:
    """A match's row of the listing: its CSV row (history_row) said shorter, with its copies."""
    r = h.history_row(e)
    copies = f" (+{len(e.copies)} cop{'y' if len(e.copies) == 1 else 'ies'})" if e.copies else ""
    return ([r[0][:16].replace("T", " "), r[1], r[2], r[3], f"{r[4]}-{r[5]}" if r[6] != "unreadable" else "",
             r[6] + (", friendly" if e.friendly else ""), r[7], r[8] + copies, r[9]] + ([e.title] if titled else []))


def run_history(args: argparse.Namespace) -> int:
    folder = folder_of(args)
    if args.csv is not None:
        check_target(args.csv, args.force)  # refused before the folder is read, not after
    # The listing is read from its store each time it is walked (companion/report/entry_store.py):
    # no pass holds every entry, so a season of 10,000 matches lists in the memory of a dozen.
    with h.listing(folder, cache_of(args)) as entries:
        picked = entries.selected(args.game, args.team)

        def shown() -> Iterator[h.Entry]:
            yield from picked
            yield from picked.left_out()   # unreadable files belong to no game or team, but stay in sight

        if args.json:
            for e in shown():
                sys.stdout.write(json.dumps(e.to_json(), ensure_ascii=False) + "\n")
        elif next(shown(), None) is None:
            print(f"no matches in {folder}" + (" for this filter" if entries else ""))
        else:
            # Once (asked row by row, 10,000 matches took 7 s of CPU); the unreadable files left out
            # of a filter have a title as much as any.
            titled = picked.titled() or any(e.title for e in picked.left_out())
            write_table(sys.stdout, ["date (UTC)", "game", "home", "away", "score", "status", "result", "file",
                                     "problem"] + (["name"] if titled else []),
                        lambda: (_listed(e, titled) for e in shown()))
        if args.csv is not None:
            h.write_csv(args.csv, h.HISTORY_HEADER, (h.history_row(e) for e in shown()), args.force)
            print(f"wrote {args.csv}", file=sys.stderr)
    return EXIT_OK
