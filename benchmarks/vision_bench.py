"""Camera benchmark on rendered frames: detection, squares, positions and time, against plain
OpenCV; then live tracking of scripted moves and hovers.

    python benchmarks/vision_bench.py              # the README's figures (about ten minutes)
    python benchmarks/vision_bench.py --quick      # a smoke run

Single frames: random scenes of the shipped Fublet board (camera 60-100 cm up, tilt up to 25
degrees, barrel distortion, uneven light, glare, blur, noise, JPEG, a hand over the board in
half of them; two walls of three figures whose caps touch in every scene). Each scene is
calibrated as a person would: the lens once per camera from
rendered ChArUco views (``calibrate_lens``), the pitch from the corner markers of a frame of the
empty board (before the figures are set up). Times are CPU time of one thread (``cv2.setNumThreads(1)``, ``time.thread_time``, so other
programs on the machine do not count), ours (detect + locate) and OpenCV's default
``ArucoDetector`` (detect only) on the same grey frames, interleaved.

Definitions: a figure is *visible* when its whole marker is in view (none of it covered), and
*occluded* when at least a quarter of it is covered; a *false figure* is a reported figure that is
occluded, absent, or more than 10 mm from where it stands. "Right square" counts visible figures
reported in their movement square (or, off the pitch, in their named area).
"""

from __future__ import annotations

import os

# one thread means numpy's too: a BLAS thread's time would not show in time.thread_time
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import math
import platform
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration.corners import calibrate_from_frame  # noqa: E402
from calibration.errors import CalibrationError  # noqa: E402
from calibration.lens import CharucoSpec, LensCalibration, calibrate_lens, find_charuco  # noqa: E402
from companion.fublet.components import load_board  # noqa: E402
from vision.config import MarkerSet  # noqa: E402
from vision.detect import detect_default, to_gray  # noqa: E402
from vision.live import LiveReader  # noqa: E402
from vision.locate import OFF_PITCH, VisionSetup, read_frame  # noqa: E402
from vision.scenario import random_script, render_sequence  # noqa: E402
from vision.synth import random_camera, random_figures, random_hand, random_look, render, render_charuco  # noqa: E402
from vision.synth import Scene  # noqa: E402
from vision.tracker import Tracker  # noqa: E402
from bench_figures import count, median, quantiles, ratio, show, time_rows  # noqa: E402
from vision.sighting import Sighting  # noqa: E402

BOARD = load_board()
MARKERS = MarkerSet()
WALLS = 2  # rows of three figures shoulder to shoulder in every scene, as in a defensive wall


@dataclass
class Tally:
    visible: int = 0
    detected: int = 0
    right_square: int = 0
    false_figures: int = 0
    occluded_reported: int = 0
    occluded: int = 0
    errors: list[float] = field(default_factory=list)
    ours_ms: list[float] = field(default_factory=list)
    default_ms: list[float] = field(default_factory=list)
    one_pass_ms: list[float] = field(default_factory=list)
    one_pass_right: int = 0
    default_detected: int = 0
    default_plane_right: int = 0
    sides: list[float] = field(default_factory=list)
    calibration_failures: list[str] = field(default_factory=list)
    missed_sides: list[float] = field(default_factory=list)

    def _share_from(self, px: float) -> str:
        n = sum(1 for v in self.sides if v >= px)
        missed = sum(1 for v in self.missed_sides if v >= px)
        return f"{n - missed} of {n}"

    def _share_below(self, px: float) -> str:
        n = sum(1 for v in self.sides if v < px)
        missed = sum(1 for v in self.missed_sides if v < px)
        return f"{n - missed} of {n}"

    def rows(self) -> dict:
        e = self.errors
        return {
            "frames": len(self.ours_ms), "scenes whose pitch calibration failed": len(self.calibration_failures),
            "visible figures": self.visible,
            "detection rate": self.detected / max(self.visible, 1),
            "right square": self.right_square / max(self.visible, 1),
            "false figures": self.false_figures,
            "occluded figures reported": f"{self.occluded_reported} of {self.occluded}",
            "position error median mm": median(e), "position error p99 mm": (quantiles(e, (99,)) or [None])[0],
            "ours ms median": median(self.ours_ms), "default ms median": median(self.default_ms),
            "time ratio ours/default": ratio(self.ours_ms, self.default_ms),
            **time_rows(self.ours_ms, self.default_ms),
            "thorough (a second window around the caps): right square": self.one_pass_right / max(self.visible, 1),
            "thorough: ms median": median(self.one_pass_ms),
            "thorough: time ratio to default": ratio(self.one_pass_ms, self.default_ms),
            "default detection rate": self.default_detected / max(self.visible, 1),
            "default + board-plane homography right square": self.default_plane_right / max(self.visible, 1),
            "marker side px (p5, median, p95)": quantiles(self.sides, (5, 50, 95), 1),
            "right square, markers of 17 px and more": self._share_from(17.0),
            "right square, markers under 17 px": self._share_below(17.0),
            "missed marker side px (max)": round(max(self.missed_sides), 1) if self.missed_sides else None,
        }


