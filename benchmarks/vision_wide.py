"""A wider camera benchmark: results per condition, on scene seeds kept apart from the ones used
to tune.

    python benchmarks/vision_wide.py                  # evaluation seeds, the README's table
    python benchmarks/vision_wide.py --seeds tune     # the seeds the detector may be tuned on
    python benchmarks/vision_wide.py --quick          # a smoke run (3 frames a condition)
    python benchmarks/vision_wide.py --seeds tune --only ball --frames 300 --sequences 0
                                                      # the ball's larger tuning set; misses by seed
    python benchmarks/vision_wide.py --opencv-share   # also OpenCV's own calls inside ours, per condition

Seeds: every scene is drawn from ``random`` seeded with ``base + 1000 * condition + frame``;
``--seeds tune`` uses base 10,000 (look at these while changing the code), ``--seeds eval`` base
70,000 (run these to report, never to tune). The lenses are calibrated from rendered ChArUco
views of their own seed sets (``TUNE_LENS_SEED``, ``EVAL_LENS_SEED``).

Conditions (the shipped Fublet board, 1080p unless named; caps 25, 35 or 50 mm high, drawn per
scene and given to the reader as ``--marker-height-mm`` would; camera 60-100 cm up; two walls of
three touching caps; the ball on the pitch):

- ordinary: tilt up to 25 degrees, the benchmark's usual faults (blur 0.3-0.9 px), a hand in
  half the frames;
- blurred: blur sigma 0.8-1.4 px (focus and motion blur of a webcam);
- tilt 25-40 degrees;
- markers of 11, 10 and 9 mm on caps 3 mm larger (the ball token the same);
- one hand, two hands over the board in every frame;
- ball token 9.5 mm on a 12 mm token (figures as ordinary);
- near-vertical camera (tilt 8-13 degrees), no lens calibration (a distortion-free lens);
- 4K (3840x2160): ordinary scenes, and 9 mm markers; times against the default detector on the
  same scene at 1080p (the frame scaled down).

Each frame is calibrated as a person would: the lens once per camera from rendered ChArUco views,
the pitch from the corner markers of a frame of the empty board. Definitions as in
``vision_bench.py``: *visible* = the whole marker in view; a *false figure* is a reported figure
that is occluded (a quarter or more covered), absent, or more than 10 mm from where it stands;
*wrong square* = a visible figure reported in another square than its own. Times: CPU time of one
thread (``cv2.setNumThreads(1)``), ours (detect + locate, the whole frame), the same without the
rescue stage (``touchline vision locate --fast``) and OpenCV's default ``ArucoDetector`` (detect
only), interleaved on the same frames; with ``--opencv-share``, also the time inside OpenCV's
own functions in ours (:mod:`opencv_clock`; 1080p conditions): the floor under any rewrite of
the Python parts. The live part times OpenCV's default detector on each of its frames too.

The live part plays scripted sequences (moves, hovers, and figures held still in the air 25 mm
and 60 mm above the board for half a second before being put back) through the live reader and
tracker at 30 fps.
"""

from __future__ import annotations

import os

# one thread means numpy's too: a BLAS thread's time would not show in time.thread_time
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import math
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
from calibration.lens import LensCalibration  # noqa: E402
from vision.config import MarkerSet  # noqa: E402
from vision.detect import detect_default, to_gray  # noqa: E402
from vision.live import LiveReader  # noqa: E402
from vision.locate import VisionSetup, read_frame  # noqa: E402
from vision.scenario import Idle, Lift, Move, render_sequence  # noqa: E402
from vision.sighting import Sighting  # noqa: E402
from vision.synth import Scene, random_camera, random_figures, random_hand, random_look, render  # noqa: E402
from vision.tracker import Tracker  # noqa: E402
from opencv_clock import opencv_clock  # noqa: E402
from bench_figures import count, show, time_rows  # noqa: E402
from vision_bench import BOARD, _reframe, lens_pool, machine, truth_place  # noqa: E402

SEED_BASE = {"tune": 10_000, "eval": 70_000}
LENS_SEED = {"tune": 2026, "eval": 4711}
CAP_HEIGHTS = (25.0, 35.0, 50.0)


@dataclass(frozen=True)
class Condition:
    name: str
    size: tuple[int, int] = (1920, 1080)
    tilt: tuple[float, float] = (0.0, 25.0)
    blur: tuple[float, float] | None = None
    marker_mm: float = 17.0
    cap_mm: float = 20.0
    ball: tuple[float, float] | None = None  # ball marker and token mm (default: as the caps)
    hands: int | None = None  # None: one in half the frames
    lens: bool = True
    default_size: tuple[int, int] | None = None  # time the default detector on the scene at this size


