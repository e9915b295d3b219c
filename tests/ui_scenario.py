"""Drive the real tablet app headless, by touches, and report what happened.

Run by tests/test_ui_app.py in a subprocess (Kivy opens one window per process):

    python tests/ui_scenario.py OUT_DIR [WIDTHxHEIGHT] [full|kill|resume|calibrate|game:GAME]

It plays: new match, opening rolls and the kick-off through the keypad and touches, a figure
moved by the manual override, a long shot declared on the tablet, the keeper's roll through
the keypad, a goal. It writes a screenshot of every screen and result.json with the rules
core's final state.
"""

from __future__ import annotations

import os

from ui_harness import MODE, SIZE, Driver, popups, run, tap, widgets

from kivy.metrics import dp  # noqa: E402 (after the harness has set up Kivy)
from kivy.uix.button import Button  # noqa: E402 (after the harness has set up Kivy)
from kivy.uix.scrollview import ScrollView  # noqa: E402

from companion.teams import PlayerRef, Team  # noqa: E402

MODE = MODE or "full"   # full / kill (dies mid-match) / resume / screens:GAME / ...
GAME_TITLES = {"fublet": "Fublet", "futboard": "Futboard", "football_leader": "Football Leader",
               "fussball_liga": "Fußball-Liga"}
H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731


