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

from ..games import face_for, ready
from ..words import CAMERA, named, value_of
from ..widgets.fit_label import FitLabel  # noqa: F401 (the kv's title)

# The pitch's corners in the order the calibration takes them, named as the live screen
# draws the pitch (board x to the right, y up).
CORNER_NAMES = ("bottom-left", "bottom-right", "top-right", "top-left")
ORDINALS = ("first", "second", "third", "last")


def size_words(calibration) -> str:
    """What the calibration measured of the caps' printed size, in a sentence (or nothing)."""
    sizes = getattr(calibration, "marker_sizes", None) or {}
    fig, n = sizes.get("figure_marker_mm"), sizes.get("caps_measured", 0)
    if not fig:
        return " Set the figures up before calibrating, and it measures their markers' size too."
    return f" The caps' markers measure {fig:g} mm across ({n} caps): the camera reads them at that size."


def corner_prompt(n: int) -> str:
    return (f"Tap the {ORDINALS[n]} corner ({n + 1} of 4): the pitch's {CORNER_NAMES[n]} corner, "
            f"as the live screen draws the pitch.")


class CalibrateScreen(Screen):
    in_match = BooleanProperty(False)            # the board is the match's; else chosen here
    games = ListProperty([])
    board_title = StringProperty("")
    camera_name = StringProperty("")
    cameras = ListProperty(list(CAMERA.values()))
    has_picture = BooleanProperty(False)
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
        app = App.get_running_app()
        self.in_match = app.controller.view.active and app.controller.match is not None
        self.games = [face_for(g).title for g in ready()]
        self.board_title = face_for(app.game() if self.in_match else self.camera.board_game).title
        self.camera_name = named(CAMERA, self.camera.kind)
        self.has_picture = False
        self.ids.preview.texture = None
        self.verdict = ""
        self._say_what_next()
        self._event = Clock.schedule_interval(self.refresh, 1 / 8)

    def _say_what_next(self) -> None:
        if self.camera.kind == "none":
            self.hint = "No camera is in use: choose the camera above, and the picture appears here."
        else:
            self.hint = "Find the corner markers, or tap the pitch's four corners on the picture."

    # --- the camera and the board, chosen here (no match needed) ---------------------------------
    def choose_camera(self, name: str) -> None:
        kind = value_of(CAMERA, name)
        if kind == self.camera.kind:
            return
        app = App.get_running_app()
        app.settings_for_match(camera=kind)
        app.start_camera(kind)
        self.has_picture = False
        self.ids.preview.texture = None
        self.taps, self.candidate, self.verdict = [], None, ""
        self._say_what_next()

    def choose_board(self, title: str) -> None:
        if self.in_match:
            return
        by_title = {face_for(g).title: g for g in ready()}
        game = by_title.get(title)
        if game is None or game == self.camera.board_game:
            return
        self.camera.board_game = game
        if self.camera.kind != "none":
            App.get_running_app().start_camera(self.camera.kind)
        self.taps, self.candidate, self.verdict = [], None, ""

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
        self.has_picture = True

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
        if not self.ids.preview.collide_point(*touch.pos) or len(self.taps) >= 4 or not self.has_picture:
            return False
        point = self.to_image(*touch.pos)
        if point is None:
            return False
        self.taps = self.taps + [point]
        if len(self.taps) < 4:
            self.hint = corner_prompt(len(self.taps))
        else:
            self._try(lambda: self.camera.calibrate(np.array(self.taps)))
        return True

    # --- buttons ------------------------------------------------------------------------------------
    def find_markers(self) -> None:
        self.taps = []
        if self.camera.kind == "none":
            self.verdict_ok = False
            self.verdict = "No camera is in use: choose the camera above first."
            return
        self._try(lambda: self.camera.calibrate())

    def start_tapping(self) -> None:
        self.taps, self.candidate = [], None
        self.verdict = ""
        if self.camera.kind == "none":
            self.hint = "Choose a camera first (above): the corners are tapped on its picture."
            return
        self.hint = corner_prompt(0)

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
        self.verdict = f"{q.reason[0].upper()}{q.reason[1:]}.{size_words(self.candidate)} Save to use it."

    def save(self) -> None:
        if self.candidate is None:
            self.verdict = "Nothing to save yet: find the corner markers or tap the corners first."
            return
        try:
            self.camera.save(self.candidate)
        except OSError as exc:
            self.verdict_ok = False
            self.verdict = (f"Cannot save the calibration ({exc.strerror or exc}): start Touchline with a data "
                            f"folder it can write to (--data-dir), and calibrate again.")
            return
        self.verdict_ok = True
        self.verdict = "Saved: the camera now reads the board with this calibration."
        self.candidate, self.taps = None, []
