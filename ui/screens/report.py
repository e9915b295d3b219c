"""The match report on the tablet: the numbers drawn as Kivy labels, the plots as the
report's own PNG images (matplotlib, drawn on a worker thread into the data folder, and
kept there: a report opened again shows them without drawing).

Opened after the final whistle and from the live screen (the match in play), or from the
match history (any match file). "Share" (Android: the platform's share sheet) or "Save as
file" (a desktop: into Documents/Touchline reports, then offered to open in the browser)
makes the report one web page with its plots inside (ui/share.py), its tables as CSV and
JSON beside it on a desktop.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from companion.report.export import LABELS

from .. import share, theme
from ..widgets.fit_label import FitLabel  # noqa: F401 (the kv's title)
from ..widgets.keypad import wrap_label

PLOTS = (("possession", "Possession"), ("timeline", "Timeline"), ("counters", "Round by round / turn by turn"),
         ("luck", "Luck meter: the dice against fair dice"), ("heat", "Heat map"))
TEXT = 18       # sp: read from a metre away
ROW = dp(40)


def draw_for(report: dict[str, Any], out: Path) -> dict[str, dict[str, str]]:
    """The report's PNG plots in ``out`` (worker thread: no widgets here): those drawn last
    time the report was opened when its numbers are the same (companion/report/plot_cache.py:
    no matplotlib, no drawing), else drawn now."""
    from companion.report.plot_cache import drawn

    return drawn(report, out, ("png",), dpi=150)  # sharp on a tablet's full width


def markup(text: str) -> str:
    """Text inside Kivy markup: its brackets and ampersands escaped."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def label(text: str, bold: bool = False, colour=(1, 1, 1, 1), halign: str = "left") -> Label:
    lab = Label(text=text, font_size=sp(TEXT), bold=bold, color=colour, size_hint_y=None, height=ROW,
                halign=halign, valign="middle", shorten=True)
    lab.bind(size=lambda *_: setattr(lab, "text_size", lab.size))
    return lab


