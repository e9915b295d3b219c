"""Drive the tablet app headless through the match history, the league and the match report.

    python tests/ui_report_scenario.py OUT_DIR [WIDTHxHEIGHT]

The data folder (TOUCHLINE_DATA_DIR) is prepared by the caller: finished matches, one not
finished, a damaged file. Home -> Matches and league: the list, the league table, head to
head, team records, a filter by game and by team, CSV export; a match opened: its report's
numbers and plots, saved. Then the finished Fublet journal on the live screen: its "Match
report" button. Writes a screenshot of each and result.json with what was seen.
"""

from __future__ import annotations

import os
from pathlib import Path

from ui_harness import Driver, run, tap, widgets

from kivy.metrics import dp, sp  # noqa: E402 (after the harness has set up Kivy)
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.image import Image  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


class Scenario(Driver):
    def __init__(self, app) -> None:
        self.seen: dict = {"small_text": [], "small_targets": []}
        super().__init__(app)

    def checked(self, name: str) -> None:
        self.check_sizes(name)

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
        self.seen["history_rows"] = [w.text for w in widgets(history.ids.body) if isinstance(w, Button)
                                     and w.text != "Edit"]
        self.seen["altered_notes"] = [w.text for w in widgets(history.ids.body) if isinstance(w, Label)
                                      and not isinstance(w, Button) and "altered:" in w.text]
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
        self.seen["filtered_rows"] = [w.text for w in widgets(history.ids.body) if isinstance(w, Button)
                                      and w.text != "Edit"]
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
        self.press("Save as file")   # a desktop: one web page in the reports folder, offered to open
        yield from self.wait(lambda: report.status_text.startswith(("Saved", "Not saved")))
        yield "settle"
        self.seen["save_status"] = report.status_text
        self.screenshot("report_saved")
        self.press("OK")
        yield "settle"
        self.press("Back")
        yield "settle"
        self.seen["after_back"] = self.screen().name
        # The same report opened again: the plots drawn the first time are shown, not drawn anew.
        drawn_at = {p.name: p.stat().st_mtime_ns for p in report.folder.glob("*.png")}
        rows = [w for w in widgets(history.ids.body) if isinstance(w, Button) and "Football Leader" in w.text]
        tap(*rows[0].to_window(rows[0].center_x, rows[0].center_y))
        yield from self.wait(lambda: report.report is not None and (bool(report.plots) or bool(report.plots_note)))
        self.press("Plots")
        yield "settle"
        yield "settle"
        self.seen["reopened_plot_images"] = sum(1 for w in widgets(report.ids.body)
                                                if isinstance(w, Image) and w.texture)
        self.seen["reopened_drawn"] = sorted(drawn_at)
        self.seen["reopened_redrawn"] = sorted(n for n, t in drawn_at.items()
                                               if (report.folder / n).stat().st_mtime_ns != t)
        self.screenshot("report_plots_again")
        self.press("Back")
        yield "settle"
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
        self.press("More")
        yield "settle"
        self.press("Report")
        yield from self.wait(lambda: report.report is not None and report.back_to == "live")
        yield "settle"
        self.seen["in_play_report_status"] = report.status_text
        self.screenshot("report_during_match")
        self.press("Back")
        yield "settle"
        self.seen["after_in_play_back"] = self.screen().name
        yield "done"

    def result(self) -> dict:
        return {"seen": self.seen}


if __name__ == "__main__":
    run(Scenario, data_dir=Path(os.environ["TOUCHLINE_DATA_DIR"]), resume_last=False)
