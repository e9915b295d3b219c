"""The camera in the app: the vision worker's queues relayed to the controller.

The vision thread commits sightings and reports its health; a small relay thread hands
each sighting to the controller (which proposes it to the rules on its own worker), turns
health changes, recalibration requests and conflicts into what the tablet shows, and hands the
vision worker the rules' positions whenever the match's state changes (the tracker checks the
ids it reads against them: docs/vision.md, the live tracker).
"""

from __future__ import annotations

import logging
import queue
import threading

log = logging.getLogger(__name__)


class CameraRelay:
    def __init__(self, worker, controller) -> None:
        self.worker = worker
        self.ctl = controller
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "CameraRelay":
        self._thread = threading.Thread(target=self._run, name="touchline-camera-relay", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        from vision.sighting import (BallSighting, ConflictNotice, HealthChange, RecalibrationNeeded, Sighting,
                                     SizeNotice)

        self.ctl.set_health("camera", self.worker.health, "reading the board")

        state = None
        while not self._stop.is_set():
            state = self._hand_over(state)
            moved = False
            try:
                item = self.worker.sightings.get(timeout=0.05)
                moved = True
                if isinstance(item, Sighting):
                    self.ctl.sighting(item.to_core(), item.doubt)
                elif isinstance(item, BallSighting):
                    self.ctl.sighting(item.to_core())
            except queue.Empty:
                pass
            while True:
                try:
                    note = self.worker.status.get_nowait()
                except queue.Empty:
                    break
                if isinstance(note, HealthChange):
                    self.ctl.set_health("camera", note.health, note.reason)
                elif isinstance(note, RecalibrationNeeded):
                    self.ctl.set_health("camera", "degraded", "the board or the camera moved: calibrate again "
                                                              "(Menu > Calibrate)")
                elif isinstance(note, (ConflictNotice, SizeNotice)):
                    self.ctl.note(f"Camera: {note.reason}")
            if not moved and self.worker.finished.is_set() and self.worker.sightings.empty():
                return

    def _hand_over(self, last):
        """The rules' positions to the vision worker whenever the match's state changed (a
        move, a coach's override, a resumed or new match): the view is immutable, so reading
        it here is safe; the worker takes them on its own thread. Returns the state handed."""
        view = self.ctl.view
        state, rules = view.state, view.ruleset
        if state is last:
            return last
        standing = getattr(rules, "standing", None) if rules is not None else None
        try:
            self.worker.expect(standing(state) if standing is not None and state is not None else ())
        except Exception:  # a rules bug must not stop the camera: it reads without expectations
            log.exception("the rules' positions could not be read")
            self.worker.expect(())
        return state


def vision_board(board):
    """The board as vision reads it: a GridBoard. A game whose board is not one (Football
    Leader's spaces, the Fußball-Liga squares) gives vision its size; the camera reports board
    millimetres and the game's rules map them to their own squares and spaces."""
    from companion.board import GridBoard

    if isinstance(board, GridBoard):
        return board
    cols, rows = getattr(board, "cols", None), getattr(board, "rows", None)
    if not cols or not rows or cols < 2:
        # No grid of its own: centimetre cells, only for vision's own reports and overlays.
        cols, rows = max(2, round(board.length_mm / 10)), max(1, round(board.width_mm / 10))
    return GridBoard(name=str(getattr(board, "name", "board")), length_mm=float(board.length_mm),
                     width_mm=float(board.width_mm), ps_cols=int(cols), ps_rows=int(rows), ms_per_ps=1,
                     placeholder=bool(getattr(board, "placeholder", False)))


def synthetic_setup(table):
    """The rendered table's camera calibrated from its own corner markers, as a person would."""
    from calibration.corners import calibrate_from_frame
    from vision.locate import VisionSetup
    from vision.synth import render

    image, _ = render(table.scene)
    calibration = calibrate_from_frame(image, table.board, table.markers)
    return VisionSetup.from_calibration(calibration, table.board, markers=table.markers, marker_map=table.marker_map)


def game_board(game: str):
    """A game's shipped board (its box data), for a camera used before any match."""
    if game == "futboard":
        from companion.futboard.components import load_pitch
        return load_pitch().grid()
    if game == "football_leader":
        from companion.football_leader.components import load_board
        return load_board()
    if game == "fussball_liga":
        from companion.fussball_liga.components import load_pitch
        return load_pitch()
    from companion.fublet.components import load_board
    return load_board()


class CameraService:
    """The app's camera: the vision worker for the match, the latest frame for previews, and
    the pitch calibration (saved beside the matches, reused while it fits the camera)."""

    def __init__(self, controller, data_dir) -> None:
        from pathlib import Path

        self.ctl = controller
        self.calibration_path = Path(data_dir) / "calibration.json"
        # a lens calibration ('touchline calibrate-lens --out <data dir>/lens.json'): with it the
        # camera's height and the caps' parallax are exact, without it estimated
        self.lens_path = Path(data_dir) / "lens.json"
        # the markers' printed sizes a coach took from the camera check ("Use the measured size")
        self.sizes_path = Path(data_dir) / "marker_sizes.json"
        self.worker = None
        self.relay: CameraRelay | None = None
        self.table = None          # the rendered table, for the "demo" camera
        self.kind = "none"
        self.device: int | str = 0
        self.board_game = "fublet"  # whose board to read when no match is open (calibrating first)
        self._latest = None        # (image, FrameResult) from the vision thread
        self._lock = threading.Lock()

    # --- the feed --------------------------------------------------------------------------------
    def start(self, kind: str, device: int | str = 0, table=None) -> None:
        """Start reading: "device" (a camera), "demo" (a rendered table) or "none"."""
        from vision.live import VisionWorker
        from vision.sources import CameraSource, IterSource

        self.stop(keep_table=table is not None)
        self.kind, self.device = kind, device
        if kind == "none":
            self.ctl.set_health("camera", "off", "no camera: positions are entered by hand")
            return
        board = self._board()
        if kind == "demo":
            from .demo_table import DemoTable, shape_for
            self.table = table or DemoTable(board)
            if table is None:
                self.table.set_up(shape_for(board))
            open_source = lambda: IterSource(self.table.frames(), "demo table")  # noqa: E731
        else:
            open_source = lambda: CameraSource(device)  # noqa: E731
        self.worker = VisionWorker(open_source, self._saved_setup(board), self._calibrate_with(board),
                                   on_frame=self._keep, stop_at_end=False).start()
        self.relay = CameraRelay(self.worker, self.ctl).start()

    def stop(self, keep_table: bool = False) -> None:
        if self.relay is not None:
            self.relay.stop()
            self.relay = None
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self.table is not None and not keep_table:
            self.table.stop()
            self.table = None

    def _keep(self, frame, result) -> None:  # on the vision thread
        with self._lock:
            self._latest = (frame.image, result)

    def latest(self):
        """The newest frame with what was read on it, for a preview (or None)."""
        with self._lock:
            return self._latest

    @property
    def setup(self):
        return self.worker.setup if self.worker is not None else None

    # --- calibration -------------------------------------------------------------------------------
    def _board(self):
        state = self.ctl.view.state
        if state is not None and self.ctl.match is not None:
            board = self.ctl.match.ruleset.board(state)
            if board is not None:
                return vision_board(board)
        # No match yet: the board of the game the coach is about to play.
        return vision_board(game_board(self.board_game))

    def _markers(self):
        from vision.config import MarkerMap, MarkerSet
        markers = MarkerSet()
        taken = self.taken_sizes()
        if taken is not None:
            markers = taken.apply(markers)
        return markers, MarkerMap.default(markers)

    def _size_kw(self) -> dict:
        """Sizes a coach took are given; else the calibration's measure, or the frames' own."""
        if self.taken_sizes() is not None:
            return {"size_source": "given"}
        return {"size_source": "assumed"}

    def taken_sizes(self):
        """The sizes taken from the camera check (``vision.marker_size.MarkerSizes``), or None."""
        import json

        from vision.marker_size import MarkerSizes
        if not self.sizes_path.exists():
            return None
        try:
            sizes = MarkerSizes.from_json(json.loads(self.sizes_path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            self.ctl.note(f"Camera: the marker sizes saved cannot be used ({exc}); measuring them again")
            return None
        return sizes if sizes.measured else None

    def use_sizes(self, sizes) -> None:
        """Read the markers at ``sizes`` (measured by the camera check) from now on: saved beside
        the calibration, and the camera restarted with them."""
        import json
        self.sizes_path.parent.mkdir(parents=True, exist_ok=True)
        self.sizes_path.write_text(json.dumps(sizes.to_json(), indent=2) + "\n", encoding="utf-8")
        if self.kind != "none":
            self.start(self.kind, self.device, self.table)

    def _saved_setup(self, board):
        """The saved calibration, when it is for this board (its resolution is checked on the
        first frame by the worker)."""
        from calibration.errors import CalibrationError
        from calibration.store import Calibration
        from vision.locate import VisionSetup

        if not self.calibration_path.exists():
            return None
        try:
            cal = Calibration.load(self.calibration_path)
            cal.check_board(board)
        except (CalibrationError, OSError, ValueError) as exc:
            self.ctl.note(f"Camera: the saved calibration cannot be used ({exc}); calibrating from the corner "
                          f"markers")
            return None
        markers, marker_map = self._markers()
        return VisionSetup.from_calibration(cal, board, markers=markers, marker_map=marker_map, **self._size_kw())

    def _lens(self):
        """The stored lens calibration, or None (none stored, or unreadable: a note says so)."""
        from calibration.errors import CalibrationError
        from calibration.lens import LensCalibration

        if not self.lens_path.exists():
            return None
        try:
            return LensCalibration.load(self.lens_path)
        except CalibrationError as exc:
            self.ctl.note(f"Camera: the lens calibration cannot be used ({exc}); the camera is estimated from the "
                          f"corner markers")
            return None

    def _calibrate_with(self, board):
        lens = self._lens()

        def calibrate(image):
            from calibration.corners import calibrate_from_frame
            from vision.locate import VisionSetup
            markers, marker_map = self._markers()
            cal = calibrate_from_frame(image, board, markers, lens)
            return VisionSetup.from_calibration(cal, board, markers=markers, marker_map=marker_map,
                                                **self._size_kw())
        return calibrate

    def calibrate(self, corners_px=None):
        """Calibrate on the newest frame: from the corner markers, or from the four pitch
        corners a person tapped (pixels, in the order (0,0), (L,0), (L,W), (0,W)). Returns the
        Calibration (not saved yet); raises CalibrationError saying what is wrong."""
        from calibration.corners import calibrate_from_corners, calibrate_from_frame
        from calibration.errors import CalibrationError

        latest = self.latest()
        if latest is None:
            raise CalibrationError("no camera frame yet: check the camera is on and pointed at the board")
        image = latest[0]
        board = self._board()
        lens = self._lens()
        if corners_px is not None:
            return calibrate_from_corners(corners_px, (image.shape[1], image.shape[0]), board, lens)
        markers, _ = self._markers()
        return calibrate_from_frame(image, board, markers, lens)

    def check(self):
        """The camera check of the newest frame (``vision.camera_check.CameraCheck``) with that
        frame, or None with no frame or no calibration yet. Runs on the caller's thread (a few
        hundred milliseconds)."""
        from vision.camera_check import check_frame
        from vision.detect import to_gray

        latest, setup = self.latest(), self.setup
        if latest is None or setup is None:
            return None
        image = latest[0]
        if (image.shape[1], image.shape[0]) != setup.camera.size:
            return None
        return check_frame(setup, to_gray(image)), image

    def save(self, calibration) -> None:
        """Keep a calibration and read the camera with it from now on."""
        self.calibration_path.parent.mkdir(parents=True, exist_ok=True)
        calibration.save(self.calibration_path)
        if calibration.marker_sizes.get("figure_marker_mm") and self.sizes_path.exists():
            self.sizes_path.unlink()  # the new calibration measured the caps: newer than sizes taken before
        if self.kind != "none":
            self.start(self.kind, self.device, self.table)
