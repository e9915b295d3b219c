"""Home: a new match, the last match resumed, settings."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen


class HomeScreen(Screen):
    last_text = StringProperty("")

    def on_pre_enter(self, *_args) -> None:
        last = App.get_running_app().controller.last_journal()
        self.last_text = f"Resume {last.stem}" if last else "No match to resume yet"

    def resume(self) -> None:
        app = App.get_running_app()
        app.controller.resume()
        app.show("live")
