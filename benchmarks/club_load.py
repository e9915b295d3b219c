"""The club server under load (issue 33, docs/benchmarks.md): loopback only, bounded.

    .venv/bin/python benchmarks/club_load.py [--tablets 32] [--every 20] [--viewers 500]
        [--pages 2000] [--concurrency 50] [--sample 20] [--postgres]

A real ``touchline club`` process (SQLite in a temporary folder); with ``--postgres``, two of
them sharing one PostgreSQL database (a throwaway cluster started here: benchmarks/pg_cluster.py),
the tablets, viewers and page requests split between the two. ``--tablets`` tablets (threads
here, each with its own key and outbox, as the app's) play the shipped scripted matches of the
four games in turn, each its own match (event 1's time made distinct), appending command by
command to a real journal and publishing through the outbox after every ``--every`` commands,
then confirming the result. Meanwhile ``--viewers`` spectators hold the event stream open (a
process of their own; ``--sample`` of them parse every snapshot, to time it) and ``--pages``
requests for /tables run at ``--concurrency`` (another process), each on a fresh connection.

At the end it checks, and says: every tablet's journal equals the club's copy by its last hash
and seq; each event is stored once; every result counted once in the league. It prints the
figures: publish-to-viewer latency (from an upload leaving the tablet, its request written, to a
sampled viewer's snapshot showing its last event) p50/p95, uploads and events a second, /tables latency p50/p95 and
requests a second, the server's peak memory and CPU time. Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.club.client import Outbox, read_journal, urllib_transport  # noqa: E402
from companion.club.keys import TabletKey  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.jsonl import read_file  # noqa: E402

GAMES = ("fublet", "futboard", "fussball_liga", "football_leader")

VIEWERS = r'''
import asyncio, json, sys, time
host, port, count, sample, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
seen = [[] for _ in range(sample)]
stats = {"opened": 0, "errors": 0, "snapshots": 0}
async def viewer(i, stop):
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 22)
        writer.write(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            stats["errors"] += 1
            return
        stats["opened"] += 1
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                break
            if line.startswith(b"data: "):
                stats["snapshots"] += 1
                if i < sample:
                    tables = json.loads(line[6:])["tables"]
                    seen[i].append((time.time(), {t["match"]: t["events"] for t in tables}))
        writer.close()
    except (OSError, asyncio.IncompleteReadError):
        stats["errors"] += 1
async def main():
    stop = asyncio.Event()
    tasks = [asyncio.create_task(viewer(i, stop)) for i in range(count)]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)   # until told to stop
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    json.dump({"stats": stats, "seen": seen}, open(out, "w"))
asyncio.run(main())
'''

PAGES = r'''
import asyncio, json, sys, time
host, port, total, concurrency, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
times, errors = [], 0
async def one():
    global errors
    start = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET /tables HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = await asyncio.wait_for(reader.read(), 30)
        writer.close()
        if not data.startswith(b"HTTP/1.1 200 "):
            errors += 1
            return
        times.append(time.perf_counter() - start)
    except (OSError, asyncio.TimeoutError):
        errors += 1
async def main():
    sem = asyncio.Semaphore(concurrency)
    async def guarded():
        async with sem:
            await one()
    start = time.perf_counter()
    await asyncio.gather(*(guarded() for _ in range(total)))
    json.dump({"times": times, "errors": errors, "wall": time.perf_counter() - start}, open(out, "w"))
asyncio.run(main())
'''


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def proc_figures(pid: int) -> tuple[float, float]:
    """(peak resident MB, CPU seconds) of a process."""
    status = Path(f"/proc/{pid}/status").read_text()
    hwm = int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return hwm, cpu


class Tablet(threading.Thread):
    def __init__(self, number: int, folder: Path, server: str, link_token: str, every: int, acks: list) -> None:
        super().__init__(name=f"tablet-{number}", daemon=True)
        self.number, self.folder, self.server, self.token, self.every, self.acks = number, folder, server, link_token, every, acks
        self.game = GAMES[number % len(GAMES)]
        self.path = folder / f"table-{number}.sqlite"
        self.error = ""
        self.uploads = 0

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:   # said at the end, with the others
            self.error = f"{type(exc).__name__}: {exc}"

    def _play(self) -> None:
        imported = read_file(ROOT / "tests" / "data" / f"{self.game}_full_match.jsonl")
        raw = list(imported.raw)
        raw[0] = raw[0]._replace(at=raw[0].at.replace(".000000Z", f".{self.number:06d}Z"))   # its own match
        first_end = next(i for i in range(1, len(raw)) if raw[i].batch == raw[i].seq)
        Journal.create_with(self.path, self.game, raw[:first_end]).close()
        batches: dict[int, list] = {}
        for event in imported.events[first_end:]:
            batches.setdefault(event.batch, []).append(event)
        key = TabletKey.generate()
        outbox = Outbox(self.folder / f"outbox-{self.number}.sqlite", key, self._transport)
        outbox.join(self.server, self.token, f"Table {self.number + 1}")
        outbox.add(self.path)
        with Journal.open(self.path) as journal:
            for i, events in enumerate(batches.values(), 1):
                journal.append(events)
                if i % self.every == 0:
                    self._send(outbox)
        self._send(outbox)
        outbox.confirm(self.path)
        self._send(outbox)
        outbox.close()

    def _transport(self, method, url, body, headers):
        """The real transport; an upload's time and its last event noted as it leaves (the viewers'
        latency is counted from there)."""
        if url.endswith("/events"):
            upload = json.loads(body)
            if upload["events"]:
                self.acks.append((time.time(), upload["match"], upload["events"][-1]["seq"]))
        return urllib_transport(method, url, body, headers)

    def _send(self, outbox: Outbox) -> None:
        outbox.add(self.path, now=True)
        left = outbox.send_due()
        self.uploads += 1
        if left:
            raise RuntimeError(f"not sent: {left[0].refused or 'unreachable'}")


def start_server(folder: Path, database: str = "") -> tuple[subprocess.Popen, str]:
    extra = ["--database", database] if database else []
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "club", "--folder", str(folder), "--port", "0",
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    url = re.search(r"http://127\.0\.0\.1:\d+", proc.stdout.readline())
    if url is None:
        raise SystemExit(f"the club server did not start: {proc.stderr.read()}")
    return proc, url.group(0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tablets", type=int, default=32)
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--viewers", type=int, default=500)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--pages", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=50)
    ap.add_argument("--postgres", action="store_true", help="two servers on one PostgreSQL database")
    args = ap.parse_args()
    if args.postgres:
        from benchmarks.pg_cluster import missing, new_database, throwaway_cluster

        if missing():
            raise SystemExit(missing())
        with throwaway_cluster() as cluster:
            return run(args, new_database(cluster))
    return run(args, "")


def run(args: argparse.Namespace, database: str) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="touchline-club-load-"))
    servers: list[subprocess.Popen] = []
    try:
        first, url = start_server(tmp / "club", database)
        servers.append(first)
        urls = [url]
        if database:   # a second server on the same database (its own folder: the database's tokens)
            second, url2 = start_server(tmp / "club-2", database)
            servers.append(second)
            urls.append(url2)
        token = json.loads((tmp / "club" / "club.json").read_text())["join_token"]
        ports = [int(u.rsplit(":", 1)[1]) for u in urls]
        viewers = []
        for i, port in enumerate(ports):
            count = args.viewers // len(ports) + (1 if i < args.viewers % len(ports) else 0)
            proc = subprocess.Popen([sys.executable, "-c", VIEWERS, "127.0.0.1", str(port), str(count),
                                     str(args.sample // len(ports)), str(tmp / f"viewers-{i}.json")],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert proc.stdout.readline().strip() == "ready"
            viewers.append(proc)
        acks: list = []
        tablets = [Tablet(i, tmp, urls[i % len(urls)], token, args.every, acks) for i in range(args.tablets)]
        start = time.perf_counter()
        for t in tablets:
            t.start()
        pages = [subprocess.Popen([sys.executable, "-c", PAGES, "127.0.0.1", str(port), str(args.pages // len(ports)),
                                   str(args.concurrency // len(ports)), str(tmp / f"pages-{i}.json")])
                 for i, port in enumerate(ports)]
        for t in tablets:
            t.join()
        played = time.perf_counter() - start
        for p in pages:
            p.wait(timeout=600)
        time.sleep(1.0)   # the last snapshots reach the viewers (figures only; nothing is timed by this)
        for v in viewers:
            v.stdin.close()
            v.wait(timeout=120)
        figures = [proc_figures(s.pid) for s in servers]

        import urllib.request
        errors = [f"{t.name}: {t.error}" for t in tablets if t.error]
        equal = 0
        for t in tablets:
            if t.error:
                continue
            read = read_journal(t.path)
            with urllib.request.urlopen(f"{urls[-1]}/matches/{read.match}", timeout=60) as resp:   # the other server
                held = json.loads(resp.read())
            if (held["held"], held["head"]) == (read.last_seq, read.head):
                equal += 1
            else:
                errors.append(f"{t.name}: the club holds {held['held']}, the journal {read.last_seq}")
        with urllib.request.urlopen(f"{urls[0]}/league", timeout=60) as resp:
            league = json.loads(resp.read())
        per_game = {g: sum(1 for t in tablets if t.game == g) for g in GAMES}
        for game, expected in per_game.items():
            played_counts = [r["played"] for r in league["games"].get(game, {}).get("table", [])]
            if expected and played_counts != [expected, expected]:
                errors.append(f"{game}: the league counts {played_counts}, expected {expected} each")
        events = sum(len(read_file(ROOT / "tests" / "data" / f"{t.game}_full_match.jsonl").raw) for t in tablets)
        for s in servers:
            s.send_signal(signal.SIGINT)
            s.communicate(timeout=60)
        if database:
            import psycopg
            with psycopg.connect(database) as conn:
                stored = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        else:
            with sqlite3.connect(tmp / "club" / "club.sqlite") as conn:
                stored = conn.execute("SELECT count(*) FROM events").fetchone()[0]
            conn.close()
        if stored != events:
            errors.append(f"the club stores {stored} events, the tablets wrote {events}")

        seen = {"opened": 0, "errors": 0, "seen": []}
        for i in range(len(ports)):
            part = json.loads((tmp / f"viewers-{i}.json").read_text())
            seen["opened"] += part["stats"]["opened"]
            seen["errors"] += part["stats"]["errors"]
            seen["seen"] += part["seen"]
        latencies = []
        for sent_at, match, held in acks:
            for snapshots in seen["seen"]:
                later = next((t for t, counts in snapshots if counts.get(match, 0) >= held and t >= sent_at), None)
                if later is not None:
                    latencies.append(later - sent_at)
        page_times, page_errors, page_rate = [], 0, 0.0
        for i in range(len(ports)):
            page = json.loads((tmp / f"pages-{i}.json").read_text())
            page_times += page["times"]
            page_errors += page["errors"]
            page_rate += len(page["times"]) / page["wall"]
        uploads = sum(t.uploads for t in tablets)
        where = "two servers on one PostgreSQL database" if database else "one server on SQLite"
        print(f"{where}: tablets {args.tablets} (publishing every {args.every} commands), viewers {args.viewers} "
              f"({seen['opened']} opened, {seen['errors']} errors), pages {args.pages} at concurrency "
              f"{args.concurrency}")
        print(f"played in {played:.1f} s: {uploads} publishes, {events} events ({events / played:.0f} events/s)")
        print(f"publish-to-viewer latency: p50 {pct(latencies, 50) * 1000:.0f} ms, p95 {pct(latencies, 95) * 1000:.0f} ms "
              f"({len(latencies)} samples)")
        print(f"/tables: p50 {pct(page_times, 50) * 1000:.0f} ms, p95 {pct(page_times, 95) * 1000:.0f} ms, "
              f"{page_rate:.0f} requests/s, {page_errors} errors")
        for i, (peak_mb, cpu_s) in enumerate(figures, 1):
            print(f"server {i}: peak {peak_mb:.0f} MB resident, {cpu_s:.1f} s CPU")
        print(f"journals equal to the club's copy: {equal} of {args.tablets}; events stored {stored} of {events}")
        for e in errors:
            print("ERROR:", e)
        return 1 if errors else 0
    finally:
        for s in servers:
            if s.poll() is None:
                s.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
