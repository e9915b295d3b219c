"""Live reading of a camera: where to look in each frame, and the worker thread that turns frames
into events on queues.

:class:`LiveReader` keeps the last positions of the markers and, instead of searching whole
frames, searches small windows around them, the parts of the frame that changed since the last
frame (and for a few frames after), and one band of the board per frame in turn, so a full
sweep still happens every few frames. :class:`VisionWorker` runs source -> reader -> tracker in
its own thread; the app only reads its queues.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.monitor import CornerMonitor

from .detect import Detection, Rect, confirm, detect, to_gray
from .errors import SourceError
from .live_rescue import Place, look_again
from .locate import FrameResult, Seen, VisionSetup, board_rect, frame_sizes, locate
from .marker_size import MarkerSizes, other_print
from .sighting import BallSighting, Event, HealthChange, Sighting, SizeNotice
from .sources import Frame, FrameSource
from .threads import one_thread
from .tracker import Expected, Tracker, TrackerSettings, expectations

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LiveSettings:
    """``window``: search this many marker sides around a known marker; ``bands``: the board is
    swept in this many bands, one per frame; ``motion_*``: change detection on every
    ``motion_scale``-th pixel, its grey-level threshold, and for how many frames after it stops
    changing an area is searched; ``reread_every``: a marker in a still part of the frame is
    re-read in place every this many frames (else it is taken to be where it was). With
    ``trail_foreign``, what changed lately is searched only where the frame is unlike the
    settled board, and around figures read before that do not read now; a frame searching more
    than ``band_busy_share`` of itself that way puts its band off (at most ``band_defer``
    frames running, an even number: see :meth:`LiveReader._band_waits`). The board as
    it looks without hands is what has stood still for ``background_after`` frames; a figure
    with more than ``hand_share`` of the frame within ``hand_reach`` marker sides of it unlike
    that is ``held`` (a hand, even one held still, is large; a figure is small).

    A figure's cap that no longer reads (a hand's edge over it, glare) but still looks as it did
    when it last read, where it was, is *in place* (:meth:`LiveReader.read`): at least
    ``in_place_share`` of its marker's dark pixels and of its light ones (in the whole marker,
    and in its code cells alone) within ``in_place_grey`` grey levels of how they looked, after
    the frame's overall brightness is matched; a cap last read more than ``in_place_frames``
    frames ago is forgotten.

    The second look (the rescue stage, :mod:`vision.live_rescue`, when ``setup.rescue`` is set):
    each frame, at most ``look_places`` places where a figure read before (within
    ``in_place_frames``) or one the rules have there (:meth:`LiveReader.expect`) did not read,
    and where nothing moves now (nor where a figure read in ``look_reads`` frames or more still
    looks as it did: it is in place), those waiting longest first (a place looked at in vain waits
    2, 4, ... up to ``look_backoff`` frames: a hand held over a figure costs little), and a
    place looked at in vain only once its pixels changed (the same pixels read the same) or
    ``look_recheck`` frames later; and, every other frame, up to ``look_band`` candidates in
    this frame's band that lie where no figure was ever read (caps never read at all), while
    some figure id is neither read nor known; a candidate there that read as nothing is not
    tried again for ``barren_frames`` frames, unless that part of the frame changes, and a band
    whose every candidate was tried is looked at again once something in it changes. The work
    is spread over frames: a frame that has used ``look_budget_ms`` of CPU time
    (``LiveReader.clock``) before the second look puts its band off (the places, which keep
    figures read, are looked at all the same), as does a band where a hand moves, until a
    frame with time to spare, but never more than ``look_defer`` frames after the last band
    looked at (a slow machine sweeps more slowly, never not at all).

    Each frame's read has a budget, ``frame_budget_ms`` of CPU time for a 1080p frame or
    smaller (in proportion to its pixels above that): the second look takes only as many places as the time left
    holds at what a look has cost lately (the places waiting longest first; the others wait for
    a frame with time to spare, but one is looked at at least every ``look_defer`` frames), and
    its band only with time to spare. A camera's first frame searches the whole frame; its
    second look, over the whole board with ``first_look``, is otherwise left to the bands'
    sweep (a second or two), so that no frame takes several times the default detector's."""

    window: float = 1.6
    bands: int = 25  # odd: a band comes round with the other threshold window next time
    motion_scale: int = 4
    motion_threshold: int = 24
    motion_linger: int = 4
    trail_foreign: bool = True
    band_busy_share: float = 0.03
    band_defer: int = 6
    full_every: int = 0  # 0: never (bands cover the board); else a whole-frame search every N frames
    reread_every: int = 6
    background_after: int = 45
    hand_share: float = 0.15
    hand_reach: float = 4.0
    in_place_share: float = 0.5
    in_place_grey: float = 28.0
    in_place_frames: int = 9000
    look_places: int = 4
    look_reads: int = 10
    look_backoff: int = 8
    look_band: int = 3
    barren_frames: int = 300
    look_recheck: int = 150
    look_budget_ms: float = 6.0
    look_defer: int = 8
    frame_budget_ms: float = 8.0
    first_look: bool = False


