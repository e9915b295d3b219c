"""``touchline vision locate`` and ``touchline vision watch``.

    touchline vision locate IMAGE... [--calibration CAL.json | --corners "x0,y0 x1,y1 x2,y2 x3,y3"]
                                     [--pitch-mm L W] [--marker-height-mm H] [--lens LENS.json] [--map MAP.json]
    touchline vision watch --source DEVICE|FILE|FOLDER|synthetic [--calibration CAL.json] [--debug-out DIR]

``locate`` prints one JSON object per image, one per line. Without ``--calibration`` or
``--corners`` each image is calibrated from its own corner markers. ``watch`` prints committed
moves and status changes as JSON lines until the source ends (or ``--seconds``/``--frames``).
"""

from __future__ import annotations

import argparse
import json
import logging
import queue
import sys
import time
from dataclasses import replace
from pathlib import Path

from .threads import one_thread, one_thread_env

one_thread_env()  # before numpy is imported: see vision/threads.py

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.corners import calibrate_from_corners, calibrate_from_frame
from calibration.errors import CalibrationError
from calibration.lens import LensCalibration
from calibration.pitch import PitchSettings
from calibration.store import Calibration
from companion.board import GridBoard
from companion.fublet.components import load_board

from .config import MarkerMap, MarkerSet
from .detect import to_gray
from .errors import SourceError, VisionError
from .locate import VisionSetup, read_frame
from .plane import draw_plane
from .rescue import draw_rescue
from .overlay import draw_result

log = logging.getLogger(__name__)
EXIT_OK, EXIT_ERROR = 0, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="vision_command", metavar="SUBCOMMAND", required=True)
    p = sub.add_parser("locate", help="print where the figures are on camera images, as JSON lines",
                       description="Locate every figure and the ball on each image; one JSON object per image per "
                                   "line. Without --calibration or --corners each image is calibrated from its "
                                   "own corner markers.")
    p.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--calibration", type=Path, metavar="CAL.json", help="a saved pitch calibration")
    g.add_argument("--corners", metavar='"x0,y0 x1,y1 x2,y2 x3,y3"',
                   help="pixel positions of the pitch's outer corners at board (0,0), (L,0), (L,W), (0,W)")
    _common(p)
    p.add_argument("--debug-out", type=Path, metavar="DIR", help="write an overlay image per input here, and "
                   "the plane of the caps as searched")
    p.add_argument("--thorough", action="store_true", help="search the frame itself too (two threshold "
                   "windows) besides the plane of the caps: finds a few more, in about twice the time")
    p.add_argument("--fast", action="store_true", help="leave out the second look for markers the search "
                   "missed (small, oblique, blurred, the ball): about half the time, fewer figures found")
    p.set_defaults(run=run)

    w = sub.add_parser("watch", help="run the live tracker and print committed moves and health changes",
                       description="Track the figures live: print each committed move and each health change as a "
                                   "JSON line. SOURCE is a camera (0, /dev/video2), a video file, a folder of "
                                   "images, or 'synthetic' (a rendered match).")
    w.add_argument("--source", required=True, metavar="DEVICE|FILE|synthetic")
    w.add_argument("--calibration", type=Path, metavar="CAL.json",
                   help="a saved pitch calibration (default: calibrate from the corner markers first)")
    _common(w)
    w.add_argument("--debug-out", type=Path, metavar="DIR", help="write overlay frames (markers, squares, grid) here")
    w.add_argument("--seconds", type=float, help="stop after this many seconds")
    w.add_argument("--frames", type=int, help="stop after this many frames")
    w.add_argument("--settle-ms", type=float, default=150.0, help="how long a figure must stay put to count "
                                                                  "(default 150)")
    w.add_argument("--seed", type=int, default=1, help="the synthetic match's seed (default 1)")
    w.add_argument("--resolution", metavar="WxH", help="ask the camera (or the synthetic one) for this resolution")
    w.set_defaults(run=run)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pitch-mm", nargs=2, type=float, metavar=("L", "W"), help="the pitch's size in mm "
                   "(default: the Fublet board data)")
    p.add_argument("--marker-height-mm", type=float, metavar="H",
                   help=f"the caps' height above the board (default {MarkerSet().cap_height_mm:g})")
    p.add_argument("--marker-mm", type=float, metavar="S", help=f"the printed side of the caps' markers "
                   f"(default {MarkerSet().figure_marker_mm:g}): the size check compares each cap with it")
    p.add_argument("--ball-marker-mm", type=float, metavar="S", help="the printed side of the ball token's marker "
                   f"(default {MarkerSet().ball_marker_mm:g})")
    p.add_argument("--lens", type=Path, metavar="LENS.json", help="a lens calibration from 'touchline calibrate-lens'")
    p.add_argument("--camera-height-mm", type=float, metavar="H", help="the camera's measured height above the "
                   "board (its lens), for the caps' parallax without a lens calibration: weighed against what the "
                   "view and the figures standing in their squares show (default: 800, give or take 100)")
    p.add_argument("--map", type=Path, metavar="MAP.json", help="which marker belongs to which figure "
                   "(default: ids 0-15 home #1-16, 16-31 away #1-16)")


