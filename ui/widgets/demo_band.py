"""The demo's band over the app's screens (its look: ui/kv/demo_band.kv): what the camera
sees, the dice tray's last roll, what is happening in a sentence a newcomer can follow, and
the buttons: Stop demo while it plays; Watch again and Start your own match once it is over.

It holds no match state: ui/demo_app.py hands it the director's captions and the camera's
newest picture, and it calls back when a button is tapped."""

from __future__ import annotations

from typing import Callable

from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from .. import theme

PICTURE_WIDTH = 480   # pixels the camera's picture is scaled to: sharp in the band, cheap to draw


class DieFace(Label):
    die = StringProperty("black")


class DemoBand(BoxLayout):
    title = StringProperty("")
    text = StringProperty("")
    over = BooleanProperty(False)
    dice = ListProperty([])      # [(colour, face), ...]: the tray's last roll
    dice_by = StringProperty("")  # whose dice: "Harbour Athletic's"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._actions: list[tuple[str, Callable[[], None]]] = []

    def on_dice(self, *_args) -> None:
        box = self.ids.dice
        box.clear_widgets()
        if not self.dice:
            return
        who = f"{self.dice_by} dice:" if self.dice_by else "Dice tray:"
        label = Label(text=who, font_size=theme.SMALL, size_hint_x=None, color=theme.MUTED)
        label.bind(texture_size=lambda w, size: setattr(w, "width", size[0]))
        label.texture_update()
        box.add_widget(label)
        for colour, face in self.dice:
            box.add_widget(DieFace(text=str(face), die=colour))

    @property
    def buttons(self) -> list[str]:
        return [text for text, _ in self._actions]

    def set_actions(self, actions: list[tuple[str, Callable[[], None]]]) -> None:
        """The band's buttons, top to bottom: (text, what a tap does)."""
        if [text for text, _ in actions] == [text for text, _ in self._actions]:
            self._actions = actions
            return
        self._actions = actions
        box = self.ids.actions
        box.clear_widgets()
        for i, (text, _) in enumerate(actions):
            b = Button(text=text, font_size=theme.BODY, bold=i == 0 and self.over, background_normal="",
                       background_color=(0.16, 0.55, 0.28, 1) if i == 0 and self.over else theme.SURFACE,
                       halign="center", valign="middle")
            b.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(8), None)))
            b.bind(on_release=lambda _b, i=i: self._actions[i][1]())
            box.add_widget(b)

    def show_picture(self, bgr) -> None:
        """The camera's newest frame (a BGR numpy image), scaled down into the band."""
        import cv2

        h, w = bgr.shape[:2]
        scale = PICTURE_WIDTH / w
        small = cv2.resize(bgr, (PICTURE_WIDTH, max(1, int(h * scale))), interpolation=cv2.INTER_AREA)
        rgb = cv2.cvtColor(small, cv2.COLOR_BGR2RGB)[::-1].copy()   # Kivy textures start at the bottom row
        image = self.ids.camera
        texture = image.texture
        if texture is None or texture.size != (rgb.shape[1], rgb.shape[0]):
            texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        image.texture = texture
        image.canvas.ask_update()
