"""Warm `touchline history`, `league` and `history --csv` over data folders of growing size:
CPU and peak memory, this checkout beside another (issue 32, item 2: "flat memory").

    env -u PYTHONDONTWRITEBYTECODE .venv/bin/python benchmarks/bench_listing_memory.py \\
        --code /work/old --rounds 3 /work/bh1k /work/bh10k /work/bh30k

Each DIR is a data folder as ``bench_history.py --matches N --dir DIR`` makes it (its
``matches/`` and ``anchors/``). Every command runs in its own process (Python's start and
imports counted), output to /dev/null; its CPU (user + system) and peak resident memory
(``ru_maxrss``) come from ``os.wait4`` of that very process. This checkout reads the folder's
own cache (``reports/history-cache.json``, the app's); ``--code`` reads a copy of it of its
own (``--cache``), so neither finds a cache the other wrote in another version. One untimed
run of each first (a cold cache is written then). Rounds alternate the checkouts and folders,
so both see the same load. Prints each row's rounds and medians as a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("history", "league", "history --csv")
CSV = Path(tempfile.gettempdir()) / "touchline-listing-memory.csv"   # replaced at each run, removed at the end


def run(code: Path, command: str, data: Path, cache: Path | None) -> tuple[float, float]:
    """(CPU s, peak MB) of one command in its own process of ``code``'s Touchline."""
    name, *more = command.split()
    argv = [sys.executable, "-m", "companion.cli", name, "--data-dir", str(data)]
    if more == ["--csv"]:   # the table also written as CSV (over the last run's)
        argv += ["--csv", str(CSV), "--force"]
    if cache is not None:
        argv += ["--cache", str(cache)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(code)
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, cwd=tempfile.gettempdir(), env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"{code}: touchline {command} --data-dir {data} failed: {err.strip()[-800:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dirs", nargs="+", type=Path, help="data folders (each with matches/)")
    p.add_argument("--code", type=Path, default=None, help="another checkout, timed alternately")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="touchline-listing-memory-"))
    codes = [("this", ROOT)] + ([("other", args.code.resolve())] if args.code else [])
    caches: dict[tuple[str, Path], Path | None] = {}
    for i, data in enumerate(args.dirs):
        own = data / "reports" / "history-cache.json"
        caches[("this", data)] = None
        if args.code:
            copy = work / f"cache-{i}.json"
            if own.exists():
                shutil.copyfile(own, copy)
            caches[("other", data)] = copy
    print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}, {platform.system()} {platform.release()}; load {os.getloadavg()}")
    for label, code in codes:   # untimed: bytecode, and a cache in each checkout's version
        for data in args.dirs:
            for command in COMMANDS:
                run(code, command, data, caches[(label, data)])
    results: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for r in range(args.rounds):
        for data in args.dirs:
            for command in COMMANDS:
                for label, code in codes:
                    results.setdefault((data.name, command, label), []).append(
                        run(code, command, data, caches[(label, data)]))
        print(f"round {r + 1} done, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    print("\n| folder | command | checkout | CPU s, each round | CPU s, median | peak MB, each round |")
    print("|---|---|---|---|---:|---|")
    for (folder, command, label), rows in results.items():
        print(f"| {folder} | `{command}` | {label} | {', '.join(f'{c:.2f}' for c, _ in rows)} | "
              f"{statistics.median(c for c, _ in rows):.2f} | {', '.join(f'{m:.0f}' for _, m in rows)} |")
    shutil.rmtree(work, ignore_errors=True)
    CSV.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
