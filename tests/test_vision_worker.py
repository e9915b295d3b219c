"""The vision thread and the frame sources: nothing waits on the thread, a camera that is missing
or unplugged makes health "lost" and is reopened when it returns, files are named in errors."""

from __future__ import annotations

import queue
import threading
import time

import cv2
import numpy as np
import pytest

from calibration.corners import calibrate_from_frame
from vision.config import MarkerSet
from vision.detect import detect, to_gray
from vision.errors import SourceError
from vision.live import NewestFrame, VisionWorker
from vision.locate import VisionSetup, read_frame
from vision.sighting import HealthChange, Sighting
from vision.sources import Frame, ImageFolderSource, VideoFileSource, read_image, source_for
from vision.synth import compact_board, random_scene, render

BOARD = compact_board()
HANG = 120.0  # seconds: only a guard against hangs, never reached when the worker does its job
MARKERS = MarkerSet()


@pytest.fixture(scope="module")
def still():
    scene = random_scene(41, BOARD, MARKERS, size=(640, 480), hand=False, distortion=0.0, look_strength=0.4, figures=5)
    image, truth = render(scene)
    setup = VisionSetup.from_calibration(calibrate_from_frame(image, BOARD, MARKERS), BOARD, markers=MARKERS)
    return image, truth, setup


class FlakySource:
    """A camera that is missing at first, then sends ``good`` frames, then is unplugged, then is back."""

    opened = 0

    def __init__(self, image: np.ndarray, script: list[str]):
        self.image, self.script, self.name = image, script, "flaky camera"
        self.t = 0.0

    def open(self) -> None:
        FlakySource.opened += 1
        if self.script and self.script[0] == "missing":
            self.script.pop(0)
            raise SourceError("flaky camera: no camera there")

    def read(self) -> Frame | None:
        if not self.script:
            return None
        step = self.script.pop(0)
        if step == "unplug":
            raise SourceError("flaky camera: stopped sending frames (unplugged?)")
        self.t += 1 / 30
        return Frame(self.image, self.t, int(self.t * 30), self.name)

    def close(self) -> None:
        pass


def drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def test_lost_then_back_then_unplugged_then_back(still):
    image, truth, setup = still
    script = ["missing"] + ["frame"] * 10 + ["unplug", "missing"] + ["frame"] * 10
    shared = FlakySource(image, script)
    worker = VisionWorker(lambda: shared, setup, reconnect_s=0.01).start()
    assert worker.finished.wait(HANG)
    health = [e.health for e in drain(worker.status) if isinstance(e, HealthChange)]
    assert health == ["lost", "ok", "lost", "ok"]
    sightings = drain(worker.sightings)
    # every figure committed once, and not again after the reconnection: nothing moved
    markers = [s.marker for s in sightings if isinstance(s, Sighting)]
    assert sorted(markers) == sorted(set(markers))
    # what a single frame reads (the search and the rescue stage, which the live reader runs too)
    found = {f.marker for f in read_frame(setup, to_gray(image)).figures}
    assert set(markers) == found


class Burst:
    """A camera that sends ``n`` frames at once, then waits for ``release`` and is unplugged."""

    live = True

    def __init__(self, image: np.ndarray, n: int):
        self.image, self.n, self.name = image, n, "burst camera"
        self.served = 0
        self.waiting, self.release = threading.Event(), threading.Event()

    def open(self) -> None:
        pass

    def read(self) -> Frame:
        if self.served == self.n:
            self.waiting.set()
            self.release.wait(10)
            raise SourceError("burst camera: stopped sending frames (unplugged?)")
        self.served += 1
        return Frame(self.image, self.served / 30, self.served - 1, self.name)

    def close(self) -> None:
        pass


def test_a_live_source_hands_over_only_its_newest_frame(still):
    camera = Burst(still[0], 10)
    newest = NewestFrame(camera)
    assert camera.waiting.wait(HANG)  # all ten frames came while nobody read
    frame = newest.read()
    assert frame.index == 9 and newest.dropped == 9
    camera.release.set()
    with pytest.raises(SourceError, match="unplugged"):
        newest.read()
    assert newest.read() is None  # nothing more comes after the error
    newest.close()


