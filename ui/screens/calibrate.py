"""The calibration wizard: the camera's view with what it finds drawn over it; calibrate from
the corner markers or by tapping the pitch's corners; the verdict; save."""

from __future__ import annotations

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

CORNER_NAMES = ("(0, 0)", "(length, 0)", "(length, width)", "(0, width)")


class CalibrateScreen(Screen):
    verdict = StringProperty("")
    verdict_ok = BooleanProperty(False)
    hint = StringProperty("")
    taps = ListProperty([])                      # image pixels tapped so far
    candidate = ObjectProperty(None, allownone=True)  # a calibration not saved yet
    _event = None

    @property
    def camera(self):
        return App.get_running_app().camera

    def on_pre_enter(self, *_args) -> None:
        self.taps, self.candidate = [], None
        if self.camera.kind == "none":
            self.hint = "No camera is in use: choose one on the setup screen (device, or demo)."
        else:
            self.hint = "Find the corner markers, or tap the pitch's four corners on the picture."
        self.verdict = ""
        self._event = Clock.schedule_interval(self.refresh, 1 / 8)

    def on_leave(self, *_args) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None

    # --- the picture --------------------------------------------------------------------------------
    def refresh(self, _dt) -> None:
        latest = self.camera.latest()
        if latest is None:
            return
        image, result = latest
        setup = self.camera.setup
        if setup is not None and result is not None:
            from vision.overlay import draw_result
            picture = draw_result(image, setup, result)
        else:
            picture = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        for i, (x, y) in enumerate(self.taps):
            cv2.circle(picture, (int(x), int(y)), 12, (0, 200, 255), 3)
            cv2.putText(picture, str(i + 1), (int(x) + 14, int(y) - 8), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                        (0, 200, 255), 2)
        self._show(picture)

    def _show(self, bgr: np.ndarray) -> None:
        preview = self.ids.preview
        h, w = bgr.shape[:2]
        scale = min(1.0, 1280 / w)
        if scale < 1.0:
            bgr = cv2.resize(bgr, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)[::-1].copy()  # Kivy textures start at the bottom row
        texture = preview.texture
        if texture is None or texture.size != (rgb.shape[1], rgb.shape[0]):
            texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        preview.texture = texture
        preview.canvas.ask_update()
        self._frame_size = (w, h)

    def to_image(self, x: float, y: float) -> tuple[float, float] | None:
        """Where a touch on the preview falls in the camera frame's pixels."""
        preview = self.ids.preview
        size = getattr(self, "_frame_size", None)
        if size is None or preview.texture is None:
            return None
        nw, nh = preview.norm_image_size
        left = preview.center_x - nw / 2
        bottom = preview.center_y - nh / 2
        u, v = (x - left) / nw, (y - bottom) / nh
        if not (0 <= u <= 1 and 0 <= v <= 1):
            return None
        return u * size[0], (1 - v) * size[1]

    def on_preview_touch(self, touch) -> bool:
        if not self.ids.preview.collide_point(*touch.pos) or len(self.taps) >= 4 or self.camera.kind == "none":
            return False
        point = self.to_image(*touch.pos)
        if point is None:
            return False
        self.taps = self.taps + [point]
        if len(self.taps) < 4:
            self.hint = f"Now tap the corner at board {CORNER_NAMES[len(self.taps)]}."
        else:
            self._try(lambda: self.camera.calibrate(np.array(self.taps)))
        return True

    # --- buttons ------------------------------------------------------------------------------------
    def find_markers(self) -> None:
        self.taps = []
        self._try(lambda: self.camera.calibrate())

    def start_tapping(self) -> None:
        self.taps, self.candidate = [], None
        self.verdict = ""
        self.hint = f"Tap the pitch corner at board {CORNER_NAMES[0]} (the goal line at x = 0, touch line y = 0)."

    def _try(self, make) -> None:
        from calibration.errors import CalibrationError
        try:
            self.candidate = make()
        except CalibrationError as exc:
            self.candidate = None
            self.verdict_ok = False
            self.verdict = f"Not calibrated: {exc}"
            return
        q = self.candidate.quality
        self.verdict_ok = q.verdict in ("good", "usable", "unchecked")
        self.verdict = f"{q.reason[0].upper()}{q.reason[1:]}. Save to use it."

    def save(self) -> None:
        if self.candidate is None:
            self.verdict = "Nothing to save yet: find the corner markers or tap the corners first."
            return
        self.camera.save(self.candidate)
        self.verdict_ok = True
        self.verdict = f"Saved to {self.camera.calibration_path}; the camera now reads the board with it."
        self.candidate, self.taps = None, []
