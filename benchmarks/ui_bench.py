"""Benchmarks of the tablet app (each in a fresh process, headless: SDL's offscreen window and
Mesa's software OpenGL on this machine):

- cold start to the first frame (goal <= 3 s), five runs;
- the UI's frame rate while the vision thread reads 1080p frames (goal >= 30 fps), with the
  pitch redrawn every frame;
- a figure set down on the rendered table (frames paced at 30 fps) to the first screen frame
  showing it on its new square (goal <= 300 ms).

    python benchmarks/ui_bench.py [--runs 5]
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


def child(mode: str) -> dict:
    out = Path(tempfile.mkdtemp()) / "result.json"
    env = dict(os.environ, TOUCHLINE_BENCH_T0=repr(time.time()), KIVY_WINDOW="sdl2")
    proc = subprocess.run([sys.executable, str(CHILD), mode, str(out)], env=env, capture_output=True, text=True,
                          timeout=300)
    if not out.exists():
        raise SystemExit(f"{mode} failed:\n{proc.stderr[-3000:]}")
    return json.loads(out.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    starts = [child("start")["cold_start_s"] for _ in range(args.runs)]
    fps = child("fps")
    lat = child("latency")["latency_ms"]
    rows = [
        ("cold start to first frame", f"{statistics.median(starts):.2f} s", f"{max(starts):.2f} s (max)", "<= 3 s"),
        ("UI frame rate while vision reads 1080p frames", f"{fps['ui_fps']:.0f} fps",
         f"{fps['ui_frame_p95_ms']:.0f} ms (p95 frame)", ">= 30 fps"),
        ("  vision meanwhile", f"{fps['vision_ms_per_frame']:.1f} ms a frame", f"{fps['vision_frames']} frames", "-"),
        ("figure set down -> on screen (30 fps camera)", f"{statistics.median(lat):.0f} ms" if lat else "none",
         f"{max(lat):.0f} ms (max)" if lat else "-", "<= 300 ms"),
    ]
    print("| measure | median | spread | goal |\n|---|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\nstarts: {[round(s, 2) for s in starts]}; latencies (ms): {lat}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