CONDITIONS = (
    Condition("ordinary"),
    Condition("blurred (sigma 0.8-1.4 px)", blur=(0.8, 1.4)),
    Condition("tilt 25-40 degrees", tilt=(25.0, 40.0)),
    Condition("11 mm markers on 14 mm caps", marker_mm=11.0, cap_mm=14.0),
    Condition("10 mm markers on 13 mm caps", marker_mm=10.0, cap_mm=13.0),
    Condition("9 mm markers on 12 mm caps", marker_mm=9.0, cap_mm=12.0),
    Condition("one hand over the board", hands=1),
    Condition("two hands over the board", hands=2),
    Condition("ball token 9.5 mm on 12 mm", ball=(9.5, 12.0)),
    Condition("near-vertical (tilt 8-13), no lens calibration", tilt=(8.0, 13.0), lens=False),
    Condition("4K, ordinary", size=(3840, 2160), default_size=(1920, 1080)),
    Condition("4K, 9 mm markers on 12 mm caps", size=(3840, 2160), marker_mm=9.0, cap_mm=12.0,
              default_size=(1920, 1080)),
)


@dataclass
class Row:
    frames: int = 0
    calibration_failures: int = 0
    visible: int = 0
    right: int = 0
    wrong: int = 0
    false: int = 0
    ball_visible: int = 0
    ball_right: int = 0
    errors: list[float] = field(default_factory=list)
    ours_ms: list[float] = field(default_factory=list)
    default_ms: list[float] = field(default_factory=list)
    fast_ms: list[float] = field(default_factory=list)
    opencv_ms: list[float] = field(default_factory=list)  # OpenCV's own calls inside ours (--opencv-share)
    first_ms: list[float] = field(default_factory=list)  # a camera's first frame: its views and tables built
    first_default_ms: list[float] = field(default_factory=list)
    missed_px: list[float] = field(default_factory=list)
    sides: list[float] = field(default_factory=list)
    warnings: int = 0
    ball_missed: list[str] = field(default_factory=list)  # "seed (marker side px)" per visible ball not read

    def report(self) -> dict:
        e = np.array(self.errors or [np.nan])
        ratio = float(np.median(self.ours_ms) / np.median(self.default_ms)) if self.ours_ms else float("nan")
        return {"frames": self.frames, "calibration failures": self.calibration_failures,
                "visible figures": self.visible, "right square": self.right / max(self.visible, 1),
                "wrong square": self.wrong, "false figures": self.false,
                "ball": f"{self.ball_right} of {self.ball_visible}",
                "position error mm (median, p99)": [round(float(np.median(e)), 2), round(float(np.percentile(e, 99)), 2)],
                "marker side px (p5, median)": [round(float(np.percentile(self.sides, q)), 1) for q in (5, 50)]
                if self.sides else None,
                "missed, marker side px (median, max)": [round(float(np.median(self.missed_px)), 1),
                                                         round(float(max(self.missed_px)), 1)] if self.missed_px else None,
                "ours ms median": round(float(np.median(self.ours_ms)), 2) if self.ours_ms else None,
                "default ms median": round(float(np.median(self.default_ms)), 2) if self.default_ms else None,
                "time ratio ours/default": round(ratio, 3),
                **time_rows(self.ours_ms, self.default_ms),
                **time_rows(self.first_ms, self.first_default_ms, "a camera's first frame:"),
                "time ratio, plane search alone (--fast)/default": round(float(np.median(self.fast_ms) / np.median(
                    self.default_ms)), 3) if self.fast_ms else None,
                **({"time ratio, OpenCV's own calls inside ours/default": round(float(
                    np.median(self.opencv_ms) / np.median(self.default_ms)), 3)} if self.opencv_ms else {}),
                "size warnings (caps not placed as lifted or tipped)": self.warnings,
                "balls missed: seed (side px)": ", ".join(self.ball_missed) or None}


def scaled_lens(lens: LensCalibration, k: float) -> LensCalibration:
    """The same lens at k times the resolution (distortion is in normalized coordinates)."""
    return replace(lens, width=round(lens.width * k), height=round(lens.height * k), fx=lens.fx * k, fy=lens.fy * k,
                   cx=(lens.cx + 0.5) * k - 0.5, cy=(lens.cy + 0.5) * k - 0.5)


