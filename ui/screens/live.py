"""The live match screen: pitch, scoreboard, bars, the pending request, the log.

The screen keeps only UI state (what is selected, which mode a touch is in, a form being
filled) in Kivy properties; every change to the match goes through the controller, and what
is drawn comes from the controller's latest view. What differs between games (the board, the
bars, the action buttons) comes from the game's face (ui/games/).
"""

from __future__ import annotations

from datetime import UTC, datetime

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, DictProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.teams import PlayerRef, Team

from ..games import face_for
from ..widgets.keypad import Bar, DiceKeypad, button, wrap_label


class LiveScreen(Screen):
    view = ObjectProperty(None, allownone=True)
    selected = ObjectProperty(None, allownone=True)      # the figure a coach touched
    override = BooleanProperty(False)                    # touches place figures as corrections
    mode = StringProperty("")                            # a game's touch mode ("target", "wall", ...) or ""
    action = ObjectProperty(None, allownone=True)        # what is being declared, in the game's terms
    picked = ListProperty([])                            # figures picked in a mode
    form = DictProperty({})                              # a game's form being filled (a shot's tokens, ...)
    score_text = StringProperty("")
    clock_text = StringProperty("")
    phase_text = StringProperty("")
    health_text = StringProperty("")
    error_text = StringProperty("")
    warning_text = StringProperty("")
    log_text = StringProperty("")
    outcome_text = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.face = None
        self.board = None       # the ruleset's board object (what the rules speak)
        self._ticker = None
        self._bars: list[Bar] = []
        self._cards_key: tuple | None = None     # what the cards and the stepper show now
        self._stepper_key: tuple | None = None

    @property
    def controller(self):
        return App.get_running_app().controller

    # --- from the controller ---------------------------------------------------------------------
    def on_view(self, _screen, view) -> None:
        if view is None or not view.active:
            return
        if self.face is None or self.face.game != view.game:  # the view's own game, not the controller's match
            self.face = face_for(view.game)
            self.reset(rebuild=False)
            self._start_ticker()
        s = view.summary
        self._show_scoreboard(s)
        self.health_text = f"camera {view.camera}   tray {view.tray}"
        self.error_text = view.error
        self.outcome_text = str(s.get("last_outcome", "") or "")
        n = len(view.placeholders)
        self.warning_text = f"{n} box item{'s' if n != 1 else ''} still placeholder{'s' if n != 1 else ''}: " \
                            f"tap to enter them" if n else ""
        self.log_text = "\n".join(reversed(view.log[-12:]))
        self.board = view.board
        figures = self._draw_pitch(view, self.board)
        if self.selected is not None and all(f.ref != self.selected for f in figures) \
                and not self.mode:
            self.selected = None
        self.build_bars(s)
        self.refresh_reach()
        self.build_panel()
        self.build_cards()
        self.build_stepper()

    def _draw_pitch(self, view, board) -> list:
        face, pitch = self.face, self.ids.pitch
        if pitch.state is view.state and board is not None:
            return list(pitch.figures)   # show_pitch drew this view a frame ago
        pitch.geometry = face.geometry(board) if board is not None else None
        figures = face.figures(view.state) if board is not None else []
        pitch.state = view.state
        pitch.ball = face.ball(view.state, board)
        pitch.figures = figures
        return figures

    def open_lineup(self) -> None:
        """Formation presets, the last match's line-up, or the camera's view, in one more tap."""
        from ..widgets.lineup import LineupPopup
        if self.view is not None and self.view.active and self.face is not None:
            LineupPopup(self).open()

    def show_pitch(self, view) -> bool:
        """Only the pitch, for a view of the match already on screen (the app shows a moved
        figure a frame before the panels); False when the whole screen must be built."""
        shown, face = self.view, self.face
        if (shown is None or not shown.active or view is None or not view.active
                or view.path != shown.path or face is None or face.game != view.game):
            return False
        board = view.board
        if board is None:
            return False
        self._draw_pitch(view, board)
        return True

    def _show_scoreboard(self, summary: dict) -> None:
        board = self.face.scoreboard(summary, datetime.now(UTC))
        self.score_text, self.clock_text, self.phase_text = board.score, board.clock, board.phase

    def _start_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if self.face is not None and self.face.tick_s:
            self._ticker = Clock.schedule_interval(self._tick, self.face.tick_s)

    def _tick(self, _dt) -> None:
        view = self.view
        if view is None or not view.active or self.face is None:
            return
        now = datetime.now(UTC)
        self._show_scoreboard(view.summary)
        self.face.tick(self, view, now)

    def refresh_reach(self, *_args) -> None:
        pitch = self.ids.pitch
        pitch.selected = self.selected
        if self.selected is None or self.view is None or self.face is None:
            pitch.reach = []
            return
        pitch.reach = self.face.reach(self.view.ruleset, self.view.state, self.selected)

    def on_selected(self, *_args) -> None:
        self.refresh_reach()
        if self.view is not None and self.view.active:
            self.build_panel()
            self.build_cards()

    # --- what faces call ---------------------------------------------------------------------------
    def submit(self, command) -> None:
        """Send a command for the match and leave any mode."""
        self.mode, self.action, self.picked, self.selected = "", None, [], None
        self.controller.submit(command)
        self.build_panel()

    def set_mode(self, mode: str, keep_action: bool = False, keep_picked: bool = False) -> None:
        self.mode = mode
        if not keep_action:
            self.action = None
        if not keep_picked:
            self.picked = []
        self.build_panel()

    def toggle_pick(self, ref: PlayerRef) -> None:
        self.picked = [o for o in self.picked if o != ref] if ref in self.picked else [*self.picked, ref]
        self.build_panel()

    def reset(self, rebuild: bool = True) -> None:
        self.mode, self.action, self.picked, self.form = "", None, [], {}
        if rebuild:
            self.build_panel()

    cancel = reset

    # --- touches on the pitch ----------------------------------------------------------------------
    def on_figure(self, ref: PlayerRef) -> None:
        view = self.view
        if view is None or not view.active:
            return
        if self.face.on_figure(self, view, ref):
            return
        self.selected = None if self.selected == ref else ref

    def on_square(self, cell) -> None:
        view = self.view
        if view is None or not view.active:
            return
        if self.face.on_cell(self, view, cell):
            return
        if self.selected is None:
            return
        x_mm, y_mm = self.ids.pitch.geometry.point(cell)
        if self.override:
            self.controller.override(self.selected, x_mm, y_mm)
        else:
            self.controller.tap_move(self.selected, x_mm, y_mm)
        self.selected = None

    # --- the request panel ---------------------------------------------------------------------------
    def build_panel(self, *_args) -> None:
        panel = self.ids.panel
        panel.clear_widgets()
        view = self.view
        if view is None or not view.active or self.face is None:
            return
        self.ids.pitch.marked = self.face.marked(self, view)
        add = panel.add_widget
        if self.mode:
            if not self.face.mode_panel(self, view, add):
                self.mode = ""
                return self.build_panel()
            add(button("Cancel", self.cancel))
            return
        head = view.pending[0] if view.pending else None
        if head is not None and head.kind == "dice":
            for req in view.pending:
                add(wrap_label(req.text, 16, bold=True))
            pad = DiceKeypad()
            pad.bind(on_roll=lambda _w, text: self.controller.roll_keypad(self._dice_request(), text))
            add(pad)
            add(button("Software dice", lambda: self.controller.roll_software(self._dice_request())))
            return
        if head is not None and head.kind == "choice":
            add(wrap_label(head.text, 17, bold=True))
            # A long list (Football Leader's cards in a deck) in three columns, not one long scroll.
            box = GridLayout(cols=3 if len(head.options) > 6 else 1, spacing=dp(4), size_hint_y=None)
            box.bind(minimum_height=box.setter("height"))
            for option in head.options:
                box.add_widget(button(option.replace("_", " "), lambda o=option, r=head.id: self.controller.choose(r, o)))
            add(box)
            return
        if view.summary.get("result") is not None:  # the final whistle: the report comes first
            report = Button(text="Match report", font_size=sp(20), bold=True, size_hint_y=None, height=dp(56),
                            background_normal="", background_color=(0.16, 0.55, 0.28, 1))
            report.bind(on_release=lambda *_: App.get_running_app().root.get_screen("report").open_live())
            add(report)
        for req in view.pending:
            add(wrap_label(req.text, 17, bold=True))
        self.face.panel(self, view, add)

    def _dice_request(self):
        return next(r for r in self.view.pending if r.kind == "dice")

    # --- bars, player cards and the phase stepper ------------------------------------------------------
    def build_bars(self, summary: dict) -> None:
        specs = self.face.bars(summary)
        box = self.ids.bars
        if len(self._bars) != len(specs):
            box.clear_widgets()
            self._bars = [Bar() for _ in specs]
            for bar in self._bars:
                box.add_widget(bar)
        for bar, spec in zip(self._bars, specs, strict=True):
            bar.caption, bar.value, bar.maximum, bar.colour = spec.caption, spec.value, spec.maximum, spec.colour

    def build_cards(self) -> None:
        """One row of player cards per team: number and state; touching one selects him
        (to place a figure the camera has not seen, or to give him the kick-off)."""
        box = self.ids.cards
        chips = list(self.face.chips(self.view.state))
        # Most views (a figure moved) leave the cards as they were: rebuilding 22 buttons in
        # software GL costs a frame or two.
        key = (self.face.game, tuple(chips), self.selected)
        if key == self._cards_key and box.children:
            return
        self._cards_key = key
        box.clear_widgets()
        for team in (Team.HOME, Team.AWAY):
            row = BoxLayout(spacing=dp(2))
            tint = (0.25, 0.4, 0.85, 1) if team is Team.HOME else (0.8, 0.3, 0.3, 1)
            for chip in chips:
                if chip.ref.team is not team:
                    continue
                widget = Button(text=chip.text, font_size=sp(15), background_color=tint, disabled=not chip.enabled,
                                bold=chip.ref == self.selected)
                widget.bind(on_release=lambda _b, r=chip.ref: self.pick_card(r))
                row.add_widget(widget)
            box.add_widget(row)

    def pick_card(self, ref: PlayerRef) -> None:
        if self.mode:
            self.on_figure(ref)
            return
        self.selected = None if self.selected == ref else ref

    def build_stepper(self) -> None:
        box = self.ids.stepper
        phases, current = self.face.stepper(self.view.state, self.view.summary)
        key = (self.face.game, tuple(phases), current)
        if key == self._stepper_key and box.children:
            return
        self._stepper_key = key
        box.clear_widgets()
        for phase in phases:
            on = phase == current
            box.add_widget(Label(text=phase.replace("_", " "), font_size=sp(15), bold=on,
                                 color=(1, 1, 0.3, 1) if on else (0.65, 0.65, 0.65, 1)))
