"""The live tracker's hold on figures while hands pass over the board: how often a figure that
stands where it was, its marker in view (whole or at least half), is dropped as unseen; and that
no figure is committed that did not move, nor anywhere it is not.

    python benchmarks/live_identity.py            # the README's figures (a few minutes)
    python benchmarks/live_identity.py --quick    # a smoke run

Each sequence (seeded): the shipped board at 1080p, a camera 60-100 cm up tilted up to 25
degrees (lens known), 22 figures and the ball, 30 fps: idle, then hands sweeping across the board
60-120 mm up (pausing over the figures), hands hovering over figures, and two moves, in random
order. Per frame, from the renderer's truth: a figure is *in place* when it stands where it last
came to rest (not being carried, and settled for half a second after a move); *visible* when its
whole marker shows, *partly covered* when half or more of it does.

- *lost*: a figure the tracker has found (committed), in place and visible (or partly covered),
  that the tracker has as unseen; given per 1,000 frames as figure-frames, and as losses (a
  figure going from seen to unseen). A figure never found (a cap the detector misses in every
  frame, as one squeezed in a wall can be) is a miss of the detector, not counted here;
- *false commit*: a sighting of a figure that did not move (after the first half second, when
  the board is first read), other than its first sighting where it stands (a figure the detector
  missed at first, found later in its place: counted apart, as *found late*); *wrong commit*: a
  moved figure committed in another square than the one it was set down in;
- *kept in place wrongly*: the reader reported a cap in place (unread, looking as it did) that
  was being lifted or carried, or less than a quarter of it showed.

Each sequence is read and tracked twice: without the rules' positions, and with them
(``LiveReader.expect`` and ``Tracker.expect``, as the app's worker hands them over: every
figure's movement square from the first frame, as in a resumed match, and each sighting the
rules take handed over again; the reader looks again where the rules have a figure that does
not read), which adds:

- *ids committed where that marker is not*: a sighting of an id more than 10 mm from its
  marker (another figure's marker misread), the first half second included;
- *sightings held for a person*: committed with a doubt (read steadily in another figure's
  square), which the app shows for one touch instead of taking.

``--resumed``: a hand low over a figure from the first frame (a match resumed while a coach
leans over the board), then a sweep, two hovers 45-70 mm up and a move.

Seeds 600,000 and up (``--seed-base 610000`` for looking at while changing the code);
``--resumed`` adds 1,000.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration.corners import calibrate_from_frame  # noqa: E402
from calibration.lens import LensCalibration  # noqa: E402
from vision.config import MarkerSet  # noqa: E402
from vision.detect import to_gray  # noqa: E402
from vision.live import LiveReader  # noqa: E402
from vision.locate import VisionSetup  # noqa: E402
from vision.scenario import Hover, Idle, Move, Sweep, render_sequence  # noqa: E402
from vision.sighting import ConflictNotice, Sighting  # noqa: E402
from vision.synth import Scene, random_camera, random_figures, random_look, render  # noqa: E402
from vision.tracker import Expected, Tracker  # noqa: E402
from vision_bench import BOARD, machine, truth_place  # noqa: E402
from bench_figures import count  # noqa: E402

SEED = 600_000
MARKERS = MarkerSet()


def script_for(rng: np.random.Generator, figs: list, resumed: bool = False) -> list:
    """Sweeps, hovers and moves in random order; a resumed match's camera starts with a hand
    low over a figure (its marker partly covered from the first frame) and has fewer steps."""
    L, W = BOARD.length_mm, BOARD.width_mm
    steps: list = [Idle(12)]
    kinds = ["sweep"] * 3 + ["hover"] * 2 + ["move"] * 2
    if resumed:
        f = figs[int(rng.integers(len(figs)))]
        steps = [Hover(f.x_mm + rng.uniform(-15, 15), f.y_mm + rng.uniform(-15, 15), int(rng.integers(30, 60)),
                       float(rng.uniform(45, 70))), Idle(6)]
        kinds = ["sweep", "hover", "hover", "move"]
    rng.shuffle(kinds)
    taken = {BOARD.mm_to_ms(f.x_mm, f.y_mm) for f in figs}
    for kind in kinds:
        if kind == "sweep":
            f = figs[int(rng.integers(len(figs)))]  # a hand passing over this figure
            y = f.y_mm + rng.uniform(-30, 30)
            x0, x1 = (-60.0, L + 60.0) if rng.random() < 0.5 else (L + 60.0, -60.0)
            steps.append(Sweep(x0, y, x1, y, int(rng.integers(20, 36)), float(rng.uniform(60, 120)),
                               int(rng.integers(0, 12))))
        elif kind == "hover":
            f = figs[int(rng.integers(len(figs)))]
            low = (45, 70) if resumed else (60, 90)
            steps.append(Hover(f.x_mm + rng.uniform(-25, 25), f.y_mm + rng.uniform(-25, 25), int(rng.integers(10, 25)),
                               float(rng.uniform(*low))))
        else:
            f = figs[int(rng.integers(len(figs)))]
            sq = BOARD.mm_to_ms(f.x_mm, f.y_mm)
            dest = next(d for d in ((sq[0] + dx, sq[1] + dy) for dx in (3, -3, 4, -4) for dy in (2, -2, 0))
                        if 0 < d[0] < BOARD.ms_cols - 1 and 0 < d[1] < BOARD.ms_rows - 1 and d not in taken)
            taken.add(dest)
            x, y = BOARD.ms_center_mm(dest)
            steps.append(Move(f.marker, x + rng.uniform(-3, 3), y + rng.uniform(-3, 3), float(rng.uniform(0, 360))))
        steps.append(Idle(int(rng.integers(6, 12))))
    return steps


def square_of(marker: int, ms) -> Expected:
    """Where the rules have a figure: its movement square's rectangle (board mm)."""
    w, h = BOARD.ms_size_mm
    return Expected(marker, None, ms[0] * w, ms[1] * h, (ms[0] + 1) * w, (ms[1] + 1) * h)


