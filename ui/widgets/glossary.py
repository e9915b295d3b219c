"""The glossary over the live screen: what the game's short words and marks mean (ui/glossary.py),
those the screen shows now first, lit. Opened by the Words button under the panel, by More >
Words and marks, by a tap on a bar or on a card that cannot be picked."""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.scrollview import ScrollView
from kivy.utils import escape_markup

from .. import theme
from ..glossary import Term, terms

GAME_TITLES = {"fublet": "Fublet", "football_leader": "Football Leader", "futboard": "Futboard",
               "fussball_liga": "Fußball-Liga"}


def _row(term: Term, lit: bool) -> Label:
    colour = theme.hex_of(theme.ACCENT if lit else theme.TEXT)
    text = (f"[b][color={colour}]{escape_markup(term.key)}[/color][/b]  "
            f"[b]{escape_markup(term.name)}[/b]: {escape_markup(term.text)}")
    lab = Label(text=text, markup=True, font_size=sp(theme.SMALL_SP + 2), size_hint_y=None, halign="left",
                valign="middle", color=theme.TEXT)
    lab.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(8), None)),
             texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(10)))
    return lab


class GlossaryPopup(Popup):
    """Every word and mark of ``game``; ``focus`` (the ones on screen now) first and lit, and
    ``heading`` (a card's player, say) above them."""

    def __init__(self, game: str, focus: list[Term] | tuple[Term, ...] = (), heading: str = "", **kwargs) -> None:
        super().__init__(title=f"Words and marks: {GAME_TITLES.get(game, game)}", title_size=sp(24),
                         size_hint=(0.86, 0.9), **kwargs)
        body = BoxLayout(orientation="vertical", spacing=dp(8), padding=dp(6))
        view = ScrollView(do_scroll_x=False, bar_width=dp(10))
        rows = GridLayout(cols=1, spacing=dp(6), size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        if heading:
            rows.add_widget(_heading(heading))
        shown = set()
        for term in focus:
            rows.add_widget(_row(term, True))
            shown.add(term)
        rest = [t for t in terms(game) if t not in shown]
        if focus and rest:
            rows.add_widget(_heading("All the game's words and marks"))
        for term in rest:
            rows.add_widget(_row(term, False))
        view.add_widget(rows)
        body.add_widget(view)
        close = Button(text="Close", font_size=sp(20), size_hint_y=None, height=dp(56))
        close.bind(on_release=lambda *_: self.dismiss())
        body.add_widget(close)
        self.content = body


def _heading(text: str) -> Label:
    lab = Label(text=text, font_size=sp(theme.SMALL_SP + 4), bold=True, color=theme.ACCENT, size_hint_y=None,
                halign="left", valign="middle")
    lab.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(8), None)),
             texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(10)))
    return lab
