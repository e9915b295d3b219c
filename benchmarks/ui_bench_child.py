"""One measurement of the tablet app, in its own process (Kivy opens one window a process).

    python benchmarks/ui_bench_child.py start OUT.json      # cold start to the first frame
    python benchmarks/ui_bench_child.py fps OUT.json        # UI frame rate while vision reads 1080p frames
    python benchmarks/ui_bench_child.py fps-alone OUT.json  # the same without vision
    python benchmarks/ui_bench_child.py latency OUT.json    # a figure set down -> on screen

The parent sets TOUCHLINE_BENCH_T0 (time.time() just before it started this process), so the
cold start counts the interpreter's start-up and every import too.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

T0 = float(os.environ.get("TOUCHLINE_BENCH_T0", time.time()))
MODE, OUT = (sys.argv[1], Path(sys.argv[2])) if len(sys.argv) > 2 else ("", Path("/dev/null"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-bench-"))

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "1280")
Config.set("graphics", "height", "800")
# 0: draw as often as the machine allows (Kivy's loop then never sleeps); the app itself runs
# with Kivy's default of 60
Config.set("graphics", "maxfps", os.environ.get("TOUCHLINE_BENCH_MAXFPS", "0"))

from ui.app import build_app_class  # noqa: E402


def write(result: dict) -> None:
    OUT.write_text(json.dumps(result, indent=1))


def cold_start() -> None:
    from kivy.core.window import Window

    app = build_app_class()(data_dir=Path(tempfile.mkdtemp()), resume_last=False)
    seen = {}

    def first_flip(*_args):
        if "first" not in seen:
            seen["first"] = time.time() - T0
            write({"cold_start_s": seen["first"]})
            app.stop()
    Window.bind(on_flip=first_flip)
    app.run()


def paced(frames, fps: float = 30.0):
    """Frames delivered at a camera's pace (a real camera gives no more than its frame rate)."""
    start = time.perf_counter()
    for k, item in enumerate(frames):
        wait = start + k / fps - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        yield item


def demo_table():
    from companion.fublet.components import load_board
    from ui.demo_table import SHAPE, DemoTable

    table = DemoTable(load_board())
    table.set_up(SHAPE)
    return table


def new_match(app) -> None:
    from companion.fublet import commands as c
    from companion.fublet.components import load_components, shipped_team
    app.controller.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()), seed=1)


