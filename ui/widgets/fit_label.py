"""A one-line label that gets smaller to fit its width (down to ``least``) instead of being cut:
a long team name or book title in large text in an 800 px window."""

from __future__ import annotations

import re

from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.label import Label

MARKUP = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")   # "[b]", "[color=ff0000]", "[/ref]"


def fit_size(needed: float, room: float, largest: float, least: float) -> float:
    """The size a line ``needed`` pixels wide at ``largest`` is drawn at in ``room`` pixels:
    ``largest`` if it fits, else smaller in proportion, never under ``least``."""
    return largest if needed <= room else max(least or largest, largest * room / needed)


class FitLabel(Label):
    """``font_size`` follows the room: ``largest`` when the line fits, smaller until ``least``
    (both in pixels, from kv's sp strings). Past ``least`` Kivy's ``shorten`` is the last resort."""

    largest = NumericProperty(0)
    least = NumericProperty(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(text=self.fit, width=self.fit, largest=self.fit, least=self.fit)
        self.fit()   # what the constructor was given

    def needed(self, text: str, size: float) -> float:
        """The pixels ``text`` (markup stripped) takes on one line at ``size``."""
        from kivy.core.text import Label as CoreLabel

        plain = MARKUP.sub("", text) if self.markup else text
        return CoreLabel(font_size=size, bold=self.bold).get_extents(plain)[0] + dp(8)

    @property
    def room(self) -> float:
        pad = self.padding[0] if isinstance(self.padding, (list, tuple)) else self.padding
        return max(1.0, self.width - 2 * float(pad))

    def size_for(self, text: str) -> float:
        """The size ``text`` is drawn at: ``largest`` if it fits, else smaller, never under ``least``."""
        return fit_size(self.needed(text, self.largest), self.room, self.largest, self.least)

    def fit(self, *_args) -> None:
        if self.largest and self.text:
            self.font_size = self.size_for(self.text)
