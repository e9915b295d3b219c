"""Matches and league: every match in the data folder (newest first; a damaged or foreign
file listed as such), filtered by game and team; the league table of the finished ones,
head to head, each team's record; CSV export. Touching a match opens its report.

The folder is read on a worker thread (each match is replayed through a private copy of its
file); the screen only draws the entries it is handed.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.report import history as h

from ..widgets.keypad import wrap_label
from .report import ROW, label

ALL_GAMES = "All games"
GAME_BY_NAME = {name: game for game, name in h.GAME_NAMES.items()}


class HistoryScreen(Screen):
    status_text = StringProperty("")
    tab = StringProperty("matches")
    game_names = ListProperty([ALL_GAMES] + list(h.GAME_NAMES.values()))

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.entries: list[h.Entry] = []
        self._results: queue.Queue = queue.Queue()
        self._trigger = Clock.create_trigger(self._drain)
        self._scanning = False

    @property
    def folder(self) -> Path:
        return App.get_running_app().controller.matches_dir()

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        if self._scanning:
            return
        self._scanning = True
        self.status_text = "Reading the matches kept on this tablet..."
        folder = self.folder
        cache = App.get_running_app().controller.data_dir / "reports" / "history-cache.json"

        def work() -> None:
            try:
                self._results.put((h.scan(folder, cache), ""))
            except Exception as exc:  # a folder not readable: say so, the app goes on
                self._results.put(([], f"cannot read {folder}: {exc}"))
            self._trigger()
        threading.Thread(target=work, name="touchline-history", daemon=True).start()

    def _drain(self, _dt) -> None:
        try:
            entries, error = self._results.get_nowait()
        except queue.Empty:
            return
        self._scanning = False
        self.entries = entries
        bad = sum(1 for e in entries if not e.ok)
        self.status_text = error or (f"{len(entries) - bad} matches" + (f", {bad} unreadable files" if bad else "")
                                     + " on this tablet. Touch a match for its report.")
        self.show_tab(self.tab)

    # --- filters -------------------------------------------------------------------------------------
    def game(self) -> str | None:
        return GAME_BY_NAME.get(self.ids.game.text)

    def selected(self) -> list[h.Entry]:
        return h.select(self.entries, self.game(), self.ids.team.text)

    def on_filter(self, *_args) -> None:
        self.show_tab(self.tab)

    # --- tabs ----------------------------------------------------------------------------------------
    def show_tab(self, tab: str) -> None:
        self.tab = tab
        body = self.ids.body
        body.clear_widgets()
        entries = self.selected()
        if tab == "matches":
            self._matches(body, entries)
        elif tab == "league":
            self._league(body, entries)
        elif tab == "h2h":
            self._head_to_head(body, entries)
        else:
            recs = h.records(entries)
            rows = [r["all"].row() for r in recs.values()]
            self._table(body, "Each team's record (journals name teams, not coaches)", h.RECORD_HEADER, rows,
                        widths=(5, 1, 1, 1, 1, 1, 1, 1, 1.2))

    def _matches(self, body, entries: list[h.Entry]) -> None:
        if not entries and not any(not e.ok for e in self.entries):
            body.add_widget(wrap_label("No matches here yet: a match played on this tablet appears here.", 18))
        for e in (e for e in entries if e.ok):
            when = e.date[:16].replace("T", " ")
            text = (f"{when}   {h.GAME_NAMES.get(e.game, e.game)}   [b]{e.home} {e.score} {e.away}[/b]   "
                    f"({e.status})")
            row = Button(text=text, markup=True, font_size=sp(18), size_hint_y=None, height=dp(56), halign="left",
                         valign="middle", background_color=(0.25, 0.32, 0.3, 1) if e.finished else (0.3, 0.3, 0.36, 1))
            row.bind(size=lambda b, s: setattr(b, "text_size", (s[0] - dp(24), s[1])))
            row.bind(on_release=lambda _b, path=e.path: self.open(path))
            body.add_widget(row)
        unreadable = [e for e in self.entries if not e.ok]
        if unreadable:
            body.add_widget(wrap_label("Files that are not readable matches (left untouched):", 20, bold=True,
                                       colour=(1, 0.75, 0.3, 1)))
            for e in unreadable:
                body.add_widget(wrap_label(f"{e.path.name}: {e.problem}", 18, colour=(1, 0.8, 0.5, 1)))

    def _league(self, body, entries: list[h.Entry]) -> None:
        games = [self.game()] if self.game() else h.games_in(entries)
        shown = False
        for game in games:
            rows = h.league(entries, game)
            if not rows:
                continue
            shown = True
            played = len(h.finished(entries, game))
            self._table(body, f"{h.GAME_NAMES.get(game, game)}: {played} finished match{'es' if played != 1 else ''}, "
                              f"3 points a win, 1 a draw", ["#"] + h.RECORD_HEADER,
                        [[i] + r.row() for i, r in enumerate(rows, 1)], widths=(0.7, 5, 1, 1, 1, 1, 1, 1, 1, 1.2))
        if not shown:
            body.add_widget(wrap_label("No finished matches for this choice yet.", 18))

    def _head_to_head(self, body, entries: list[h.Entry]) -> None:
        """Per game, each pair that met: won-drawn-lost and goals from the first team's side."""
        pairs = h.head_to_head(entries, self.game())
        if not pairs:
            body.add_widget(wrap_label("No finished matches for this choice yet.", 18))
        for game in dict.fromkeys(p.game for p in pairs):
            rows = [[f"{p.first} v {p.second}", p.played, f"{p.first_wins}-{p.draws}-{p.second_wins}",
                     f"{p.first_goals}-{p.second_goals}"] for p in pairs if p.game == game]
            self._table(body, f"{h.GAME_NAMES.get(game, game)}: head to head", ["Teams", "P", "W-D-L", "Goals"], rows,
                        widths=(8, 1, 2.6, 2))

    def _table(self, body, title: str, header: list[str], rows: list[list], widths) -> None:
        """A table whose wide columns (names) share the width and whose numbers keep narrow
        fixed columns, so a row reads across at a glance."""
        body.add_widget(wrap_label(title, 20, bold=True))
        grid = GridLayout(cols=len(header), size_hint=(None, None),
                          width=min(dp(900), (body.width or dp(900)) - dp(16)), row_default_height=ROW,
                          row_force_default=True, spacing=(dp(6), 0))
        grid.bind(minimum_height=grid.setter("height"))
        body.bind(width=lambda _b, w: setattr(grid, "width", min(dp(900), w - dp(16))))

        def cell(text: str, column: int, bold: bool = False, number: bool = False) -> None:
            lab = label(text, bold=bold, halign="right" if number else "left")
            if widths[column] < 3:
                lab.size_hint_x, lab.width = None, dp(44) * widths[column]
            grid.add_widget(lab)
        for i, head in enumerate(header):
            cell(str(head)[:1].upper() + str(head)[1:], i, bold=True, number=widths[i] < 3 and i > 0)
        for row in rows:
            for i, value in enumerate(row):
                cell(str(value), i, number=widths[i] < 3 and i > 0)
        body.add_widget(grid)
        if not rows:
            body.add_widget(wrap_label("Nothing yet.", 18))

    # --- buttons -------------------------------------------------------------------------------------
    def open(self, path: Path) -> None:
        App.get_running_app().root.get_screen("report").open_file(path, back="history")

    def export_csv(self) -> None:
        """history.csv, league.csv, head-to-head.csv and records.csv in <data dir>/exports (the app's own
        folder: replaced each time, never written through a link)."""
        entries, game = self.selected(), self.game()
        folder = App.get_running_app().controller.data_dir / "exports"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            h.write_csv(folder / "history.csv", h.HISTORY_HEADER, h.history_rows(entries), force=True)
            rows = [[h.GAME_NAMES.get(g, g), i] + r.row() for g in ([game] if game else h.games_in(entries))
                    for i, r in enumerate(h.league(entries, g), 1)]
            h.write_csv(folder / "league.csv", ["game", "#"] + h.RECORD_HEADER, rows, force=True)
            h.write_csv(folder / "head-to-head.csv", h.H2H_HEADER, [p.row() for p in h.head_to_head(entries, game)],
                        force=True)
            h.write_csv(folder / "records.csv", ["game"] + h.RECORD_HEADER,
                        [[h.GAME_NAMES.get(g, g) if g != "all" else "all games"] + r.row()
                         for per in h.records(entries).values() for g, r in per.items()], force=True)
        except OSError as exc:
            self.status_text = f"Not exported: {exc}"
            return
        self.status_text = f"Exported history, league, head-to-head and records as CSV to {folder}"
