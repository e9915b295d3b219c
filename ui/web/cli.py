"""``touchline serve MATCH``: the live scoreboard page for a match another program is playing.

Prints the page's full address (token included) and follows the journal as it grows, until
Ctrl+C. The journal is only read (see follow.py), so the tablet app can go on writing it.
Nothing of Kivy is imported: the board is drawn from the game's look (ui/looks/), pure Python.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Callable

from companion.errors import TouchlineError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Serve a read-only live scoreboard page for MATCH (a journal, or a JSON Lines export), "
                     "following it as it grows. Prints the page's address with its access code; anyone "
                     "with the address can watch, nobody can change anything.")
    p.add_argument("match", type=Path, metavar="MATCH")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; give this machine's "
                        "local-network address to let phones on the same network watch)")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0 picks a free one)")
    p.add_argument("--for", dest="duration", type=float, default=None, metavar="S", help=argparse.SUPPRESS)
    # The HTTP parser (benchmarks/web_load.py measures the tablet's, h11, on a desktop too).
    p.add_argument("--http-parser", default="auto", choices=("auto", "httptools", "h11"), help=argparse.SUPPRESS)
    p.set_defaults(run=run)


def _stop_on_signals() -> Callable[[], None]:
    """Ctrl+C and SIGTERM end the wait below; returns what puts the old handlers back."""
    import signal

    def stop(_signum, _frame) -> None:
        raise KeyboardInterrupt

    names = [signal.SIGINT] + ([signal.SIGTERM] if hasattr(signal, "SIGTERM") else [])
    old = {sig: signal.signal(sig, stop) for sig in names}
    return lambda: [signal.signal(sig, handler) for sig, handler in old.items()]


def one_heap_arena() -> None:
    """glibc gives each thread that allocates a heap arena of its own, and keeps what is freed
    in it resident: serve's four threads (main, follower, hub, server) held about 1-2 MB more
    that way. One arena, as is commonly advised for Python servers on glibc (MALLOC_ARENA_MAX);
    set before the threads start. Elsewhere (musl, macOS, Windows) nothing is done."""
    import ctypes

    if sys.platform != "linux":
        return
    try:
        ctypes.CDLL("libc.so.6").mallopt(-8, 1)   # M_ARENA_MAX (malloc.h); "libc.so.6" is glibc's
    except (OSError, AttributeError):
        pass


def run(args: argparse.Namespace) -> int:
    one_heap_arena()
    from .follow import Follower, FollowError
    from .hub import Hub
    from .reference_link import rule_link
    from .server import ScoreboardServer

    path: Path = args.match
    problems: list[str] = []
    hub = Hub(rule_link=rule_link)

    def on_match(folded) -> None:
        hub.offer_match(folded.ruleset, folded.state, folded.log, folded.last)

    def on_problem(message: str) -> None:
        problems.append(message)
        hub.offer_problem(message.replace(str(path), path.name))   # spectators need no folder names
        if started.is_set():
            print(f"touchline serve: {message}", file=sys.stderr, flush=True)

    started = threading.Event()
    follower = Follower(path, on_match, on_problem)
    follower.poll()
    if problems:   # a bad file at the start: one line, no server
        hub.stop()
        raise FollowError(problems[0])
    if not (0 <= args.port <= 65535):
        hub.stop()
        raise TouchlineError(f"--port {args.port}: a port is 0..65535")
    try:
        server = ScoreboardServer(hub, args.host, args.port, parser=args.http_parser)
    except TouchlineError:
        hub.stop()
        raise
    started.set()
    # From here on Ctrl+C and SIGTERM stop the page cleanly, wherever they come.
    restore_signals = _stop_on_signals()
    try:
        follower.start()
        _announce(args, path, server)
        threading.Event().wait(args.duration)   # None: until Ctrl+C
    except KeyboardInterrupt:
        pass
    finally:
        follower.stop()
        server.stop()
        restore_signals()
    print("Scoreboard stopped.", flush=True)
    return 0


def _announce(args: argparse.Namespace, path: Path, server) -> None:
    print(f"Scoreboard for {path.name}: {server.url}", flush=True)
    if args.host in ("0.0.0.0", "::", ""):   # every interface: say the addresses phones can open
        from .in_app import local_addresses

        for address in local_addresses():
            print(f"  on the local network: http://{address}:{server.port}/{server.token}/", flush=True)
    if args.host in ("127.0.0.1", "localhost", "::1"):
        print("(only this machine can open it; --host with this machine's local-network address lets phones "
              "on the same network watch)", flush=True)
    print("Following the match; Ctrl+C stops the page.", flush=True)