class ReportScreen(Screen):
    title_text = StringProperty("Match report")
    status_text = StringProperty("")
    tab = StringProperty("summary")
    back_to = StringProperty("home")
    can_resume = BooleanProperty(False)   # an unfinished match's journal, opened from the history
    share_text = StringProperty("Share" if share.can_share() else "Save as file")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.report: dict[str, Any] | None = None
        self.plots: dict[str, dict[str, str]] = {}
        self.folder: Path | None = None
        self.source = ""
        self.plots_note = ""
        self._results: queue.Queue = queue.Queue()
        self._trigger = Clock.create_trigger(self._drain)
        self._job = 0

    # --- opening -------------------------------------------------------------------------------------
    def open_live(self) -> None:
        """The report of the match in play (its events as the app holds them)."""
        app = App.get_running_app()
        match = app.controller.match
        if match is None:
            return
        path = Path(match.journal.path) if match.journal is not None else Path("match")
        self._open(lambda: (match.events, match.ruleset), path, back="live")

    def open_file(self, path: Path, back: str = "history") -> None:
        """The report of a journal or export (read through a private copy, never changed)."""
        def load():
            from companion.loading import load_match

            m = load_match(path)
            return m.events, m.ruleset
        self._open(load, path, back=back)

    def _open(self, load, path: Path, back: str) -> None:
        app = App.get_running_app()
        self._job += 1
        job = self._job
        self.back_to, self.tab, self.can_resume = back, "summary", False
        self.report, self.plots, self.source, self.plots_note = None, {}, str(path), ""
        self.folder = app.controller.data_dir / "reports" / path.stem
        self.title_text = f"Match report: {path.stem}"
        self.status_text = "Building the report..."
        self.ids.body.clear_widgets()
        app.show("report")

        folder = self.folder

        def work() -> None:
            from companion.report import build_report

            try:
                events, ruleset = load()
                report = build_report(ruleset, events)
            except Exception as exc:  # a bad file: say so on screen
                self._post(job, "error", _first_line(exc))
                return
            self._post(job, "report", report)  # the numbers first: the plots take longer
            try:
                self._post(job, "plots", draw_for(report, folder))
            except ImportError as exc:
                self._post(job, "no_plots", f"The plots need {exc.name or 'matplotlib'}, which this installation "
                                            f"lacks; the numbers are all here.")
            except Exception as exc:  # a full disk, say: the numbers stand
                self._post(job, "no_plots", f"The plots could not be drawn: {_first_line(exc)}")
        threading.Thread(target=work, name="touchline-report", daemon=True).start()

    def _post(self, job: int, kind: str, value) -> None:
        self._results.put((job, kind, value))
        self._trigger()

    def _drain(self, _dt) -> None:
        while True:
            try:
                job, kind, value = self._results.get_nowait()
            except queue.Empty:
                return
            if job != self._job:
                continue  # an older report, opened before this one
            if kind == "error":
                self.status_text = "No report: this file is not a match that can be read"
                body = self.ids.body
                body.clear_widgets()
                body.add_widget(wrap_label(value, TEXT + 2, colour=(1, 0.8, 0.5, 1)))
                body.add_widget(wrap_label("The file was not changed. Reports read journals (.sqlite) and JSON Lines "
                                           "exports (.jsonl) of Touchline matches.", TEXT))
            elif kind == "report":
                self.report = r = value
                teams, score = r["teams"], r["score"]
                self.title_text = f"{teams['home']} {score['home']} - {score['away']} {teams['away']}"
                if self.title():
                    self.title_text = f"{self.title()}: {self.title_text}"
                self.status_text = self._verdict(r)
                self.can_resume = (self.back_to == "history" and not r["finished"]
                                   and Path(self.source).suffix.lower() in (".sqlite", ".sqlite3", ".db"))
                self.show_tab(self.tab)
            elif kind == "plots":
                self.plots = value
                if self.tab == "plots":
                    self.show_tab("plots")
            else:
                self.plots_note = value
                if self.tab == "plots":
                    self.show_tab("plots")

    @staticmethod
    def _verdict(r: dict[str, Any]) -> str:
        result = r["result"]
        if not result:
            return f"Not finished: the match so far ({r['events']} events)"
        winner = result.get("winner")
        who = f"{r['teams'][winner]} win" if winner else "A draw"
        shootout = r.get("shootout")
        extra = f", {shootout['home']}-{shootout['away']} on penalties" if shootout else ""
        return f"Final: {who} ({result.get('decided_by')}{extra})"

    # --- tabs ----------------------------------------------------------------------------------------
    def show_tab(self, tab: str) -> None:
        self.tab = tab
        body = self.ids.body
        body.clear_widgets()
        if self.report is None:
            return
        if tab == "summary":
            self._summary(body)
        else:
            self._plots(body)

    def _summary(self, body) -> None:
        r = self.report
        teams = r["teams"]
        names = r.get("players") or {}

        def who(ref):
            if not ref:
                return "-"
            name = names.get(ref)
            return f"{name} (#{ref.partition('#')[2]})" if name else ref

        body.add_widget(wrap_label("Goals", 22, bold=True))
        if not r["goals"]:
            body.add_widget(label("No goals"))
        for g in r["goals"]:
            how = f", {g['how']}" if g["how"] else ""
            body.add_widget(label(f"{g['when']}   {teams[g['team']]}: {who(g['scorer'])}{how}"))
        body.add_widget(wrap_label("The numbers", 22, bold=True))
        grid = GridLayout(cols=3, size_hint=(None, None), width=min(dp(760), (body.width or dp(760)) - dp(16)),
                          row_default_height=ROW, row_force_default=True, spacing=(dp(8), 0))
        grid.bind(minimum_height=grid.setter("height"))
        body.bind(width=lambda _b, w: setattr(grid, "width", min(dp(760), w - dp(16))))
        grid.add_widget(label(""))
        grid.add_widget(label(teams["home"], bold=True, colour=(0.55, 0.7, 1, 1), halign="right"))
        grid.add_widget(label(teams["away"], bold=True, colour=(1, 0.6, 0.55, 1), halign="right"))
        for key in r["stat_names"]:
            grid.add_widget(label(LABELS.get(key, key)))
            for side in ("home", "away"):
                value = r["stats"][side][key]
                grid.add_widget(label("n/a" if value is None else str(value), halign="right",
                                      colour=(0.6, 0.6, 0.6, 1) if value is None else (1, 1, 1, 1)))
        possession = r["possession"]["percent"]
        grid.add_widget(label("Possession"))
        for side in ("home", "away"):
            value = possession[side]
            grid.add_widget(label("n/a" if value is None else f"{value:.0f}%", halign="right"))
        body.add_widget(grid)
        body.add_widget(wrap_label("Luck meter", 22, bold=True))
        for side in ("home", "away"):
            c = r["luck"]["coaches"][side]
            meter = c["luck"] if c["luck"] is not None else c["z"]
            body.add_widget(label(f"{teams[side]}: {c['verdict']} ({c['dice']} dice, meter {meter:+.1f})"))
        for note in r["notes"]:
            body.add_widget(wrap_label(note, TEXT, colour=(0.75, 0.75, 0.75, 1)))

    def _plots(self, body) -> None:
        if not self.plots:
            body.add_widget(wrap_label(self.plots_note or "Drawing the plots...", TEXT))
            return
        for key, title in PLOTS:
            files = self.plots.get(key) or {}
            if "png" not in files or self.folder is None:
                continue
            body.add_widget(wrap_label(title, 22, bold=True))
            # nocache: the same file is drawn again when the match has gone on since.
            image = Image(source=str(self.folder / files["png"]), size_hint_y=None, fit_mode="contain", nocache=True)
            image.bind(width=lambda img, w: setattr(img, "height", w / max(img.image_ratio, 0.1)),
                       texture=lambda img, _t: setattr(img, "height", img.width / max(img.image_ratio, 0.1)))
            body.add_widget(image)

    def title(self) -> str:
        """The coach's name for the match (companion/report/notes.py), '' when it has none."""
        from companion.report.notes import load

        source = Path(self.source)
        try:
            note = load(source.parent).get(source.name)
        except Exception:   # notes are a convenience: a report without its name is still the report
            return ""
        return note.title if note is not None else ""

    # --- buttons -------------------------------------------------------------------------------------
    def save(self) -> None:
        """Share the report as one web page (Android), or save it into the reports folder and
        say where, offering to open it (a desktop)."""
        if self.report is None or self.folder is None:
            return
        app = App.get_running_app()
        report, title, source = self.report, self.title(), Path(self.source).name
        page_plots = self.folder / "page"   # the page's SVG plots, kept: shared again, not drawn again
        sharing = share.can_share()
        where = (app.controller.data_dir / "reports" / "shared") if sharing else share.export_folder()
        self.status_text = "Preparing the report to share..." if sharing else "Saving..."

        def work() -> None:
            from companion.outfiles import Staged, check_folder
            from companion.report.export import write_all
            from companion.report.html import file_name, write_single

            try:
                path = write_single(report, where / file_name(report, title), source, page_plots)
                if not sharing:   # the tables beside it, replaced when saved again, never through a link
                    tables = where / (path.stem + " tables")
                    check_folder(tables)
                    tables.mkdir(exist_ok=True)
                    staged = Staged(tables, force=True)
                    try:
                        write_all(report, staged)
                    except BaseException:
                        staged.discard()
                        raise
                    staged.commit()
            except ImportError as exc:
                done = (False, None, f"Not saved: the report's plots need {exc.name or 'matplotlib'}, which this "
                                     f"installation lacks.")
            except Exception as exc:  # a full disk, a folder not permitted: say it, keep the screen
                done = (False, None, f"Not saved: {_first_line(exc)}")
            else:
                done = (True, path, "")
                if sharing:
                    try:
                        share.android_share(path, self.title_text)
                        done = (True, path, "The share sheet is open: choose where the report goes.")
                    except Exception as exc:  # the platform refused: the file is there all the same
                        done = (False, path, f"The share sheet did not open ({_first_line(exc)}); the report is "
                                             f"saved on the tablet as {path.name}.")
            Clock.schedule_once(lambda _dt: self._saved(*done))
        threading.Thread(target=work, name="touchline-report-save", daemon=True).start()

    def _saved(self, ok: bool, path: Path | None, message: str) -> None:
        if path is None or share.can_share():
            self.status_text = message
            return
        self.status_text = f"Saved: {path.name}"
        SavedPopup(path).open()

    def resume(self) -> None:
        """Play on: the unfinished match this report shows, on the live screen."""
        app = App.get_running_app()
        app.controller.resume(Path(self.source))
        app.show("live")

    def back(self) -> None:
        app = App.get_running_app()
        target = self.back_to if self.back_to != "live" or app.controller.match is not None else "home"
        app.show(target)


