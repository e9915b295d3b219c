"""``touchline club``: the club server, and a tablet's side of it from the command line.

    touchline club [--folder F] [--host H] [--port P]      serve the club (until Ctrl+C)
    touchline club publish JOURNAL --server URL [--join TOKEN] [--confirm]

Nothing of Kivy is imported (the server needs Starlette and uvicorn, the tablet's side only
the standard library and ``cryptography``).
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

from companion.errors import TouchlineError
from companion.paths import user_data_dir


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Serve a club: every table's match live, one league of the results both coaches confirmed. "
                     "Tablets join with the join token it prints, and publish their matches' journals to it.")
    p.add_argument("--folder", type=Path, default=None,
                   help="the club's folder: its store (club.sqlite) and tokens (club.json); default: 'club' in "
                        "Touchline's data folder")
    p.add_argument("--database", default="", metavar="URL",
                   help="keep the club in this PostgreSQL database (postgresql://...) instead of the folder's "
                        "SQLite file; several servers given the same database and tokens share the work")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1; give this machine's local-network address "
                        "so the tablets can reach it)")
    p.add_argument("--port", type=int, default=8790, help="the port (default 8790; 0 picks a free one)")
    p.add_argument("--for", dest="duration", type=float, default=None, metavar="S", help=argparse.SUPPRESS)
    p.set_defaults(run=run_server)
    sub = p.add_subparsers(dest="club_command", metavar="ACTION")
    pub = sub.add_parser("publish", help="send a match's journal to a club (joining it first with --join)",
                         description="Send a journal's events the club does not hold yet; what cannot be sent now "
                                     "waits in this computer's outbox and is tried again with backoff.")
    pub.add_argument("journal", type=Path, metavar="JOURNAL")
    pub.add_argument("--server", default="", help="the club server's address, http://HOST:PORT")
    pub.add_argument("--join", metavar="LINK|TOKEN", default="",
                     help="join the club first: its join link (what its QR code holds; names the server too) "
                          "or its join token")
    pub.add_argument("--name", default="", help="this tablet's name in the club (with --join)")
    pub.add_argument("--confirm", action="store_true",
                     help="both coaches confirmed the final result: sign it and send it after the events")
    pub.add_argument("--wait", type=float, default=60.0, metavar="S",
                     help="keep trying this long when the club cannot be reached (default 60 s)")
    pub.add_argument("--folder", dest="tablet_folder", type=Path, default=None, help=argparse.SUPPRESS)
    pub.set_defaults(run=run_publish)


def run_server(args: argparse.Namespace) -> int:
    from companion.club.folder import open_club
    from companion.club.keys import join_link

    from .club_server import ClubServer
    from .cli import stop_on_signals

    if not (0 <= args.port <= 65535):
        raise TouchlineError(f"--port {args.port}: a port is 0..65535")
    folder = args.folder or user_data_dir() / "club"
    ledger = open_club(folder, args.database)
    try:
        server = ClubServer(ledger, args.host, args.port)
    except TouchlineError:
        ledger.store.close()
        raise
    restore = stop_on_signals()
    try:
        link = join_link(_reachable(args.host, server), ledger.join_token)
        qr = _write_qr(folder, link)
        print(f"Club server: {server.url}", flush=True)
        print(f"  join link: {link}   (tablets join with it; its QR code: {qr or 'segno missing'}; "
              f"the token also in {folder / 'club.json'})", flush=True)
        print(f"  every table: {server.url}/   (the page for the room's screen and the spectators' phones; "
              f"JSON: /tables, /league)", flush=True)
        store = "a PostgreSQL database" if args.database else folder / "club.sqlite"
        print(f"  store: {store}; Ctrl+C stops the server.", flush=True)
        threading.Event().wait(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        ledger.store.close()
        restore()
    print("Club server stopped.", flush=True)
    return 0


def _reachable(host: str, server) -> str:
    """The address the tablets use: this machine's local-network one when listening on all."""
    if host in ("0.0.0.0", "::", ""):
        from .in_app import local_addresses

        found = local_addresses()
        if found:
            return f"http://{found[0]}:{server.port}"
    return server.url


def _write_qr(folder: Path, link: str) -> Path | None:
    """The join link as a QR code to print or show (join-qr.svg in the club's folder)."""
    try:
        import segno
    except ImportError:
        return None
    path = folder / "join-qr.svg"
    segno.make(link, error="m").save(str(path), scale=8, border=4)
    return path


def run_publish(args: argparse.Namespace) -> int:
    from companion.club.client import ClubError, Outbox
    from companion.club.keys import TabletKey

    from companion.club.keys import JOIN_MARK, parse_join_link

    folder = args.tablet_folder or user_data_dir() / "club-tablet"
    key = TabletKey.load_or_create(folder / "tablet-key.pem")
    outbox = Outbox(folder / "outbox.sqlite", key)
    try:
        server, token = args.server.rstrip("/"), args.join
        if JOIN_MARK in args.join:
            server, token = parse_join_link(args.join)
        server = server or outbox.server
        if not server:
            raise ClubError("name the club: --server http://HOST:PORT, or --join with its join link")
        if outbox.server != server:
            if not token:
                raise ClubError(f"this computer has not joined the club at {server}: add --join LINK (the join "
                                f"link 'touchline club' printed)")
            outbox.join(server, token, args.name or f"tablet {key.id[:6]}")
            print(f"joined the club at {server} as tablet {key.id}", flush=True)
        if not args.journal.exists():
            raise ClubError(f"{args.journal}: no such file")
        if args.confirm:
            outbox.confirm(args.journal)
        else:
            outbox.add(args.journal, now=True)
        deadline = time.monotonic() + max(0.0, args.wait)
        while True:
            left = [w for w in outbox.send_due() if str(args.journal.resolve()) == w.path]
            if not left or time.monotonic() >= deadline:
                break
            time.sleep(max(0.05, min(deadline - time.monotonic(), min(w.next_try for w in left) - time.time())))
        mine = next(w for w in outbox.waiting() if w.path == str(args.journal.resolve()))
        if mine.refused:
            raise ClubError(f"{args.journal}: {mine.refused}")
        if not mine.done:
            print(f"{args.journal}: the club could not be reached; {outbox.state_in_words()} (kept in "
                  f"{outbox.path}, sent by the next publish)", flush=True)
            return 1
        what = "and its confirmed result " if mine.result else ""
        print(f"{args.journal}: published {mine.sent} events {what}to {server}", flush=True)
        return 0
    finally:
        outbox.close()
