"""Drive the tablet app headless: the last match's journal lost its last events (a restore from
an older copy, a card cut short); Home offers it, Resume says what is wrong and leaves it.

    python tests/ui_cut_journal.py OUT_DIR [WIDTHxHEIGHT]

The data folder (TOUCHLINE_DATA_DIR) is prepared by the caller (tests/test_ui_cut_journal.py):
a match played with anchors, then cut. Writes screenshots and result.json.
"""

from __future__ import annotations

import os
from pathlib import Path

from ui_harness import Driver, run, widgets

from kivy.uix.label import Label  # noqa: E402 (after the harness has set up Kivy)


class Scenario(Driver):
    def __init__(self, app) -> None:
        self.seen: dict = {}
        super().__init__(app)

    def play(self):
        yield "settle"
        home = self.screen()   # Home looks for the match this tablet was playing on a thread
        yield from self.wait(lambda: not home.last_text.startswith("Looking for"))
        self.screenshot("home_cut_journal")
        self.seen["home_buttons"] = [w.text for w in widgets(self.screen()) if hasattr(w, "on_release") and w.text]
        self.press("Resume", startswith=True)
        ctl = self.app.controller
        yield from self.wait(lambda: bool(ctl.view.error))
        yield "settle"
        yield "settle"
        self.seen["error"] = ctl.view.error
        self.seen["screen"] = self.screen().name
        self.seen["shown"] = [w.text for w in widgets(self.screen()) if isinstance(w, Label) and "ends early" in w.text]
        self.screenshot("resume_cut_journal")
        yield "done"

    def result(self) -> dict:
        return {"seen": self.seen}


if __name__ == "__main__":
    run(Scenario, data_dir=Path(os.environ["TOUCHLINE_DATA_DIR"]), resume_last=False)
