"""Buttons with an icon: a glyph from the DejaVu Sans font Kivy ships (undo, redo, menu,
settings, a die...) drawn at the button's left, the button's ``text`` left as plain words
(what a coach reads, and what the tests press)."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.togglebutton import ToggleButton

ICON_FONT = "DejaVuSans"
UNDO, REDO, MENU, SETTINGS, PLAY, WARNING, DIE, CAMERA_RETRY = "↶", "↷", "☰", "⚙", "▶", "⚠", "⚅", "⟳"


class IconMixin:
    icon = StringProperty("")

    def _setup_icon(self) -> None:
        self._icon_texture = None
        self.bind(icon=self._draw_icon, pos=self._draw_icon, size=self._draw_icon, font_size=self._draw_icon,
                  disabled=self._draw_icon)

    def _draw_icon(self, *_args) -> None:
        self.canvas.after.clear()
        if not self.icon:
            return
        label = CoreLabel(text=self.icon, font_name=ICON_FONT, font_size=max(self.font_size * 1.15, sp(20)))
        label.refresh()
        tex = label.texture
        gap = dp(6)
        # Icon and words centred together: the words move right by the icon's room.
        room = tex.width + gap
        if tuple(self.padding) != (room, 0, 0, 0):
            self.padding = (room, 0, 0, 0)
        self.texture_update()   # the words' texture includes the icon's room (padding)
        left = self.x + (self.width - self.texture_size[0]) / 2   # not center_x: stale inside a size event
        with self.canvas.after:
            Color(1, 1, 1, 0.45 if self.disabled else 1)
            Rectangle(texture=tex, size=tex.size, pos=(left, self.y + (self.height - tex.height) / 2))


class IconButton(IconMixin, Button):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._setup_icon()


class IconToggleButton(IconMixin, ToggleButton):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._setup_icon()
