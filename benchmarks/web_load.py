"""The scoreboard page under load, while a match is being written (docs/benchmarks.md).

    .venv/bin/python benchmarks/web_load.py [--viewers 200] [--pages 2000] [--concurrency 50]
        [--churn 200] [--idle 100] [--appends 80] [--interval 0.25] [--parser h11]

Everything runs on 127.0.0.1 and ends by itself (each phase is bounded in count and in time).
A 'tablet' process appends a scripted Fublet match to a journal, one command every
``--interval`` s (fsync per command; people play a command every few seconds), while ``touchline serve`` (the real command, its own
process) follows it and, all at once:

- ``--viewers`` viewers hold the event stream open for the whole run; each must get the
  first snapshot and, at the end, the last command the tablet appended;
- ``--idle`` connections are opened and left idle (half of them with nothing sent, half with
  half a request line): they are no viewers, and the server must close them by itself;
- ``--churn`` streams are opened and closed at once, 10 at a time (each reads its first
  snapshot, then hangs up);
- ``--pages`` page requests at ``--concurrency``, each on a fresh connection, timed from the
  connect to the last byte (their own process, so nothing else in the client delays them);
- every 0.25 s a new viewer opens the stream: the time until its first snapshot arrives.

Well-behaved clients (the viewers, the churn, the pages, the new viewers) count an error for
anything but a 200 with a whole answer (10 s at most each). The server's resident memory is its peak (VmHWM);
it is compared with ``python -m http.server`` serving the same page to the same page
requests. Nothing here asserts on time: it prints the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
PHASE_S = 120.0          # no phase runs longer than this


# --- the tablet (its own process) ---------------------------------------------------------------------

def run_tablet(path: Path, appends: int, interval: float) -> None:
    """Create the journal with 30 commands, say "ready", then append one command every
    ``interval`` s until ``appends`` more (or stdin closes); print the last seq."""
    from benchmarks.web_bench import Tablet

    tablet = Tablet(path, first=30)
    print(f"ready {tablet.batches[tablet.done - 1][-1].seq}", flush=True)
    sys.stdin.readline()   # "go"
    seq = 0
    next_at = time.monotonic()
    for _ in range(min(appends, len(tablet.batches) - tablet.done)):
        next_at += interval
        seq = tablet.step(timed=False)
        time.sleep(max(0.0, next_at - time.monotonic()))
    tablet.close()
    print(f"done {seq}", flush=True)


# --- a small HTTP client --------------------------------------------------------------------------------

@dataclass
class Tally:
    errors: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        if len(self.errors) < 50:
            self.errors.append(what)
        else:
            self.errors.append("")   # counted, not kept


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    status_line = await reader.readline()
    parts = status_line.split()
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1."):
        raise ValueError(f"bad status line {status_line[:60]!r}")
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


async def get_page(path: str, port: int) -> int:
    """GET on a fresh connection; the body's length (ValueError unless a whole 200)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
        status, headers = await read_head(reader)
        body = await reader.readexactly(int(headers.get("content-length", "-1")))
        if status != 200:
            raise ValueError(f"status {status}")
        return len(body)
    finally:
        writer.close()


SEQ = b'"seq":'


def last_seq(chunk: bytes) -> int | None:
    """The seq of the last snapshot in a chunk of the stream (cheap: the viewers are many)."""
    at = chunk.rfind(SEQ)
    if at < 0:
        return None
    digits = chunk[at + len(SEQ):at + len(SEQ) + 12].split(b",", 1)[0]
    return int(digits) if digits.isdigit() else None


