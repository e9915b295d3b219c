"""The match clock for a time limit: real time, kept as a fold of journaled starts and
pauses, each with the tablet's instant; "time is up" is the tablet's proposal, accepted
when the folded clock agrees."""

from __future__ import annotations

from datetime import datetime

from ..events import format_time, parse_time
from . import events as ev
from .commands import CallTimeUp, PauseClock, StartClock
from .model import TIME_UP_TOLERANCE_S, FutboardState
from .tx import Tx, refuse

START = "Start"


def clock_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def check_instant(s: FutboardState, at: datetime) -> None:
    if not isinstance(at, datetime) or at.tzinfo is None:
        raise refuse(START, f"the clock needs an instant with a time zone, got {at!r}")
    if s.clock.last is not None and at < parse_time(s.clock.last):
        raise refuse(START, f"the tablet's clock reads {format_time(at)}, before the last clock event "
                            f"({s.clock.last}); check the tablet's time")


def start_clock(tx: Tx, cmd: StartClock) -> None:
    s = tx.state
    check_instant(s, cmd.at)
    if s.clock.running:
        raise refuse(START, f"the match clock is already running ({clock_text(s.clock.elapsed_at(cmd.at))} played)")
    tx.emit(ev.ClockStarted(format_time(cmd.at)))


def pause_clock(tx: Tx, cmd: PauseClock) -> None:
    s = tx.state
    if not s.clock.running:
        raise refuse(START, "the match clock is not running")
    check_instant(s, cmd.at)
    tx.emit(ev.ClockPaused(format_time(cmd.at), cmd.reason))


def call_time_up(tx: Tx, cmd: CallTimeUp) -> None:
    s = tx.state
    limit = s.options.time_limit_min
    if limit is None:
        raise refuse(START, f"this match ends at {s.options.goal_limit} goals, not at a time")
    if s.time_up:
        raise refuse(START, "time is already up")
    check_instant(s, cmd.at)
    elapsed = s.clock.elapsed_at(cmd.at)
    if elapsed + TIME_UP_TOLERANCE_S < limit * 60:
        raise refuse(START, f"only {clock_text(elapsed)} of {limit}:00 played; time is not up")
    tx.emit(ev.TimeUpCalled(format_time(cmd.at), round(elapsed, 3)))
