"""The Touchline tablet app: screens, the controller, and the queue between them.

Work that may block (the journal's fsync, the camera, the dice tray) runs on worker
threads; views reach the UI thread through a queue drained by a Clock trigger, so the UI
thread never waits.
"""

from __future__ import annotations

import json
import os
import queue
from pathlib import Path


def prepare_environment(headless: bool = False, check_display: bool = True) -> int | None:
    """Settings Kivy reads when it is first imported, and the window's size. Returns an exit
    status when the app cannot start here (no display: one line on stderr said so)."""
    from vision.threads import one_thread_env

    from .launch import HEADLESS_ENV, start_app

    one_thread_env()  # the camera's numpy on one thread, set before numpy loads (vision/threads.py)
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if headless:
        os.environ.setdefault(HEADLESS_ENV, "1")
    return start_app(check_display)


def build_app_class():
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.logger import Logger
    from kivy.lang import Builder
    from kivy.properties import ObjectProperty
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    import importlib

    from .camera import CameraService
    from .club import ClubDesk, ClubState
    from .controller import Controller, View
    from .screens.box_editor import BoxEditorScreen
    from .screens.calibrate import CalibrateScreen
    from .screens.camera_check import CameraCheckScreen
    from .screens.history import HistoryScreen
    from .screens.home import HomeScreen
    from .screens.live import LiveScreen
    from .screens.reference import ReferenceScreen
    from .screens.scoreboard import ScoreboardScreen
    from .screens.report import ReportScreen
    from .screens.settings import SettingsScreen
    from .screens.setup import SetupScreen
    from .widgets.keypad import Bar  # noqa: F401  (used by the kv rules)
    from .widgets.icons import IconButton, IconToggleButton  # noqa: F401  (used by the kv rules)
    from .widgets.pitch import PitchView  # noqa: F401
    from .web.in_app import AppScoreboard

    from kivy.base import ExceptionHandler, ExceptionManager

    kv_dir = Path(__file__).parent / "kv"

    class KeepPlaying(ExceptionHandler):
        """A fault in drawing or in a screen must not close the app mid-match: it is logged
        with its traceback, said on screen, and the match (safe in its journal) goes on."""

        def __init__(self, app) -> None:
            self.app = app

        def handle_exception(self, exc):
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                return ExceptionManager.RAISE
            Logger.exception(f"Touchline: the screen met a fault: {exc!r}")
            self.app.faults.append(f"{type(exc).__name__}: {exc}")
            try:
                self.app.say_problem(f"The screen met a fault ({type(exc).__name__}: {exc}). The match is safe: "
                                     f"go on, or Menu and resume it.")
            except Exception:
                Logger.exception("Touchline: cannot show the fault")
            return ExceptionManager.PASS

    class TouchlineApp(App):
        title = "Touchline"
        view = ObjectProperty(View())
        club_state = ObjectProperty(ClubState())   # the club's desk, as of its last news (ui/club.py)

        def __init__(self, data_dir: Path | None = None, resume_last: bool = True, **kwargs) -> None:
            super().__init__(**kwargs)
            self._data_dir = data_dir
            self._resume_last = resume_last
            self._views: queue.Queue = queue.Queue()
            self._trigger = Clock.create_trigger(self._drain)
            self._rest_trigger = Clock.create_trigger(self._show_rest)  # created in a callback: runs next frame
            self._newest: View | None = None
            self.controller = Controller(post=self._post, data_dir=data_dir)
            self.camera = CameraService(self.controller, self.controller.data_dir)
            self.match_settings: dict[str, str] = {"dice": "software", "camera": "none"}
            self.scoreboard = AppScoreboard()   # the spectators' page, off until Settings switches it on
            self.faults: list[str] = []     # what KeepPlaying caught (the UI tests read it)
            self._fault_handler = KeepPlaying(self)
            ExceptionManager.add_handler(self._fault_handler)
            # The club: its own thread sends the journals; its news comes through this queue.
            self._club_news: queue.Queue = queue.Queue()
            self._club_trigger = Clock.create_trigger(self._drain_club)
            self.club = self._open_club()

        def _open_club(self):
            return ClubDesk(self.controller.data_dir / "club-tablet", post=self._post_club)

        def _post_club(self, state) -> None:   # on the club's thread
            self._club_news.put(state)
            self._club_trigger()

        def _drain_club(self, _dt) -> None:
            state = None
            while True:
                try:
                    state = self._club_news.get_nowait()
                except queue.Empty:
                    break
            if state is not None:
                self.club_state = state

        def say_problem(self, text: str) -> None:
            """Put a problem on the screen the coach is looking at."""
            live = self.root.get_screen("live") if self.root is not None else None
            if live is not None:
                live.error_text = text
            self.controller.note(text)

        # Called on the controller's worker thread: hand the view over, never touch widgets.
        def _post(self, view: View) -> None:
            self._views.put(view)
            self._trigger()
            if view.path:   # the journal may have grown: the club's thread sends it (when in a club)
                self.club.journal_grew(view.path)
            self.scoreboard.offer(view, self.controller.match)

        def _drain(self, _dt) -> None:
            view = None
            while True:
                try:
                    view = self._views.get_nowait()
                except queue.Empty:
                    break
            if view is None:
                return
            self._newest = view
            # The pitch first, the rest of the screen on the next frame: rebuilding the panels
            # takes far longer than redrawing the figures, and a move should not wait for it.
            if self._show_figures(view):
                self._rest_trigger()
            else:
                self._show_rest()

        def _show_figures(self, view: View) -> bool:
            """Redraw only the pitch when the live screen already shows this match."""
            if self.root.current != "live":
                return False
            return self.root.get_screen("live").show_pitch(view)

        def _show_rest(self, _dt=None) -> None:
            view, self._newest = self._newest, None
            if view is not None:
                self.view = view
                self.root.get_screen("live").view = view
                self._after_resume(view)

        def build(self):
            # The coach's text size and contrast first: every screen reads them when it is made.
            self.match_settings.update(self._load_settings())
            self._set_look()
            for name in ("common", "home", "setup", "live", "settings", "calibrate", "box_editor", "report",
                         "history", "scoreboard", "reference", "camera_check"):
                Builder.load_file(str(kv_dir / f"{name}.kv"))
            sm = ScreenManager(transition=NoTransition())
            for screen in self._screens():
                sm.add_widget(screen)
            sm.current = "home"
            return sm

        @staticmethod
        def _screens() -> list:
            return [HomeScreen(), SetupScreen(), LiveScreen(), SettingsScreen(), CalibrateScreen(),
                    BoxEditorScreen(), ReportScreen(), HistoryScreen(), ScoreboardScreen(), ReferenceScreen(),
                    CameraCheckScreen()]

        def _set_look(self) -> None:
            """Settings' text size (Kivy's font scale: every sp follows it) and contrast (the
            theme's colours)."""
            from kivy.metrics import Metrics

            from . import theme

            theme.set_contrast(self.match_settings.get("contrast") == "high")
            scale = theme.TEXT_SIZES.get(self.match_settings.get("text_size", "normal"), 1.0)
            if abs(Metrics.fontscale - scale) > 1e-6:
                Metrics.fontscale = scale

        def set_look(self, **settings: str) -> None:
            """A new text size or contrast: saved, and every screen made again with it (the
            match and every screen's data come back from the controller; only a half-filled
            form is lost)."""
            self.settings_for_match(**settings)
            self._set_look()
            sm = self.root
            current = sm.current
            for screen in list(sm.screens):
                stop = getattr(screen, "stop", None)
                if callable(stop):
                    stop()
            sm.clear_widgets()
            for screen in self._screens():
                sm.add_widget(screen)
            self.root.get_screen("live").view = self.view
            sm.current = current

        def on_start(self) -> None:
            from kivy.core.window import Window   # made by run(): imported once it exists
            Window.bind(on_minimize=self._minimised)
            self.match_settings.update(self._load_settings())
            if self.match_settings.get("auto") in ("devices", "on", "off"):
                self.controller.set_auto(self.match_settings["auto"])
            # The unfinished match this tablet was playing (the app was closed or killed) comes
            # straight back, with the dice tray it was using; which one is found on the
            # controller's worker (ui/played_here.py): never a finished or an imported match.
            if self._resume_last and self.controller.has_played():
                self.controller.resume(quiet=True)
                self._resuming = True
                if self.match_settings.get("dice") == "tray":
                    self.controller.start_tray(self.match_settings.get("tray_port", ""))
                self.start_camera(self.match_settings.get("camera", "none"))

        def _after_resume(self, view: View) -> None:
            if getattr(self, "_resuming", False) and view.active:
                self._resuming = False
                if not view.over:
                    self.show("live")

        def show(self, name: str) -> None:
            self.root.current = name

        def game(self) -> str:
            """The game of the match in play, else the first one."""
            match = self.controller.match
            return match.ruleset.game if match is not None else "fublet"

        def components_dir(self, game: str | None = None) -> Path:
            """Where a table keeps its own box data for a game (copied from Settings)."""
            return self.controller.data_dir / "components" / (game or self.game())

        def components_module(self, game: str | None = None):
            return importlib.import_module(f"companion.{game or self.game()}.components")

        def components(self, game: str | None = None):
            """The box data: the table's own files where it has them, else the shipped ones."""
            folder = self.components_dir(game)
            return self.components_module(game).load_components(folder if folder.is_dir() else None)

        def open_box_editor(self, game: str | None = None, file: str | None = None) -> None:
            """The box editor for a game, at one page or at its first placeholder."""
            self.root.get_screen("box_editor").open(game, file)

        def start_camera(self, kind: str) -> None:
            try:
                self.camera.start(kind if kind in ("device", "demo") else "none")
            except Exception as exc:  # a camera that cannot start: the match goes on by hand
                Logger.warning(f"Touchline: camera: {exc}")
                self.controller.set_health("camera", "lost", f"{exc}; positions are entered by hand")

        def settings_for_match(self, **settings: str) -> None:
            self.match_settings.update(settings)
            path = self.controller.data_dir / "settings.json"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(self.match_settings, indent=1), encoding="utf-8")
            except OSError as exc:  # settings are a convenience: the match itself is journaled
                Logger.warning(f"Touchline: cannot save {path}: {exc}")
                self.controller.note(f"Settings not saved ({exc.strerror or exc}): they hold until the app "
                                     f"closes; start it with a data folder it can write to (--data-dir)")

        def use_data_dir(self, folder: Path) -> None:
            """Matches, settings and the camera's calibration from another data folder from now
            on (leaving the demo's own folder for a table's matches)."""
            self.controller.data_dir = Path(folder)
            self.camera.calibration_path = Path(folder) / "calibration.json"
            self.camera.lens_path = Path(folder) / "lens.json"
            self.match_settings = {"dice": "software", "camera": "none", **self._load_settings()}
            self.club.close()
            self.club = self._open_club()   # the club this folder's tablet joined, if any

        def _load_settings(self) -> dict:
            path = self.controller.data_dir / "settings.json"
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {}
            return {k: str(v) for k, v in loaded.items() if k in ("dice", "camera", "tray_port", "sound", "scoreboard_host",
                                                                   "auto", "text_size", "contrast")} \
                if isinstance(loaded, dict) else {}

        # Time belongs to the match: whenever nobody can see the clocks, they stop (journaled).
        def on_pause(self) -> bool:
            """The app goes to the background (Android, or a minimised window)."""
            self.controller.stop_clocks("the app went to the background")
            return True   # kept alive: back in front, the coach starts the clock with one tap

        def _minimised(self, *_args) -> None:
            self.controller.stop_clocks("the window was minimised")

        def on_stop(self) -> None:
            self.controller.stop_clocks("the app was closed")   # run before close() drains the worker
            self.scoreboard.stop()
            ExceptionManager.remove_handler(self._fault_handler)
            self.camera.stop()
            self.controller.close()
            self.club.close()

    return TouchlineApp


def main(argv: list[str] | None = None) -> int:
    status = prepare_environment()
    if status is not None:
        return status
    app_class = build_app_class()
    app_class().run()
    return 0
