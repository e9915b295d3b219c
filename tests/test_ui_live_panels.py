"""Two pieces of the live screen's panels, without the app: a player card's second line
("place") fits a narrow card (ui/widgets/rows.py), and the line above the dice keypad shows
whole or not at all at the top of the scrolled panel (ui/widgets/steady.py)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

kivy_ready = pytest.importorskip("kivy")


def test_a_cards_place_line_gets_smaller_to_fit_a_narrow_card_never_under_the_smallest_size():
    from kivy.metrics import dp
    from ui import theme
    from ui.widgets.rows import CardChip

    # Eleven cards in an 800 px window, in large text (18 sp at the 1.2 font scale).
    card = CardChip(font_size=21.6, size_hint=(None, None), width=48, line="10", note="place")
    assert card.text.startswith("10\n[size=") and card.text.endswith("]place[/size]"), card.text
    size = int(card.text.split("[size=")[1].split("]")[0])
    assert dp(theme.SMALL_SP) <= size < 21.6
    card.texture_update()
    assert card.texture_size[0] <= card.width, (card.texture_size, card.width)
    card.width = 120   # room enough: one size for both lines
    assert card.text == "10\nplace"
    card.note = ""     # on the board: no second line
    assert card.text == "10"


def test_the_cards_data_say_place_only_for_a_player_not_on_the_board():
    from companion.teams import PlayerRef, Team
    from ui import theme
    from ui.games.base import Chip
    from ui.widgets.rows import card_rows

    home7, home8, away7 = PlayerRef(Team.HOME, 7), PlayerRef(Team.HOME, 8), PlayerRef(Team.AWAY, 7)
    chips = [Chip(home7, "7?"), Chip(home8, "8", enabled=False), Chip(away7, "7")]
    rows, said = card_rows(chips, {away7}, theme.DEFAULT_KITS, selected=away7)
    assert [(c["line"], c["note"]) for c in rows[Team.HOME]] == [("7", "place"), ("8", "")]
    assert said[home7] == ("7\nplace", True) and said[home8] == ("8", False)
    assert rows[Team.AWAY][0]["bold"] and rows[Team.AWAY][0]["background_color"] == theme.ACCENT


def panel(rows):
    """A ScrollView 200 px high over a column of rows of the given heights, top first."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.widget import Widget

    scroll = ScrollView(size_hint=(None, None), size=(300, 200), pos=(0, 0), do_scroll_x=False)
    content = BoxLayout(orientation="vertical", size_hint_y=None, height=sum(rows))
    widgets = [Widget(size_hint_y=None, height=h) for h in rows]
    for w in widgets:
        content.add_widget(w)
    scroll.add_widget(content)
    content.do_layout()
    return scroll, content, widgets


@pytest.mark.parametrize("pad", [170, 100])
def test_the_line_above_the_keypad_shows_whole_or_not_at_all(pad):
    from ui.widgets.steady import whole_or_none

    # The request, the line, the keypad: scrolled to the foot, the view's top (200 px above
    # the content's foot) falls inside the line when the keypad is 170 high, above it at 100.
    scroll, content, (_request, line, _pad) = panel([150, 60, pad])
    scroll.scroll_y = 0
    whole_or_none(line, scroll)
    assert line.opacity == (0 if pad == 170 else 1)
    scroll.scroll_y = 1   # the coach scrolls to the top: the line is whole again
    assert line.opacity == 1
    scroll.scroll_y = 0
    assert line.opacity == (0 if pad == 170 else 1)
    content.clear_widgets()   # the panel built again: the old line is let go
    scroll.scroll_y = 0.5
    assert line.opacity == (0 if pad == 170 else 1)


def test_the_keypad_is_scrolled_into_view_once_however_often_asked():
    from types import SimpleNamespace

    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.widget import Widget
    from ui.widgets.keypad import DiceKeypad
    from ui.widgets.steady import PanelHold

    scroll = ScrollView(size_hint=(None, None), size=(300, 260), pos=(0, 0), do_scroll_x=False)
    content = BoxLayout(orientation="vertical", size_hint_y=None)
    pad = DiceKeypad(compact=True)
    rows = [Widget(size_hint_y=None, height=140), Widget(size_hint_y=None, height=50), pad,
            Widget(size_hint_y=None, height=56)]
    for w in rows:
        content.add_widget(w)
    content.height = sum(w.height for w in rows)
    scroll.add_widget(content)
    content.do_layout()
    assert pad.height + 50 <= 260 < content.height, pad.height   # the line and the keypad fit, not all

    class Screen(PanelHold):
        ids = SimpleNamespace(panel=content, panel_scroll=scroll)

    screen = Screen()
    screen.show_keypad()
    first = scroll.scroll_y
    span = content.height - scroll.height
    foot = first * span
    line = rows[1]
    assert foot <= pad.y and line.top <= foot + scroll.height + 1e-6, (foot, pad.y, line.top)
    assert foot == pad.y   # from the top, no further than that: the keypad's foot at the view's foot
    screen.show_keypad()   # again before the ScrollView has moved its content: it stays
    assert scroll.scroll_y == first


def test_a_folded_request_draws_in_two_lines_and_a_touch_asks_for_it_whole():
    """ui/widgets/folded.py with the panel's own font: the label Kivy wraps holds two lines
    ending in "... more"; a touch on it (and only on it) calls back; a request that fits is
    not folded and a touch on it is not taken."""
    from kivy.core.text import Label as CoreLabel
    from kivy.input.motionevent import MotionEvent

    from companion.teams import Team
    from ui import theme
    from ui.widgets.folded import MORE, fold_line
    from ui.widgets.teamtag import team_line

    class Touch(MotionEvent):
        def depack(self, args) -> None:
            self.is_touch = True
            self.sx, self.sy = args
            super().depack(args)

    long = ("Home: place the figures in their own halves (no defender in or touching the centre circle) and "
            "kick off: a pass of up to 6 squares from a square touching the ball to a teammate")
    touched: list[str] = []
    line = team_line(long, theme.DEFAULT_KITS[Team.HOME], theme.SMALL_SP, bold=True)
    line.size_hint_x, line.width, line.pos = None, 330, (0, 0)
    fold_line(line, True, lambda: touched.append("long"))
    assert line.whole_text == long
    assert line.text.endswith(" " + MORE) and long.startswith(line.text[:-len(MORE) - 1]), line.text
    line.texture_update()
    one = CoreLabel(text="Hg", font_size=line.font_size, bold=True)
    one.refresh()
    assert line.texture_size[1] < 2.5 * one.texture.height + line.padding[1] + line.padding[3], line.texture_size
    line.width = 2000   # room for it all: whole again
    assert line.text == long
    line.width = 330

    short = team_line("Home: kick off", theme.DEFAULT_KITS[Team.HOME], theme.SMALL_SP, bold=True)
    short.size_hint_x, short.width, short.pos = None, 330, (0, 400)
    fold_line(short, True, lambda: touched.append("short"))
    assert short.text == "Home: kick off"

    def touch_at(x, y):
        return Touch("test", 1, (x / 2000, y / 2000))

    for widget, (x, y) in ((line, (10, 10)), (short, (10, 410)), (line, (10, 300))):
        t = touch_at(x, y)
        t.pos = (x, y)
        widget.dispatch("on_touch_down", t)
    assert touched == ["long"]