class Scenario(Driver):
    def __init__(self, app) -> None:
        self.layout: list[str] = []
        self.panels: dict[str, dict] = {}
        super().__init__(app)

    def keypad(self, digits: str) -> None:
        panel = self.screen().ids.panel
        for d in digits:
            self.press(d, within=panel)
        self.press("Roll", within=panel)

    def start_match(self, title: str | None = None, settles: int = 1):
        """New match -> the game chosen by its title (else the one set up) -> Start match, then
        ``settles`` steps for the live screen to come up."""
        self.press("New match")
        yield "settle"
        if title is not None:
            self.screen().ids.game.text = title   # the spinner's choice
            yield "settle"
        self.press("Start match")
        for _ in range(settles):
            yield "settle"

    def new_match(self, title: str):
        """Home -> New match -> choose the game by its title -> Start match, with the setup
        screen (and its folded options) photographed on the way."""
        self.press("New match")
        yield "settle"
        self.screen().ids.game.text = title   # the spinner's choice
        yield "settle"
        self.screenshot("setup")
        if self.screen()._more:   # the options folded under "More options", and back
            self.press(self.screen()._more_button.text)
            yield "settle"
            self.screenshot("setup_more")
            self.press("Done")
            yield "settle"
        self.press("Start match")
        yield "settle"

    def tap_square(self, ms) -> None:
        pitch = self.screen().ids.pitch
        x, y = pitch.to_window(*pitch.ms_centre(ms))
        tap(x, y)
        self.log.append(f"tap MS {ms}")

    def letter_of(self, cell) -> str:
        """The letter the live screen's texts call a square by (ui/places.py): the one ringed
        on the board over that square."""
        pitch = self.screen().ids.pitch
        rect = tuple(pitch.geometry.cell_rect(cell))
        found = [letter for letter, r in pitch.tags if tuple(r) == rect]
        assert found, f"no letter on the board for {cell}: {pitch.tags}"
        return found[0]

    def card(self, ref: PlayerRef) -> None:
        box = self.screen().ids.cards
        row = box.children[::-1][0 if ref.team is Team.HOME else 1]
        chip = next(w for w in widgets(row) if isinstance(w, Button) and getattr(w, "ref", None) == ref)
        self.tap_widget(chip)
        self.log.append(f"card {ref}")

    def checked(self, name: str) -> None:
        # Every screen photographed is also checked: overflowing text, overlaps, small targets.
        from ui.layout_check import check
        self.layout += check(self.screen(), f"{name} ({SIZE})")
        for popup in popups():
            self.layout += check(popup, f"{name} ({SIZE}) popup")
        # Names, not ids: no text on screen says "home#7" (tests/test_ui_log_names.py for the log).
        from ui.places import has_place
        from ui.words import FILE_WORDS, PLAYER_ID
        for root in [self.screen(), *popups()]:
            for w in widgets(root):
                text = getattr(w, "text", None)
                if not isinstance(text, str) or w.opacity <= 0 or not text:
                    continue
                # Either case (PLAYER_ID's): a capital put on a rules' line ("Away#9 is ...") once
                # hid the id from the panel's naming, so it reached the screen.
                if PLAYER_ID.search(text):
                    self.layout.append(f"{name} ({SIZE}): a text names an id: {text[:80]!r}")
                # A coach's words: no file name, folder or code; no coordinate where the board
                # prints none (the box editor's and the calibration's own measures aside).
                if self.screen().name not in ("box_editor", "calibrate") and FILE_WORDS.search(text):
                    self.layout.append(f"{name} ({SIZE}): a text names a file or code: {text[:100]!r}")
                if self.screen().name == "live" and has_place(text):
                    self.layout.append(f"{name} ({SIZE}): a text speaks coordinates: {text[:100]!r}")
        # Every game's setup fits one screen: nothing to scroll to. A short window (under the live
        # screen's SHORT_DP) scrolls its options above the Start button, which stays in place.
        from ui.screens.live import SHORT_DP
        if self.screen().name == "setup" and self.screen().height >= dp(SHORT_DP):
            scroll = next(w for w in widgets(self.screen()) if isinstance(w, ScrollView))
            content = scroll.children[0]
            if content.height > scroll.height + 1:
                self.layout.append(f"{name} ({SIZE}): setup scrolls: {content.height:.0f} px of options "
                                   f"in {scroll.height:.0f} px")
        ids = getattr(self.screen(), "ids", {})
        if "panel" in ids:   # what the request panel held, for a failing test's message
            panel = ids.panel
            self.panels[name] = {"texts": [w.text for w in widgets(panel) if getattr(w, "text", "")][:30],
                                 "height": panel.height, "y": panel.y,
                                 "scroll_y": getattr(panel.parent, "scroll_y", None)}

    @property
    def state(self):
        return self.app.controller.view.state

    # --- the match ---------------------------------------------------------------------------------
    def play(self):
        yield "settle"
        if MODE == "calibrate":
            yield from self.calibrate()
            yield "done"
            return
        if MODE == "deadends":
            yield from self.dead_ends()
            yield "done"
            return
        if MODE == "baddata":
            yield from self.bad_data()
            yield "done"
            return
        if MODE.startswith("screens:"):
            yield from self.every_screen(MODE.split(":", 1)[1])
            yield "done"
            return
        if MODE.startswith("game:"):
            # Another game's scenario: tests/ui_play_<game>.py defines play(scenario), a generator
            # of "settle" steps like this one.
            import importlib
            # "game:fublet" plays ui_play_fublet.play; "game:fublet:restarts" its play_restarts.
            game, _, variant = MODE.split(":", 1)[1].partition(":")
            module = importlib.import_module(f"ui_play_{game}")
            yield from getattr(module, f"play_{variant}" if variant else "play")(self)
            yield "done"
            return
        if MODE == "clock":
            yield from self.clock_stops()
            yield "done"
            return
        if MODE == "resume":
            self.screenshot("resumed")
            assert self.screen().name == "live", self.screen().name
            yield "done"
            return
        self.screenshot("home")
        self.press("New match")
        yield "settle"
        self.screenshot("setup")
        self.press("Start match")
        yield "settle"
        # Opening roll through the keypad: Home 7, Away 3.
        self.keypad("7")
        yield "settle"
        self.keypad("3")
        yield "settle"
        assert self.state.phase.value == "board_pick", self.state.phase
        self.press("High defence line, short passing, offensive")
        yield "settle"
        self.press("Low defence line, long passing, offensive")
        yield "settle"
        assert self.state.phase.value == "kick_off"
        # Place three figures by touch: a card, then a square.
        for ref, ms in ((H(1), (1, 15)), (A(8), (29, 12)), (A(9), (30, 14))):
            self.card(ref)
            yield "settle"
            self.tap_square(ms)
            yield "settle"
        assert self.state.players[A(8)].ms == (29, 12), self.state.players[A(8)]
        self.screenshot("live_kickoff")
        self.card(A(8))
        yield "settle"
        self.press("Kick off to #8")
        yield "settle"
        assert self.state.ball.carrier == A(8), self.state.ball
        # The camera missed a run: a coach moves #8 with the manual override.
        self.press("Override")
        yield "settle"
        self.tap_square((29, 12))
        yield "settle"
        self.tap_square((12, 14))
        yield "settle"
        self.press("Override")
        yield "settle"
        assert self.state.players[A(8)].ms == (12, 14) and self.state.players[A(8)].manual
        if MODE == "kill":
            self.finish("", stop=False)
            os._exit(0)  # no clean shutdown: as if the tablet's battery died
        # A long shot declared on the tablet.
        self.press("Long Shot")
        yield "settle"
        self.press("Shoot at the near goal-line PS")
        yield "settle"
        assert self.state.declaration is not None, self.app.controller.view.error
        self.keypad("01")  # a good shot whatever the placeholder skill
        yield "settle"
        for _ in range(3):  # both coaches pass the Movement phase
            if self.state.phase.value != "movement":
                break
            self.press_pass()
            yield "settle"
        assert self.state.phase.value == "event", (self.state.phase, self.app.controller.view.error)
        self.screenshot("live_save")
        self.keypad("95")
        yield "settle"
        self.screenshot("live_goal")
        self.press("More")   # Line-up, Report and Rules, folded off the bar
        yield "settle"
        self.screenshot("live_more")
        self.screen()._more_menu.dismiss()
        yield "settle"
        self.press("Menu")
        yield "settle"
        self.press("Settings")
        yield "settle"
        self.screenshot("settings")
        yield "done"

    def to_home(self):
        """Back to Home the way a coach goes: Menu on the live screen, Back elsewhere."""
        for _ in range(4):
            if self.screen().name == "home":
                return
            self.press("Menu" if self.screen().name == "live" else "Back")
            yield "settle"
        assert self.screen().name == "home", self.screen().name

    def close_popups(self):
        for p in popups():
            p.dismiss()
        yield "settle"

    def every_screen(self, game: str):
        """Every screen a coach meets with a match of ``game`` (each checked for layout faults as
        it is photographed), then again in large text and high contrast (Settings)."""
        title = GAME_TITLES[game]
        self.screenshot("home")
        self.press("New match")
        yield "settle"
        self.screen().ids.game.text = title   # the spinner's choice
        yield "settle"
        self.tap_widget(self.screen().ids.dice)   # a dropdown open: its options as readable as the rest
        yield "settle"
        assert popups(), "the dice dropdown did not open"
        self.screenshot("setup_dropdown")
        yield from self.close_popups()
        self.screenshot("setup")
        self.press("Start match")
        for _ in range(3):
            yield "settle"
        assert self.screen().name == "live", self.screen().name
        yield from self.live_screens("")
        self.press("More")
        yield "settle"
        self.press("Report")
        yield from self.wait(lambda: self.screen().name != "report" or self.screen().report is not None
                             or self.screen().status_text.startswith("No report"))
        self.screenshot("report")
        self.press("Back")
        yield "settle"
        yield from self.to_home()
        self.screenshot("home_during_match")
        self.press("Matches and league")
        yield "settle"
        history = self.screen()
        yield from self.wait(lambda: not getattr(history, "_scanning", False))
        self.screenshot("history")
        yield from self.to_home()
        self.press("Calibrate the camera")
        yield "settle"
        self.screenshot("calibrate")
        yield from self.camera_check("")
        yield from self.to_home()
        self.press("Settings")
        yield "settle"
        self.screenshot("settings")
        self.press("Scoreboard page")
        yield "settle"
        self.screenshot("scoreboard")
        yield from self.to_home()
        self.press("Settings")
        yield "settle"
        self.press("Enter your box's values")
        yield "settle"
        self.screenshot("box_editor")
        yield from self.to_home()
        self.press("Settings")
        yield "settle"
        # The coach's look: large text and high contrast, every screen made again with them.
        self.press("Large")
        yield "settle"
        assert self.screen().name == "settings" and self.screen().text_size == "large", self.screen().name
        self.press("High contrast off")
        yield "settle"
        self.screenshot("settings_large_contrast")
        self.press("Back")
        yield "settle"
        self.screenshot("home_large_contrast")
        self.press("Back to the match: ", startswith=True)
        yield "settle"
        yield "settle"
        assert self.screen().name == "live", self.screen().name
        yield from self.live_screens("_large_contrast")
        yield from self.to_home()
        self.press("New match")
        yield "settle"
        self.screenshot("setup_large_contrast")
        yield from self.to_home()
        self.press("Calibrate the camera")
        yield "settle"
        yield from self.camera_check("_large_contrast")
        yield from self.to_home()
        self.press("Settings")
        yield "settle"
        self.press("Normal")
        yield "settle"
        self.press("High contrast on")
        yield "settle"
        assert self.screen().text_size == "normal" and not self.screen().high_contrast

    def camera_check(self, suffix: str):
        """From the calibration wizard, the camera check (no camera in this drive: it says so in
        words), and back."""
        self.press("Check the camera")
        yield "settle"
        check = self.screen()
        assert check.name == "camera_check", check.name
        yield from self.wait(lambda: not check.busy)
        assert check.summary, "the camera check says nothing"
        self.screenshot("camera_check" + suffix)
        self.press("Back")
        yield "settle"
        assert self.screen().name == "calibrate", self.screen().name

    def live_screens(self, suffix: str):
        """The live screen, its More menu, the glossary (all of it, and a bar's words), the rules."""
        self.screenshot(f"live{suffix}")
        self.press("More")
        yield "settle"
        self.screenshot(f"live_more{suffix}")
        self.press("Words and marks")
        yield "settle"
        self.screenshot(f"glossary{suffix}")
        self.press("Close")
        yield "settle"
        bars = [w for w in widgets(self.screen()) if type(w).__name__ == "Bar" and w.caption]
        if bars:
            self.tap_widget(bars[0])
            yield "settle"
            self.screenshot(f"glossary_bar{suffix}")
            self.press("Close")
            yield "settle"
        self.press("More")
        yield "settle"
        self.press("Rules")
        yield "settle"
        self.screenshot(f"reference{suffix}")
        self.press("Back")
        yield "settle"
    def clock_stops(self):
        """A Fußball-Liga match whose clock ran when the app died (tests/test_ui_app.py wrote
        its journal): it comes back stopped where the last event put it; one tap on the clock
        starts it; leaving the live screen stops it again, as a journaled event."""
        def last_stop() -> str:
            payload = self.app.controller.match.events[-1].payload
            return getattr(payload, "reason", "") if type(payload).__name__ == "ClockPaused" else ""
        assert self.screen().name == "live", self.screen().name
        view = self.app.controller.view
        assert view.clock_action == "start" and last_stop() == "the app was closed", (view.clock_action, last_stop())
        clock = self.screen().ids.clock
        assert "Tap to start" in clock.text and "paused" in clock.text, clock.text
        self.screenshot("clock_after_kill")
        self.tap_widget(clock)
        yield "settle"
        assert self.app.controller.view.clock_action == "stop", self.app.controller.view.error
        assert "Tap to stop" in clock.text, clock.text
        self.screenshot("clock_running")
        self.press("Menu")
        yield "settle"
        assert self.screen().name == "home"
        assert last_stop() == "the live screen was left", last_stop()
        assert self.app.root.get_screen("live")._ticker is None, "the live screen's timer runs while it is hidden"
        self.press("Back to the match: ", startswith=True)
        yield "settle"
        assert self.screen().name == "live" and self.app.controller.view.clock_action == "start"
        self.screenshot("clock_back")

    def panel_texts(self) -> list[str]:
        return [w.text for w in widgets(self.screen().ids.panel) if hasattr(w, "text")]

    def dead_ends(self):
        """Each dead end a coach met, tried the way he met it."""
        from companion.teams import PlayerRef, Team
        assert self.screen().name == "home"
        resume = self.any_button("No match to resume yet")
        assert resume.disabled, "the resume button looks enabled with no match to resume"
        self.tap_widget(resume)
        yield "settle"
        assert self.screen().name == "home", self.screen().name
        self.screenshot("home_nothing_to_resume")
        # Undo right after Start: nothing to undo, the match stays.
        yield from self.new_match("Fublet")
        assert self.screen().name == "live"
        undo = self.any_button("Undo")
        assert undo.disabled, "Undo is offered right after Start"
        self.tap_widget(undo)
        yield "settle"
        assert self.state is not None and self.app.controller.view.summary.teams[0], "the match was undone"
        # A refused keypad roll (two faces for one d10) is said without moving the keypad.
        texts = " ".join(self.panel_texts())
        assert "The keypad fills: Home (Touchline Rovers)" in texts, texts
        pad = next(w for w in widgets(self.screen().ids.panel) if type(w).__name__ == "DiceKeypad")
        where = pad.to_window(pad.x, pad.y)
        self.keypad("77")
        yield "settle"
        assert self.screen().error_text, "the refusal is not shown"
        pad = next(w for w in widgets(self.screen().ids.panel) if type(w).__name__ == "DiceKeypad")
        assert pad.to_window(pad.x, pad.y) == where, "the refusal moved the keypad"
        self.screenshot("live_refused_roll")
        self.keypad("7")
        yield "settle"
        assert self.app.controller.view.log[-1].startswith("Touchline Rovers rolled"), self.app.controller.view.log
        # A figure on the Fublet pitch, then a Football Leader match: the old figures must not
        # be drawn on the new board.
        self.card(PlayerRef(Team.HOME, 1))
        yield "settle"
        self.tap_square((1, 15))
        yield "settle"
        assert self.state.players[PlayerRef(Team.HOME, 1)].ms == (1, 15)
        self.press("Menu")
        yield "settle"
        home = self.any_button("Back to the match: ", startswith=True)
        assert "Touchline Rovers 0-0 Harbour Athletic" in home.text or "Harbour Athletic 0-0" in home.text, home.text
        self.screenshot("home_back_to_match")
        yield from self.start_match("Football Leader", settles=4)
        assert self.screen().name == "live" and self.app.controller.match.ruleset.game == "football_leader"
        assert not self.app.faults, self.app.faults
        self.screenshot("live_football_leader_after_fublet")
        # Futboard's default line-up on the pitch, then Football Leader again.
        self.press("Menu")
        yield "settle"
        yield from self.start_match("Futboard", settles=4)
        self.press("Home: default line-up")
        yield "settle"
        assert self.screen().ids.pitch.figures, "Futboard's line-up is not on the pitch"
        self.press("Menu")
        yield "settle"
        yield from self.start_match("Football Leader", settles=4)
        assert self.app.controller.match.ruleset.game == "football_leader" and not self.app.faults, self.app.faults
        # Calibrate with no camera: no white box, words that say what to do.
        self.press("Menu")
        yield "settle"
        self.press("Calibrate the camera")
        yield "settle"
        yield "settle"
        cal = self.screen()
        assert cal.name == "calibrate" and cal.ids.preview.opacity == 0, "an empty picture is drawn"
        assert "choose the camera" in cal.hint, cal.hint
        self.screenshot("calibrate_no_camera")
        self.press("Find the corner markers")
        yield "settle"
        assert "choose the camera" in cal.verdict, cal.verdict

    def bad_data(self):
        """Start with a data folder the app cannot write: the live screen says why and what to
        do, and offers the way back."""
        yield from self.start_match(settles=3)
        assert self.screen().name == "live"
        texts = " ".join(self.panel_texts())
        assert "Cannot write to the data folder" in texts and "--data-dir" in texts, texts
        self.screenshot("live_bad_data_folder")
        self.press("New match", within=self.screen().ids.panel)
        yield "settle"
        assert self.screen().name == "setup"

    def calibrate(self):
        """The wizard on the demo camera, before any match: corner markers first, then four
        tapped corners."""
        import numpy as np

        self.press("Calibrate the camera")
        yield "settle"
        self.screen().ids.camera.text = "Demo table"   # the spinner's choice
        yield "settle"
        yield from self.wait(lambda: self.app.camera.latest() is not None  # the rendered camera's first frames
                             and self.screen().ids.preview.texture is not None)
        self.press("Find the corner markers")
        yield "settle"
        verdict = self.screen().verdict
        assert self.screen().verdict_ok and verdict.startswith(("Good", "Usable")), verdict
        self.screenshot("calibrate_markers")
        yield from self.lists_open_below()
        self.press("Save")
        yield "settle"
        assert self.app.camera.calibration_path.exists()
        # Tapped corners: where the rendered camera puts the pitch's corners.
        board = self.app.camera.table.board
        cam = self.app.camera.table.scene.camera
        corners = np.array([[0, 0, 0], [board.length_mm, 0, 0], [board.length_mm, board.width_mm, 0],
                            [0, board.width_mm, 0]], float)
        pixels = cam.project(corners)
        self.press("Tap the pitch corners")
        yield "settle"
        preview = self.screen().ids.preview
        w, h = self.screen()._frame_size
        nw, nh = preview.norm_image_size
        for px, py in pixels:
            x = preview.center_x - nw / 2 + px / w * nw
            y = preview.center_y - nh / 2 + (1 - py / h) * nh
            wx, wy = preview.to_window(x, y)
            tap(wx, wy)
            yield "settle"
        verdict = self.screen().verdict
        assert self.screen().verdict_ok, verdict
        self.screenshot("calibrate_taps")
        self.log.append(f"verdict {verdict}")
        # The camera check: the picture with each marker's reading, and what to do in words.
        self.press("Check the camera")
        yield "settle"
        check = self.screen()
        assert check.name == "camera_check", check.name
        yield from self.wait(lambda: not check.busy and check.has_picture)
        assert check.summary.startswith("Markers: ") and " read" in check.summary, check.summary
        assert check.advice, "no advice in words"
        self.log.append(f"check {check.summary} / {check.advice}")
        self.screenshot("camera_check")
        self.press("Back")
        yield "settle"
        assert self.screen().name == "calibrate"

    def lists_open_below(self):
        """Under a long verdict the Camera and Board choices stay on the window, and each one's
        list opens below it, as every list in the app (a verdict that pushed them up made the
        lists open wherever they had been pushed)."""
        from kivy.core.window import Window
        for name in ("camera", "board"):
            spinner = self.screen().ids[name]
            _x, y = spinner.to_window(spinner.x, spinner.y)
            assert 0 <= y and y + spinner.height <= Window.height, f"{name} is off the window: {y:.0f}"
            self.tap_widget(spinner)
            yield "settle"
            (menu,) = popups()
            assert round(menu.top) == round(y), f"{name}'s list opens at {menu.y:.0f}..{menu.top:.0f}, its button at {y:.0f}"
            menu.dismiss()
            yield from self.wait(lambda: not popups())   # a list goes a moment after it is dismissed

    def press_pass(self) -> None:
        b = next(w for w in widgets(self.screen()) if isinstance(w, Button) and w.text.endswith(": pass")
                 and not w.disabled)
        self.scroll_to(b)
        self.tap_widget(b)
        self.log.append(f"press {b.text}")

    def result(self) -> dict:
        view = self.app.controller.view
        summary = view.ruleset.summary(view.state) if view.active else {}   # the game's JSON, as the report has it
        return {"faults": list(self.app.faults), "layout": self.layout + self.steady.faults, "panels": self.panels,
                "summary": summary, "journal": view.path}


if __name__ == "__main__":
    run(Scenario)