def run(args: argparse.Namespace) -> int:
    one_thread()
    if args.vision_command == "locate":
        return run_locate(args)
    return run_watch(args)


def _board(args: argparse.Namespace) -> GridBoard:
    board = load_board()
    if args.pitch_mm:
        L, W = args.pitch_mm
        if L <= 0 or W <= 0:
            raise VisionError(f"--pitch-mm needs a positive length and width, got {L:g} {W:g}")
        board = replace(board, length_mm=L, width_mm=W)
    return board


def _markers(args: argparse.Namespace) -> MarkerSet:
    kw: dict = {}
    if args.marker_height_mm is not None:
        if not 0 <= args.marker_height_mm < 500:
            raise VisionError(f"--marker-height-mm must be 0..500 mm above the board, got {args.marker_height_mm:g}")
        kw["cap_height_mm"] = args.marker_height_mm
    for name, value in (("--marker-mm", args.marker_mm), ("--ball-marker-mm", args.ball_marker_mm)):
        if value is not None and not 3 <= value <= 100:
            raise VisionError(f"{name} must be 3..100 mm (the printed marker's side), got {value:g}")
    # the cap or token around it keeps the shipped sheet's proportions (a white margin); a ball
    # token not given is taken as printed at the caps' scale (and looked for at other sizes)
    base = MarkerSet(**kw)
    ball = args.ball_marker_mm
    if ball is None and args.marker_mm is not None:
        ball = round(base.ball_marker_mm * args.marker_mm / base.figure_marker_mm, 1)
    return base.with_marker_sizes(args.marker_mm, ball)


def _size_kw(args: argparse.Namespace) -> dict:
    """Where the markers' sizes come from: given on the command line, or assumed (then the
    calibration's measure, or the frame's own: vision.marker_size)."""
    return {"size_source": "given" if args.marker_mm is not None else "assumed",
            "ball_size_known": args.ball_marker_mm is not None}


def _pitch_settings(args: argparse.Namespace) -> PitchSettings:
    if args.camera_height_mm is None:
        return PitchSettings()
    if not 100 <= args.camera_height_mm <= 5000:
        raise VisionError(f"--camera-height-mm must be 100..5000 mm, got {args.camera_height_mm:g}")
    # a height measured with a tape is good to a couple of centimetres, not the set-up's 10
    return PitchSettings(camera_height_mm=args.camera_height_mm, camera_height_sd_mm=20.0)


def parse_corners(text: str) -> np.ndarray:
    """'x0,y0 x1,y1 x2,y2 x3,y3' -> (4, 2) pixels."""
    try:
        pts = [tuple(float(v) for v in pair.split(",")) for pair in text.replace(";", " ").split()]
        arr = np.array(pts, float)
    except ValueError:
        arr = np.zeros((0,))
    if arr.shape != (4, 2):
        raise VisionError(f"--corners needs four pixel points like \"120,990 1790,1000 1810,95 102,80\", got {text!r}")
    return arr


def run_locate(args: argparse.Namespace) -> int:
    board, markers = _board(args), _markers(args)
    lens = LensCalibration.load(args.lens) if args.lens else None
    marker_map = MarkerMap.load(args.map) if args.map else MarkerMap.default(markers)
    saved = None
    if args.calibration:
        saved = Calibration.load(args.calibration)
        saved.check_board(board, name=str(args.calibration))
    corners = parse_corners(args.corners) if args.corners else None
    if args.debug_out:
        args.debug_out.mkdir(parents=True, exist_ok=True)
    failed = 0
    learned: dict = {}  # the markers' sizes measured on an image, for the next ones of the same camera
    for path in args.images:
        try:
            line = _locate_one(path, board, markers, marker_map, lens, saved, corners, args, learned)
        except (SourceError, CalibrationError, VisionError) as exc:
            text = str(exc)
            print(f"touchline vision locate: error: {text if str(path) in text else f'{path}: {text}'}", file=sys.stderr)
            failed += 1
            continue
        sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return EXIT_ERROR if failed else EXIT_OK


def _locate_one(path: Path, board, markers, marker_map, lens, saved, corners, args, learned: dict) -> dict:
    from .sources import read_image

    image = read_image(path)
    size = (image.shape[1], image.shape[0])
    gray = to_gray(image)
    if saved is not None:
        saved.check_frame(size, str(args.calibration))
        cal = saved
    elif corners is not None:
        cal = calibrate_from_corners(corners, size, board, lens, _pitch_settings(args))
    else:
        cal = calibrate_from_frame(gray, board, markers, lens, _pitch_settings(args))
    setup = VisionSetup.from_calibration(cal, board, args.thorough, markers=markers, marker_map=marker_map,
                                         **_size_kw(args))
    if learned.get("sizes") is not None and setup.size_source == "assumed" and cal is not None and \
            (saved is not None or corners is not None):  # one camera for every image: measured on an earlier one
        setup = replace(setup.with_sizes(learned["sizes"]), ball_size_known=True)
    if args.fast:
        setup = replace(setup, rescue=None)
    result = read_frame(setup, gray)
    if result.read_at is not None:
        learned["sizes"] = result.read_at
    out = {"image": str(path), **result.to_json()}
    out["warnings"] = list(cal.warnings) + out["warnings"]
    if args.debug_out:
        cv2.imwrite(str(args.debug_out / f"{path.stem}.overlay.png"), draw_result(image, setup, result))
        if setup.plane is not None:  # the plane of the caps as searched, candidates outlined
            cv2.imwrite(str(args.debug_out / f"{path.stem}.plane.png"), draw_plane(setup, gray))
        if setup.rescue is not None:  # the second look: its views, candidates and patches
            first = read_frame(replace(setup, rescue=None), gray).detections
            cv2.imwrite(str(args.debug_out / f"{path.stem}.rescue.png"), draw_rescue(setup, gray, list(first)))
    return out