class Count:
    """One tracker's figures over the sequences (see the module's docstring)."""

    def __init__(self) -> None:
        self.n = dict.fromkeys(("frames", "lost_visible", "lost_partly", "losses", "visible_ff", "partly_ff",
                                "false_commits", "wrong_commits", "moves_right", "notices", "found_late",
                                "misread_taken", "doubted", "doubted_right", "placed_ff", "placed_lost"), 0)
        self.detail: list[str] = []

    def sequence(self) -> None:
        self.dest: dict[int, list] = {}
        self.was_seen: dict[int, bool] = {}
        self.committed_once: set[int] = set()
        self.moved: set[int] = set()

    def frame(self, seed: int, t: float, events: list, tracker: Tracker, mt: dict, rest: dict, settled_from: dict,
              truth, rules: dict | None, placed: set[int]) -> None:
        n = self.n
        n["frames"] += 1
        if truth is not None:
            self.dest.setdefault(truth.marker, []).append(truth)
            self.moved.add(truth.marker)
        for e in events:
            if isinstance(e, ConflictNotice):
                n["notices"] += 1
                self.detail.append(f"seed {seed}: notice at {e.time_s:.2f} s: {e.reason}")
            if not isinstance(e, Sighting):
                continue
            tr = mt.get(e.marker)
            if tr is None or math.hypot(tr.x_mm - e.x_mm, tr.y_mm - e.y_mm) > 10.0:
                # an id committed where its marker is not: another figure's marker misread
                n["misread_taken"] += 1
                self.detail.append(f"seed {seed}: marker {e.marker} committed at {e.time_s:.2f} s where it is not"
                                   + (" (with a doubt)" if e.doubt else ""))
            if e.doubt:
                n["doubted"] += 1
                n["doubted_right"] += tr is not None and math.hypot(tr.x_mm - e.x_mm, tr.y_mm - e.y_mm) <= 10.0
            elif rules is not None and e.square is not None:
                rules[e.marker] = square_of(e.marker, e.square)  # the rules take it (a doubt waits for a person)
            if t <= 0.5:
                self.committed_once.add(e.marker)
                continue
            done = [d for d in self.dest.get(e.marker, []) if d.down_s <= e.time_s]
            if not done:
                x, y = rest.get(e.marker, (math.inf, math.inf))
                if e.marker not in self.committed_once and math.hypot(e.x_mm - x, e.y_mm - y) <= 5.0:
                    n["found_late"] += 1
                else:
                    n["false_commits"] += 1
                    self.detail.append(f"seed {seed}: marker {e.marker} committed at {e.time_s:.2f} s, not moved")
                self.committed_once.add(e.marker)
                continue
            self.committed_once.add(e.marker)
            if (e.square, e.area) == truth_place(done[-1].x_mm, done[-1].y_mm):
                n["moves_right"] += 1
            else:
                n["wrong_commits"] += 1
                self.detail.append(f"seed {seed}: marker {e.marker} committed in {e.square}, set down in "
                                   f"{truth_place(done[-1].x_mm, done[-1].y_mm)[0]}")
            self.dest[e.marker] = [d for d in self.dest[e.marker] if d is not done[-1]]
        figures = tracker.figures(now=t)
        seen_now = {f.marker: f.seen for f in figures if f.committed is not None}
        seen_any = {f.marker for f in figures if f.seen}
        for m, (x, y) in rest.items():
            tr = mt.get(m)
            if tr is None:
                continue
            in_place = math.hypot(tr.x_mm - x, tr.y_mm - y) < 0.5 and tr.z_mm <= MARKERS.cap_height_mm + 0.5
            if m in placed and in_place and tr.visible >= 0.5 and m not in self.moved:
                # a figure standing where the match had it when the camera started
                n["placed_ff"] += 1
                n["placed_lost"] += m not in seen_any
            if t < settled_from[m]:
                continue
            if not in_place or tr.visible < 0.5 or m not in seen_now:
                self.was_seen.pop(m, None)
                continue
            seen = seen_now.get(m, False)
            if tr.visible >= 0.999:
                n["visible_ff"] += 1
                n["lost_visible"] += not seen
            else:
                n["partly_ff"] += 1
                n["lost_partly"] += not seen
            if self.was_seen.get(m) and not seen:
                n["losses"] += 1
            self.was_seen[m] = seen

    def report(self, moves: int) -> dict:
        n = self.n
        per = 1000.0 / max(n["frames"], 1)
        return {"figure-frames in place, marker visible / half or more visible": [n["visible_ff"], n["partly_ff"]],
                "lost per 1,000 frames: visible, figure-frames": round(n["lost_visible"] * per, 1),
                "lost per 1,000 frames: partly covered, figure-frames": round(n["lost_partly"] * per, 1),
                "losses per 1,000 frames (seen -> unseen, at least half visible)": round(n["losses"] * per, 1),
                "figures where the match had them, half or more in view, not seen, per 1,000 frames "
                f"(of {n['placed_ff']} figure-frames, from the first frame)": round(n["placed_lost"] * per, 1),
                "moves committed to their square": f"{n['moves_right']} of {moves}",
                "false commits": n["false_commits"], "wrong commits": n["wrong_commits"],
                "standing figures found late, in their place": n["found_late"],
                "ids committed where that marker is not (misread)": n["misread_taken"],
                "ids misread where a covered figure stands (left out, a notice)": n["notices"],
                "sightings held for a person (a doubt) / of them right": f"{n['doubted']} / {n['doubted_right']}",
                "which": self.detail}


