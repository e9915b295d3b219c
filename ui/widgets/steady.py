"""Panel pieces that hold still while the coach answers one question, so nothing moves under a
finger on its way to the next button:

- a hint in the room of the button it stands for, and the legend of the colours a face fills
  the board with (``button_room``, ``legend``);
- a line or a button that goes away within one step (a second request answered, a hint no
  longer needed) leaves its room empty, so nothing below it moves up. The room closes when
  the step changes (a new question, mode or selection): the panel is built afresh. The live
  screen records the panel's rows once they are laid out (``held_lines`` on every change of
  the panel's height) and, when it builds the panel again for the same step, hands them to
  ``hold_still``;
- the scrolled panel keeps its content where it was on the glass while a refusal's line
  comes or goes below it, and in a short window shows the dice keypad to the finger
  (``PanelHold``, which the live screen is made of); the line above the keypad shows whole
  or not at all (``whole_or_none``).
"""

from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .. import theme
from .keypad import TOUCH, DiceKeypad

LEGEND_ROW = dp(30)
BOARD_GREEN = (0.18, 0.5, 0.24)   # the board's squares (ui/widgets/pitch.py), under a legend's chip
Row = tuple[tuple[str, str], float]   # ((kind, text), height)


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


class Held(Widget):
    """The room of rows that went away within this step: ``room`` less what the rows that took
    their place (``against``) need, never less than nothing."""

    def __init__(self, room: float, against: tuple[Widget, ...] = (), spacing: float = 0.0, **kwargs) -> None:
        super().__init__(size_hint_y=None, height=0, **kwargs)
        self.room, self.against, self.spacing = room, against, spacing
        for w in against:
            w.bind(height=self._fit)
        self._fit()

    def _fit(self, *_args) -> None:
        # ``room`` counts the rows' spacing too; the blank's own spacing is taken off (down to
        # a height of minus one spacing: a blank with nothing to hold takes no room at all).
        taken = sum(w.height + self.spacing for w in self.against) + self.spacing
        self.height = max(-self.spacing, self.room - taken)


def _key(w: Widget) -> tuple[str, str]:
    if isinstance(w, Held):
        return ("held", "")
    text = getattr(w, "whole_text", None) or getattr(w, "text", None)   # a folded request by its whole text
    if isinstance(text, str):
        return (type(w).__name__, text)
    # A row of several widgets (a keypad, a grid of options): known by the texts in it.
    texts = [c.text for c in w.walk(restrict=True) if isinstance(getattr(c, "text", None), str)]
    return (type(w).__name__, "|".join(texts[:12]))


def held_lines(panel: Widget) -> list[Row]:
    """The panel's rows, top first, with their heights as laid out (a held blank: its room)."""
    spacing = panel.spacing[1] if isinstance(panel.spacing, (list, tuple)) else float(panel.spacing)
    # A blank's row is the room it takes now (down to minus one spacing when it holds nothing;
    # hold_still adds the spacing back): not the room it was given, which a row that came into
    # its place has taken already (counting that again pushed the panel down by a line).
    return [(_key(w), float(w.height)) for w in reversed(panel.children)]


def hold_still(panel: Widget, before: list[Row]) -> None:
    """Put a ``Held`` blank where rows of ``before`` went missing from the panel just built (or
    were replaced by shorter ones), so the rows after them stay where they were. Rows that
    appear push the rest down: that cannot be held."""
    from difflib import SequenceMatcher

    if not before:
        return
    spacing = panel.spacing[1] if isinstance(panel.spacing, (list, tuple)) else float(panel.spacing)
    now = list(reversed(panel.children))
    old_keys = [k for k, _h in before]
    keys = [_key(w) for w in now]
    blanks: dict[int, Held] = {}    # index in ``now`` -> the blank put before that row
    for op, i1, i2, j1, j2 in SequenceMatcher(a=old_keys, b=keys, autojunk=False).get_opcodes():
        if op == "equal" or op == "insert":
            continue
        room = sum(h + spacing for _k, h in before[i1:i2])
        if room > 0:
            blanks[j2] = Held(room, tuple(now[j1:j2]), spacing)
    if not blanks:
        return
    rows = []
    for i, w in enumerate([*now, None]):
        if i in blanks:
            rows.append(blanks[i])
        if w is not None:
            rows.append(w)
    panel.clear_widgets()
    for w in rows:
        panel.add_widget(w)


