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

The rules' positions (:meth:`Tracker.expect`: where the match's books have each figure, as the
rectangle of its square or space) are expectations too, before the camera has seen anything (a
resumed match) or after a coach moved a figure on the tablet: an id read inside another
figure's rectangle, outside its own, while that figure's marker does not read, is that
figure's marker partly covered; it is left out (a notice says so once) and the covered figure
counts as seen there. Only when it keeps reading there, steadily, for ``expect_hold_s`` is it
taken, and then its sighting carries a ``doubt`` for a person to take or drop with one touch.
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
    # the rules' positions (Tracker.expect): a figure read within ``expect_margin_mm`` of its own
    # square is where the rules have it; an id read inside another figure's square, not its own,
    # that keeps reading there for ``expect_hold_s`` (no gap over ``expect_gap_s``: a misread
    # comes and goes as a hand moves) is taken, with a doubt a person resolves
    expect_margin_mm: float = 3.0
    expect_hold_s: float = 3.0
    expect_gap_s: float = 0.5
    # a square or space wider than this (Football Leader's, for several counters) does not
    # place a cap closely enough to call another id read in it a misread
    expect_max_mm: float = 60.0
    # with the rules' positions known, a figure first read where the rules do not have it (in
    # another square, or a figure the rules have nowhere on the board: not in this match, or a
    # pattern that read as its id) needs stronger evidence than a set-down figure: read still for
    # ``unexpected_s`` over ``unexpected_frames`` frames or more
    unexpected_s: float = 0.5
    unexpected_frames: int = 6


@dataclass(frozen=True, slots=True)
class Expected:
    """Where the rules have a figure: its marker and the rectangle of its square or space, in
    board millimetres (from ``companion.sightings.Standing``)."""

    marker: int
    player: PlayerRef | None
    x0_mm: float
    y0_mm: float
    x1_mm: float
    y1_mm: float

    def contains(self, x_mm: float, y_mm: float, margin_mm: float = 0.0) -> bool:
        return (self.x0_mm - margin_mm <= x_mm <= self.x1_mm + margin_mm
                and self.y0_mm - margin_mm <= y_mm <= self.y1_mm + margin_mm)

    def __repr__(self) -> str:
        return (f"Expected({self.marker}, {self.player!r}, {self.x0_mm:g}, {self.y0_mm:g}, {self.x1_mm:g}, "
                f"{self.y1_mm:g})")


def expectations(standing, marker_map) -> tuple[Expected, ...]:
    """The rules' positions (``companion.sightings.Standing``: a player and the rectangle of his
    square or space) as the tracker's expectations, by marker (``vision.config.MarkerMap``); a
    figure that carries no marker is left out."""
    marker_of = {e.player: m for m, e in marker_map.entries.items()}
    out = []
    for st in standing:
        marker = marker_of.get(st.player)
        if marker is not None:
            out.append(Expected(marker, st.player, st.x0_mm, st.y0_mm, st.x1_mm, st.y1_mm))
    return tuple(out)


@dataclass
class _Suspect:
    """An id read where the rules have another figure: since when, where, and over whom."""

    covered: int
    since: float
    last: float
    x_mm: float
    y_mm: float


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
    doubt: str = ""  # said with the next commit: read where the rules have another figure


