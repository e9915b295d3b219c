"""Settings: where matches and box data live, and the way into the box editor."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen


class SettingsScreen(Screen):
    info = StringProperty("")

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self, note: str = "") -> None:
        app = App.get_running_app()
        folder = app.components_dir()
        lines = [f"Matches: {app.controller.matches_dir()}", f"Box data ({app.game()}): {folder}"]
        try:
            notes = app.components().placeholders()
        except Exception as exc:  # a bad file: say which, keep the screen usable
            notes = [f"cannot load the box data: {exc}"]
        lines += [f"- {n}" for n in notes] or ["- no placeholder values in use"]
        if note:
            lines.append(note)
        self.info = "\n".join(lines)
