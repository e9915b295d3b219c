"""The matches folder on the real tablet app, by touches: which match Resume offers after the
app was killed with finished matches imported beside it; several unfinished matches on Home;
renaming, marking a friendly, deleting and restoring a match in Matches and league; sharing a
report as a file; Undo and Redo naming what they take back.

Run by tests/test_ui_matches.py in a subprocess (one window per process):

    python tests/ui_matches.py OUT_DIR [WIDTHxHEIGHT|default] MODE

MODE: ``killed`` (two finished Fußball-Liga matches imported into the matches folder, their
files the newest; a Fußball-Liga match started, then the process dies without a clean
shutdown), ``resumed`` (the next start, on the same data folder), ``several`` (two unfinished
matches played on this tablet and a finished imported one), ``manage`` (rename, friendly,
delete, undo, restore; the league table), ``share`` (a report saved as one file), ``undo``
(the live screen's Undo and Redo). The data folder is TOUCHLINE_DATA_DIR; the folder a report
is saved to, TOUCHLINE_EXPORT_DIR.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ui_harness import MODE, SIZE, Driver, popups, run, widgets

from kivy.uix.button import Button  # noqa: E402 (after the harness has set up Kivy)

DATA = Path(os.environ.get("TOUCHLINE_DATA_DIR") or tempfile.mkdtemp(prefix="touchline-ui-"))
MATCHES = DATA / "matches"


def prepare(mode: str) -> dict:
    """The data folder a mode starts from (made before the app starts)."""
    from matches_kit import imported

    out: dict = {}
    if mode in ("killed", "several", "manage", "share"):
        imported(MATCHES, "rotstein-gruenwald.sqlite")
        imported(MATCHES, "gruenwald-rotstein.sqlite", home="FC Gruenwald", away="SV Rotstein", day=2)
    if mode in ("several", "manage"):
        imported(MATCHES, "rotstein-kickers.sqlite", home="SV Rotstein", away="Kickers", day=3)
        half = imported(MATCHES, "kickers-rotstein.sqlite", home="Kickers", away="SV Rotstein", day=4, cut=250,
                        newest=False)
        from companion.fublet import commands as c
        from companion.fublet.components import load_components, shipped_team
        from ui.controller import Controller

        ctl = Controller(threaded=False, data_dir=DATA)
        ctl.resume(half)                      # played on this tablet once: its to resume
        ctl.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()), seed=4)
        ctl.roll_software(ctl.view.pending[0])
        out["fublet"], out["liga"] = ctl.view.path, str(half)
        ctl.close()
    return out


class Matches(Driver):
    def __init__(self, app) -> None:
        self.layout: list[str] = []
        self.facts: dict = {}
        super().__init__(app)

    def checked(self, name: str) -> None:
        from ui.layout_check import check
        self.layout += check(self.screen(), f"{name} ({SIZE})")
        for popup in popups():
            self.layout += check(popup, f"{name} ({SIZE}) popup")

    def texts(self, root=None) -> list[str]:
        return [w.text for w in widgets(root or self.screen()) if isinstance(getattr(w, "text", None), str)
                and w.text and getattr(w, "opacity", 1) > 0]

    def buttons(self, startswith: str, root=None) -> list[Button]:
        return [w for w in widgets(root or self.screen()) if isinstance(w, Button) and w.text.startswith(startswith)]

    def home_settled(self) -> bool:
        """Home has looked up the unfinished matches (it does on a thread)."""
        return self.screen().name == "home" and not self.screen().last_text.startswith("Looking")

    def play(self):
        yield "settle"
        yield from getattr(self, MODE)()

    # --- resume ------------------------------------------------------------------------------------
    def killed(self):
        yield from self.wait(self.home_settled)
        home = self.any_button("No match to resume yet")
        assert home.disabled, "a finished imported match is offered"
        self.screenshot("home_imported_only")
        self.press("New match")
        yield "settle"
        self.screen().ids.game.text = "Fußball-Liga"
        yield "settle"
        self.press("Start match")
        yield "settle"
        yield from self.wait(lambda: self.app.controller.view.active)
        assert self.screen().name == "live"
        self.screenshot("live_before_kill")
        self.facts["journal"] = self.app.controller.view.path
        self.finish("", stop=False)
        os._exit(0)   # no clean shutdown: the tablet's battery died

    def resumed(self):
        yield from self.wait(lambda: self.app.controller.view.active and self.screen().name == "live")
        view = self.app.controller.view
        self.facts["journal"] = view.path
        self.facts["over"] = view.over
        self.facts["teams"] = list(view.summary.teams)
        self.screenshot("resumed_live")
        self.press("Menu")
        yield "settle"
        yield from self.wait(self.home_settled)
        back = self.any_button("Back to the match: ", startswith=True)
        self.facts["home"] = back.text
        self.facts["home_others"] = self.screen().others_text
        self.screenshot("resumed_home")

    def several(self):
        yield from self.wait(lambda: self.app.controller.view.active and self.screen().name == "live")
        self.facts["resumed"] = self.app.controller.view.path
        self.press("Menu")
        yield "settle"
        yield from self.wait(lambda: self.home_settled() and bool(self.screen().others))
        self.facts["home_first"] = self.any_button("Back to the match: ", startswith=True).text
        self.facts["others_first"] = [b.text for b in self.buttons("Resume ", self.screen().ids.others)]
        self.facts["others_text"] = self.screen().others_text
        self.screenshot("home_several")
        self.tap_widget(self.buttons("Resume ", self.screen().ids.others)[0])
        self.log.append("press the other unfinished match")
        yield "settle"
        yield from self.wait(lambda: self.app.controller.view.active and self.screen().name == "live"
                             and self.app.controller.view.game == "fussball_liga")
        self.facts["switched"] = self.app.controller.view.path
        self.screenshot("live_switched")
        self.press("Menu")
        yield "settle"
        yield from self.wait(lambda: self.home_settled() and bool(self.screen().others))
        self.facts["home_second"] = self.any_button("Back to the match: ", startswith=True).text
        self.facts["others_second"] = [b.text for b in self.buttons("Resume ", self.screen().ids.others)]
        self.screenshot("home_several_switched")

    def result(self) -> dict:
        return {"faults": list(self.app.faults), "layout": self.layout, **self.facts}


if __name__ == "__main__":
    import json

    prepared = prepare(MODE)
    if prepared:
        print(json.dumps(prepared))
    run(Matches, data_dir=DATA)
