"""Team colours on the live screen's words: the scoreboard's team names on their shirts, and
a panel line (whose roll the keypad fills, a request's header) on its side's shirt, with black
or white text by the shirt's luminance (ui/theme.py ``Kit``)."""

from __future__ import annotations

import re

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import DictProperty, StringProperty
from kivy.uix.label import Label
from kivy.utils import escape_markup

from .. import theme
from ..words import team_names
from .fit_label import FitLabel
from .keypad import wrap_label


def score_markup(score: str, summary, kits: dict) -> str:
    """The scoreboard line with each team's name tagged ``[ref=home]`` (its shirt is drawn
    behind it) in its text colour."""
    text = escape_markup(score)
    names = team_names(summary)
    for side in ("home", "away"):
        name = names.get(side)
        kit = kits.get(side)
        if name and kit is not None:
            text = text.replace(escape_markup(name), f"[ref={side}][color={theme.hex_of(kit.text)}] "
                                f"{escape_markup(name)} [/color][/ref]", 1)
    return text


class ScoreLabel(FitLabel):
    """A markup label that paints each ``[ref=home]``/``[ref=away]`` span on its side's shirt.
    Two long team names in large text: the line gets smaller to fit (down to ``least``); still
    too long, the names are shortened ("Touchline R."), never the score between them (Kivy's
    ``shorten`` cut "1 - 1" out of the middle)."""

    kits = DictProperty({})     # "home"/"away" -> theme.Kit
    whole = StringProperty("")  # the line as the screen says it; ``text`` is what fits of it

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(refs=self._paint, pos=self._paint, size=self._paint, texture_size=self._paint, kits=self._paint)
        self.bind(whole=self.fit)

    def fit(self, *_args) -> None:
        if not self.largest or not self.whole:
            self.text = self.whole
            return
        self.font_size = self.size_for(self.whole)
        text = self.whole
        longest = max((len(name) for _head, name, _tail in NAMED.findall(text)), default=0)
        for keep in range(longest - 1, 2, -1):   # the names a letter shorter each time
            if self.needed(text, self.font_size) <= self.room:
                break
            text = NAMED.sub(lambda m, k=keep: m.group(1) + _cut(m.group(2), k) + m.group(3), self.whole)
        self.text = text   # (its own fit: sized already, it changes nothing)

    def _paint(self, *_args) -> None:
        self.canvas.before.clear()
        tw, th = self.texture_size
        tx, ty = int(self.center_x - tw / 2), int(self.center_y - th / 2)
        with self.canvas.before:
            for side, boxes in self.refs.items():
                kit = self.kits.get(side)
                if kit is None:
                    continue
                for x1, y1, x2, y2 in boxes:
                    pos, size = (tx + x1, ty + th - y2 - dp(2)), (x2 - x1, y2 - y1 + dp(4))
                    Color(*kit.shirt)
                    Rectangle(pos=pos, size=size)
                    Color(*kit.ring)
                    Line(rectangle=(*pos, *size), width=dp(1.5))


NAMED = re.compile(r"(\[ref=(?:home|away)\](?:\[color=[^\]]*\])? )(.+?)( (?:\[/color\])?\[/ref\])")


def _cut(name: str, keep: int) -> str:
    """``name`` in at most ``keep`` characters and a full stop: "Touchline R."."""
    return name if len(name) <= keep else name[:keep].rstrip() + "."


def team_line(text: str, kit, size: float = 20, bold: bool = True) -> Label:
    """A panel line on its side's shirt: who the keypad fills, a request's header."""
    lab = wrap_label(text, size, colour=kit.text, bold=bold)
    lab.padding = (dp(8), dp(4))

    def paint(*_args) -> None:
        lab.canvas.before.clear()
        with lab.canvas.before:
            Color(*kit.shirt)
            Rectangle(pos=lab.pos, size=lab.size)
            Color(*kit.ring)
            Line(rectangle=(lab.x, lab.y, lab.width, lab.height), width=dp(1.5))
    lab.bind(pos=paint, size=paint)
    lab.bind(width=lambda *_: setattr(lab, "text_size", (lab.width, None)),
             texture_size=lambda *_: setattr(lab, "height", max(lab.texture_size[1] + dp(8), dp(32))))
    return lab
