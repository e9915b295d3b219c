"""The live screen's rows drawn from data: the player cards, the phase stepper and the bars.

The screen hands each row a list of plain dicts (``LiveScreen.home_cards``, ``steps``,
``bars``); the kv file binds them to a RecycleView whose item widget is declared there
(ui/kv/live.kv) and reused from view to view. Nothing here builds widgets from Python lists,
and no key has to be cached to avoid rebuilding them. ``card_rows`` and ``stepper_rows`` make
those dicts from what the game's face says.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.recycleview import RecycleView
from kivy.utils import escape_markup

from companion.teams import PlayerRef, Team

from .. import theme
from ..words import phase_name
from .fit_label import fit_size

PLACE = "place"   # a card's second line: on the team sheet, not on the board yet (ui/glossary.py's "place")


class CardRow(RecycleView):
    """One team's player cards; ``screen`` is told which card was touched."""

    screen = ObjectProperty(None, allownone=True)


class CardChip(Button):
    """A player card: his number and marks (``line``) and under them a ``note`` ("place"),
    smaller when the card is too narrow for it (eleven cards in 800 px in large text), never
    under the normal text size's smallest; touching it selects him on ``CardRow.screen``."""

    ref = ObjectProperty(None, allownone=True)
    active = BooleanProperty(True)   # False: off the field; a touch says what his card's marks mean
    line = StringProperty("")
    note = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.markup = True
        self.bind(line=self.say, note=self.say, width=self.say, font_size=self.say, bold=self.say)
        self.say()

    def say(self, *_args) -> None:
        from kivy.core.text import Label as CoreLabel

        line, note = escape_markup(self.line), escape_markup(self.note)
        if not note:
            self.text = line
            return
        needed = CoreLabel(font_size=self.font_size, bold=self.bold).get_extents(self.note)[0] + dp(6)
        size = fit_size(needed, max(1.0, self.width), self.font_size, dp(theme.SMALL_SP))
        self.text = f"{line}\n{note}" if size >= self.font_size else f"{line}\n[size={int(size)}]{note}[/size]"

    def on_release(self) -> None:
        row = self.parent.parent if self.parent is not None else None   # RecycleBoxLayout -> CardRow
        screen = getattr(row, "screen", None)
        if screen is not None and self.ref is not None:
            screen.pick_card(self.ref)


class StepItem(Label):
    """One phase of the phase stepper; the ``current`` one lit in the accent colour."""

    current = BooleanProperty(False)


def card_rows(chips, drawn: set[PlayerRef], kits: dict, selected: PlayerRef | None
              ) -> tuple[dict[Team, list[dict]], dict[PlayerRef, tuple[str, bool]]]:
    """Each team's cards from the face's ``chips``: number and marks, and "place" under them
    while a player who can be picked is not ``drawn`` on the board. Also each card's text (as
    its marks are looked up in the glossary) and whether he can be picked."""
    by_team: dict[Team, list[dict]] = {Team.HOME: [], Team.AWAY: []}
    said: dict[PlayerRef, tuple[str, bool]] = {}
    for chip in chips:
        kit = kits[chip.ref.team]
        on = chip.ref == selected
        # "?" marks a figure the books have not placed: said in words, and only while he
        # is not drawn on the board (the board is what the coach checks it against).
        line = chip.text.replace("?", "")
        note = PLACE if chip.enabled and chip.ref not in drawn else ""
        said[chip.ref] = (f"{line}\n{note}" if note else line, chip.enabled)
        if chip.enabled:
            # The card in its side's shirt; the one picked lit in the accent colour.
            colours = {"color": theme.BLACK if on else kit.text,
                       "background_color": theme.ACCENT if on else kit.shirt}
        else:
            # Off the field: the shirt darkened, its text still readable from a chair.
            dark = tuple(c * 0.42 for c in kit.shirt[:3]) + (1,)
            colours = {"color": theme.text_on(dark), "background_color": dark}
        by_team[chip.ref.team].append({"line": line, "note": note, "ref": chip.ref, "disabled": False,
                                       "bold": on, "active": chip.enabled, **colours})
    return by_team, said


def stepper_rows(phases, current, narrow: bool) -> list[dict]:
    """The phase stepper's items, the ``current`` phase first when it is not one of ``phases``
    (before kick-off, a break, the shoot-out)."""
    if current and current not in phases:
        phases = (current, *phases)

    # Room by the name's length: "Extra movement" is not cut to fit a share of the row. In a
    # narrow window a name wraps onto two lines, so its longest word is what needs the room.
    def room(name: str) -> int:
        return (max((len(word) for word in name.split()), default=0) if narrow else len(name)) + 4
    return [{"text": name, "current": phase == current, "size_hint_x": room(name)}
            for phase in phases for name in (phase_name(phase),)]
