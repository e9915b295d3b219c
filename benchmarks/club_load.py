"""The club server under load (issue 33, docs/benchmarks.md): loopback only, bounded.

    .venv/bin/python benchmarks/club_load.py [--tablets 32] [--every 20] [--viewers 500]
        [--pages 2000] [--concurrency 50] [--sample 20] [--postgres]
        [--faults [--offline 8] [--offline-s 120]]

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

With ``--faults``, while the tablets play (each fault set off by how far the round has got, not
by a timer): at 20 % of the round's commands the (first) server is killed (SIGKILL) and started
again on its port; on PostgreSQL, at 40 % PostgreSQL itself is restarted (``pg_ctl restart`` on
the throwaway cluster); at 60 % ``--offline`` tablets lose the club (their transport fails, as
with no network) for ``--offline-s`` seconds and at least until they have played their match to
the end and signed its result offline, then come back. The tablets play on through every fault;
their outboxes wait out their backoff (2 s doubling up to 30 s, with jitter: the app's), on the
real clock, and send what waits. The spectators' streams come back as a browser's do (after 1 s).
Each fault's recovery is timed: from the fault's end (the server answering again, PostgreSQL
up again, the tablets online again) until the club holds, for every tablet it touched, every
event that tablet's journal held at that moment (from the tablets' acknowledged uploads).
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

from companion.club.client import Outbox, Unreachable, read_journal, urllib_transport  # noqa: E402
from companion.club.keys import TabletKey  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.jsonl import read_file  # noqa: E402

GAMES = ("fublet", "futboard", "fussball_liga", "football_leader")

VIEWERS = r'''
import asyncio, json, sys, time
host, port, count, sample, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
paths = sys.argv[6].split(",") if len(sys.argv) > 6 else ["/events"]   # /events, or tables' /tables/<match>/events
seen = [[] for _ in range(sample)]
stats = {"opened": 0, "errors": 0, "snapshots": 0}
stats["reopened"] = 0
async def viewer(i, stop):
    attempt, opened = -1, False
    while not stop.is_set():   # a stream that ends comes back after 1 s, as a browser's EventSource does
        attempt += 1
        if attempt:
            await asyncio.sleep(1.0)
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=1 << 22)
            path = paths[i % len(paths)]
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                stats["errors"] += 1
                writer.close()
                continue
            stats["reopened" if opened else "opened"] += 1
            opened = True
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    stats["snapshots"] += 1
                    if i < sample and path == "/events":
                        tables = json.loads(line[6:])["tables"]
                        seen[i].append((time.time(), {t["match"]: t["events"] for t in tables}))
                    elif i < sample:   # a table's scoreboard: how far it shows its match
                        seen[i].append((time.time(), {path.split("/")[2]: json.loads(line[6:]).get("seq", 0)}))
            writer.close()
        except (OSError, asyncio.IncompleteReadError, ValueError):
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
times, errors, failed_at = [], 0, []
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
            failed_at.append(time.time())
            return
        times.append(time.perf_counter() - start)
    except (OSError, asyncio.TimeoutError):
        errors += 1
        failed_at.append(time.time())
async def main():
    sem = asyncio.Semaphore(concurrency)
    async def guarded():
        async with sem:
            await one()
    start = time.perf_counter()
    await asyncio.gather(*(guarded() for _ in range(total)))
    json.dump({"times": times, "errors": errors, "failed_at": failed_at, "wall": time.perf_counter() - start},
              open(out, "w"))
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
    """One table: plays its scripted match command by command into a real journal, publishing
    through its outbox. ``offline`` cuts it off from the club (its transport fails, as with no
    network); with ``patient`` (the fault runs) it plays on whatever the outbox says, as the app
    does, and at the end waits (bounded) until everything went."""

    def __init__(self, number: int, folder: Path, server: str, link_token: str, every: int, acks: list,
                 patient: bool = False, deadline_s: float = 900.0) -> None:
        super().__init__(name=f"tablet-{number}", daemon=True)
        self.number, self.folder, self.server, self.token, self.every, self.acks = number, folder, server, link_token, every, acks
        self.game = GAMES[number % len(GAMES)]
        self.path = folder / f"table-{number}.sqlite"
        self.error = ""
        self.uploads = 0
        self.patient, self.deadline_s = patient, deadline_s
        self.offline = False
        self.commands = self.played = 0     # the match's commands, and how many are played
        self.written = 0                    # the journal's last seq
        self.held: list[tuple[float, int]] = []   # (when, how far the club holds the match) per answered upload
        self.finished = threading.Event()   # played to the end and its result signed
        self.done_at = 0.0

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:   # said at the end, with the others
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.finished.set()

    def create(self) -> str:
        """The match's journal as the tablet creates it (its first command); its match id."""
        self.imported = read_file(ROOT / "tests" / "data" / f"{self.game}_full_match.jsonl")
        raw = list(self.imported.raw)
        raw[0] = raw[0]._replace(at=raw[0].at.replace(".000000Z", f".{self.number:06d}Z"))   # its own match
        self.first_end = next(i for i in range(1, len(raw)) if raw[i].batch == raw[i].seq)
        Journal.create_with(self.path, self.game, raw[:self.first_end]).close()
        self.written = self.first_end
        return read_journal(self.path).match

    def _play(self) -> None:
        batches: dict[int, list] = {}
        for event in self.imported.events[self.first_end:]:
            batches.setdefault(event.batch, []).append(event)
        self.commands = len(batches)
        key = TabletKey.generate()
        outbox = Outbox(self.folder / f"outbox-{self.number}.sqlite", key, self._transport)
        outbox.join(self.server, self.token, f"Table {self.number + 1}")
        outbox.add(self.path)
        with Journal.open(self.path) as journal:
            for i, events in enumerate(batches.values(), 1):
                journal.append(events)
                self.written, self.played = events[-1].seq, i
                if i % self.every == 0:
                    self._send(outbox)
        self._send(outbox)
        outbox.confirm(self.path)
        self.finished.set()
        self._send(outbox)
        if self.patient:
            self._drain(outbox)
        outbox.close()
        self.done_at = time.time()

    def _transport(self, method, url, body, headers):
        """The real transport (failing while ``offline``); an upload's time and its last event
        noted as it leaves, kept once it is answered (the viewers' latency is counted from there)."""
        if self.offline:
            raise Unreachable(f"{url}: cannot reach the club (the network is down)")
        leaving = time.time()
        status, answer = urllib_transport(method, url, body, headers)
        if url.endswith("/events") and status == 200:
            upload = json.loads(body)
            if upload["events"]:
                self.acks.append((leaving, upload["match"], upload["events"][-1]["seq"]))
            self.held.append((time.time(), int(json.loads(answer)["held"])))
        return status, answer

    def _send(self, outbox: Outbox) -> None:
        # The app adds its journal after every command and its outbox sends what is due; a
        # journal waiting out a backoff keeps waiting. Without faults, each publish goes at once.
        outbox.add(self.path, now=not self.patient)
        left = outbox.send_due()
        self.uploads += 1
        refused = [w.refused for w in left if w.refused]
        if refused or (left and not self.patient):
            raise RuntimeError(f"not sent: {refused[0] if refused else 'unreachable'}")

    def _drain(self, outbox: Outbox) -> None:
        """Wait out the backoff until the outbox has sent everything (bounded)."""
        deadline = time.time() + self.deadline_s
        while True:
            left = outbox.send_due()
            if not left:
                return
            if any(w.refused for w in left):
                raise RuntimeError(f"refused: {next(w.refused for w in left if w.refused)}")
            if time.time() > deadline:
                raise RuntimeError(f"still not sent after {self.deadline_s:.0f} s: {outbox.state_in_words()}")
            time.sleep(min(1.0, max(0.05, min(w.next_try for w in left) - time.time())))


