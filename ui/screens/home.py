"""Home: a new match, the last match resumed (named by its teams, score and minute), the
camera's calibration, settings."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..words import journal_line, match_line


class HomeScreen(Screen):
    last_text = StringProperty("")
    can_resume = BooleanProperty(False)

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        ctl = app.controller
        view = ctl.view
        if view.active and ctl.match is not None:
            # The match in play (the coach came here through Menu): back to it.
            self.last_text = f"Back to the match: {match_line(view.summary)}"
            self.can_resume = True
            return
        last = ctl.last_journal()
        self.can_resume = last is not None
        self.last_text = f"Resume {journal_line(last)}" if last else "No match to resume yet"

    def resume(self) -> None:
        if not self.can_resume:
            return
        app = App.get_running_app()
        if not (app.controller.view.active and app.controller.match is not None):
            app.controller.resume()
        app.show("live")
