"""The app's camera calibrates with the lens calibration stored beside its pitch calibration
(``<data dir>/lens.json``), and without it (or with a damaged one, said in a note) estimates
the camera from what it sees."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.lens import LensCalibration
from companion.fublet.components import load_board
from ui.camera import CameraService
from vision.config import MarkerSet
from vision.synth import Scene, random_camera, random_figures, render


class Ctl:
    """The controller as the camera service sees it: no match open, notes kept."""

    match = None

    class view:
        state = None

    def __init__(self) -> None:
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)


def test_the_stored_lens_calibration_is_used_and_a_damaged_one_named(tmp_path):
    board = load_board()
    rng = np.random.default_rng(31)
    cam = random_camera(rng, board, MarkerSet(), distortion=0.05, min_tilt_deg=8.0, max_tilt_deg=12.0)
    image = render(Scene(cam, board, MarkerSet(), random_figures(rng, board, MarkerSet())))[0]
    service = CameraService(Ctl(), tmp_path)
    service._latest = (image, None)
    service.board_game = "fublet"
    guessed = service.calibrate()
    assert guessed.focal_source in ("caps", "pitch", "prior")
    LensCalibration(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.dist).save(tmp_path / "lens.json")
    exact = service.calibrate()
    assert exact.focal_source == "lens"
    assert np.linalg.norm(exact.camera.center_mm - cam.center_mm) < 3.0
    (tmp_path / "lens.json").write_text("{ not json")
    again = service.calibrate()
    assert again.focal_source != "lens"
    assert any("lens calibration cannot be used" in n and "lens.json" in n for n in service.ctl.notes)
    # a lens calibrated at another resolution is refused with the reason, not ignored
    small = LensCalibration(1280, 720, 900.0, 900.0, 640.0, 360.0, (0.0,) * 5)
    small.save(tmp_path / "lens.json")
    with pytest.raises(CalibrationError, match="made for 1280x720 frames"):
        service.calibrate()
