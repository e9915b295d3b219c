"""The key to the lit cells on the board: a swatch in each kind's colour and what a tap there
would mean ("pass to a teammate", "shot at goal"), so a coach who has never seen the app
reads the board without asking."""

from __future__ import annotations

from collections.abc import Iterable

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .. import theme
from ..games.base import TARGET_KINDS


class Swatch(Widget):
    """A square of a target kind's colour, over the board's green as on the pitch."""

    def __init__(self, rgba, **kwargs) -> None:
        super().__init__(size_hint=(None, None), size=(dp(26), dp(26)), **kwargs)
        with self.canvas:
            Color(*theme.PITCH_GREEN[:3], 1)
            self._ground = Rectangle(pos=self.pos, size=self.size)
            Color(rgba[0], rgba[1], rgba[2], min(1.0, rgba[3] * 1.6))
            self._fill = Rectangle(pos=self.pos, size=self.size)
            Color(1, 1, 1, 0.8)
            self._edge = Line(rectangle=(*self.pos, *self.size), width=1)
        self.bind(pos=self._place, size=self._place)

    def _place(self, *_args) -> None:
        self._ground.pos = self._fill.pos = self.pos
        self._ground.size = self._fill.size = self.size
        self._edge.rectangle = (*self.pos, *self.size)


def legend(kinds: Iterable[str]) -> GridLayout:
    """One row a kind, in the order given (each kind once): swatch, then its words."""
    seen: list[str] = []
    for kind in kinds:
        if kind in TARGET_KINDS and kind not in seen:
            seen.append(kind)
    grid = GridLayout(cols=2, spacing=(dp(6), dp(2)), size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for kind in seen:
        rgba, words = TARGET_KINDS[kind]
        cell = BoxLayout(size_hint=(None, None), size=(dp(30), dp(30)), padding=dp(2))
        cell.add_widget(Swatch(rgba))
        grid.add_widget(cell)
        lab = Label(text=words, font_size=sp(theme.SMALL_SP), color=theme.TEXT, size_hint_y=None, height=dp(30),
                    halign="left", valign="middle")
        lab.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        grid.add_widget(lab)
    return grid
