"""Settings: where matches and box data live, and the way into the box editor."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen


class SettingsScreen(Screen):
    info = StringProperty("")
    sound_on = BooleanProperty(True)

    def on_pre_enter(self, *_args) -> None:
        self.sound_on = App.get_running_app().match_settings.get("sound", "on") != "off"
        self.refresh()

    def set_sound(self, on: bool) -> None:
        if on != self.sound_on:
            self.sound_on = on
            App.get_running_app().settings_for_match(sound="on" if on else "off")

    def try_sound(self) -> None:
        from ..sound import play_time_up
        if not play_time_up(App.get_running_app().controller.data_dir):
            self.refresh("This tablet has no sound output: time up is shown on screen only.")

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
