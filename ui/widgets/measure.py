"""Measuring the printed board on the camera's picture: after calibration, a tap on a printed
line reads as board millimetres, two taps as the distance between them, and a reading can go
straight into the box editor's field last touched."""

from __future__ import annotations

import math

import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.popup import Popup

TEXT = "20sp"   # a string: Kivy reads it as sp when a widget is made (the text-size setting)


def board_point(setup, px: tuple[float, float]) -> tuple[float, float]:
    """A camera pixel on the board plane, in board millimetres (the vision's own mapping)."""
    from vision.locate import marker_points_mm

    corners = np.array([[px, px, px, px]], float)
    x, y = marker_points_mm(setup.camera, corners, np.zeros(1), setup.plane_homography)[0, 0]
    return float(x), float(y)


class MeasurePopup(Popup):
    def __init__(self, put=None, target: str = "", **kwargs) -> None:
        super().__init__(title="Measure on the camera", title_size=sp(24), size_hint=(0.94, 0.94), **kwargs)
        self.camera = App.get_running_app().camera
        self.put = put            # put(value) fills the editor's field last touched
        self.points: list[tuple[float, float]] = []     # board mm
        self.pixels: list[tuple[float, float]] = []
        self._frame_size: tuple[int, int] | None = None
        body = BoxLayout(spacing=dp(12), padding=dp(6))
        self.preview = Image(size_hint_x=0.66, fit_mode="contain")
        self.preview.bind(on_touch_down=lambda _w, touch: self.on_preview_touch(touch))
        body.add_widget(self.preview)
        side = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_x=0.34)
        self.readout = Label(font_size=TEXT, halign="left", valign="top")
        self.readout.bind(size=lambda w, s: setattr(w, "text_size", s))
        side.add_widget(self.readout)
        self.buttons = {}
        for key, text in (("x", "x"), ("y", "y"), ("d", "distance")):
            b = Button(text=f"Put {text} in {target}" if target else f"Put {text}", font_size=sp(18),
                       size_hint_y=None, height=dp(56), disabled=True, shorten=True)
            b.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(10), None)))
            b.bind(on_release=lambda _b, k=key: self._put(k))
            side.add_widget(b)
            self.buttons[key] = b
        for text, action in (("Clear the points", self.clear), ("Close", self.dismiss)):
            b = Button(text=text, font_size=TEXT, size_hint_y=None, height=dp(56))
            b.bind(on_release=lambda *_a, f=action: f())
            side.add_widget(b)
        body.add_widget(side)
        self.content = body
        self._event = Clock.schedule_interval(self.refresh, 1 / 6)
        self.bind(on_dismiss=lambda *_: self._event.cancel())
        self._say()

    # --- the picture ------------------------------------------------------------------------------
    def refresh(self, _dt) -> None:
        import cv2

        latest = self.camera.latest() if self.camera.kind != "none" else None
        if latest is None:
            return
        image = latest[0]
        picture = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        for i, (x, y) in enumerate(self.pixels):
            cv2.drawMarker(picture, (int(x), int(y)), (0, 200, 255), cv2.MARKER_CROSS, 36, 3)
            cv2.putText(picture, str(i + 1), (int(x) + 14, int(y) - 12), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                        (0, 200, 255), 3)
        h, w = picture.shape[:2]
        rgb = cv2.cvtColor(picture, cv2.COLOR_BGR2RGB)[::-1].copy()   # Kivy textures start at the bottom row
        texture = self.preview.texture
        if texture is None or texture.size != (w, h):
            texture = Texture.create(size=(w, h), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.preview.texture = texture
        self.preview.canvas.ask_update()
        self._frame_size = (w, h)
        if not self.points:
            self._say()

    def to_image(self, x: float, y: float) -> tuple[float, float] | None:
        if self._frame_size is None or self.preview.texture is None:
            return None
        nw, nh = self.preview.norm_image_size
        u = (x - (self.preview.center_x - nw / 2)) / nw
        v = (y - (self.preview.center_y - nh / 2)) / nh
        if not (0 <= u <= 1 and 0 <= v <= 1):
            return None
        return u * self._frame_size[0], (1 - v) * self._frame_size[1]

    def on_preview_touch(self, touch) -> bool:
        if not self.preview.collide_point(*touch.pos):
            return False
        px = self.to_image(*touch.pos)
        setup = self.camera.setup
        if px is None or setup is None:
            return True
        self.tap_pixel(px)
        return True

    def tap_pixel(self, px: tuple[float, float]) -> None:
        if len(self.points) == 2:
            self.points, self.pixels = [], []
        self.points.append(board_point(self.camera.setup, px))
        self.pixels.append(px)
        self._say()

    def clear(self) -> None:
        self.points, self.pixels = [], []
        self._say()

    # --- what it says ------------------------------------------------------------------------------
    def distance(self) -> float | None:
        if len(self.points) < 2:
            return None
        (x0, y0), (x1, y1) = self.points
        return math.hypot(x1 - x0, y1 - y0)

    def _say(self) -> None:
        if self.camera.kind == "none":
            text = "No camera in use: start a match with a camera (setup screen), then measure here."
        elif self.camera.setup is None:
            text = "The camera is not calibrated yet: calibrate it (Home > Calibrate the camera) first."
        elif not self.points:
            text = "Tap a printed line or corner on the picture: its place on the board shows here, in mm. " \
                   "Tap a second one for the distance between them."
        else:
            lines = [f"Point {i + 1}: x {x:.1f} mm, y {y:.1f} mm" for i, (x, y) in enumerate(self.points)]
            d = self.distance()
            if d is not None:
                (x0, y0), (x1, y1) = self.points
                lines.append(f"Between them: {d:.1f} mm (along {abs(x1 - x0):.1f}, across {abs(y1 - y0):.1f})")
            text = "\n".join(lines)
        self.readout.text = text
        last = self.points[-1] if self.points else None
        self.buttons["x"].disabled = self.put is None or last is None
        self.buttons["y"].disabled = self.put is None or last is None
        self.buttons["d"].disabled = self.put is None or self.distance() is None

    def _put(self, key: str) -> None:
        if self.put is None:
            return
        if key == "d":
            value = self.distance()
        else:
            value = self.points[-1][0 if key == "x" else 1]
        if value is not None:
            self.put(round(value, 1))
