"""The live match screen: pitch, scoreboard, bars, the pending request, the log.

The screen keeps only UI state (what is selected, which mode a touch is in, a form being
filled) in Kivy properties; every change to the match goes through the controller, and what
is drawn comes from the controller's latest view. What differs between games (the board, the
bars, the action buttons) comes from the game's face (ui/games/); a panel's own pieces from
its module in ui/widgets/ (steady, dice_panel, proposals, club_confirm, rows, more_menu, ...).
"""

from __future__ import annotations

from datetime import UTC, datetime

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.teams import PlayerRef, Team
from companion.view import Summary

from ..controller import NO_MATCH
from ..games import face_for
from .rule_links import fill_rule_links, open_rules
from ..games.base import TEAM_BAR
from ..looks.base import BallMark
from .. import theme
from ..kits import match_kits
from ..widgets.club_confirm import add_club_confirm
from ..widgets.dice_panel import add_dice_panel
from ..widgets.folded import fold_line
from ..widgets.keypad import button, two_columns, wrap_label
from ..widgets.proposals import add_proposals
from ..widgets.steady import PanelHold, hold_still
from ..places import NoPlaces, Tags, has_place, places_for
from ..glossary import bar_terms, card_marks, marks_line, terms_in
from ..widgets.scoreboard_row import clock_markup, health_line
from ..widgets.rows import card_rows, stepper_rows  # also the classes live.kv's rows are made of
from ..widgets import step_button  # noqa: F401  (live.kv's Undo and Redo)
from ..widgets.teamtag import ScoreLabel, score_markup, team_line  # noqa: F401 (ScoreLabel: live.kv)
from ..words import PLAYER_ID, Names, names_for, option_name, team_name, team_names


def choice_text(summary: Summary, option: str, names: Names | None = None) -> str:
    """A choice's button: team names for "home"/"away" (the toss), a figure by its team,
    number and name ("home#7"), words for ids."""
    if option in ("home", "away"):
        return team_name(summary, option)
    if PLAYER_ID.fullmatch(option):
        return (names or Names.of_summary(summary)).player(option)
    return option_name(option)


NARROW_DP = 1100   # below this width the bars under the pitch get a row of their own (1024 px: their own row too)
BAR_DP = 120      # a bar's least width under the board (five Fussball-Liga bars take a row of their own)
SHORT_DP = 700     # below this height the stepper goes and the keypad is compact (10" tablets: ~600 dp)


