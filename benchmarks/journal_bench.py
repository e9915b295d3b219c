"""Trustworthy books: the journal's figures for issue 11, measured on this machine.

    .venv/bin/python benchmarks/journal_bench.py [--reads 10000] [--dir FOLDER]

1. Reads beside a live writer: a writer process appends a real Fublet match, command by
   command, to a journal that checkpoints every 20 WAL pages (``PRAGMA wal_autocheckpoint
   = 20``; it starts a fresh journal every 1,200 events so reads stay short), while this
   process takes ``--reads`` snapshots (``read_stored``, the path replay/export/verify use)
   and checks each one: every row present from event 1, the hash chain intact, never fewer
   events than the previous read of the same journal. A torn snapshot fails one of these.
   The old way (copy the file, then its -wal) runs beside it for comparison.
2. Impossible contents: each case of the issue's list made on a real journal or export (the
   hash chain rewritten to match where the case is about domains, as a careful forger would);
   counts how many are accepted.
3. Durable append with the hash chain: p50/p95/p99 of ``Journal.append`` per command (fsync).
4. Open and replay a 5,000-event journal (``Match.open``: snapshot, chain, order, domains,
   decode, fold) against bare SQLite reading the same rows and ``json.loads``-ing each
   payload, the two timed alternately in one run; medians and their ratio. The same for
   the longest match each other game's driver plays (2,000-3,100 events). Each journal is
   timed in a fresh Python process that only imports Touchline, as the app opens a match
   (``--same-process``: in this one, after the drivers played here).

Nothing here asserts on time; the figures go in the README.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
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

from benchmarks.driver import long_match
from benchmarks.run import filesystem, machine, percentile
from companion.errors import TouchlineError
from companion.events import Event
from companion.journal import Journal, read_stored
from companion.journal_chain import GENESIS, chain_hash, gc_paused
from companion.jsonl import export_lines, read_file
from companion.match import Match

ROOT = Path(__file__).resolve().parents[1]
PER_JOURNAL = 1200

WRITER = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
from companion.journal import Journal
from companion.jsonl import read_file
folder, per_journal = sys.argv[2], int(sys.argv[4])
events = read_file(sys.argv[3]).events
batches = {}
for e in events:
    batches.setdefault(e.batch, []).append(e)
batches = [b for b in batches.values()]
n = 0
while True:
    path = os.path.join(folder, f"live-{n}.sqlite")
    j = Journal.create(path, "fublet")
    j._conn.execute("PRAGMA wal_autocheckpoint = 20")
    tmp = os.path.join(folder, "current.tmp")
    with open(tmp, "w") as fh:
        fh.write(path)
    os.replace(tmp, os.path.join(folder, "current"))
    for batch in batches:
        if batch[-1].seq > per_journal:
            break
        j.append(batch)
    j.close()
    n += 1
"""


def snapshot_is_whole(rows) -> bool:
    """Every row (seq, batch, at, source, type, data, status, hash) from event 1 on, in
    order, each hash chained to the one before."""
    prev = GENESIS
    for i, r in enumerate(rows, start=1):
        if r[0] != i or r[7] != chain_hash(prev, *r[:6]):
            return False
        prev = r[7]
    return True


