"""The box editor: a game's printed values (tactical boards, pace bar, referee's board, cards,
rosters, board geometry) entered on the tablet and saved for this table.

The form is made from the type each data file decodes to (ui/boxform.py), one row per field.
Every change is checked at once by the file's own loader (companion/box.py); a change that
passes is saved straight away in the table's folder, one that does not is shown in words with
the field and the allowed range, and the file keeps its last good values. Typing in an entry
clears that entry's placeholder flag, and only that one's.
"""

from __future__ import annotations

import copy
import enum
import logging
from datetime import datetime
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner, SpinnerOption
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from companion import box
from companion.errors import DataFileError

from .. import boxform as bf
from ..games import face_for, ready
from ..widgets.fit_label import FitLabel  # noqa: F401 (the kv's page title)

log = logging.getLogger(__name__)

ROW = dp(56)           # every touch target is at least 48 dp
TEXT = "20sp"          # read from 1 m: nothing under 18 sp (a string: it follows the text size)
SMALL = "18sp"
AMBER = (1, 0.78, 0.25, 1)
GREEN = (0.55, 0.9, 0.55, 1)
RED = (1, 0.45, 0.4, 1)
MUTED = (0.8, 0.85, 0.8, 1)
BAD_FIELD = (1, 0.8, 0.78, 1)
GOOD_FIELD = (1, 1, 1, 1)
GEOMETRY = ("board.json", "street_board.json", "pitch.json")   # pages a camera can measure


