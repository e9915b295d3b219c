"""The camera check: the camera's picture with each marker's reading drawn over it (read, too
small, blurred, glare, too dark, unknown id, foreign pattern), and what to do about it in words
(vision/camera_check.py). Opened from the calibration wizard and from the live screen's camera
health line."""

from __future__ import annotations

import threading

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen


class CameraCheckScreen(Screen):
    summary = StringProperty("")
    advice = ListProperty([])
    has_picture = BooleanProperty(False)
    can_use_sizes = BooleanProperty(False)
    sizes_text = StringProperty("")
    busy = BooleanProperty(False)
    back_to = StringProperty("calibrate")
    _offer = None

    def on_pre_enter(self, *_args) -> None:
        self.has_picture = False
        self.run_check()

    def open_from(self, screen: str) -> None:
        """Open the check, coming back to ``screen`` afterwards."""
        self.back_to = screen
        App.get_running_app().show(self.name)

    def run_check(self) -> None:
        """Check the newest frame on a worker thread; the result comes back on the UI's."""
        camera = App.get_running_app().camera
        if camera.kind == "none":
            self._say("No camera is in use: choose one in the calibration wizard first.", [])
            return
        if camera.setup is None:
            self._say("The camera is not calibrated yet: calibrate it first (the corner markers, or tap the "
                      "pitch's corners).", [])
            return
        self.busy = True
        self.summary = "Checking the camera's picture..."

        def work():
            try:
                got = camera.check()
            except Exception as exc:  # the check must never take the app down
                got = exc
            Clock.schedule_once(lambda _dt: self._show_check(got))
        threading.Thread(target=work, name="touchline-camera-check", daemon=True).start()

    def _say(self, summary: str, advice: list[str]) -> None:
        self.busy = False
        self.summary, self.advice = summary, advice
        self.can_use_sizes, self.sizes_text, self._offer = False, "", None

    def _show_check(self, got) -> None:
        from vision.camera_check import draw_check

        if isinstance(got, Exception):
            self._say(f"The check failed ({got}); try again.", [])
            return
        if got is None:
            self._say("No picture from the camera yet: wait a moment and check again.", [])
            return
        check, image = got
        self.busy = False
        self.summary = f"Markers: {check.summary}."
        self.advice = list(check.advice)
        self._offer = check.offer
        self.can_use_sizes = self._offer is not None
        if self._offer is not None:
            parts = []
            if self._offer.figure_mm is not None:
                parts.append(f"caps {self._offer.figure_mm:g} mm")
            if self._offer.ball_mm is not None:
                parts.append(f"ball {self._offer.ball_mm:g} mm")
            self.sizes_text = "Use the measured size (" + ", ".join(parts) + ")"
        self._show(draw_check(image, check, min(1.0, 1280 / image.shape[1])))
        self.has_picture = True

    def _show(self, bgr: np.ndarray) -> None:
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)[::-1].copy()  # Kivy textures start at the bottom row
        texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.ids.picture.texture = texture

    def use_sizes(self) -> None:
        if self._offer is None:
            return
        camera = App.get_running_app().camera
        try:
            camera.use_sizes(self._offer)
        except OSError as exc:
            self._say(f"Cannot save the sizes ({exc.strerror or exc}): start Touchline with a data folder it can "
                      f"write to.", [])
            return
        self._say("The camera now reads the markers at the measured size. Check again in a moment.", [])