def scene_for(cond: Condition, seed: int, lenses: list) -> tuple[Scene, LensCalibration | None, MarkerSet]:
    rng = np.random.default_rng(seed)
    ball_mm, token_mm = cond.ball or (cond.marker_mm, cond.cap_mm)
    markers = MarkerSet(figure_marker_mm=cond.marker_mm, cap_mm=cond.cap_mm, ball_marker_mm=ball_mm,
                        ball_token_mm=token_mm, cap_height_mm=float(rng.choice(CAP_HEIGHTS)))
    lo, hi = cond.tilt
    base = (1920, 1080)
    if cond.lens:
        intr, lens = lenses[int(rng.integers(len(lenses)))]
        pose = random_camera(rng, BOARD, markers, size=base, distortion=0.0, max_tilt_deg=hi, min_tilt_deg=lo)
        cam = _reframe(replace(pose, fx=intr.fx, fy=intr.fy, cx=intr.cx, cy=intr.cy, dist=intr.dist), pose)
    else:
        cam, lens = random_camera(rng, BOARD, markers, size=base, distortion=0.0, max_tilt_deg=hi, min_tilt_deg=lo), None
    if cond.size != base:
        k = cond.size[0] / base[0]
        cam = replace(cam, width=cond.size[0], height=cond.size[1], fx=cam.fx * k, fy=cam.fy * k,
                      cx=(cam.cx + 0.5) * k - 0.5, cy=(cam.cy + 0.5) * k - 0.5)
        lens = scaled_lens(lens, k) if lens is not None else None
    figs = random_figures(rng, BOARD, markers, walls=2)
    n_hands = (1 if rng.random() < 0.5 else 0) if cond.hands is None else cond.hands
    hands = tuple(random_hand(rng, BOARD) for _ in range(n_hands))
    look = random_look(rng)
    if cond.blur:
        look = replace(look, blur_sigma=float(rng.uniform(*cond.blur)))
    if cond.size != base:  # the same optics at twice the pixels: blur and glare scale with them
        look = replace(look, blur_sigma=look.blur_sigma * cond.size[0] / base[0])
    return Scene(cam, BOARD, markers, figs, hands, look), lens, markers


def run_condition(cond: Condition, n: int, base_seed: int, lenses: list, row: Row, opencv_share: bool = False,
                  size_unknown: bool = False) -> None:
    for i in range(n):
        scene, lens, markers = scene_for(cond, base_seed + i, lenses)
        empty, _ = render(replace(scene, figures=(), hands=(), look=replace(scene.look, glare_gain=0.0)))
        # --size-unknown: the reader is told the caps' height only, as 'touchline vision locate'
        # without --marker-mm; the empty board's calibration measures no cap, so each frame's
        # read measures them itself (vision.marker_size)
        given = MarkerSet(cap_height_mm=markers.cap_height_mm) if size_unknown else markers
        try:
            cal = calibrate_from_frame(empty, BOARD, given, lens)
        except CalibrationError:
            row.calibration_failures += 1
            continue
        setup = VisionSetup.from_calibration(cal, BOARD, markers=given,
                                             size_source="assumed" if size_unknown else "given")
        image, truth = render(scene)
        gray = to_gray(image)
        small = cv2.resize(gray, cond.default_size, interpolation=cv2.INTER_AREA) if cond.default_size else gray
        fast = replace(setup, rescue=None)  # touchline vision locate --fast: the plane search alone
        runs = {"ours": lambda: read_frame(setup, gray), "default": lambda: detect_default(small),
                "fast": lambda: read_frame(fast, gray)}
        out, spent = {}, {k: 0.0 for k in runs}
        for k in runs:
            t0 = time.thread_time()
            out[k] = runs[k]()
            if k != "fast":  # a camera's first frame: the plane view, the rescue's views, templates
                (row.first_ms if k == "ours" else row.first_default_ms).append(1000 * (time.thread_time() - t0))
        for k in list(runs) + list(reversed(runs)):
            t0 = time.thread_time()
            runs[k]()
            spent[k] += (time.thread_time() - t0) / 2
        if opencv_share and not cond.default_size:  # (4K: its search's detectMarkers is not counted)
            with opencv_clock() as inside:
                runs["ours"]()
            row.opencv_ms.append(1000 * inside[0])
        row.frames += 1
        row.ours_ms.append(1000 * spent["ours"])
        row.default_ms.append(1000 * spent["default"])
        row.fast_ms.append(1000 * spent["fast"])
        missed = row.ball_visible - row.ball_right
        score(out["ours"], truth, markers, row)
        if row.ball_visible - row.ball_right > missed:
            row.ball_missed.append(f"{base_seed + i} ({truth[markers.ball_id].side_px:.1f})")


