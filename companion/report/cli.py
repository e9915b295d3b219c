"""``touchline report MATCH --out DIR``: a match's report as a web page, plots, CSV and JSON.

MATCH is a journal or a JSON Lines export, read as ``touchline replay`` reads it (a journal
through a private copy: never modified). The files are written beside their places and renamed
in together; a link at DIR or at any of them is refused, and so are a report's files already in
DIR unless ``--force`` (companion/outfiles.py). Bad input ends with one line naming the file and
what is wrong, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..cli import CliError, EXIT_OK, load_match
from ..outfiles import check_folder
from .build import build_report


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Write a match's report into DIR: index.html with plots (possession, timeline, the game's "
                     "counters, the luck meter, heat maps), report.json and CSV tables for spreadsheets.")
    p.add_argument("match", type=Path, metavar="MATCH", help="a journal (.sqlite) or a JSON Lines export")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="the folder to write (made if missing)")
    p.add_argument("--png", action="store_true", help="also write each plot as PNG")
    p.add_argument("--force", action="store_true", help="replace the files of a report already in DIR")
    p.add_argument("--print", dest="print_json", action="store_true", help="also print report.json on stdout")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out: Path = args.out
    check_folder(out)  # a link planted at DIR, or a file there: refused before anything is read
    match = load_match(args.match)
    try:
        report = build_report(match.ruleset, match.events)
    except CliError:
        raise
    except Exception as exc:
        raise CliError(f"{args.match}: {exc}") from None
    from .html import write_report

    try:
        index = write_report(report, out, str(args.match), png=args.png, force=args.force)
    except ImportError as exc:  # matplotlib missing: the numbers are written, the plots cannot be
        raise CliError(f"the report's plots need {exc.name or 'matplotlib'}: install the project with its "
                       f"dependencies (pip install -e .); report.json and the CSV tables are in {out}") from None
    if args.print_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
    state = "finished" if report["finished"] else "not finished"
    print(f"report of {args.match} ({report['game']}, {state}, {report['events']} events) written to {index}")
    return EXIT_OK