class PanelHold:
    """The scrolled request panel that holds still: for a screen whose kv gives it ids
    ``panel_scroll`` (a ScrollView) and ``panel`` (its content) and an ``error_text`` property
    (the refusal's line below the panel). kv calls ``hold_panel`` when the panel's size or
    place changes and ``release_panel`` when the coach scrolls."""

    _held_y: float | None = None   # the content's y on the glass to hold while a refusal's line comes or goes
    _held_rows: tuple[Row, ...] = ()   # the panel's rows as last laid out (replaced whole)
    _held_step: object = None      # the step they answered

    def watch_panel_rows(self) -> None:
        """Record the panel's rows whenever it is laid out again (for ``rows_to_hold``)."""
        panel = self.ids.panel
        panel.bind(minimum_height=lambda *_: setattr(self, "_held_rows", tuple(held_lines(panel))))

    def panel_answers(self, step) -> bool:
        """Whether the panel last built answers ``step`` (within one step the panel holds still)."""
        return step == self._held_step

    def rows_to_hold(self, step) -> list[Row]:
        """The rows to hold still in the panel about to be built for ``step``: those last laid
        out when it answers the same step, none for a new one."""
        before = list(self._held_rows) if self.panel_answers(step) else []
        self._held_step = step
        return before

    def on_error_text(self, *_args) -> None:
        """A refusal's line comes or goes below the panel: where the panel is scrolled down (the
        keypad in a short window), its content keeps its place on the glass."""
        scroll, content = self.ids.panel_scroll, self.ids.panel
        self._held_y = content.to_window(content.x, content.y)[1] if scroll.scroll_y < 1 else None

    def hold_panel(self) -> None:
        scroll, content = self.ids.panel_scroll, self.ids.panel
        span = content.height - scroll.height
        if self._held_y is None or span <= 0:
            return
        # The ScrollView shows its content at (its own y - scroll_y * span), in window terms.
        bottom = scroll.to_window(scroll.x, scroll.y)[1]
        scroll.scroll_y = min(1.0, max(0.0, (bottom - self._held_y) / span))

    def release_panel(self) -> None:
        self._held_y = None   # the coach scrolls (or a new question is read from the top): where it is left is his

    def show_keypad(self, _dt=None) -> None:
        """The dice keypad scrolled into view, with the line above it ("The keypad fills: Home
        ...") when both fit (when they do not, ``whole_or_none`` keeps that line from showing
        its lower half at the panel's top). As little scrolling as that takes, and none when
        they show already: called twice before the ScrollView has moved its content (a new
        question, then the screen entered), Kivy's scroll_to scrolled twice as far."""
        panel, scroll = self.ids.panel, self.ids.panel_scroll
        kids = list(reversed(panel.children))   # top to bottom, as the panel is now (rebuilt since, maybe)
        pad = next((w for w in kids if isinstance(w, DiceKeypad)), None)
        span = panel.height - scroll.height
        if pad is None or span <= 0:
            return
        above = kids[kids.index(pad) - 1] if kids.index(pad) else None
        top = above.top if above is not None and above.top - pad.y <= scroll.height else pad.top
        # In the panel's terms: the view's foot is at scroll_y * span, its top a view's height higher.
        foot = scroll.scroll_y * span
        if top - panel.y > foot + scroll.height:
            foot = top - panel.y - scroll.height
        if pad.y - panel.y < foot:
            foot = pad.y - panel.y
        scroll.scroll_y = min(1.0, max(0.0, foot / span))


def whole_or_none(line: Widget, scroll: Widget) -> None:
    """``line`` (a row already added to ``scroll``'s content) shows only while its top is inside
    the view: cut at the view's top it is hidden, so its lower half never reads as a line of its
    own (the keypad scrolled into a short window under a long last outcome cut "The keypad
    fills: Home" in half). Kept as the coach scrolls, until the panel is built again."""
    content = line.parent

    def show(*_args) -> None:
        if line.parent is not content:   # the panel was built again: this line is gone
            scroll.unbind(scroll_y=show, height=show)
            content.unbind(height=show)
            return
        # The view's top in the content's terms, from scroll_y as the ScrollView places its
        # content (by a translation it makes a frame later: the line's window y lags behind).
        span = max(0.0, content.height - scroll.height)
        seen_top = content.y + scroll.height + span * scroll.scroll_y if span else content.top
        line.opacity = 1 if line.top <= seen_top + 1 else 0
    scroll.bind(scroll_y=show, height=show)
    content.bind(height=show)
    line.bind(pos=show, size=show)
    show()
