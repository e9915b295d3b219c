"""The camera in the app: the vision worker's queues relayed to the controller.

The vision thread commits sightings and reports its health; a small relay thread hands
each sighting to the controller (which proposes it to the rules on its own worker) and turns
health changes, recalibration requests and conflicts into what the tablet shows.
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
        from vision.sighting import BallSighting, ConflictNotice, HealthChange, RecalibrationNeeded, Sighting

        self.ctl.set_health("camera", self.worker.health, "reading the board")

        while not self._stop.is_set():
            moved = False
            try:
                item = self.worker.sightings.get(timeout=0.05)
                moved = True
                if isinstance(item, (Sighting, BallSighting)):
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
                elif isinstance(note, ConflictNotice):
                    self.ctl.note(f"Camera: marker {note.marker} {note.reason}")
            if not moved and self.worker.finished.is_set() and self.worker.sightings.empty():
                return


def synthetic_setup(table):
    """The rendered table's camera calibrated from its own corner markers, as a person would."""
    from calibration.corners import calibrate_from_frame
    from vision.locate import VisionSetup
    from vision.synth import render

    image, _ = render(table.scene)
    calibration = calibrate_from_frame(image, table.board, table.markers)
    return VisionSetup.from_calibration(calibration, table.board, markers=table.markers, marker_map=table.marker_map)