class FastCamera:
    """A camera sending ``n`` frames 5 ms apart (its own clock), faster than they are read."""

    live = True

    def __init__(self, image: np.ndarray, n: int):
        self.image, self.n, self.name = image, n, "fast camera"
        self.served = 0
        self.closed = False

    def open(self) -> None:
        pass

    def read(self) -> Frame | None:
        if self.served == self.n:
            return None
        time.sleep(0.005)
        self.served += 1
        return Frame(self.image, self.served * 0.005, self.served - 1, self.name)

    def close(self) -> None:
        self.closed = True


def test_the_worker_skips_the_frames_it_cannot_keep_up_with_and_still_commits_each_figure(still):
    image, _, setup = still
    camera = FastCamera(image, 400)
    worker = VisionWorker(lambda: camera, setup).start()
    assert worker.finished.wait(HANG)
    assert worker.frames + worker.frames_dropped == 400 and camera.closed
    markers = [s.marker for s in drain(worker.sightings) if isinstance(s, Sighting)]
    found = {d.marker for d in detect(setup.detector, to_gray(image))}
    assert sorted(markers) == sorted(set(markers)) and found & set(MARKERS.figure_ids) <= set(markers)


def test_the_worker_calibrates_itself_and_waits_for_the_corner_markers(still):
    image, truth, _ = still
    blank = np.full_like(image, 90)
    frames = [blank] * 3 + [image] * 8

    class Source:
        name = "s"

        def __init__(self):
            self.i = 0

        def open(self):
            pass

        def read(self):
            if self.i >= len(frames):
                return None
            self.i += 1
            return Frame(frames[self.i - 1], self.i / 30, self.i, "s")

        def close(self):
            pass

    def calibrate(img):
        return VisionSetup.from_calibration(calibrate_from_frame(img, BOARD, MARKERS), BOARD, markers=MARKERS)

    worker = VisionWorker(Source, None, calibrate).start()
    assert worker.finished.wait(HANG)
    status = drain(worker.status)
    assert status[0].health == "degraded" and "corner markers 40" in status[0].reason
    assert [e.health for e in status if isinstance(e, HealthChange)][-1] == "ok"
    assert drain(worker.sightings)


def test_a_frame_of_another_size_than_the_calibration_is_lost_with_the_reason(still):
    image, _, setup = still
    small = cv2.resize(image, (320, 240))

    class Source:
        name = "s"

        def open(self):
            pass

        def read(self):
            return Frame(small, 0.0, 0, "s")

        def close(self):
            pass

    worker = VisionWorker(Source, setup).start()
    assert worker.finished.wait(HANG)
    (event,) = drain(worker.status)
    assert event.health == "lost" and "320x240 frames but the calibration is for 640x480" in event.reason


class SilentCamera:
    """A camera that opens and then never sends a frame."""

    live = True
    name = "silent camera"

    def __init__(self):
        self.closed = threading.Event()
        self.release = threading.Event()

    def open(self) -> None:
        pass

    def read(self) -> Frame:
        self.release.wait(HANG)
        raise SourceError("silent camera: stopped")

    def close(self) -> None:
        self.closed.set()


def test_stopping_the_worker_never_waits_for_a_silent_camera():
    camera = SilentCamera()
    worker = VisionWorker(lambda: camera, setup=replace_setup(), stop_at_end=False).start()
    worker.stop(timeout=HANG / 2)   # the camera stays silent for HANG: a stop that waited on it times out
    assert worker.finished.is_set()
    camera.release.set()  # the grabbing thread ends when the camera does; only then is it closed
    assert camera.closed.wait(HANG)


def test_stopping_the_worker_never_blocks():
    worker = VisionWorker(lambda: source_for("/dev/video98"), setup=replace_setup(), reconnect_s=10 * HANG).start()
    lost = worker.status.get(timeout=HANG)   # it is waiting to reopen the missing camera
    assert lost.health == "lost"
    worker.stop(timeout=HANG)   # a stop that waited for the next reopen would time out unfinished
    assert worker.finished.is_set() and worker.health == "lost"


def replace_setup() -> VisionSetup:
    scene = random_scene(42, BOARD, MARKERS, size=(640, 480), hand=False, distortion=0.0, figures=1)
    return VisionSetup(scene.camera, BOARD)


