"""The live tracker: from per-frame positions to committed moves.

A figure's position is committed only after it has stayed put (within ``still_mm``) for
``settle_s``; then exactly one :class:`~vision.sighting.Sighting` is emitted. A figure that is
not seen (a hand over it, or its marker in conflict) keeps its last committed position, is
marked unseen and never produces a move. A figure whose marker looks larger than a cap at its
height (held off the board) is never committed, however still it is held. Jitter below
``move_mm`` (and ``turn_deg`` of facing) is not a move; a square change needs ``cross_mm`` at
least, so a figure standing on a line does not flicker between two squares.

Identity through time: a figure whose marker does not read but whose cap the reader still sees
where it was (``FrameResult.in_place``) stays seen, without committing anything; an id read where
another figure stands unread, its cap in place or seen moments ago, is that figure's marker
misread and is left out; an id read both where it stands and where another unread figure stands
is itself where it stands, not a conflict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from calibration.monitor import CornerMonitor
from companion.board import GridBoard, Square
from companion.teams import PlayerRef

from .locate import FrameResult, Seen, place
from .sighting import BallSighting, ConflictNotice, Event, HealthChange, RecalibrationNeeded, Sighting


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    settle_s: float = 0.15
    still_mm: float = 3.0
    move_mm: float = 5.0
    cross_mm: float = 1.5
    turn_deg: float = 30.0
    max_gap_s: float = 0.1
    unseen_after_s: float = 0.2
    slow_frame_s: float = 0.5
    # a figure whose marker looks larger than a cap at its height by more than this (as a ratio,
    # plus ``lift_px`` pixels of edge noise, averaged over the settling frames) is off the board:
    # ``lift_held`` when a hand is seen around it, ``lift_alone`` when none is
    lift_held: float = 0.01
    lift_alone: float = 0.02
    lift_px: float = 0.3
    # an id read where another figure stood moments ago (and is not seen now) is that figure's
    # marker partly covered and misread, not a figure
    impostor_mm: float = 10.0
    impostor_s: float = 3.0
    # an id read twice, once where it stands and once where another unread figure stands: the
    # second reading is that figure misread (no conflict, the id stays seen)
    resolve_twice: bool = True


@dataclass(frozen=True, slots=True)
class Pose:
    x_mm: float
    y_mm: float
    facing_deg: float


@dataclass(frozen=True, slots=True)
class TrackedFigure:
    """A figure as the tracker holds it: where it was last committed, whether it is seen now."""

    marker: int
    player: PlayerRef | None
    committed: Pose | None
    square: Square | None
    area: str | None
    seen: bool
    last_seen_s: float | None


@dataclass
class _Candidate:
    since: float
    last: float
    n: int = 0
    sx: float = 0.0
    sy: float = 0.0
    sc: float = 0.0
    ss: float = 0.0
    size: float = 0.0
    side_px: float = 0.0
    held: int = 0

    def add(self, s: Seen, t: float) -> None:
        self.n += 1
        self.size += s.size_ratio
        self.side_px += s.side_px
        self.held += s.held
        self.sx += s.x_mm
        self.sy += s.y_mm
        self.sc += math.cos(math.radians(s.facing_deg))
        self.ss += math.sin(math.radians(s.facing_deg))
        self.last = t

    @property
    def pose(self) -> Pose:
        return Pose(self.sx / self.n, self.sy / self.n, math.degrees(math.atan2(self.ss, self.sc)) % 360.0)


@dataclass
class _Track:
    marker: int
    player: PlayerRef | None
    committed: Pose | None = None
    square: Square | None = None
    area: str | None = None
    candidate: _Candidate | None = None
    last_seen: float | None = None


def _angle(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@dataclass
class Tracker:
    """Feed :meth:`update` one :class:`~vision.locate.FrameResult` per frame with its time; it
    returns the events that frame caused. Not thread-safe: one tracker per vision thread."""

    board: GridBoard
    settings: TrackerSettings = TrackerSettings()
    monitor: CornerMonitor | None = None
    _tracks: dict[int, _Track] = field(default_factory=dict)
    _conflicts: dict[int, tuple[float, str, bool]] = field(default_factory=dict)
    _health: str = "ok"
    _last_t: float | None = None
    _ball_marker: int | None = None

    @property
    def health(self) -> str:
        return self._health

    def figures(self, now: float | None = None) -> tuple[TrackedFigure, ...]:
        """Every figure ever committed or seen, with its committed position and whether it is seen."""
        now = self._last_t if now is None else now
        out = []
        for tr in sorted(self._tracks.values(), key=lambda tr: tr.marker):
            seen = tr.last_seen is not None and now is not None and now - tr.last_seen <= self.settings.unseen_after_s
            out.append(TrackedFigure(tr.marker, tr.player, tr.committed, tr.square, tr.area, seen, tr.last_seen))
        return tuple(out)

    def committed_ball(self) -> tuple[float, float] | None:
        tr = self._tracks.get(self._ball_marker) if self._ball_marker is not None else None
        return None if tr is None or tr.committed is None else (tr.committed.x_mm, tr.committed.y_mm)

    def set_health(self, health: str, reason: str, t: float) -> list[Event]:
        if health == self._health:
            return []
        self._health = health
        return [HealthChange(health, reason, t)]

    def update(self, result: FrameResult, t: float) -> list[Event]:
        events: list[Event] = []
        s = self.settings
        slow = self._last_t is not None and t - self._last_t > s.slow_frame_s
        gap = 0.0 if self._last_t is None else t - self._last_t
        prev_t, self._last_t = self._last_t, t
        # the ball first: a figure committed in the same frame carries where the ball settled
        seen: list[Seen] = ([result.ball] if result.ball is not None else []) + list(result.figures)
        if result.ball is not None:
            self._ball_marker = result.ball.marker
        read = {o.marker for o in seen}
        # caps in place though unread: still there, where they were committed (nothing to commit)
        for obs in result.in_place:
            tr = self._tracks.get(obs.marker)
            if (obs.marker not in read and tr is not None and tr.committed is not None
                    and math.hypot(obs.x_mm - tr.committed.x_mm, obs.y_mm - tr.committed.y_mm) <= s.impostor_mm):
                tr.last_seen = t
        seen = self._drop_impostors(seen, t, events)
        for obs in seen:
            tr = self._tracks.get(obs.marker)
            if tr is None:
                tr = self._tracks[obs.marker] = _Track(obs.marker, obs.player)
            tr.last_seen = t
            c = tr.candidate
            if c is not None:
                mean = c.pose
                # a gap counts only if the figure went unseen on a frame that was read: a live
                # camera's frames are skipped while the reader is busy, and that is no interruption
                missed = c.last != prev_t or slow
                if ((missed and t - c.last > s.max_gap_s)
                        or math.hypot(obs.x_mm - mean.x_mm, obs.y_mm - mean.y_mm) > s.still_mm
                        or _angle(obs.facing_deg, mean.facing_deg) > s.turn_deg / 2):
                    c = None
            if c is None:
                c = tr.candidate = _Candidate(since=t, last=t)
            c.add(obs, t)
            if t - c.since >= s.settle_s - 1e-9 and not self._aloft(c):
                event = self._maybe_commit(tr, c.pose, t)
                if event is not None:
                    events.append(event)
        # conflicts that last are worth a notice; a conflicting marker is simply not seen
        conflicts = [c for c in result.conflicts if not (s.resolve_twice and self._misread_twice(c, read, t, events))]
        now_conflicts = {c.marker: c.reason for c in conflicts}
        for marker, reason in now_conflicts.items():
            since, _, told = self._conflicts.get(marker, (t, reason, False))
            if not told and t - since >= s.settle_s:
                events.append(ConflictNotice(marker, reason, t))
                told = True
            self._conflicts[marker] = (since, reason, told)
            tr = self._tracks.get(marker)
            if tr is not None:
                tr.candidate = None
        for marker in [m for m in self._conflicts if m not in now_conflicts
                       and (m >= 0 or t - self._conflicts[m][0] > s.max_gap_s)]:
            del self._conflicts[marker]
        problems = self._watch_corners(result, t, events)
        if slow:
            problems.append(f"frames arrive slowly ({gap:.2f} s apart)")
        if problems:
            events += self.set_health("degraded", "; ".join(problems), t)
        else:
            events += self.set_health("ok", "the camera sees the board", t)
        return events

    def _drop_impostors(self, seen: list[Seen], t: float, events: list[Event]) -> list[Seen]:
        """Observations that are another figure's marker misread: an id seen where a figure
        other than it was committed and seen within ``impostor_s``, that figure not seen in this
        frame, and the id not committed there itself. They are left out (a conflict notice says
        so once); the covered figure keeps its place."""
        s = self.settings
        here = {o.marker for o in seen}
        keep = []
        for obs in seen:
            suspect = None
            for tr in self._tracks.values():
                if (tr.marker == obs.marker or tr.marker in here or tr.committed is None or tr.last_seen is None
                        or t - tr.last_seen > s.impostor_s):
                    continue
                if math.hypot(obs.x_mm - tr.committed.x_mm, obs.y_mm - tr.committed.y_mm) <= s.impostor_mm:
                    suspect = tr
                    break
            own = self._tracks.get(obs.marker)
            at_own = own is not None and own.committed is not None and math.hypot(
                obs.x_mm - own.committed.x_mm, obs.y_mm - own.committed.y_mm) <= s.impostor_mm
            if suspect is None or at_own:
                keep.append(obs)
                continue
            key = -1 - obs.marker  # one notice per misread id while it lasts
            if key not in self._conflicts:
                events.append(ConflictNotice(obs.marker, f"marker {obs.marker} read where marker {suspect.marker} "
                                                         f"stands, unseen: taken for it, partly covered", t))
            self._conflicts[key] = (t, "impostor", True)
        return keep

    def _misread_twice(self, c, read: set[int], t: float, events: list[Event]) -> bool:
        """Whether a marker read twice is itself at one of the places (where it is committed) and
        another figure's marker misread at each other one (where that figure is committed, unread
        in this frame, and seen within ``impostor_s`` or its cap in place). If so it stays seen
        where it stands, and a notice says so once."""
        s = self.settings
        own = self._tracks.get(c.marker)
        if own is None or own.committed is None or len(c.at_mm) < 2:
            return False

        def near(p, pose: Pose) -> bool:
            return math.hypot(p[0] - pose.x_mm, p[1] - pose.y_mm) <= s.impostor_mm
        home = [p for p in c.at_mm if near(p, own.committed)]
        if len(home) != 1:
            return False
        covered = []
        for p in c.at_mm:
            if p is home[0]:
                continue
            other = next((tr for tr in self._tracks.values() if tr.marker != c.marker and tr.marker not in read
                          and tr.committed is not None and tr.last_seen is not None
                          and t - tr.last_seen <= s.impostor_s and near(p, tr.committed)), None)
            if other is None:
                return False
            covered.append(other.marker)
        own.last_seen = t
        key = -1 - c.marker
        if key not in self._conflicts:
            events.append(ConflictNotice(c.marker, f"marker {c.marker} read again where marker "
                                                   f"{', '.join(map(str, covered))} stands, unseen: taken for it, "
                                                   f"partly covered", t))
        self._conflicts[key] = (t, "impostor", True)
        return True

    def _aloft(self, c: _Candidate) -> bool:
        """Whether a still figure is held off the board: its marker, averaged over the frames it
        stood still, looks larger than a cap at its height does there (nearer the camera), by
        less when a hand is seen around it. However still it is held, it is not committed."""
        side = c.side_px / c.n
        noise = self.settings.lift_px / side if side > 0 else 0.0
        limit = self.settings.lift_held if c.held else self.settings.lift_alone
        return c.size / c.n > 1.0 + limit + noise

    def _maybe_commit(self, tr: _Track, pose: Pose, t: float) -> Event | None:
        square, _, area = place(self.board, pose.x_mm, pose.y_mm)
        old = tr.committed
        if old is not None:
            dist = math.hypot(pose.x_mm - old.x_mm, pose.y_mm - old.y_mm)
            moved = (dist > self.settings.move_mm or _angle(pose.facing_deg, old.facing_deg) > self.settings.turn_deg
                     or ((square, area) != (tr.square, tr.area) and dist > self.settings.cross_mm))
            if not moved:
                return None
        tr.committed, tr.square, tr.area = pose, square, area
        if tr.player is None:
            return BallSighting(pose.x_mm, pose.y_mm, square, area, t)
        return Sighting(tr.player, pose.x_mm, pose.y_mm, pose.facing_deg, square, area, tr.marker, t,
                        self.committed_ball())

    def _watch_corners(self, result: FrameResult, t: float, events: list[Event]) -> list[str]:
        """Problems with the view, as sentences; a bumped camera also raises an event (once)."""
        if self.monitor is None:
            return []
        before = self.monitor.state
        state = self.monitor.update(result.corner_px, t)
        if state == "moved":
            if before != "moved":
                events.append(RecalibrationNeeded(self.monitor.shift_px, self.monitor.moved_markers, t))
            return ["the corner markers moved: calibrate the pitch again"]
        if state == "hidden":
            return ["no corner marker seen for a while: is the camera covered or turned away?"]
        return []
