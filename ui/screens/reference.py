"""The rules reference for the game in play: the rulebook's sections with a summary written for
Touchline, the readings of docs/assumptions.md that apply, and a search box. Opened from the
live screen's Rules button, or from a link on a pending request or a refusal."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion.errors import DataFileError

from ..widgets.fit_label import FitLabel  # noqa: F401 (the kv's title)
from ..words import for_a_coach

SELECTED = (0.95, 0.75, 0.2, 1)
PLAIN = (0.28, 0.3, 0.34, 1)


class ReferenceScreen(Screen):
    game = StringProperty("")
    title_text = StringProperty("Rules")
    section_title = StringProperty("")
    section_text = StringProperty("")
    readings_text = StringProperty("")
    count_text = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.reference = None
        self.selected: str | None = None
        self.back_to = "live"

    # --- opening ------------------------------------------------------------------------------
    def open_for(self, game: str, section_id: str | None = None, back_to: str = "live") -> None:
        from companion.reference import for_game

        self.back_to = back_to if back_to != "reference" else self.back_to
        self.game = game
        try:
            self.reference = for_game(game)
        except (KeyError, DataFileError) as exc:
            self.reference = None
            self.title_text = "Rules"
            self.section_title = "No rules reference"
            self.section_text = f"This Touchline has no rules reference for this game ({exc})."
            self.readings_text = ""
            self.ids.sections.clear_widgets()
            return
        self.title_text = self.reference.rulebook
        self.ids.search.text = ""
        self.selected = section_id or self.reference.sections[0].id
        self.fill_list("")
        self.show(self.selected)
        Clock.schedule_once(lambda _dt: self._scroll_to_selected(), 0)

    def _scroll_to_selected(self) -> None:
        title = self.section_title
        for b in self.ids.sections.children:
            if isinstance(b, Button) and b.text == title:
                self.ids.list_scroll.scroll_to(b, padding=dp(8), animate=False)
                return

    def back(self) -> None:
        App.get_running_app().show(self.back_to or "home")

    # --- the list and the search ------------------------------------------------------------------
    def on_search(self, text: str) -> None:
        if self.reference is not None:
            self.fill_list(text)

    def fill_list(self, query: str) -> None:
        box = self.ids.sections
        box.clear_widgets()
        found = self.reference.search(query)
        self.count_text = (f"{len(found)} of {len(self.reference.sections)} sections" if query.strip()
                           else f"{len(found)} sections")
        for section in found:
            # A long title on two lines in a taller row, never cut ("D. Take the Ball Out of the Op...").
            b = Button(text=section.title, size_hint_y=None, height=dp(52), font_size=sp(18), halign="left",
                       valign="middle", background_color=SELECTED if section.id == self.selected else PLAIN,
                       line_height=0.95)
            b.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(20), None)),
                   texture_size=lambda w, size: setattr(w, "height", max(dp(52), size[1] + dp(12))))
            b.bind(on_release=lambda _b, sid=section.id: self.show(sid))
            box.add_widget(b)
        if not found:
            box.add_widget(Label(text="Nothing found: try fewer or other words", font_size=sp(18),
                                 size_hint_y=None, height=dp(52)))
        else:
            self.ids.list_scroll.scroll_y = 1

    def show(self, section_id: str) -> None:
        section = self.reference.section(section_id) if self.reference else None
        if section is None:
            return
        self.selected = section_id
        for b in self.ids.sections.children:
            if isinstance(b, Button):
                b.background_color = SELECTED if b.text == section.title else PLAIN
        self.section_title = section.title
        self.section_text = for_a_coach(section.summary)
        readings = self.reference.readings(section)
        if readings:   # written for the project: said without its file names and code (ui/words.py)
            lines = [f"[b]{escape_markup(r.id)}. {escape_markup(r.title)}.[/b] {escape_markup(for_a_coach(r.text))}"
                     for r in readings]
            self.readings_text = "\n\n".join(lines)
        elif section.readings:
            self.readings_text = ("Readings " + ", ".join(section.readings) +
                                  " (their notes are not part of this installation).")
        else:
            self.readings_text = "None: Touchline reads this section as printed."
        self.ids.detail_scroll.scroll_y = 1
