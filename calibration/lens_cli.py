"""``touchline calibrate-lens``: measure the camera's lens from views of a printed ChArUco board.

    touchline calibrate-lens --board-sheet DIR                 write the ChArUco board to print
    touchline calibrate-lens --source DIR|VIDEO|DEVICE --out LENS.json [--camera-name NAME]
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import numpy as np

from .errors import CalibrationError
from .lens import CharucoSpec, CharucoView, calibrate_lens, find_charuco

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Calibrate the camera's lens (focal length, principal point, distortion) from views of a "
                          "printed ChArUco board: print it with --board-sheet, then film it from many angles and "
                          "distances, filling the frame, and pass the video, image folder or camera as --source.")
    parser.add_argument("--source", metavar="DIR|VIDEO|DEVICE", help="frames showing the ChArUco board")
    parser.add_argument("--out", type=Path, metavar="LENS.json", help="where to save the lens calibration")
    parser.add_argument("--board-sheet", type=Path, metavar="DIR", help="write the board to print (PNG and PDF) here")
    parser.add_argument("--camera-name", default="", help="a name for the camera, saved with the calibration")
    parser.add_argument("--max-frames", type=int, default=600, help="read at most this many frames (default 600)")
    parser.add_argument("--max-views", type=int, default=40, help="use at most this many distinct views (default 40)")
    parser.add_argument("--dpi", type=float, default=300.0, help="resolution of the board sheet (default 300)")
    parser.add_argument("--force", action="store_true", help="replace an existing LENS.json")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    spec = CharucoSpec()
    if args.board_sheet is None and args.source is None:
        raise CalibrationError("say what to do: --board-sheet DIR to print the board, or --source ... --out LENS.json "
                               "to calibrate from views of it")
    if args.board_sheet is not None:
        from vision.printing import write_pdf, write_png

        args.board_sheet.mkdir(parents=True, exist_ok=True)
        image = spec.image(args.dpi)
        png, pdf = args.board_sheet / "touchline-charuco.png", args.board_sheet / "touchline-charuco.pdf"
        write_png(png, image, args.dpi)
        write_pdf(pdf, image, args.dpi)
        print(f"wrote {png} and {pdf}: print at 100 % and glue flat to card ({spec.cols} x {spec.rows} squares of "
              f"{spec.square_mm:g} mm: check one with a ruler)")
    if args.source is None:
        return 0
    if args.out is None:
        raise CalibrationError("--source needs --out LENS.json: where to save the lens calibration")
    if args.out.exists() and not args.force:
        raise CalibrationError(f"{args.out}: already exists; choose another name or add --force")
    from vision.detect import to_gray
    from vision.sources import source_for

    source = source_for(args.source)
    source.open()
    views: list[CharucoView] = []
    size = None
    frames = 0
    try:
        while frames < args.max_frames and len(views) < args.max_views:
            frame = source.read()
            if frame is None:
                break
            frames += 1
            if size is None:
                size = frame.size
            elif frame.size != size:
                raise CalibrationError(f"{frame.name}: {frame.size[0]}x{frame.size[1]} frames among "
                                       f"{size[0]}x{size[1]} ones: a lens calibration is for one resolution")
            view = find_charuco(spec, to_gray(frame.image))
            if view is not None and _new_view(view, views, size):
                views.append(view)
    finally:
        source.close()
    if size is None:
        raise CalibrationError(f"{args.source}: gave no frames")
    lens = calibrate_lens(views, size, args.camera_name)
    lens.save(args.out)
    print(f"saved {args.out}: {len(views)} views of {frames} frames, {lens.rms_px:.3f} px rms, "
          f"fx {lens.fx:.1f} fy {lens.fy:.1f} px, distortion {', '.join(f'{d:.4f}' for d in lens.dist)}")
    return 0


def _new_view(view: CharucoView, views: list[CharucoView], size: tuple[int, int]) -> bool:
    """A view adds something when the board sits elsewhere in the frame or at another size."""
    c = view.image_px.mean(axis=0) / np.array(size, float)
    spread = float(np.ptp(view.image_px, axis=0).max()) / max(size)
    for v in views:
        if (np.linalg.norm(v.image_px.mean(axis=0) / np.array(size, float) - c) < 0.04
                and abs(float(np.ptp(v.image_px, axis=0).max()) / max(size) - spread) < 0.04):
            return False
    return True
