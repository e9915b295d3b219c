"""Touchline's performance figures, measured on this machine.

    .venv/bin/python benchmarks/run.py [--events 5000] [--dir FOLDER]

1. Replay: fold a Fublet match of at least 5,000 events from its decoded events (goal
   <= 100 ms), and the same from its JSON Lines text (decode + fold) and from its journal
   file (``Match.open``: read, decode, fold).
2. Durable append: the median time ``Journal.append`` takes to store one command's events
   with fsync (WAL, ``synchronous=FULL``), on a journal in a temporary folder (goal <= 5 ms).
3. What the UI reads: ``match.summary()`` plus ``match.pending()`` on the long match's
   state (goal <= 1 ms).

The long match is played by benchmarks/driver.py in its slow style on "busy" tactical
boards (10 MP per declaration, 1 MP per movement), so coaches move most of their players
each round: real commands, real rolls, real declarations. Nothing here asserts on time;
the figures go in the README.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.driver import long_match
from companion.events import Event
from companion.fublet.rules import FubletRules
from companion.journal import Journal
from companion.jsonl import export_lines, read_file
from companion.match import Match


def timings(work: Callable[[], object], repeat: int) -> list[float]:
    """Seconds per call, ``repeat`` calls after one warm-up call."""
    work()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        out.append(time.perf_counter() - start)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def filesystem(path: Path) -> str:
    """The type of the file system holding ``path`` (from /proc/mounts), if known."""
    try:
        best, kind = "", "unknown"
        target = str(path.resolve())
        with open("/proc/mounts", encoding="utf-8") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) >= 3 and (target == parts[1] or target.startswith(parts[1].rstrip("/") + "/")):
                    if len(parts[1]) > len(best):
                        best, kind = parts[1], parts[2]
        return kind
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure Touchline's replay, append and UI-read times.")
    parser.add_argument("--events", type=int, default=5000, help="events in the long match (default 5000)")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the temporary journals (default: the "
                                                               "system's temporary folder)")
    parser.add_argument("--repeat", type=int, default=15, help="timed runs of each replay (default 15)")
    args = parser.parse_args(argv)

    print(f"machine: {machine()}")
    start = time.perf_counter()
    driver = long_match(args.events)
    match = driver.match
    events: tuple[Event, ...] = match.events
    print(f"long match: {len(events)} events from {driver.commands} commands (seed {driver.seed}), played in "
          f"{time.perf_counter() - start:.1f} s; {match.summary()['half']}, round {match.state.round}")

    rows: list[tuple[str, str, str, str]] = []
    folder = Path(tempfile.mkdtemp(prefix="touchline-bench-", dir=args.dir))
    try:
        rules = FubletRules()
        fold = timings(lambda: Match.from_events(rules, events), args.repeat)
        rows.append((f"replay {len(events)} events (fold decoded events)", ms(statistics.median(fold)),
                     ms(percentile(fold, 0.95)), "<= 100 ms"))

        text_path = folder / "match.jsonl"
        with open(text_path, "w", encoding="utf-8") as out:
            export_lines(((e, "active") for e in events), out)
        decode = timings(lambda: Match.from_events(rules, read_file(text_path).events), args.repeat)
        rows.append((f"replay {len(events)} events from JSON Lines (decode + fold)", ms(statistics.median(decode)),
                     ms(percentile(decode, 0.95)), "-"))

        journal_path = folder / "match.sqlite"
        journal = Journal.create(journal_path, "fublet")
        batches: dict[int, list[Event]] = {}
        for e in events:
            batches.setdefault(e.batch, []).append(e)
        appends = []
        for batch in batches.values():
            t0 = time.perf_counter()
            journal.append(batch)
            appends.append(time.perf_counter() - t0)
        journal.close()
        sizes = [len(b) for b in batches.values()]
        rows.append((f"durable append of one command's events ({len(appends)} commands, "
                     f"{statistics.mean(sizes):.1f} events each, fsync, {filesystem(folder)})",
                     ms(statistics.median(appends)), ms(percentile(appends, 0.95)), "<= 5 ms"))

        def reopen() -> None:
            Match.open(journal_path).close()
        opened = timings(reopen, max(3, args.repeat // 3))
        rows.append((f"open the journal and replay ({len(events)} events)", ms(statistics.median(opened)),
                     ms(percentile(opened, 0.95)), "-"))

        ui = timings(lambda: (match.summary(), match.pending()), 1000)
        rows.append(("UI read: summary() + pending()", ms(statistics.median(ui), 3), ms(percentile(ui, 0.95), 3),
                     "<= 1 ms"))
    finally:
        for leftover in folder.iterdir():
            leftover.unlink()
        folder.rmdir()

    width = max(len(r[0]) for r in rows)
    print()
    print(f"| {'measure'.ljust(width)} | median | p95 | goal |")
    print(f"|{'-' * (width + 2)}|-------:|----:|------|")
    for name, median, p95, goal in rows:
        print(f"| {name.ljust(width)} | {median} | {p95} | {goal} |")
    return 0


def ms(seconds: float, digits: int = 2) -> str:
    return f"{seconds * 1000:.{digits}f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