def test_sources_read_folders_and_videos_and_name_bad_files(tmp_path, still):
    image = still[0]
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i}.png"), image)
    (folder / "notes.txt").write_text("ignored")
    src = ImageFolderSource(folder, fps=10)
    src.open()
    frames = [src.read() for _ in range(4)]
    assert [f.time_s for f in frames[:3]] == [0.0, 0.1, 0.2] and frames[3] is None
    video = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (640, 480))
    if not writer.isOpened():
        pytest.skip("this OpenCV build writes no MJPG video")
    for _ in range(4):
        writer.write(image)
    writer.release()
    vs = source_for(str(video))
    assert isinstance(vs, VideoFileSource)
    vs.open()
    got = [vs.read() for _ in range(5)]
    assert [round(f.time_s, 3) for f in got[:4]] == [0.0, 0.04, 0.08, 0.12] and got[4] is None
    bad = tmp_path / "bad.avi"
    bad.write_bytes(b"nonsense")
    with pytest.raises(SourceError, match="bad.avi: cannot be opened as a video"):
        source_for(str(bad)).open()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="empty: holds no images"):
        ImageFolderSource(empty).open()
    with pytest.raises(SourceError, match="is a single image"):
        source_for(str(folder / "0.png"))
    with pytest.raises(SourceError, match="notes.txt: cannot be read as an image"):
        read_image(folder / "notes.txt")


def test_the_rules_positions_handed_to_the_worker_reach_its_tracker(still):
    """The rules have a figure that is not on the table (marker 15) in the square where another
    one stands: that one is held back, then, read there steadily, taken with a doubt."""
    from companion.sightings import Standing

    image, truth, setup = still
    figs = [t for t in truth.values() if t.marker in MARKERS.figure_ids and BOARD.on_pitch(t.x_mm, t.y_mm)]
    other = figs[0]
    assert 15 not in truth
    col, row = BOARD.mm_to_ms(other.x_mm, other.y_mm)
    w, h = BOARD.ms_size_mm
    ghost = setup.marker_map.get(15).player
    worker = VisionWorker(lambda: FlakySource(image, ["good"] * 150), setup)
    worker.expect([Standing(ghost, col * w, row * h, (col + 1) * w, (row + 1) * h)])
    worker.start()
    assert worker.finished.wait(60)
    by_marker = {s.marker: s for s in drain(worker.sightings) if isinstance(s, Sighting)}
    assert "the rules have" in by_marker[other.marker].doubt and by_marker[other.marker].time_s > 3.0
    assert all(not s.doubt for m, s in by_marker.items() if m != other.marker) and len(by_marker) >= 3


def test_a_worker_reading_at_an_assumed_size_measures_the_caps_and_says_so():
    """Issue 31: calibrated on the empty board (no cap to measure) and given no size, the worker
    measures the caps it reads, switches to their printed size (11 mm, not the sheet's 17) and
    tells the coach; the figures are then committed where they stand."""
    from vision.sighting import SizeNotice
    from vision.sources import IterSource

    eleven = MarkerSet(figure_marker_mm=11.0, cap_mm=14.0, ball_marker_mm=11.0, ball_token_mm=14.0)
    scene = random_scene(43, BOARD, eleven, size=(1280, 720), hand=False, distortion=0.0, look_strength=0.4,
                         figures=6)
    image, truth = render(scene)
    from dataclasses import replace
    empty, _ = render(replace(scene, figures=()))
    cal = calibrate_from_frame(empty, BOARD, MARKERS)
    setup = VisionSetup.from_calibration(cal, BOARD, markers=MARKERS, size_source="assumed")
    frames = ((image, i / 30) for i in range(40))
    worker = VisionWorker(lambda: IterSource(frames, "eleven"), setup).start()
    worker.join(HANG)
    notes = []
    while not worker.status.empty():
        notes.append(worker.status.get_nowait())
    said = [n for n in notes if isinstance(n, SizeNotice)]
    assert len(said) == 1 and abs(said[0].figure_mm - 11.0) <= 0.5 and "not the 17 mm" in said[0].reason
    assert abs(worker.setup.markers.figure_marker_mm - 11.0) <= 0.5
    committed = set()
    while not worker.sightings.empty():
        s = worker.sightings.get_nowait()
        if isinstance(s, Sighting):
            committed.add(s.marker)
    visible = {m for m, t in truth.items() if t.seen and m in eleven.figure_ids}
    assert len(committed & visible) >= len(visible) - 1 and committed <= visible
