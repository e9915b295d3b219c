"""Hostile files against every command (issue 30): how long each takes to answer, and whether
the folder is left as found. Figures for docs/benchmarks.md; nothing here asserts on time.

    .venv/bin/python benchmarks/hostile_bench.py [--big-mb 100] [--guard 60] [--only NAME,...]
    .venv/bin/python benchmarks/hostile_bench.py --appends 2000     # the anchor's cost per append

Each case is made by tests/hostile_kit.py (the very files the tests refuse), alone in a folder,
and each command runs in its own process: ``replay``, ``verify``, ``export``, ``import``,
``report``, ``history`` and ``league`` (the folder holding the file and a good match: the
hostile file is listed as unreadable, the match still reads) and ``serve``. A command still
running at ``--guard`` seconds is killed and reported as such (a hang). The big cases are
``--big-mb`` MB: a journal and an export of a real match's events repeated under a forged,
sound chain (every row is read, hashed, decoded and checked before the fold refuses one),
an export that is one endless line, a journal with megabyte values, and a real journal with
a write-ahead log of garbage of that size.

``--code DIR`` runs the commands of another checkout (the files are still made by this one):
the figures before a change, e.g. ``git archive <commit> | tar -x -C /tmp/before``.

``--appends N`` times ``Journal.append`` of a real match's commands (fsync, the chain) with
and without the app's anchors, alternately, and the anchor's write alone.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import hostile_kit as k  # noqa: E402
from benchmarks.run import machine  # noqa: E402
from companion.journal_chain import GENESIS, MAX_EVENTS, chain_hash  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("replay", "verify", "export", "import", "report", "history", "league", "serve")


def touchline(*argv: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))", *argv]


def state(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.iterdir()):
        try:
            out[p.name] = f"{p.lstat().st_mode:o}:{p.lstat().st_size}:{p.lstat().st_mtime_ns}"
        except OSError:
            out[p.name] = "?"
    return out


def run(argv: list[str], guard: float, env: dict[str, str], code: Path = ROOT) -> tuple[float, float, str, str]:
    """(seconds, CPU seconds, outcome, first line said): outcome is the exit status or 'killed
    at the guard'. The CPU time is the child's own (user + system), which a busy machine does
    not stretch as it stretches the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=code, env=env,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=guard)
        outcome = f"exit {proc.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        outcome = f"killed at the {guard:.0f} s guard"
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    said = (err or out).decode("utf-8", "replace").strip().splitlines()
    return took, cpu, outcome, said[0][:160] if said else ""


# --- the cases ------------------------------------------------------------------------------------------

def forged_journal(real: Path, path: Path, size: int, count: int = 0) -> Path:
    """A journal with Touchline's schema: the real match's creation, then its other events'
    payloads over and over under a forged, sound chain, until ``size`` bytes (or ``count``
    events): every row is read, hashed, decoded, checked and folded (the fold takes events as
    the facts they are)."""
    rows = sqlite3.connect(real).execute("SELECT seq, batch, at, source, type, data FROM events ORDER BY seq").fetchall()
    body = rows[1:]
    per = sum(len(r[5]) + len(r[4]) + 120 for r in body) / len(body)
    count = count or int(size / per)
    def payload_of(n: int) -> tuple[str, str, str]:
        _seq, _batch, _at, source, type_, data = body[(n - 2) % len(body)]
        return type_, source, data
    made = k.forged_rows(rows[0], count, payload_of)
    return k.journal_of_rows(path, made)


def forged_export(real: Path, path: Path, size: int, count: int = 0) -> Path:
    journal = forged_journal(real, path.with_suffix(".tmp.sqlite"), size, count)
    conn = sqlite3.connect(journal)
    rows = conn.execute(f"SELECT {k.COLUMNS} FROM events ORDER BY seq").fetchall()
    conn.close()
    journal.unlink()
    head = rows[-1][-1]
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"touchline": "journal export", "schema": 3, "game": "fublet", "events": len(rows),
                              "last_seq": rows[-1][0], "head": head, "active_only": False, "omitted": [],
                              "chain": "full"}, separators=(",", ":")) + "\n")
        for seq, batch, at, source, type_, data, _status, digest in rows:
            out.write(f'{{"seq":{seq},"batch":{batch},"at":"{at}","source":"{source}","type":"{type_}",'
                      f'"data":{data},"hash":"{digest}"}}\n')
        out.write(json.dumps({"touchline": "export end", "events": len(rows), "last_seq": rows[-1][0],
                              "head": head}, separators=(",", ":")) + "\n")
    return path