def truth_place(x: float, y: float):
    sq = BOARD.mm_to_ms(x, y)
    return (sq, None) if sq is not None else (None, BOARD.off_pitch_area(x, y) or OFF_PITCH)


def lens_pool(n: int, size: tuple[int, int], seed: int) -> list[tuple[object, LensCalibration]]:
    """n cameras (intrinsics and distortion), each calibrated from 12 rendered ChArUco views."""
    rng = np.random.default_rng(seed)
    out = []
    spec = CharucoSpec()
    for _ in range(n):
        cam = random_camera(rng, BOARD, MARKERS, size=size, distortion=0.1)
        views = [v for v in (find_charuco(spec, to_gray(render_charuco(cam, spec, rng))) for _ in range(12)) if v]
        out.append((cam, calibrate_lens(views, size)))
    return out


def single_frames(n: int, size: tuple[int, int], seed: int, lenses: list | None, tally: Tally) -> None:
    rng = np.random.default_rng(seed)
    for i in range(n):
        if lenses:
            intr, lens = lenses[i % len(lenses)]
            pose = random_camera(rng, BOARD, MARKERS, size=size, distortion=0.0)
            cam = replace(pose, fx=intr.fx, fy=intr.fy, cx=intr.cx, cy=intr.cy, dist=intr.dist)
            cam = _reframe(cam, pose)
        else:
            cam, lens = random_camera(rng, BOARD, MARKERS, size=size, distortion=0.0), None
        figs = random_figures(rng, BOARD, MARKERS, walls=WALLS)
        hands = (random_hand(rng, BOARD),) if rng.random() < 0.5 else ()
        scene = Scene(cam, BOARD, MARKERS, figs, hands, random_look(rng))
        empty, _ = render(replace(scene, figures=(), hands=(), look=random_look(rng, 0.5)))
        try:
            cal = calibrate_from_frame(empty, BOARD, MARKERS, lens)
        except CalibrationError as exc:
            tally.calibration_failures.append(str(exc))
            continue
        setup = VisionSetup.from_calibration(cal, BOARD, markers=MARKERS)
        image, truth = render(scene)
        gray = to_gray(image)
        thorough = VisionSetup.from_calibration(cal, BOARD, True, markers=MARKERS)
        # one thread, same frame: each method once to warm the caches, then in turns (A B C C B A)
        # so neither always runs first after the renderer has churned memory
        runs = {"ours": lambda: read_frame(setup, gray), "default": lambda: detect_default(gray),
                "one": lambda: read_frame(thorough, gray)}
        out, spent = {}, {k: 0.0 for k in runs}
        for k in runs:
            out[k] = runs[k]()
        for k in list(runs) + list(reversed(runs)):
            t0 = time.thread_time()
            runs[k]()
            spent[k] += (time.thread_time() - t0) / 2
        tally.ours_ms.append(1000 * spent["ours"])
        tally.default_ms.append(1000 * spent["default"])
        tally.one_pass_ms.append(1000 * spent["one"])
        tally.one_pass_right += sum(1 for s in out["one"].figures + ((out["one"].ball,) if out["one"].ball else ())
                                    if truth.get(s.marker) is not None and truth[s.marker].seen
                                    and (s.square, s.area) == truth_place(truth[s.marker].x_mm, truth[s.marker].y_mm))
        score(setup, out["ours"], out["default"], truth, tally)


