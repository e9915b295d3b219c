"""Football Leader on the tablet: the board of 38 spaces, up to four counters a space, decks,
hands and Moved Markers as bars, and the actions of a turn played with the action card the
coach lays face up. The face is put together from its panels:

* ui/looks/football_leader/: the printed board, where counters stand, the ball and the
  scoreboard (shared with the scoreboard web page);
* sheets.py: strategy sheets and the set-up; turn.py: kick-off, the turn's action forms, the
  card buttons, the shoot-out; dodges.py: the carrier's dodges planned before he moves.

Every button comes from an action the rules list as open now (``view.actions``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion import box
from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader.components import load_components
from companion.football_leader.model import POSITION_CHANGES, Options, Phase, Stage
from companion.ruleset import OpenAction
from companion.teams import PlayerRef, Team
from companion.view import Summary

from ...looks.football_leader import FootballLeaderLook
from ...widgets.keypad import TOUCH, button, wrap_label
from ..base import TEAM_BAR, BarSpec, Chip, Choice, Face
from .aims import Aims, SlotLights
from .dodges import DODGES, Dodges
from .sheets import Sheets
from .turn import ACTIONS, PLAYER_SLOTS, TurnForms

STEPS = ("strategy", "opening roll", "set up", "kick off", "main action", "shoot or extra", "extra movement",
         "shootout", "over")


def by_id(actions: tuple[OpenAction, ...]) -> dict[str, list[OpenAction]]:
    out: dict[str, list[OpenAction]] = {}
    for a in actions:
        out.setdefault(a.id, []).append(a)
    return out


class FootballLeaderFace(TurnForms, Dodges, Sheets, Aims, SlotLights, FootballLeaderLook, Face):
    def __init__(self) -> None:
        super().__init__(game="football_leader", title="Football Leader",
                         options=[Choice("extra_time", "Extra time on a draw", True),
                                  Choice("shootout", "Penalty kicks after a draw", True),
                                  Choice("pass_one_loses_in_origin", "Optional: a 1 loses a pass in origin"),
                                  Choice("tackle_loop_rule", "Recommended: no tackling back the next turn", True),
                                  Choice("second_yellow_sends_off", "A second yellow card sends off", True)])

    # --- setup -------------------------------------------------------------------------------
    def teams(self, folder: Any = None) -> list[str]:
        return box.team_keys(self.game, folder)

    def create(self, home: str, away: str, options: dict[str, bool], folder: Any) -> Any:
        return c.CreateMatch(box.team(self.game, home, folder), box.team(self.game, away, folder),
                             load_components(folder),
                             Options(extra_time=bool(options.get("extra_time", True)),
                                     shootout=bool(options.get("shootout", True)),
                                     pass_one_loses_in_origin=bool(options.get("pass_one_loses_in_origin")),
                                     tackle_loop_rule=bool(options.get("tackle_loop_rule", True)),
                                     second_yellow_sends_off=bool(options.get("second_yellow_sends_off", True))))

    # --- panels --------------------------------------------------------------------------------
    def bars(self, summary: Summary) -> list[BarSpec]:
        out = []
        for team in (Team.HOME, Team.AWAY):
            deck, hand, markers = (summary.counter(k, team) for k in ("deck", "hand", "markers"))
            if deck is None or hand is None or markers is None:
                continue
            colour = TEAM_BAR[team]
            # One bar a team (the deck left), its caption in words: readable at 18 sp.
            out.append(BarSpec(f"{team.label}: deck {deck.value}, hand {hand.value}, moved "
                               f"{markers.value}/{markers.maximum}", deck.value, deck.maximum or 50, colour))
        return out

    def stepper(self, state: Any, summary: Summary) -> tuple[tuple[str, ...], str]:
        phase = state.phase
        if phase is Phase.TURN and state.turn is not None:
            stage = state.turn.stage
            if stage in (Stage.CARRIER_MOVED, Stage.PASSED, Stage.VISION_PASSED):
                return STEPS, "shoot or extra"
            if stage in (Stage.AFTER_MAIN, Stage.DONE):
                return STEPS, "extra movement"
            return STEPS, "main action"
        return STEPS, {Phase.STRATEGY: "strategy", Phase.OPENING_ROLL: "opening roll", Phase.SET_UP: "set up",
                       Phase.KICK_OFF: "kick off", Phase.SHOOTOUT: "shootout", Phase.OVER: "over"}.get(phase, "")

    def chips(self, state: Any) -> list[Chip]:
        out = []
        for p in sorted(state.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
            if p.where.value == "bench":
                continue
            # ~ a Moved Marker (two with Run), Y a yellow card, R sent off, x replaced, ? not on a space.
            mark = "~" * p.markers + "Y" * p.yellow + ("R" if p.sent_off else "")
            mark += "x" if p.replaced and not p.sent_off else ""
            mark += "?" if p.on_pitch and p.space is None else ""
            out.append(Chip(p.ref, f"{p.ref.number}{mark}", enabled=p.on_pitch))
        return out

    # --- the action panel ------------------------------------------------------------------------
    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        state = view.state
        self._clear_marks(screen)
        if not state.created:
            return
        phase = state.phase
        if phase is Phase.OVER:
            add(wrap_label("The match is over.", 18, bold=True))
            return
        open_ = by_id(view.actions)
        self.selection_rows(screen, state, add)
        self._strategy_panel(screen, state, open_, add)
        self._set_up_panel(screen, state, open_, add)
        self._kick_off_panel(screen, state, open_, add)
        if phase is Phase.TURN and state.turn is not None:
            self._turn_panel(screen, view, add)
        self._shootout_panel(screen, state, open_, add)
        if phase in (Phase.SET_UP, Phase.KICK_OFF, Phase.TURN):
            add(wrap_label("A figure in the wrong space: select it, press Override, touch its space.", 13,
                           colour=(0.7, 0.7, 0.7, 1)))

    # --- modes ---------------------------------------------------------------------------------------
    def _start(self, screen: Any, mode: str, form: dict) -> None:
        screen.form = form
        if form.get("mover") is not None:
            screen.selected = form["mover"]    # the screen shows where he can go
        screen.set_mode(mode)

    def _set_form(self, screen: Any, **changes) -> None:
        form = dict(screen.form)
        form.update(changes)
        screen.form = form
        screen.build_panel()

    def _submit(self, screen: Any, command: Any) -> None:
        self._clear_marks(screen)
        screen.submit(command)

    @staticmethod
    def _clear_marks(screen: Any) -> None:
        """The sheet editor lit its spaces as a movement range: back to the selection's range."""
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is not None and pitch.reach and screen.selected is None:
            screen.refresh_reach()

    @staticmethod
    def _mark(screen: Any, cells: list) -> None:
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is not None:
            pitch.reach_kinds = {}
            pitch.reach = cells

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        state = view.state
        mode = screen.mode
        form = screen.form
        if mode in ACTIONS:
            self.light_slot(screen, state, mode, form)
            self._action_panel(screen, state, mode, form, add)
        elif mode == "change":
            team, who = form["team"], form.get("player")
            kind = form.get("kind", "kick_off")
            add(wrap_label(f"{team.label}: position change ({POSITION_CHANGES} a match). " + (f"#{who.number}: touch his new {kind.replace('_', '-')} space."
                                             if who else "Touch the counter."), 16, bold=True))
            row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
            for k, text in (("kick_off", "kick-off"), ("goal_kick", "goal kick")):
                row.add_widget(button(("> " if k == kind else "") + text, lambda k=k: self._set_form(screen, kind=k)))
            add(row)
        elif mode == "replace":
            team, off = form["team"], form.get("off")
            if off is None:
                add(wrap_label(f"{team.label}: replacement: touch the counter who leaves.", 16, bold=True))
            else:
                add(wrap_label(f"#{off.number} leaves: who comes on (he takes #{off.number}'s places)?", 16,
                               bold=True))
                for p in q.bench(state, team):
                    add(button(f"#{p.ref.number} {p.counter.name}", lambda on=p.ref: self._submit(screen, 
                        c.Replace(team, off, on))))
        elif mode == "order":
            team = form["team"]
            names = ", ".join(f"#{r.number}" for r in screen.picked) or "none yet"
            add(wrap_label(f"{team.label}: touch the kickers in order ({names}).", 16, bold=True))
            if len(screen.picked) >= min(5, len(q.on_pitch(state, team))):
                add(button("Set the order", lambda: self._submit(screen, c.SetShootoutOrder(team, tuple(screen.picked)))))
        elif mode == "sheet":
            self._sheet_panel(screen, state, form, add)
        elif mode == DODGES:
            self._dodges_panel(screen, state, form, add)
        else:
            return False
        return True

    # --- touches -----------------------------------------------------------------------------------
    def on_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        state = view.state
        mode = screen.mode
        form = screen.form
        p = state.players.get(ref)
        if mode in ACTIONS:
            slot = self._slot(form, mode)
            if slot in PLAYER_SLOTS:
                if ref.team is form["team"] and not self.refuse_receiver(screen, state, mode, slot, ref):
                    self._fill_player(screen, state, mode, slot, ref)
            elif slot == "space" and p is not None and p.space is not None:
                self._fill(screen, state, mode, "space", p.space)
            elif mode == "dodge" and ref.team is form["team"] and ref != state.ball:
                self._set_form(screen, supporter=None if form.get("supporter") == ref else ref)
            return True
        if mode == "change":
            if form.get("player") is None and ref.team is form["team"]:
                self._set_form(screen, player=ref)
            elif form.get("player") is not None and p is not None and p.space is not None:
                self.on_cell(screen, view, p.space)
            return True
        if mode == "replace":
            if form.get("off") is None and ref.team is form["team"] and p is not None and not p.goalkeeper:
                self._set_form(screen, off=ref)
            return True
        if mode == "order":
            if ref.team is form["team"]:
                screen.toggle_pick(ref)
            return True
        if mode == "sheet":
            return True
        if mode == DODGES:
            self._touch_supporter(screen, ref)
            return True
        # A counter touched while another is selected, in another space: the selected one goes
        # there (a space holding figures has no empty spot to touch).
        sel = screen.selected
        if sel is not None and sel == ref and p is not None and p.space is not None and \
                getattr(self.found(state, sel).get(p.space), "kind", "") == "kicker":
            return bool(self.lit_tap(screen, view, p.space, touched=ref))   # the kick-off carrier touched again
        if sel is None or sel == ref or p is None or p.space is None:
            return False
        lit = self.lit_tap(screen, view, p.space, touched=ref)   # a lit pass, shot or tackle; an unlit space
        if lit:
            return True
        if lit is None and not screen.override:
            # A lit move into a space others stand in (a teammate's too): every touch there
            # lands on a counter, so the counter's space is the one meant.
            if not self._plan_dodges(screen, state, sel, p.space, None):
                x_mm, y_mm = q.board(state).center_mm(p.space)
                screen.controller.tap_move(sel, x_mm, y_mm)
                screen.selected = None
            return True
        mine = state.players.get(sel)
        if mine is None or mine.space == p.space:
            return False
        x_mm, y_mm = q.board(state).center_mm(p.space)
        if screen.override:
            screen.controller.override(sel, x_mm, y_mm)
        elif (state.phase is Phase.TURN and state.turn is not None and sel.team is state.turn.team
              and ref.team is not sel.team):
            if self._plan_dodges(screen, state, sel, p.space, None):
                return True
            screen.controller.tap_move(sel, x_mm, y_mm)
        else:
            return False
        screen.selected = None
        return True

    def on_cell(self, screen: Any, view: Any, cell) -> bool:
        state = view.state
        mode = screen.mode
        form = screen.form
        cell = tuple(cell)
        if mode in ACTIONS:
            if self._slot(form, mode) == "space":
                self._fill(screen, state, mode, "space", cell)
            return True
        if mode == "change":
            who = form.get("player")
            if who is not None:
                kind = form.get("kind", "kick_off")
                self._submit(screen, c.ChangeStrategy(form["team"], who, **{kind: cell}))
            return True
        if mode == "sheet":
            self._sheet_place(screen, cell)
            return True
        if mode == DODGES:
            return True
        if not mode and screen.selected is not None and not screen.override:
            if self.lit_tap(screen, view, cell):   # a lit pass, shot or tackle; an unlit space: said why
                return True
            # The selected ball carrier touched to a space: plan his dodges first, if any.
            return self._plan_dodges(screen, state, screen.selected, cell, None)
        return mode in ("replace", "order")
