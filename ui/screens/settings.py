"""Settings: the sound, the automatic steps, the text size and contrast every screen follows,
and what of the box's printed values is still missing (the way into the box editor). In a
coach's words: no folder, no file name."""

from __future__ import annotations

import threading
import time

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from .. import theme
from ..club import status_words

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
    club_words = StringProperty("")
    club_button = StringProperty("")
    club_trouble = BooleanProperty(False)
    club_joined = BooleanProperty(False)   # Rename is offered

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        app.bind(club_state=self.show_club)
        self.show_club()
        # "trying again in 40 s" counts down while Settings is open
        self._club_ticker = Clock.schedule_interval(lambda _dt: self.show_club(), 1.0)
        self.sound_on = app.match_settings.get("sound", "on") != "off"
        self.auto = app.match_settings.get("auto", "devices") if app.match_settings.get("auto") in AUTO_WORDS \
            else "devices"
        self.text_size = app.match_settings.get("text_size", "normal") \
            if app.match_settings.get("text_size") in theme.TEXT_SIZES else "normal"
        self.high_contrast = app.match_settings.get("contrast") == "high"
        self.refresh()

    def on_leave(self, *_args) -> None:
        App.get_running_app().unbind(club_state=self.show_club)
        ticker = getattr(self, "_club_ticker", None)
        if ticker is not None:
            ticker.cancel()

    # --- the club ------------------------------------------------------------------------------
    def show_club(self, *_args) -> None:
        state = App.get_running_app().club_state
        if not state.ready:
            self.club_words, self.club_button, self.club_trouble = "Club: looking...", "", False
            return
        words = status_words(state, time.time())
        self.club_words = words if state.joined or state.busy else f"Club: {words[0].lower()}{words[1:]}"
        self.club_trouble = bool(state.problem) or "cannot be reached" in words or "refused" in words
        self.club_button = "" if state.busy else ("Leave the club" if state.joined else "Join a club")
        self.club_joined = state.joined and not state.busy

    def club_action(self) -> None:
        state = App.get_running_app().club_state
        if state.joined:
            LeaveClubPopup(words=f"This tablet leaves the club at {state.server}. Its matches stay on this tablet; "
                                 f"those not sent yet will not be sent.").open()
        else:
            JoinClubPopup().open()

    def rename_tablet(self) -> None:
        RenameTabletPopup().open()

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


class JoinClubPopup(Popup):
    """The club's join link (typed, pasted or scanned) and this tablet's name; stays open until
    the club answered, saying why it did not work when it did not."""
    status = StringProperty("")
    trouble = BooleanProperty(False)
    scanning = BooleanProperty(False)
    joining = BooleanProperty(False)

    def on_open(self) -> None:
        app = App.get_running_app()
        app.bind(club_state=self._club_news)
        if app.club_state.name:
            self.ids.name.text = app.club_state.name

    def on_dismiss(self) -> None:
        App.get_running_app().unbind(club_state=self._club_news)

    def join(self) -> None:
        link, name = self.ids.link.text.strip(), " ".join(self.ids.name.text.split())
        if not link:
            self.status, self.trouble = "Scan the club's QR code, or type or paste its join link above.", True
            return
        if not name:
            self.status, self.trouble = "Give this tablet's name at the club (for example: Table 3).", True
            return
        app = App.get_running_app()
        self.joining, self.status, self.trouble = True, "Joining the club...", False
        self._joins = app.club_state.joins   # the answer is the state that counts one join more
        app.club.join(link, name)

    def _club_news(self, _app, state) -> None:
        if not self.joining or state.joins <= getattr(self, "_joins", 0):
            return
        self.joining = False
        if state.joined and not state.problem:
            self.dismiss()
        else:
            self.status, self.trouble = state.problem or "The club did not answer.", True

    def scan(self) -> None:
        from ..club_scan import scan

        app = App.get_running_app()
        self.scanning, self.status, self.trouble = True, "Hold the club's QR code in front of the camera...", False
        camera = app.camera

        def work() -> None:
            link, words = scan(camera)
            Clock.schedule_once(lambda _dt: self._scanned(link, words))
        threading.Thread(target=work, name="touchline-club-scan", daemon=True).start()

    def _scanned(self, link: str, words: str) -> None:
        self.scanning = False
        if link:
            self.ids.link.text = link
        self.status, self.trouble = (words + (" Give the tablet's name, then Join." if link else "")), not link


class RenameTabletPopup(Popup):
    """This tablet's name at the club; stays open until the club answered, saying why not when
    it did not take the name."""
    status = StringProperty("")
    trouble = BooleanProperty(False)
    renaming = BooleanProperty(False)

    def on_open(self) -> None:
        app = App.get_running_app()
        app.bind(club_state=self._club_news)
        self.ids.name.text = app.club_state.name

    def on_dismiss(self) -> None:
        App.get_running_app().unbind(club_state=self._club_news)

    def rename(self) -> None:
        name = " ".join(self.ids.name.text.split())
        if not name:
            self.status, self.trouble = "Give this tablet's name at the club (for example: Table 3).", True
            return
        app = App.get_running_app()
        if name == app.club_state.name:
            self.dismiss()
            return
        self.renaming, self.status, self.trouble = True, "Renaming this tablet at the club...", False
        self._renames = app.club_state.renames   # the answer is the state that counts one rename more
        app.club.rename(name)

    def _club_news(self, _app, state) -> None:
        if not self.renaming or state.renames <= getattr(self, "_renames", 0):
            return
        self.renaming = False
        if state.rename_problem:
            self.status, self.trouble = state.rename_problem, True
        else:
            self.dismiss()


class LeaveClubPopup(Popup):
    words = StringProperty("")

    def leave(self) -> None:
        App.get_running_app().club.leave()
        self.dismiss()
