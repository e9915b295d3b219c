"""Settings: where matches and box data live, and the way into the box editor."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen


AUTO_WORDS = {"devices": "With the tray or camera", "on": "Always", "off": "Never (the coach taps them)"}


class SettingsScreen(Screen):
    info = StringProperty("")
    sound_on = BooleanProperty(True)
    auto = StringProperty("devices")   # ui/autoflow.py: steps the rules leave no choice about

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        self.sound_on = app.match_settings.get("sound", "on") != "off"
        self.auto = app.match_settings.get("auto", "devices") if app.match_settings.get("auto") in AUTO_WORDS \
            else "devices"
        self.refresh()

    @staticmethod
    def auto_words(auto: str) -> str:
        return AUTO_WORDS.get(auto, auto)

    def next_auto(self) -> None:
        """With the tray or camera -> always -> never -> ..."""
        order = list(AUTO_WORDS)
        self.auto = order[(order.index(self.auto) + 1) % len(order)]
        app = App.get_running_app()
        app.settings_for_match(auto=self.auto)
        app.controller.set_auto(self.auto)

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
