"""One match in Matches and league, managed: give it a name, mark it a friendly (kept out of
the league table), open its report, delete it (it waits in the trash for 30 days, with an
undo on the list).

The name and the friendly flag are notes beside the journals (companion/report/notes.py),
the trash is companion/report/trash.py: the journal itself is never written. The popup only
asks; the history screen does the work and says what happened.
"""

from __future__ import annotations

from typing import Callable

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from companion.report import history as h
from companion.report.notes import TITLE_LIMIT

from .. import theme
from ..played_here import when

FRIENDLY_ON = "Friendly: not counted in the league table"
FRIENDLY_OFF = "Counts in the league table (tap: make it a friendly)"
ROW = dp(56)


def entry_line(e: h.Entry) -> str:
    """The match as the list names it: its name (or teams) and score."""
    return f"{e.title}: {e.home} {e.score} {e.away}" if e.title else f"{e.home} {e.score} {e.away}"


class MatchEditPopup(Popup):
    """Name, friendly, report, delete: for one match of the list."""

    def __init__(self, entry: h.Entry, *, rename: Callable[[h.Entry, str], str],
                 friendly: Callable[[h.Entry, bool], str], delete: Callable[[h.Entry], str],
                 report: Callable[[h.Entry], None], **kwargs) -> None:
        self.entry = entry
        self._rename, self._friendly, self._delete, self._report = rename, friendly, delete, report
        box = BoxLayout(orientation="vertical", spacing=dp(12), padding=dp(12))
        game = h.GAME_NAMES.get(entry.game, entry.game)
        played = when(entry.date) or entry.date[:16].replace("T", " ")
        box.add_widget(self._label(f"{game} · {entry.home} {entry.score} {entry.away} · {entry.status} · "
                                   f"started {played}", theme.BODY))
        name_row = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(10))
        name_row.add_widget(self._label("Name", theme.BODY, width=dp(90)))
        self.name_input = TextInput(text=entry.title, hint_text=f"{entry.home} v {entry.away}", multiline=False,
                                    write_tab=False, font_size=theme.BODY, padding=(dp(10), dp(14)))
        self.name_input.bind(on_text_validate=lambda *_: self.save_name())
        name_row.add_widget(self.name_input)
        name_row.add_widget(Button(text="Save name", font_size=theme.BODY, size_hint_x=None, width=dp(150),
                                   on_release=lambda *_: self.save_name()))
        box.add_widget(name_row)
        self.friendly_toggle = ToggleButton(text=FRIENDLY_ON if entry.friendly else FRIENDLY_OFF,
                                            state="down" if entry.friendly else "normal", font_size=theme.BODY,
                                            size_hint_y=None, height=ROW)
        self.friendly_toggle.bind(on_release=lambda *_: self.toggle_friendly())
        box.add_widget(self.friendly_toggle)
        self.message = self._label("", theme.BODY, colour=theme.OUTCOME)
        box.add_widget(self.message)
        buttons = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(10))
        buttons.add_widget(Button(text="Delete match", font_size=theme.BODY, background_color=(0.75, 0.25, 0.22, 1),
                                  on_release=lambda *_: self.delete()))
        buttons.add_widget(Button(text="Open report", font_size=theme.BODY, on_release=lambda *_: self.report()))
        buttons.add_widget(Button(text="Close", font_size=theme.BODY, on_release=lambda *_: self.dismiss()))
        box.add_widget(buttons)
        super().__init__(title=f"Match: {entry_line(entry)}", title_size=sp(22), content=box,
                         size_hint=(0.8, None), height=dp(420), auto_dismiss=True, **kwargs)

    @staticmethod
    def _label(text: str, size: str, colour=theme.TEXT, width: float | None = None) -> Label:
        lab = Label(text=text, font_size=size, color=colour, size_hint_y=None, height=dp(52), halign="left",
                    valign="middle")
        if width is not None:
            lab.size_hint_x, lab.width = None, width
        lab.bind(size=lambda w, s: setattr(w, "text_size", s))
        return lab

    def save_name(self) -> None:
        text = self.name_input.text
        if len(" ".join(text.split())) > TITLE_LIMIT:
            self.message.color = theme.BAD
            self.message.text = f"A name has at most {TITLE_LIMIT} characters: shorten it."
            return
        said = self._rename(self.entry, text)
        self.message.color = theme.BAD if said.startswith("Not saved") else theme.OUTCOME
        self.message.text = said
        if not said.startswith("Not saved"):
            title = " ".join(text.split())
            self.title = f"Match: {title}: {self.entry.home} {self.entry.score} {self.entry.away}" if title else \
                f"Match: {self.entry.home} {self.entry.score} {self.entry.away}"

    def toggle_friendly(self) -> None:
        friendly = self.friendly_toggle.state == "down"
        self.friendly_toggle.text = FRIENDLY_ON if friendly else FRIENDLY_OFF
        said = self._friendly(self.entry, friendly)
        self.message.color = theme.BAD if said.startswith("Not saved") else theme.OUTCOME
        self.message.text = said

    def delete(self) -> None:
        problem = self._delete(self.entry)
        if problem:
            self.message.color = theme.BAD
            self.message.text = problem
            return
        self.dismiss()

    def report(self) -> None:
        self.dismiss()
        self._report(self.entry)
