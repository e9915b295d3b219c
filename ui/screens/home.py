"""Home: a new match, the unfinished match this tablet was playing resumed (named by its teams,
score, where it stands and when it was last played; several listed), the camera's
calibration, settings.

Which matches are offered is ui/played_here.py: never a finished match, nor one imported or
copied into the matches folder. They are looked up on a thread (a journal that changed since
the history's cache read it is replayed once), so Home opens at once.
"""

from __future__ import annotations

import threading
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from .. import played_here, theme
from ..words import match_line

MORE_SHOWN = 6      # other unfinished matches listed under the last one; the rest in Matches


class HomeScreen(Screen):
    last_text = StringProperty("")
    can_resume = BooleanProperty(False)
    others = ListProperty([])          # (line, path) of the other unfinished matches
    others_text = StringProperty("")
    tall = BooleanProperty(True)       # room for the large rows (home.kv)
    pairing_text = StringProperty("")  # "Next at this table: Rovers v Athletic (Autumn League, round 3)"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._target: Path | None = None
        self._looking = 0

    def on_height(self, *_args) -> None:
        self.tall = self.height > dp(700)

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        app.bind(club_state=self._club_news)
        self._club_news(app, app.club_state)
        if app.club_state.joined:
            app.club.look_for_pairing()   # on the club's thread: a club out of reach shows nothing
        ctl = app.controller
        view = ctl.view
        self._looking += 1
        playing = Path(view.path) if view.active and ctl.match is not None and view.path else None
        if playing is not None:
            # The match in play (the coach came here through Menu): back to it.
            self.last_text = f"Back to the match: {match_line(view.summary)}"
            self.can_resume, self._target = True, None
        else:
            self.last_text, self.can_resume = "Looking for the match you were playing...", False
            self.others, self.others_text = [], ""
        job, data_dir, folder = self._looking, ctl.data_dir, ctl.matches_dir()

        def work() -> None:
            try:
                found = played_here.unfinished(data_dir, folder)
            except Exception:   # a folder that cannot be read: nothing to resume, Home still works
                found = []
            Clock.schedule_once(lambda _dt: self._show(job, playing, found))
        threading.Thread(target=work, name="touchline-home", daemon=True).start()

    def on_leave(self, *_args) -> None:
        App.get_running_app().unbind(club_state=self._club_news)

    def _club_news(self, _app, state) -> None:
        self.pairing_text = state.pairing.words if state.joined and state.pairing is not None else ""

    def set_up_pairing(self) -> None:
        """The club's next game here, set up with its game and teams (where this box has them)."""
        app = App.get_running_app()
        pairing = app.club_state.pairing
        if pairing is None:
            return
        setup = app.root.get_screen("setup")
        app.show("setup")
        setup.take_pairing(pairing.game, pairing.home, pairing.away)

    def _show(self, job: int, playing: Path | None, found: list) -> None:
        if job != self._looking or self.manager is None or self.manager.current != "home":
            return   # an older look, or the coach has left Home (a resumed match is live)
        if playing is None:
            if not found:
                self.last_text, self.can_resume, self._target = "No match to resume yet", False, None
                self.others, self.others_text = [], ""
                return
            first, found = found[0], found[1:]
            self._target, self.can_resume = first.path, True
            self.last_text = f"Resume {played_here.resume_line(first)}"
        rest = [e for e in found if e.path != playing]
        self.others = [(f"Resume {played_here.resume_line(e)}", str(e.path)) for e in rest[:MORE_SHOWN]]
        more = len(rest) - MORE_SHOWN
        self.others_text = "" if not rest else (
            f"Also unfinished, played on this tablet ({len(rest)})"
            + (f"; the {more} oldest are in Matches and league" if more > 0 else "") + ":")

    def _fill_others(self) -> None:
        box = self.ids.others
        box.clear_widgets()
        for text, path in self.others:
            b = Button(text=text, font_size=theme.BODY, size_hint_y=None, height=dp(56), shorten=True,
                       shorten_from="right", halign="center", valign="middle")
            b.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(20), s[1])))
            b.bind(on_release=lambda _b, p=path: self.resume(Path(p)))
            box.add_widget(b)

    def on_others(self, *_args) -> None:
        self._fill_others()

    def resume(self, path: Path | None = None) -> None:
        if path is None and not self.can_resume:
            return
        app = App.get_running_app()
        if path is not None or not (app.controller.view.active and app.controller.match is not None):
            app.controller.resume(path or self._target)
        app.show("live")
