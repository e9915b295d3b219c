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
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.monitor import CornerMonitor

from .detect import Rect, detect, to_gray
from .errors import SourceError
from .locate import FrameResult, VisionSetup, locate
from .sighting import BallSighting, Event, HealthChange, Sighting
from .sources import Frame, FrameSource
from .tracker import Tracker, TrackerSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LiveSettings:
    """``window``: search this many marker sides around a known marker; ``bands``: the board is
    swept in this many bands, one per frame; ``motion_*``: change detection on a frame shrunk
    ``motion_scale`` times, grey-level threshold, and frames a changed area stays searched."""

    window: float = 1.6
    bands: int = 6
    motion_scale: int = 4
    motion_threshold: int = 18
    motion_linger: int = 4
    full_every: int = 0  # 0: never (bands cover the board); else a whole-frame search every N frames


@dataclass
class LiveReader:
    """Reads one frame after another with what the previous frames showed."""

    setup: VisionSetup
    settings: LiveSettings = LiveSettings()
    _prev_small: np.ndarray | None = None
    _known: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    _motion: list[tuple[Rect, int]] = field(default_factory=list)
    _frame: int = 0
    _board_rect: Rect | None = None

    def board_rect(self, size: tuple[int, int]) -> Rect:
        """The part of the frame holding the board, benches and corner markers."""
        if self._board_rect is None:
            from .synth import scene_extent_mm
            px = self.setup.camera.project(scene_extent_mm(self.setup.board, self.setup.markers))
            x0, y0 = np.floor(px.min(axis=0)).astype(int) - 20
            x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 20
            self._board_rect = (max(0, x0), max(0, y0), min(size[0], x1), min(size[1], y1))
        return self._board_rect

    def plan(self, gray: np.ndarray) -> list[Rect] | None:
        """Where to search this frame; None for the whole frame."""
        s = self.settings
        h, w = gray.shape
        small = cv2.resize(gray, (w // s.motion_scale, h // s.motion_scale), interpolation=cv2.INTER_AREA)
        prev, self._prev_small = self._prev_small, small
        self._frame += 1
        if prev is None or not self._known or (s.full_every and self._frame % s.full_every == 0):
            return None
        rects: list[Rect] = []
        for x, y, side in self._known.values():
            r = side * s.window + 4
            rects.append((int(x - r), int(y - r), int(x + r + 1), int(y + r + 1)))
        # what changed, and keeps being searched a few frames after it stops changing
        moving = cv2.absdiff(small, prev) > s.motion_threshold
        if moving.any():
            moving = cv2.dilate(moving.astype(np.uint8), np.ones((3, 3), np.uint8))
            n, _, stats, _ = cv2.connectedComponentsWithStats(moving, connectivity=8)
            pad = 24
            for x, y, bw, bh, _ in stats[1:n]:
                k = s.motion_scale
                self._motion.append(((x * k - pad, y * k - pad, (x + bw) * k + pad, (y + bh) * k + pad),
                                     self._frame + s.motion_linger))
        self._motion = [(r, until) for r, until in self._motion if until >= self._frame]
        rects += [r for r, _ in self._motion]
        bx0, by0, bx1, by1 = self.board_rect((w, h))
        band_h = (by1 - by0) / s.bands
        k = self._frame % s.bands
        overlap = 40
        rects.append((bx0, int(by0 + k * band_h - overlap), bx1, int(by0 + (k + 1) * band_h + overlap)))
        return _merge_rects(rects)

    def read(self, image: np.ndarray) -> FrameResult:
        """One frame (H, W, 3) or (H, W) uint8 -> what it shows."""
        gray = to_gray(image)
        rois = self.plan(gray)
        detections = detect(self.setup.detector, gray, rois)
        result = locate(self.setup, detections)
        self._known = {d.marker: (float(d.center[0]), float(d.center[1]), d.side_px) for d in detections}
        return result


def _merge_rects(rects: list[Rect]) -> list[Rect]:
    """Union overlapping rectangles until none overlap (fewer, larger windows)."""
    rects = [r for r in rects if r[2] > r[0] and r[3] > r[1]]
    merged = True
    while merged:
        merged = False
        out: list[Rect] = []
        for r in rects:
            for i, o in enumerate(out):
                if r[0] < o[2] and o[0] < r[2] and r[1] < o[3] and o[1] < r[3]:
                    out[i] = (min(r[0], o[0]), min(r[1], o[1]), max(r[2], o[2]), max(r[3], o[3]))
                    merged = True
                    break
            else:
                out.append(r)
        rects = out
    return rects


class VisionWorker:
    """Runs a frame source through the reader and tracker in a daemon thread.

    Committed positions (:class:`Sighting`, :class:`BallSighting`) go on ``sightings``; health
    changes, recalibration requests and conflict notices on ``status``. Without a ``setup`` the
    worker calibrates from the corner markers first (``calibrate(frame) -> VisionSetup``). A source
    that fails (no camera, unplugged) makes health "lost" and is reopened every ``reconnect_s``."""

    def __init__(self, open_source: Callable[[], FrameSource], setup: VisionSetup | None = None,
                 calibrate: Callable[[np.ndarray], VisionSetup] | None = None,
                 tracker: TrackerSettings = TrackerSettings(), live: LiveSettings = LiveSettings(),
                 reconnect_s: float = 2.0, on_frame: Callable[[Frame, FrameResult], None] | None = None,
                 stop_at_end: bool = True):
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
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._health = "ok"
        self.tracker: Tracker | None = None
        self.frames = 0
        self.seconds_processing = 0.0
        self.finished = threading.Event()

    @property
    def health(self) -> str:
        return self._health

    def start(self) -> "VisionWorker":
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

    def _run(self) -> None:
        source: FrameSource | None = None
        reader: LiveReader | None = None
        try:
            while not self._stop.is_set():
                if source is None:
                    try:
                        source = self._open_source()
                        source.open()
                    except SourceError as exc:
                        source = None
                        self._lost(f"{exc}; the match goes on by hand, retrying every {self._reconnect_s:g} s")
                        self._stop.wait(self._reconnect_s)
                        continue
                try:
                    frame = source.read()
                except SourceError as exc:
                    source.close()
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
                        continue
                started = time.perf_counter()
                result = reader.read(frame.image)
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
                source.close()
            self.finished.set()

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
        self.tracker.set_health(self._health, "", frame.time_s)  # already reported; the tracker reports recovery
        return LiveReader(setup, self._live)