def old_copy_read(path: Path, scratch: Path) -> list[tuple]:
    """How replay read a live journal before: copy the file, then its -wal, open the copy."""
    for leftover in scratch.glob("copy.sqlite*"):
        leftover.unlink()
    copy = scratch / "copy.sqlite"
    shutil.copyfile(path, copy)
    wal = Path(f"{path}-wal")
    if wal.exists():
        shutil.copyfile(wal, Path(f"{copy}-wal"))
    conn = sqlite3.connect(copy)
    try:
        return conn.execute("SELECT seq, batch, at, source, type, data, status, hash FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()


def reads_beside_a_writer(folder: Path, match_file: Path, reads: int, old_reads: int) -> dict:
    live = folder / "live"
    live.mkdir()
    log = open(folder / "writer.log", "w+", encoding="utf-8")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(ROOT), str(live), str(match_file), str(PER_JOURNAL)],
                              stdout=subprocess.DEVNULL, stderr=log)
    try:
        while not (live / "current").exists():
            if writer.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"the writer stopped: {log.read()[-2000:]}")
            time.sleep(0.01)
        torn, errors, checked, growth = 0, [], 0, []
        last: dict[str, int] = {}
        start = time.perf_counter()
        for _ in range(reads):
            path = Path((live / "current").read_text())
            try:
                stored = read_stored(path)
            except TouchlineError as exc:
                torn += 1
                errors.append(str(exc))
                continue
            n = len(stored.fetched)
            if not snapshot_is_whole(stored.fetched) or n < last.get(path.name, 0):
                torn += 1
                errors.append(f"{path.name}: torn at {n} rows")
            last[path.name] = n
            growth.append(n)
            checked += 1
        elapsed = time.perf_counter() - start
        old_torn = old_errors = 0
        scratch = folder / "scratch"
        scratch.mkdir()
        for _ in range(old_reads):
            path = Path((live / "current").read_text())
            try:
                rows = old_copy_read(path, scratch)
            except (sqlite3.Error, OSError):  # the -wal vanished between looking and copying
                old_errors += 1
                continue
            prev = GENESIS
            for i, r in enumerate(rows, start=1):
                if r[0] != i or r[7] != chain_hash(prev, *r[:6]):
                    old_torn += 1
                    break
                prev = r[7]
        if writer.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the writer stopped: {log.read()[-2000:]}")
    finally:
        writer.kill()
        writer.wait()
        log.close()
    journals = len(list(live.glob("live-*.sqlite")))
    return {"reads": reads, "torn": torn, "errors": errors[:3], "seconds": elapsed, "journals": journals,
            "mean_rows": statistics.mean(growth) if growth else 0, "old_reads": old_reads, "old_torn": old_torn,
            "old_errors": old_errors}


# --- impossible contents ----------------------------------------------------------------------------

def rechain(conn: sqlite3.Connection) -> None:
    prev = GENESIS
    for row in conn.execute("SELECT seq, batch, at, source, type, data FROM events ORDER BY seq").fetchall():
        prev = chain_hash(prev, *row)
        conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (prev, row[0]))


def impossible_cases(source: Path, folder: Path) -> list[tuple[str, bool]]:
    """(case, accepted) for each impossible file; a case is accepted if replay exits 0."""
    from companion.cli import main

    def journal_case(name: str, *sql: str, chain: bool = False, key: bool = True) -> tuple[str, bool]:
        path = folder / f"{name.replace(' ', '_')}.sqlite"
        path.write_bytes(source.read_bytes())
        conn = sqlite3.connect(path)
        if not key:
            for stmt in ("CREATE TABLE e2 AS SELECT * FROM events", "DROP TABLE events",
                         "ALTER TABLE e2 RENAME TO events"):
                conn.execute(stmt)
        for stmt in sql:
            conn.execute(stmt)
        if chain:
            rechain(conn)
        conn.commit()
        conn.close()
        return name, quiet(main, ["replay", str(path)]) == 0

    export = folder / "export.jsonl"
    assert quiet(main, ["export", str(source), str(export)]) == 0
    lines = export.read_text(encoding="utf-8").splitlines()

    def export_case(name: str, new_lines: list[str]) -> tuple[str, bool]:
        path = folder / f"{name.replace(' ', '_')}.jsonl"
        path.write_text("\n".join(new_lines) + "\n", encoding="utf-8")
        return name, quiet(main, ["replay", str(path)]) == 0

    def renumbered(ls: list[str]) -> list[str]:
        out = ls[:20]
        for line in ls[20:]:
            obj = json.loads(line)
            if "seq" not in obj:  # the export's end line
                out.append(line)
                continue
            obj["seq"] += 1
            obj["batch"] += 1
            out.append(json.dumps(obj))
        return out

    conn = sqlite3.connect(source)
    roll = conn.execute("SELECT seq, data FROM events WHERE type = 'fublet.dice_rolled' AND "
                        "json_array_length(data, '$.roll.dice') = 2 LIMIT 1").fetchone()
    move = conn.execute("SELECT seq FROM events WHERE type = 'fublet.player_moved' AND "
                        "json_extract(data, '$.to') IS NOT NULL LIMIT 1").fetchone()[0]
    conn.close()
    return [
        export_case("export with one line deleted", lines[:40] + lines[41:]),
        export_case("export with its last line deleted", lines[:-1]),
        export_case("export renumbered", renumbered(lines)),
        journal_case("journal with a seq gap", "DELETE FROM events WHERE seq = 30", key=False),
        journal_case("journal renumbered", "UPDATE events SET seq = seq + 1 WHERE seq >= 30", key=False),
        journal_case("duplicated seq (table lost its key)", "INSERT INTO events SELECT * FROM events WHERE seq = 25",
                     key=False),
        journal_case("batch mixing active and undone",
                     "UPDATE events SET status = 'undone' WHERE seq = (SELECT max(seq) FROM events "
                     "WHERE batch != seq AND status = 'active')"),
        journal_case("unknown status", "UPDATE events SET status = 'hidden' WHERE seq = 33", key=False),
        journal_case("percentile reading of 150",
                     f"UPDATE events SET data = json_set(data, '$.reading', 150) WHERE seq = {roll[0]}", chain=True),
        journal_case("square at (999, 999)",
                     f"UPDATE events SET data = json_set(data, '$.to', json('[999,999]')) WHERE seq = {move}",
                     chain=True),
        journal_case("NaN board length",
                     "UPDATE events SET data = replace(data, '\"length_mm\":', '\"length_mm\":NaN,\"x\":') "
                     "WHERE seq = 1", chain=True),
        journal_case("header schema version disagreeing with the file",
                     "UPDATE meta SET value = '1' WHERE key = 'schema_version'"),
        journal_case("an event edited after it was written",
                     "UPDATE events SET data = json_set(data, '$.reading', 1) WHERE seq = "
                     f"{roll[0]}"),
        stale_wal_case(export, folder),
    ]


