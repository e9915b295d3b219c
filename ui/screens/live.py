"""The live match screen: pitch, scoreboard, bars, the pending request, the log.

The screen keeps only UI state (what is selected, what is being declared) in Kivy
properties; every change to the match goes through the controller, and what is drawn comes
from the controller's latest view.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.fublet import commands as c
from companion.fublet.components import Action
from companion.fublet.model import Phase, ShotPlan
from companion.teams import PlayerRef, Team

from ..widgets.keypad import TOUCH, DiceKeypad, button

PHASES = ("declaration", "outcome", "movement", "event", "tactical_movement")
PS_ACTIONS = (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS, Action.FINALIZATION, Action.LONG_SHOT)


def wrap_label(text: str, size: float = 16, colour=(1, 1, 1, 1), bold: bool = False) -> Label:
    lab = Label(text=text, font_size=sp(size), color=colour, bold=bold, size_hint_y=None, halign="left",
                valign="middle")
    lab.bind(width=lambda *_: setattr(lab, "text_size", (lab.width, None)),
             texture_size=lambda *_: setattr(lab, "height", max(lab.texture_size[1] + dp(6), dp(24))))
    return lab


class LiveScreen(Screen):
    view = ObjectProperty(None, allownone=True)
    selected = ObjectProperty(None, allownone=True)      # the figure a coach touched
    override = BooleanProperty(False)                    # touches place figures as corrections
    mode = StringProperty("")                            # "", "target", "opponents", "taker", "reach", "wall", "sub"
    action = ObjectProperty(None, allownone=True)        # the action being declared
    opponents = ListProperty([])                         # speed dribbling: defenders challenged
    picked = ListProperty([])                            # figures picked for a wall or who reached the ball
    shot = DictProperty({"five": 4, "ten": 0, "save": 5, "chip": False, "curved": False, "dive": -1})
    score_text = StringProperty("")
    clock_text = StringProperty("")
    phase_text = StringProperty("")
    health_text = StringProperty("")
    error_text = StringProperty("")
    warning_text = StringProperty("")
    log_text = StringProperty("")
    hint_text = StringProperty("")
    outcome_text = StringProperty("")
    mp_home = NumericProperty(0)
    mp_away = NumericProperty(0)
    pace = NumericProperty(0)

    @property
    def controller(self):
        return App.get_running_app().controller

    # --- from the controller ---------------------------------------------------------------------
    def on_view(self, _screen, view) -> None:
        if view is None or not view.active:
            return
        s = view.summary
        teams = s.get("teams", {})
        score = s.get("score", {})
        shoot = s.get("shootout") or {}
        extra = f"  ({shoot.get('home', 0)}-{shoot.get('away', 0)} pens)" if shoot else ""
        self.score_text = (f"{teams.get('home', 'Home')}  {score.get('home', 0)} - {score.get('away', 0)}  "
                           f"{teams.get('away', 'Away')}{extra}")
        self.clock_text = f"{s.get('match_minute', 0)}'  {s.get('half', '')}"
        rnd = s.get("round", 0)
        kind = " (transition)" if s.get("round_kind") == "transition" else ""
        self.phase_text = f"Round {rnd}{kind}: {s.get('phase', '').replace('_', ' ')}"
        self.health_text = f"camera {view.camera}   tray {view.tray}"
        self.error_text = view.error
        self.outcome_text = s.get("last_outcome", "")
        self.warning_text = ("Placeholder box data in use (Settings tells where to enter your box's values): "
                             + "; ".join(p.split(":")[0] for p in view.placeholders)) if view.placeholders else ""
        self.log_text = "\n".join(reversed(view.log[-12:]))
        mp = s.get("mp", {})
        self.mp_home, self.mp_away = mp.get("home", 0), mp.get("away", 0)
        self.pace = s.get("round_pace", 0)
        pitch = self.ids.pitch
        pitch.board = App.get_running_app().controller.match.ruleset.board(view.state)
        pitch.state = view.state
        if self.selected is not None and not view.state.players[self.selected].on_pitch:
            self.selected = None
        self.refresh_reach()
        self.build_panel()
        self.build_cards()
        self.build_stepper()

    def refresh_reach(self, *_args) -> None:
        pitch = self.ids.pitch
        pitch.selected = self.selected
        if self.selected is None or self.view is None:
            pitch.reach = []
            return
        rules = self.controller.match.ruleset
        pitch.reach = sorted(rules.reachable(self.view.state, self.selected))

    def on_selected(self, *_args) -> None:
        self.refresh_reach()
        if self.view is not None and self.view.active:
            self.build_panel()

    # --- touches on the pitch ----------------------------------------------------------------------
    def on_figure(self, ref: PlayerRef) -> None:
        view = self.view
        if view is None:
            return
        if self.mode == "opponents":
            if ref.team is not view.state.attacking:
                self.opponents = [o for o in self.opponents if o != ref] if ref in self.opponents \
                    else self.opponents + [ref]
                self.build_panel()
            return
        if self.mode in ("wall", "reach"):
            self.picked = [o for o in self.picked if o != ref] if ref in self.picked else self.picked + [ref]
            self.build_panel()
            return
        if self.mode == "taker":
            self.mode = ""
            self.controller.submit(c.ChooseTaker(ref))
            return
        if self.mode == "sub_off":
            self.picked = [ref]
            self.mode = "sub_on"
            self.build_panel()
            return
        if self.mode == "target" and self.action in (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS):
            ms = view.state.players[ref].ms
            if ms is not None:
                self.on_square(ms)
            return
        self.selected = None if self.selected == ref else ref

    def on_square(self, ms: tuple[int, int]) -> None:
        view = self.view
        if view is None:
            return
        board = self.ids.pitch.board
        if self.mode == "target" and self.action is not None:
            self.declare(board.ms_to_ps(ms), ms)
            return
        if self.selected is None:
            return
        if self.override:
            self.controller.override(self.selected, ms)
        else:
            self.controller.tap_move(self.selected, ms)
        self.selected = None

    # --- declaring ---------------------------------------------------------------------------------
    def start_declaring(self, action: Action) -> None:
        self.action = action
        self.opponents = []
        self.mode = "opponents" if action is Action.SPEED_DRIBBLING else "target"
        self.build_panel()

    def declare(self, ps: tuple[int, int] | None, ms: tuple[int, int] | None) -> None:
        view = self.view
        carrier = view.state.ball.carrier
        action = self.action
        self.mode, self.action = "", None
        if carrier is None or action is None:
            return
        if action in PS_ACTIONS and action.is_shot:
            plan = self.shot_plan()
            self.controller.submit(c.Declare(carrier, action, target_ps=ps, shot=plan))
        elif action.is_pass:
            self.controller.submit(c.Declare(carrier, action, target_ps=ps))
        else:
            self.controller.submit(c.Declare(carrier, action, target_ms=ms, opponents=tuple(self.opponents)))
        self.opponents = []

    def shot_plan(self) -> ShotPlan:
        sh = self.shot
        tokens = (5,) * sh["five"] + (10,) * sh["ten"]
        if sh["chip"]:
            tokens = (10,) * (sh["five"] + sh["ten"])
        dive = sh["dive"] if sh["dive"] >= 0 else None
        return ShotPlan(tokens=tokens or (5,), save_token=10 if sh["chip"] else sh["save"], chip=sh["chip"],
                        curved=sh["curved"], gk_dive=dive)

    def bump(self, key: str, delta: int) -> None:
        shot = dict(self.shot)
        shot[key] = max(0 if key != "dive" else -1, min(12, shot[key] + delta))
        self.shot = shot
        self.build_panel()

    def toggle(self, key: str, value=None) -> None:
        shot = dict(self.shot)
        shot[key] = (not shot[key]) if value is None else value
        self.shot = shot
        self.build_panel()

    def cancel(self) -> None:
        self.mode, self.action, self.opponents, self.picked = "", None, [], []
        self.build_panel()

    # --- the request panel ---------------------------------------------------------------------------
    def build_panel(self, *_args) -> None:
        panel = self.ids.panel
        panel.clear_widgets()
        view = self.view
        if view is None or not view.active:
            return
        state = view.state
        add = panel.add_widget
        if self.mode:
            self._panel_for_mode(add)
            return
        if not view.pending:
            add(wrap_label("Nothing pending." if state.phase is not Phase.OVER else "The match is over.", 18))
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
            for option in head.options:
                add(button(option.replace("_", " "), lambda o=option, r=head.id: self.controller.choose(r, o)))
            return
        for req in view.pending:
            add(wrap_label(req.text, 17, bold=True))
        ids = {r.id for r in view.pending}
        if "board" in ids:
            team = view.pending[0].team
            taken = set(state.boards.values())
            for tb in state.components.tactical_boards:
                if tb.id not in taken:
                    add(button(tb.name, lambda b=tb.id, t=team: self.controller.submit(c.ChooseBoard(t, b))))
        if "kick_off" in ids:
            kicker = self.selected
            if kicker is not None and state.restart is not None and kicker.team is state.restart.team:
                add(button(f"Kick off to #{kicker.number}", lambda k=kicker: self._submit_and_reset(c.KickOff(k))))
            else:
                add(wrap_label("Place the figures, then select the player who receives the kick-off.", 15))
        if "declare" in ids:
            self._declare_buttons(add)
        if "move" in ids:
            team = state.turn or Team.HOME
            if state.round_kind is not None and state.round_kind.value == "transition" and state.phase is Phase.MOVEMENT:
                add(wrap_label("Transition round: zone movements only (free).", 15))
            add(button(f"{team.label}: pass", lambda t=team: self.controller.submit(c.PassTurn(t))))
            if state.turn is None:
                add(button(f"{team.other.label}: pass", lambda t=team.other: self.controller.submit(c.PassTurn(t))))
            if state.phase is Phase.MOVEMENT and state.declaration is not None and state.declaration.action.is_pass:
                add(button("Offside trap...", lambda: self._start_pick("reach", offside=True)))
        if "reach_ball" in ids:
            add(button("Who reached the ball...", lambda: self._start_pick("reach")))
        if any(i.startswith("restart") for i in ids):
            if state.restart is not None and state.restart.taker is None:
                add(button("Choose the taker (touch him)", lambda: self._set_mode("taker")))
            for req in view.pending:
                if "step" in req.text and req.team is not None:
                    add(button(f"{req.team.label}: end this step", lambda t=req.team: self.controller.submit(
                        c.PassTurn(t))))
            if state.restart is not None and state.restart.kind.value == "free_kick" and not state.restart.wall:
                add(button("Set a wall...", lambda: self._start_pick("wall")))
        if "shootout" in ids:
            kicker = self.selected
            if kicker is not None and kicker.team is state.turn:
                add(button(f"Penalty by #{kicker.number}", lambda k=kicker: self._submit_and_reset(
                    c.TakeShootoutKick(k))))
            else:
                add(wrap_label("Select the next penalty taker.", 15))
        if state.phase is not Phase.OVER:
            add(button("Substitution...", lambda: self._set_mode("sub_off")))

    def _dice_request(self):
        view = self.view
        return next(r for r in view.pending if r.kind == "dice")

    def _set_mode(self, mode: str) -> None:
        self.mode = mode
        self.picked = []
        self.build_panel()

    def _start_pick(self, mode: str, offside: bool = False) -> None:
        self.mode = mode
        self.picked = []
        self._offside = offside
        self.build_panel()

    def _declare_buttons(self, add) -> None:
        add(wrap_label("Declare an action:", 15))
        for action in Action:
            add(button(action.label, lambda a=action: self.start_declaring(a)))

    def _panel_for_mode(self, add) -> None:
        view = self.view
        state = view.state
        if self.mode == "target":
            action = self.action
            what = "PS" if action.is_pass or action.is_shot else "MS"
            add(wrap_label(f"{action.label}: touch the target {what}.", 17, bold=True))
            if action.is_shot:
                sh = self.shot
                add(wrap_label(f"Tokens: {sh['five']} x -5, {sh['ten']} x -10; save token -{sh['save']}"
                               f"{'; chip' if sh['chip'] else ''}{'; curved' if sh['curved'] else ''}"
                               f"{'; keeper dives ' + str(sh['dive']) + ' MS' if sh['dive'] >= 0 else ''}", 15))
                row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
                for text, key, delta in (("-5 +", "five", 1), ("-5 -", "five", -1), ("-10 +", "ten", 1),
                                         ("-10 -", "ten", -1)):
                    row.add_widget(button(text, lambda k=key, d=delta: self.bump(k, d)))
                add(row)
                row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
                row.add_widget(button("central", lambda: self.toggle("save", 5)))
                row.add_widget(button("angled", lambda: self.toggle("save", 10)))
                row.add_widget(button("chip", lambda: self.toggle("chip")))
                row.add_widget(button("curved", lambda: self.toggle("curved")))
                add(row)
                row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
                row.add_widget(button("dive +", lambda: self.bump("dive", 1)))
                row.add_widget(button("dive -", lambda: self.bump("dive", -1)))
                add(row)
                add(button("Shoot at the near goal-line PS", lambda: self.declare(None, None)))
        elif self.mode == "opponents":
            names = ", ".join(str(o) for o in self.opponents) or "none yet"
            add(wrap_label(f"Speed dribbling: touch the opponents to challenge ({names}), then the target.", 17,
                           bold=True))
            add(button("Now touch the target MS", lambda: self._set_target_mode()))
        elif self.mode == "taker":
            add(wrap_label("Touch the player who takes it.", 17, bold=True))
        elif self.mode == "wall":
            add(wrap_label(f"Wall: touch up to five players ({len(self.picked)} chosen).", 17, bold=True))
            team = state.restart.team.other if state.restart else Team.HOME
            add(button("Set the wall", lambda t=team: self._submit_and_reset(c.SetWall(t, tuple(self.picked)))))
        elif self.mode == "reach":
            if getattr(self, "_offside", False):
                add(wrap_label("Offside trap: touch the attacker first, then the defenders who step up.", 17,
                               bold=True))
                if len(self.picked) >= 2:
                    add(button("Call offside", lambda: self._submit_and_reset(
                        c.CallOffside(self.picked[0], tuple(self.picked[1:])))))
            else:
                add(wrap_label("Touch who reached the loose ball.", 17, bold=True))
                add(button("Confirm", lambda: self._submit_and_reset(c.ReachBall(tuple(self.picked), 1))))
        elif self.mode == "sub_off":
            add(wrap_label("Substitution: touch the player coming off.", 17, bold=True))
        elif self.mode == "sub_on":
            off = self.picked[0]
            add(wrap_label(f"{off} comes off: choose who comes on.", 17, bold=True))
            for p in state.players.values():
                if p.ref.team is off.team and p.where.value == "bench":
                    add(button(f"#{p.ref.number} {p.card.name}", lambda on=p.ref: self._submit_and_reset(
                        c.CallSubstitution(off.team, off, on))))
        add(button("Cancel", self.cancel))

    def _set_target_mode(self) -> None:
        self.mode = "target"
        self.build_panel()

    def _submit_and_reset(self, command) -> None:
        self.mode, self.picked, self.selected = "", [], None
        self.controller.submit(command)
        self.build_panel()

    # --- player cards and the phase stepper -------------------------------------------------------------
    def build_cards(self) -> None:
        """One row of player cards per team: number and state; touching one selects him
        (to place a figure the camera has not seen, or to give him the kick-off)."""
        box = self.ids.cards
        box.clear_widgets()
        state = self.view.state
        for team in (Team.HOME, Team.AWAY):
            row = BoxLayout(spacing=dp(2))
            tint = (0.25, 0.4, 0.85, 1) if team is Team.HOME else (0.8, 0.3, 0.3, 1)
            for p in sorted(state.players.values(), key=lambda p: p.ref.number):
                if p.ref.team is not team or p.where.value == "bench":
                    continue
                mark = {"ready": "", "exhausted": "~", "stunned": "x"}[p.status.value]
                mark += "Y" * p.yellow + ("R" if p.red else "") + ("+" if p.injured else "")
                mark += "?" if p.on_pitch and p.ms is None else ""
                chip = Button(text=f"{p.ref.number}{mark}", font_size=sp(15), background_color=tint,
                              disabled=not p.on_pitch, bold=p.ref == self.selected)
                chip.bind(on_release=lambda _b, r=p.ref: self.pick_card(r))
                row.add_widget(chip)
            box.add_widget(row)

    def pick_card(self, ref: PlayerRef) -> None:
        if self.mode:
            self.on_figure(ref)
            return
        self.selected = None if self.selected == ref else ref
        self.build_cards()
        self.build_panel()

    def build_stepper(self) -> None:
        box = self.ids.stepper
        box.clear_widgets()
        current = self.view.state.phase.value
        for phase in PHASES:
            on = phase == current
            box.add_widget(Label(text=phase.replace("_", " "), font_size=sp(15), bold=on,
                                 color=(1, 1, 0.3, 1) if on else (0.65, 0.65, 0.65, 1)))
