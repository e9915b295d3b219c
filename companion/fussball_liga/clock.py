"""Real time: instants, stopwatches, and the readings the tablet shows.

The halves run on a real-time clock and each phase has a time limit (an egg timer or a
chess clock). Every clock here is a fold: a stopwatch is started and stopped at the
times of journaled events, so replaying the journal gives the same readings, and the UI
shows a running clock as the reading at the last event plus the time since.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from ..codec import constructor
from ..events import format_time, parse_time

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MICROSECOND = timedelta(microseconds=1)

# A tablet's timer may fire a moment before the fold's reading reaches the limit (rounding,
# the time it takes to submit); a time-up proposal this close to the limit is accepted.
TIME_UP_TOLERANCE_S = 0.5


@dataclass(frozen=True, slots=True, order=True)
class Instant:
    """A moment in UTC, kept as whole microseconds so readings are exact on every replay.
    Written in JSON as an ISO 8601 string ending in ``Z``."""

    us: int

    @classmethod
    def of(cls, at: datetime) -> "Instant":
        if at.tzinfo is None:
            raise ValueError(f"an instant needs a time zone: {at!r}")
        # Aware minus aware is taken in UTC (no conversion first); // counts whole microseconds.
        if cls is Instant:  # built as the codec builds records (no frozen __init__): once per event time
            return new_instant((at - EPOCH) // MICROSECOND)
        return cls((at - EPOCH) // MICROSECOND)

    @classmethod
    def parse(cls, text: str) -> "Instant":
        return cls.of(parse_time(text))

    def datetime(self) -> datetime:
        return EPOCH + timedelta(microseconds=self.us)

    def seconds_since(self, other: "Instant") -> float:
        return (self.us - other.us) / 1_000_000

    def plus(self, seconds: float) -> "Instant":
        return Instant(self.us + round(seconds * 1_000_000))

    def to_json(self) -> str:
        return format_time(self.datetime())

    @classmethod
    def from_json(cls, value: object) -> "Instant":
        if not isinstance(value, str):
            raise ValueError(f"expected an ISO 8601 time string, got {value!r}")
        return cls.parse(value)

    def __repr__(self) -> str:
        return f"Instant.parse({self.to_json()!r})"


new_instant = constructor(Instant)


@dataclass(frozen=True, slots=True)
class Stopwatch:
    """Time counted while running: ``used_us`` before ``since``, plus the time since then
    when running (``since`` is not None)."""

    used_us: int = 0
    since: Instant | None = None

    @property
    def running(self) -> bool:
        return self.since is not None

    def start(self, at: Instant) -> "Stopwatch":
        return self if self.since is not None else Stopwatch(self.used_us, at)

    def stop(self, at: Instant) -> "Stopwatch":
        if self.since is None:
            return self
        return Stopwatch(self.used_us + max(0, at.us - self.since.us), None)

    def reading(self, now: Instant | None = None) -> float:
        """Seconds counted; ``now`` extends a running stopwatch (None: as of its last start)."""
        used = self.used_us
        if self.since is not None and now is not None:
            used += max(0, now.us - self.since.us)
        return used / 1_000_000


STOPPED = Stopwatch()
new_stopwatch = constructor(Stopwatch)
