"""The live screen's rows drawn from data: the player cards, the phase stepper and the bars.

The screen hands each row a list of plain dicts (``LiveScreen.home_cards``, ``steps``,
``bars``); the kv file binds them to a RecycleView whose item widget is declared there
(ui/kv/live.kv) and reused from view to view. Nothing here builds widgets from Python lists,
and no key has to be cached to avoid rebuilding them.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.recycleview import RecycleView


class CardRow(RecycleView):
    """One team's player cards; ``screen`` is told which card was touched."""

    screen = ObjectProperty(None, allownone=True)


class CardChip(Button):
    """A player card: his number and marks; touching it selects him on ``CardRow.screen``."""

    ref = ObjectProperty(None, allownone=True)
    active = BooleanProperty(True)   # False: off the field; a touch says what his card's marks mean

    def on_release(self) -> None:
        row = self.parent.parent if self.parent is not None else None   # RecycleBoxLayout -> CardRow
        screen = getattr(row, "screen", None)
        if screen is not None and self.ref is not None:
            screen.pick_card(self.ref)


class StepItem(Label):
    """One phase of the phase stepper; the ``current`` one lit in the accent colour."""

    current = BooleanProperty(False)