def fps(vision: bool = True) -> None:
    """The UI's frame rate with the live screen up, its figures redrawn every frame, while the
    vision thread reads 1080p frames arriving at 30 fps (rendered beforehand: no rendering
    competes for the CPU, as none would with a real camera). The camera's sightings go to the
    controller, so the figures it sees stand on the pitch before the measure starts. Without
    ``vision`` (mode fps-alone) the same figures are placed by sightings and no frame is read:
    what the UI manages by itself."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.camera import CameraRelay, synthetic_setup
    from vision.live import VisionWorker
    from vision.scenario import Idle, render_sequence
    from vision.sources import IterSource

    table = demo_table()
    images = [(image, t) for image, t, _, _ in render_sequence(table.scene, [Idle(30)])]
    setup = synthetic_setup(table)

    def looped():
        k = 0
        while True:
            yield images[k % len(images)][0], k / 30.0
            k += 1

    app = build_app_class()(data_dir=Path(tempfile.mkdtemp()), resume_last=False)
    worker = VisionWorker(lambda: IterSource(paced(looped()), "bench", live=True), setup, stop_at_end=False)
    flips: list[float] = []
    counted = {}

    def on_flip(*_args):
        flips.append(time.perf_counter())

    def start(*_args):
        new_match(app)
        app.show("live")
        pitch = app.root.get_screen("live").ids.pitch
        Clock.schedule_interval(lambda _dt: pitch.redraw_figures(), 0)  # new positions every frame: the worst case
        if vision:
            Clock.schedule_once(lambda _dt: (worker.start(), CameraRelay(worker, app.controller).start()), 1.0)
        else:
            from companion.sightings import Sighting
            from ui.demo_table import SHAPE
            for player, ms in SHAPE.items():
                app.controller.sighting(Sighting(player, *table.board.ms_center_mm(ms), 0.0))
        Clock.schedule_interval(lambda _dt: figures_up(pitch), 0.1)

    def figures_up(pitch):
        # Mesa's software GL compiles its shaders on their first use (seconds): the measure
        # starts 2 s after the figures were first drawn, with vision in full swing
        if not pitch.figures:
            return None
        Clock.schedule_once(begin, 2.0)
        return False

    def begin(_dt):
        flips.clear()
        counted.update(frames=worker.frames, seconds=worker.seconds_processing, at=time.perf_counter())
        Clock.schedule_once(finish, 10.0)

    def finish(_dt):
        span = flips[-1] - flips[0] if len(flips) > 1 else 0
        gaps = sorted(b - a for a, b in zip(flips, flips[1:]))
        frames = worker.frames - counted["frames"]
        write({"ui_fps": (len(flips) - 1) / span if span else 0.0,
               "ui_frame_p95_ms": 1000 * gaps[int(0.95 * (len(gaps) - 1))] if gaps else None,
               "vision_frames": frames,
               "vision_fps": frames / (time.perf_counter() - counted["at"]),
               "vision_ms_per_frame": 1000 * (worker.seconds_processing - counted["seconds"]) / max(1, frames),
               "seconds": span, "window_s": time.perf_counter() - counted["at"],
               "ui_frame_max_ms": 1000 * gaps[-1] if gaps else None,
               "figures_drawn": len(app.root.get_screen("live").ids.pitch.figures)})
        worker.stop()
        app.stop()

    Window.bind(on_flip=on_flip)
    app.bind(on_start=start)
    app.run()


def latency() -> None:
    """Figures set down on the rendered table (rendered beforehand, delivered at 30 fps like a
    camera, which does not wait for the reader): from the moment the frame where a figure rests
    on its new square is due to the first screen frame drawn with it there. The tracker's 150 ms
    of stillness is part of it. Each move is also split into stages: set down -> the frame the
    tracker commits on is due; -> the sighting leaves the vision thread; -> the controller posts
    the view (rules, journal fsync); -> on screen (Clock trigger, redraw, flip)."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.teams import PlayerRef, Team
    from ui.camera import CameraRelay, synthetic_setup
    from vision.live import VisionWorker
    from vision.scenario import Idle, Move, render_sequence
    from vision.sources import IterSource

    table = demo_table()
    ref = PlayerRef(Team.HOME, 7)
    marker = table.marker_of[ref]
    script = [Idle(45)]
    squares = [(16, 14), (16, 12)] * 4
    for ms in squares:
        x, y = table.board.ms_center_mm(ms)
        script += [Move(marker, x, y, 0.0), Idle(30)]
    frames = list(render_sequence(table.scene, script))
    setup = synthetic_setup(table)
    app = build_app_class()(data_dir=Path(tempfile.mkdtemp()), resume_last=False)
    waiting: dict = {}
    results: list[float] = []
    stages: list[dict] = []
    clock = {}

    def feed():
        clock["start"] = start = time.perf_counter()
        for k, (image, t, truth, _) in enumerate(frames):
            due = start + k / 30.0
            if due > time.perf_counter():
                time.sleep(due - time.perf_counter())
            if truth is not None:
                waiting.update(square=table.board.mm_to_ms(truth.x_mm, truth.y_mm), since=due, stage={})
            yield image, t

    def on_flip(*_args):
        square = waiting.get("square")
        shown = app.root.get_screen("live").ids.pitch.state if app.root else None
        if square is not None and shown is not None and shown.players[ref].ms == square:
            now = time.perf_counter()
            results.append(now - waiting["since"])
            stage = waiting.pop("stage")
            stage["shown"] = now
            stages.append({k: round(1000 * (v - waiting["since"]), 1) for k, v in stage.items()})
            waiting.clear()

    worker = VisionWorker(lambda: IterSource(feed(), "bench", live=True), setup, stop_at_end=True)

    def start(*_args):
        new_match(app)
        app.show("live")
        ctl = app.controller
        emit, post = worker._emit, ctl._post

        def timed_emit(events):
            stage = waiting.get("stage")
            for e in events:
                if stage is not None and getattr(e, "player", None) == ref and "commit_frame_due" not in stage:
                    stage["commit_frame_due"] = clock["start"] + e.time_s
                    stage["out_of_vision"] = time.perf_counter()
            emit(events)

        def timed_post(view):
            stage = waiting.get("stage")
            if stage is not None and "out_of_vision" in stage and "posted" not in stage:
                stage["posted"] = time.perf_counter()
            post(view)
        worker._emit, ctl._post = timed_emit, timed_post
        worker.start()
        CameraRelay(worker, ctl).start()
        Clock.schedule_interval(check_done, 0.2)

    def check_done(_dt):
        if worker.finished.is_set() and app.controller.idle:
            Clock.schedule_once(lambda _dt: finish(), 0.5)
            return False

    def finish():
        write({"latency_ms": [round(1000 * r, 1) for r in results], "moves": len(squares), "stages_ms": stages,
               "vision_frames": worker.frames, "frames_dropped": worker.frames_dropped,
               "vision_ms_per_frame": 1000 * worker.seconds_processing / max(1, worker.frames)})
        app.stop()

    Window.bind(on_flip=on_flip)
    app.bind(on_start=start)
    app.run()


if __name__ == "__main__":
    {"start": cold_start, "fps": fps, "fps-alone": lambda: fps(vision=False), "latency": latency}[MODE]()
