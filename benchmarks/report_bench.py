"""The match report's speed, on this machine (goal: a 2,000-event match's report in <= 2 s).

    .venv/bin/python benchmarks/report_bench.py [--events 2000] [--repeat 5]

Two matches: a Fublet match of at least ``--events`` events played by the auto-driver
(benchmarks/driver.py, its slow style: real declarations, rolls and movements), and the shipped Football
Leader full match (2,092 events of cards, turns and a shoot-out). For each: the numbers
alone (``build_report``: fold again and count), and the whole ``touchline report`` job from
the file (read and replay the JSON Lines, build, write report.json and the CSV tables, draw
the five plots as SVG, write index.html), in one process after one warm-up run (wall and CPU
time), and as a new ``touchline report`` process (Python and matplotlib start). Nothing here
asserts on time; the figures go in the README.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.driver import long_match
from benchmarks.run import machine, percentile, timings
from companion.loading import load_match
from companion.jsonl import export_lines
from companion.report import build_report
from companion.report.html import write_report

ROOT = Path(__file__).resolve().parents[1]


def fublet_match(events: int, folder: Path) -> Path:
    driver = long_match(events, seed=3)
    path = folder / "fublet.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        export_lines(((e, "active") for e in driver.match.events), out)
    return path


def measure(path: Path, repeat: int, folder: Path) -> None:
    match = load_match(path)
    events = match.events
    numbers = timings(lambda: build_report(match.ruleset, events), repeat)

    def whole() -> None:
        m = load_match(path)
        write_report(build_report(m.ruleset, m.events), folder / "out", str(path))

    job = timings(whole, repeat)
    cpu = []
    for _ in range(repeat):
        start = time.process_time()
        whole()
        cpu.append(time.process_time() - start)
    cold, cold_cpu = [], []
    for _ in range(max(1, repeat // 2)):
        start = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-m", "companion.cli", "report", str(path), "--out",
                               str(folder / "cold")], cwd=ROOT, capture_output=True, text=True)
        cold.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cold_cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if done.returncode:
            raise SystemExit(done.stderr)
    name = f"{match.ruleset.game}, {len(events):,} events"
    print(f"| report numbers ({name}) | {statistics.median(numbers) * 1000:.0f} ms | "
          f"{percentile(numbers, 0.95) * 1000:.0f} ms | <= 2 s |")
    print(f"| whole report from the file: read, build, CSV/JSON, 5 SVG plots, HTML ({name}) | "
          f"{statistics.median(job):.2f} s | {percentile(job, 0.95):.2f} s | <= 2 s |")
    print(f"| the same, CPU time of the process | {statistics.median(cpu):.2f} s | {max(cpu):.2f} s (max) | - |")
    print(f"| `touchline report` from a cold start (new process: imports matplotlib) ({name}) | "
          f"{statistics.median(cold):.2f} s | {max(cold):.2f} s (max) | - |")
    print(f"| the same, CPU time of the process | {statistics.median(cold_cpu):.2f} s | {max(cold_cpu):.2f} s (max) "
          f"| - |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="touchline-report-bench-") as tmp:
        folder = Path(tmp)
        print(f"machine: {machine()}")
        print("| measure | median | p95 | goal |\n|---|---:|---:|---|")
        measure(fublet_match(args.events, folder), args.repeat, folder)
        measure(ROOT / "tests/data/football_leader_full_match.jsonl", args.repeat, folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
