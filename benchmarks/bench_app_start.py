"""The tablet app's start and its Matches screen as the matches folder grows (issue 32, item 2):
the first frame with 0, 8 or N matches in the folder, the first start after a ``kill -9``
mid-match (what the app does before that frame, and when the killed match is back on the live
screen), and the Matches screen's list of N matches from the tap (cold: no cache; warm: the
cache the last look wrote), with the UI thread's longest stall meanwhile (the longest gap
between two turns of its loop: the reading is on a thread, the screen should keep answering). Figures for docs/benchmarks.md; nothing here asserts on time.

    .venv/bin/python benchmarks/bench_app_start.py [--matches 1000] [--rounds 3] [--profile]

Each measure is its own process (the interpreter's start and every import counted, from just
before the process is started), headless (SDL's offscreen window, Mesa's software OpenGL), at
1280x800. The killed state is made by the app itself: a child starts a Fublet match, plays its
first command and is killed with SIGKILL two seconds later (the journal's -wal and the record of
the match played here left as a crash leaves them). ``--profile`` prints what the main thread
does before the first frame after a kill (cProfile, the 12 costliest functions by own time).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))   # the scripted matches the folder is made of


def child(mode: str, data_dir: Path, out: Path, profile: bool) -> None:
    t0 = float(os.environ["TOUCHLINE_BENCH_T0"])
    prof = None
    if profile:
        import cProfile
        prof = cProfile.Profile()
        prof.enable()
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", "1280")
    Config.set("graphics", "height", "800")
    from ui.app import build_app_class

    imported = time.time() - t0
    from kivy.clock import Clock
    from kivy.core.window import Window

    app = build_app_class()(data_dir=data_dir)
    seen: dict = {"imported_s": imported}

    def done() -> None:
        out.write_text(json.dumps(seen))
        app.stop()

    def tap_matches(_dt) -> None:
        seen["tap"] = time.perf_counter()
        ticks.clear()
        app.root.current = "history"

    ticks: list[float] = []   # every turn of the UI thread's loop: drawn or not, a gap is a stall

    def tick(_dt) -> None:
        ticks.append(time.perf_counter())

    def on_flip(*_args) -> None:
        now = time.perf_counter()
        if "first_frame_s" not in seen:
            seen["first_frame_s"] = time.time() - t0
            if prof is not None:
                import io
                import pstats
                prof.disable()
                text = io.StringIO()
                pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(12)
                seen["profile"] = text.getvalue()
            if mode == "kill":
                from companion.fublet import commands as c
                from companion.fublet.components import load_components, shipped_team
                app.controller.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"),
                                                       load_components()), seed=1)
                Clock.schedule_once(lambda _dt: os.kill(os.getpid(), signal.SIGKILL), 2.0)
            elif mode == "matches":
                Clock.schedule_once(tap_matches, 0.5)
            return
        if mode == "start" and app.root.current == "live" and "resumed_s" not in seen:
            seen["resumed_s"] = time.time() - t0
            done()
        if mode == "matches" and "tap" in seen and "listed_s" not in seen:
            screen = app.root.get_screen("history")
            if not screen._scanning and screen.entries and screen.ids.body.children:
                seen["listed_s"] = now - seen["tap"]
                seen["listed"] = len(screen.entries)
                ticks.append(now)
                seen["longest_stall_ms"] = 1000 * max((b - a for a, b in zip(ticks, ticks[1:])), default=0.0)
                done()

    def give_up(_dt) -> None:   # a start with nothing to resume: the first frame is the measure
        if mode == "start" and "resumed_s" not in seen:
            done()

    Window.bind(on_flip=on_flip)
    Clock.schedule_interval(tick, 0)
    Clock.schedule_once(give_up, 20.0)
    app.run()


def run_child(mode: str, data_dir: Path, profile: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        env = dict(os.environ, TOUCHLINE_BENCH_T0=repr(time.time()), KIVY_WINDOW="sdl2",
                   KIVY_HOME=str(Path(tmp) / "kivy"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)   # bytecode kept, as an installed app has it
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", mode, str(data_dir), str(out)]
                              + (["--profile"] if profile else []), env=env, capture_output=True, text=True,
                              timeout=600)
        if mode == "kill":
            if proc.returncode != -signal.SIGKILL:
                raise SystemExit(f"the app was to be killed mid-match; it ended {proc.returncode}:\n{proc.stderr[-2000:]}")
            return {}
        if not out.exists():
            raise SystemExit(f"{mode} gave nothing:\n{proc.stderr[-3000:]}")
        return json.loads(out.read_text())


def folder_of(count: int, base: Path) -> Path:
    """A data folder whose matches/ holds ``count`` journals (made once, kept under ``base``)."""
    from benchmarks.bench_history import make_folder

    data = base / f"data-{count}"
    made = data / "made.json"
    if not (made.exists() and json.loads(made.read_text()) == {"matches": count, "plain": False}):
        shutil.rmtree(data, ignore_errors=True)   # (a folder made before the final records is made again)
        if count:
            make_folder(data / "matches", count)
        data.mkdir(parents=True, exist_ok=True)
        made.write_text(json.dumps({"matches": count, "plain": False}))
    return data


def fresh_copy(src: Path, dst: Path) -> Path:
    """A copy of the data folder ``src`` at ``dst``, its anchors naming the copy's journals (an
    anchor names its journal by path: the copy is then the folder of the tablet that played
    them, whose listings trust the matches' final records)."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    for anchor in (dst / "anchors").glob("*.json"):
        data = json.loads(anchor.read_text(encoding="utf-8"))
        data["file"] = str((dst / "matches" / Path(data["file"]).name).resolve())
        anchor.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    return dst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "touchline-bench-app-start")
    ap.add_argument("--child", nargs=3, metavar=("MODE", "DATA", "OUT"))
    args = ap.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), Path(args.child[2]), args.profile)
        return 0
    from benchmarks.run import machine
    from companion.report.history import cache_path

    print(f"machine: {machine()}; load {os.getloadavg()[0]:.1f}; {args.matches} matches; {args.rounds} rounds")
    bases = {n: folder_of(n, args.dir) for n in (0, 8, args.matches)}
    rows: dict[str, list[float]] = {}
    extra: dict[str, list[float]] = {}
    work = args.dir / "work"
    run_child("start", fresh_copy(bases[0], work))   # once untimed: bytecode and compiled methods written
    for r in range(args.rounds):
        for n in (0, 8, args.matches):
            got = run_child("start", fresh_copy(bases[n], work))
            rows.setdefault(f"first frame, {n} matches in the folder", []).append(got["first_frame_s"])
        for n in (8, args.matches):
            data = fresh_copy(bases[n], work)
            run_child("kill", data)
            got = run_child("start", data, profile=args.profile and r == 0)
            rows.setdefault(f"first frame after a kill -9 mid-match, {n} others", []).append(got["first_frame_s"])
            if "resumed_s" in got:
                rows.setdefault(f"  the killed match back on the live screen, {n} others", []).append(got["resumed_s"])
            if got.get("profile"):
                print(f"what the main thread did before the first frame after a kill ({n} others):\n{got['profile']}")
        data = fresh_copy(bases[args.matches], work)
        cache_path(data).unlink(missing_ok=True)
        for kind in ("cold (no cache)", "warm (the cache)"):
            got = run_child("matches", data)
            rows.setdefault(f"Matches screen, {args.matches} matches, {kind}: tap to list", []).append(got["listed_s"])
            extra.setdefault(f"Matches screen, {args.matches} matches, {kind}: tap to list", []).append(
                got["longest_stall_ms"])
    print("| measure | median | max | the UI thread's longest stall meanwhile (median) |")
    print("|---|---:|---:|---:|")
    for name, values in rows.items():
        frames = extra.get(name)
        print(f"| {name} | {statistics.median(values):.2f} s | {max(values):.2f} s | "
              f"{f'{statistics.median(frames):.0f} ms' if frames else '-'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
