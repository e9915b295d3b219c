"""The camera's pose without a lens calibration, on rendered scenes whose true camera is known.

    python benchmarks/vision_pose.py            # the README's figures (a few minutes)
    python benchmarks/vision_pose.py --quick    # a smoke run

Part 1, the pose: for each tilt band, scenes of the shipped board seen by a distortion-free
camera 60-100 cm up whose principal point lies up to 1.5 % of the frame from its centre (as
``vision.synth.random_camera`` draws it), calibrated from the corner markers with no lens
calibration: once on a frame of the empty board, once on a frame with the figures standing (caps
25, 35 or 50 mm high, a hand over the board in half the frames). Reported: the focal length's
error (per cent) and the camera height's (mm), median / 90th percentile / worst.

Part 2, the squares: near-vertical cameras (tilt 8-13 degrees), 50 mm caps, no lens calibration,
two walls of touching caps; the pitch calibrated on the empty board, or on the frame itself;
right square / wrong square / position error of the visible figures, as in ``vision_wide.py``.

Seeds 300,000 and up: never used while the estimator was written (that used 5,000 and 90,000).
"""

from __future__ import annotations

import os

# one thread: numpy's BLAS and OpenCV's pools would only contend with the other programs here
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration.corners import calibrate_from_frame  # noqa: E402
from calibration.errors import CalibrationError  # noqa: E402
from vision.config import MarkerSet  # noqa: E402
from vision.detect import to_gray  # noqa: E402
from vision.locate import VisionSetup, read_frame  # noqa: E402
from vision.synth import Scene, random_camera, random_figures, random_hand, random_look, render  # noqa: E402
from vision_bench import BOARD, machine, truth_place  # noqa: E402
from bench_figures import count  # noqa: E402

SEED = 300_000
TILTS = ((0.0, 5.0), (5.0, 8.0), (8.0, 13.0), (13.0, 20.0), (20.0, 30.0), (30.0, 40.0))
CAP_HEIGHTS = (25.0, 35.0, 50.0)


def scene(seed: int, tilt: tuple[float, float], cap_mm: float | None = None) -> Scene:
    rng = np.random.default_rng(seed)
    markers = MarkerSet(cap_height_mm=float(cap_mm if cap_mm is not None else rng.choice(CAP_HEIGHTS)))
    cam = random_camera(rng, BOARD, markers, distortion=0.0, min_tilt_deg=tilt[0], max_tilt_deg=tilt[1])
    figs = random_figures(rng, BOARD, markers, walls=2)
    hands = (random_hand(rng, BOARD),) if rng.random() < 0.5 else ()
    return Scene(cam, BOARD, markers, figs, hands, random_look(rng))


def stats(values: list[float]) -> list[float]:
    a = np.abs(np.array(values or [np.nan]))
    return [round(float(np.median(a)), 1), round(float(np.percentile(a, 90)), 1), round(float(a.max()), 1)]


def pose_part(n: int) -> dict:
    out = {}
    for k, tilt in enumerate(TILTS):
        rows = {"empty board": ([], [], []), "figures standing": ([], [], [])}
        for i in range(n):
            sc = scene(SEED + 1000 * k + i, tilt)
            empty = render(replace(sc, figures=(), hands=(), look=replace(sc.look, glare_gain=0.0)))[0]
            for name, image in (("empty board", empty), ("figures standing", render(sc)[0])):
                try:
                    cal = calibrate_from_frame(image, BOARD, sc.markers)
                except CalibrationError:
                    continue
                f, h, src = rows[name]
                f.append(100 * (cal.camera.fx / sc.camera.fx - 1))
                h.append(cal.camera.center_mm[2] - sc.camera.center_mm[2])
                src.append(cal.focal_source)
        out[f"tilt {tilt[0]:g}-{tilt[1]:g}"] = {
            name: {"scenes": len(f), "focal error % (median, p90, max)": stats(f),
                   "height error mm (median, p90, max)": stats(h),
                   "focal from": {s: src.count(s) for s in sorted(set(src))}}
            for name, (f, h, src) in rows.items()}
    return out


def squares_part(n: int, tilt: tuple[float, float] = (8.0, 13.0), cap_mm: float = 50.0) -> dict:
    out = {}
    for name in ("calibrated on the empty board", "calibrated on the frame itself"):
        visible = right = wrong = 0
        errors: list[float] = []
        for i in range(n):
            sc = scene(SEED + 50_000 + i, tilt, cap_mm)
            image, truth = render(sc)
            calib_image = image if "itself" in name else render(
                replace(sc, figures=(), hands=(), look=replace(sc.look, glare_gain=0.0)))[0]
            try:
                cal = calibrate_from_frame(calib_image, BOARD, sc.markers)
            except CalibrationError:
                continue
            setup = VisionSetup.from_calibration(cal, BOARD, markers=sc.markers)
            result = read_frame(setup, to_gray(image))
            seen = {s.marker: s for s in result.figures}
            for marker, t in truth.items():
                if marker not in sc.markers.figure_ids or not t.seen:
                    continue
                visible += 1
                s = seen.get(marker)
                if s is None:
                    continue
                errors.append(math.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm))
                if (s.square, s.area) == truth_place(t.x_mm, t.y_mm):
                    right += 1
                else:
                    wrong += 1
        e = np.array(errors or [np.nan])
        out[name] = {"visible figures": visible, "right square": round(right / max(visible, 1), 4),
                     "wrong square": wrong,
                     "position error mm (median, p99, max)": [round(float(np.median(e)), 2),
                                                              round(float(np.percentile(e, 99)), 2),
                                                              round(float(e.max()), 2)]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=count(0, 1000), default=24, help="scenes per tilt band (default 24)")
    parser.add_argument("--frames", type=count(0, 1000), default=24, help="near-vertical frames for the squares (default 24)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.quick:
        args.scenes, args.frames = 3, 3
    cv2.setNumThreads(1)
    print(f"# camera pose without a lens calibration, {machine()}", flush=True)
    report = {"machine": machine(), "pose": pose_part(args.scenes)}
    for band, rows in report["pose"].items():
        for name, row in rows.items():
            print(f"{band:10} {name:17} " + "; ".join(f"{k}: {v}" for k, v in row.items()), flush=True)
    report["near-vertical, 50 mm caps"] = squares_part(args.frames)
    for name, row in report["near-vertical, 50 mm caps"].items():
        print(f"tilt 8-13, 50 mm caps, {name}: " + "; ".join(f"{k}: {v}" for k, v in row.items()), flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