# --- watch ---------------------------------------------------------------------------------------

def _resolution(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise VisionError(f"--resolution needs WIDTHxHEIGHT like 1920x1080, got {text!r}") from None
    if not (160 <= w <= 8192 and 120 <= h <= 8192):
        raise VisionError(f"--resolution must be 160x120 to 8192x8192 pixels, got {w}x{h}")
    return (w, h)


def _watch_limits(args: argparse.Namespace) -> None:
    """Refuse limits no run could meet, before the camera opens."""
    if args.frames is not None and args.frames < 1:
        raise VisionError(f"--frames must be 1 or more (stop after that many frames), got {args.frames}")
    if args.seconds is not None and not 0 < args.seconds <= 7 * 24 * 3600:
        raise VisionError(f"--seconds must be more than 0 (stop after that long), got {args.seconds:g}")
    if not 0 <= args.settle_ms <= 10_000:
        raise VisionError(f"--settle-ms must be 0..10000 (how long a figure stays put to count), got {args.settle_ms:g}")


def run_watch(args: argparse.Namespace) -> int:
    from .live import VisionWorker
    from .sources import CameraSource, IterSource, source_for
    from .tracker import TrackerSettings

    _watch_limits(args)
    board, markers = _board(args), _markers(args)
    lens = LensCalibration.load(args.lens) if args.lens else None
    marker_map = MarkerMap.load(args.map) if args.map else MarkerMap.default(markers)
    size = _resolution(args.resolution)
    setup = None
    if args.calibration:
        cal = Calibration.load(args.calibration)
        cal.check_board(board, name=str(args.calibration))
        setup = VisionSetup.from_calibration(cal, board, markers=markers, marker_map=marker_map, **_size_kw(args))

    notes: queue.Queue = queue.Queue()  # lines from the vision thread, printed by this one

    def calibrate(image: np.ndarray) -> VisionSetup:
        cal = calibrate_from_frame(image, board, markers, lens, _pitch_settings(args))
        notes.put({"type": "calibrated", "quality": cal.quality.to_json(), "focal_source": cal.focal_source,
                   "warnings": list(cal.warnings)})
        return VisionSetup.from_calibration(cal, board, markers=markers, marker_map=marker_map, **_size_kw(args))

    if args.source == "synthetic":
        def open_source():
            return IterSource(_synthetic_frames(board, markers, args.seed, size or (1920, 1080)), "synthetic")
    else:
        def open_source():
            src = source_for(args.source)
            if isinstance(src, CameraSource) and size:
                src.size = size
            return src

    if args.debug_out:
        args.debug_out.mkdir(parents=True, exist_ok=True)

    def on_frame(frame, result) -> None:
        if worker.setup is not None and result is not None:
            cv2.imwrite(str(args.debug_out / f"frame{frame.index:05d}.png"), draw_result(frame.image, worker.setup, result))

    worker = VisionWorker(open_source, setup, calibrate, TrackerSettings(settle_s=args.settle_ms / 1000.0),
                          on_frame=on_frame if args.debug_out else None)
    worker.start()
    started = time.monotonic()
    try:
        while True:
            done = worker.finished.wait(0.05)
            for q in (notes, worker.status, worker.sightings):
                while True:
                    try:
                        item = q.get_nowait()
                    except queue.Empty:
                        break
                    _print(item if isinstance(item, dict) else item.to_json())
            if done:
                break
            if args.seconds is not None and time.monotonic() - started >= args.seconds:
                break
            if args.frames is not None and worker.frames >= args.frames:
                break
    finally:
        worker.stop()
    for q in (notes, worker.status, worker.sightings):
        while not q.empty():
            item = q.get_nowait()
            _print(item if isinstance(item, dict) else item.to_json())
    if worker.frames:
        log.info("%d frames, %.1f ms each on average", worker.frames, 1000 * worker.seconds_processing / worker.frames)
    return EXIT_OK


def _print(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _synthetic_frames(board: GridBoard, markers: MarkerSet, seed: int, size: tuple[int, int]):
    from .scenario import random_script, render_sequence
    from .synth import random_scene

    scene = random_scene(seed, board, markers, size=size, hand=False, distortion=0.0)
    script = random_script(np.random.default_rng(seed), scene)
    for image, t, _, _ in render_sequence(scene, script, seed=seed):
        yield image, t
