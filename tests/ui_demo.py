"""Drive ``touchline demo`` in the real tablet app headless: watch the highlight to its end,
photograph it at its moments (the director waits at each until the picture is taken), then
tap what the end offers: Watch again, Stop demo, Start your own match.

Run by tests/test_ui_demo.py in a subprocess (Kivy opens one window per process):

    python tests/ui_demo.py OUT_DIR [WIDTHxHEIGHT|default]

The app's data folder is the demo's own (a temporary folder, as ``touchline demo`` makes);
TOUCHLINE_DATA_DIR is the table's own folder, where Start your own match leads. result.json
says what was seen.
"""

from __future__ import annotations

import queue
import tempfile
import threading
from pathlib import Path

from ui_harness import SIZE, Driver, run, widgets

from kivy.core.window import Window  # noqa: E402 (after the harness has set up Kivy)
from kivy.uix.button import Button  # noqa: E402

from ui.demo_app import DemoSession  # noqa: E402

# The moments photographed: (name, chapter title, the caption's first words).
MOMENTS = (("intro", "Setting up", "This demo"), ("camera", "The camera", "Movement"),
           ("goal", "A goal", "GOAL!"), ("card", "A foul and a card", "Rovers take the free kick"),
           ("clock", "The clock", "Skipping ahead to half time"), ("half_time", "Half time", "Half time"),
           ("full_time", "Full time", "The final whistle"), ("report", "The report", "The match report"))


class PhotographedSession(DemoSession):
    """The demo's session, its director waiting at each moment until the driver took it."""

    def __init__(self, app) -> None:
        super().__init__(app, pace=0.0)
        self.moments: queue.Queue = queue.Queue()
        self.wanted: list = [*MOMENTS, ("override", "select", None)]

    def make_director(self):
        director = super().make_director()
        first = self.runs == 1   # the moments are photographed on the first run only
        on_caption, on_gesture = director.on_caption, director.on_gesture

        def hold(name: str) -> None:
            done = threading.Event()
            self.moments.put((name, done))
            if not done.wait(600) and not director.stopped:
                raise TimeoutError(f"the driver did not photograph {name}")

        def caption(c) -> None:
            on_caption(c)
            for moment in self.wanted:
                name, title, words = moment
                if first and title == c.title and words and words in c.text:
                    self.wanted.remove(moment)
                    hold(name)
                    return

        def gesture(name, value) -> None:
            on_gesture(name, value)
            for moment in self.wanted:
                if first and moment[1] == name and value is not None:
                    self.wanted.remove(moment)
                    hold(moment[0])
                    return

        director.on_caption, director.on_gesture = caption, gesture
        return director


class DemoDriver(Driver):
    def __init__(self, app) -> None:
        self.session = PhotographedSession(app)
        self.seen: dict = {"moments": {}}
        self.layout: list[str] = []
        super().__init__(app)
        app.bind(on_start=lambda *_: self.session.start())

    def checked(self, name: str) -> None:
        from ui.layout_check import check
        from ui.words import PLAYER_ID

        band = self.session.band
        if band is not None and band.get_root_window() is not None:
            self.layout += check(band, f"{name} ({SIZE}) band")
            # The caption shows whole: the title row and all the caption's lines fit the band (a
            # longer one would slip under the screen below it).
            column = band.ids.caption.parent
            fixed = [w for w in column.children if w.size_hint_y is None]
            needed = sum(w.height for w in fixed) + column.spacing * (len(fixed) - 1)
            if needed > column.height + 1:
                self.layout.append(f"{name} ({SIZE}): the caption does not fit the band: {band.text!r}")
            for w in widgets(band):
                text = getattr(w, "text", "")
                if isinstance(text, str) and PLAYER_ID.search(text):
                    self.layout.append(f"{name}: an id on the band: {text!r}")
        self.layout += check(self.screen(), f"{name} ({SIZE})")

    def band_state(self) -> dict:
        band = self.session.band
        return {"title": band.title, "text": band.text, "over": band.over, "buttons": band.buttons,
                "dice": [list(d) for d in band.dice], "dice_by": band.dice_by,
                "picture": band.ids.camera.texture is not None, "screen": self.screen().name}

    def band_button(self, text: str) -> Button:
        found = [w for w in widgets(self.session.band.ids.actions) if isinstance(w, Button) and w.text == text]
        assert found, f"no {text!r} on the band: {self.session.band.buttons}"
        return found[0]

    def play(self):
        live = self.app.root.get_screen("live")
        report = self.app.root.get_screen("report")
        # The moments, as the director reaches them, then the end.
        while True:
            yield from self.wait(lambda: not self.session.moments.empty() or bool(self.session.outcome))
            if self.session.moments.empty():
                break
            name, done = self.session.moments.get()
            if name == "report":
                yield from self.wait(lambda: report.report is not None)
            yield "settle"
            seen = self.band_state()
            if name == "override":
                seen.update(override=live.override, selected=str(live.selected))
            self.seen["moments"][name] = seen
            self.screenshot(f"demo_{name}")
            done.set()
        yield from self.wait(lambda: report.report is not None)
        yield "settle"
        self.seen["end"] = self.band_state()
        self.seen["outcome"] = dict(self.session.outcome)
        director = self.session.director
        self.seen["journal"] = director.journal
        self.seen["captions"] = director.captions
        self.seen["report_title"] = report.title_text
        self.screenshot("demo_over")

        # Watch again: a new match from the start; Stop demo says so and offers the same.
        self.tap_widget(self.band_button("Watch again"))
        self.log.append("press Watch again")
        yield from self.wait(lambda: self.session.runs == 2 and self.session.director.journal not in
                             ("", self.seen["journal"]))
        yield "settle"
        self.seen["again"] = self.band_state()
        self.screenshot("demo_again")
        self.tap_widget(self.band_button("Stop demo"))
        self.log.append("press Stop demo")
        yield from self.wait(lambda: bool(self.session.outcome))
        yield "settle"
        self.seen["stopped"] = self.band_state()
        self.screenshot("demo_stopped")

        # Start your own match: the band goes, the devices let go, the table's own folder.
        self.tap_widget(self.band_button("Start your own match"))
        self.log.append("press Start your own match")
        yield from self.wait(lambda: self.screen().name == "setup")
        yield "settle"
        self.seen["own"] = {"screen": self.screen().name, "band_shown": self.session.band.get_root_window() is not None,
                            "data_dir": str(self.app.controller.data_dir), "camera": self.app.camera.kind,
                            "window_children": len(Window.children)}
        self.screenshot("own_match_setup")
        yield "done"

    def result(self) -> dict:
        return {"seen": self.seen, "layout": self.layout, "faults": self.app.faults}


if __name__ == "__main__":
    run(DemoDriver, data_dir=Path(tempfile.mkdtemp(prefix="touchline-demo-")), resume_last=False)