def stale_wal_case(export: Path, folder: Path) -> tuple[str, bool]:
    from companion.cli import main

    target = folder / "imported.sqlite"
    stale = Path(f"{target}-wal")
    stale.write_bytes(b"\x37\x7f\x06\x82" + os.urandom(4000))
    accepted = quiet(main, ["import", str(export), str(target)]) == 0
    return "stale -wal beside an import target", accepted or not stale.exists()


def quiet(fn, *args) -> int:
    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        return fn(*args)


# --- speed ------------------------------------------------------------------------------------------------

def appends(path: Path, events: tuple[Event, ...]) -> list[float]:
    journal = Journal.create(path, "fublet")
    batches: dict[int, list[Event]] = {}
    for e in events:
        batches.setdefault(e.batch, []).append(e)
    out = []
    for batch in batches.values():
        t0 = time.perf_counter()
        journal.append(batch)
        out.append(time.perf_counter() - t0)
    journal.close()
    return out


def open_and_replay(path: Path, repeat: int) -> dict[str, list[float]]:
    """Bare reading and Match.open, timed alternately, in wall-clock and in CPU seconds (the
    machine may be shared: CPU time is what the work itself costs)."""
    def bare() -> None:
        conn = sqlite3.connect(path)
        for row in conn.execute("SELECT seq, batch, at, source, type, data, status, hash FROM events ORDER BY seq"):
            json.loads(row[5])
        conn.close()

    out: dict[str, list[float]] = {"bare": [], "open": [], "bare_cpu": [], "open_cpu": []}
    Match.open(path).close()
    bare()
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        bare()
        out["bare"].append(time.perf_counter() - t0)
        out["bare_cpu"].append(time.process_time() - c0)
        t0, c0 = time.perf_counter(), time.process_time()
        match = Match.open(path)
        out["open"].append(time.perf_counter() - t0)
        out["open_cpu"].append(time.process_time() - c0)
        match.close()  # not timed: closing checkpoints the write-ahead log the writer connection made
        del match  # not timed either: freeing this match is no part of opening the next one
    return out


# The other games' longest matches their drivers play (of seeds 0-7; Fußball-Liga with its
# default 45-minute halves): (game, label, seed, driver options).
OTHER_GAMES = (("futboard", "Futboard", 4, {}), ("football_leader", "Football Leader", 5, {}),
               ("fussball_liga", "Fußball-Liga", 1, {"half_minutes": 45}))


def other_match(game: str, seed: int, options: dict) -> tuple[Event, ...]:
    """A whole match of another game, played by its driver."""
    if game == "futboard":
        from benchmarks.futboard_driver import FutboardDriver as Driver
    elif game == "football_leader":
        from benchmarks.football_leader_driver import AutoDriver as Driver
    else:
        from benchmarks.fussball_liga_driver import LigaDriver as Driver
    driver = Driver.new(seed=seed, **options)
    driver.play()
    return driver.match.events