class LiveScreen(PanelHold, Screen):
    """The screen; its request panel holds still under a finger (``PanelHold``, ui/widgets/steady.py)."""

    view = ObjectProperty(None, allownone=True)
    selected = ObjectProperty(None, allownone=True)      # the figure a coach touched
    override = BooleanProperty(False)                    # touches place figures as corrections
    camera_on = BooleanProperty(True)                    # the camera's proposals are taken
    mode = StringProperty("")                            # a game's touch mode ("target", "wall", ...) or ""
    action = ObjectProperty(None, allownone=True)        # what is being declared, in the game's terms
    picked = ListProperty([])                            # figures picked in a mode
    form = DictProperty({})                              # a game's form being filled (a shot's tokens, ...)
    score_text = StringProperty("")
    clock_text = StringProperty("")
    clock_action = StringProperty("")                    # the view's: "start", "stop" or ""
    clock_markup = StringProperty("")                    # the clock's text and what a tap on it does
    phase_text = StringProperty("")
    health_text = StringProperty("")
    error_text = StringProperty("")
    warning_text = StringProperty("")
    log_text = StringProperty("")
    outcome_text = StringProperty("")
    outcome_floor = NumericProperty(0)                   # the outcome line's height so far in this step
    side_kits = DictProperty({})                         # "home"/"away" -> theme.Kit: the box's team colours
    # The rows drawn from data (ui/widgets/rows.py, their items declared in live.kv).
    home_cards = ListProperty([])                        # the player cards, as plain dicts
    away_cards = ListProperty([])
    steps = ListProperty([])                             # the phase stepper
    bars = ListProperty([])                              # the bars under the pitch
    narrow = BooleanProperty(False)                      # a window under NARROW_DP wide (live.kv)
    bars_place = StringProperty("row")                   # "row" (beside the buttons), "side" (under the board), "top"
    short = BooleanProperty(False)                       # a window under SHORT_DP high: no stepper, a compact keypad
    final = BooleanProperty(False)                       # the final whistle blew: "Match report" at the foot

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.face = None
        self.kits = dict(theme.DEFAULT_KITS)   # Team -> theme.Kit
        self._kits_key: tuple | None = None
        self.names = Names({}, {})   # the figures' names, for texts the rules write with ids
        self.places = NoPlaces()     # the board's places, for texts the rules write with coordinates
        self._tags_base = self._tags = Tags()
        self.board = None       # the ruleset's board object (what the rules speak)
        self._ticker = None
        self._panel_key: tuple | None = None
        self._unfolded: set[str] = set()   # the requests a coach opened whole in a narrow window (this question)
        self.watch_panel_rows()
        self._expecting = False    # a form waits for the camera to see where a figure goes
        self._chips: dict = {}     # each card's text and whether he can be picked
        self._glossary = None
        self._expected = 0

    @property
    def controller(self):
        return App.get_running_app().controller

    # --- from the controller ---------------------------------------------------------------------
    def on_view(self, _screen, view) -> None:
        if view is None:
            return
        self.final = bool(view.active and view.summary.result is not None)
        if not view.active:
            self.show_no_match(view)
            return
        if self.face is None or self.face.game != view.game:  # the view's own game, not the controller's match
            self.face = face_for(view.game)
            self.reset(rebuild=False)
            self.selected = None
            self._start_ticker()
        if view.expected != self._expected:   # the camera saw the move a form waited for: it is sent
            self._expected, self._expecting = view.expected, False
            self.reset(rebuild=False)
            self.selected = None
        s = view.summary
        self._paint_kits(view.game, s)
        self._show_scoreboard(s)
        self.health_text = health_line(view)
        self.names = names_for(view.ruleset, view.state)
        # The places the texts name: letters here, ringed on the board (ui/places.py).
        self.places, self._tags_base = places_for(view.game, view.board), Tags()
        self._tags = self._tags_base
        error = self.say(view.error)   # a refusal names the figure by its name too
        self.error_text = error[:1].upper() + error[1:]
        same_step = self.panel_answers(self.step_key())
        self.outcome_floor = self.ids.outcome.height if same_step and self.outcome_text else 0
        self.outcome_text = self.say(s.last_outcome)
        n = len(view.placeholders)
        # In a coach's words: values of his box the app still guesses (not "placeholders").
        self.warning_text = (f"{n} value{'s' if n != 1 else ''} of your box still guessed: "
                             f"tap to enter {'them' if n != 1 else 'it'}") if n else ""
        # Every line by name, also those a device's notice wrote with an id.
        # ... and every place in words (a device's notice speaks coordinates too).
        self.log_text = "\n".join(self.places.in_words(self.names.line(line)) for line in reversed(view.log[-12:]))
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

    def on_size(self, *_args) -> None:
        self.narrow = self.width < dp(NARROW_DP)
        self.short = self.height < dp(SHORT_DP)
        self.place_bars()

    def on_short(self, *_args) -> None:
        if self.view is not None and self.face is not None and self.view.active:
            self.build_panel()   # the keypad: compact or whole

    def on_narrow(self, _screen, narrow: bool) -> None:
        """A narrow window: the stepper's shares by the longest word, the clock's short hint,
        the panel's buttons two to a row and the bars out of the buttons' row (``place_bars``);
        a wide one puts them back."""
        if self.view is not None and self.face is not None and self.view.active:
            self.build_stepper()   # its shares: whole names, or their longest words
            self._show_scoreboard(self.view.summary)   # the clock's hint: short or whole
            self.build_panel()   # its buttons: one or two to a row
        self.place_bars()

    def on_bars(self, *_args) -> None:
        self.place_bars()

    def place_bars(self) -> None:
        """The bars' row: beside the buttons in a wide window; in a narrow one under the board
        while each bar keeps BAR_DP, else a whole row above the buttons (one RecycleView moved:
        a tap finds each bar once)."""
        if "bars" not in self.ids:
            return   # before kv built the screen
        side = self.width * 0.58 / max(1, len(self.bars)) >= dp(BAR_DP)
        self.bars_place = ("side" if side else "top") if self.narrow else "row"
        bars = self.ids.bars
        target = {"side": self.ids.bars_side, "top": self.ids.bars_top, "row": self.ids.bar_row}[self.bars_place]
        if bars.parent is not target:
            bars.parent.remove_widget(bars)
            target.add_widget(bars, index=len(target.children))   # first from the left

    def on_pre_enter(self, *_args) -> None:
        self._kits_key = None   # back from the box editor: the colours may be new
        app = App.get_running_app()
        app.bind(club_state=self._club_news)
        self._club_news(app, app.club_state)   # what the club's thread said while the coach was elsewhere

    def on_enter(self, *_args) -> None:
        self._start_ticker()
        if self.short:   # back in a short window (from Settings, the report): the keypad to the finger
            Clock.schedule_once(self.show_keypad)

    def on_leave(self, *_args) -> None:
        """Nobody sees the clocks any more: they stop (journaled), and no timer decides anything
        while the coach is elsewhere; back here, one tap on the clock starts them again."""
        App.get_running_app().unbind(club_state=self._club_news)
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if self.view is not None and self.view.active and self.view.clock_action == "stop":
            self.controller.stop_clocks("the live screen was left")

    def tap_clock(self) -> None:
        action = self.view.clock_action if self.view is not None else ""
        if action == "start":
            self.controller.start_clocks()
        elif action == "stop":
            self.controller.stop_clocks("stopped on the tablet")

    def _paint_kits(self, game: str, summary: Summary) -> None:
        """The two sides' kits from the box's colours, read again when the teams change."""
        key = (game, tuple(sorted(team_names(summary).items())))
        if key == self._kits_key:
            return
        self._kits_key = key
        folder = App.get_running_app().components_dir(game)
        self.kits = match_kits(game, folder if folder.is_dir() else None, summary)
        self.side_kits = {team.value: kit for team, kit in self.kits.items()}
        self.ids.pitch.kits = self.kits

    def show_no_match(self, view) -> None:
        """No match is open (none yet, or starting or resuming one failed): say why and
        offer the ways on, never an empty screen."""
        self.face = None
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        self.selected = None
        self.mode, self.action, self.picked, self.form = "", None, [], {}
        pitch = self.ids.pitch
        pitch.figures, pitch.reach, pitch.marked, pitch.ball = [], [], [], BallMark()
        pitch.tints = []
        pitch.geometry, pitch.state = None, None
        self.score_text, self.clock_text, self.phase_text = "No match open", "", ""
        self.outcome_text = self.warning_text = self.log_text = ""
        self.error_text = ""
        self.health_text = health_line(view)
        self.home_cards, self.away_cards, self.steps, self.bars = [], [], [], []
        panel = self.ids.panel
        panel.clear_widgets()
        self.ids.proposals.clear_widgets()
        fill_rule_links(self, None)
        panel.add_widget(wrap_label(view.error or NO_MATCH, 20, colour=(1, 0.75, 0.6, 1), bold=True))
        app = App.get_running_app()
        panel.add_widget(button("New match", lambda: app.show("setup")))
        panel.add_widget(button("Home", lambda: app.show("home")))

    def _draw_pitch(self, view, board) -> list:
        face, pitch = self.face, self.ids.pitch
        if pitch.state is view.state and board is not None:
            return list(pitch.figures)   # show_pitch drew this view a frame ago
        geometry = face.geometry(board) if board is not None else None
        if geometry is not pitch.geometry:
            # Another board (a new match of another game): nothing of the old one may be
            # drawn on it, not for a frame.
            pitch.figures, pitch.reach, pitch.marked, pitch.ball = [], [], [], BallMark()
            pitch.tints = []
        pitch.geometry = geometry
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

    def open_more(self, anchor) -> None:
        """The bar's secondary actions (Line-up, Report, Rules) in a menu above its More button."""
        from ..widgets.more_menu import more_menu

        self._more_menu = more_menu(self, anchor)
        self._more_menu.open(anchor)

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

    def _show_scoreboard(self, summary: Summary) -> None:
        board = self.face.scoreboard(summary, datetime.now(UTC))
        self.score_text = score_markup(board.score, summary, self.side_kits)
        self.clock_text, self.phase_text = board.clock, board.phase[:1].upper() + board.phase[1:]
        self.clock_action = self.view.clock_action if self.view is not None else ""
        self.clock_markup = clock_markup(board.clock, self.clock_action, self.narrow)

    def on_camera_on(self, *_args) -> None:
        self.controller.enable_vision(self.camera_on)

    def time_up(self) -> None:
        """A game clock ran out: a sound as well as the screen (nobody watches a tablet while
        moving figures), unless muted in Settings."""
        app = App.get_running_app()
        if app.match_settings.get("sound", "on") != "off":
            from ..sound import play_time_up
            play_time_up(self.controller.data_dir)

    def stop(self) -> None:
        """The screen is put away (the app makes its screens again): its clock stops ticking."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    def _start_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        # Only while this screen is shown: a time-up is proposed only where a coach sees it.
        shown = self.manager is not None and self.manager.current == self.name
        if self.face is not None and self.face.tick_s and shown:
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
            pitch.reach, pitch.reach_kinds = [], {}
            return
        # Where he may go, each cell in the colour of what a tap there would mean.
        targets = self.face.targets(self.view.ruleset, self.view.state, self.selected)
        pitch.reach_kinds = dict(targets)
        pitch.reach = list(targets)

    def on_selected(self, *_args) -> None:
        self.refresh_reach()
        if self.view is not None and self.view.active:
            self.build_panel()
            self.build_cards()

    def open_rules(self) -> None:
        open_rules(self.view)

    # --- what faces call ---------------------------------------------------------------------------
    def submit(self, command) -> None:
        """Send a command for the match and leave any mode."""
        self.mode, self.action, self.picked, self.selected = "", None, [], None
        self.controller.submit(command)
        self.build_panel()

    def expect_move(self, expectation) -> None:
        """The form waits only for where a figure goes: the camera may finish it (ui/autoflow.py)."""
        self._expecting = True
        self.controller.expect_move(expectation)

    def on_mode(self, *_args) -> None:
        if not self.mode and self._expecting:   # the form closed: the camera no longer finishes it
            self._expecting = False
            self.controller.expect_move(None)

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
        before = self.rows_to_hold(self.step_key())
        # The panel's places lettered after those of the outcome and the refusal.
        self._tags = Tags(dict(self._tags_base.letters))
        self._fill_panel()
        if self.narrow:   # 800 px: the buttons two to a row, more of them in the panel's view
            two_columns(panel)
        self._add_proposals()
        hold_still(panel, before)
        self.ids.pitch.tags = self._tags.marks()

    def _add_proposals(self) -> None:
        """A doubtful camera move, asked under the panel (ui/widgets/proposals.py)."""
        box = self.ids.proposals
        box.clear_widgets()
        view = self.view
        if view is not None and view.active and self.face is not None:
            add_proposals(view.proposals, self.controller, self._naming(box.add_widget))

    def step_key(self) -> tuple:
        """One step of the coach's: the question asked (and whose), the touch mode and what is
        picked or filled in it, the figure selected. Within one step the panel holds still."""
        view = self.view
        head = view.pending[0] if view is not None and view.active and view.pending else None
        return ((head.id, head.team) if head is not None else None, self.mode, str(self.action),
                tuple(self.picked), str(dict(self.form)), self.selected, tuple(sorted(self._unfolded)))

    def say(self, text: str) -> str:
        """A rules' text for the live screen: figures by name, places by their letter on the
        board."""
        return self.places.on_board(self.names.line(text), self._tags)

    def _fill_panel(self) -> None:
        panel = self.ids.panel
        panel.clear_widgets()
        view = self.view
        if view is None or not view.active or self.face is None:
            return
        self.ids.pitch.marked = self.face.marked(self, view)
        self.ids.pitch.tints = self.face.tints(self, view)
        add = panel.add_widget
        head = view.pending[0] if view.pending else None
        key = (head.id if head is not None else None, self.mode)
        new_question = key != self._panel_key
        if new_question:   # a new question: its panel is read from the top
            self._panel_key = key
            self._unfolded.clear()
            self.release_panel()
            self.ids.panel_scroll.scroll_y = 1
        fill_rule_links(self, None if self.mode else view)   # the request's and the refusal's sections
        add = self._naming(add)
        text, _active = self._chips.get(self.selected, ("", True)) if self.selected is not None else ("", True)
        if text and marks_line(view.game, text.replace("\nplace", "")):   # his card's marks, in words
            add(wrap_label(self.card_heading(self.selected, text.replace("\nplace", "")), theme.SMALL_SP,
                           colour=theme.MUTED))
        if self.mode:
            if not self.face.mode_panel(self, view, add):
                self.mode = ""
                return self._fill_panel()
            if view.expecting is not None and view.camera == "ok":
                add(wrap_label(f"Or move #{view.expecting.number} there on the board: the camera takes it.",
                               theme.SMALL_SP, colour=theme.ACCENT))
            add(button("Cancel", self.cancel))
            return
        if head is not None and head.kind == "dice":
            add_dice_panel(self, view, add, scroll_to_pad=new_question and self.short)
            return
        if head is not None and head.kind == "choice":
            add(self.request_line(head, 20, bold=True))
            # A long list (Football Leader's cards in a deck) in three columns, not one long scroll.
            box = GridLayout(cols=3 if len(head.options) > 6 else 1, spacing=dp(4), size_hint_y=None)
            box.bind(minimum_height=box.setter("height"))
            for option in head.options:
                own = self.face.choice_button(self, view, head, option)
                box.add_widget(own if own is not None else button(
                    choice_text(view.summary, option, self.names),
                    lambda o=option, r=head.id: self.controller.choose(r, o)))
            add(box)
            return
        if view.summary.result is not None:  # the final whistle ("Match report" waits at the column's foot)
            add_club_confirm(view, add)
        for i, req in enumerate(view.pending):
            line = self.request_line(req, theme.SMALL_SP, bold=i == 0)
            if self.narrow:   # 800 px: two lines of each, the answers in view (ui/widgets/folded.py)
                fold_line(line, req.id not in self._unfolded, lambda r=req.id: self.unfold(r))
            add(line)
        self.face.panel(self, view, add)

    def unfold(self, request_id: str) -> None:
        """A folded request touched: shown whole (or folded again), the panel built anew (its
        step changes: nothing is held in the room of the other)."""
        self._unfolded ^= {request_id}
        self.build_panel()

    def _club_news(self, _app, _state) -> None:
        """The club's confirmation moved on: the final whistle's panel says it."""
        if self.view is not None and self.view.active and self.view.summary.result is not None:
            self.build_panel()

    def _naming(self, add):
        """``add`` for the panel, saying the figures a face's texts name by id by their names
        ("away#11 is in his defensive field" -> "Estrela FC #11 Otavio is ...")."""
        def named_add(widget) -> None:
            for w in widget.walk(restrict=True):
                text = getattr(w, "text", None)
                if isinstance(text, str) and "#" in text and PLAYER_ID.search(text):
                    w.text = self.names.line(text)
                if isinstance(text, str) and has_place(w.text):
                    w.text = self.places.on_board(w.text, self._tags)
            add(widget)
        return named_add

    def request_line(self, req, size: float, bold: bool):
        """A pending request's text, on its side's shirt when it is one side's to answer."""
        text = self.say(req.text)
        if req.team is not None and req.team in self.kits:
            return team_line(text, self.kits[req.team], size, bold=bold)
        return wrap_label(text, size, bold=bold)

    # --- bars, player cards and the phase stepper: lists handed to kv as data ----------------------
    def build_bars(self, summary: Summary) -> None:
        # A side's bar (its MP) in its shirt, the caption outlined to read on it.
        shirts = {tuple(TEAM_BAR[team]): kit for team, kit in self.kits.items()}
        self.bars = [{"caption": b.caption, "value": b.value, "maximum": b.maximum,
                      "colour": list(shirts[tuple(b.colour)].shirt if tuple(b.colour) in shirts else b.colour)}
                     for b in self.face.bars(summary)]

    def build_cards(self) -> None:
        """One row of player cards per team: number and state; touching one selects him
        (to place a figure the camera has not seen, or to give him the kick-off). A player
        who cannot be picked (sent off, replaced) keeps a readable card; touching it says what
        its marks mean."""
        state = self.view.state
        drawn = {f.ref for f in self.face.figures(state)} if self.view.board is not None else set()
        by_team, self._chips = card_rows(self.face.chips(state), drawn, self.kits, self.selected)
        self.home_cards, self.away_cards = by_team[Team.HOME], by_team[Team.AWAY]

    def pick_card(self, ref: PlayerRef) -> None:
        text, active = self._chips.get(ref, ("", True))
        if not active:   # sent off or replaced: what his card says, in words
            self.open_glossary(card_marks(self.face.game, text), heading=self.card_heading(ref, text))
            return
        if self.mode:
            self.on_figure(ref)
            return
        self.selected = None if self.selected == ref else ref

    def card_heading(self, ref: PlayerRef, text: str) -> str:
        said = marks_line(self.face.game, text) if self.face is not None else ""
        name = self.names.player(str(ref))
        return f"{name}: {said}" if said else name

    def open_report(self) -> None:
        """The final whistle's report, opened from the match (Back returns here)."""
        App.get_running_app().root.get_screen("report").open_live()

    # --- what the words mean ------------------------------------------------------------------------
    def open_glossary(self, focus=None, heading: str = "") -> None:
        """The game's words and marks; those on the screen now first (PS, MS, MP, ...)."""
        from ..widgets.glossary import GlossaryPopup

        view = self.view
        if view is None or not view.active or self.face is None:
            return
        if focus is None:
            texts = [getattr(w, "text", "") for w in self.ids.panel.walk(restrict=True)]
            texts += [self.outcome_text, self.error_text, self.phase_text, *(b["caption"] for b in self.bars)]
            focus = terms_in(view.game, *(t for t in texts if isinstance(t, str)))
        self._glossary = GlossaryPopup(view.game, focus, heading)
        self._glossary.open()

    def explain_bar(self, caption: str) -> None:
        """A tap on a bar: what it counts."""
        if self.face is not None:
            self.open_glossary(bar_terms(self.face.game, caption))

    def build_stepper(self) -> None:
        phases, current = self.face.stepper(self.view.state, self.view.summary)
        self.steps = stepper_rows(phases, current, self.narrow)
