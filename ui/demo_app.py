"""``touchline demo``: the tablet app with the demo director playing its highlight.

A band over the app's screens (ui/widgets/demo_band.py) shows what the camera sees, the dice
tray's last roll and what is happening in words; at the end it says the demo is over, over
the match report, and offers what next: watch it again, or start a match of your own (in
the table's own data folder, never the demo's).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

PICTURE_S = 0.2     # how often the band's camera picture is renewed


class DemoSession:
    """The demo in a running app: its director, its band, and what next at the end."""

    def __init__(self, app, pace: float, exit_when_done: bool = False, result: Path | None = None) -> None:
        self.app = app
        self.pace = pace
        self.exit_when_done = exit_when_done
        self.result = Path(result) if result else None
        self.director = None
        self.band = None
        self.frame = None            # the box holding the band above the app's screens
        self.outcome: dict[str, Any] = {}
        self.runs = 0                # how many times the demo was started (Watch again adds one)
        self.left = False            # left for a match of one's own
        self._picture = None

    # --- starting and stopping ------------------------------------------------------------------------
    def start(self) -> None:
        """Put the band over the screens and play (on the UI thread, once the app is up)."""
        from kivy.clock import Clock

        self._add_band()
        self._picture = Clock.schedule_interval(self._show_picture, PICTURE_S)
        self.play()

    def play(self) -> None:
        self.runs += 1
        self.outcome = {}
        self.band.over = False
        self.band.title, self.band.text = "Demo", "Starting: a new match, the dice tray and the camera..."
        self.band.dice = []
        self.band.set_actions([("Stop demo", self.stop)])
        self.app.show("live")
        self.director = self.make_director()
        self.director.start()

    def make_director(self):
        """A director whose news reaches the band on the UI thread (a new one for every run)."""
        from .demo import DemoDirector

        director = DemoDirector(self.app.controller, pace=self.pace, camera=self.app.camera)
        director.on_done = lambda error, d=director: self._on_ui(lambda: self._done(d, error))
        director.on_caption = lambda caption, d=director: self._on_ui(lambda: self._caption(d, caption))
        director.on_gesture = lambda name, value, d=director: self._on_ui(lambda: self._gesture(d, name, value))
        return director

    def stop(self) -> None:
        """Stop demo: the director stops and the devices let go; the band says so and offers
        what next."""
        if self.director is not None:
            self.director.stop()
        self.app.start_camera("none")

    def watch_again(self) -> None:
        old = self.director
        if old is not None:
            old.stop()
            old.join(timeout=3)
        self.play()

    def own_match(self) -> None:
        """Leave the demo for a match of one's own: the devices let go, the table's own data
        folder (matches, settings, calibration) from now on, and the new match's setup."""
        from companion.paths import user_data_dir

        self.left = True
        self.stop()
        if self._picture is not None:
            self._picture.cancel()
            self._picture = None
        self.app.use_data_dir(user_data_dir())
        self._remove_band()
        self.app.show("setup")

    # --- the band --------------------------------------------------------------------------------------
    def _add_band(self) -> None:
        from kivy.core.window import Window
        from kivy.lang import Builder
        from kivy.uix.boxlayout import BoxLayout

        from .widgets.demo_band import DemoBand

        kv = str(Path(__file__).parent / "kv" / "demo_band.kv")
        if kv not in Builder.files:
            Builder.load_file(kv)
        root = self.app.root
        self.band = DemoBand()
        self.frame = BoxLayout(orientation="vertical")
        Window.remove_widget(root)
        self.frame.add_widget(self.band)
        self.frame.add_widget(root)
        Window.add_widget(self.frame)

    def _remove_band(self) -> None:
        from kivy.core.window import Window

        if self.frame is None:
            return
        root = self.app.root
        Window.remove_widget(self.frame)
        self.frame.remove_widget(root)
        Window.add_widget(root)
        self.frame = None

    @staticmethod
    def _on_ui(job) -> None:
        """From the director's thread to the UI thread."""
        from kivy.clock import Clock
        Clock.schedule_once(lambda _dt: job(), 0)

    def _caption(self, director, caption) -> None:
        if director is not self.director or self.left:
            return
        self.band.title = f"Demo, {caption.chapter} of {caption.chapters}: {caption.title}" if caption.chapter \
            else "Demo"
        self.band.text = caption.text
        self.band.dice_by = caption.roll_by
        self.band.dice = list(caption.roll)

    def _gesture(self, director, name: str, value) -> None:
        """A touch the demo shows on the tablet: Override lit, a figure selected, the report."""
        if director is not self.director or self.left:
            return
        live = self.app.root.get_screen("live")
        if name == "override":
            live.override = bool(value)
        elif name == "select":
            live.selected = value
        elif name == "report":
            self.app.root.get_screen("report").open_live()

    def _show_picture(self, _dt) -> None:
        if self.band is None or self.band.over:
            return
        latest = self.app.camera.latest() if self.app.camera.kind == "demo" else None
        if latest is not None:
            self.band.show_picture(latest[0])

    def _done(self, director, error: str) -> None:
        if director is not self.director or self.left:
            return
        self.outcome = {"error": "" if error == "stopped" else error, "stopped": error == "stopped"}
        view = self.app.controller.view
        self.band.over = True
        if error == "stopped":
            self.band.title = "The demo is stopped"
            self.band.text = "Watch it again from the start, or start a match of your own."
        elif error:
            self.band.title = "The demo stopped"
            said = error if len(error) <= 120 else error[:117] + "..."   # the band holds three lines
            self.band.text = f"{said[:1].upper()}{said[1:]}. Watch it again, or start a match of your own."
        else:
            self.band.title = "The demo is over"
            self.band.text = (f"Full time: {director.result()}. Below is the match report. Watch the demo "
                              f"again, or start a match of your own.")
        self.band.set_actions([("Watch again", self.watch_again), ("Start your own match", self.own_match)])
        self.stop()   # the camera and the tray rest while the band waits (no frames rendered for nobody)
        if self.result is not None:
            self.write_result(director, view)
        if self.exit_when_done:
            from kivy.clock import Clock
            Clock.schedule_once(lambda _dt: self.app.stop(), 0.5)

    def write_result(self, director, view) -> None:
        sources: dict[str, int] = {}
        match = self.app.controller.match
        for event in (match.events if match else ()):
            sources[event.source.value] = sources.get(event.source.value, 0) + 1
        summary = view.ruleset.summary(view.state) if view.active else {}
        self.result.write_text(json.dumps({
            "error": self.outcome.get("error", ""), "stopped": self.outcome.get("stopped", False),
            "steps": director.steps, "captions": director.captions, "summary": summary, "sources": sources,
            "journal": director.journal, "camera": view.camera, "tray": view.tray, "log": list(view.log),
            "band": {"title": self.band.title, "text": self.band.text,
                     "buttons": self.band.buttons},
            "screen": self.app.root.current}, indent=1, default=str))


def run_demo(args: argparse.Namespace) -> int:
    from .app import build_app_class, prepare_environment

    status = prepare_environment()
    if status is not None:
        return status

    # The demo's matches go to a folder of their own: they never mix with a table's matches.
    data_dir = Path(tempfile.mkdtemp(prefix="touchline-demo-"))
    app = build_app_class()(data_dir=data_dir, resume_last=False)
    session = DemoSession(app, pace=args.pace, exit_when_done=args.exit_when_done, result=args.result)

    def start(*_args) -> None:   # returns None: a true value would stop the app's own on_start
        session.start()

    app.bind(on_start=start)
    try:
        app.run()
    finally:
        if session.director is not None:
            session.director.stop()
    status = 2 if session.outcome.get("error") else 0
    if args.exit_when_done:
        # Everything is written and closed by now (the result, the journal at the app's stop).
        # Leave without the interpreter's teardown: a native library's worker thread still
        # alive then aborted the process now and then ("terminate called without an active
        # exception", SIGABRT) after a demo that had gone right.
        import logging
        import os
        import sys

        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status