def start_server(folder: Path, database: str = "", port: int = 0) -> tuple[subprocess.Popen, str]:
    """``touchline club`` in a process of its own (its log in ``folder``.log: a pipe nobody reads
    would stop it once full); its address, once it serves."""
    extra = ["--database", database] if database else []
    log = open(f"{folder}.log", "a")
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "club", "--folder", str(folder), "--port", str(port),
                             *extra], stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT)
    log.close()
    url = re.search(r"http://127\.0\.0\.1:\d+", proc.stdout.readline())
    if url is None:
        proc.kill()
        raise SystemExit(f"the club server did not start: {Path(f'{folder}.log').read_text()[-2000:]}")
    return proc, url.group(0)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tablets", type=int, default=32)
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--viewers", type=int, default=500)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--pages", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=50)
    ap.add_argument("--postgres", action="store_true", help="two servers on one PostgreSQL database")
    ap.add_argument("--board-viewers", type=int, default=0,
                    help="spectators of single tables' scoreboards (/tables/<match>/events), spread over the tables")
    ap.add_argument("--faults", action="store_true",
                    help="kill and restart the server, restart PostgreSQL, take tablets offline, mid-round")
    ap.add_argument("--offline", type=int, default=8, help="tablets that go offline (with --faults)")
    ap.add_argument("--offline-s", type=float, default=120.0,
                    help="seconds they stay offline at least (and until their match is played and signed)")
    args = ap.parse_args(argv)
    if args.postgres:
        from benchmarks.pg_cluster import missing, new_database, throwaway_cluster

        if missing():
            raise SystemExit(missing())
        with throwaway_cluster() as cluster:
            return run(args, new_database(cluster), cluster)
    return run(args, "")