def score(result, truth: dict, markers: MarkerSet, row: Row) -> None:
    seen = {s.marker: s for s in result.figures}
    if result.ball is not None:
        seen[result.ball.marker] = result.ball
    row.warnings += sum("lifted or tipped" in w for w in result.warnings)
    for marker, t in truth.items():
        if marker in markers.corners.ids or not t.seen:
            continue
        s = seen.get(marker)
        ok = s is not None and (s.square, s.area) == truth_place(t.x_mm, t.y_mm)
        if marker == markers.ball_id:
            row.ball_visible += 1
            row.ball_right += ok
            continue
        row.visible += 1
        row.sides.append(t.side_px)
        if s is None:
            row.missed_px.append(t.side_px)
            continue
        row.errors.append(math.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm))
        row.right += ok
        row.wrong += not ok
    for marker, s in seen.items():
        t = truth.get(marker)
        if t is None or t.hidden or math.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm) > 10.0:
            row.false += 1


# --- live ----------------------------------------------------------------------------------------

@dataclass
class LiveRow:
    sequences: int = 0
    frames: int = 0
    moves: int = 0
    moves_right: int = 0
    false_moves: int = 0
    holds: dict = field(default_factory=dict)  # lift mm -> [held, committed mid-air]
    ms: list[float] = field(default_factory=list)
    default_ms: list[float] = field(default_factory=list)  # OpenCV's default detector on the same frames
    false_detail: list[str] = field(default_factory=list)
    first_ms: list[float] = field(default_factory=list)  # each sequence's first frame: no prior positions
    first_default_ms: list[float] = field(default_factory=list)

    def report(self) -> dict:
        ms = np.array(self.ms or [np.nan])
        default = np.array(self.default_ms or [np.nan])
        return {"sequences": self.sequences, "frames": self.frames,
                "moves committed to the right square": f"{self.moves_right} of {self.moves}",
                "moves that did not happen": self.false_moves, "which": self.false_detail,
                **{f"held still {k:g} mm above the board for 0.5 s: committed mid-air": f"{v[1]} of {v[0]}"
                   for k, v in sorted(self.holds.items())},
                "ms per frame (median, p95)": [round(float(np.median(ms)), 2), round(float(np.percentile(ms, 95)), 2)],
                "default detector ms per frame, the same frames (median)": round(float(np.median(default)), 2),
                "time ratio ours/default (medians)": round(float(np.median(ms) / np.median(default)), 3),
                **time_rows(self.ms, self.default_ms),
                **time_rows(self.first_ms, self.first_default_ms, "a camera's first frame:")}


