"""Drive the tablet app headless through the match history, the league and the match report.

    python tests/ui_report_scenario.py OUT_DIR [WIDTHxHEIGHT]

The data folder (TOUCHLINE_DATA_DIR) is prepared by the caller: finished matches, one not
finished, a damaged file. Home -> Matches and league: the list, the league table, head to
head, team records, a filter by game and by team, CSV export; a match opened: its report's
numbers and plots, saved. Then the finished Fublet journal on the live screen: its "Match
report" button. Writes a screenshot of each and result.json with what was seen.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

OUT = Path(sys.argv[1])
SIZE = sys.argv[2] if len(sys.argv) > 2 else "1280x800"
OUT.mkdir(parents=True, exist_ok=True)
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ["KIVY_WINDOW"] = "sdl2"
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kivy.config import Config  # noqa: E402

if SIZE != "default":
    width, height = SIZE.split("x")
    Config.set("graphics", "width", width)
    Config.set("graphics", "height", height)

from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.input.motionevent import MotionEvent  # noqa: E402
from kivy.metrics import dp, sp  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.image import Image  # noqa: E402
from kivy.uix.label import Label  # noqa: E402

from ui.app import build_app_class  # noqa: E402


class Touch(MotionEvent):
    def __init__(self, x: float, y: float) -> None:
        super().__init__("scenario", 1, {"x": x, "y": y}, is_touch=True, type_id="touch")

    def depack(self, args) -> None:
        self.sx = args["x"] / Window.width
        self.sy = args["y"] / Window.height
        super().depack(args)


def tap(x: float, y: float) -> None:
    touch = Touch(x, y)
    EventLoop.post_dispatch_input("begin", touch)
    EventLoop.post_dispatch_input("end", touch)


def widgets(root):
    yield root
    for child in root.children:
        yield from widgets(child)


class Scenario:
    def __init__(self, app) -> None:
        self.app = app
        self.log: list[str] = []
        self.shots: list[str] = []
        self.seen: dict = {"small_text": [], "small_targets": []}
        self.steps = self.play()
        self.waiting = None
        self.deadline = 0.0
        self.frames = 0

    def screen(self):
        return self.app.root.current_screen

    def press(self, text: str, startswith: bool = False) -> None:
        found = [w for w in widgets(self.screen()) if isinstance(w, Button) and not w.disabled
                 and (w.text.startswith(text) if startswith else w.text == text)]
        if not found:
            raise AssertionError(f"no button {text!r} on {self.screen().name}: "
                                 f"{[w.text for w in widgets(self.screen()) if isinstance(w, Button)][:40]}")
        b = found[0]
        x, y = b.to_window(b.center_x, b.center_y)
        tap(x, y)
        self.log.append(f"press {text}")

    def wait(self, predicate, timeout: float = 60.0):
        self.waiting, self.deadline = predicate, time.monotonic() + timeout
        yield "wait"

    def screenshot(self, name: str) -> None:
        self.check_sizes(name)
        self.shots.append(Window.screenshot(name=str(OUT / f"{name}.png")))

    def check_sizes(self, name: str) -> None:
        """Text under 18 sp and touch targets under 48 dp on the screens this scenario visits."""
        for w in widgets(self.screen()):
            if isinstance(w, Label) and w.text and w.opacity and w.height > 0 and w.font_size < sp(18) - 0.5:
                self.seen["small_text"].append(f"{name}: {w.text[:40]!r} {w.font_size / sp(1):.0f}sp")
            if isinstance(w, Button) and not w.disabled and w.opacity and w.height and \
                    (w.height < dp(48) - 0.5 or w.width < dp(48) - 0.5):
                self.seen["small_targets"].append(f"{name}: {w.text[:30]!r} {w.width:.0f}x{w.height:.0f}")

    def texts(self) -> list[str]:
        return [w.text for w in widgets(self.screen()) if isinstance(w, Label) and w.text]

    def play(self):
        yield "settle"
        self.screenshot("home")
        self.press("Matches and league")
        history = self.app.root.get_screen("history")
        yield from self.wait(lambda: history.entries and not history._scanning)
        self.screenshot("history_matches")
        self.seen["history_status"] = history.status_text
        self.seen["history_rows"] = [w.text for w in widgets(history.ids.body) if isinstance(w, Button)]
        self.press("League table")
        yield "settle"
        self.screenshot("history_league")
        self.seen["league_texts"] = self.texts()
        self.press("Head to head")
        yield "settle"
        self.screenshot("history_h2h")
        self.press("Team records")
        yield "settle"
        self.screenshot("history_records")
        self.press("Matches")
        yield "settle"
        history.ids.game.text = "Fußball-Liga"
        yield "settle"
        history.ids.team.text = "gruen"
        yield "settle"
        self.seen["filtered_rows"] = [w.text for w in widgets(history.ids.body) if isinstance(w, Button)]
        self.screenshot("history_filtered")
        self.press("Export CSV")
        yield "settle"
        self.seen["export_status"] = history.status_text
        self.press("Clear")
        yield "settle"
        # A match from the list: its report.
        rows = [w for w in widgets(history.ids.body) if isinstance(w, Button) and "Football Leader" in w.text]
        b = rows[0]
        tap(*b.to_window(b.center_x, b.center_y))
        report = self.app.root.get_screen("report")
        yield from self.wait(lambda: report.report is not None or report.status_text.startswith("No report"))
        yield "settle"
        self.screenshot("report_numbers")
        self.seen["report_title"] = report.title_text
        self.seen["report_status"] = report.status_text
        self.seen["plots_before"] = [w.text for w in widgets(report.ids.body) if isinstance(w, Label)][:1]
        yield from self.wait(lambda: bool(report.plots) or bool(report.plots_note))
        self.press("Plots")
        yield "settle"
        yield "settle"
        self.seen["plot_images"] = sum(1 for w in widgets(report.ids.body) if isinstance(w, Image) and w.texture)
        self.screenshot("report_plots")
        self.press("Save")
        yield from self.wait(lambda: report.status_text.startswith(("Saved", "Not saved")))
        self.seen["save_status"] = report.status_text
        self.press("Back")
        yield "settle"
        self.seen["after_back"] = self.screen().name
        # The damaged file's report says why, without a traceback.
        bad = next(e for e in history.entries if not e.ok)
        report.open_file(bad.path)
        yield from self.wait(lambda: report.status_text.startswith("No report"))
        yield "settle"
        self.seen["bad_report_status"] = report.status_text
        self.screenshot("report_bad_file")
        # The live screen after the final whistle: the report button.
        journal = next(p for p in self.app.controller.matches_dir().glob("*.sqlite") if "fublet" in p.name)
        self.app.controller.resume(journal)
        yield "settle"
        self.app.show("live")
        yield "settle"
        yield "settle"
        self.screenshot("live_final_whistle")
        self.press("Match report")
        yield from self.wait(lambda: report.report is not None and report.back_to == "live")
        yield "settle"
        self.seen["live_report_title"] = report.title_text
        self.screenshot("report_from_live")
        self.press("Back")
        yield "settle"
        self.seen["after_live_back"] = self.screen().name
        # An unfinished match from the history: its report so far, then play on from there.
        self.press("Menu")
        yield "settle"
        self.press("Matches and league")
        yield from self.wait(lambda: history.entries and not history._scanning)
        row = next(w for w in widgets(history.ids.body) if isinstance(w, Button) and "not finished" in w.text)
        tap(*row.to_window(row.center_x, row.center_y))
        yield from self.wait(lambda: report.report is not None)
        yield "settle"
        self.screenshot("report_unfinished")
        self.seen["unfinished_status"] = report.status_text
        self.press("Resume")
        yield "settle"
        yield "settle"
        self.seen["resumed_screen"] = self.screen().name
        self.seen["resumed_journal"] = Path(self.app.controller.view.path).name
        # During a match: the live screen's Report button, the match so far.
        self.press("Report")
        yield from self.wait(lambda: report.report is not None and report.back_to == "live")
        yield "settle"
        self.seen["in_play_report_status"] = report.status_text
        self.screenshot("report_during_match")
        self.press("Back")
        yield "settle"
        self.seen["after_in_play_back"] = self.screen().name
        yield "done"

    def tick(self, _dt) -> bool | None:
        ctl = self.app.controller
        if not ctl.idle or not self.app._views.empty():
            self.frames = 0
            return None
        if self.waiting is not None:
            if not self.waiting():
                if time.monotonic() > self.deadline:
                    self.finish("timed out waiting")
                    return False
                return None
            self.waiting = None
        self.frames += 1
        if self.frames < 3:
            return None
        self.frames = 0
        try:
            step = next(self.steps)
        except StopIteration:
            step = "done"
        except Exception:
            self.finish(traceback.format_exc())
            return False
        if step == "done":
            self.finish("")
            return False
        return None

    def finish(self, error: str) -> None:
        result = {"error": error, "log": self.log, "screenshots": self.shots, "seen": self.seen,
                  "window": list(Window.size)}
        (OUT / "result.json").write_text(json.dumps(result, indent=1, default=str))
        self.app.stop()


def main() -> None:
    app_class = build_app_class()
    data = Path(os.environ["TOUCHLINE_DATA_DIR"])
    app = app_class(data_dir=data)
    scenario = Scenario(app)
    app.bind(on_start=lambda *_: Clock.schedule_interval(scenario.tick, 0.05))
    app.run()


if __name__ == "__main__":
    main()