class Stream:
    """An event stream held open: the newest seq it received and how many snapshots."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.seq = 0
        self.updates = 0
        self.first = asyncio.Event()
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        reader, self.writer = await asyncio.open_connection(HOST, self.port)
        self.writer.write(f"GET /{self.token}/events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        status, _headers = await read_head(reader)
        if status != 200:
            self.writer.close()
            raise ValueError(f"stream status {status}")
        self.reader = reader

    async def follow(self) -> None:
        tail = b""
        while True:
            chunk = await self.reader.read(65536)
            if not chunk:
                return
            seen = tail + chunk
            seq = last_seq(seen)
            if seq is not None:
                self.updates += seen.count(b"event: state")
                self.seq = max(self.seq, seq)
                self.first.set()
                tail = seen[seen.rfind(SEQ) + len(SEQ) + 12:][-64:]
            else:
                tail = seen[-64:]

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# --- the held viewers (their own process) -----------------------------------------------------------

def run_viewers(port: int, token: str, count: int) -> None:
    """Open ``count`` streams, say "ready", then on "last SEQ" wait (at most 20 s) until every
    stream has that command and print what they got, as JSON."""
    import json

    async def main() -> dict:
        streams, errors = [], []
        for _ in range(count):
            s = Stream(port, token)
            try:
                await asyncio.wait_for(s.open(), 10)
                streams.append(s)
            except (OSError, ValueError, TimeoutError) as exc:
                errors.append(repr(exc))
        tasks = [asyncio.create_task(s.follow()) for s in streams]
        print("ready", flush=True)
        line = await asyncio.to_thread(sys.stdin.readline)
        last = int(line.split()[1])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(s.seq < last for s in streams):
            await asyncio.sleep(0.05)
        for s in streams:
            s.close()
        for t in tasks:
            t.cancel()
        return {"complete": sum(1 for s in streams if s.seq >= last), "errors": errors,
                "min_updates": min((s.updates for s in streams), default=0)}

    print(json.dumps(asyncio.run(main())), flush=True)


# --- the load ---------------------------------------------------------------------------------------------

async def load(port: int, token: str, args, tablet: subprocess.Popen) -> dict:
    tally = Tally()
    out: dict = {}

    # 1. the viewers, held for the whole run (their own process: many streams to read)
    viewers = subprocess.Popen([sys.executable, __file__, "--role", "viewers", "--port", str(port), "--token", token,
                                "--viewers", str(args.viewers)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, cwd=ROOT)
    assert (await asyncio.to_thread(viewers.stdout.readline)).strip() == "ready"
    from ui.web.connection import PARSER   # "auto": the fastest one installed here
    out["parser"] = (PARSER if args.parser == "auto" else args.parser) if not args.checkout else "its own server"
    # 2. the idle connections: nothing sent, or half a request line
    idle = []
    opened_idle = time.monotonic()
    for i in range(args.idle):
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            out.setdefault("idle_refused", 0)
            out["idle_refused"] += 1
            continue
        if i % 2:
            writer.write(f"GET /{token}/ev".encode())
        idle.append((reader, writer))

    async def idle_closed(reader: asyncio.StreamReader) -> float | None:
        try:
            await asyncio.wait_for(reader.read(), PHASE_S)
            return time.monotonic() - opened_idle
        except (OSError, TimeoutError):
            return None

    idle_watch = [asyncio.create_task(idle_closed(r)) for r, _w in idle]
    tablet.stdin.write("go\n")
    tablet.stdin.flush()
    started = time.monotonic()

    # 3. new viewers, one every 0.25 s while the load runs
    admitted: list[float] = []
    stop_probes = asyncio.Event()

    async def probes() -> None:
        while not stop_probes.is_set():
            s = Stream(port, token)
            t0 = time.perf_counter()
            try:
                await asyncio.wait_for(s.open(), 10)
                task = asyncio.create_task(s.follow())
                await asyncio.wait_for(s.first.wait(), 10)
                admitted.append(time.perf_counter() - t0)
                task.cancel()
            except (OSError, ValueError, TimeoutError) as exc:
                tally.error(f"new viewer: {exc!r}")
            finally:
                s.close()
            try:
                await asyncio.wait_for(stop_probes.wait(), 0.25)
            except TimeoutError:
                pass

    probe_task = asyncio.create_task(probes())

    # 4. streams opened and closed, 10 at a time
    async def churn(count: int) -> None:
        for _ in range(count):
            s = Stream(port, token)
            try:
                await asyncio.wait_for(s.open(), 10)
                task = asyncio.create_task(s.follow())
                await asyncio.wait_for(s.first.wait(), 10)
                task.cancel()
            except (OSError, ValueError, TimeoutError) as exc:
                tally.error(f"churn: {exc!r}")
            finally:
                s.close()

    churn_t0 = time.monotonic()
    churners = [asyncio.create_task(churn(args.churn // 10 + (1 if i < args.churn % 10 else 0))) for i in range(10)]

    # 5. the page requests (their own process: its timings are not held up by this one's work)
    pages_t0 = time.monotonic()
    pager = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--role", "pages", "--port", str(port), "--token", token, "--pages",
        str(args.pages), "--concurrency", str(args.concurrency), stdout=asyncio.subprocess.PIPE, cwd=ROOT)
    paged = json.loads((await asyncio.wait_for(pager.communicate(), PHASE_S))[0])
    out["pages_s"] = time.monotonic() - pages_t0
    out["pages"] = paged
    for _ in range(paged["failed"]):
        tally.error("page: failed")
    await asyncio.wait_for(asyncio.gather(*churners), PHASE_S)
    out["churn_s"] = time.monotonic() - churn_t0

    # 6. the match goes on until the tablet is done; then every viewer must have its last command
    line = await asyncio.wait_for(asyncio.to_thread(tablet.stdout.readline), PHASE_S)
    last = int(line.split()[1])
    viewers.stdin.write(f"last {last}\n")
    viewers.stdin.flush()
    held = json.loads(await asyncio.wait_for(asyncio.to_thread(viewers.stdout.readline), PHASE_S))
    viewers.wait(timeout=30)
    stop_probes.set()
    await probe_task
    out["run_s"] = time.monotonic() - started
    for what in held["errors"]:
        tally.error(f"viewer: {what}")
    for _ in range(args.viewers - len(held["errors"]) - held["complete"]):
        tally.error("viewer: did not get the last command")
    out["viewers_complete"] = held["complete"]
    out["updates_per_viewer"] = held["min_updates"]
    closed = await asyncio.gather(*idle_watch)
    out["idle_closed"] = [c for c in closed if c is not None]
    out["idle_open"] = sum(1 for c in closed if c is None)
    for _r, w in idle:
        w.close()

    out["admitted_ms"] = [x * 1000 for x in admitted]
    out["errors"] = tally.errors
    return out


def pages(port: int, path: str, count: int, concurrency: int) -> dict:
    """Page requests alone, each on a fresh connection: ApacheBench (``ab``, C: its own CPU time
    is small beside the server's on a machine of two cores) when installed, else Python's
    asyncio. The latency percentiles in ms and how many failed."""
    from benchmarks.run import percentile

    client = "python"
    if shutil.which("ab"):
        proc = subprocess.run(["ab", "-q", "-r", "-n", str(count), "-c", str(concurrency), "-s", "30",
                               f"http://{HOST}:{port}{path}"], capture_output=True, text=True, timeout=PHASE_S)
        text = proc.stdout
        table = {int(q): float(ms) for q, ms in re.findall(r"^\s+(\d+)%\s+(\d+)", text, re.M)}
        if table:
            failed = sum(int(n) for n in re.findall(r"^(?:Failed requests|Non-2xx responses):\s+(\d+)", text, re.M))
            done = re.search(r"^Complete requests:\s+(\d+)", text, re.M)
            failed += count - (int(done.group(1)) if done else 0)
            return {"client": "ab", "median": table[50], "p95": table[95], "p99": table[99], "max": table[100],
                    "failed": failed}
        client = f"python (ab stopped: {(proc.stderr.strip().splitlines() or ['?'])[-1][:80]})"
    lat, failed = asyncio.run(pages_only(port, path, count, concurrency))
    return {"client": client, "median": percentile(lat, 0.5), "p95": percentile(lat, 0.95),
            "p99": percentile(lat, 0.99), "max": max(lat, default=float("nan")), "failed": failed}


async def pages_only(port: int, path: str, count: int, concurrency: int) -> tuple[list[float], int]:
    """Page requests alone: their latencies (ms) and how many failed."""
    latencies: list[float] = []
    failed = 0
    left = list(range(count))

    async def pager() -> None:
        nonlocal failed
        while left:
            left.pop()
            t0 = time.perf_counter()
            try:
                await asyncio.wait_for(get_page(path, port), 10)
                latencies.append((time.perf_counter() - t0) * 1000)
            except (OSError, ValueError, TimeoutError, asyncio.IncompleteReadError):
                failed += 1

    await asyncio.gather(*(pager() for _ in range(concurrency)))
    return latencies, failed


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def peak_rss_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) of a process, MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    now = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    peak = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))
    return now / 1024, peak / 1024


def bare_static_server(folder: Path, args) -> dict:
    """``python -m http.server`` serving page.html to the same page requests: its memory."""
    site = folder / "site"
    site.mkdir()
    shutil.copy(ROOT / "ui" / "web" / "page.html", site / "index.html")
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", HOST, "--directory", str(site)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        port = int(re.search(r"port (\d+)", line).group(1))
        rest = peak_rss_mb(proc.pid)[0]
        paged = pages(port, "/", args.pages, args.concurrency)
        now, peak = peak_rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return {"rest_mb": rest, "peak_mb": peak, "pages": paged}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--churn", type=int, default=200)
    parser.add_argument("--idle", type=int, default=100)
    parser.add_argument("--appends", type=int, default=80)
    parser.add_argument("--interval", type=float, default=0.25)
    parser.add_argument("--parser", default="auto", choices=("auto", "httptools", "h11"),
                        help="serve's HTTP parser (default: the fastest installed; h11 is the tablet's)")
    parser.add_argument("--checkout", type=Path, default=None,
                        help="run the touchline serve of another checkout (its .venv), e.g. the code before")
    parser.add_argument("--role", default="bench", help=argparse.SUPPRESS)
    parser.add_argument("--journal", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "tablet":
        run_tablet(args.journal, args.appends, args.interval)
        return 0
    if args.role == "viewers":
        run_viewers(args.port, args.token, args.viewers)
        return 0
    if args.role == "pages":
        print(json.dumps(pages(args.port, f"/{args.token}/", args.pages, args.concurrency)))
        return 0
    from benchmarks.run import machine, percentile

    folder = Path(tempfile.mkdtemp(prefix="touchline-web-load-"))
    print(f"machine: {machine()}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    if args.checkout:
        done = subprocess.run(["git", "-C", str(args.checkout), "log", "--oneline", "-1"], capture_output=True, text=True)
        print(f"serve from {args.checkout}: {done.stdout.strip()}")
    bare = bare_static_server(folder, args)
    bp = bare["pages"]
    print(f"python -m http.server, same page: {bare['rest_mb']:.1f} MB at rest, peak {bare['peak_mb']:.1f} MB "
          f"after {args.pages} pages at concurrency {args.concurrency} ({bp['client']}: median {bp['median']:.0f} ms, "
          f"p95 {bp['p95']:.0f} ms, p99 {bp['p99']:.0f} ms, max {bp['max']:.0f} ms, {bp['failed']} failed)")

    journal = folder / "match.sqlite"
    tablet = subprocess.Popen([sys.executable, __file__, "--role", "tablet", "--journal", str(journal),
                               "--appends", str(args.appends), "--interval", str(args.interval)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert tablet.stdout.readline().startswith("ready")
    env = dict(os.environ)
    checkout = args.checkout or ROOT   # another checkout: its own serve, in its own virtualenv
    python = str(checkout / ".venv" / "bin" / "python") if args.checkout else sys.executable
    parser_args = ["--http-parser", args.parser] if args.parser != "auto" else []
    serve = subprocess.Popen([python, "-m", "companion.cli", "serve", str(journal), "--port", "0", *parser_args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=checkout)
    try:
        found = re.search(r"http://127\.0\.0\.1:(\d+)/([^/\s]+)/", serve.stdout.readline())
        if not found:
            raise SystemExit(f"touchline serve did not start: {serve.stderr.read()[-2000:]}")
        port, token = int(found.group(1)), found.group(2)
        time.sleep(1.0)   # the first snapshot built
        rest = peak_rss_mb(serve.pid)[0]
        cpu0, load_before = cpu_s(serve.pid), load_average()
        result = asyncio.run(load(port, token, args, tablet))
        now, peak = peak_rss_mb(serve.pid)
        serve_cpu, load_after = cpu_s(serve.pid) - cpu0, load_average()
    finally:
        tablet.kill()
        serve.terminate()
        _out, err = serve.communicate(timeout=20)
    shutil.rmtree(folder, ignore_errors=True)

    pg, adm = result["pages"], result["admitted_ms"]
    print(f"touchline serve (HTTP parsed by {result['parser']}): {rest:.1f} MB at rest ({rest / bare['rest_mb']:.2f}x the bare server's), peak "
          f"{peak:.1f} MB under the load ({peak / bare['peak_mb']:.2f}x the bare server's peak; goal <= 2x)")
    print(f"load ran {result['run_s']:.1f} s while {args.appends} commands were appended every "
          f"{args.interval * 1000:.0f} ms; serve used {serve_cpu:.1f} s of CPU; the machine's load average "
          f"{load_before} before, {load_after} after (other work shares its CPUs)")
    print(f"{args.viewers} viewers held: {result['viewers_complete']} got the last command "
          f"(each got at least {result['updates_per_viewer']} updates)")
    print(f"{args.pages} pages at concurrency {args.concurrency} ({pg['client']}) in {result['pages_s']:.1f} s: "
          f"median {pg['median']:.0f} ms, p95 {pg['p95']:.0f} ms, p99 {pg['p99']:.0f} ms, max {pg['max']:.0f} ms "
          f"(goal p95 < 50 ms)")
    print(f"{args.churn} streams opened and closed, 10 at a time, in {result['churn_s']:.1f} s")
    if adm:
        print(f"new viewers: {len(adm)} admitted; first snapshot after median {percentile(adm, 0.5):.1f} ms, "
              f"max {max(adm):.1f} ms (goal < 1000 ms)")
    else:
        print("new viewers: none admitted (goal: each within 1000 ms)")
    closed = result["idle_closed"]
    after = f" (after {min(closed):.1f}-{max(closed):.1f} s)" if closed else ""
    print(f"{args.idle} idle connections: {len(closed)} closed by the server{after}, {result['idle_open']} still "
          f"open at the end, {result.get('idle_refused', 0)} refused")
    errors = result["errors"]
    print(f"errors for well-behaved clients: {len(errors)}" + (f" (first: {errors[:5]})" if errors else ""))
    if err.strip():
        print(f"serve's stderr: {err.strip()[-1500:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
