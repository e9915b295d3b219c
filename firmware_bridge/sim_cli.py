"""``touchline tray-sim``: a simulated dice tray on a virtual serial port.

Prints the port's path (the first line on stdout, alone, for scripts), then rolls on
Enter, on a timer, or from a script, with faults injected on request. Everything else
goes to stderr.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from pathlib import Path

from companion.errors import TouchlineError

from .faults import Faults
from .firmware import traycore
from .script import ScriptError, parse_step, read_script, run_step
from .sim import Made, TraySim

log = logging.getLogger(__name__)


class SimError(TouchlineError):
    """A bad option for the simulator."""


def probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; give a chance such as 0.01") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a chance between 0 and 1")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text}: give more than 0 seconds")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Run a simulated dice tray (the reference firmware's behaviour) on a virtual serial port and "
                     "print the port's path. Type a line to roll: Enter rolls the default group; 'home', 'away', "
                     "'scatter' or 'all' roll those dice; 'away 4 0' rolls chosen faces; 'reboot' and "
                     "'disconnect 0.5' inject those faults. Ctrl-C stops it.")
    p.add_argument("--link", type=Path, metavar="PATH",
                   help="where to put the port (a symlink that survives simulated disconnects); default: a new "
                        "temporary folder")
    p.add_argument("--id", default="SIM-0001", metavar="ID", help="the tray's device id (default SIM-0001)")
    p.add_argument("--seed", type=int, help="seed the faces, boot ids and faults, to repeat a run")
    p.add_argument("--group", default="home", metavar="NAME[,NAME...]",
                   help="what Enter and --every roll, in turn (default home)")
    p.add_argument("--every", type=seconds, metavar="SECONDS", help="roll on a timer")
    p.add_argument("--script", type=Path, metavar="FILE", help="run these steps, one a line (see Enter's)")
    p.add_argument("--exit-when-done", action="store_true",
                   help="with --script: exit once it has run and every roll was acknowledged (status 2 if not "
                        "within --settle seconds)")
    p.add_argument("--settle", type=seconds, default=30.0, metavar="SECONDS", help="default 30")
    p.add_argument("--tumble", type=float, default=0.0, metavar="SECONDS",
                   help="send ROLLING this long before each roll (default 0)")
    faults = p.add_argument_group("faults")
    faults.add_argument("--drop", type=probability, default=0.0, metavar="P", help="chance a byte to the host is lost")
    faults.add_argument("--corrupt", type=probability, default=0.0, metavar="P",
                        help="chance a byte to the host is changed")
    faults.add_argument("--duplicate", type=probability, default=0.0, metavar="P",
                        help="chance a frame to the host is sent twice")
    faults.add_argument("--reply-drop", type=probability, default=0.0, metavar="P",
                        help="chance a byte from the host is lost (lost ACKs)")
    faults.add_argument("--reply-corrupt", type=probability, default=0.0, metavar="P",
                        help="chance a byte from the host is changed")
    faults.add_argument("--baud", type=int, metavar="N", help="pace the tray's bytes as on a line this slow")
    faults.add_argument("--disconnect-every", type=seconds, metavar="SECONDS", help="pull the cable this often")
    faults.add_argument("--down", type=seconds, default=0.5, metavar="SECONDS",
                        help="how long the cable stays out (default 0.5)")
    faults.add_argument("--reboot-every", type=seconds, metavar="SECONDS",
                        help="restart the tray this often, mid-frame")
    faults.add_argument("--resend-ms", type=int, default=traycore.RESEND_MS, metavar="MS",
                        help=f"resend an unacknowledged roll this often (default {traycore.RESEND_MS})")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        faults = Faults(args.drop, args.corrupt, args.duplicate, args.reply_drop, args.reply_corrupt, args.baud)
    except ValueError as exc:
        raise SimError(str(exc)) from None
    if args.exit_when_done and args.script is None:
        raise SimError("--exit-when-done needs --script")
    if args.link is not None and args.link.exists() and not args.link.is_symlink():
        raise SimError(f"{args.link}: a file is already there; choose another --link path")
    if args.resend_ms < 10:
        raise SimError(f"--resend-ms {args.resend_ms}: give 10 or more")
    sim = TraySim(link=args.link, device_id=args.id, faults=faults, seed=args.seed, tumble=args.tumble,
                  resend_ms=args.resend_ms)
    groups = [g.strip() for g in args.group.split(",") if g.strip()]
    for group in groups:
        try:
            sim.ids_of(group)
        except ValueError as exc:
            raise SimError(f"--group: {exc}") from None
    steps = read_script(args.script, sim, groups[0]) if args.script else []
    path = sim.start()
    sim.on_made = report
    stop = threading.Event()
    try:
        print(path, flush=True)
        say(f"tray {args.id} on {path} (now {_target(path)}); Enter rolls {groups[0]}; Ctrl-C stops")
        turn = iter_forever(groups)
        if args.every:
            repeat(stop, args.every, lambda: sim.roll(next(turn)))
        if args.disconnect_every:
            repeat(stop, args.disconnect_every, lambda: sim.disconnect(args.down))
        if args.reboot_every:
            repeat(stop, args.reboot_every, lambda: sim.reboot(mid_frame=True))
        for step in steps:
            run_step(step, sim, stop.wait)
        if args.exit_when_done:
            if not sim.wait_idle(args.settle):
                say(f"error: {sim.pending} roll(s) still unacknowledged after {args.settle:g} s: is a host "
                    f"listening on {path}?")
                return 2
            return 0
        if args.script is None and sys.stdin is not None and not sys.stdin.closed:
            interactive(sim, groups, stop)
        if args.every or args.disconnect_every or args.reboot_every or args.script:
            stop.wait()  # until Ctrl-C
        return 0
    finally:
        stop.set()
        sim.stop()


def interactive(sim: TraySim, groups: list[str], stop: threading.Event) -> None:
    turn = iter_forever(groups)
    for line in sys.stdin:
        try:
            step = parse_step(line, sim, next(turn) if not line.strip() else groups[0])
        except ValueError as exc:
            say(str(exc))
            continue
        if step is not None:
            run_step(step, sim, stop.wait)


def report(made: Made) -> None:
    say(f"rolled {made.dice.replace(',', ', ')} (boot {made.boot}, seq {made.seq})")


def say(text: str) -> None:
    print(f"tray-sim: {text}", file=sys.stderr, flush=True)


def repeat(stop: threading.Event, every: float, action) -> None:
    def loop() -> None:
        while not stop.wait(every):
            action()
    threading.Thread(target=loop, daemon=True).start()


def iter_forever(items: list[str]):
    while True:
        yield from items


def _target(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except OSError:
        return path


__all__ = ["add_arguments", "run", "ScriptError"]
