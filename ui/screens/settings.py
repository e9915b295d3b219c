"""Settings: where matches and box data live; copying the box data to enter real values."""

from __future__ import annotations

import shutil
from pathlib import Path

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

    def copy_box_data(self) -> None:
        """Put the shipped data files where a table can edit them (never over its own)."""
        app = App.get_running_app()
        folder = app.components_dir()
        folder.mkdir(parents=True, exist_ok=True)
        source = Path(str(app.components_module().DATA))
        copied = []
        for path in source.glob("*.json"):
            target = folder / path.name
            if not target.exists():
                shutil.copyfile(path, target)
                copied.append(path.name)
        note = f"Copied {', '.join(copied)}: edit them, and set \"placeholder\": false." if copied else \
            "Your box data files are already there."
        self.refresh(note)