def run_live(n: int, base_seed: int, lenses: list, row: LiveRow, holds: tuple[float, ...] = (25.0, 60.0)) -> None:
    for k in range(n):
        seed = base_seed + 500 + k
        rng = np.random.default_rng(seed)
        scene, lens, markers = scene_for(Condition("live", hands=0), seed, lenses)
        scene = replace(scene, look=random_look(rng, 0.8))
        cal = calibrate_from_frame(render(replace(scene, figures=()))[0], BOARD, markers, lens)
        setup = VisionSetup.from_calibration(cal, BOARD, markers=markers)
        figs = [f for f in scene.figures if not f.ball and BOARD.mm_to_ms(f.x_mm, f.y_mm) is not None]
        picks = rng.choice(len(figs), size=2 + len(holds), replace=False)
        taken = {BOARD.mm_to_ms(f.x_mm, f.y_mm) for f in scene.figures}
        script: list = [Idle(10)]
        hold_of: dict[int, float] = {}
        for j, lift in enumerate(holds):
            f = figs[int(picks[j])]
            script += [Lift(f.marker, lift, hold_frames=15), Idle(8)]
            hold_of[f.marker] = lift
        for j in range(2):
            f = figs[int(picks[len(holds) + j])]
            sq = BOARD.mm_to_ms(f.x_mm, f.y_mm)
            dest = next(d for d in ((sq[0] + dx, sq[1] + dy) for dx in (3, -3, 4, -4) for dy in (2, -2, 0))
                        if 0 < d[0] < BOARD.ms_cols - 1 and 0 < d[1] < BOARD.ms_rows - 1 and d not in taken)
            taken.add(dest)
            x, y = BOARD.ms_center_mm(dest)
            script += [Move(f.marker, x, y, float(rng.uniform(0, 360))), Idle(10)]
        reader, tracker = LiveReader(setup), Tracker(BOARD)
        committed: list[Sighting] = []
        moved: list = []
        first = True
        aloft: dict[int, list[float]] = {}  # held marker -> times it was off the board
        for image, t, truth, marker_truth in render_sequence(scene, script, seed=seed):
            for m in hold_of:
                if marker_truth[m].z_mm > markers.cap_height_mm + 1.0:
                    aloft.setdefault(m, []).append(t)
            gray = to_gray(image)
            t0 = time.thread_time()
            events = tracker.update(reader.read(gray), t)
            ours = 1000 * (time.thread_time() - t0)
            t0 = time.thread_time()
            detect_default(gray)
            theirs = 1000 * (time.thread_time() - t0)
            (row.first_ms if first else row.ms).append(ours)
            (row.first_default_ms if first else row.default_ms).append(theirs)
            first = False
            row.frames += 1
            if t > 0.3:
                committed += [e for e in events if isinstance(e, Sighting)]
            if truth is not None:
                moved.append(truth)
        row.sequences += 1
        start = {f.marker: f for f in scene.figures}
        for marker, lift in hold_of.items():
            got = row.holds.setdefault(lift, [0, 0])
            got[0] += 1
            f = start[marker]
            # put back where it stood: a sighting of it while it was off the board (or a frame
            # after), or away from where it stands, was the figure in the air
            t0, t1 = min(aloft[marker]), max(aloft[marker]) + 1.5 / 30
            got[1] += any(e.marker == marker and (t0 <= e.time_s <= t1 or math.hypot(e.x_mm - f.x_mm, e.y_mm - f.y_mm) > 3.0)
                          for e in committed)
        for tr in moved:
            row.moves += 1
            got = [e for e in committed if e.marker == tr.marker and e.time_s >= tr.down_s]
            if got and (got[0].square, got[0].area) == truth_place(tr.x_mm, tr.y_mm):
                row.moves_right += 1
        movers = {tr.marker for tr in moved}
        for e in committed:
            if e.marker not in movers and e.marker not in hold_of:
                f = start[e.marker]
                row.false_moves += 1
                row.false_detail.append(f"seed {seed}: marker {e.marker} at {e.time_s:.2f} s, "
                                        f"{math.hypot(e.x_mm - f.x_mm, e.y_mm - f.y_mm):.1f} mm from where it stands")
        for m in movers:
            row.false_moves += max(0, sum(e.marker == m for e in committed) - sum(tr.marker == m for tr in moved))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=count(0, 1000), default=16, help="frames per condition (default 16; 0 "
                        "leaves the single frames out; at most 1000: each condition's seeds are 1000 apart)")
    parser.add_argument("--sequences", type=count(0, 500), default=4, help="live sequences (default 4)")
    parser.add_argument("--seeds", choices=("tune", "eval"), default="eval")
    parser.add_argument("--only", help="run only the conditions whose name contains this")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--size-unknown", action="store_true",
                        help="read without the markers' printed sizes (only the caps' height), as 'touchline "
                             "vision locate' without --marker-mm: each frame measures them itself")
    parser.add_argument("--opencv-share", action="store_true",
                        help="also time OpenCV's own calls inside ours (1080p conditions): the floor under "
                             "any rewrite of the Python parts")
    args = parser.parse_args()
    if args.quick:
        args.frames, args.sequences = 3, 1
    chosen = [c.name for c in CONDITIONS if not args.only or any(o in c.name for o in args.only.split(","))]
    if args.only and not chosen and "live" not in args.only.split(","):
        parser.error(f"--only {args.only!r} names no condition; the conditions are: "
                     + "; ".join(c.name for c in CONDITIONS) + "; and live")
    cv2.setNumThreads(1)
    report: dict = {"machine": machine(), "seeds": args.seeds, "sizes": "measured on each frame" if
                    args.size_unknown else "given"}
    print(f"# wide vision benchmark, {args.seeds} seeds, {report['machine']}", flush=True)
    lenses = lens_pool(2 if args.quick else 4, (1920, 1080), LENS_SEED[args.seeds])
    base = SEED_BASE[args.seeds]
    for k, cond in enumerate(CONDITIONS):
        if not args.frames or args.only and not any(o in cond.name for o in args.only.split(",")):
            continue
        row = Row()
        run_condition(cond, args.frames, base + 1000 * k, lenses, row, args.opencv_share, args.size_unknown)
        report[cond.name] = row.report()
        print(f"\n## {cond.name}", flush=True)
        for key, v in report[cond.name].items():
            print(f"- {key}: {show(v)}", flush=True)
    if args.sequences and (not args.only or "live" in args.only.split(",")):
        lr = LiveRow()
        run_live(args.sequences, base, lenses, lr)
        report["live"] = lr.report()
        print("\n## live, 1080p, 30 fps", flush=True)
        for key, v in report["live"].items():
            print(f"- {key}: {v}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=float) + "\n")


if __name__ == "__main__":
    main()