class BigOption(SpinnerOption):
    """A spinner's drop-down row, as tall and as readable as the rest of the editor."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.height = ROW
        self.font_size = TEXT


Factory.register("BigOption", cls=BigOption)


def _label(text: str, size: float = TEXT, colour=(1, 1, 1, 1), bold: bool = False, **kwargs) -> Label:
    lab = Label(text=text, font_size=size, color=colour, bold=bold, halign="left", valign="middle",
                shorten=True, shorten_from="right", **kwargs)
    lab.bind(size=lambda w, s: setattr(w, "text_size", s))
    return lab


class BoxEditorScreen(Screen):
    games = ListProperty([])           # titles of the games
    game_title = StringProperty("")
    page_title = StringProperty("")
    page_note = StringProperty("")
    status_text = StringProperty("")
    status_ok = BooleanProperty(True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.game = ""
        self.item: box.BoxItem | None = None
        self.doc: Any = None
        self.picked: dict[tuple, int] = {}      # list path -> the entry shown
        self._toggles: dict[tuple, ToggleButton] = {}
        self._by_title: dict[str, str] = {}
        self._want: tuple[str, str | None] | None = None
        # Entries typed but not saved (a value the file's loader refuses, text that is no
        # number, a folder that cannot be written): path -> (the entry, why, its text box, and
        # "typed" for text that is no value, never put in the page, or "refused").
        self._unsaved: dict[tuple, tuple[str, str, Any, str]] = {}
        self._failure = ""   # the last save's failure: "check" (a refused value) or "disk"
        self._leave_popup: Popup | None = None

    # --- opening ---------------------------------------------------------------------------------
    def open(self, game: str | None = None, file: str | None = None) -> None:
        """Show a game's box at one page (``file``), else at its first placeholder."""
        app = App.get_running_app()
        self._want = (game or app.game(), file)
        self._back_to = app.root.current if app.root.current != "box_editor" else "home"
        app.show("box_editor")

    def back(self) -> None:
        """Back where the editor was opened from (the live match, settings...), asking first
        when an entry is not saved."""
        self.leave(lambda: App.get_running_app().show(getattr(self, "_back_to", "") or "home"))

    # --- leaving with an entry not saved ---------------------------------------------------------
    def leave(self, go) -> None:
        """``go()`` now, or once the coach has chosen, when an entry typed is not saved."""
        if not self._unsaved:
            go()
            return
        path, (what, why, _field, _kind) = next(iter(self._unsaved.items()))
        more = len(self._unsaved) - 1
        content = BoxLayout(orientation="vertical", spacing=dp(10), padding=dp(10))
        text = ((f"{what}: {why}" if what else why) +
                (f" (and {more} more entr{'ies' if more != 1 else 'y'})" if more else "") +
                ".\nEverything else you typed is saved; discarding keeps this entry's saved value.")
        message = Label(text=text, font_size=TEXT, halign="left", valign="top", color=(1, 0.8, 0.7, 1),
                        size_hint_y=None)
        message.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                     texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(8)))
        content.add_widget(message)
        popup = Popup(title="Not saved yet", title_size=sp(22), content=content, size_hint=(0.7, None),
                      auto_dismiss=False)
        choices = [("Stay and fix it", lambda: self._stay(path))]
        if self._failure == "disk":   # the value is good, the folder failed: saving again may work
            choices.insert(0, ("Save again and leave", lambda: self.commit() and self._gone(go)))
        choices.append(("Discard it and leave", lambda: (self._discard(), go())))
        for text, act in choices:
            b = Button(text=text, font_size=TEXT, size_hint_y=None, height=ROW)
            b.bind(on_release=lambda _b, act=act: (popup.dismiss(), act()))
            content.add_widget(b)
        def fit(*_args) -> None:   # as tall as what it says: the message, the buttons, the title bar
            popup.height = message.height + len(choices) * (ROW + dp(10)) + dp(110)
        message.bind(height=fit)
        fit()
        self._leave_popup = popup
        popup.open()

    def _gone(self, go) -> None:
        self._unsaved.clear()
        go()

    def _stay(self, path: tuple) -> None:
        """Back to the entry: its box focused, the page list and the game as they were."""
        self.ids.game.text = self.game_title
        self.build_pages()
        entry = self._unsaved.get(path)
        if entry is not None and entry[2] is not None:
            entry[2].focus = True

    def _discard(self) -> None:
        """The entries not saved are dropped: the page shows its saved values again."""
        self._unsaved.clear()
        if self.item is not None:
            self.show_page(self.item.file)

    def on_pre_enter(self, *_args) -> None:
        self._by_title = {face_for(g).title: g for g in ready()}
        self.games = list(self._by_title)
        game, file = self._want or (self.game or App.get_running_app().game(), None)
        self._want = None
        self.show_game(game, file)

    def folder(self, game: str | None = None) -> Path:
        return box.table_dir(App.get_running_app().controller.data_dir, game or self.game)

    def on_game_title(self, _w, title: str) -> None:
        game = self._by_title.get(title)
        if game and game != self.game:
            self.leave(lambda: self.show_game(game))

    def show_game(self, game: str, file: str | None = None) -> None:
        self.game = game
        self.game_title = face_for(game).title if game in self._by_title.values() else game
        pages = box.status(game, self.folder())
        if file is None:
            waiting = [s for s in pages if s.placeholders or s.error]
            file = (waiting or pages)[0].item.file
        self.show_page(file)

    # --- the page list ---------------------------------------------------------------------------
    def build_pages(self) -> None:
        holder = self.ids.pages
        holder.clear_widgets()
        key = Label(text=f"[color={_hex(AMBER)}]Amber[/color]: entries still at placeholder values, to type "
                         f"from your box", markup=True, font_size=SMALL, size_hint_y=None, halign="left",
                    valign="middle", color=(0.8, 0.85, 0.8, 1))
        key.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                 texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(8)))
        holder.add_widget(key)
        for s in box.status(self.game, self.folder()):
            if s.item.file == box.COLOURS:
                painted = box.colours(self.game, self.folder()).teams
                teams = box.team_keys(self.game, self.folder())
                done = sum(1 for k in teams if painted.get(k))
                # Colours are no placeholders (a team without its own looks as the app paints it):
                # never amber, which counts what is left to enter.
                note, colour = f"{done} of {len(teams)} teams coloured", GREEN if done == len(teams) else MUTED
            elif s.error:
                note, colour = "cannot be read", RED
            elif s.placeholders:
                note, colour = f"{s.placeholders} of {s.entries} to enter", AMBER
            else:
                note, colour = "entered", GREEN
            current = self.item is not None and s.item.file == self.item.file
            b = ToggleButton(text=f"{s.label}\n[color={_hex(colour)}]{note}[/color]", markup=True,
                             font_size=SMALL, size_hint_y=None, height=dp(76), halign="center",
                             state="down" if current else "normal", group="box-pages", allow_no_selection=False)
            b.bind(size=lambda w, sz: setattr(w, "text_size", (sz[0] - dp(12), None)),
                   texture_size=lambda w, ts: setattr(w, "height", max(dp(76), ts[1] + dp(16))))
            b.bind(on_release=lambda _b, f=s.item.file: self.leave(lambda: self.show_page(f)))
            holder.add_widget(b)
        add = Button(text="+ Add a team", font_size=SMALL, size_hint_y=None, height=ROW)
        add.bind(on_release=lambda *_: self.add_team())
        holder.add_widget(add)

    def show_page(self, file: str) -> None:
        folder = self.folder()
        self.item = box.item(self.game, file, folder)
        self.picked = {}
        self._unsaved = {}
        self._team_names = {}
        if file == box.COLOURS:   # the colours page names each team, not its file
            for key in box.team_keys(self.game, folder):
                try:
                    self._team_names[key] = box.team(self.game, key, folder).name
                except DataFileError:
                    self._team_names[key] = key
        try:
            self.doc = box.document(self.item, folder)
        except DataFileError as exc:
            # The table's copy cannot be read: show why, and start again from the shipped file.
            self.doc = box.document(self.item, None)
            self.say(f"Your copy of {file} cannot be read ({exc}); the shipped values are shown: "
                     f"a change saves over it.", ok=False)
        else:
            # The line below the form is never blank: a coach who has typed nothing yet knows
            # there is no Save button to look for.
            self.say("Each value is saved as you type it.")
        self.build_pages()
        self.build_form()

    # --- the form --------------------------------------------------------------------------------
    def build_form(self) -> None:
        form = self.ids.form
        form.clear_widgets()
        self._toggles = {}
        it = self.item
        self.page_title = f"Team: {self.doc.get('name', it.key)}" if it.is_team else it.title
        self._page_note()
        add = form.add_widget
        self._last_field = None
        if it.file in GEOMETRY:
            measure = Button(text="Measure on the camera: tap printed lines, read millimetres", font_size=TEXT,
                             size_hint_y=None, height=ROW)
            measure.bind(on_release=lambda *_: self.measure())
            add(measure)
        if bf.kind(it.schema) == "list":
            self._list_rows(it.schema, (), 0, add, heading=False)
        else:
            self._fields(it.schema, (), 0, add)
        self.ids.scroll.scroll_y = 1

    def _page_note(self) -> None:
        n = len(box.placeholder_paths(self.doc))
        own = box.is_own(self.item, self.folder())
        self.page_note = (f"{n} placeholder{'s' if n != 1 else ''} left" if n else "All entered") + \
            (" · your values" if own else " · shipped values")

    def _row(self, depth: int, text: str, widget, colour=(1, 1, 1, 1)) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(10), padding=(dp(18) * depth, 0, 0, 0))
        # The label wraps and the row grows to it: a tactic's long name reads whole, never cut
        # to "Low defence line, short pass..." (an 800 px window has some 270 px for it).
        lab = Label(text=text, font_size=TEXT, color=colour, halign="left", valign="middle", size_hint_x=0.48)
        lab.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                 texture_size=lambda w, size: setattr(row, "height", max(ROW, size[1] + dp(12))))
        row.add_widget(lab)
        widget.size_hint_x = 0.52
        row.add_widget(widget)
        return row

    def _heading(self, depth: int, text: str) -> Label:
        lab = _label(text, size=sp(22), colour=(0.75, 0.9, 1, 1), bold=True, size_hint_y=None, height=dp(50))
        lab.padding = (dp(18) * depth, 0)
        return lab

    def _fields(self, tp: Any, path: tuple, depth: int, add) -> None:
        node = bf.get_at(self.doc, path)
        for name, ftp in bf.fields(tp):
            if name == "placeholder":
                add(self._placeholder_row(path, depth))
        for name, ftp in bf.fields(tp):
            if name == "placeholder" or name in bf.FIXED:
                continue   # an id stays as it is: matches and the rules name the entry by it
            if name not in node:
                node[name] = bf.default_for(ftp)
            self._field(name, ftp, path + (name,), depth, add)

    def _field(self, name: str, tp: Any, path: tuple, depth: int, add, text: str | None = None) -> None:
        title = text or bf.label(name)
        k = bf.kind(tp)
        value = bf.get_at(self.doc, path)
        if k == "bool":
            t = ToggleButton(text="Yes" if value else "No", state="down" if value else "normal", font_size=TEXT)
            t.bind(state=lambda w, st, p=path: self._toggled(w, p, st == "down"))
            add(self._row(depth, title, t))
        elif k == "enum":
            inner, _ = bf.optional_of(tp)
            labels = {bf.enum_label(m): m.value for m in inner}
            current = next((lab for lab, v in labels.items() if v == value), str(value))
            s = Spinner(text=current, values=list(labels), font_size=TEXT, option_cls=BigOption)
            s.bind(text=lambda _w, lab, p=path, m=labels: self.change(p, m[lab]))
            add(self._row(depth, title, s))
        elif k == "text":
            field = TextInput(text=bf.format_value(tp, value), hint_text=bf.hint(tp, name), multiline=False,
                              write_tab=False, font_size=TEXT, padding=(dp(10), dp(14)))
            field.bind(text=lambda w, txt, p=path, t=tp, lab=title: self._typed(w, p, t, txt, lab))
            self._track(field, title)
            add(self._row(depth, title, field))
        elif k == "optional":
            inner, _ = bf.optional_of(tp)
            on = value is not None
            t = ToggleButton(text="Printed: yes" if on else "Printed: no", state="down" if on else "normal",
                             font_size=TEXT)
            t.bind(state=lambda _w, st, p=path, i=inner: self._optional(p, i, st == "down"))
            add(self._row(depth, title, t))
            if on:
                self._fields(inner, path, depth + 1, add)
        elif k == "inline":
            add(self._captions(bf.optional_of(tp)[0], depth))
            add(self._inline_row(title, bf.optional_of(tp)[0], path, depth))
        elif k == "dataclass":
            add(self._heading(depth, title))
            self._fields(bf.optional_of(tp)[0], path, depth + 1, add)
        elif k == "dict":
            add(self._heading(depth, title))
            self._dict_rows(tp, path, depth + 1, add)
        elif k == "list":
            self._list_rows(tp, path, depth, add, heading=True, title=title)

    def _captions(self, tp: Any, depth: int) -> BoxLayout:
        """The names of an inline group's numbers, above their boxes."""
        row = BoxLayout(size_hint_y=None, height=dp(30), spacing=dp(10), padding=(dp(18) * depth, 0, 0, 0))
        row.add_widget(Label(size_hint_x=0.48))
        names = BoxLayout(spacing=dp(8), size_hint_x=0.52)
        for name, _t in bf.fields(tp):
            lab = _label(bf.label(name), size=SMALL, colour=(0.75, 0.9, 1, 1))
            lab.halign = "center"
            names.add_widget(lab)
        row.add_widget(names)
        return row

    def _inline_row(self, title: str, tp: Any, path: tuple, depth: int) -> BoxLayout:
        """Two to four numbers on one row, under their captions: "Short pass [5] [4]"."""
        names = [(n, t) for n, t in bf.fields(tp)]
        node = bf.get_at(self.doc, path)
        boxes = BoxLayout(spacing=dp(8))
        for name, ftp in names:
            node.setdefault(name, bf.default_for(ftp))
            field = TextInput(text=bf.format_value(ftp, node[name]), hint_text=bf.label(name).lower(),
                              multiline=False, write_tab=False, font_size=TEXT, padding=(dp(10), dp(14)))
            field.bind(text=lambda w, txt, p=path + (name,), t=ftp, lab=f"{title} {bf.label(name).lower()}":
                       self._typed(w, p, t, txt, lab))
            self._track(field, f"{title} {bf.label(name).lower()}")
            boxes.add_widget(field)
        return self._row(depth, title, boxes)

    def _track(self, field: TextInput, title: str) -> None:
        """Remember the field last touched: a camera measurement can go into it."""
        field.bind(focus=lambda w, on: setattr(self, "_last_field", (w, title)) if on else None)

    def measure(self) -> None:
        from ..widgets.measure import MeasurePopup

        last = getattr(self, "_last_field", None)
        put = (lambda value, w=last[0]: setattr(w, "text", bf.format_value(float, value))) if last else None
        self._measure = MeasurePopup(put=put, target=last[1] if last else "")
        self._measure.open()

    def _dict_rows(self, tp: Any, path: tuple, depth: int, add) -> None:
        key_tp, val_tp = bf.dict_args(tp)
        node = bf.get_at(self.doc, path)
        scalar = bf.kind(val_tp) == "text"
        keys = list(node)
        if isinstance(key_tp, type) and issubclass(key_tp, enum.Enum) and scalar:
            keys = [m.value for m in key_tp]    # every member, blank where the card prints none
        elif key_tp is int:
            keys = sorted(keys, key=lambda k: int(k))
        for key in keys:
            p = path + (key,)
            kl = self._team_names.get(key) if self.item.file == box.COLOURS else None
            kl = kl or bf.key_label(key_tp, key)
            if scalar:
                value = node.get(key)
                field = TextInput(text=bf.format_value(val_tp, value) if value is not None else "",
                                  hint_text=bf.NAMED_HINTS.get(path[-1] if path else "", "blank: none"),
                                  multiline=False, write_tab=False, font_size=TEXT,
                                  padding=(dp(10), dp(14)))
                field.bind(text=lambda w, txt, p=p, t=val_tp, lab=kl: self._typed(w, p, t, txt, lab, drop=True))
                add(self._row(depth, kl, field))
            elif bf.kind(val_tp) == "inline":
                if key == keys[0]:
                    add(self._captions(bf.optional_of(val_tp)[0], depth))
                add(self._inline_row(kl, bf.optional_of(val_tp)[0], p, depth))
            elif bf.kind(val_tp) in ("dataclass", "optional"):
                add(self._heading(depth, kl))
                self._fields(bf.optional_of(val_tp)[0], p, depth + 1, add)
            else:
                self._field(str(key), val_tp, p, depth, add, kl)
        if key_tp is int:
            more = Button(text="+ Add a row", font_size=TEXT, size_hint_y=None, height=ROW)
            more.bind(on_release=lambda *_: self._add_key(path, val_tp))
            add(more)

    def _add_key(self, path: tuple, val_tp: Any) -> None:
        node = bf.get_at(self.doc, path)
        keys = sorted(int(k) for k in node) or [0]
        last = node.get(str(keys[-1]))
        node[str(keys[-1] + 1)] = copy.deepcopy(last) if last is not None else bf.default_for(val_tp)
        self._entered(path)
        self.commit()
        self.build_form()

    def _list_rows(self, tp: Any, path: tuple, depth: int, add, heading: bool, title: str = "") -> None:
        entries = bf.get_at(self.doc, path)
        item_tp = bf.list_item(tp)
        if heading:
            add(self._heading(depth, f"{title} ({len(entries)})"))
            depth += 1
        index = min(self.picked.get(path, 0), max(len(entries) - 1, 0))
        self.picked[path] = index
        names = [f"{i + 1}. {bf.entry_label(e, i)}" for i, e in enumerate(entries)]
        bar = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(8), padding=(dp(18) * depth, 0, 0, 0))
        prev = Button(text="<", font_size=sp(24), size_hint_x=None, width=ROW)
        prev.bind(on_release=lambda *_: self._pick(path, index - 1, len(entries)))
        nxt = Button(text=">", font_size=sp(24), size_hint_x=None, width=ROW)
        nxt.bind(on_release=lambda *_: self._pick(path, index + 1, len(entries)))
        chooser = Spinner(text=names[index] if names else "(none)", values=names, font_size=TEXT,
                          option_cls=BigOption, halign="center", valign="middle", line_height=0.9)
        # A long name on two lines rather than cut (an 800 px window has 210 px for it).
        chooser.bind(size=lambda w, sz: setattr(w, "text_size", (sz[0] - dp(16), None)),
                     texture_size=lambda _w, sz, b=bar: setattr(b, "height", max(ROW, sz[1] + dp(12))))
        chooser.bind(text=lambda _w, txt, n=names: self._pick(path, n.index(txt), len(n)) if txt in n else None)
        plus = Button(text="Add", font_size=TEXT, size_hint_x=None, width=dp(90))
        plus.bind(on_release=lambda *_: self._add_entry(path, item_tp))
        minus = Button(text="Remove", font_size=TEXT, size_hint_x=None, width=dp(120), disabled=not entries)
        minus.bind(on_release=lambda *_: self._remove_entry(path))
        for w in (prev, chooser, nxt, plus, minus):
            bar.add_widget(w)
        add(bar)
        if entries:
            self._fields(item_tp, path + (index,), depth, add)

    def _pick(self, path: tuple, index: int, count: int) -> None:
        if count:
            self.picked[path] = index % count
            self.build_form()

    def _add_entry(self, path: tuple, item_tp: Any) -> None:
        entries = bf.get_at(self.doc, path)
        index = self.picked.get(path, 0)
        new = copy.deepcopy(entries[index]) if entries else bf.default_for(item_tp)
        if isinstance(new, dict) and "placeholder" in new:
            new["placeholder"] = True   # a copy is not yet the box's entry
        if isinstance(new, dict):
            bf.fresh_ids(new, entries)   # the copy's id (never shown) must not be its original's
        entries.insert(index + 1, new)
        self.picked[path] = index + 1
        self.commit()
        self.build_form()

    def _remove_entry(self, path: tuple) -> None:
        entries = bf.get_at(self.doc, path)
        index = self.picked.get(path, 0)
        if entries:
            del entries[index]
            self.picked[path] = max(index - 1, 0)
            self._entered(path)
            self.commit()
            self.build_form()

    def _placeholder_row(self, path: tuple, depth: int) -> BoxLayout:
        flagged = bool(bf.get_at(self.doc, path).get("placeholder"))
        t = ToggleButton(font_size=SMALL, state="normal" if flagged else "down", halign="center", line_height=0.9)
        t.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(8), None)))   # two lines, never past its edge
        t.bind(state=lambda w, st, p=path: self._flag(w, p, st == "normal"))
        self._toggles[path] = t
        what = bf.human_path(self.doc, list(path)) or self.page_title
        row = self._row(depth, what, t)
        t.caption = row.children[-1]
        self._show_flag(t, flagged)
        return row

    @staticmethod
    def _show_flag(t: ToggleButton, flagged: bool) -> None:
        t.text = "Placeholder: tap when it is your box's" if flagged else "Entered from your box"
        t.color = AMBER if flagged else (1, 1, 1, 1)
        t.background_color = (1, 1, 1, 1) if flagged else (0.45, 1, 0.5, 1)   # tints the pressed look green
        caption = getattr(t, "caption", None)
        if caption is not None:
            caption.color = AMBER if flagged else GREEN

    # --- changes ---------------------------------------------------------------------------------
    def _typed(self, widget, path: tuple, tp: Any, text: str, title: str, drop: bool = False) -> None:
        try:
            value = bf.parse_value(tp, text)
        except bf.TypedTextError as exc:
            if drop and not text.strip():
                bf.drop_at(self.doc, path)
                widget.background_color = GOOD_FIELD
                self._entered(path[:-1])
                self.commit()
                return
            widget.background_color = BAD_FIELD
            self.say(f"{title}: {exc}. Not saved yet.", ok=False)
            self._unsaved[path] = (bf.human_path(self.doc, list(path)) or title, str(exc), widget, "typed")
            return
        if drop and value is None:
            bf.drop_at(self.doc, path)
            self._entered(path[:-1])
            ok = self.commit()
        else:
            ok = self.change(path, value)
        widget.background_color = GOOD_FIELD if ok else BAD_FIELD
        if ok:
            self._unsaved.pop(path, None)
        else:
            # The loader's words name the entry already ("Players › #2 Bram: speed is ...").
            self._unsaved[path] = ("", self.status_text.removeprefix("Not saved: "), widget, "refused")

    def _toggled(self, widget, path: tuple, on: bool) -> None:
        widget.text = "Yes" if on else "No"
        self.change(path, on)

    def _optional(self, path: tuple, inner: Any, on: bool) -> None:
        bf.set_at(self.doc, path, bf.default_for(inner) if on else None)
        self._entered(path[:-1])
        self.commit()
        self.build_form()

    def _flag(self, widget, path: tuple, flagged: bool) -> None:
        bf.get_at(self.doc, path)["placeholder"] = flagged
        self._show_flag(widget, flagged)
        self.commit()

    def _entered(self, path: tuple) -> None:
        """Typing in an entry enters it: its own placeholder flag goes, no other."""
        owner = bf.owner_of(self.doc, path)
        if owner is None:
            return
        node = bf.get_at(self.doc, owner)
        if node.get("placeholder"):
            node["placeholder"] = False
            t = self._toggles.get(owner)
            if t is not None:
                t.state = "down"
                self._show_flag(t, False)

    def change(self, path: tuple, value: Any) -> bool:
        bf.set_at(self.doc, path, value)
        self._entered(path[:-1] if path and path[-1] != "placeholder" else path)
        ok = self.commit()
        if not ok:
            self._unsaved.setdefault(path, ("", self.status_text.removeprefix("Not saved: "), None, "refused"))
        return ok

    def commit(self) -> bool:
        """Check the page with its loader and save it when it passes."""
        try:
            box.save(self.item, self.doc, self.folder())
        except DataFileError as exc:
            self._failure = "check"
            self.say(f"Not saved: {bf.explain(exc, self.doc)}", ok=False)
            return False
        except OSError as exc:
            self._failure = "disk"
            self.say(f"Cannot save in {self.folder()}: {exc.strerror or exc}. Check the data folder.", ok=False)
            return False
        self._failure = ""
        # The whole page passed its loader and is on disk: what was refused before is saved now;
        # only text that is no value at all (never put in the page) is still not saved.
        self._unsaved = {p: u for p, u in self._unsaved.items() if u[3] == "typed"}
        self.say(f"Saved. {self._left()}")
        self._page_note()
        self.build_pages()
        return True

    def _left(self) -> str:
        """What is left, counted as the page list counts it (its amber numbers add up to it)."""
        waiting = box.still_placeholders(self.game, self.folder())
        if not waiting:
            return f"Every {self.game_title} box item is entered."
        entries = sum(s.placeholders for s in waiting)
        return (f"Still to enter: {entries} placeholder entr{'ies' if entries != 1 else 'y'} on {len(waiting)} "
                f"page{'s' if len(waiting) != 1 else ''} (amber in the list).")

    def say(self, text: str, ok: bool = True) -> None:
        self.status_text = text
        self.status_ok = ok

    # --- teams, export and import --------------------------------------------------------------------
    def add_team(self) -> None:
        """A new team page, started from the first team's cards (all flagged placeholders)."""
        folder = self.folder()
        first = next(it for it in box.items(self.game, folder) if it.is_team)
        doc = box.document(first, folder)
        file = box.new_team_file(self.game, "New team", folder)
        suffix = file[len(box.TEAMS):-5].removeprefix("new_team").replace("_", " ")
        doc["name"] = f"New team{suffix}"
        _flag_all(doc)
        self.item = box.item(self.game, file, folder)
        self.doc = doc
        if self.commit():
            self.show_page(file)
            self.say("A new team, copied from the first one: type its name, numbers and cards.")

    def export(self) -> None:
        app = App.get_running_app()
        target = Path(app.controller.data_dir) / "exports" / \
            f"{self.game}-box-{datetime.now().strftime('%Y-%m-%d-%H%M%S')}.json"
        try:
            box.export_box(self.game, self.folder(), target)
        except (DataFileError, OSError) as exc:
            self.say(f"Cannot export: {exc}", ok=False)
            return
        self.say(f"Exported the whole {self.game_title} box to {target}: copy it to the other tablet and "
                 f"use Import there.")

    def import_places(self) -> list[Path]:
        """Folders a box file is looked for in (the first is this table's own exports)."""
        data = Path(App.get_running_app().controller.data_dir)
        home = Path.home()
        return [data / "exports", data / "import", home / "Downloads", home / "Download",
                Path("/sdcard/Download"), home]

    def box_files(self) -> list[Path]:
        found: list[Path] = []
        for place in self.import_places():
            try:
                found += sorted(place.glob("*box*.json"), key=lambda p: -p.stat().st_mtime)
            except OSError:
                continue
        return found[:20]

    def ask_import(self) -> None:
        files = self.box_files()
        content = BoxLayout(orientation="vertical", spacing=dp(8), padding=dp(8))
        content.add_widget(_label("Box files found (newest first):" if files else
                                  "No box file found. Put one in " + str(self.import_places()[1]) +
                                  " or Downloads.", size=SMALL, size_hint_y=None, height=dp(40)))
        scroll = ScrollView(do_scroll_x=False)
        listing = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6))
        listing.bind(minimum_height=listing.setter("height"))
        popup = Popup(title="Import a box", title_size=sp(22), content=content, size_hint=(0.85, 0.85))
        for path in files:
            b = Button(text=f"{path.name}\n[size={int(sp(18))}]{path.parent}[/size]", markup=True, font_size=SMALL,
                       size_hint_y=None, height=dp(76), halign="center")
            b.bind(size=lambda w, sz: setattr(w, "text_size", (sz[0] - dp(12), None)))
            b.bind(on_release=lambda _b, p=path: (popup.dismiss(), self.import_file(p)))
            listing.add_widget(b)
        scroll.add_widget(listing)
        content.add_widget(scroll)
        cancel = Button(text="Cancel", font_size=TEXT, size_hint_y=None, height=ROW)
        cancel.bind(on_release=lambda *_: popup.dismiss())
        content.add_widget(cancel)
        popup.open()
        self._popup = popup

    def import_file(self, path: Path) -> bool:
        app = App.get_running_app()
        try:
            game, files = box.import_box(path, app.controller.data_dir)
        except (DataFileError, OSError) as exc:
            self.say(f"Not imported (nothing was changed): {exc}", ok=False)
            return False
        except Exception as exc:  # import_box refuses every shape of file itself; never "the screen met a fault"
            log.exception("import of %s", path)
            self.say(f"Not imported (nothing was changed): {path.name} cannot be read ({type(exc).__name__})",
                     ok=False)
            return False
        self.show_game(game)
        self.say(f"Imported {len(files)} files of the {face_for(game).title} box from {path.name}. {self._left()}")
        return True


def _flag_all(doc: Any) -> None:
    if isinstance(doc, dict):
        if "placeholder" in doc:
            doc["placeholder"] = True
        for v in doc.values():
            _flag_all(v)
    elif isinstance(doc, list):
        for v in doc:
            _flag_all(v)


def _hex(rgba) -> str:
    return "".join(f"{int(c * 255):02x}" for c in rgba[:3])
