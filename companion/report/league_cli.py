"""``touchline league``: league tables of the finished matches in the data folder, head-to-head
records and each team's record (see companion/report/history.py for the points)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..cli import EXIT_OK
from ..outfiles import Staged, check_target
from . import history as h
from .history_cli import add_common_arguments, cache_of, folder_of, table


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("League tables of the finished matches in the data folder (3 points a win, 1 a draw, or the "
                     "points the result carries), head-to-head records and each team's record.")
    add_common_arguments(p)
    p.set_defaults(run=run_league)


def run_league(args: argparse.Namespace) -> int:
    folder = folder_of(args)
    if args.csv is not None:  # refused before the folder is read, not after
        base = args.csv.with_suffix("")
        for target in (args.csv, Path(f"{base}-head-to-head.csv"), Path(f"{base}-records.csv")):
            check_target(target, args.force)
    # The listing walks its store (companion/report/entry_store.py) for the tables at once: the
    # matches are never all held, only the tables' rows (a row a side, a row a pair).
    with h.listing(folder, cache_of(args)) as listed:
        entries = listed.selected(args.game, args.team)
        games = [args.game] if args.game else h.games_in(entries)
        counted = h.tables(entries, args.game)   # one walk for every table below
        csv_rows: list[list[Any]] = []
        out = []
        for game in games:
            rows = counted.league(game)
            if not rows:
                continue
            aside = len(h.friendlies(entries, game))
            out.append(f"{h.GAME_NAMES.get(game, game)}: league table ({counted.played[game]} finished "
                       f"matches" + (f"; {aside} friendl{'y' if aside == 1 else 'ies'} not counted" if aside else "")
                       + ")")
            out.append(table(["#"] + h.RECORD_HEADER, [[i] + r.row() for i, r in enumerate(rows, 1)]))
            out.append("")
            csv_rows += [[h.GAME_NAMES.get(game, game), i] + r.row() for i, r in enumerate(rows, 1)]
        pairs = counted.head_to_head(args.game)
        if pairs:
            out.append("Head to head")
            out.append(table(h.H2H_HEADER, [p.row() for p in pairs]))
            out.append("")
        recs = counted.records()
        if recs:
            out.append("Each team's record (all games)")
            out.append(table(h.RECORD_HEADER, [r["all"].row() for r in recs.values()]))
        print("\n".join(out) if out else f"no finished matches in {folder}" + (" for this filter" if entries else ""))
    if args.csv is not None:
        base = args.csv.with_suffix("")
        staged = Staged(args.csv.parent, args.force)  # the three tables are put in place together
        try:
            staged.write_csv(args.csv.name, ["game", "#"] + h.RECORD_HEADER, csv_rows)
            staged.write_csv(f"{base.name}-head-to-head.csv", h.H2H_HEADER, [p.row() for p in pairs])
            staged.write_csv(f"{base.name}-records.csv", ["game"] + h.RECORD_HEADER,
                             [[h.GAME_NAMES.get(g, g) if g != "all" else "all games"] + r.row()
                              for per in recs.values() for g, r in per.items()])
        except BaseException:
            staged.discard()
            raise
        staged.commit()
        print(f"wrote {args.csv}, {base}-head-to-head.csv and {base}-records.csv", file=sys.stderr)
    return EXIT_OK