def _who(e: Expected) -> str:
    return f"{e.player.team.label} #{e.player.number}" if e.player is not None else f"marker {e.marker}"


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
    _expected: dict[int, Expected] = field(default_factory=dict)
    _suspects: dict[int, _Suspect] = field(default_factory=dict)

    def expect(self, expected) -> None:
        """The rules' positions from now on (an iterable of :class:`Expected`; empty: none).
        Call it on the tracker's own thread (:meth:`vision.live.VisionWorker.expect` hands them
        over from another)."""
        self._expected = {e.marker: e for e in expected}
        self._suspects = {m: sus for m, sus in self._suspects.items() if sus.covered in self._expected}

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
            if obs.marker in read:
                continue
            if (tr is not None and tr.committed is not None
                    and math.hypot(obs.x_mm - tr.committed.x_mm, obs.y_mm - tr.committed.y_mm) <= s.impostor_mm):
                tr.last_seen = t
            elif (tr is None or tr.committed is None) and self._where_expected(obs.marker, obs.x_mm, obs.y_mm):
                # read once and covered before it settled, where the rules have it
                self._track(obs.marker, obs.player).last_seen = t
        seen = self._drop_impostors(seen, t, events)
        for obs in seen:
            tr = self._track(obs.marker, obs.player)
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
            settle, frames = self._evidence_needed(tr, c.pose)
            if t - c.since >= settle - 1e-9 and c.n >= frames and not self._aloft(c):
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

    def _track(self, marker: int, player: PlayerRef | None) -> _Track:
        tr = self._tracks.get(marker)
        if tr is None:
            tr = self._tracks[marker] = _Track(marker, player)
        return tr

    def _evidence_needed(self, tr: _Track, pose: Pose) -> tuple[float, int]:
        """How long (s) and over how many frames a figure must read still before it is
        committed: ``settle_s`` as a rule; with the rules' positions known, a figure never
        committed that the rules have elsewhere, or nowhere, needs ``unexpected_s`` and
        ``unexpected_frames`` (one frame's reading of a pattern that looks like a cap is no
        figure)."""
        s = self.settings
        if not self._expected or tr.player is None or tr.committed is not None or tr.doubt:
            return s.settle_s, 1
        if self._where_expected(tr.marker, pose.x_mm, pose.y_mm):
            return s.settle_s, 1
        return max(s.settle_s, s.unexpected_s), s.unexpected_frames

    def _where_expected(self, marker: int, x: float, y: float) -> bool:
        e = self._expected.get(marker)
        return e is not None and e.contains(x, y, self.settings.expect_margin_mm)

    def _expected_over(self, obs: Seen, here: set[int]) -> Expected | None:
        """The figure whose marker ``obs`` may be, by the rules' positions: the point lies in
        its square, not in the read id's own, and it is not read in this frame, nor known to the
        tracker to stand elsewhere now (then the rules have not caught up with its move yet)."""
        if obs.player is None or not self._expected or self._where_expected(obs.marker, obs.x_mm, obs.y_mm):
            return None
        big = self.settings.expect_max_mm
        for e in self._expected.values():
            if e.marker == obs.marker or e.marker in here or not e.contains(obs.x_mm, obs.y_mm):
                continue
            if e.x1_mm - e.x0_mm > big or e.y1_mm - e.y0_mm > big:
                continue  # a space that holds several figures says too little about where a cap is
            tr = self._tracks.get(e.marker)
            if tr is not None and tr.committed is not None and not e.contains(
                    tr.committed.x_mm, tr.committed.y_mm, self.settings.expect_margin_mm):
                continue
            return e
        return None

    def _drop_impostors(self, seen: list[Seen], t: float, events: list[Event]) -> list[Seen]:
        """Observations that are another figure's marker misread: an id seen where a figure
        other than it was committed and seen within ``impostor_s``, that figure not seen in this
        frame, and the id not committed there itself; or, by the rules' positions, an id read in
        another figure's square, not in its own, that figure not read in this frame. They are
        left out (a conflict notice says so once); the covered figure keeps its place. A reading
        held back by the rules alone that stays put for ``expect_hold_s`` is taken with a doubt."""
        s = self.settings
        here = {o.marker for o in seen}
        keep = []
        # figures committed and seen lately that this frame did not read: whose markers another
        # id read where they stand may be (found once a frame, not once per reading)
        unread = [tr for tr in self._tracks.values()
                  if not (tr.marker in here or tr.committed is None or tr.last_seen is None
                          or t - tr.last_seen > s.impostor_s)]
        for obs in seen:
            suspect = None
            for tr in unread:
                if math.hypot(obs.x_mm - tr.committed.x_mm, obs.y_mm - tr.committed.y_mm) <= s.impostor_mm:
                    suspect = tr
                    break
            own = self._tracks.get(obs.marker)
            at_own = own is not None and own.committed is not None and math.hypot(
                obs.x_mm - own.committed.x_mm, obs.y_mm - own.committed.y_mm) <= s.impostor_mm
            if at_own:
                keep.append(obs)
                continue
            if suspect is not None:
                where = f"where marker {suspect.marker} stands"
            else:
                e = self._expected_over(obs, here)
                if e is None or (own is not None and own.doubt and self._doubtful(obs, t)):
                    if e is None and own is not None:
                        own.doubt = ""  # nothing to doubt any more
                    keep.append(obs)
                    continue
                if own is not None:
                    own.doubt = ""
                where = f"where the rules have {_who(e)} (marker {e.marker})"
                if self._held_long(obs, e, t):
                    self._track(obs.marker, obs.player).doubt = (
                        f"the rules have {_who(e)} there, whose marker does not read: covered, or moved?")
                    keep.append(obs)
                    continue
                # its cap is there, its code misread: the covered figure is seen where it stands
                self._track(e.marker, e.player).last_seen = t
            key = -1 - obs.marker  # one notice per misread id while it lasts
            if key not in self._conflicts:
                events.append(ConflictNotice(obs.marker, f"marker {obs.marker} read {where}, unseen: taken for it, "
                                                         f"partly covered", t))
            self._conflicts[key] = (t, "impostor", True)
        return keep

    def _held_long(self, obs: Seen, e: Expected, t: float) -> bool:
        """Whether ``obs`` has been read where the rules have ``e`` steadily (within ``still_mm``,
        no gap over ``expect_gap_s``) for ``expect_hold_s``."""
        s = self.settings
        sus = self._suspects.get(obs.marker)
        if (sus is None or sus.covered != e.marker or t - sus.last > s.expect_gap_s
                or math.hypot(obs.x_mm - sus.x_mm, obs.y_mm - sus.y_mm) > s.still_mm):
            sus = self._suspects[obs.marker] = _Suspect(e.marker, t, t, obs.x_mm, obs.y_mm)
        sus.last = t
        return t - sus.since >= s.expect_hold_s - 1e-9

    def _doubtful(self, obs: Seen, t: float) -> bool:
        """Whether a reading taken with a doubt is still where it was doubted."""
        sus = self._suspects.get(obs.marker)
        if sus is None or math.hypot(obs.x_mm - sus.x_mm, obs.y_mm - sus.y_mm) > self.settings.still_mm:
            return False
        sus.last = t
        return True

    def _misread_twice(self, c, read: set[int], t: float, events: list[Event]) -> bool:
        """Whether a marker read twice is itself at one of the places (where it is committed, or
        where the rules have it when it is not committed yet) and another figure's marker
        misread at each other one (where that figure is committed, unread in this frame, and
        seen within ``impostor_s`` or its cap in place; or where the rules have that figure,
        unread). If so it stays seen where it stands, and a notice says so once."""
        s = self.settings
        own = self._tracks.get(c.marker)
        if len(c.at_mm) < 2:
            return False

        def near(p, pose: Pose) -> bool:
            return math.hypot(p[0] - pose.x_mm, p[1] - pose.y_mm) <= s.impostor_mm
        if own is not None and own.committed is not None:
            home = [p for p in c.at_mm if near(p, own.committed)]
        else:
            home = [p for p in c.at_mm if self._where_expected(c.marker, p[0], p[1])]
        if len(home) != 1:
            return False
        covered = []
        for p in c.at_mm:
            if p is home[0]:
                continue
            other = next((tr.marker for tr in self._tracks.values() if tr.marker != c.marker and tr.marker not in read
                          and tr.committed is not None and tr.last_seen is not None
                          and t - tr.last_seen <= s.impostor_s and near(p, tr.committed)), None)
            if other is None:
                probe = Seen(c.marker, self._player_of(c.marker), p[0], p[1], 0.0, None, None, None)
                e = self._expected_over(probe, read)
                if e is None:
                    return False
                other = e.marker
                self._track(e.marker, e.player).last_seen = t  # its cap is there, misread
            covered.append(other)
        self._track(c.marker, self._player_of(c.marker)).last_seen = t
        key = -1 - c.marker
        if key not in self._conflicts:
            events.append(ConflictNotice(c.marker, f"marker {c.marker} read again where marker "
                                                   f"{', '.join(map(str, covered))} stands, unseen: taken for it, "
                                                   f"partly covered", t))
        self._conflicts[key] = (t, "impostor", True)
        return True

    def _player_of(self, marker: int) -> PlayerRef | None:
        tr, e = self._tracks.get(marker), self._expected.get(marker)
        return tr.player if tr is not None else (e.player if e is not None else None)

    def _aloft(self, c: _Candidate) -> bool:
        """Whether a still figure is held off the board: its marker, averaged over the frames it
        stood still, looks larger than a cap at its height does there (nearer the camera), by
        less when a hand is seen around it. However still it is held, it is not committed."""
        side = c.side_px / c.n
        noise = self.settings.lift_px / side if side > 0 else 0.0
        limit = self.settings.lift_held if c.held else self.settings.lift_alone
        return c.size / c.n > 1.0 + limit + noise

    def _maybe_commit(self, tr: _Track, pose: Pose, t: float) -> Event | None:
        old = tr.committed
        s = self.settings
        if old is not None:
            dist = math.hypot(pose.x_mm - old.x_mm, pose.y_mm - old.y_mm)
            if dist <= s.move_mm and dist <= s.cross_mm and _angle(pose.facing_deg, old.facing_deg) <= s.turn_deg:
                return None  # not moved, whatever its square (the square is worked out only for a move)
        square, _, area = place(self.board, pose.x_mm, pose.y_mm)
        if old is not None:
            moved = (dist > self.settings.move_mm or _angle(pose.facing_deg, old.facing_deg) > self.settings.turn_deg
                     or ((square, area) != (tr.square, tr.area) and dist > self.settings.cross_mm))
            if not moved:
                return None
        tr.committed, tr.square, tr.area = pose, square, area
        if tr.player is None:
            return BallSighting(pose.x_mm, pose.y_mm, square, area, t)
        doubt, tr.doubt = tr.doubt, ""
        self._suspects.pop(tr.marker, None)
        return Sighting(tr.player, pose.x_mm, pose.y_mm, pose.facing_deg, square, area, tr.marker, t,
                        self.committed_ball(), doubt)

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