def run(sequences: int, base: int = SEED, resumed: bool = False) -> dict:
    """Each sequence read and tracked twice: without the rules' positions, and with them (the
    reader and the tracker given them), the rules knowing where every figure stands from the
    first frame (a resumed match) and taking each committed sighting without a doubt."""
    plain, ruled = Count(), Count()
    frames = moves = kept = kept_wrongly = 0
    standing, never = [0, 0], [0, 0]
    never_ruled = [0, 0]
    spent: tuple[list[float], list[float]] = ([], [])  # each reader's CPU time per frame, ms
    when: list[tuple[int, int]] = []  # each frame's seed and number
    for k in range(sequences):
        seed = base + k
        rng = np.random.default_rng(seed)
        cam = random_camera(rng, BOARD, MARKERS, distortion=0.0)
        figs = random_figures(rng, BOARD, MARKERS, walls=2)
        scene = Scene(cam, BOARD, MARKERS, figs, (), random_look(rng, 0.8))
        lens = LensCalibration(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.dist)
        cal = calibrate_from_frame(render(scene)[0], BOARD, MARKERS, lens)
        setup = VisionSetup.from_calibration(cal, BOARD, markers=MARKERS)
        on_pitch = [f for f in figs if not f.ball and BOARD.on_pitch(f.x_mm, f.y_mm)]
        script = script_for(rng, on_pitch, resumed)
        readers, trackers = (LiveReader(setup), LiveReader(setup)), (Tracker(BOARD), Tracker(BOARD))
        rules = {f.marker: square_of(f.marker, BOARD.mm_to_ms(f.x_mm, f.y_mm)) for f in on_pitch}
        handed, placed = dict(rules), set(rules)
        for x in (readers[1], trackers[1]):
            x.expect(rules.values())
        rest = {f.marker: (f.x_mm, f.y_mm) for f in figs if not f.ball}
        settled_from = {m: 0.5 for m in rest}  # the first half second: everything is first read
        plain.sequence()
        ruled.sequence()
        for i, (image, t, truth, mt) in enumerate(render_sequence(scene, script, seed=seed)):
            gray = to_gray(image)
            results = []
            for reader, took in zip(readers, spent):
                started = time.thread_time()
                results.append(reader.read(gray))
                took.append(1000 * (time.thread_time() - started))
            when.append((seed, i))
            for s in getattr(results[0], "in_place", ()):
                tr = mt.get(s.marker)
                x, y = rest.get(s.marker, (math.inf, math.inf))
                kept += 1
                if tr is None or tr.visible < 0.25 or math.hypot(tr.x_mm - x, tr.y_mm - y) >= 1.0 \
                        or tr.z_mm > MARKERS.cap_height_mm + 0.5:
                    kept_wrongly += 1
            frames += 1
            if truth is not None:
                rest[truth.marker] = (truth.x_mm, truth.y_mm)
                settled_from[truth.marker] = truth.down_s + 0.5
                moves += 1
            if rules != handed:  # the rules changed (a sighting taken): the app hands them over
                for x in (readers[1], trackers[1]):
                    x.expect(rules.values())
                handed = dict(rules)
            for count, tracker, known, result in ((plain, trackers[0], None, results[0]),
                                                  (ruled, trackers[1], rules, results[1])):
                events = tracker.update(result, t)
                count.frame(seed, t, events, tracker, mt, rest, settled_from, truth, known, placed)
        # caps shoulder to shoulder (centres a cap's width apart) can merge into one outline
        found = [{f.marker for f in tr.figures() if f.committed is not None} for tr in trackers]
        for f in on_pitch:
            wall = any(g is not f and math.hypot(g.x_mm - f.x_mm, g.y_mm - f.y_mm) < 1.2 * MARKERS.cap_mm
                       for g in on_pitch)
            standing[0 if wall else 1] += 1
            never[0 if wall else 1] += f.marker not in found[0]
            never_ruled[0 if wall else 1] += f.marker not in found[1]
    return {"sequences": sequences, "frames": frames, "resumed": resumed,
            "standing figures never found, in a wall of touching caps / elsewhere":
                f"{never[0]} of {standing[0]} / {never[1]} of {standing[1]}",
            "the same with the rules' positions (handed to the reader and the tracker)":
                f"{never_ruled[0]} of {standing[0]} / {never_ruled[1]} of {standing[1]}",
            "reader's CPU time per frame, ms: mean / 95th percentile / max (seed, frame)":
                _times(spent[0], when),
            "the same, the reader given the rules' positions": _times(spent[1], when),
            "caps kept in place (figure-frames)": kept, "kept in place wrongly": kept_wrongly,
            "without the rules' positions": plain.report(moves), "with the rules' positions": ruled.report(moves)}


def _times(ms: list[float], when: list[tuple[int, int]]) -> str:
    if not ms:
        return "no frames"
    worst = int(np.argmax(ms))
    return (f"{np.mean(ms):.1f} / {np.percentile(ms, 95):.1f} / {ms[worst]:.1f} "
            f"(seed {when[worst][0]}, frame {when[worst][1]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sequences", type=count(0, 1000), default=6)
    parser.add_argument("--seed-base", type=int, default=SEED)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--resumed", action="store_true",
                        help="resumed matches: a hand low over a figure from the first frame, shorter scripts "
                             "(seeds from --seed-base + 1,000)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.quick:
        args.sequences = 1
    cv2.setNumThreads(1)
    base = args.seed_base + (1000 if args.resumed else 0)
    report = {"machine": machine(), "seed base": base, **run(args.sequences, base, args.resumed)}
    print(f"# live identity, {report['machine']}")
    for key, v in report.items():
        if isinstance(v, dict):
            print(f"- {key}:")
            for k2, v2 in v.items():
                print(f"  - {k2}: {v2}")
        elif key != "machine":
            print(f"- {key}: {v}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
