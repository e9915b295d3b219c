"""Small widgets of the live screen: the dice keypad and labelled bars."""

from __future__ import annotations

import re

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .. import theme

TOUCH = dp(52)  # touch targets: above the 48 dp floor, a finger's width on a 10" tablet


def button(text: str, on_press, **kwargs) -> Button:
    """A panel button: the text wraps inside it and the button grows to it (a long option
    never spills over its neighbours)."""
    kwargs.setdefault("font_size", sp(theme.SMALL_SP + 1))
    b = Button(text=text, size_hint_y=None, height=TOUCH, halign="center", valign="middle", **kwargs)
    b.bind(width=lambda *_: setattr(b, "text_size", (b.width - dp(12), None)),
           texture_size=lambda *_: setattr(b, "height", max(TOUCH, b.texture_size[1] + dp(12))))
    b.bind(on_release=lambda *_: on_press())
    return b


def two_columns(panel) -> None:
    """A narrow window's panel: each run of two or more of its buttons two to a row, at the
    smallest text size (18 sp), so the coach sees what he can do without scrolling (one to a
    row, 800x600 showed one button of five). A run's odd last button keeps the whole width, as
    does a button marked ``whole_row`` (one a hint's room sits beside within a step: pairing
    it when the other came would move it under the finger)."""
    rows = list(reversed(panel.children))
    runs: list[list] = [[]]
    for w in rows:
        if type(w) is Button and w.size_hint_y is None and not getattr(w, "whole_row", False):
            runs[-1].append(w)
        elif runs[-1]:
            runs.append([])
    runs = [r for r in runs if len(r) >= 2]
    if not runs:
        return
    panel.clear_widgets()
    firsts = {id(r[0]): r for r in runs}
    taken = {id(b) for r in runs for b in r}
    for w in rows:
        run = firsts.get(id(w))
        if run is not None:
            pairs = run[:len(run) // 2 * 2]
            grid = GridLayout(cols=2, spacing=dp(4), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for b in pairs:
                b.font_size = sp(theme.SMALL_SP)
                grid.add_widget(b)
            panel.add_widget(grid)
            if len(run) % 2:
                panel.add_widget(run[-1])
        elif id(w) not in taken:
            panel.add_widget(w)


def wrap_label(text: str, size: float = 20, colour=(1, 1, 1, 1), bold: bool = False, slot: bool = False) -> Label:
    """A label that wraps to its width and grows to its text (panel texts, requests). A
    ``slot`` is at least a button's height: a hint that a button takes the place of later
    (nothing below it moves then)."""
    least = TOUCH if slot else 0
    lab = Label(text=text, font_size=sp(max(size, theme.SMALL_SP)), color=colour, bold=bold, size_hint_y=None,
                halign="left", valign="middle")
    lab.bind(width=lambda *_: setattr(lab, "text_size", (lab.width, None)),
             texture_size=lambda *_: setattr(lab, "height", max(lab.texture_size[1] + dp(6), dp(24), least)))
    return lab


class DiceKeypad(BoxLayout):
    """Digits for the dice a request asks for; ``on_roll(text)`` when the coach confirms."""

    text = StringProperty("")
    __events__ = ("on_roll",)

    def __init__(self, compact: bool = False, **kwargs) -> None:
        """``compact``: the display shares the row of Clear, Next die and Roll (three rows, not
        four: a short window's panel shows the whole keypad)."""
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", dp(4))
        super().__init__(**kwargs)
        self.size_hint_y = None
        self.display = Label(text="-", font_size=sp(30), bold=True, size_hint_y=None, height=TOUCH)
        row = BoxLayout(spacing=dp(4), size_hint_y=None, height=TOUCH)
        if compact:
            row.add_widget(self.display)
        else:
            self.add_widget(self.display)
        grid = GridLayout(cols=5, spacing=dp(4), size_hint_y=None, height=2 * TOUCH + dp(4))
        for digit in "1234567890":
            grid.add_widget(button(digit, lambda d=digit: self.press(d)))
        self.add_widget(grid)
        row.add_widget(button("Clear", self.clear))
        # Dice above 9 (a d12's 10, 11, 12) need a break between faces: "12 3".
        row.add_widget(button("Next die", self.next_die))
        row.add_widget(button("Roll", lambda: self.dispatch("on_roll", self.text)))
        # Compact: the display and its buttons on top, as on a calculator.
        self.add_widget(row, index=len(self.children) if compact else 0)
        rows = 3 if compact else 4
        self.height = TOUCH * rows + dp(4) * rows
        self.bind(text=lambda *_: setattr(self.display, "text", self.text or "-"))

    def press(self, digit: str) -> None:
        self.text = (self.text + digit)[-8:]

    def next_die(self) -> None:
        if self.text and not self.text.endswith(" "):
            self.text = self.text + " "

    def clear(self) -> None:
        self.text = ""

    def on_roll(self, text: str) -> None:
        pass


class Bar(ButtonBehavior, Widget):
    """A horizontal bar: ``value`` out of ``maximum``, in ``colour``, with a caption. A touch
    says what it counts (the screen showing it: ``explain_bar``)."""

    value = NumericProperty(0)
    maximum = NumericProperty(20)
    colour = ListProperty([0.9, 0.2, 0.2, 1])
    caption = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # Two lines when the caption needs them: a bar's share of the row is narrow.
        # Outlined: white text reads on any team's colour, light or dark.
        self.label = Label(font_size=sp(theme.SMALL_SP), bold=True, halign="center", valign="middle",
                           line_height=0.95, outline_width=2, outline_color=(0, 0, 0, 1))
        self.add_widget(self.label)
        self.bind(pos=self.redraw, size=self.redraw, value=self.redraw, maximum=self.redraw, caption=self.redraw,
                  colour=self.redraw)

    def on_release(self) -> None:
        from kivy.app import App

        app = App.get_running_app()
        screen = app.root.current_screen if app is not None and app.root is not None else None
        if hasattr(screen, "explain_bar"):
            screen.explain_bar(self.caption)

    def redraw(self, *_args) -> None:
        self.canvas.before.clear()
        share = max(0.0, min(1.0, self.value / self.maximum)) if self.maximum else 0
        with self.canvas.before:
            Color(0.18, 0.18, 0.2, 1)
            Rectangle(pos=self.pos, size=self.size)
            Color(*self.colour)
            Rectangle(pos=self.pos, size=(self.width * share, self.height))
        self.label.pos = self.pos
        self.label.size = self.size
        room = max(1, self.width - 8)
        self.label.text_size = (room, None)
        self.label.text = balanced(self.caption, room - 2 * self.label.outline_width - 4, self.label.font_size)


def balanced(caption: str, room: float, font_size: float) -> str:
    """A caption too wide for one line broken at the comma nearest its middle ("Home: deck 42,
    hand 5," / "moved 1/5" left a word alone on the second line)."""
    from kivy.core.text import Label as CoreLabel

    # A number keeps its unit on its line ("Timer 30 s" never ends a line with "30").
    caption = re.sub(r"(\d) (s|min|MP|goals?)\b", "\\1\u00a0\\2", caption)
    if ", " not in caption:
        return caption
    width = CoreLabel(font_size=font_size, bold=True).get_extents(caption)[0]
    if width <= room:
        return caption
    cuts = [i for i in range(len(caption)) if caption.startswith(", ", i)]
    cut = min(cuts, key=lambda i: abs(i - len(caption) / 2))
    return caption[:cut + 1] + "\n" + caption[cut + 2:]
