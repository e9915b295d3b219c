"""Settings: the sound, the automatic steps, the text size and contrast every screen follows,
and what of the box's printed values is still missing (the way into the box editor). In a
coach's words: no folder, no file name."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from .. import theme

AUTO_WORDS = {"devices": "With the tray or camera", "on": "Always", "off": "Never (the coach taps them)"}
GAME_TITLES = {"fublet": "Fublet", "football_leader": "Football Leader", "futboard": "Futboard",
               "fussball_liga": "Fußball-Liga"}


def box_lines(game: str, folder) -> list[str]:
    """What a game's box still lacks, by the box editor's page titles: "Fublet: 4 pages still
    hold placeholder values (Tactical boards, Round pace bar, ...)"."""
    from companion.box import still_placeholders

    title = GAME_TITLES.get(game, game)
    try:
        waiting = still_placeholders(game, folder)
    except Exception:  # a box the editor cannot list: said, the screen stays usable
        return [f"{title}: the box's values cannot be read; open the box editor to see why."]
    if not waiting:
        return [f"{title}: every value of your box is entered."]
    pages = ", ".join(s.label + (" (cannot be read)" if s.error else "") for s in waiting)
    n = len(waiting)
    return [f"{title}: {n} page{'s' if n != 1 else ''} still hold{'s' if n == 1 else ''} values Touchline "
            f"guessed: {pages}."]


class SettingsScreen(Screen):
    info = StringProperty("")
    sound_on = BooleanProperty(True)
    auto = StringProperty("devices")   # ui/autoflow.py: steps the rules leave no choice about
    text_size = StringProperty("normal")
    high_contrast = BooleanProperty(False)

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        self.sound_on = app.match_settings.get("sound", "on") != "off"
        self.auto = app.match_settings.get("auto", "devices") if app.match_settings.get("auto") in AUTO_WORDS \
            else "devices"
        self.text_size = app.match_settings.get("text_size", "normal") \
            if app.match_settings.get("text_size") in theme.TEXT_SIZES else "normal"
        self.high_contrast = app.match_settings.get("contrast") == "high"
        self.refresh()

    @staticmethod
    def auto_words(auto: str) -> str:
        return AUTO_WORDS.get(auto, auto)

    @staticmethod
    def size_words(size: str) -> str:
        return theme.TEXT_SIZE_WORDS.get(size, size)

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

    def set_text_size(self, size: str) -> None:
        """Every screen's text in the new size (the app makes its screens again)."""
        if size != self.text_size and size in theme.TEXT_SIZES:
            App.get_running_app().set_look(text_size=size)

    def set_contrast(self, high: bool) -> None:
        if high != self.high_contrast:
            App.get_running_app().set_look(contrast="high" if high else "normal")

    def try_sound(self) -> None:
        from ..sound import play_time_up
        if not play_time_up(App.get_running_app().controller.data_dir):
            self.refresh("This tablet has no sound output: time up is shown on screen only.")

    def refresh(self, note: str = "") -> None:
        app = App.get_running_app()
        lines = ["Your box's printed values (enter them with \"Enter your box's values\"):"]
        for game in GAME_TITLES:
            lines += [f"- {line}" for line in box_lines(game, app.components_dir(game))]
        folder = app.controller.matches_dir()
        n = len(list(folder.glob("*.sqlite"))) if folder.is_dir() else 0
        lines.append(f"{n} match{'es' if n != 1 else ''} kept on this tablet (Home > Matches and league).")
        if note:
            lines.append(note)
        self.info = "\n".join(lines)
