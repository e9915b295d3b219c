"""The request panel while rolls are asked: the rolls pending, whose roll the dice keypad
fills, the keypad, and software dice for a table without its own."""

from __future__ import annotations

from kivy.clock import Clock

from .. import theme
from ..words import team_name
from .keypad import DiceKeypad, button, wrap_label
from .steady import whole_or_none
from .teamtag import team_line


def dice_request(view):
    """The first roll the view asks for: the one the keypad fills."""
    return next(r for r in view.pending if r.kind == "dice")


def add_dice_panel(screen, view, add, scroll_to_pad: bool = False) -> None:
    """The live ``screen``'s panel for the rolls ``view`` asks, by ``add``; ``scroll_to_pad``:
    a short window's panel, just asked, cannot show the requests and the whole keypad, and the
    keypad is what the coach's finger needs (the heading and the line above say whose roll)."""
    fills = dice_request(view)
    scroll = screen.ids.panel_scroll
    lines = []   # scrolled to the keypad, each line above it shows whole or not at all
    for req in view.pending:
        lines.append(screen.request_line(req, theme.SMALL_SP, bold=req is fills))
        add(lines[-1])
    # Several rolls pending (the opening roll): say whose the keypad fills.
    if fills.team is not None:
        line = team_line(f"The keypad fills: {team_name(view.summary, fills.team)}", screen.kits[fills.team], 20)
    else:
        line = wrap_label("The keypad fills: the roll asked above", 20, colour=theme.ACCENT, bold=True)
    add(line)
    for row in (*lines, line):
        whole_or_none(row, scroll)
    pad = DiceKeypad(compact=screen.short)
    # The request as the screen's latest view has it when the coach rolls.
    pad.bind(on_roll=lambda _w, text: screen.controller.roll_keypad(dice_request(screen.view), text))
    add(pad)
    if scroll_to_pad:
        Clock.schedule_once(screen.show_keypad)
    add(button("Software dice", lambda: screen.controller.roll_software(dice_request(screen.view))))