def _reframe(cam, pose):
    """Keep the camera's orientation but slide it along its axis until the board, benches and
    corner markers fill the frame (as a person sets a camera up): 4 % margin on the tight side."""
    from vision.locate import board_extent_mm

    extent = board_extent_mm(BOARD, MARKERS)
    axis, start = cam.R[2], cam.center_mm

    def overflow(d: float) -> float:
        c = start + axis * d
        trial = cam.with_pose(cam.rvec, tuple(-cam.R @ c))
        if np.any(trial.depth(extent) <= 0):
            return 1.0
        px = trial.project(extent)
        size = np.array(cam.size, float)
        return float(max((0.04 * size - px.min(axis=0)).max(), (px.max(axis=0) - 0.96 * size).max()))

    lo, hi = -2000.0, 600.0  # back (room to fit) .. forward (too close)
    for _ in range(40):
        mid = (lo + hi) / 2
        if overflow(mid) > 0:
            hi = mid
        else:
            lo = mid
    c = start + axis * lo
    return cam.with_pose(cam.rvec, tuple(-cam.R @ c))


def score(setup: VisionSetup, result, default, truth: dict, tally: Tally) -> None:
    seen = {s.marker: s for s in result.figures}
    if result.ball is not None:
        seen[result.ball.marker] = result.ball
    default_ids = {d.marker: d for d in detect_default_filter(default)}
    for marker, t in truth.items():
        if marker in MARKERS.corners.ids:
            continue
        if t.seen:
            tally.visible += 1
            tally.sides.append(t.side_px)
            if marker in default_ids:
                tally.default_detected += 1
                d = default_ids[marker]
                flat = setup.camera.to_plane(d.corners.reshape(-1, 2), 0.0).mean(axis=0)  # no parallax correction
                if truth_place(*flat) == truth_place(t.x_mm, t.y_mm):
                    tally.default_plane_right += 1
            if marker in seen:
                s = seen[marker]
                tally.detected += 1
                tally.errors.append(math.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm))
                sq, area = truth_place(t.x_mm, t.y_mm)
                if s.square == sq and s.area == area:
                    tally.right_square += 1
            else:
                tally.missed_sides.append(t.side_px)
        if t.hidden:
            tally.occluded += 1
            if marker in seen:
                tally.occluded_reported += 1
    for marker, s in seen.items():
        t = truth.get(marker)
        if t is None or t.hidden or math.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm) > 10.0:
            tally.false_figures += 1


def detect_default_filter(dets):
    return [d for d in dets if sum(e.marker == d.marker for e in dets) == 1]


@dataclass
class LiveTally:
    frames: int = 0
    ms: list[float] = field(default_factory=list)
    default_ms: list[float] = field(default_factory=list)  # OpenCV's default detector on the same frames
    moves: int = 0
    committed_right: int = 0
    latencies: list[float] = field(default_factory=list)
    visible_latencies: list[float] = field(default_factory=list)
    false_moves: int = 0
    hover_frames: int = 0
    first_ms: list[float] = field(default_factory=list)  # each sequence's first frame: no prior positions
    first_default_ms: list[float] = field(default_factory=list)

    def rows(self) -> dict:
        ms = self.ms
        lat = [1000 * v for v in self.latencies]
        vis = [1000 * v for v in self.visible_latencies]
        return {"frames": self.frames, "ms per frame median": median(ms), "ms p95": (quantiles(ms, (95,)) or [None])[0],
                "ms mean": round(float(np.mean(ms)), 2) if ms else None,
                "share of frames within 10 ms": round(float(np.mean(np.array(ms) <= 10.0)), 3) if ms else None,
                "default detector ms per frame, the same frames (median)": median(self.default_ms),
                "time ratio ours/default (medians)": ratio(ms, self.default_ms),
                **time_rows(ms, self.default_ms),
                **time_rows(self.first_ms, self.first_default_ms, "a camera's first frame:"),
                "moves": self.moves, "moves committed to the right square": self.committed_right,
                "commit latency after set-down ms (median, max)": [median(lat), max(lat) if lat else None],
                "commit latency after the marker is first fully visible ms (median, max)":
                    [median(vis), max(vis) if vis else None],
                "moves that did not happen": self.false_moves}


