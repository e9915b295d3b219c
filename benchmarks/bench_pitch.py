"""The live screen's board against a bare Kivy window, same renderer, same run (issue 32, item 1).

    .venv/bin/python benchmarks/bench_pitch.py [--seconds 6] [--rounds 3] [--size 1280x800]

Each round runs two child processes one after the other, each for ``--seconds``:

- ``pitch``: a window filled by the app's PitchView with Fublet's printed board (every
  movement square, line and label) and 22 figures, every figure moved to another square
  every frame (the worst case: a real match moves one or two figures at a time);
- ``bare``: a bare Kivy window drawing 22 circles moved every frame;
- ``picture``: the same, over one window-sized still picture (a texture drawn once): what
  showing any board costs at the least, where filling the window's pixels is the work (a
  software renderer such as Mesa's llvmpipe);
- ``flat``: the same over one window-sized flat colour (nothing sampled from a picture): what
  a board drawn as flat shapes would cost at the least.

Each child counts the frames the window flipped (Kivy's ``maxfps`` 0: as fast as it can) and,
for ``pitch``, the Python time spent redrawing the figures (``time.thread_time`` around the
property set that triggers it). The report gives each round's frame rates, their ratio
(pitch / bare) and the figures' Python time per frame (median and p95).

Run a child alone with ``--child pitch|bare OUT.json``; with ``--screenshot PNG`` the pitch
child saves a picture of its last frame. ``--board-draws`` is printed: how often the printed
board itself was drawn (once, at the first size).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = 22


def child(kind: str, out: Path, seconds: float, size: str, screenshot: str | None) -> None:
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    os.environ["KIVY_WINDOW"] = "sdl2"
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
    sys.path.insert(0, str(ROOT))
    w, h = (int(v) for v in size.split("x"))
    from kivy.config import Config

    Config.set("graphics", "maxfps", "0")
    Config.set("graphics", "width", str(w))
    Config.set("graphics", "height", str(h))
    import time

    from kivy.base import EventLoop, runTouchApp, stopTouchApp
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.graphics import Color, Ellipse
    from kivy.uix.widget import Widget

    rng = random.Random(32)
    flips: list[float] = []
    python_s: list[float] = []
    result: dict = {"kind": kind}

    if kind == "pitch":
        from companion.fublet.components import load_board
        from companion.teams import PlayerRef, Team
        from ui.looks.base import Figure
        from ui.looks.fublet import geometry_of
        from ui.widgets.pitch import PitchView

        board = load_board()
        cells = [(x, y) for x in range(board.ms_cols) for y in range(board.ms_rows)]
        refs = [PlayerRef(team, n) for team in (Team.HOME, Team.AWAY) for n in range(1, 12)]
        root = PitchView()
        root.geometry = geometry_of(board)

        def step(_dt) -> None:
            figures = [Figure(ref, cell) for ref, cell in zip(refs, rng.sample(cells, FIGURES))]
            t0 = time.thread_time()
            root.figures = figures
            python_s.append(time.thread_time() - t0)
    else:
        root = Widget()
        with root.canvas:
            if kind == "picture":   # a window-sized picture under the circles: any board's least cost
                from kivy.graphics import Rectangle
                from kivy.graphics.texture import Texture
                picture = Texture.create(size=(w, h), colorfmt="rgb")
                picture.blit_buffer(rng.randbytes(w * h * 3), colorfmt="rgb",
                                    bufferfmt="ubyte")
                Color(1, 1, 1, 1)
                Rectangle(texture=picture, pos=(0, 0), size=(w, h))
            elif kind == "flat":   # a window-sized flat colour (no picture sampled) under the circles
                from kivy.graphics import Rectangle
                Color(0.2, 0.5, 0.25, 1)
                Rectangle(pos=(0, 0), size=(w, h))
            Color(0.8, 0.2, 0.2, 1)
            dots = [Ellipse(size=(30, 30)) for _ in range(FIGURES)]

        def step(_dt) -> None:
            for dot in dots:
                dot.pos = (rng.uniform(0, Window.width - 30), rng.uniform(0, Window.height - 30))

    def flipped(*_args) -> None:
        flips.append(time.perf_counter())

    def finish(_dt) -> None:
        Clock.unschedule(step)
        if kind == "pitch":
            result["board_draws"] = getattr(root, "board_draws", "-")
            result["sprites_made"] = getattr(root, "sprites_made", "-")
            if screenshot:
                Window.screenshot(name=screenshot)
        stopTouchApp()

    def start(_dt) -> None:
        flips.clear()
        python_s.clear()
        Clock.schedule_interval(step, 0)
        Clock.schedule_once(finish, seconds)

    Window.bind(on_flip=flipped)
    Clock.schedule_once(start, 1.0)   # past the first frames (the window's setup)
    runTouchApp(root)
    EventLoop.close()
    span = flips[-1] - flips[0] if len(flips) > 1 else 0.0
    result["fps"] = (len(flips) - 1) / span if span else 0.0
    result["frames"] = len(flips)
    if python_s:
        ordered = sorted(python_s)
        result["python_ms_median"] = 1000 * statistics.median(ordered)
        result["python_ms_p95"] = 1000 * ordered[int(0.95 * (len(ordered) - 1))]
    out.write_text(json.dumps(result))


def run_child(kind: str, seconds: float, size: str, code: Path = ROOT) -> dict:
    """One child; ``code`` is the checkout whose PitchView it draws (this benchmark's own
    copy is put there, so an older checkout is measured by the same script)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        script = Path(__file__).resolve()
        if code != ROOT:
            (code / "benchmarks").mkdir(exist_ok=True)
            script = code / "benchmarks" / "bench_pitch_copy.py"
            script.write_text(Path(__file__).read_text(encoding="utf-8"), encoding="utf-8")
        subprocess.run([sys.executable, str(script), "--child", kind, str(out), "--seconds", str(seconds),
                        "--size", size], check=True, timeout=seconds + 120)
        return json.loads(out.read_text())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--child", nargs=2, metavar=("KIND", "OUT"))
    ap.add_argument("--screenshot")
    ap.add_argument("--before", type=Path, help="another checkout (say, git worktree add /tmp/before HEAD~1) "
                                                "whose pitch is measured in the same rounds")
    args = ap.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), args.seconds, args.size, args.screenshot)
        return
    print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"load {os.getloadavg()[0]:.1f}, Python {platform.python_version()}, "
          f"display {os.environ.get('DISPLAY') or 'none (offscreen)'}")
    print("| round | code | pitch fps | bare fps | ratio | picture fps | pitch / picture | flat fps | flat / bare "
          "| figures' Python per frame, median / p95 | board draws |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    codes = [("this", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    for i in range(1, args.rounds + 1):
        for name, code in codes:   # interleaved: each pitch run beside its own bare run
            pitch = run_child("pitch", args.seconds, args.size, code)
            bare = run_child("bare", args.seconds, args.size)
            picture = run_child("picture", args.seconds, args.size)
            flat = run_child("flat", args.seconds, args.size)
            ratio = pitch["fps"] / bare["fps"] if bare["fps"] else 0.0
            floor = pitch["fps"] / picture["fps"] if picture["fps"] else 0.0
            print(f"| {i} | {name} | {pitch['fps']:.1f} | {bare['fps']:.1f} | {ratio:.2f}x | "
                  f"{picture['fps']:.1f} | {floor:.2f}x | {flat['fps']:.1f} | "
                  f"{flat['fps'] / bare['fps'] if bare['fps'] else 0.0:.2f}x | "
                  f"{pitch['python_ms_median']:.2f} / {pitch['python_ms_p95']:.2f} ms | {pitch['board_draws']} |",
                  flush=True)


if __name__ == "__main__":
    main()
