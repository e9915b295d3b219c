"""The live scoreboard page's figures, measured on this machine (README, "Scoreboard page").

    .venv/bin/python benchmarks/web_bench.py [--appends 300] [--interval 0.05] [--viewers 50]

A 'tablet' appends a scripted Fublet match to a journal one command at a time (durable
appends, WAL, fsync), every ``--interval`` seconds, far faster than people play:

1. Desktop: ``touchline serve`` (the real command, its own process) follows the journal; 50
   viewers hold the event stream open (another process) and headless Chromium shows the page.
   Latency: from the moment the journal accepted a command (its append returned) to the moment
   the page had drawn it (the page notes the time in its next animation frame) and to the
   moment the stream delivered it to a viewer (goal: <= 0.5 s).
2. The tablet's append with those 50 viewers (goal: p99 < 5 ms), with the page served from
   another process (desktop) and from the appending process itself (the app's switch in
   Settings: server, hub and appends share one Python), and with no page at all.

Only 127.0.0.1 is used. Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
MATCH = ROOT / "tests" / "data" / "fublet_full_match.jsonl"


# --- the viewers (their own process) -------------------------------------------------------------

def run_viewers(host: str, port: int, token: str, count: int, out: Path) -> None:
    """Hold ``count`` event streams open until stdin closes; write when each seq arrived."""
    sel = selectors.DefaultSelector()
    buffers: dict[socket.socket, bytes] = {}
    arrivals: list[dict[int, float]] = []
    for i in range(count):
        sock = socket.create_connection((host, port), timeout=10)
        sock.sendall(f"GET /{token}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ, i)
        buffers[sock] = b""
        arrivals.append({})
    sel.register(sys.stdin, selectors.EVENT_READ, -1)
    print("ready", flush=True)
    pattern = re.compile(rb'"seq":(\d+)')
    while True:
        for key, _ in sel.select(timeout=1.0):
            if key.data == -1:
                if not sys.stdin.readline():
                    out.write_text(json.dumps({"arrivals": [{str(k): v for k, v in a.items()} for a in arrivals]}))
                    return
                continue
            sock = key.fileobj
            try:
                chunk = sock.recv(1 << 16)
            except BlockingIOError:
                continue
            now = time.time()
            if not chunk:
                sel.unregister(sock)
                continue
            data = buffers[sock] + chunk
            *events, rest = data.split(b"\n\n")
            buffers[sock] = rest
            for event in events:
                found = pattern.search(event)
                if found:
                    arrivals[key.data].setdefault(int(found.group(1)), now)


def start_viewers(host: str, port: int, token: str, count: int, out: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, __file__, "--role", "viewers", "--host", host, "--port", str(port),
                             "--token", token, "--viewers", str(count), "--out", str(out)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


def stop_viewers(proc: subprocess.Popen, out: Path) -> list[dict[int, float]]:
    proc.stdin.close()
    proc.wait(timeout=30)
    data = json.loads(out.read_text())
    return [{int(k): v for k, v in a.items()} for a in data["arrivals"]]


# --- the tablet ---------------------------------------------------------------------------------------

def scripted_batches():
    from companion.games import ruleset_for
    from companion.jsonl import read_file

    ruleset = ruleset_for("fublet")
    events = read_file(MATCH).events
    batches: list[list] = []
    for event in events:
        if batches and batches[-1][0].batch == event.batch:
            batches[-1].append(event)
        else:
            batches.append([event])
    return ruleset, [tuple(b) for b in batches]


class Tablet:
    """Appends the scripted match's commands, timing each durable append."""

    def __init__(self, path: Path, first: int = 30) -> None:
        from companion.journal import Journal

        self.ruleset, self.batches = scripted_batches()
        self.journal = Journal.create(path, "fublet")
        self.state = self.ruleset.initial_state()
        self.done = 0
        self.append_ms: list[float] = []
        self.accepted: dict[int, float] = {}
        for _ in range(first):
            self.step(timed=False)

    def step(self, timed: bool = True, after=None) -> int:
        batch = self.batches[self.done]
        for event in batch:   # the app folds before it stores
            self.state = self.ruleset.evolve(self.state, event)
        t0 = time.perf_counter()
        self.journal.append(batch)
        elapsed = time.perf_counter() - t0
        accepted = time.time()
        self.done += 1
        if timed:
            self.append_ms.append(elapsed * 1000)
            self.accepted[batch[-1].seq] = accepted
        if after is not None:
            after(self, batch)
        return batch[-1].seq

    def play(self, count: int, interval: float, after=None) -> None:
        next_at = time.monotonic()
        for _ in range(min(count, len(self.batches) - self.done)):
            next_at += interval
            self.step(after=after)
            time.sleep(max(0.0, next_at - time.monotonic()))

    def close(self) -> None:
        self.journal.close()


def latencies(accepted: dict[int, float], shown: list[tuple[int, float]]) -> list[float]:
    """For each accepted seq, how long until something at least as new was shown."""
    shown = sorted(shown, key=lambda s: s[1])
    out = []
    for seq, at in accepted.items():
        first = next((t for s, t in shown if s >= seq and t >= at - 0.001), None)
        if first is not None:
            out.append((first - at) * 1000)
    return out