class Fault:
    """One fault: when it began and ended, the tablets it touched and what each journal held
    when it ended, and the servers' memory before a kill."""

    def __init__(self, name: str, tablets: list[Tablet]) -> None:
        self.name, self.tablets = name, tablets
        self.began = time.time()
        self.ended = 0.0
        self.written: dict[int, int] = {}

    def end(self) -> None:
        self.ended = time.time()
        self.written = {t.number: t.written for t in self.tablets}

    def recovery(self, leave_out: set[int] = frozenset()) -> float | None:
        """Seconds from the fault's end until the club held every event each touched tablet's
        journal held then (None: never, in this run); the tablets ``leave_out`` (those a later
        fault took offline before they caught up) not counted."""
        worst = 0.0
        for t in self.tablets:
            if t.number in leave_out:
                continue
            want = self.written[t.number]
            if any(held >= want for when, held in t.held if when <= self.ended):
                continue
            later = [when for when, held in t.held if held >= want and when > self.ended]
            if not later:
                return None
            worst = max(worst, later[0] - self.ended)
        return worst


class Servers:
    """The club's server processes, each on a port of its own across restarts."""

    def __init__(self, tmp: Path, database: str) -> None:
        self.tmp, self.database = tmp, database
        self.folders = [tmp / "club"] + ([tmp / "club-2"] if database else [])   # a second: the database's tokens
        self.ports = [free_port() for _ in self.folders]
        self.procs: list[subprocess.Popen] = []
        self.figures: list[tuple[str, float, float]] = []   # (which, peak MB, CPU s) of each process ended
        self.urls = []
        for i in range(len(self.folders)):
            proc, url = start_server(self.folders[i], database, self.ports[i])
            self.procs.append(proc)
            self.urls.append(url)

    def kill_and_restart(self, i: int) -> float:
        """SIGKILL server ``i`` and start it again on its port; the seconds it answered nothing."""
        proc = self.procs[i]
        self.figures.append((f"server {i + 1} (killed)", *proc_figures(proc.pid)))
        began = time.time()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        self.procs[i], _ = start_server(self.folders[i], self.database, self.ports[i])
        return time.time() - began

    def stop(self) -> None:
        for i, proc in enumerate(self.procs):
            self.figures.append((f"server {i + 1}" + (" (restarted)" if any(f[0] == f"server {i + 1} (killed)"
                                                                          for f in self.figures) else ""),
                                 *proc_figures(proc.pid)))
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=60)

    def kill_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()


