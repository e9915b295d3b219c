"""A report's plots opened the first time and again (issue 32, item 3), as the tablet's report
screen draws them (companion/report/plot_cache.py ``drawn``: PNG at 150 dpi into the match's
report folder), each in a fresh process beside ``python -c 'import sqlite3, json'``, one after
another in each round. Figures for docs/benchmarks.md; nothing here asserts on time.

    .venv/bin/python benchmarks/bench_report_reopen.py --rounds 3

Each game's shipped full match (tests/data/*_full_match.jsonl) is replayed and its report's
numbers written once as JSON; a process then reads them and asks for the plots: *first* into
an empty folder (matplotlib imported, five plots drawn, the manifest written), *again* into
the same folder (the manifest and the plots checked, nothing drawn). CPU is user + system of
the process (``os.wait4``), Python's start included.
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
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.run import machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("fublet", "futboard", "football_leader", "fussball_liga")

CHILD = r"""
import json, sys
from pathlib import Path
from companion.report.plot_cache import drawn
folder = Path(sys.argv[2])
folder.mkdir(exist_ok=True)
drawn(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), folder, ("png",), dpi=150)
"""


def run(args: list[str]) -> tuple[float, float]:
    """(wall s, CPU s) of one process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(args)} failed:\n{err[-1500:]}")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    from companion.games import ruleset_for
    from companion.jsonl import read_file
    from companion.report import build_report

    work = Path(tempfile.mkdtemp(prefix="touchline-report-reopen-"))
    try:
        for game in GAMES:
            events = read_file(ROOT / "tests" / "data" / f"{game}_full_match.jsonl").events
            (work / f"{game}.json").write_text(json.dumps(build_report(ruleset_for(game), events)), encoding="utf-8")
        print(f"machine: {machine()}; load {os.getloadavg()}; {args.rounds} rounds")
        got: dict[str, list[float]] = {}
        for r in range(args.rounds):
            base = run([sys.executable, "-c", "import sqlite3, json"])[1]
            got.setdefault("base", []).append(base)
            for game in GAMES:
                folder = work / f"{game}-{r}"
                first = run([sys.executable, "-c", CHILD, str(work / f"{game}.json"), str(folder)])[1]
                again = run([sys.executable, "-c", CHILD, str(work / f"{game}.json"), str(folder)])[1]
                got.setdefault(f"{game} first", []).append(first)
                got.setdefault(f"{game} again", []).append(again)
                print(f"round {r + 1} {game:16s} first {first * 1000:6.0f} ms, again {again * 1000:5.0f} ms CPU "
                      f"(base {base * 1000:.0f} ms)")
        base = statistics.median(got["base"])
        print(f"\nload at the end {os.getloadavg()}\n")
        print("| plots | CPU ms (median) | / `import sqlite3, json` |")
        print("|---|---:|---:|")
        print(f"| `python -c 'import sqlite3, json'` | {base * 1000:.0f} | 1.0x |")
        for key, values in got.items():
            if key != "base":
                med = statistics.median(values)
                print(f"| {key} | {med * 1000:.0f} | {med / base:.1f}x |")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
