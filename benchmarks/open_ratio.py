"""Open and replay against a bare read and parse, each game, this checkout beside another
(issue 32, item 4), interleaved in one run.

    .venv/bin/python benchmarks/open_ratio.py --against /work/main --rounds 3 [--keep FOLDER]

Makes the four journals journal_bench.py times (the 5,000-event Fublet match and the longest
match each other game's driver plays), then, round after round, times each journal's open
(``Match.open``) against the bare read (SQLite reads every row, ``json.loads`` each payload)
in a fresh process of each checkout in turn (``journal_bench.py --time-open``: 15 alternating
runs, CPU medians), so both checkouts see the same load. Prints each round's ratios and their
median per game and checkout. ``--keep`` keeps the journals (and reuses them if present).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("fublet", "futboard", "football_leader", "fussball_liga")

MAKE = r"""
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from benchmarks.journal_bench import OTHER_GAMES, journal_of, long_match, other_match
out = Path(sys.argv[2])
journal_of(out / "fublet.sqlite", "fublet", long_match(5000).match.events)
for game, _, seed, options in OTHER_GAMES:
    journal_of(out / f"{game}.sqlite", game, other_match(game, seed, options))
"""


def timed(code: Path, journal: Path, repeat: int) -> tuple[float, float, float]:
    """(open / bare in CPU time, open CPU ms, bare CPU ms), medians of ``repeat`` alternations."""
    done = subprocess.run([sys.executable, str(code / "benchmarks" / "journal_bench.py"), "--time-open", str(journal),
                           "--repeat", str(repeat)], capture_output=True, text=True, cwd=code,
                          env={**os.environ, "PYTHONPATH": str(code)})
    if done.returncode:
        raise SystemExit(f"{code}: {done.stderr.strip()[-1500:]}")
    times = json.loads(done.stdout.strip().splitlines()[-1])["times"]
    med = {k: statistics.median(v) for k, v in times.items()}
    return med["open_cpu"] / med["bare_cpu"], med["open_cpu"] * 1000, med["bare_cpu"] * 1000


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", type=Path, default=None, help="another checkout, timed alternately")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repeat", type=int, default=15, help="alternating opens and bare reads per process")
    p.add_argument("--keep", type=Path, default=None, help="keep the journals here (reused if present)")
    args = p.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="touchline-open-ratio-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if not all((folder / f"{g}.sqlite").exists() for g in GAMES):
            subprocess.run([sys.executable, "-c", MAKE, str(ROOT), str(folder)], check=True, cwd=ROOT)
        codes = [ROOT] + ([args.against.resolve()] if args.against else [])
        print(f"nproc {os.cpu_count()}, load {os.getloadavg()}; {args.rounds} rounds of {args.repeat}")
        got: dict[tuple[str, Path], list[tuple[float, float, float]]] = {}
        for r in range(args.rounds):
            for game in GAMES:
                for code in codes:
                    got.setdefault((game, code), []).append(timed(code, folder / f"{game}.sqlite", args.repeat))
                    ratio, opened, bare = got[(game, code)][-1]
                    print(f"round {r + 1} {game:16s} {code.name:16s} {ratio:.2f}x ({opened:.1f} / {bare:.1f} ms CPU)")
        print(f"\nload at the end {os.getloadavg()}")
        print("\n| game | checkout | open / bare, each round (CPU) | median |")
        print("|---|---|---|---|")
        for (game, code), runs in got.items():
            print(f"| {game} | {code.name} | {', '.join(f'{x[0]:.2f}' for x in runs)} | "
                  f"{statistics.median(x[0] for x in runs):.2f}x |")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