class SavedPopup(Popup):
    """Where a desktop saved the report, in words, and a way to see it at once."""

    def __init__(self, path: Path, **kwargs) -> None:
        box = BoxLayout(orientation="vertical", spacing=dp(12), padding=dp(12))
        try:   # the folder as the coach finds it from his home folder ("Documents/Touchline reports")
            folder = str(path.parent.relative_to(Path.home()))
        except ValueError:
            folder = str(path.parent)
        # The words fill what the buttons leave, wrapped to the popup's width, from the top.
        said = Label(text=f"Saved as one web page, plots inside:\n[b]{markup(path.name)}[/b]\nin the folder "
                          f"[b]{markup(folder)}[/b].\nOpen it in any browser, copy it to a USB stick or attach it "
                          f"to an e-mail. Its tables (CSV, for a spreadsheet) are in the folder beside it.",
                     markup=True, font_size=sp(TEXT + 2), halign="left", valign="top")
        said.bind(size=lambda w, size: setattr(w, "text_size", size))
        box.add_widget(said)
        buttons = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        self.said = Label(text="", font_size=sp(TEXT), color=theme.BAD, size_hint_y=None, height=dp(30),
                          halign="left", valign="middle")
        self.said.bind(size=lambda w, size: setattr(w, "text_size", size))
        buttons.add_widget(Button(text="Open it", font_size=theme.BODY, on_release=lambda *_: self.open_it(path)))
        buttons.add_widget(Button(text="OK", font_size=theme.BODY, on_release=lambda *_: self.dismiss()))
        box.add_widget(self.said)
        box.add_widget(buttons)
        from kivy.core.window import Window

        super().__init__(title="Report saved", title_size=sp(22), content=box, size_hint=(0.85, None),
                         height=min(dp(400), Window.height * 0.94), **kwargs)

    def open_it(self, path: Path) -> None:
        if share.open_in_browser(path):
            self.dismiss()
        else:
            self.said.text = "No browser could be started here: open the file from its folder."
