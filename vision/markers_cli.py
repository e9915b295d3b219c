"""``touchline markers``: write the printable marker sheet (PNG and PDF at true size)."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.fublet.components import load_board

from .config import MarkerMap, MarkerSet
from .errors import VisionError
from .markers import marker_sheet
from .printing import PAPER_MM, write_pdf, write_png


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Write the sheet of figure caps, the ball token and the four corner markers, with cut "
                          "lines and where each corner marker goes, as OUT/touchline-markers.png and .pdf at true "
                          "size. Print at 100 %.")
    parser.add_argument("--out", type=Path, default=Path("."), metavar="DIR", help="folder to write into (default .)")
    parser.add_argument("--dpi", type=float, default=300.0, help="printer resolution (default 300)")
    parser.add_argument("--paper", choices=sorted(PAPER_MM), default="a4", help="paper size (default a4)")
    parser.add_argument("--map", type=Path, metavar="MAP.json", help="label the caps from this marker map")
    parser.add_argument("--marker-height-mm", type=float, metavar="H", help="cap height printed in the instructions")
    parser.add_argument("--force", action="store_true", help="replace existing sheets")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 72 <= args.dpi <= 2400:
        raise VisionError(f"--dpi must be 72..2400, got {args.dpi:g}")
    markers = MarkerSet() if args.marker_height_mm is None else MarkerSet(cap_height_mm=args.marker_height_mm)
    marker_map = MarkerMap.load(args.map) if args.map else MarkerMap.default(markers)
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise VisionError(f"{out}: is a file; --out names a folder")
    out.mkdir(parents=True, exist_ok=True)
    png, pdf = out / "touchline-markers.png", out / "touchline-markers.pdf"
    existing = [p for p in (png, pdf) if p.exists()]
    if existing and not args.force:
        raise VisionError(f"{existing[0]}: already exists; choose another --out or add --force")
    sheet = marker_sheet(load_board(), markers, marker_map, args.paper, args.dpi)
    write_png(png, sheet, args.dpi)
    write_pdf(pdf, sheet, args.dpi)
    print(f"wrote {png} and {pdf} ({args.paper.upper()} at {args.dpi:g} dpi): print at 100 %, then check the "
          f"100 mm bar with a ruler")
    return 0
