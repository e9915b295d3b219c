"""Drive the box editor and the line-up chooser of the real tablet app headless, by touches
and typing.

Run by tests/test_ui_box_editor.py in a subprocess (Kivy opens one window per process):

    python tests/ui_box_editor.py OUT_DIR [WIDTHxHEIGHT] [tour|enter|import:BOXFILE|lineup|measure]

``tour`` opens every page of every game's box, photographs it and measures every text and
touch target on it; ``enter`` types a Fublet player's speed (a wrong one, then a right one),
marks the referee's board entered, exports the box and follows the live screen's placeholder
line; ``import:FILE`` imports a box file into an empty data folder. result.json says what was
seen.
"""

from __future__ import annotations

from pathlib import Path

from ui_harness import MODE, OUT, Driver, Window, popups, run, tap, widgets

from kivy.metrics import dp, sp  # noqa: E402 (after the harness has set up Kivy)
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.spinner import Spinner  # noqa: E402
from kivy.uix.textinput import TextInput  # noqa: E402

MODE = MODE or "tour"


def on_screen(w) -> bool:
    """The widget shows: inside the window and, inside a scroll view, inside its viewport."""
    x, y = w.to_window(w.x, w.y)
    if w.width <= 1 or w.height <= 1 or getattr(w, "opacity", 1) == 0:
        return False
    if x + w.width <= 0 or y + w.height <= 0 or x >= Window.width or y >= Window.height:
        return False
    parent = w.parent
    while parent is not None and parent is not parent.parent:
        if parent.__class__.__name__ == "ScrollView":
            px, py = parent.to_window(parent.x, parent.y)
            if y + w.height <= py or y >= py + parent.height:
                return False
        parent = parent.parent
    return True


