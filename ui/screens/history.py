"""Matches and league: every match in the data folder (newest first; a damaged or foreign
file listed as such; a copy whose events differ from its match's original, or that is marked
altered, listed as altered right under the original, saying why), filtered by game and team;
the league table of the finished ones (a friendly left out), head to head, each team's record;
CSV export. Touching a match opens its report; its Edit button names it, makes it a friendly or
deletes it (ui/screens/match_edit.py), with an undo on the list and the Deleted tab to restore it
for 30 days.

The folder is read on a worker thread (each match is replayed through a private copy of its
file); the screen only draws the entries it is handed.
"""

from __future__ import annotations

import queue
import threading
from datetime import UTC, datetime
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.report import history as h
from companion.report import notes, trash

from ..played_here import cache_path, when
from ..widgets.keypad import wrap_label
from .match_edit import MatchEditPopup, entry_line
from .report import ROW, label

ALL_GAMES = "All games"


def markup(text: str) -> str:
    """A team's or a match's name inside Kivy markup: its brackets and ampersands escaped."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
GAME_BY_NAME = {name: game for game, name in h.GAME_NAMES.items()}


ROWS_AT_ONCE = 50   # rows of the list of matches made at a time (newest first)


class HistoryScreen(Screen):
    status_text = StringProperty("")
    undo_text = StringProperty("")       # "Undo delete" while a deleted match can be put back in one tap
    tab = StringProperty("matches")
    trashed_count = StringProperty("")
    game_names = ListProperty([ALL_GAMES] + list(h.GAME_NAMES.values()))

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.entries: list[h.Entry] = []
        self.trashed: list[tuple[trash.Trashed, h.Entry | None]] = []
        self._results: queue.Queue = queue.Queue()
        self._trigger = Clock.create_trigger(self._drain)
        self._scanning = False
        self._again = False
        self._last_deleted: trash.Trashed | None = None
        self._deleted_entry: h.Entry | None = None   # its row keeps its place while it can be undone
        self._rows = ROWS_AT_ONCE   # rows of the list of matches on show
        self._deleted_lines: dict[Path, str] = {}   # a trashed file -> the match's line, for messages
        self.popup: MatchEditPopup | None = None

    @property
    def folder(self) -> Path:
        return App.get_running_app().controller.matches_dir()

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def on_leave(self, *_args) -> None:
        self.undo_text = ""   # the undo is for the list the coach was looking at
        self._rows = ROWS_AT_ONCE

    def refresh(self, said: str = "") -> None:
        """Read the folder again (on a thread); ``said`` is what the status line says after."""
        if self._scanning:
            self._again = True
            return
        self._scanning = True
        if not said:
            self.status_text = "Reading the matches..."
        folder = self.folder
        cache = cache_path(App.get_running_app().controller.data_dir)
        with_trash = self.tab == "deleted"

        def work() -> None:
            try:
                trash.empty_old(folder)   # deleted more than 30 days ago: gone for good
                gone = trash.listing(folder)
                # The deleted matches' teams are read only for the Deleted tab (each is replayed).
                named = h.read_files([t.path for t in gone]) if with_trash else []
                by_path = {e.path: e for e in named}
                self._results.put((h.scan(folder, cache), [(t, by_path.get(t.path)) for t in gone], "", said))
            except Exception as exc:  # a folder not readable: say so, the app goes on
                self._results.put(([], [], f"The matches cannot be read ({exc}).", said))
            self._trigger()
        threading.Thread(target=work, name="touchline-history", daemon=True).start()

    def _drain(self, _dt) -> None:
        try:
            entries, gone, error, said = self._results.get_nowait()
        except queue.Empty:
            return
        self._scanning = False
        self.entries, self.trashed = entries, gone
        self._deleted_lines.update({t.path: entry_line(e) for t, e in gone if e is not None and e.ok})
        self.trashed_count = f" ({len(gone)})" if gone else ""
        bad = sum(1 for e in entries if not e.ok)
        altered = sum(1 for e in entries if e.ok and e.copy_of)
        good = len(entries) - bad - altered
        self.status_text = error or said or (
            f"{good} {'match' if good == 1 else 'matches'}"
            + (f", {altered} altered {'copy' if altered == 1 else 'copies'}" if altered else "")
            + (f", {bad} unreadable {'file' if bad == 1 else 'files'}" if bad else "")
            + ". Touch a match for its report, Edit to name, make friendly or delete it.")
        self.show_tab(self.tab)
        if self._again:
            self._again = False
            self.refresh(said)

    # --- filters -------------------------------------------------------------------------------------
    def game(self) -> str | None:
        return GAME_BY_NAME.get(self.ids.game.text)

    def selected(self) -> list[h.Entry]:
        return h.select(self.entries, self.game(), self.ids.team.text)

    def on_filter(self, *_args) -> None:
        self._rows = ROWS_AT_ONCE
        self.show_tab(self.tab)

    def show_more(self) -> None:
        """The next rows of a long list, where the coach asks for them."""
        self._rows += ROWS_AT_ONCE
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
        elif tab == "deleted":
            self._deleted(body)
        else:
            recs = h.records(entries)
            rows = [r["all"].row() for r in recs.values()]
            self._table(body, "Each team's record (journals name teams, not coaches)", h.RECORD_HEADER, rows,
                        widths=(5, 1, 1, 1, 1, 1, 1, 1, 1.2))

    def _matches(self, body, entries: list[h.Entry]) -> None:
        if not entries and not any(not e.ok for e in self.entries):
            body.add_widget(wrap_label("No matches here yet: a match played on this tablet appears here.", 18))
        shown = [e for e in entries if e.ok]
        held = self._deleted_entry if self.undo_text else None
        if held is not None and held.path not in {e.path for e in shown} and h.select([held], self.game(),
                                                                                       self.ids.team.text):
            shown = h.in_list_order(shown + [held])
        # A long list shows its newest rows, and more on request: each row is a few widgets made
        # on the UI thread, and a folder of a thousand matches made at once kept the screen from
        # answering for seconds (benchmarks/bench_app_start.py).
        hidden = len(shown) - self._rows
        shown = shown[:self._rows]
        for e in shown:
            if e is held:   # deleted, its place kept: the rows below do not move under a finger
                body.add_widget(self._deleted_row(e))
                continue
            played = e.date[:16].replace("T", " ")
            status = e.status + (", friendly" if e.friendly else "")
            text = f"{played}   {h.GAME_NAMES.get(e.game, e.game)}   [b]{markup(entry_line(e))}[/b]   ({status})"
            colour = (0.45, 0.3, 0.12, 1) if e.altered else (0.25, 0.32, 0.3, 1) if e.finished else (0.3, 0.3, 0.36, 1)
            line = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
            # Two lines where one does not hold it (a narrow window): the result and its state stay read.
            row = Button(text=text, markup=True, font_size=sp(18), halign="left", valign="middle", max_lines=2,
                         background_color=colour)
            row.bind(size=lambda b, s: setattr(b, "text_size", (s[0] - dp(24), s[1])))
            row.bind(on_release=lambda _b, path=e.path: self.open(path))
            line.add_widget(row)
            edit = Button(text="Edit", font_size=sp(20), size_hint_x=None, width=dp(110))
            edit.bind(on_release=lambda _b, entry=e: self.edit(entry))
            line.add_widget(edit)
            body.add_widget(line)
            if e.altered:  # why, under the row: a copy nobody can vouch for is never passed off as the match
                body.add_widget(wrap_label(f"{e.path.name}: {h.altered_text(e)}", 18, colour=(1, 0.8, 0.5, 1)))
        if hidden > 0:
            said = (f"Show the {hidden} older {'match' if hidden == 1 else 'matches'}" if hidden <= ROWS_AT_ONCE
                    else f"Show {ROWS_AT_ONCE} older matches ({hidden} not shown yet)")
            more = Button(text=said, font_size=sp(20), size_hint_y=None, height=dp(56))
            more.bind(on_release=lambda _b: self.show_more())
            body.add_widget(more)
        unreadable = [e for e in self.entries if not e.ok]
        if unreadable:
            body.add_widget(wrap_label("Files that are not readable matches (left untouched):", 20, bold=True,
                                       colour=(1, 0.75, 0.3, 1)))
            for e in unreadable:
                body.add_widget(wrap_label(f"{e.path.name}: {e.problem}", 18, colour=(1, 0.8, 0.5, 1)))

    def _deleted_row(self, e: h.Entry) -> BoxLayout:
        line = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        said = Label(text=f"Deleted: [b]{markup(entry_line(e))}[/b]   (restorable from the Deleted tab)", markup=True,
                     font_size=sp(18), color=(0.78, 0.78, 0.78, 1), halign="left", valign="middle", shorten=True,
                     shorten_from="right")
        said.bind(size=lambda lab, s: setattr(lab, "text_size", (s[0] - dp(24), s[1])))
        line.add_widget(said)
        undo = Button(text="Undo", font_size=sp(20), size_hint_x=None, width=dp(110))
        undo.bind(on_release=lambda _b: self.undo_delete())
        line.add_widget(undo)
        return line

    def _league(self, body, entries: list[h.Entry]) -> None:
        games = [self.game()] if self.game() else h.games_in(entries)
        shown = False
        for game in games:
            rows = h.league(entries, game)
            if not rows:
                continue
            shown = True
            played = len(h.finished(entries, game))
            aside = len(h.friendlies(entries, game))
            self._table(body, f"{h.GAME_NAMES.get(game, game)}: {played} finished match{'es' if played != 1 else ''}"
                              + (f" ({aside} friendl{'y' if aside == 1 else 'ies'} not counted)" if aside else "")
                              + ", 3 points a win, 1 a draw", ["#"] + h.RECORD_HEADER,
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

    def open_deleted(self) -> None:
        """The Deleted tab: the trash read again, with each deleted match's teams."""
        self.tab = "deleted"
        self.ids.body.clear_widgets()
        self.refresh()

    def _deleted(self, body) -> None:
        """The deleted matches, each with Restore, while the trash keeps them."""
        if not self.trashed:
            body.add_widget(wrap_label(f"No deleted matches. A deleted match waits here {trash.KEEP_DAYS} days "
                                       f"before it is gone for good.", 18))
            return
        body.add_widget(wrap_label(f"Deleted matches wait here {trash.KEEP_DAYS} days, then they are gone for good. "
                                   f"Restore puts one back in the list.", 18))
        for t, e in self.trashed:
            what = entry_line(e) + f" ({h.GAME_NAMES.get(e.game, e.game)})" if e is not None and e.ok else t.name
            left = t.left(datetime.now(UTC))
            line = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
            text = label(f"{what} · deleted {when(t.deleted.isoformat())} · "
                         f"{left} day{'s' if left != 1 else ''} left")
            text.size_hint_y, text.height = None, dp(56)
            line.add_widget(text)
            restore = Button(text="Restore", font_size=sp(20), size_hint_x=None, width=dp(140))
            restore.bind(on_release=lambda _b, gone=t: self.restore(gone))
            line.add_widget(restore)
            body.add_widget(line)

    # --- buttons -------------------------------------------------------------------------------------
    def open(self, path: Path) -> None:
        App.get_running_app().root.get_screen("report").open_file(path, back="history")

    def edit(self, entry: h.Entry) -> None:
        self.popup = MatchEditPopup(entry, rename=self.rename, friendly=self.make_friendly, delete=self.delete,
                                    report=lambda e: self.open(e.path))
        self.popup.open()

    def rename(self, entry: h.Entry, title: str) -> str:
        try:
            note = notes.set_title(entry.path.parent, entry.path.name, title)
        except notes.NotesError as exc:
            return f"Not saved: {exc}"
        self.refresh()
        return f"Saved: the match is called {note.title}." if note.title else \
            f"Saved: the match is called by its teams again ({entry.home} v {entry.away})."

    def make_friendly(self, entry: h.Entry, friendly: bool) -> str:
        try:
            notes.set_friendly(entry.path.parent, entry.path.name, friendly)
        except notes.NotesError as exc:
            return f"Not saved: {exc}"
        self.refresh()
        return "A friendly now: it stays in the list, out of the league table." if friendly else \
            "It counts in the league table again."

    def delete(self, entry: h.Entry) -> str:
        """Move the match to the trash; '' when done, else why not (said in the popup)."""
        ctl = App.get_running_app().controller
        if ctl.match is not None and ctl.view.path and Path(ctl.view.path) == entry.path:
            return ("This match is open on the live screen: start or resume another match first, "
                    "then delete this one.")
        try:
            gone = trash.delete(entry.path.parent, entry.path.name)
            for copy in entry.copies:   # its exports and older copies go with it
                trash.delete(entry.path.parent, copy)
        except trash.TrashError as exc:
            return f"Not deleted: {exc}"
        self._last_deleted, self._deleted_entry = gone, entry
        self._deleted_lines[gone.path] = entry_line(entry)
        self.undo_text = "Undo delete"
        self.refresh(f"Deleted {entry_line(entry)}. It can be restored for {trash.KEEP_DAYS} days (Deleted tab).")
        return ""

    def undo_delete(self) -> None:
        if self._last_deleted is not None:
            self.restore(self._last_deleted)

    def restore(self, gone: trash.Trashed) -> None:
        try:
            trash.restore(self.folder, gone)
        except trash.TrashError as exc:
            self.status_text = f"Not restored: {exc}"
            return
        if self._last_deleted == gone:
            self._last_deleted, self._deleted_entry, self.undo_text = None, None, ""
        self.refresh(f"Restored {self._deleted_lines.get(gone.path, gone.name)}: it is back in the list of matches.")

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
