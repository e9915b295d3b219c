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
delete, undo, restore; the league table; the named match's report saved as one file),
``saved`` (a finished match's report saved as one file), ``undo`` (the live screen's Undo and
Redo), ``long`` (63 matches: the list shows the newest 50, the rest on request). The data folder is TOUCHLINE_DATA_DIR; the folder a report
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
    if mode in ("killed", "several", "manage", "saved"):
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
    if mode == "long":   # more matches than the list shows at once
        import sys
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from benchmarks.bench_history import make_folder
        make_folder(MATCHES, LONG)
    return out


LONG = 63   # journals of the "long" mode: 50 shown, 13 on request


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

    # --- managing matches -------------------------------------------------------------------------
    def history_read(self) -> bool:
        return self.screen().name == "history" and not self.screen()._scanning

    def row_for(self, needle: str):
        """The list's row (the match's button, its Edit button) whose text holds ``needle``."""
        for line in self.screen().ids.body.children[::-1]:
            kids = [w for w in line.children[::-1] if isinstance(w, Button)]
            if len(kids) == 2 and needle in kids[0].text:
                return kids[0], kids[1]
        return None

    def listed(self) -> list[str]:
        return [line.children[-1].text for line in self.screen().ids.body.children[::-1]
                if len(line.children) == 2 and isinstance(line.children[-1], Button)]

    def league_rows(self) -> list[str]:
        return [t for t in self.texts(self.screen().ids.body)]

    def manage(self):
        import hashlib

        def journal_hash() -> str:
            return hashlib.sha256((MATCHES / "gruenwald-rotstein.sqlite").read_bytes()).hexdigest()
        before = journal_hash()
        yield from self.wait(lambda: self.app.controller.view.active and self.screen().name == "live")
        self.press("Menu")
        yield "settle"
        self.press("Matches and league")
        yield "settle"
        yield from self.wait(self.history_read)
        self.screenshot("history")
        self.press("League table")
        yield "settle"
        self.facts["league_before"] = self.league_rows()
        self.screenshot("league_before")
        self.press("Matches")
        yield "settle"
        # Name a match and make it a friendly.
        _row, edit = self.row_for("FC Gruenwald 2-0 SV Rotstein")
        self.tap_widget(edit)
        self.log.append("edit FC Gruenwald 2-0 SV Rotstein")
        yield "settle"
        popup = popups()[0]
        self.screenshot("edit_popup")
        popup.name_input.text = "Pre-season test"
        self.press("Save name", within=popup)
        yield "settle"
        self.facts["renamed"] = popup.message.text
        self.press("Counts in the league table", startswith=True, within=popup)
        yield "settle"
        self.facts["friendly"] = popup.message.text
        self.screenshot("edit_friendly")
        # Its report carries the name, and saves under it as one file.
        self.press("Open report", within=popup)
        report = self.app.root.get_screen("report")
        yield from self.wait(lambda: report.report is not None)
        yield "settle"
        self.facts["report_title"] = report.title_text
        self.press("Save as file")
        yield from self.wait(lambda: report.status_text.startswith(("Saved", "Not saved")))
        yield "settle"
        self.facts["saved_status"] = report.status_text
        self.screenshot("report_saved")
        self.press("OK")
        yield "settle"
        self.press("Back")
        yield "settle"
        yield from self.wait(lambda: self.history_read() and self.row_for("Pre-season test") is not None)
        self.facts["named_row"] = self.row_for("Pre-season test")[0].text
        self.screenshot("history_named")
        self.press("League table")
        yield "settle"
        self.facts["league_friendly"] = self.league_rows()
        self.screenshot("league_friendly")
        self.press("Matches")
        yield "settle"
        # Delete a match, undo it; delete it again and restore it from the Deleted tab.
        _row, edit = self.row_for("SV Rotstein 2-0 Kickers")
        self.tap_widget(edit)
        yield "settle"
        self.press("Delete match", within=popups()[0])
        yield "settle"
        yield from self.wait(lambda: self.history_read() and self.row_for("SV Rotstein 2-0 Kickers") is None)
        self.facts["deleted_status"] = self.screen().status_text
        self.facts["deleted_place"] = [t for t in self.texts(self.screen().ids.body) if t.startswith("Deleted: ")]
        self.screenshot("deleted_undo")
        self.press("Undo delete")
        yield "settle"
        yield from self.wait(lambda: self.history_read() and self.row_for("SV Rotstein 2-0 Kickers") is not None)
        self.facts["undone"] = self.screen().status_text
        _row, edit = self.row_for("SV Rotstein 2-0 Kickers")
        self.tap_widget(edit)
        yield "settle"
        self.press("Delete match", within=popups()[0])
        yield "settle"
        yield from self.wait(lambda: self.history_read() and self.row_for("SV Rotstein 2-0 Kickers") is None)
        self.press("Deleted (1)")
        yield "settle"
        yield from self.wait(lambda: self.history_read() and bool(self.buttons("Restore")))
        self.facts["deleted_tab"] = self.texts(self.screen().ids.body)
        self.screenshot("deleted_tab")
        self.press("Restore")
        yield "settle"
        yield from self.wait(lambda: self.history_read() and not self.buttons("Restore"))
        self.press("Matches")
        yield "settle"
        self.facts["restored"] = self.row_for("SV Rotstein 2-0 Kickers") is not None
        # The match on the live screen is not deleted from under the coach.
        _row, edit = self.row_for("Touchline Rovers")
        self.tap_widget(edit)
        yield "settle"
        self.press("Delete match", within=popups()[0])
        yield "settle"
        self.facts["refused"] = popups()[0].message.text
        self.screenshot("delete_refused")
        self.press("Close", within=popups()[0])
        yield "settle"
        self.facts["listed"] = self.listed()
        self.facts["journal_unchanged"] = journal_hash() == before

    # --- a long list ---------------------------------------------------------------------------------
    def long(self):
        yield from self.wait(self.home_settled)
        self.press("Matches and league")
        yield "settle"
        yield from self.wait(lambda: self.history_read() and bool(self.listed()))
        self.facts["first_rows"] = len(self.listed())
        more = self.buttons("Show ")
        self.facts["more"] = [b.text for b in more]
        self.screenshot("long_list")
        self.scroll_to(more[0])   # at the foot of the list, as a coach scrolls to it
        yield "settle"
        self.screenshot("long_list_foot")
        self.tap_widget(more[0])
        yield "settle"
        self.facts["all_rows"] = len(self.listed())
        self.facts["more_after"] = [b.text for b in self.buttons("Show ")]

    # --- a report saved as one file -------------------------------------------------------------------
    def saved(self):
        yield from self.wait(self.home_settled)
        self.press("Matches and league")
        yield "settle"
        yield from self.wait(lambda: self.history_read() and self.row_for("SV Rotstein 2-0 FC Gruenwald"))
        row, _edit = self.row_for("SV Rotstein 2-0 FC Gruenwald")
        self.tap_widget(row)
        report = self.app.root.get_screen("report")
        yield from self.wait(lambda: report.report is not None and bool(report.plots))
        yield "settle"
        self.press("Save as file")
        yield from self.wait(lambda: report.status_text.startswith(("Saved", "Not saved")))
        yield "settle"
        self.facts["saved_status"] = report.status_text
        self.screenshot("report_saved")
        self.press("OK")
        yield "settle"

    # --- undo and redo ------------------------------------------------------------------------------
    def undo(self):
        yield from self.wait(self.home_settled)
        self.press("New match")
        yield "settle"
        self.screen().ids.game.text = "Fublet"
        yield "settle"
        self.press("Start match")
        yield "settle"
        yield from self.wait(lambda: self.app.controller.view.active and self.screen().name == "live")
        self.facts["fresh"] = [self.any_button("Undo", startswith=True).text,
                               self.any_button("Redo", startswith=True).text]
        panel = self.screen().ids.panel
        self.press("7", within=panel)      # the opening roll, typed on the keypad
        self.press("Roll", within=panel)
        yield "settle"
        self.facts["after_roll"] = self.button("Undo: ", startswith=True).text
        self.screenshot("live_undo_named")
        self.press("Undo: ", startswith=True)
        yield "settle"
        self.facts["after_undo"] = [self.any_button("Undo", startswith=True).text,
                                    self.button("Redo: ", startswith=True).text]
        self.screenshot("live_redo_named")
        self.press("Redo: ", startswith=True)
        yield "settle"
        self.facts["after_redo"] = [self.button("Undo: ", startswith=True).text,
                                    self.any_button("Redo", startswith=True).text]
        self.facts["log"] = list(self.app.controller.view.log[-3:])

    def result(self) -> dict:
        return {"faults": list(self.app.faults), "layout": self.layout, **self.facts}


if __name__ == "__main__":
    import json

    prepared = prepare(MODE)
    if prepared:
        print(json.dumps(prepared))
    run(Matches, data_dir=DATA)