class EditorDriver(Driver):
    def __init__(self, app) -> None:
        self.small_text: list[str] = []
        self.small_targets: list[str] = []
        self.seen: dict = {}
        super().__init__(app)

    def field(self, label: str) -> TextInput:
        """The text box on the form row whose label reads ``label``."""
        for w in widgets(self.screen().ids.form):
            if isinstance(w, Label) and w.text == label and w.parent is not None:
                for sib in w.parent.children:
                    if isinstance(sib, TextInput):
                        return sib
        raise AssertionError(f"no field {label!r} on the form")

    def popup_words(self) -> dict:
        """The open popup's title, message and buttons."""
        top = popups()[0]
        buttons = sorted((w for w in widgets(top) if isinstance(w, Button)), key=lambda w: -w.to_window(w.x, w.y)[1])
        return {"title": top.title, "buttons": [w.text for w in buttons],
                "text": [w.text for w in widgets(top.content) if isinstance(w, Label) and not isinstance(w, Button)]}

    def page_counts(self) -> list[str]:
        """The page list's notes (each page's second line, markup taken off)."""
        import re
        return [re.sub(r"\[/?color[^\]]*\]", "", w.text).split("\n", 1)[-1]
                for w in widgets(self.screen().ids.pages) if isinstance(w, Button) and "\n" in w.text]

    def type_into(self, label: str, text: str) -> None:
        self.field(label).text = text
        self.log.append(f"type {label} = {text}")

    def checked(self, name: str) -> None:
        self.measure(name)

    def measure(self, name: str) -> None:
        """Every text on screen at least 18 sp, every touch target at least 48 dp."""
        if self.screen().name != "box_editor" and not popups():
            return   # the other screens are measured by their own checks
        tops = popups() or Window.children
        for w in (w for top in tops for w in widgets(top)):
            if not on_screen(w):
                continue
            if isinstance(w, Label) and w.text.strip() and w.font_size < sp(18) - 0.5:
                self.small_text.append(f"{name}: {w.text[:40]!r} at {w.font_size / sp(1):.0f} sp")
            if isinstance(w, (Button, TextInput, Spinner)) and min(w.width, w.height) < dp(48) - 0.5:
                self.small_targets.append(f"{name}: {getattr(w, 'text', '')[:40]!r} "
                                          f"{w.width / dp(1):.0f}x{w.height / dp(1):.0f} dp")

    # --- what is played ---------------------------------------------------------------------------
    def play(self):
        yield "settle"
        if MODE == "tour":
            yield from self.tour()
        elif MODE == "enter":
            yield from self.enter()
        elif MODE == "lineup":
            yield from self.lineups()
        elif MODE == "measure":
            yield from self.measure_board()
        elif MODE.startswith("import:"):
            yield from self.import_box(Path(MODE.partition(":")[2]))

    def open_editor(self):
        self.press("Settings")
        yield "settle"
        self.press("Enter your box", startswith=True)
        yield "settle"

    def tour(self):
        yield from self.open_editor()
        ed = self.screen()
        pages: dict[str, list[str]] = {}
        for title in list(ed.games):
            ed.ids.game.text = title
            yield "settle"
            files = [s.item.file for s in __import__("companion.box", fromlist=["status"]).status(ed.game, ed.folder())]
            pages[ed.game] = []
            for file in files:
                ed.show_page(file)
                yield "settle"
                stem = f"{ed.game}-{file.replace('/', '-').removesuffix('.json')}"
                self.screenshot(stem)
                pages[ed.game].append(ed.page_title)
        self.seen["pages"] = pages

    def enter(self):
        from companion import box
        yield from self.open_editor()
        ed = self.screen()
        ed.ids.game.text = "Fublet"
        yield "settle"
        before = [s.label for s in box.still_placeholders("fublet", ed.folder())]
        self.seen["placeholders_before"] = before
        self.press("Team: Touchline Rovers", startswith=True)
        yield "settle"
        self.press(">")   # the second card
        yield "settle"
        self.type_into("Speed", "25")
        yield "settle"
        self.seen["bad_status"] = ed.status_text
        self.seen["bad_saved"] = box.is_own(ed.item, ed.folder())
        self.screenshot("enter-bad-speed")
        # Leaving with the refused entry: the editor asks; Stay goes back to the entry.
        self.press("Back")
        yield "settle"
        self.seen["leave_asks"] = self.popup_words()
        self.screenshot("enter-leave-unsaved")
        self.press("Stay and fix it")
        yield "settle"
        self.seen["stayed"] = [self.screen().name, self.field("Speed").focus, bool(popups())]
        self.type_into("Speed", "1x")
        yield "settle"
        self.seen["garbage_status"] = ed.status_text
        self.type_into("Speed", "9")
        yield "settle"
        self.seen["good_status"] = ed.status_text
        self.seen["page_counts"] = self.page_counts()
        self.screenshot("enter-good-speed")
        rovers = box.team("fublet", "rovers", ed.folder())
        self.seen["rovers"] = {"speed_2": rovers.players[1].speed, "card_2_placeholder": rovers.players[1].placeholder,
                               "card_3_placeholder": rovers.players[2].placeholder,
                               "team_placeholder": rovers.placeholder}
        self.press("Team colours", startswith=True)
        yield "settle"
        self.type_into("Touchline Rovers", "#1f4fd1, #ffffff")
        yield "settle"
        # Harbour in a blue like Rovers': the live screen puts them in their white second colours.
        self.type_into("Harbour Athletic", "#2346c8, #f4f4f4")
        yield "settle"
        self.screenshot("enter-colours")
        self.seen["colours"] = list(box.colours("fublet", ed.folder()).of("rovers"))
        self.press("Referee's call board", startswith=True)
        yield "settle"
        self.press("Placeholder: tap when it is your box's")
        yield "settle"
        self.screenshot("enter-referee-entered")
        self.seen["referee_placeholder"] = box.document(box.item("fublet", "referee_call_board.json"),
                                                        ed.folder())["placeholder"]
        self.press("Export box")
        yield "settle"
        self.screenshot("enter-exported")
        self.seen["export_status"] = ed.status_text
        self.seen["exports"] = [str(p) for p in (Path(self.app.controller.data_dir) / "exports").glob("*.json")]
        self.seen["placeholders_after"] = [s.label for s in box.still_placeholders("fublet", ed.folder())]
        # The tactical boards by their names: the ids the journals use are not a coach's to edit.
        self.press("Tactical boards", startswith=True)
        yield "settle"
        self.seen["board_rows"] = [w.text for w in widgets(ed.ids.form) if isinstance(w, Label)
                                   and not isinstance(w, Button)][:6]
        self.seen["board_id_boxes"] = [w.text for w in widgets(ed.ids.form) if isinstance(w, TextInput)
                                       and w.text == "low_short_defensive"]
        self.screenshot("enter-tactical-boards")
        # A speed refused again, then Back and Discard: the editor leaves with the saved value.
        self.press("Team: Touchline Rovers", startswith=True)
        yield "settle"
        self.press(">")
        yield "settle"
        self.type_into("Speed", "25")
        yield "settle"
        # A match on the table's box: the live screen's short line opens the editor at the first one.
        self.press("Back")   # to Settings, where the editor was opened from
        yield "settle"
        self.seen["leave_asks_again"] = self.popup_words()
        self.press("Discard it and leave")
        yield "settle"
        self.seen["back_to"] = self.screen().name
        self.seen["speed_after_discard"] = box.team("fublet", "rovers", ed.folder()).players[1].speed
        self.press("Back")
        yield "settle"
        self.press("New match")
        yield "settle"
        self.screen().ids.game.text = "Fublet"
        yield "settle"
        self.press("Start match")
        for _ in range(10):
            yield "settle"
        live = self.screen()
        # Both sides lined up by a preset: the figures in the box's colours (Harbour in white).
        self.press("More")
        yield "settle"
        self.press("Line-up")
        yield "settle"
        self.press("3-5-2", startswith=True)
        for _ in range(6):
            yield "settle"
        self.seen["banner"] = live.warning_text
        self.screenshot("live-banner")
        if live.short:   # a short window keeps the banner in More's menu (More shows a warning sign)
            self.press("More")
            yield "settle"
        self.press(live.warning_text)
        yield "settle"
        self.seen["banner_opens"] = [self.screen().name, self.screen().page_title]
        self.screenshot("banner-opened")
        self.press("Back")
        yield "settle"
        self.seen["banner_back_to"] = self.screen().name
        state = self.app.controller.match.state
        self.seen["match_teams"] = {"home": state.home.name, "away": state.away.name}
        self.seen["match_speeds"] = {"home": state.home.players[1].speed, "away": state.away.players[1].speed}
        self.seen["match_referee_placeholder"] = state.components.referee.placeholder
        live = self.app.root.get_screen("live")
        self.seen["kits"] = {team.value: {"shirt": list(kit.shirt), "text": list(kit.text), "note": kit.note}
                             for team, kit in live.kits.items()}

    def start_match(self, title: str, camera: str = "none"):
        self.press("New match")
        yield "settle"
        setup = self.screen()
        setup.ids.game.text = title
        setup.ids.camera.text = camera
        yield "settle"
        self.press("Start match")
        for _ in range(6):
            yield "settle"

    def standing(self) -> dict:
        live = self.screen()
        return {str(f.ref): list(f.cell) for f in live.face.figures(live.view.state)}

    def line_up(self, choice: str, shot: str):
        """Line-up, then the choice: the taps a coach makes."""
        taps = len(self.log)
        self.press("More")
        yield "settle"
        self.press("Line-up")
        yield "settle"
        self.screenshot(f"{shot}-chooser")
        self.press(choice, startswith=True)
        for _ in range(6):
            yield "settle"
        self.screenshot(shot)
        return len(self.log) - taps

    def lineups(self):
        yield from self.start_match("Fublet")
        taps = yield from self.line_up("3-5-2", "lineup-preset")
        first = self.standing()
        self.seen["preset"] = {"taps": taps, "figures": len(first), "error": self.screen().error_text,
                               "log": list(self.app.controller.view.log[-3:])}
        self.press("Menu")
        yield "settle"
        yield from self.start_match("Fublet")
        self.seen["second_before"] = len(self.standing())
        taps = yield from self.line_up("As last match", "lineup-last")
        self.seen["last"] = {"taps": taps, "same_places": self.standing() == first, "figures": len(self.standing()),
                             "error": self.screen().error_text}
        self.press("Menu")
        yield "settle"
        yield from self.start_match("Fublet", camera="demo")
        yield from self.wait(lambda: (latest := self.app.camera.latest()) is not None   # the camera's first frames
                             and len(latest[1].figures) >= 20)
        seen = {str(s.player): (s.x_mm, s.y_mm) for s in self.app.camera.latest()[1].figures if s.player}
        self.app.controller.enable_vision(False)   # only the chooser places figures here
        taps = yield from self.line_up("Where the camera sees them", "lineup-camera")
        live = self.screen()
        board = live.board
        cells = {ref: list(live.face.geometry(board).cell_at(*live.face.geometry(board).to_board(*xy)))
                 if hasattr(live.face.geometry(board), "to_board") else None for ref, xy in seen.items()}
        self.seen["camera"] = {"taps": taps, "seen": len(seen), "figures": len(self.standing()),
                               "at_seen_cells": all(self.standing().get(ref) == cell for ref, cell in cells.items()),
                               "error": live.error_text}
        yield from self.measure_board(start=False)   # the camera is up: measure the board with it too

    def measure_board(self, start: bool = True):
        import numpy as np
        from companion import box

        if start:
            yield from self.start_match("Fublet", camera="demo")
        # The rendered camera calibrates itself from its corner markers.
        yield from self.wait(lambda: self.app.camera.setup is not None and self.app.camera.latest() is not None)
        self.press("Menu")
        yield "settle"
        yield from self.open_editor()
        ed = self.screen()
        ed.ids.game.text = "Fublet"
        yield "settle"
        self.press("Board geometry", startswith=True)
        yield "settle"
        self.field("Length (mm)").focus = True
        yield "settle"
        self.press("Measure on the camera", startswith=True)
        for _ in range(8):
            yield "settle"
        popup = ed._measure
        setup = self.app.camera.setup
        # The touch line's two ends, where the camera shows them, tapped on the picture.
        ends = setup.camera.project(np.array([[0.0, 0.0, 0.0], [960.0, 0.0, 0.0]]))
        for px, py in ends:
            w, h = popup._frame_size
            nw, nh = popup.preview.norm_image_size
            x = popup.preview.center_x - nw / 2 + px / w * nw
            y = popup.preview.center_y - nh / 2 + (1 - py / h) * nh
            tap(*popup.preview.to_window(x, y))
            yield "settle"
        self.seen["readout"] = popup.readout.text
        self.seen["distance"] = popup.distance()
        self.screenshot("measure-two-points")
        self.press("Put distance in", startswith=True)
        yield "settle"
        self.press("Close")
        yield "settle"
        self.screenshot("measure-put")
        board = box.item("fublet", "board.json").load(ed.folder() / "board.json")
        self.seen["length_mm"] = board.length_mm
        self.seen["status"] = ed.status_text

    def import_box(self, path: Path):
        from companion import box
        yield from self.open_editor()
        ed = self.screen()
        self.seen["import_ok"] = ed.import_file(path)
        yield "settle"
        self.seen["import_status"] = ed.status_text
        self.seen["game"] = ed.game
        self.seen["placeholders"] = [s.label for s in box.still_placeholders(ed.game, ed.folder())]
        self.screenshot("imported")
        bad = OUT / "not-a-box.json"
        bad.write_text('{"format": "touchline-box", "version": 1, "game": "fublet", "files": '
                       '{"referee_call_board.json": {"calls": {"tackle": {"yellow_from": 99, "red_from": 50}}}}}')
        self.seen["bad_import_ok"] = ed.import_file(bad)
        self.seen["bad_import_status"] = ed.status_text
        hostile = OUT / "hostile-box.json"  # issue 30: once "The screen met a fault"
        hostile.write_text('{"format": "touchline-box", "version": 1, "game": "fublet", "files": {"teams/x.json\\n": '
                           + "[" * 50_000 + "]" * 50_000 + "}}")
        self.seen["hostile_import_ok"] = ed.import_file(hostile)
        self.seen["hostile_import_status"] = ed.status_text
        self.screenshot("import-refused")
        yield "settle"
        self.screenshot("import-refused")

    def result(self) -> dict:
        return {"seen": self.seen, "small_text": self.small_text, "small_targets": self.small_targets}


if __name__ == "__main__":
    run(EditorDriver, resume_last=False)
