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