def live(sequences: int, size: tuple[int, int], seed: int, lenses: list, tally: LiveTally) -> None:
    for k in range(sequences):
        rng = np.random.default_rng(seed + k)
        intr, lens = lenses[k % len(lenses)]
        pose = random_camera(rng, BOARD, MARKERS, size=size, distortion=0.0)
        cam = _reframe(replace(pose, fx=intr.fx, fy=intr.fy, cx=intr.cx, cy=intr.cy, dist=intr.dist), pose)
        scene = Scene(cam, BOARD, MARKERS, random_figures(rng, BOARD, MARKERS), (), random_look(rng, 0.8))
        cal = calibrate_from_frame(render(replace(scene, figures=()))[0], BOARD, MARKERS, lens)
        setup = VisionSetup.from_calibration(cal, BOARD, markers=MARKERS)
        script = random_script(rng, scene, moves=5, hovers=3)
        reader, tracker = LiveReader(setup), Tracker(BOARD)
        committed: list[Sighting] = []
        truths = []
        moved_markers = set()
        started = False
        for image, t, truth, marker_truth in render_sequence(scene, script, seed=seed + k):
            gray = to_gray(image)
            t0 = time.thread_time()
            events = tracker.update(reader.read(gray), t)
            dt = time.thread_time() - t0
            # the first frame searches the whole frame once (no prior positions): kept apart
            t0 = time.thread_time()
            detect_default(gray)
            (tally.ms if started else tally.first_ms).append(1000 * dt)
            (tally.default_ms if started else tally.first_default_ms).append(1000 * (time.thread_time() - t0))
            started = True
            tally.frames += 1
            if t > 0.5:  # after the first half second everything initial is committed
                committed += [e for e in events if isinstance(e, Sighting)]
            if truth is not None:
                truths.append(truth)
                moved_markers.add(truth.marker)
            for i, tr in enumerate(truths):  # the first frame showing the set-down figure's whole marker
                if tr.visible_s is None and marker_truth[tr.marker].seen:
                    truths[i] = replace(tr, visible_s=t)
        for tr in truths:
            tally.moves += 1
            got = [e for e in committed if e.marker == tr.marker and e.time_s >= tr.down_s]
            if got:
                sq, area = truth_place(tr.x_mm, tr.y_mm)
                tally.committed_right += int(got[0].square == sq and got[0].area == area)
                tally.latencies.append(got[0].time_s - tr.down_s)
                if tr.visible_s is not None:
                    tally.visible_latencies.append(got[0].time_s - tr.visible_s)
        # a sighting of a figure that was never moved, or more sightings than moves of a figure
        for marker in {e.marker for e in committed}:
            n_moves = sum(tr.marker == marker for tr in truths)
            tally.false_moves += max(0, sum(e.marker == marker for e in committed) - n_moves)


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os
    return (f"{os.cpu_count()} CPUs ({cpu}), {platform.system()} {platform.release()}, Python {platform.python_version()}, "
            f"OpenCV {cv2.__version__}, numpy {np.__version__}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=count(0, 10_000), default=60, help="single 1080p frames (default 60; "
                        "0 leaves the single frames out)")
    parser.add_argument("--frames-720", type=count(0, 10_000), default=30, help="single 720p frames (default 30)")
    parser.add_argument("--sequences", type=count(0, 1000), default=3, help="live sequences at 1080p (default 3)")
    parser.add_argument("--lenses", type=count(1, 100), default=6, help="distinct cameras, each lens-calibrated "
                        "(default 6)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="a few frames, to see that it runs")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.quick:
        args.frames, args.frames_720, args.sequences, args.lenses = 4, 2, 1, 2
    cv2.setNumThreads(1)
    report: dict = {"machine": machine()}
    print(f"# vision benchmark, {report['machine']}", flush=True)
    lenses = lens_pool(args.lenses, (1920, 1080), args.seed)
    lenses720 = lens_pool(max(1, args.lenses // 2), (1280, 720), args.seed + 1) if args.frames_720 else []
    for name, n, size, pool in (("1080p, lens calibrated", args.frames, (1920, 1080), lenses),
                                ("1080p, no lens calibration (distortion-free lens)", args.frames and max(args.frames // 3, 2),
                                 (1920, 1080), None),
                                ("720p, lens calibrated", args.frames_720, (1280, 720), lenses720)):
        if not n:
            continue
        tally = Tally()
        single_frames(n, size, args.seed + n + size[1], pool, tally)
        report[name] = tally.rows()
        print(f"\n## single frames, {name}", flush=True)
        for k, v in report[name].items():
            print(f"- {k}: {show(v)}", flush=True)
    if args.sequences:
        lt = LiveTally()
        live(args.sequences, (1920, 1080), args.seed + 7, lenses, lt)
        report["live 1080p"] = lt.rows()
        print("\n## live tracking, 1080p, 30 fps", flush=True)
        for k, v in report["live 1080p"].items():
            print(f"- {k}: {show(v)}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=float) + "\n")


if __name__ == "__main__":
    main()
