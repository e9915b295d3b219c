"""Panel pieces that keep their room, so nothing below them moves under a finger when what
they say changes: a hint in the room of the button it stands for, and the legend of the
colours a face fills the board with (ui/games/base.py ``Face.tints``)."""

from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from .. import theme
from .keypad import TOUCH

LEGEND_ROW = dp(30)
BOARD_GREEN = (0.18, 0.5, 0.24)   # the board's squares (ui/widgets/pitch.py), under a legend's chip


def button_room(text: str, colour=(0.85, 0.85, 0.85, 1), bold: bool = False) -> Label:
    """A hint as tall as the panel button it stands in for (two lines fit): when the button
    comes (a figure selected), nothing under it moves. A longer hint grows, as a button with
    a long text does, rather than spill out of its room."""
    lab = Label(text=text, font_size=sp(theme.SMALL_SP), color=colour, bold=bold, size_hint_y=None, height=TOUCH,
                halign="left", valign="middle")
    lab.bind(width=lambda *_: setattr(lab, "text_size", (lab.width, None)),
             texture_size=lambda *_: setattr(lab, "height", max(TOUCH, lab.texture_size[1] + dp(6))))
    return lab


def legend(items: list[tuple[str, tuple[float, float, float, float]]], rows: int = 2, cols: int = 3,
           hint: str = ""):
    """The colours on the board and what each means, in a fixed grid of ``rows`` x ``cols``
    (empty cells keep the room): "Short pass" on the short pass's colour. With no colours,
    ``hint`` in the same room."""
    height = rows * LEGEND_ROW + (rows - 1) * dp(3)
    if not items:
        lab = Label(text=hint, font_size=sp(theme.SMALL_SP), color=theme.MUTED, size_hint_y=None, height=height,
                    halign="left", valign="middle")
        lab.bind(width=lambda *_: setattr(lab, "text_size", (lab.width, None)))
        return lab
    grid = GridLayout(cols=cols, rows=rows, spacing=dp(3), size_hint_y=None, height=height)
    for i in range(rows * cols):
        text, rgba = items[i] if i < len(items) else ("", (0, 0, 0, 0))
        lab = Label(text=text, font_size=sp(theme.SMALL_SP), bold=True, color=(1, 1, 1, 1) if text else (0, 0, 0, 0),
                    halign="center", valign="middle", shorten=True, outline_width=1, outline_color=(0, 0, 0, 1))
        lab.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        # The chip as the board shows the colour: the tint at its own strength over the
        # squares' green (a full-strength chip matched nothing on the board, where a long
        # pass's violet read as grey).
        with lab.canvas.before:
            Color(*BOARD_GREEN, 1 if text else 0)
            ground = Rectangle(pos=lab.pos, size=lab.size)
            Color(*rgba[:3], rgba[3] if text else 0)
            rect = Rectangle(pos=lab.pos, size=lab.size)
        for r in (ground, rect):
            lab.bind(pos=lambda w, p, r=r: setattr(r, "pos", p), size=lambda w, s, r=r: setattr(r, "size", s))
        grid.add_widget(lab)
    return grid
