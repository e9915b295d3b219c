"""Real time: the half's clock and the phase time limit, folded from journaled events.

The tablet is the clock. Each event's envelope time starts or stops the stopwatches
(``stamp``): the half's clock runs from its kick-off until the half ends, except while
paused; the phase timer (an egg timer: one for the phase; a chess clock: each coach's own,
running while he is to act) runs in the shot and movement phases while nothing is
pending. "Time up" is a proposal from the tablet, checked against these readings, so a
replay gives the same clocks and the same decisions.
"""

from __future__ import annotations

from ..codec import record_twin
from ..events import Event
from ..records import UNSHARED as _UNSHARED
from ..records import changed as _with
from ..teams import Team
from . import events as ev
from . import flow
from .clock import EPOCH, MICROSECOND, TIME_UP_TOLERANCE_S, Instant, Stopwatch, new_instant, new_stopwatch
from .commands import CallTimeUp, PauseClock, ResumeClock
from .landing import arrive
from .model import Clocks, LigaState, Period, Phase, PhaseLimit
from .tx import Tx, refuse

TIME = "Time Limit"
DURATION = "Game Duration"


def timed(s: LigaState) -> bool:
    """A game-turn phase the time limit applies to (a restart's kick belongs to its stoppage)."""
    return s.phase.in_play and not (s.phase is Phase.SHOT and s.restart is not None)


def actor(s: LigaState) -> Team | None:
    """Whose time runs on a chess clock now."""
    if s.queue or not timed(s) or s.phase_time_up:
        return None
    if s.phase is Phase.SHOT:
        return s.flight.kicker.team.other if s.flight is not None else s.attacking
    return s.movement.turn


_TIMED_PERIODS = frozenset(p for p in Period if p.timed)
_SHOT, _MOVEMENT, _OVER = Phase.SHOT, Phase.MOVEMENT, Phase.OVER
_EGG, _CHESS = PhaseLimit.EGG_TIMER, PhaseLimit.CHESS_CLOCK
_stopwatch = new_stopwatch  # Stopwatch(used_us, since), built as the codec builds records
_INSTANT_TWIN = record_twin(Instant)


# The last event time stamped and its Instant: the events of one command share their time,
# converted once. One tuple, replaced whole: safe if threads fold at once.
_last: list[tuple] = [(None, None)]
# What the last stamp settled, when no chess clock runs: the clocks it left, and what they
# were synced to (the phase limit, the period, the phase, the queue, the phase's time-up
# flag, the restart). A state with those very clocks and inputs has nothing to start or
# stop (the stopwatches run exactly as those inputs say), whatever its time. One tuple,
# replaced whole.
_settled: list[tuple] = [(None,) * 7]


def stamp(before: LigaState, s: LigaState, event: Event) -> LigaState:
    """The fold's envelope step (GameRules.envelope): once the match exists, start or stop
    each stopwatch as of the event's time, to match ``s``, the state its payload folded to
    from ``before``. A state the payload's fold made (``s is not before``) is not shared
    yet, so it is stamped in place (a fold step then copies the state once, not twice)."""
    if not s.created:
        return s
    when = event.at
    last = _last[0]
    if last[0] is when:
        at = last[1]
    else:
        try:  # Instant.of written out (no classmethod call): once per command of a replay
            us = (when - EPOCH) // MICROSECOND
        except TypeError:  # a time with no zone: Instant.of says so
            at = Instant.of(when)
        else:
            if _INSTANT_TWIN is None:
                at = new_instant(us)
            else:  # built inline as the codec builds records (no call): the same Instant
                at = _INSTANT_TWIN()
                at.us = us
                at.__class__ = Instant
        _last[0] = (when, at)
    # Runs on every event of a replay: most events change nothing the clocks follow.
    c = s.clocks
    limit = s.options.phase_limit
    settled = _settled[0]
    if (c is settled[0] and limit is settled[1] and s.period is settled[2] and s.phase is settled[3]
            and s.queue is settled[4] and s.phase_time_up is settled[5] and s.restart is settled[6]):
        clocks = c
        if s.clock_at is at:
            return s
    else:
        clocks = _synced(s, c, limit, at)
        if limit is not _CHESS:  # a chess clock also follows who is to act: never settled here
            _settled[0] = (clocks, limit, s.period, s.phase, s.queue, s.phase_time_up, s.restart)
    if s is not before or s is _UNSHARED[0]:  # stamped in place (what changed() would do for the replay's state)
        fields = s.__dict__
        fields["clocks"] = clocks
        fields["clock_at"] = at
        return s
    return _with(s, clocks=clocks, clock_at=at)


def _synced(s: LigaState, c: Clocks, limit: PhaseLimit, at: Instant) -> Clocks:
    """``s``'s clocks ``c`` with each stopwatch started or stopped at ``at`` as ``s`` says.
    ``timed``, ``actor`` and the stopwatches' start and stop are written out where cheap."""
    half = c.half
    phase = c.phase
    chess = c.chess
    if c.half_on and not c.paused and s.period in _TIMED_PERIODS and s.phase is not _OVER:
        if half.since is None:
            half = _stopwatch(half.used_us, at)
        if limit is _EGG:
            ph = s.phase
            if not s.queue and not s.phase_time_up and (ph is _MOVEMENT or (ph is _SHOT and s.restart is None)):
                if phase.since is None:
                    phase = _stopwatch(phase.used_us, at)
            elif phase.since is not None:
                phase = _stopwatch(phase.used_us + max(0, at.us - phase.since.us), None)
            on_clock = None
        else:
            if phase.since is not None:
                phase = _stopwatch(phase.used_us + max(0, at.us - phase.since.us), None)
            on_clock = actor(s) if limit is _CHESS else None
    else:
        if half.since is not None:
            half = _stopwatch(half.used_us + max(0, at.us - half.since.us), None)
        if phase.since is not None:
            phase = _stopwatch(phase.used_us + max(0, at.us - phase.since.us), None)
        on_clock = None
    # Only a chess clock ever starts a coach's stopwatch (on_clock is None under any other
    # limit, and the options are the match's from its creation on): under another limit
    # they all stay stopped, and there is nothing to start or stop.
    if limit is _CHESS:
        for team, sw in c.chess.items():
            if on_clock is team:
                new = sw.start(at)
            elif sw.since is None:
                continue  # stopped, and stays so
            else:
                new = sw.stop(at)
            if new is not sw:
                chess = {**chess, team: new}
    if half is c.half and phase is c.phase and chess is c.chess:
        return c
    return _with(c, half=half, phase=phase, chess=chess)