def summary(values: list[float]) -> str:
    from benchmarks.run import percentile

    if not values:
        return "no samples"
    return (f"median {percentile(values, 0.5):.1f} ms, p95 {percentile(values, 0.95):.1f} ms, "
            f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms (n={len(values)})")


# --- the scenarios -------------------------------------------------------------------------------------

def desktop(args, folder: Path, with_browser: bool) -> dict:
    """``touchline serve`` in its own process, 50 viewers, and (``with_browser``) the page in
    Chromium on the same machine."""
    tablet = Tablet(folder / f"desktop-{int(with_browser)}.sqlite")
    serve = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", str(tablet.journal.path), "--port", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = serve.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/([^/\s]+)/", line)
    if not found:
        serve.kill()
        raise SystemExit(f"touchline serve did not start: {line!r} {serve.stderr.read()[-2000:]}")
    url, port, token = found.group(0), int(found.group(1)), found.group(2)
    viewers = start_viewers("127.0.0.1", port, token, args.viewers, folder / "viewers-desktop.json")
    browser = None
    try:
        if with_browser:
            sys.path.insert(0, str(ROOT / "tests"))
            import web_browser

            if web_browser.available():
                print(f"no browser: {web_browser.available()}")
            else:
                browser = web_browser.chromium()
                driver = browser.__enter__()
                driver.get(url)
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and not driver.execute_script("return window.__touchlineShown.length"):
                    time.sleep(0.05)
        time.sleep(1.0)
        tablet.play(args.appends, args.interval)
        time.sleep(1.0)
        page = []
        if browser is not None:
            page = [tuple(s) for s in driver.execute_script("return window.__touchlineShown")]
            page = [(int(s), t / 1000.0) for s, t in page]
    finally:
        if browser is not None:
            browser.__exit__(None, None, None)
        arrivals = stop_viewers(viewers, folder / "viewers-desktop.json")
        serve.terminate()
        serve.communicate(timeout=10)
        tablet.close()
    stream = []
    for viewer in arrivals:
        stream += latencies(tablet.accepted, list(viewer.items()))
    complete = sum(1 for viewer in arrivals if max(viewer, default=0) == max(tablet.accepted))
    return {"append_ms": tablet.append_ms, "page_ms": latencies(tablet.accepted, page), "stream_ms": stream,
            "viewers_complete": complete}


def in_app(args, folder: Path) -> dict:
    """The app's way: the server and the hub in the appending process, offered each new state."""
    from ui.web.hub import Hub
    from ui.web.server import ScoreboardServer

    tablet = Tablet(folder / "app.sqlite")
    hub = Hub()
    server = ScoreboardServer(hub)
    log_lines: list[str] = []
    hub.offer_match(tablet.ruleset, tablet.state, log_lines, tablet.batches[tablet.done - 1][-1])
    viewers = start_viewers("127.0.0.1", server.port, server.token, args.viewers, folder / "viewers-app.json")
    try:
        time.sleep(1.0)
        tablet.play(args.appends, args.interval,
                    after=lambda t, batch: hub.offer_match(t.ruleset, t.state, log_lines, batch[-1]))
        time.sleep(1.0)
    finally:
        arrivals = stop_viewers(viewers, folder / "viewers-app.json")
        server.stop()
        tablet.close()
    stream = []
    for viewer in arrivals:
        stream += latencies(tablet.accepted, list(viewer.items()))
    return {"append_ms": tablet.append_ms, "stream_ms": stream}


def alone(args, folder: Path) -> dict:
    tablet = Tablet(folder / "alone.sqlite")
    tablet.play(args.appends, args.interval)
    tablet.close()
    return {"append_ms": tablet.append_ms}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the journals go (default: a temporary folder; /dev/shm takes the disk's "
                             "fsync out of the append, leaving what the page itself costs it)")
    parser.add_argument("--role", default="bench", help=argparse.SUPPRESS)
    parser.add_argument("--host", default="127.0.0.1", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--token", default="", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "viewers":
        run_viewers(args.host, args.port, args.token, args.viewers, args.out)
        return 0
    from benchmarks.run import machine

    folder = Path(tempfile.mkdtemp(prefix="touchline-web-bench-", dir=args.dir))
    print(f"machine: {machine()}")
    print(f"journals in {folder}")
    print(f"{args.appends} commands appended every {args.interval * 1000:.0f} ms, {args.viewers} viewers")
    base = alone(args, folder)
    print(f"append, no page:                         {summary(base['append_ms'])}")
    desk = desktop(args, folder, with_browser=False)
    print(f"append, touchline serve + {args.viewers} viewers:    {summary(desk['append_ms'])}")
    print(f"accepted -> delivered to each viewer:     {summary(desk['stream_ms'])}")
    print(f"viewers that got the last command:       {desk['viewers_complete']} of {args.viewers}")
    if not args.no_browser:
        page = desktop(args, folder, with_browser=True)
        print(f"accepted -> drawn on the page (Chromium): {summary(page['page_ms'])}")
        print(f"append, serve + viewers + Chromium here:  {summary(page['append_ms'])}")
    app = in_app(args, folder)
    print(f"append, page served by the app + {args.viewers} viewers: {summary(app['append_ms'])}")
    print(f"accepted -> delivered (page in the app):  {summary(app['stream_ms'])}")
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
