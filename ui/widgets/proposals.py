"""The live screen's camera questions, under its request panel: a doubtful camera move, and
one tap takes it or drops it (ui/autoflow.py). Asked at the column's foot: the camera's
question comes when it comes, and must not push the button a coach is about to touch; its
place is ringed on the board."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from .. import theme
from .keypad import button, wrap_label


def add_proposals(proposals, controller, add) -> None:
    """Each of the view's ``proposals`` as its text and a row of Take and Drop, by ``add``."""
    for p in proposals:
        add(wrap_label(p.text, theme.SMALL_SP, bold=True, colour=theme.ACCENT))
        row = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(52))
        row.add_widget(button("Take the camera's", lambda i=p.id: controller.take_proposal(i)))
        row.add_widget(button("Drop it", lambda i=p.id: controller.drop_proposal(i)))
        add(row)