def pause_clock(tx: Tx, cmd: PauseClock) -> None:
    s = tx.state
    if not s.clocks.half_on:
        raise refuse(DURATION, "the match clock is not running (it starts with the half's kick-off)")
    if s.clocks.paused:
        raise refuse(DURATION, "the match clock is paused already")
    tx.emit(ev.ClockPaused(cmd.reason))


def resume_clock(tx: Tx, cmd: ResumeClock) -> None:
    if not tx.state.clocks.paused:
        raise refuse(DURATION, "the match clock is not paused")
    tx.emit(ev.ClockResumed())


def reading(s: LigaState, kind: str, team: Team | None, at: Instant) -> tuple[float, float]:
    """The clock's reading at ``at`` and its limit, in seconds."""
    if kind == "half":
        return s.clocks.half.reading(at), s.options.half_seconds(s.period)
    if s.options.phase_limit is PhaseLimit.CHESS_CLOCK:
        return s.clocks.chess[team].reading(at), s.options.phase_seconds
    return s.clocks.phase.reading(at), s.options.phase_seconds


def call_time_up(tx: Tx, cmd: CallTimeUp) -> None:
    s = tx.state
    if cmd.kind not in ("half", "phase"):
        raise refuse(TIME, f"time runs out for the 'half' or the 'phase', not {cmd.kind!r}")
    last = s.clock_at
    if last is not None and cmd.at.seconds_since(last) < -TIME_UP_TOLERANCE_S:
        raise refuse(TIME, f"the time given ({cmd.at.to_json()}) is before the last recorded event")
    if cmd.kind == "half":
        if not s.period.timed or not s.clocks.half_on:
            raise refuse(DURATION, "no half is being played")
        if s.half_time_up:
            raise refuse(DURATION, "playing time is up already: the current phase is being completed")
        if cmd.team is not None:
            raise refuse(DURATION, "the half's time is both coaches': name no team")
    else:
        limit = s.options.phase_limit
        if limit is PhaseLimit.NONE:
            raise refuse(TIME, "this match plays without a phase time limit")
        if not timed(s) or s.phase_time_up:
            raise refuse(TIME, "no timed phase is running")
        if limit is PhaseLimit.CHESS_CLOCK and cmd.team is None:
            raise refuse(TIME, "with a chess clock, name the coach whose time ran out")
        if limit is PhaseLimit.EGG_TIMER and cmd.team is not None:
            raise refuse(TIME, "the egg timer is both coaches': name no team")
    value, limit_s = reading(s, cmd.kind, cmd.team, cmd.at)
    if not cmd.correction and value < limit_s - TIME_UP_TOLERANCE_S:
        raise refuse(TIME if cmd.kind == "phase" else DURATION,
                     f"the clock reads {value:.1f} s of {limit_s:.0f} s; time is not up yet")
    tx.emit(ev.TimeUp(cmd.kind, cmd.at, round(value, 3), cmd.team, cmd.correction))
    s = tx.state
    if cmd.kind == "half":
        half_time_up(tx)
        return
    if s.flight is not None and not s.queue:
        # No more interception attempts: the ball arrives.

        arrive(tx)


def half_time_up(tx: Tx) -> None:
    """Any game turn ends when the playing time ends, but the current phase is completed;
    direct free-kicks and penalty-kicks are completed too, other restarts are forfeited."""
    s = tx.state
    if s.phase is Phase.LINE_UP:
        flow.end_period(tx, "playing time is up; the kick-off is forfeited")
    elif (s.phase in (Phase.SET_UP, Phase.SHOT) and s.restart is not None and s.restart.kind.forfeited_at_time_up
          and not s.kicked):
        flow.end_period(tx, f"playing time is up; the {s.restart.kind.label} is forfeited")


def clock_readings(s: LigaState, now: Instant | None = None) -> dict:
    """The clocks as the tablet shows them: each reading as of ``now`` (default: the last
    event), its limit, and whether it is running (then the UI adds the time since)."""
    at = now or s.clock_at

    def show(sw: Stopwatch, limit: float | None) -> dict:
        return {"elapsed_s": round(sw.reading(at), 3), "limit_s": limit, "running": sw.running,
                "since": sw.since.to_json() if sw.since is not None else None}

    o = s.options
    out = {"half": show(s.clocks.half, o.half_seconds(s.period) if s.period.timed else None),
           "paused": s.clocks.paused, "half_time_up": s.half_time_up, "phase_limit": o.phase_limit.value,
           "phase_time_up": s.phase_time_up, "as_of": at.to_json() if at is not None else None}
    if o.phase_limit is PhaseLimit.EGG_TIMER:
        out["phase"] = show(s.clocks.phase, o.phase_seconds)
    elif o.phase_limit is PhaseLimit.CHESS_CLOCK:
        out["chess"] = {t.value: show(s.clocks.chess[t], o.phase_seconds) for t in (Team.HOME, Team.AWAY)}
    return out