@dataclass
class LiveReader:
    """Reads one frame after another with what the previous frames showed.

    Markers seen last frame are re-read in place (:func:`~vision.detect.confirm`: an edge fit
    and a bit read, no search). The detector then searches only where something changed lately
    but has stopped changing (where a hand just left, perhaps a figure), windows around markers
    that did not read in place (unless a hand is on them now), and one band of the board in
    turn, so the whole board is swept every ``bands`` frames."""

    setup: VisionSetup
    settings: LiveSettings = LiveSettings()
    _prev_small: np.ndarray | None = None
    _known: list[Detection] = field(default_factory=list)
    _motion: list[tuple[Rect, int]] = field(default_factory=list)
    _frame: int = 0
    _board_rect: Rect | None = None
    _last_change: np.ndarray | None = None
    _trail: np.ndarray | None = None  # (h, w) bool on every k-th pixel: changed lately, still now
    _age: np.ndarray | None = None
    _background: np.ndarray | None = None
    _foreign: np.ndarray | None = None
    _caps: dict[int, "_CapLook"] = field(default_factory=dict)
    _in_place: list[Detection] = field(default_factory=list)
    _last: dict[int, tuple[Detection, int]] = field(default_factory=dict)
    _reads: dict[int, int] = field(default_factory=dict)  # frames each figure was read in
    _looked: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)  # place: last, fails
    _expected: tuple[Expected, ...] = ()
    _expected_px: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # frame px box (x, y)
    _matched: dict[tuple[int, int, int], bool] = field(default_factory=dict)  # (frame, marker, look's frame)
    _shots: dict[tuple[str, int], tuple[Rect, np.ndarray]] = field(default_factory=dict)  # place looked at in vain
    _band_done: dict[int, int] = field(default_factory=dict)  # band: frame its every candidate was tried
    _band_due: tuple[Rect, int] | None = None  # a band put off: its rect and number
    _band_looked: int = 0  # the last frame a band was looked at
    _band_lag: int = 0  # frames the swept bands were put off in all (even between pairs of frames)
    _band_waited: int = 0  # frames this band was put off so far
    _barren: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))  # (K, 2) frame px
    _barren_at: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # (K,) frames
    _look_cost: float = 1.5  # CPU ms a place of the second look has cost lately
    _band_cost: float = 2.0  # and a candidate of a band's
    _place_looked: int = 0  # the last frame a place was looked at
    searched_share: float = 1.0
    clock: Callable[[], float] = field(default=time.thread_time, repr=False)  # s: this thread's CPU time

    def expect(self, expected) -> None:
        """Where the rules have the figures (:class:`~vision.tracker.Expected`, board mm): a
        figure there that does not read is looked for again there (the second look)."""
        self._expected = tuple(expected)
        ms = self.setup.markers
        self._expected_px = {}  # each square's corners in the frame (the camera does not move)
        for e in self._expected:
            z = ms.height_of(e.marker)
            corners = np.array([[e.x0_mm, e.y0_mm, z], [e.x1_mm, e.y0_mm, z], [e.x1_mm, e.y1_mm, z],
                                [e.x0_mm, e.y1_mm, z]])
            px = self.setup.camera.project(corners)
            if np.isfinite(px).all():
                self._expected_px[e.marker] = (px.min(axis=0), px.max(axis=0))

    def board_rect(self) -> Rect:
        """The part of the frame holding the board, benches and corner markers."""
        if self._board_rect is None:
            self._board_rect = board_rect(self.setup)
        return self._board_rect

    def _changes(self, gray: np.ndarray) -> tuple[np.ndarray, list[Rect]] | None:
        """What changes now (a mask on every k-th pixel) and the rectangles that changed lately but
        are still now: where a hand just was, and where it may have left a figure. None on the
        first frame."""
        s = self.settings
        k = s.motion_scale
        small = gray[k // 2::k, k // 2::k].copy()  # every k-th pixel: costs nothing, noisier than averaging
        prev, self._prev_small = self._prev_small, small
        self._frame += 1
        if prev is None:
            self._last_change = np.full(small.shape, -10 ** 6, np.int32)
            self._background = small
            self._foreign = None
            return None
        now = cv2.absdiff(small, prev) > s.motion_threshold
        np.copyto(self._last_change, self._frame, where=now)
        age = self._frame - self._last_change
        self._age = age
        settled = age >= s.background_after
        cv2.copyTo(small, settled.view(np.uint8), self._background)  # in place, a tenth of a masked assignment
        # what is unlike the settled board, summed (an integral image): hands, held or moving
        foreign = cv2.absdiff(small, self._background) > s.motion_threshold
        self._foreign = cv2.integral(foreign.view(np.uint8))
        trail = self._trail = (age >= 1) & (age <= s.motion_linger)
        if s.trail_foreign:
            trail = trail & foreign
        trail = trail.view(np.uint8)
        rects: list[Rect] = []
        if trail.any():
            # each patch's outer outline's box: the boxes of its connected parts, but for those
            # inside another's hole (contained, dropped later anyway), at a fortieth of the time
            outlines, _ = cv2.findContours(cv2.dilate(trail, np.ones((3, 3), np.uint8)), cv2.RETR_EXTERNAL,
                                           cv2.CHAIN_APPROX_SIMPLE)
            pad = 24
            rects = [(x * k - pad, y * k - pad, (x + bw) * k + pad, (y + bh) * k + pad)
                     for x, y, bw, bh in map(cv2.boundingRect, outlines)]
        return now, rects

    def _quiet(self, markers: list[Detection]) -> np.ndarray:
        """Per marker (N,), whether nothing changed lately in its window (:meth:`_window`): a
        count in an integral image of what changed in the last ``motion_linger`` frames."""
        if not markers:
            return np.zeros(0, bool)
        k = self.settings.motion_scale
        recent = cv2.integral((self._age <= self.settings.motion_linger).view(np.uint8))
        h, w = recent.shape[0] - 1, recent.shape[1] - 1
        c = np.array([d.center for d in markers])
        r = np.array([d.side_px for d in markers]) * self.settings.window + 4
        # as _window's int(): towards zero, then every k-th pixel's cell
        x0, y0 = np.trunc(c[:, 0] - r).astype(int) // k, np.trunc(c[:, 1] - r).astype(int) // k
        x1, y1 = np.trunc(c[:, 0] + r + 1).astype(int) // k, np.trunc(c[:, 1] + r + 1).astype(int) // k
        x0, y0 = np.clip(x0, 0, w), np.clip(y0, 0, h)
        x1, y1 = np.clip(np.maximum(x1, 1), 0, w), np.clip(np.maximum(y1, 1), 0, h)
        empty = (x1 <= x0) | (y1 <= y0)
        x1, y1 = np.maximum(x1, x0), np.maximum(y1, y0)
        n = recent[y1, x1] - recent[y0, x1] - recent[y1, x0] + recent[y0, x0]
        return empty | (n == 0)

    def _window(self, d: Detection) -> Rect:
        c, r = d.center, d.side_px * self.settings.window + 4
        return (int(c[0] - r), int(c[1] - r), int(c[0] + r + 1), int(c[1] + r + 1))

    def read(self, image: np.ndarray) -> FrameResult:
        """One frame (H, W, 3) or (H, W) uint8 -> what it shows."""
        started = self.clock()
        gray = to_gray(image)
        h, w = gray.shape
        changes = self._changes(gray)
        s = self.settings
        now, band, b = None, None, 0
        if changes is None or not self._known or (s.full_every and self._frame % s.full_every == 0):
            detections = detect(self.setup.detector, gray, [self.board_rect()])
            self.searched_share = 1.0
            band = self.board_rect()
        else:
            now, rects = changes
            # a marker where nothing changed lately is where it was: it is re-read only in turn
            # (every ``reread_every`` frames), the others at once
            k = s.motion_scale
            still, check = [], []
            quiet = self._quiet(self._known)
            for i, d in enumerate(self._known):
                (still if quiet[i] and (i + self._frame) % s.reread_every else check).append(d)
            # caps in place but unread last frame are tried in place too (cheap), not searched for
            known_ids = {k.marker for k in self._known}
            watched = [d for d in self._in_place if d.marker not in known_ids]
            confirmed, lost = confirm(self.setup.detector, gray, check + watched)
            lost = [d for d in lost if d not in watched]
            confirmed += still
            for d in lost:  # look again around a marker that did not read in place, unless a hand is on it
                x, y = int(d.center[0]) // k, int(d.center[1]) // k
                if not now[min(max(y, 0), now.shape[0] - 1), min(max(x, 0), now.shape[1] - 1)]:
                    rects.append(self._window(d))
            if s.trail_foreign:
                # the trail is searched only where the board is unlike its settled look; a cap
                # put back just where it stood looks settled: around figures read before and not
                # read now, wherever something changed lately
                have = {d.marker for d in confirmed}
                for m, (d, _) in self._last.items():
                    if m not in have and _cells(self._trail, self._window(d), k).any():
                        rects.append(self._window(d))
            rects = _drop_contained(rects)
            # bands overlap by a cap's size plus a little, so every cap lies whole in one of them
            overlap = 6 + int(np.median([d.side_px for d in self._known])) // 2
            if not self._band_waits(sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects) / float(w * h)):
                bx0, y0, bx1, y1 = self._band((self._frame - self._band_lag) % s.bands, overlap)
                step = 400  # the band in pieces packs tighter into the detector's mosaic
                rects += [(x, y0, min(x + step + 2 * overlap, bx1), y1) for x in range(bx0, bx1, step)]
                rects = _drop_contained(rects)
            # the second look sweeps the bands in turn all the same (a band put off is put off
            # for the search alone)
            b = self._frame % s.bands
            band = self._band(b, overlap)
            self.searched_share = sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects) / float(w * h)
            # two threshold windows, one per frame, taking turns (the larger parts caps standing
            # side by side): an area searched on two frames running is searched with both
            d = self.setup.detector
            w = d.window_px if self._frame % 2 else max(d.window_max_px, d.window_px + 2)
            search = replace(d, window_px=w, window_max_px=w)
            detections = sorted(confirmed + detect(search, gray, rects, known=confirmed), key=lambda d: d.marker)
        if self.setup.rescue is not None:
            spent = 1000 * (self.clock() - started)
            # a smaller frame keeps the 1080p budget (the fixed costs do not shrink with it)
            left = s.frame_budget_ms * max(1.0, (h * w) / (1920 * 1080)) - spent
            busy = spent > s.look_budget_ms or left < self._look_cost
            more = self._look_again(gray, detections, now, band, None if now is None else b, busy, left)
            detections = sorted(detections + more, key=lambda d: d.marker)
        self._known = detections
        result = self._mark_held(locate(self.setup, detections))
        read = {d.marker: d for d in detections}
        for f in result.figures + ((result.ball,) if result.ball is not None else ()):
            self._last[f.marker] = (read[f.marker], self._frame)
            self._reads[f.marker] = self._reads.get(f.marker, 0) + 1
        return self._keep_in_place(gray, result)

    def _band(self, b: int, overlap: int) -> Rect:
        """Band ``b`` of the board (of ``bands``), ``overlap`` px more above and below."""
        bx0, by0, bx1, by1 = self.board_rect()
        band_h = (by1 - by0) / self.settings.bands
        return bx0, int(by0 + b * band_h - overlap), bx1, int(by0 + (b + 1) * band_h + overlap)

    def _band_waits(self, share: float) -> bool:
        """Whether this frame's band is put off: the frame searches more than ``band_busy_share``
        of itself elsewhere already (a hand sweeping leaves a wide trail), and the band has not
        waited ``band_defer`` frames yet. It waits two frames at a time, so that each band still
        comes round with the other threshold window (the frame's parity) on the next sweep."""
        s = self.settings
        if self._band_waited % 2 or (share > s.band_busy_share and self._band_waited < s.band_defer):
            self._band_waited += 1
            self._band_lag += 1
            return True
        self._band_waited = 0
        return False

    def _look_again(self, gray: np.ndarray, found: list[Detection], now: np.ndarray | None,
                    band: Rect | None, band_no: int | None = None, busy: bool = False,
                    left_ms: float | None = None) -> list[Detection]:
        """The second look (see :class:`LiveSettings`): markers read by the rescue stage where
        the reader or the rules expect a figure this frame did not read, and in ``band`` (the
        swept band number ``band_no``; None: the whole board, on the first frame). ``busy``:
        the frame has spent its budget already (the band is put off)."""
        s, k = self.settings, self.settings.motion_scale
        have = {d.marker for d in found}
        ms = self.setup.markers
        for m in [m for m, (_, f) in self._last.items() if self._frame - f > s.in_place_frames]:
            del self._last[m]
        sides = [d.side_px for d in found if ms.kind_of(d.marker) == "figure"]
        side = float(np.median(sides)) if sides else None

        def moving(rect: Rect) -> bool:
            if now is None:
                return False
            return bool(_cells(now, rect, k).any())
        wanted: list[tuple[tuple[str, int], Place]] = []
        for m, (d, _) in self._last.items():
            if m in have:
                continue
            look = self._caps.get(m)
            if look is not None and self._reads.get(m, 0) >= s.look_reads and self._matches(m, look, gray):
                continue  # its cap looks as it did: in place (see _keep_in_place), nothing to read
            r = d.side_px * 0.9 + 2
            c = d.center
            rect = (int(c[0] - r), int(c[1] - r), int(c[0] + r + 1), int(c[1] + r + 1))
            if not moving(rect):
                wanted.append((("seen", m), Place(rect, frozenset({m}), 1, (float(c[0]), float(c[1])))))
        for e in self._expected:
            if e.marker in have or side is None or e.marker not in self._expected_px:
                continue
            pad = 0.6 * side
            lo, hi = self._expected_px[e.marker]
            (x0, y0), (x1, y1) = lo - pad, hi + pad
            rect = (int(x0), int(y0), int(x1) + 1, int(y1) + 1)
            if not moving(rect):
                wanted.append((("rules", e.marker), Place(rect, frozenset({e.marker}), 2)))
        # those waiting longest first, each after its back-off, and a place looked at in vain
        # only once its pixels have changed (the same pixels read the same) or after a while
        due = [(last, key, p) for key, p in wanted for last, fails in [self._looked.get(key, (-1, 0))]
               if self._frame - last >= min(2 ** fails, s.look_backoff)
               and (key not in self._shots or self._frame - last >= s.look_recheck
                    or _changed(gray, self._shots[key], s.motion_threshold))]
        due.sort(key=lambda w: w[0])
        n = s.look_places
        if left_ms is not None:  # as many as the frame's time left holds, one at least now and then
            n = min(n, int(max(left_ms, 0.0) // self._look_cost))
            if n == 0 and due and self._frame - self._place_looked >= s.look_defer:
                n = 1
        chosen = due[:n]
        if chosen:
            self._place_looked = self._frame
        places = [p for _, _, p in chosen]
        open_band = None
        if band is not None and s.look_band and now is None and not s.first_look:
            pass  # the first frame: its bands are looked at as they are swept
        elif band is not None and s.look_band and now is None:  # the first frame: the whole board
            open_band = len(places)
            places.append(Place(band, frozenset(), self.setup.rescue.max_patches))
            self._band_looked = self._frame
        elif band is not None and s.look_band:
            if self._frame % 2 == 0 and band_no is not None:
                # every other frame: with an odd number of bands each comes round every 2 sweeps;
                # a band whose every candidate was tried (fewer than the limit came up) is
                # looked at again once something in it changes, or its fruitless spots are
                # forgotten. A band put off and not looked at yet gives way to this one.
                done = self._band_done.get(band_no, None)
                if done is None or self._frame - done > s.barren_frames or self._changed_since(band, done):
                    self._band_due = (band, band_no)
            if self._band_due is not None:
                rect, no = self._band_due
                # put off while the frame is busy or a hand moves in the band (what is under it
                # does not read), but never for more than ``look_defer`` frames since the last
                if not ((busy or moving(rect)) and self._frame - self._band_looked < s.look_defer):
                    # as many candidates as the time left holds at what one has cost lately (one
                    # at least: a band put off too long is looked at all the same)
                    room = s.look_band if left_ms is None else int(max(left_ms, 0.0) // self._band_cost)
                    open_band, band_no = len(places), no
                    places.append(Place(rect, frozenset(), max(1, min(s.look_band, room))))
                    self._band_due, self._band_looked = None, self._frame
        known = [d for d, _ in self._last.values()]
        if len(self._barren):  # spots that read as nothing stay so while nothing changes there
            keep = self._frame - self._barren_at <= s.barren_frames
            if self._last_change is not None:
                h, w = self._last_change.shape
                at = np.clip((self._barren // k).astype(int), 0, [w - 1, h - 1])
                keep &= self._last_change[at[:, 1], at[:, 0]] < self._barren_at
            self._barren, self._barren_at = self._barren[keep], self._barren_at[keep]
        began = self.clock()
        more, barren, tried = look_again(self.setup, self.setup.rescue, gray, found, places, known, self._barren)
        if places and now is not None:  # what a look costs, lately: per place, or per band candidate
            cost = 1000 * (self.clock() - began)
            if open_band is None:
                self._look_cost = 0.8 * self._look_cost + 0.2 * min(cost / len(places), 20.0)
            elif len(places) == 1 and tried[open_band]:
                self._band_cost = 0.8 * self._band_cost + 0.2 * min(cost / tried[open_band], 20.0)
        got = {d.marker for d in more}
        for _, key, p in chosen:
            fails = self._looked.get(key, (0, 0))[1]
            if key[1] in got:
                self._looked.pop(key, None)
                self._shots.pop(key, None)
            else:
                self._looked[key] = (self._frame, min(fails + 1, 8))
                self._shots[key] = _shot(gray, p.rect)
        if open_band is not None and band_no is not None:
            if tried[open_band] < places[open_band].limit:
                self._band_done[band_no] = self._frame
            else:
                self._band_done.pop(band_no, None)
        if len(barren):
            self._barren = np.vstack([self._barren, barren])
            self._barren_at = np.concatenate([self._barren_at, np.full(len(barren), self._frame)])
        return more

    def _keep_in_place(self, gray: np.ndarray, result: FrameResult) -> FrameResult:
        """The figures read this frame leave their look (their marker's pixels); those not read
        whose caps still look so where they were are ``in_place`` (their last reading)."""
        s = self.settings
        read = {d.marker: d for d in result.detections}
        for f in result.figures:
            old = self._caps.get(f.marker)
            d = read[f.marker]
            # a new look when the cap moved, else now and then (the light changes slowly)
            if old is None or np.abs(old.detection.corners - d.corners).max() > 0.5 \
                    or self._frame - old.frame >= 30:
                look = _CapLook.of(gray, d, f, self._frame)
                if look is not None:
                    self._caps[f.marker] = look
        in_place: list[Seen] = []
        self._in_place = []
        for marker, look in list(self._caps.items()):
            if marker in read:
                continue
            if self._frame - look.frame > s.in_place_frames:
                del self._caps[marker]
                continue
            if self._matches(marker, look, gray):
                in_place.append(look.seen)
                self._in_place.append(look.detection)
        return replace(result, in_place=tuple(in_place)) if in_place else result

    def _changed_since(self, rect: Rect, frame: int) -> bool:
        """Whether anything in ``rect`` (frame pixels) changed from one frame to the next since
        ``frame``."""
        if self._last_change is None:
            return True
        part = _cells(self._last_change, rect, self.settings.motion_scale)
        return part.size == 0 or int(part.max()) >= frame

    def _matches(self, marker: int, look: "_CapLook", gray: np.ndarray) -> bool:
        """Whether this frame still shows the cap's look (:meth:`_CapLook.matches`), worked out
        once a frame per look (the second look and the in-place check both ask)."""
        key = (self._frame, marker, look.frame)
        if key not in self._matched:
            if self._matched and next(iter(self._matched))[0] != self._frame:
                self._matched.clear()
            self._matched[key] = look.matches(gray, self.settings.in_place_share, self.settings.in_place_grey)
        return self._matched[key]

    def _mark_held(self, result: FrameResult) -> FrameResult:
        """Figures with a hand around them (see :class:`LiveSettings`) marked ``held``."""
        if self._foreign is None or not result.figures:
            return result
        s, k = self.settings, self.settings.motion_scale
        I = self._foreign
        h, w = I.shape[0] - 1, I.shape[1] - 1
        # every figure at once: its window's count in the integral image (as int() and // would)
        r = np.maximum(2, np.trunc(s.hand_reach * np.array([f.side_px for f in result.figures]) / k).astype(np.int64))
        c = np.trunc(np.array([f.center_px for f in result.figures], np.float64)).astype(np.int64) // k
        x0, y0 = np.maximum(c[:, 0] - r, 0), np.maximum(c[:, 1] - r, 0)
        x1, y1 = np.minimum(c[:, 0] + r + 1, w), np.minimum(c[:, 1] + r + 1, h)
        inside = (x1 > x0) & (y1 > y0)
        x0, y0, x1, y1 = (np.clip(v, 0, m) for v, m in ((x0, w), (y0, h), (x1, w), (y1, h)))
        n = I[y1, x1].astype(np.int64) - I[y0, x1] - I[y1, x0] + I[y0, x0]
        held = inside & (n > s.hand_share * (x1 - x0) * (y1 - y0))
        if not held.any():
            return result
        return replace(result, figures=tuple(replace(f, held=True) if hd else f
                                             for f, hd in zip(result.figures, held.tolist())))


@dataclass(frozen=True)
class _CapLook:
    """How a figure's marker looked when it last read: the grey patch (h, w) at ``origin`` (x, y)
    around it, masks (h, w) of its dark and light pixels in the whole marker and in its code cells
    alone (edges left out: they blur), and that reading."""

    detection: Detection
    seen: Seen
    frame: int
    origin: tuple[int, int]
    patch: np.ndarray
    dark: np.ndarray
    light: np.ndarray
    code_dark: np.ndarray
    code_light: np.ndarray
    light_level: float  # the median of its light pixels then (the exposure's reference)

    @classmethod
    def of(cls, gray: np.ndarray, d: Detection, seen: Seen, frame: int) -> "_CapLook | None":
        c = d.corners.astype(np.float64)
        x0, y0 = np.floor(c.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(c.max(axis=0)).astype(int) + 2
        if x0 < 0 or y0 < 0 or x1 > gray.shape[1] or y1 > gray.shape[0]:
            return None
        patch = gray[y0:y1, x0:x1].copy()
        centre = c.mean(axis=0)

        def mask(k: float) -> np.ndarray:
            m = np.zeros(patch.shape, np.uint8)
            quad = (centre + k * (c - centre) - [x0, y0]) * 16
            cv2.fillPoly(m, [np.round(quad).astype(np.int32).reshape(-1, 1, 2)], 1, shift=4)
            return m.astype(bool)
        whole, code = mask(0.85), mask(0.6)  # the marker without its blurred edge; its 4 x 4 code cells
        if whole.sum() < 12:
            return None
        values = np.sort(patch[whole])  # sorted once: the percentiles and the light pixels' median from it
        lo, hi = _sorted_quantile(values, 0.05), _sorted_quantile(values, 0.95)
        if hi - lo < 40:  # too little contrast to tell the cap from anything
            return None
        mid, margin = (lo + hi) / 2, 0.15 * (hi - lo)
        dark, light = patch < mid - margin, patch > mid + margin
        lights = values[values > mid + margin]  # patch[whole & light], sorted
        light_level = _sorted_median(lights) if len(lights) else 0.0
        return cls(d, seen, frame, (int(x0), int(y0)), patch, whole & dark, whole & light, code & dark, code & light,
                   light_level)

    def matches(self, gray: np.ndarray, share: float, grey: float) -> bool:
        """Whether the frame (H, W) still shows this look where it was: enough of its dark and of
        its light pixels within ``grey`` grey levels (after matching the brightness)."""
        x0, y0 = self.origin
        h, w = self.patch.shape
        now = gray[y0:y0 + h, x0:x0 + w]
        if now.shape != self.patch.shape:
            return False
        if not self.light_level or not self.dark.any():
            return False
        # the camera's exposure follows a hand coming into view: match the light pixels' level
        gain = float(np.clip(_sorted_median(np.sort(now[self.light])) / max(self.light_level, 1.0), 0.7, 1.3))
        same = cv2.absdiff(now.astype(np.float32), self.patch.astype(np.float32) * np.float32(gain)) < grey
        for m in (self.dark, self.light, self.code_dark, self.code_light):
            n = np.count_nonzero(m)
            if n >= 4 and np.count_nonzero(same[m]) / n < share:
                return False
        return True


def _sorted_quantile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, 100 * q)`` of sorted ``values`` (N,), N >= 1, to the last bit (its
    linear method, the same arithmetic), at a twentieth of its overhead on a cap's few pixels."""
    n = len(values)
    at = (n - 1) * q
    i = math.floor(at)
    if i >= n - 1:
        return float(values[-1])
    a, b = float(values[i]), float(values[i + 1])
    t, d = at - i, b - a
    return b - d * (1 - t) if t >= 0.5 else a + d * t


def _sorted_median(values: np.ndarray) -> float:
    """``np.median`` of sorted ``values`` (N,), N >= 1."""
    h = len(values) // 2
    return float(values[h]) if len(values) % 2 else (float(values[h - 1]) + float(values[h])) / 2


def _cells(grid: np.ndarray, rect: Rect, k: int) -> np.ndarray:
    """The part of a motion grid (every ``k``-th frame pixel) under ``rect`` (x0, y0, x1, y1,
    frame pixels); at least one cell where the rect starts inside the frame."""
    x0, y0, x1, y1 = rect
    return grid[max(y0 // k, 0):max(y1 // k, 1), max(x0 // k, 0):max(x1 // k, 1)]


def _shot(gray: np.ndarray, rect: Rect) -> tuple[Rect, np.ndarray]:
    """Every second pixel of ``rect`` (x0, y0, x1, y1) of the frame (H, W), clipped to it."""
    h, w = gray.shape
    x0, y0, x1, y1 = max(rect[0], 0), max(rect[1], 0), min(rect[2], w), min(rect[3], h)
    return (x0, y0, x1, y1), gray[y0:y1:2, x0:x1:2].copy()


def _changed(gray: np.ndarray, shot: tuple[Rect, np.ndarray], threshold: float) -> bool:
    """Whether the frame (H, W) differs from ``shot`` (:func:`_shot`) by more than ``threshold``
    grey levels at 1 % of its pixels or more (a reading's noise stays well under it)."""
    (x0, y0, x1, y1), was = shot
    now = gray[y0:y1:2, x0:x1:2]
    if now.shape != was.shape or not was.size:
        return True
    return int(np.count_nonzero(cv2.absdiff(now, was) > threshold)) * 100 >= was.size


def _drop_contained(rects: list[Rect]) -> list[Rect]:
    """Rectangles not inside another one. Overlaps stay: they go side by side into the detector's
    mosaic, and a marker found twice is merged; a union would search the empty space between."""
    rects = sorted({r for r in rects if r[2] > r[0] and r[3] > r[1]}, key=lambda r: (r[2] - r[0]) * (r[3] - r[1]),
                   reverse=True)
    kept: list[Rect] = []
    for r in rects:
        if not any(o[0] <= r[0] and o[1] <= r[1] and r[2] <= o[2] and r[3] <= o[3] for o in kept):
            kept.append(r)
    return kept


class NewestFrame:
    """A live source read in its own thread, keeping only the newest frame.

    A camera does not wait for the reader: when reading a frame takes longer than the camera's
    frame interval, the frames in between are dropped (``dropped`` counts them) instead of
    queueing, so what is read is never older than one frame plus the time to read it. A read
    error or the end of the source is handed on once (a frame not read by then is dropped)."""

    def __init__(self, source: FrameSource, halt: threading.Event | None = None):
        self.source = source
        self._halt = halt  # the owner stopping: a read waiting for a frame gives up
        self.name = getattr(source, "name", "camera")
        self.dropped = 0
        self._cond = threading.Condition()
        self._item: Frame | BaseException | None = None
        self._has = False
        self._stop = threading.Event()
        self._exited = False
        self._close_on_exit = False
        self._thread = threading.Thread(target=self._grab, name="touchline-camera-grab", daemon=True)
        self._thread.start()

    def _grab(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    item: Frame | BaseException | None = self.source.read()
                except Exception as exc:  # handed to the reader's thread, which decides what it means
                    item = exc
                with self._cond:
                    if self._has and isinstance(self._item, Frame):
                        self.dropped += 1
                    self._item, self._has = item, True
                    self._cond.notify()
                if not isinstance(item, Frame):
                    return
        finally:
            with self._cond:
                self._exited = True
                close = self._close_on_exit
            if close:
                self.source.close()

    def read(self, timeout: float = 0.1) -> Frame | None:
        """The newest frame not read yet (waits for one); None at the end or when stopped."""
        with self._cond:
            while not self._has:
                if not self._thread.is_alive() or self._stop.is_set() or (self._halt and self._halt.is_set()):
                    return None
                self._cond.wait(timeout)
            item, self._item, self._has = self._item, None, False
        if isinstance(item, BaseException):
            raise item
        return item

    def close(self, timeout: float = 1.0) -> None:
        """Stops grabbing and closes the source: at once, or, when a read is still under way
        after ``timeout``, as soon as it returns (a capture is never released under a read)."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout)
        with self._cond:
            if not self._exited:
                self._close_on_exit = True
                log.warning("%s: still reading after %g s; closed when the read returns", self.name, timeout)
                return
        self.source.close()


# How often (frames) a worker whose markers' sizes are only assumed measures the caps it reads
SIZE_CHECK_FRAMES = 15


class VisionWorker:
    """Runs a frame source through the reader and tracker in a daemon thread.

    Committed positions (:class:`Sighting`, :class:`BallSighting`) go on ``sightings``; health
    changes, recalibration requests and conflict notices on ``status``. Without a ``setup`` the
    worker calibrates from the corner markers first (``calibrate(frame) -> VisionSetup``). A source
    that fails (no camera, unplugged) makes health "lost" and is reopened every ``reconnect_s``.

    A live source (a camera: ``source.live`` is true, or ``newest_only=True``) is read through
    :class:`NewestFrame`, so a slow frame makes the worker skip frames rather than fall behind;
    files and rendered sequences are read frame by frame.

    :meth:`expect` hands the worker the rules' positions from any thread (the app calls it
    whenever the match's state changes); the tracker checks the ids it reads against them, and
    the reader looks again where a figure the rules have does not read."""

    def __init__(self, open_source: Callable[[], FrameSource], setup: VisionSetup | None = None,
                 calibrate: Callable[[np.ndarray], VisionSetup] | None = None,
                 tracker: TrackerSettings = TrackerSettings(), live: LiveSettings = LiveSettings(),
                 reconnect_s: float = 2.0, on_frame: Callable[[Frame, FrameResult | None], None] | None = None,
                 stop_at_end: bool = True, newest_only: bool | None = None):
        if setup is None and calibrate is None:
            raise ValueError("give a setup (a calibration) or a way to calibrate from a frame")
        self.sightings: queue.Queue = queue.Queue()
        self.status: queue.Queue = queue.Queue()
        self._open_source = open_source
        self._setup = setup
        self._calibrate = calibrate
        self._tracker_settings = tracker
        self._live = live
        self._reconnect_s = reconnect_s
        self._on_frame = on_frame
        self._stop_at_end = stop_at_end
        self._newest_only = newest_only
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._health = "ok"
        self.tracker: Tracker | None = None
        self._reader: LiveReader | None = None
        self.frames = 0
        self.seconds_processing = 0.0
        self.frames_dropped = 0
        self.finished = threading.Event()
        # the rules' positions: handed over from any thread, taken by the vision thread
        self._expect_lock = threading.Lock()
        self._expect_new: tuple | None = None
        self._standing: tuple = ()
        self._sizes_open = False

    @property
    def health(self) -> str:
        return self._health

    @property
    def setup(self) -> VisionSetup | None:
        """What frames are read with (None until the worker has calibrated itself)."""
        return self._setup

    def expect(self, standing) -> None:
        """Where the rules have the figures now (``Ruleset.standing(state)``: players and the
        rectangles of their squares or spaces, board mm), from any thread: the tracker takes
        the newest before its next frame and checks the ids it reads against them."""
        with self._expect_lock:
            self._expect_new = tuple(standing)

    def _take_expectations(self, fresh: bool = False) -> None:
        """On the vision thread: the newest positions handed over (all of them to a new tracker)."""
        with self._expect_lock:
            new, self._expect_new = self._expect_new, None
        if new is not None:
            self._standing = new
        if self.tracker is not None and self._setup is not None and (fresh or new is not None):
            expected = expectations(self._standing, self._setup.marker_map)
            self.tracker.expect(expected)
            if self._reader is not None:  # where to look again for a figure that does not read
                self._reader.expect(expected)

    def start(self) -> "VisionWorker":
        one_thread()  # OpenCV's pool (process-wide) only contends on a busy machine: see vision/threads.py
        self._thread = threading.Thread(target=self._run, name="touchline-vision", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _emit(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, HealthChange):
                self._health = e.health
            (self.sightings if isinstance(e, (Sighting, BallSighting)) else self.status).put(e)

    def _lost(self, reason: str) -> None:
        if self._health != "lost":
            log.warning("vision lost: %s", reason)
            self._health = "lost"
            self.status.put(HealthChange("lost", reason, time.monotonic()))
            if self.tracker is not None:
                self.tracker.set_health("lost", reason, time.monotonic())

    def _close(self, source: FrameSource | NewestFrame) -> None:
        if isinstance(source, NewestFrame):
            self.frames_dropped += source.dropped
        source.close()

    def _run(self) -> None:
        source: FrameSource | NewestFrame | None = None
        reader: LiveReader | None = None
        try:
            while not self._stop.is_set():
                if source is None:
                    try:
                        opened = self._open_source()
                        opened.open()
                    except SourceError as exc:
                        self._lost(f"{exc}; the match goes on by hand, retrying every {self._reconnect_s:g} s")
                        self._stop.wait(self._reconnect_s)
                        continue
                    newest = self._newest_only if self._newest_only is not None else getattr(opened, "live", False)
                    source = NewestFrame(opened, self._stop) if newest else opened
                try:
                    frame = source.read()
                except SourceError as exc:
                    self._close(source)
                    source = None
                    self._lost(f"{exc}; the match goes on by hand until the camera is back")
                    continue
                if frame is None:
                    if self._stop_at_end:
                        break
                    self._stop.wait(0.05)
                    continue
                if reader is None:
                    reader = self._make_reader(frame)
                    if reader is None:
                        if self._on_frame is not None:  # a preview still wants the frame
                            self._on_frame(frame, None)
                        continue
                self._take_expectations()
                started = time.perf_counter()
                result = reader.read(frame.image)
                if self._sizes_open and self.frames % SIZE_CHECK_FRAMES == 0:
                    reader = self._settle_sizes(result, frame.time_s) or reader
                events = self.tracker.update(result, frame.time_s)
                self.seconds_processing += time.perf_counter() - started
                self.frames += 1
                self._emit(events)
                if self._on_frame is not None:
                    self._on_frame(frame, result)
        except Exception:  # the app must hear about a crash rather than wait for sightings forever
            log.exception("vision thread failed")
            self._lost("the vision thread failed (see the log); the match goes on by hand")
        finally:
            if source is not None:
                self._close(source)
            self.finished.set()

    def _settle_sizes(self, result: FrameResult, t: float) -> LiveReader | None:
        """On the vision thread, while the markers' sizes are only assumed: the caps read in this
        frame measured; printed at another size, a new reader at the measured one (returned; the
        tracker keeps its figures) and a :class:`SizeNotice`. Settled once three caps agree."""
        setup = self._setup
        sizes = frame_sizes(setup, list(result.detections))
        if sizes.figure_mm is None:
            return None
        self._sizes_open = False
        ms = setup.markers
        if not other_print(ms.figure_marker_mm, sizes.figure_mm):
            return None
        ball = (ms.ball_marker_mm if setup.ball_size_known else sizes.ball_mm
                or round(ms.ball_marker_mm * sizes.figure_mm / ms.figure_marker_mm, 1))
        setup = replace(setup.with_sizes(MarkerSizes(sizes.figure_mm, sizes.figures, ball)),
                        ball_size_known=setup.ball_size_known or sizes.ball_mm is not None)
        self._setup = setup
        self._reader = LiveReader(setup, self._live)
        self._take_expectations(fresh=True)
        reason = (f"the caps' markers measure {sizes.figure_mm:g} mm across ({sizes.figures} caps), not the "
                  f"{ms.figure_marker_mm:g} mm of the shipped sheet: reading them at {sizes.figure_mm:g} mm "
                  f"(calibrate with the figures standing to keep it)")
        log.info("vision: %s", reason)
        self.status.put(SizeNotice(sizes.figure_mm, ball, reason, t))
        return self._reader

    def _make_reader(self, frame: Frame) -> LiveReader | None:
        setup = self._setup
        if setup is None:
            try:
                setup = self._calibrate(frame.image)
            except CalibrationError as exc:
                if self._health != "degraded":
                    self._health = "degraded"
                    self.status.put(HealthChange("degraded", f"calibrating: {exc}", frame.time_s))
                return None
            self._setup = setup
        if (frame.size[0], frame.size[1]) != setup.camera.size:
            self._lost(f"the camera gives {frame.size[0]}x{frame.size[1]} frames but the calibration is for "
                       f"{setup.camera.width}x{setup.camera.height}: set the camera's resolution or calibrate again")
            self._stop.set()
            return None
        monitor = CornerMonitor(setup.corner_px) if setup.corner_px else None
        self.tracker = Tracker(setup.board, self._tracker_settings, monitor)
        self._reader = LiveReader(setup, self._live)
        # sizes only assumed (a calibration of the empty board, no size given): measured on the
        # frames as soon as three caps read (vision.marker_size)
        self._sizes_open = setup.size_source == "assumed"
        self._take_expectations(fresh=True)
        self.tracker.set_health(self._health, "", frame.time_s)  # already reported; the tracker reports recovery
        return self._reader