def journal_of(path: Path, game: str, events: tuple[Event, ...]) -> None:
    with Journal.create(path, game) as journal:
        batch: list[Event] = []
        for e in events:
            if batch and e.batch != batch[0].batch:
                journal.append(batch)
                batch = []
            batch.append(e)
        if batch:
            journal.append(batch)


def timed_apart(path: Path, repeat: int, parts: bool = False,
                same_process: bool = False) -> tuple[dict[str, list[float]], list | None]:
    """``open_and_replay`` (and ``open_parts``) run in a fresh Python process that has done
    nothing but import Touchline, as the app opens a match, so that no game's figure depends
    on what ran before it here. In this process (the drivers' matches played, the other games
    timed) the bare read of the game timed last came out up to a third faster than in a fresh
    process while its open did not: on one quiet machine the Fußball-Liga measured 2.94x and
    3.51x here, 2.45-2.69x in fresh processes (``same_process``, ``--same-process``: the old way)."""
    if same_process:
        return open_and_replay(path, repeat), (open_parts(path, repeat) if parts else None)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--time-open", str(path), "--repeat", str(repeat)]
    done = subprocess.run(cmd + (["--with-parts"] if parts else []), capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"timing {path.name} in a child process failed:\n{done.stderr.strip()[-2000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return data["times"], data["parts"]


def open_rows(label: str, events: int, t: dict[str, list[float]], repeat: int) -> list[tuple[str, str]]:
    med = {k: statistics.median(v) for k, v in t.items()}
    return [(f"{label}: open and replay {events} events / bare ({repeat} alternating runs, CPU medians)",
             f"{med['open_cpu'] / med['bare_cpu']:.2f}x ({ms(med['open_cpu'])} / {ms(med['bare_cpu'])}; wall "
             f"{med['open'] / med['bare']:.2f}x) (goal <= 3x)")]


def open_parts(path: Path, repeat: int) -> list[list[float]]:
    """Match.open's three parts, in CPU seconds: read the snapshot, check and decode, fold."""
    from companion.games import ruleset_for
    from companion.journal import check_stored

    rules = ruleset_for(read_stored(path).game)
    parts: list[list[float]] = [[], [], []]
    for _ in range(repeat):
        with gc_paused():  # as Match.open does
            c0 = time.process_time()
            stored = read_stored(path)
            c1 = time.process_time()
            loaded = check_stored(stored)
            c2 = time.process_time()
            match = Match.from_events(rules, loaded.events, loaded.redo)
            c3 = time.process_time()
            del stored, loaded, match
        for i, d in enumerate((c1 - c0, c2 - c1, c3 - c2)):
            parts[i].append(d)
    return parts


def chain_cost(events: tuple[Event, ...]) -> list[float]:
    """What one append spends encoding and hashing the command's rows (CPU time, so others'
    work on a shared machine does not count; the rest of an append is SQLite and fsync)."""
    from companion.journal import _chained_rows

    batches: dict[int, list[Event]] = {}
    for e in events:
        batches.setdefault(e.batch, []).append(e)
    out, head = [], GENESIS
    for batch in batches.values():
        t0 = time.thread_time()
        _, head = _chained_rows(head, [(e, "active") for e in batch])
        out.append(time.thread_time() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure the journal's consistency, checks and speed (issue 11).")
    parser.add_argument("--reads", type=int, default=10_000, help="snapshots read beside the writer (default 10000)")
    parser.add_argument("--old-reads", type=int, default=3000, help="reads the old way, for comparison")
    parser.add_argument("--events", type=int, default=5000, help="events in the long match (default 5000)")
    parser.add_argument("--repeat", type=int, default=15, help="timed open-and-replay runs (default 15)")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the temporary journals")
    parser.add_argument("--open-only", action="store_true",
                        help="only the open-and-replay rows (for iterating on Match.open's speed)")
    parser.add_argument("--fublet-only", action="store_true",
                        help="open-and-replay of the Fublet match only (not the other games' longest matches)")
    parser.add_argument("--same-process", action="store_true",
                        help="time each open in this process, after the drivers played here (the old way)")
    parser.add_argument("--time-open", type=Path, help=argparse.SUPPRESS)  # the child of timed_apart
    parser.add_argument("--with-parts", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.time_open:
        times = open_and_replay(args.time_open, args.repeat)
        parts = open_parts(args.time_open, args.repeat) if args.with_parts else None
        print(json.dumps({"times": times, "parts": parts}))
        return 0

    print(f"machine: {machine()}")
    driver = long_match(args.events)
    events = driver.match.events
    print(f"long match: {len(events)} events from {driver.commands} commands (seed {driver.seed})")
    # The driver's own heap (every state of the long match) is the harness's, not the app's:
    # freed here so the timings measure the journal, not this script. (Not frozen: the app
    # freezes nothing, and a replay leaves its objects old only when nothing is frozen.)
    del driver
    gc.collect()
    folder = Path(tempfile.mkdtemp(prefix="touchline-journal-bench-", dir=args.dir))
    rows: list[tuple[str, str]] = []
    try:
        match_file = folder / "match.jsonl"
        with open(match_file, "w", encoding="utf-8") as out:
            export_lines(((e, "active") for e in events), out)
        read_file(match_file)

        journal_path = folder / "match.sqlite"
        times = appends(journal_path, events)
        rows.append((f"durable append with the hash chain ({len(times)} commands, fsync, {filesystem(folder)})",
                     f"p50 {ms(statistics.median(times))}, p95 {ms(percentile(times, 0.95))}, "
                     f"p99 {ms(percentile(times, 0.99))} (goal p99 < 5 ms)"))

        chain = [] if args.open_only else chain_cost(events)
        if chain:
            rows.append(("of which encoding and hashing the rows (CPU time)",
                         f"p50 {ms(statistics.median(chain), 3)}, p99 {ms(percentile(chain, 0.99), 3)}"))

        t, fold = timed_apart(journal_path, args.repeat, parts=True, same_process=args.same_process)
        med = {k: statistics.median(v) for k, v in t.items()}
        rows.append((f"open and replay {len(events)} events, chain and domains checked (Match.open)",
                     f"median {ms(med['open'])} wall, {ms(med['open_cpu'])} CPU"))
        rows.append(("bare SQLite read of the same rows + json.loads of each payload",
                     f"median {ms(med['bare'])} wall, {ms(med['bare_cpu'])} CPU"))
        rows.append((f"open-and-replay / bare ({args.repeat} alternating runs in this run)",
                     f"{med['open_cpu'] / med['bare_cpu']:.2f}x in CPU time, {med['open'] / med['bare']:.2f}x wall "
                     f"(goal <= 3x)"))
        rows.append(("  parts (CPU medians): snapshot read / checks and decoding / fold",
                     " / ".join(ms(statistics.median(v)) for v in fold)))
        if not args.fublet_only:
            for game, label, seed, options in OTHER_GAMES:
                other = other_match(game, seed, options)
                path = folder / f"{game}.sqlite"
                journal_of(path, game, other)
                count = len(other)
                del other
                gc.collect()  # the driver's leftovers are the harness's, freed before timing
                times = timed_apart(path, args.repeat, same_process=args.same_process)[0]
                rows += open_rows(f"{label} (seed {seed})", count, times, args.repeat)
        if args.open_only:
            return report(rows)

        cases = folder / "cases"
        cases.mkdir()
        results = impossible_cases(journal_path, cases)
        accepted = [name for name, ok in results if ok]
        rows.append((f"impossible contents accepted ({len(results)} cases of issue 11)",
                     f"{len(accepted)}" + (f": {', '.join(accepted)}" if accepted else "")))

        live = reads_beside_a_writer(folder, match_file, args.reads, args.old_reads)
        rows.append((f"torn snapshots over {live['reads']} reads beside a writer checkpointing every 20 pages "
                     f"({live['journals']} journals of up to {PER_JOURNAL} events, {live['mean_rows']:.0f} rows "
                     f"per read on average, {live['seconds']:.0f} s)",
                     f"{live['torn']}" + (f" ({'; '.join(live['errors'])})" if live["errors"] else "")))
        rows.append((f"the old way (copy the file, then its -wal), {live['old_reads']} reads beside the same writer",
                     f"{live['old_torn']} torn, {live['old_errors']} unreadable"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return report(rows)


def report(rows: list[tuple[str, str]]) -> int:
    width = max(len(r[0]) for r in rows)
    print()
    print(f"| {'measure'.ljust(width)} | figure |")
    print(f"|{'-' * (width + 2)}|--------|")
    for name, figure in rows:
        print(f"| {name.ljust(width)} | {figure} |")
    return 0


def ms(seconds: float, digits: int = 2) -> str:
    return f"{seconds * 1000:.{digits}f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
