"""``touchline tray-listen PORT``: print the rolls a dice tray reports, one JSON object a
line on stdout (the journal's roll format plus the time); the tray's status on stderr."""

from __future__ import annotations

import argparse
import json
import logging
import queue
import sys
import time
from datetime import datetime, timezone

from companion.codec import to_json
from companion.errors import TouchlineError
from companion.events import format_time

from .discovery import discovering_opener, find_tray
from .notices import (BatteryReport, DiceTumbling, RollReceived, TrayConnected, TrayDisconnected, TrayFault,
                      TrayProblem, TrayRebooted)
from .owners import DiceOwners
from .session import TraySession
from .transport import BAUDRATE, PortError, PortTrouble, open_port

log = logging.getLogger(__name__)


class ListenError(TouchlineError):
    """Not all the rolls asked for came in time."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Connect to a dice tray and print each roll it reports as a JSON line. PORT is a serial "
                     "port (/dev/ttyACM0, COM3), a pyserial URL (socket://host:port, rfc2217://host:port), or "
                     "'auto' to find a tray by its USB id.")
    p.add_argument("port", metavar="PORT")
    p.add_argument("--baud", type=int, default=BAUDRATE, metavar="N", help=f"default {BAUDRATE}")
    p.add_argument("--dice", type=str, metavar="FILE",
                   help="which coach owns which die (JSON); default: the Fublet convention (each coach a black "
                        "and a white d10, a shared green d8)")
    p.add_argument("--count", type=int, metavar="N", help="exit after N rolls")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="stop after this long (status 2 if --count rolls did not all come)")
    p.add_argument("--wait", action="store_true", help="if the port is not there yet, wait for it")
    p.add_argument("--probe-all", action="store_true", help="with auto: ask every USB serial port, not only "
                                                            "known tray boards")
    p.add_argument("--stats", action="store_true", help="print the line's counters (JSON) on stderr at the end")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    owners = DiceOwners.load(args.dice) if args.dice else DiceOwners.fublet()
    if args.count is not None and args.count < 1:
        raise ListenError("--count: give 1 or more")
    opener = first_port(args)
    session = TraySession(args.port, owners=owners, baudrate=args.baud, opener=opener)
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    rolls = 0
    session.start()
    try:
        while args.count is None or rolls < args.count:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            try:
                notice = session.notices.get(timeout=0.2 if left is None else min(left, 0.2))
            except queue.Empty:
                continue
            if isinstance(notice, RollReceived):
                rolls += 1
                line = {"at": format_time(datetime.now(timezone.utc)), **to_json(notice.roll)}
                sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
                sys.stdout.flush()
            else:
                say(describe(notice))
    finally:
        session.stop()
        if args.stats:
            say(json.dumps(session.counters.as_dict()))
    if args.count is not None and rolls < args.count:
        raise ListenError(f"{rolls} of {args.count} rolls came from {args.port} within {args.timeout:g} s")
    return 0


def first_port(args: argparse.Namespace):
    """Open the port once up front, so a busy port or a missing permission ends the command
    with its fix; then hand that open port to the session, and reopen later ones."""
    if args.port == "auto":
        rediscover = discovering_opener(args.baud, args.probe_all)
        if args.wait:
            return rediscover
        found = [find_tray(args.probe_all).port]
        say(f"found a tray on {found[0]}")
        return lambda: open_port(found.pop(), args.baud) if found else rediscover()
    try:
        first = [open_port(args.port, args.baud)]
    except PortError as exc:
        if exc.trouble is not PortTrouble.MISSING or not args.wait:
            raise
        say(f"waiting for {args.port} to appear")
        first = []

    def opener():
        return first.pop() if first else open_port(args.port, args.baud)
    return opener


def describe(notice) -> str:
    if isinstance(notice, TrayConnected):
        return f"connected: tray {notice.device} (firmware {notice.firmware}, boot {notice.boot}) on {notice.port}, " \
               f"dice {', '.join(notice.dice)}"
    if isinstance(notice, TrayDisconnected):
        return f"disconnected from {notice.port}: {notice.reason}; reconnecting"
    if isinstance(notice, TrayRebooted):
        return f"tray {notice.device} restarted (boot {notice.boot}, was {notice.previous})"
    if isinstance(notice, TrayProblem):
        return f"problem: {notice.message}"
    if isinstance(notice, DiceTumbling):
        return f"tray {notice.device}: dice tumbling ({', '.join(notice.dice)})"
    if isinstance(notice, BatteryReport):
        charging = "" if notice.charging is None else (", charging" if notice.charging else "")
        return f"tray {notice.device}: battery {notice.percent}%{charging}"
    if isinstance(notice, TrayFault):
        return f"tray {notice.device} reports an error: {notice.code} {notice.detail}".rstrip()
    return repr(notice)


def say(text: str) -> None:
    print(f"tray-listen: {text}", file=sys.stderr, flush=True)