def one_line(path: Path, size: int) -> Path:
    with open(path, "w", encoding="utf-8") as out:
        chunk = '{"seq":1,"data":"' + "x" * (1 << 20)
        written = 0
        while written < size:
            out.write(chunk)
            written += len(chunk)
    return path


def big_values(path: Path, size: int) -> Path:
    """Touchline's schema, each event's data a 900 kB text: about ``size`` bytes."""
    rows, prev = [], GENESIS
    value = '{"x":"' + "y" * 900_000 + '"}'
    for n in range(1, size // 900_000 + 1):
        prev = chain_hash(prev, n, n, "2026-01-01T00:00:00.000000Z", "manual", "fublet.dice_rolled", value)
        rows.append((n, n, "2026-01-01T00:00:00.000000Z", "manual", "fublet.dice_rolled", value, "active", prev))
    return k.journal_of_rows(path, rows)


def cases(real: Path, export: Path, folder: Path, big: int) -> dict[str, callable]:
    """Name -> a maker of the case's file in a folder of its own."""
    def stripped(p: Path) -> Path:
        def edit(events):
            events[0]["data"]["home"]["name"] = "Forged FC"
        return k.stripped_export(export, p, edit)
    return {
        "recursive view (events)": lambda d: k.recursive_view(d / "m.sqlite"),
        "recursive view (meta)": lambda d: k.recursive_meta(d / "m.sqlite"),
        "FIFO as a journal": lambda d: k.fifo(d / "m.sqlite"),
        "FIFO as an export": lambda d: k.fifo(d / "m.jsonl"),
        "socket": lambda d: k.unix_socket(d / "m.sqlite"),
        "link to /dev/zero as an export": lambda d: k.device_link(d / "m.jsonl", "/dev/zero"),
        "link to /dev/urandom as a journal": lambda d: k.device_link(d / "m.sqlite", "/dev/urandom"),
        "generated column": lambda d: k.generated_column(d / "m.sqlite"),
        "virtual table": lambda d: k.virtual_table(d / "m.sqlite"),
        "trigger beside the tables": lambda d: k.with_trigger(real, d / "m.sqlite"),
        "garbage -wal, no -shm": lambda d: k.garbage_wal(real, d / "m.sqlite"),
        "game 'os' in meta": lambda d: k.game_named(real, d / "m.sqlite", "os"),
        "export stripped and edited": lambda d: stripped(d / "m.jsonl"),
        f"{big >> 20} MB journal, forged chain": lambda d: forged_journal(real, d / "m.sqlite", big),
        f"{big >> 20} MB export, forged chain": lambda d: forged_export(real, d / "m.jsonl", big),
        f"{big >> 20} MB export, one line": lambda d: one_line(d / "m.jsonl", big),
        f"journal at the cap ({MAX_EVENTS:,} events, forged chain)":
            lambda d: forged_journal(real, d / "m.sqlite", 0, MAX_EVENTS - 1),
        f"export at the cap ({MAX_EVENTS:,} events, forged chain)":
            lambda d: forged_export(real, d / "m.jsonl", 0, MAX_EVENTS - 1),
        f"{big >> 20} MB journal, 900 kB values": lambda d: big_values(d / "m.sqlite", big),
        f"{big >> 20} MB garbage -wal beside a real journal": lambda d: k.garbage_wal(real, d / "m.sqlite", big),
    }


def argv_for(command: str, path: Path, work: Path) -> list[str]:
    if command in ("history", "league"):
        return touchline(command, "--folder", str(path.parent))
    if command == "export":
        return touchline("export", str(path), str(work / "out.jsonl"), "--force")
    if command == "import":
        return touchline("import", str(path), str(work / f"in-{time.monotonic_ns()}.sqlite"))
    if command == "report":
        return touchline("report", str(path), "--out", str(work / "report"))
    if command == "serve":
        return touchline("serve", str(path), "--port", "0", "--for", "0.5")
    return touchline(command, str(path))


def bench_files(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="touchline-hostile-", dir=args.dir))
    code = (args.code or ROOT).resolve()
    env = {**os.environ, "TOUCHLINE_DATA_DIR": str(root / "data"), "PYTHONPATH": str(code),
           "TOUCHLINE_HEADLESS": "1", "KIVY_NO_ARGS": "1"}
    try:
        src = root / "src"
        src.mkdir()
        real = k.fublet_journal(src / "real.sqlite", commands=60)
        export = src / "real.jsonl"
        subprocess.run(touchline("export", str(real), str(export)), cwd=ROOT, env=env, check=True,
                       capture_output=True)
        work = root / "work"
        work.mkdir()
        print(f"machine: {machine()}")
        print(f"code: {code}; guard: {args.guard:.0f} s; each command in a fresh process (about 0.3-0.6 s of it is "
              f"Python and Touchline's imports); each cell: wall / CPU seconds (exit status)\n")
        print("| file | " + " | ".join(COMMANDS) + " | folder as found |")
        print("|---|" + "---|" * (len(COMMANDS) + 1))
        for name, make in cases(real, export, root, args.big_mb << 20).items():
            if args.only and not any(o.lower() in name.lower() for o in args.only.split(",")):
                continue
            folder = root / f"case-{abs(hash(name))}"
            folder.mkdir()
            path = make(folder)
            shutil.copy(real, folder / "good.sqlite")
            if name.startswith("FIFO"):
                # a reader that opens it by mistake finds a writer and a line at once: a hang then
                # is the reader's own read, never a wait for a writer
                held = os.open(path, os.O_RDWR | os.O_NONBLOCK)
                os.write(held, b"not a match file\n")
            else:
                held = None
            before = state(folder)
            cells, lines = [], []
            try:
                for command in COMMANDS:
                    took, cpu, outcome, said = run(argv_for(command, path, work), args.guard, env, code)
                    cells.append(f"{took:.1f} / {cpu:.1f} s ({outcome.replace('exit ', '')})")
                    lines.append(f"    {command}: {said}")
            finally:
                if held is not None:
                    os.close(held)
            same = "yes" if state(folder) == before else "NO: " + ", ".join(sorted(set(state(folder)) ^ set(before)))
            print(f"| {name} | " + " | ".join(cells) + f" | {same} |", flush=True)
            if args.say:
                print("\n".join(lines), flush=True)
            shutil.rmtree(folder, ignore_errors=True)
            for p in work.iterdir():
                shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def bench_scan(args: argparse.Namespace) -> None:
    """The Matches screen's listing (history.scan, no cache) of a folder holding three real
    matches and one of each small hostile file, as the app runs it: in-process."""
    from companion.report import history as h

    root = Path(tempfile.mkdtemp(prefix="touchline-scan-", dir=args.dir))
    os.environ["TOUCHLINE_DATA_DIR"] = str(root / "data")
    try:
        folder = root / "data" / "matches"
        folder.mkdir(parents=True)
        reals = [k.fublet_journal(folder / f"real-{n}.sqlite", commands=60, seed=n) for n in (1, 2, 3)]
        export = root / "real.jsonl"
        subprocess.run(touchline("export", str(reals[0]), str(export)), cwd=ROOT, check=True, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        small = {name: make for name, make in cases(reals[0], export, root, 0).items() if "MB" not in name
                 and "cap" not in name}
        held = []
        for n, (name, make) in enumerate(small.items()):
            case = root / f"c{n}"
            case.mkdir()
            made = make(case)
            for part in sorted(case.iterdir()):  # the file and its side files, renamed alike
                part.rename(folder / f"h{n}-{part.name}")
            if name.startswith("FIFO"):
                fd = os.open(folder / f"h{n}-{made.name}", os.O_RDWR | os.O_NONBLOCK)
                os.write(fd, b"not a match file\n")
                held.append(fd)
        times = []
        for _ in range(3):
            t, c = time.perf_counter(), time.process_time()
            entries = h.scan(folder)
            times.append((time.perf_counter() - t, time.process_time() - c))
        for fd in held:
            os.close(fd)
        bad = [e for e in entries if not e.ok]
        print(f"machine: {machine()}")
        print(f"history.scan of {len(list(folder.iterdir()))} files ({len(small)} hostile, 3 real matches): "
              f"{sum(1 for e in entries if e.ok and not e.copy_of)} listed as matches (their copies under them), "
              f"{sum(1 for e in entries if e.copy_of)} as altered copies, {len(bad)} as unreadable; "
              + ", ".join(f"{w:.2f} s wall / {c:.2f} s CPU" for w, c in times))
        for e in bad:
            print(f"  {e.path.name}: {e.problem[:110]}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def bench_appends(args: argparse.Namespace) -> None:
    """Journal.append per command with and without anchors, alternating journals; and the
    anchor's write alone."""
    from benchmarks.driver import long_match
    from companion.anchors import AnchorBook
    from companion.journal import Journal

    events = long_match(5000).match.events
    batches: dict[int, list] = {}
    for e in events:
        batches.setdefault(e.batch, []).append(e)
    commands = list(batches.values())[: args.appends]
    root = Path(tempfile.mkdtemp(prefix="touchline-appends-", dir=args.dir))
    try:
        book = AnchorBook.of_data_dir(root / "data")
        plain = Journal.create(root / "plain.sqlite", "fublet")
        anchored = Journal.create(root / "anchored.sqlite", "fublet", anchors=book)
        times: dict[str, list[float]] = {"plain": [], "anchored": []}
        for batch in commands:
            for name, journal in (("plain", plain), ("anchored", anchored)):
                t = time.perf_counter()
                journal.append(batch)
                times[name].append(time.perf_counter() - t)
        plain.close()
        anchored.close()
        marks = {n: "a" * 64 for n in range(128, 5001, 128)}
        writes = []
        for n in range(500):
            t = time.perf_counter()
            book.record(root / "x.sqlite", "b" * 64, n + 1, "c" * 64, marks, "2026-01-01T00:00:00.000000Z")
            writes.append(time.perf_counter() - t)
        print(f"machine: {machine()}")
        for name, values in times.items():
            values = sorted(values)
            print(f"append ({name}, {len(values)} commands, fsync): p50 {statistics.median(values) * 1000:.2f} ms, "
                  f"p95 {values[int(0.95 * len(values))] * 1000:.2f} ms, p99 {values[int(0.99 * len(values))] * 1000:.2f} ms")
        writes.sort()
        print(f"the anchor's write alone (39 marks, 500 writes): p50 {statistics.median(writes) * 1000:.3f} ms, "
              f"p99 {writes[int(0.99 * len(writes))] * 1000:.3f} ms")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big-mb", type=int, default=100, help="size of the big cases (default 100 MB)")
    parser.add_argument("--guard", type=float, default=60.0, help="kill a command still running after this (s)")
    parser.add_argument("--only", default="", help="only the cases whose name holds one of these (comma-separated)")
    parser.add_argument("--say", action="store_true", help="print each command's first line too")
    parser.add_argument("--appends", type=int, default=0, help="time this many appends with and without anchors")
    parser.add_argument("--scan", action="store_true", help="time the Matches screen's listing of a hostile folder")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the temporary files")
    parser.add_argument("--code", type=Path, default=None,
                        help="run the commands of the Touchline checked out here (an older commit, for a before figure)")
    args = parser.parse_args(argv)
    if args.appends:
        bench_appends(args)
    elif args.scan:
        bench_scan(args)
    else:
        bench_files(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