def set_off_faults(args, tablets: list[Tablet], servers: Servers, cluster, faults: list[Fault],
                   problems: list[str]) -> None:
    """The faults, each when the round has got far enough (a thread of its own)."""
    total = sum(1 for _ in tablets)

    def progress() -> float:
        known = [t for t in tablets if t.commands]
        if len(known) < total:
            return 0.0
        return sum(t.played for t in known) / sum(t.commands for t in known)

    def reach(share: float) -> None:
        deadline = time.time() + 900
        while progress() < share and time.time() < deadline and not all(t.finished.is_set() for t in tablets):
            time.sleep(0.02)

    try:
        reach(0.2)
        touched = [t for i, t in enumerate(tablets) if i % len(servers.urls) == 0]
        fault = Fault("server killed (SIGKILL) and started again", touched)
        fault.down = servers.kill_and_restart(0)
        fault.end()
        faults.append(fault)
        if cluster is not None:
            reach(0.4)
            fault = Fault("PostgreSQL restarted (pg_ctl restart -m fast)", list(tablets))
            cluster.restart()
            fault.end()
            fault.down = fault.ended - fault.began
            faults.append(fault)
        reach(0.6)
        playing = [t for t in tablets if not t.finished.is_set()] or tablets
        away = playing[::max(1, len(playing) // max(1, args.offline))][:args.offline]
        fault = Fault(f"{len(away)} tablets offline", away)
        for t in away:
            t.offline = True
        until = time.time() + args.offline_s
        while time.time() < until or not all(t.finished.is_set() for t in away):
            time.sleep(0.05)
            if time.time() > until + 900:
                break
        for t in away:
            t.offline = False
        fault.end()
        fault.down = fault.ended - fault.began
        faults.append(fault)
    except Exception as exc:   # said at the end, with the rest
        problems.append(f"the faults: {type(exc).__name__}: {exc}")


def run(args: argparse.Namespace, database: str, cluster=None) -> int:
    import resource
    import urllib.request

    tmp = Path(tempfile.mkdtemp(prefix="touchline-club-load-"))
    servers: Servers | None = None
    try:
        servers = Servers(tmp, database)
        urls = servers.urls
        token = json.loads((tmp / "club" / "club.json").read_text())["join_token"]
        ports = servers.ports
        viewers = []
        for i, port in enumerate(ports):
            count = args.viewers // len(ports) + (1 if i < args.viewers % len(ports) else 0)
            proc = subprocess.Popen([sys.executable, "-c", VIEWERS, "127.0.0.1", str(port), str(count),
                                     str(args.sample // len(ports)), str(tmp / f"viewers-{i}.json")],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert proc.stdout.readline().strip() == "ready"
            viewers.append(proc)
        acks: list = []
        tablets = [Tablet(i, tmp, urls[i % len(urls)], token, args.every, acks, patient=args.faults)
                   for i in range(args.tablets)]
        matches = [t.create() for t in tablets]
        for i, port in enumerate(ports):   # spectators of single tables' scoreboards, on each server
            count = args.board_viewers // len(ports) + (1 if i < args.board_viewers % len(ports) else 0)
            if not count:
                continue
            paths = ",".join(f"/tables/{m}/events" for m in matches)
            proc = subprocess.Popen([sys.executable, "-c", VIEWERS, "127.0.0.1", str(port), str(count), str(count),
                                     str(tmp / f"boards-{i}.json"), paths],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert proc.stdout.readline().strip() == "ready"
            viewers.append(proc)
        faults: list[Fault] = []
        errors: list[str] = []
        start, started = time.perf_counter(), time.time()
        for t in tablets:
            t.start()
        controller = None
        if args.faults:
            controller = threading.Thread(target=set_off_faults, args=(args, tablets, servers, cluster, faults, errors),
                                          daemon=True)
            controller.start()
        pages = [subprocess.Popen([sys.executable, "-c", PAGES, "127.0.0.1", str(port), str(args.pages // len(ports)),
                                   str(args.concurrency // len(ports)), str(tmp / f"pages-{i}.json")])
                 for i, port in enumerate(ports)]
        for t in tablets:
            t.join()
        played = time.perf_counter() - start
        if controller is not None:
            controller.join(timeout=900)
        for p in pages:
            p.wait(timeout=600)
        time.sleep(1.0)   # the last snapshots reach the viewers (figures only; nothing is timed by this)
        for v in viewers:
            v.stdin.close()
            v.wait(timeout=120)

        errors += [f"{t.name}: {t.error}" for t in tablets if t.error]
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
        if league["unconfirmed"]:
            errors.append(f"{len(league['unconfirmed'])} finished matches not confirmed")
        events = sum(len(read_file(ROOT / "tests" / "data" / f"{t.game}_full_match.jsonl").raw) for t in tablets)
        servers.stop()
        if database:
            import psycopg
            with psycopg.connect(database) as conn:
                stored = conn.execute("SELECT count(*) FROM events").fetchone()[0]
                distinct = conn.execute("SELECT count(*) FROM (SELECT DISTINCT match, seq FROM events) d").fetchone()[0]
                forks = conn.execute("SELECT count(*) FROM forks").fetchone()[0]
                results = conn.execute("SELECT count(*) FROM results").fetchone()[0]
        else:
            with sqlite3.connect(tmp / "club" / "club.sqlite") as conn:
                stored = conn.execute("SELECT count(*) FROM events").fetchone()[0]
                distinct = conn.execute("SELECT count(*) FROM (SELECT DISTINCT match, seq FROM events)").fetchone()[0]
                forks = conn.execute("SELECT count(*) FROM forks").fetchone()[0]
                results = conn.execute("SELECT count(*) FROM results").fetchone()[0]
            conn.close()
        if stored != events or distinct != stored:
            errors.append(f"the club stores {stored} events ({distinct} distinct), the tablets wrote {events}")
        if forks:
            errors.append(f"{forks} forks recorded")
        if results != len(tablets):
            errors.append(f"{results} results stored for {len(tablets)} matches")

        seen = {"opened": 0, "reopened": 0, "errors": 0, "seen": []}
        for i in range(len(ports)):
            part = json.loads((tmp / f"viewers-{i}.json").read_text())
            for k in ("opened", "reopened", "errors"):
                seen[k] += part["stats"].get(k, 0)
            seen["seen"] += part["seen"]
        latencies = []
        for sent_at, match, held in acks:
            for snapshots in seen["seen"]:
                later = next((t for t, counts in snapshots if counts.get(match, 0) >= held and t >= sent_at), None)
                if later is not None:
                    latencies.append(later - sent_at)
        boards = {"opened": 0, "reopened": 0, "errors": 0, "seen": []}
        for part_file in tmp.glob("boards-*.json"):
            part = json.loads(part_file.read_text())
            for k in ("opened", "reopened", "errors"):
                boards[k] += part["stats"].get(k, 0)
            boards["seen"] += part["seen"]
        board_latencies = []
        for sent_at, match, held in acks:
            for snapshots in boards["seen"]:
                later = next((t for t, counts in snapshots if counts.get(match, -1) >= held and t >= sent_at), None)
                if later is not None:
                    board_latencies.append(later - sent_at)
        page_times, page_errors, page_rate, failed_at = [], 0, 0.0, []
        for i in range(len(ports)):
            page = json.loads((tmp / f"pages-{i}.json").read_text())
            page_times += page["times"]
            page_errors += page["errors"]
            page_rate += len(page["times"]) / page["wall"]
            failed_at += page["failed_at"]
        # A request that met a server being killed and started again failed at once: said apart.
        down = [(f.began, f.began + f.down + 0.5) for f in faults if f.name.startswith("server killed")]
        page_errors_down = sum(1 for t in failed_at if any(a <= t <= b for a, b in down))
        uploads = sum(t.uploads for t in tablets)
        where = "two servers on one PostgreSQL database" if database else "one server on SQLite"
        print(f"{where}: tablets {args.tablets} (publishing every {args.every} commands), viewers {args.viewers} "
              f"({seen['opened']} opened, {seen['reopened']} reopened, {seen['errors']} errors), pages {args.pages} "
              f"at concurrency {args.concurrency}")
        print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"played in {played:.1f} s: {uploads} publishes, {events} events ({events / played:.0f} events/s)")
        offline = {t.number for f in faults if f.name.endswith("offline") for t in f.tablets}
        if offline:
            stayed = [t for t in tablets if t.number not in offline]
            took = max(t.done_at for t in stayed) - started
            print(f"the {len(stayed)} tablets never offline: every event and result sent {took:.1f} s after the "
                  f"start ({sum(t.written for t in stayed) / took:.0f} events/s)")
        print(f"publish-to-viewer latency: p50 {pct(latencies, 50) * 1000:.0f} ms, p95 {pct(latencies, 95) * 1000:.0f} ms "
              f"({len(latencies)} samples)")
        if args.board_viewers:
            print(f"tables' scoreboards (/tables/<match>/events): {args.board_viewers} viewers ({boards['opened']} "
                  f"opened, {boards['reopened']} reopened, {boards['errors']} tries refused or failed: a table not "
                  f"published yet answers 404, a killed server none, and the stream tries again 1 s later); "
                  f"publish-to-scoreboard latency "
                  f"p50 {pct(board_latencies, 50) * 1000:.0f} ms, p95 {pct(board_latencies, 95) * 1000:.0f} ms "
                  f"({len(board_latencies)} samples)")
        print(f"/tables: p50 {pct(page_times, 50) * 1000:.0f} ms, p95 {pct(page_times, 95) * 1000:.0f} ms, "
              f"{page_rate:.0f} requests/s, {page_errors} errors"
              + (f" ({page_errors_down} of them while the server was killed and starting again)" if down else ""))
        for which, peak_mb, cpu_s in servers.figures:
            print(f"{which}: peak {peak_mb:.0f} MB resident, {cpu_s:.1f} s CPU")
        print(f"the tablets' process (threads of {args.tablets} tablets): peak "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB resident")
        for fault in faults:
            later = {t.number for f in faults if f.began > fault.began and f.name.endswith("offline")
                     for t in f.tablets}
            recovered = fault.recovery(later)
            if recovered is None:
                errors.append(f"{fault.name}: the club never caught up")
            print(f"fault: {fault.name}: {fault.down:.1f} s down; {len(fault.tablets)} tablets touched; recovered "
                  + (f"in {recovered:.1f} s" if recovered is not None else "never")
                  + (f" (the {len(later & {t.number for t in fault.tablets})} of them taken offline later left out)"
                     if later & {t.number for t in fault.tablets} else ""))
        if args.faults and len(faults) != 2 + (cluster is not None):
            errors.append(f"only {len(faults)} faults were set off")
        print(f"journals equal to the club's copy: {equal} of {args.tablets}; events stored {stored} of {events} "
              f"({stored - distinct} doubled); results counted {results}; forks {forks}")
        for e in errors:
            print("ERROR:", e)
        return 1 if errors else 0
    finally:
        if servers is not None:
            servers.kill_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
