"""The layout check itself (ui/layout_check.py) finds each fault it is there for: the UI
scenarios run it on every screen they photograph, at 1280x800 and 1920x1200."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

kivy_ready = pytest.importorskip("kivy")


def screen(*widgets, orientation="horizontal"):
    from kivy.uix.boxlayout import BoxLayout
    box = BoxLayout(orientation=orientation, size=(1280, 800), pos=(0, 0))
    for w in widgets:
        box.add_widget(w)
    box.do_layout()
    return box


def test_a_clean_screen_has_no_faults():
    from kivy.uix.button import Button
    from ui.layout_check import check
    root = screen(Button(text="New match", font_size="20sp"), Button(text="Settings", font_size="20sp"))
    assert check(root) == []


def test_small_text_overflow_small_targets_and_overlaps_are_found():
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget
    from ui.layout_check import check

    small = Label(text="tiny", font_size="12sp")
    long = Label(text="a sentence far too long for the box it has been given", font_size="20sp",
                 size_hint=(None, None), size=(60, 30))
    finger = Button(text="x", font_size="20sp", size_hint=(None, None), size=(30, 30))
    root = screen(small, long, finger)
    for w in (small, long):
        w.texture_update()
    faults = check(root)
    assert any("'tiny' font 12 sp" in f for f in faults), faults
    assert any("overflows its box" in f for f in faults), faults
    assert any("touch target 30x30" in f for f in faults), faults

    cut = Label(text="Extra movement and more", font_size="20sp", shorten=True, size_hint=(None, None),
                size=(80, 60))
    root = screen(cut)
    cut.text_size = cut.size
    cut.texture_update()
    assert any("text cut to fit" in f for f in check(root)), check(root)

    a, b = Widget(), Widget()
    root = screen(a, b)
    b.pos = a.pos   # a layout would never: a widget placed over its sibling
    assert any("overlap" in f for f in check(root))


def test_a_panel_scrolled_off_into_nothing_is_found():
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.scrollview import ScrollView
    from ui.layout_check import check

    view = ScrollView(do_scroll_x=False)
    panel = BoxLayout(orientation="vertical", size_hint_y=None, height=120)
    panel.add_widget(Button(text="Home: step done", font_size="20sp"))
    view.add_widget(panel)
    root = screen(view)
    view.update_from_scroll()
    assert check(root) == []
    view.scroll_y = -10          # what a stale scroll position did to a shorter panel
    view.update_from_scroll()
    assert any("scrolled off" in f for f in check(root)), check(root)


def board(shapes, size=(600, 400), grid=(10, 6)):
    """A PitchView drawing a plain grid board (10 x 6 cells) with ``shapes`` printed on it."""
    from ui.looks.base import RectGeometry
    from ui.widgets.pitch import PitchView

    pitch = PitchView(size_hint=(None, None), size=size, pos=(0, 0))
    pitch.geometry = RectGeometry(500, 300, *grid, shapes)
    pitch.redraw()
    return pitch


def test_the_board_is_checked_for_small_and_overprinted_labels_and_a_small_ball(monkeypatch):
    from ui import theme
    from ui.looks.base import BallMark, Shape
    from ui.layout_check import check_board

    white = (1, 1, 1, 1)
    clean = board([Shape("text", white, (25, 25), 10, "A1"), Shape("text", white, (225, 125), 10, "-2")])
    clean.ball = BallMark(cell=(3, 3))
    assert check_board(clean) == []
    assert min(h for *_r, h in clean.printed) >= 18   # grown to the smallest readable size

    # Two labels on one spot (a label grown over its neighbour's): the board prints the first
    # only, as a ruler too small for every number prints every other one...
    over = board([Shape("text", white, (125, 125), 10, "6-10-14"), Shape("text", white, (125, 125), 10, "B2")])
    assert [text for text, *_rest in over.printed] == ["6-10-14"] and check_board(over) == []
    # ...and a board that printed both would be caught.
    text, x, y, w, h = over.printed[0]
    over.printed.append(("B2", x + 2, y + 1, w / 2, h))
    assert any("printed over each other" in f for f in check_board(over)), check_board(over)

    # A board drawn with a smaller floor (what the board had before: 12 sp) and a dot of a ball.
    monkeypatch.setattr(theme, "BOARD_MIN", 12)
    monkeypatch.setattr(theme, "BALL_MIN_DP", 6)
    small = board([Shape("text", white, (25, 25), 5, "A1")], grid=(100, 60))   # small squares, as Fublet's
    small.ball = BallMark(cell=(30, 30))
    small.redraw_figures()
    monkeypatch.undo()
    faults = check_board(small)
    assert any("board label at 12.0 sp < 18 sp" in f for f in faults), faults
    assert any("the ball is drawn" in f for f in faults), faults


def test_a_target_that_moves_within_one_step_is_found():
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from ui.layout_check import Steadiness

    panel = BoxLayout(orientation="vertical", size=(400, 600), pos=(0, 0))
    hint = Label(text="Start the match clock", size_hint_y=None, height=32)
    sub = Button(text="Substitution...", size_hint_y=None, height=52)
    panel.add_widget(hint)
    panel.add_widget(sub)
    panel.add_widget(Label())
    panel.do_layout()
    steady = Steadiness()
    assert steady.look("kick-off", panel) == []
    panel.remove_widget(hint)       # the hint goes: the button below moves up under the finger
    panel.do_layout()
    moved = steady.look("kick-off", panel)
    assert moved and "'Substitution...' moved" in moved[0], moved
    panel.add_widget(Label(text="another question", size_hint_y=None, height=80), index=2)
    panel.do_layout()
    assert steady.look("a new question", panel) == []   # another step: the panel may be laid out anew


def test_a_panel_holds_still_when_a_line_goes_within_a_step():
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from ui.layout_check import Steadiness
    from ui.widgets.steady import held_lines, hold_still

    def build(with_hint: bool) -> BoxLayout:
        panel.clear_widgets()
        if with_hint:
            panel.add_widget(Label(text="Start the match clock", size_hint_y=None, height=32))
        for text in ("Kick off: #9 passes...", "Substitution..."):
            panel.add_widget(Button(text=text, size_hint_y=None, height=52))
        return panel

    panel = BoxLayout(orientation="vertical", size_hint_y=None, spacing=4, pos=(0, 0))
    panel.bind(minimum_height=panel.setter("height"))
    build(True)
    panel.do_layout()
    top = panel.top
    steady = Steadiness()
    steady.look("kick-off", panel)
    before = held_lines(panel)
    build(False)                       # the clock started: its request line is gone
    hold_still(panel, before)
    panel.do_layout()
    panel.y = top - panel.height       # a scrolled panel keeps its top
    panel.do_layout()
    assert steady.look("kick-off", panel) == [], steady.faults


def test_lines_cut_at_a_fixed_box_foot_are_found():
    """A box with a fixed text height keeps its lines to it: a hint that wraps pushes the
    clock's own line out of its button unseen (its texture is the box's size)."""
    from kivy.uix.button import Button
    from ui.layout_check import check

    clock = Button(text="00:20 paused  1st half\n[size=18][b]Tap to start the clock[/b][/size]", markup=True,
                   font_size="22sp", halign="center", valign="middle", size_hint=(None, None), size=(208, 56))
    root = screen(clock)
    clock.text_size = clock.size
    clock.texture_update()
    assert any("cut at its foot" in f for f in check(root)), check(root)
    clock.size = (600, 80)
    clock.text_size = clock.size
    clock.texture_update()
    assert not any("cut at its foot" in f for f in check(root)), check(root)


def test_the_score_shortens_the_names_never_the_score():
    from ui.widgets.teamtag import ScoreLabel

    line = ("[ref=home][color=ffffff] Touchline Rovers [/color][/ref]  1 - 1  "
            "[ref=away][color=000000] Harbour Athletic [/color][/ref]")
    score = ScoreLabel(markup=True, bold=True, largest=39, least=23.4, size_hint=(None, None), size=(800, 56))
    score.whole = line
    assert score.text == line and score.font_size == 39
    score.width = 384   # large text in an 800 px window
    assert "  1 - 1  " in score.text and "Touchline Rovers" not in score.text, score.text
    assert "Touchline" in score.text and "Harbour" in score.text, score.text
    assert score.font_size == pytest.approx(23.4)
    assert score.needed(score.text, score.font_size) <= score.room
    score.width = 800   # wide again: the whole names come back
    assert score.text == line


def test_a_title_gets_smaller_to_fit_down_to_its_least():
    from ui.widgets.fit_label import FitLabel

    title = FitLabel(text="Fußball-Liga variant rules", bold=True, largest=34, least=23,
                     size_hint=(None, None), size=(1000, 56))
    assert title.font_size == 34
    title.width = 380
    assert 23 < title.font_size < 34 and title.needed(title.text, title.font_size) <= title.room + 1
    title.width = 100
    assert title.font_size == 23


def test_the_compact_keypad_has_three_rows_and_the_same_keys():
    from kivy.uix.button import Button
    from ui.widgets.keypad import DiceKeypad

    def keys(pad):
        return sorted(w.text for w in pad.walk(restrict=True) if isinstance(w, Button))

    whole, compact = DiceKeypad(), DiceKeypad(compact=True)
    assert keys(whole) == keys(compact)
    assert compact.height < whole.height
    assert len(compact.children) == 2 and compact.children[-1].children[-1] is compact.display   # on top, first
