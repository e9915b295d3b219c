"""Benchmarks of the tablet app (each in a fresh process, headless: SDL's offscreen window and
Mesa's software OpenGL on this machine):

- cold start to the first frame (goal <= 3 s), five runs;
- the UI's frame rate while the vision thread reads 1080p frames (goal >= 30 fps), with the
  pitch redrawn every frame, and the same UI without vision (what the drawing alone allows);
- a figure set down on the rendered table (frames paced at 30 fps, read newest first as from a
  camera) to the first screen frame showing it on its new square (goal <= 300 ms), split into
  stages.

The frame rate and the latency are measured twice: with Kivy's loop never sleeping
(``maxfps = 0``, the UI drawing as often as it can and spinning between frames) and with the
app's own setting (Kivy's default, ``maxfps = 60``).

    python benchmarks/ui_bench.py [--runs 5] [--latency-runs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = Path(__file__).with_name("ui_bench_child.py")
STAGES = (("commit_frame_due", "set down -> the frame the tracker commits on is due (hand leaving, 150 ms still)"),
          ("out_of_vision", "-> that frame read, sighting out of the vision thread"),
          ("posted", "-> controller: rules, journal fsync, view posted"),
          ("shown", "-> on screen: Clock trigger, pitch redraw, flip"))


def child(mode: str, maxfps: str) -> dict:
    out = Path(tempfile.mkdtemp()) / "result.json"
    env = dict(os.environ, TOUCHLINE_BENCH_T0=repr(time.time()), KIVY_WINDOW="sdl2", TOUCHLINE_BENCH_MAXFPS=maxfps)
    proc = subprocess.run([sys.executable, str(CHILD), mode, str(out)], env=env, capture_output=True, text=True,
                          timeout=300)
    if not out.exists():
        raise SystemExit(f"{mode} failed:\n{proc.stderr[-3000:]}")
    return json.loads(out.read_text())


def latency(maxfps: str, runs: int) -> tuple[list[float], list[dict], dict]:
    lat, stages, last = [], [], {}
    for _ in range(runs):
        last = child("latency", maxfps)
        lat += last["latency_ms"]
        stages += [s for s in last["stages_ms"] if len(s) == len(STAGES)]
    return lat, stages, last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--latency-runs", type=int, default=2, help="8 moves a run")
    args = parser.parse_args()
    starts = [child("start", "60")["cold_start_s"] for _ in range(args.runs)]
    rows = [("cold start to first frame", f"{statistics.median(starts):.2f} s", f"{max(starts):.2f} s (max)",
             "<= 3 s")]
    details = [f"starts: {[round(s, 2) for s in starts]}"]
    for maxfps, label in (("0", "maxfps 0"), ("60", "maxfps 60, the app's")):
        fps = child("fps", maxfps)
        rows += [(f"UI frame rate while vision reads 1080p frames ({label}, {fps['figures_drawn']} figures)",
                  f"{fps['ui_fps']:.0f} fps", f"{fps['ui_frame_p95_ms']:.0f} ms (p95 frame), "
                  f"{fps['ui_frame_max_ms']:.0f} ms (max)", ">= 30 fps"),
                 ("  vision meanwhile", f"{fps['vision_ms_per_frame']:.1f} ms a frame",
                  f"{fps['vision_fps']:.1f} frames/s read", "-")]
        alone = child("fps-alone", maxfps)
        rows.append((f"  the same UI without vision ({label})", f"{alone['ui_fps']:.0f} fps",
                     f"{alone['ui_frame_p95_ms']:.0f} ms (p95 frame), {alone['ui_frame_max_ms']:.0f} ms (max)", "-"))
    for maxfps, label in (("60", "maxfps 60, the app's"), ("0", "maxfps 0")):
        lat, stages, last = latency(maxfps, args.latency_runs)
        moves = last.get("moves", 0) * args.latency_runs
        rows.append((f"figure set down -> on screen, 30 fps camera ({label})",
                     f"{statistics.median(lat):.0f} ms" if lat else "none",
                     f"{max(lat):.0f} ms (max); {len(lat)} of {moves} moves" if lat else "-", "<= 300 ms"))
        prev = "0"
        for key, text in STAGES:
            if stages:
                step = [s[key] - (s[prev] if prev != "0" else 0.0) for s in stages]
                rows.append((f"  {text}", f"{statistics.median(step):.0f} ms", f"{max(step):.0f} ms (max)", "-"))
            prev = key
        rows.append(("  vision meanwhile", f"{last['vision_ms_per_frame']:.1f} ms a frame",
                     f"{last['frames_dropped']} of {last['vision_frames'] + last['frames_dropped']} frames skipped",
                     "-"))
        details.append(f"latencies ({label}, ms): {lat}")
    print("| measure | median | spread | goal |\n|---|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("\n" + "\n".join(details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
