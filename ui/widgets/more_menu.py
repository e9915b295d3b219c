"""The live bar's More menu: the secondary actions (Line-up, Report, Rules, Words and marks)
one tap further, so the bar keeps six large targets; in a short window also the box's banner
the screen leaves out (ui/kv/live.kv)."""

from __future__ import annotations

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.button import Button
from kivy.uix.dropdown import DropDown

from .. import theme


def more_menu(screen, anchor) -> DropDown:
    """The menu for the live ``screen``, as wide as it needs over its ``anchor`` (More); the
    caller opens it."""
    menu = DropDown(auto_width=False, width=max(anchor.width * 1.8, dp(240)))
    # Framed in the accent colour: the menu reads as one thing over the panel's buttons.
    box = menu.container
    box.padding, box.spacing = dp(4), dp(4)
    with box.canvas.before:
        Color(*theme.ACCENT)
        frame = Rectangle(pos=box.pos, size=box.size)
    box.bind(pos=lambda w, p: setattr(frame, "pos", p), size=lambda w, sz: setattr(frame, "size", sz))
    app = App.get_running_app()
    if screen.short and screen.warning_text:   # the banner a short window leaves out (live.kv)
        b = Button(text=screen.warning_text, font_size=sp(theme.SMALL_SP), size_hint_y=None, height=dp(72),
                   color=theme.WARN, background_normal="", background_color=(0.25, 0.2, 0.08, 1),
                   halign="center", valign="middle")
        b.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(12), None)),
               texture_size=lambda w, size: setattr(w, "height", max(dp(72), size[1] + dp(12))),
               on_release=lambda _b: (menu.dismiss(), app.open_box_editor(screen.face.game if screen.face else None)))
        menu.add_widget(b)
    for text, action in (("Line-up", screen.open_lineup), ("Report", lambda: app.root.get_screen("report").open_live()),
                         ("Rules", screen.open_rules), ("Words and marks", screen.open_glossary)):
        b = Button(text=text, font_size=sp(20), size_hint_y=None, height=dp(60), background_normal="",
                   background_color=theme.SURFACE)
        b.bind(on_release=lambda _b, act=action: (menu.dismiss(), act()))
        menu.add_widget(b)
    return menu
