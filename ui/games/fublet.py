"""Fublet on the tablet: movement squares to touch, the round pace and MP bars, the five
phases, declarations with their targets, shots with their tokens, walls, offside traps and
substitutions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion import box
from companion.fublet import commands as c
from companion.fublet import queries as fq
from companion.fublet.components import Action, load_components
from companion.fublet.flow import volleyers
from companion.fublet.model import Options, Phase, RestartKind, ShotPlan, VolleyChoiceCtx
from companion.fublet.restarts import kicker_off_the_spot, penalty_spot, place_kicker
from companion.teams import PlayerRef, Team
from companion.view import Summary

from ..autoflow import expect
from ..looks.fublet import FubletLook
from ..widgets.keypad import TOUCH, button, wrap_label
from .base import TEAM_BAR, BarSpec, Chip, Choice, Face

PHASES = ("declaration", "outcome", "movement", "event", "tactical_movement")
PS_ACTIONS = (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS, Action.FINALIZATION, Action.LONG_SHOT)
SHOT = {"five": 4, "ten": 0, "save": 5, "chip": False, "curved": False, "dive": -1}


class FubletFace(FubletLook, Face):
    def __init__(self) -> None:
        super().__init__(game="fublet", title="Fublet",
                         options=[Choice("championship", "Championship (draws stand)")])

    # --- setup -------------------------------------------------------------------------------
    def teams(self, folder: Any = None) -> list[str]:
        return box.team_keys(self.game, folder)

    def create(self, home: str, away: str, options: dict[str, bool], folder: Any) -> Any:
        return c.CreateMatch(box.team(self.game, home, folder), box.team(self.game, away, folder),
                             load_components(folder),
                             Options(championship=bool(options.get("championship"))))

    # --- panels --------------------------------------------------------------------------------
    def bars(self, summary: Summary) -> list[BarSpec]:
        pace = summary.counter("pace")
        mp = {t: summary.counter("mp", t) for t in (Team.HOME, Team.AWAY)}
        value = {t: mp[t].value if mp[t] is not None else 0 for t in mp}
        p = pace.value if pace is not None else 0
        return [BarSpec(f"Pace {p}", p, 15),
                BarSpec(f"Home MP {value[Team.HOME]}", value[Team.HOME], 20, TEAM_BAR[Team.HOME]),
                BarSpec(f"Away MP {value[Team.AWAY]}", value[Team.AWAY], 20, TEAM_BAR[Team.AWAY])]

    def stepper(self, state: Any, summary: Summary) -> tuple[tuple[str, ...], str]:
        return PHASES, state.phase.value

    def chips(self, state: Any) -> list[Chip]:
        out = []
        for p in sorted(state.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
            if p.where.value == "bench":
                continue
            mark = {"ready": "", "exhausted": "~", "stunned": "x"}[p.status.value]
            mark += "Y" * p.yellow + ("R" if p.red else "") + ("+" if p.injured else "")
            mark += "?" if p.on_pitch and p.ms is None else ""
            out.append(Chip(p.ref, f"{p.ref.number}{mark}", enabled=p.on_pitch))
        return out

    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        """A form for each action the rules list as open (``view.actions``), by its id."""
        state = view.state
        open_ = {}
        for a in view.actions:
            open_.setdefault(a.id, []).append(a)
        if not view.pending:
            add(wrap_label("Nothing pending." if state.phase is not Phase.OVER else "The match is over.", 18))
        for a in open_.get("board", ()):
            taken = set(state.boards.values())
            for tb in state.components.tactical_boards:
                if tb.id not in taken:
                    add(button(tb.name, lambda b=tb.id, t=a.team: screen.submit(c.ChooseBoard(t, b))))
        for a in open_.get("kick_off", ()):
            kicker = screen.selected
            if kicker is not None and kicker.team is a.team:
                add(button(f"Kick off to #{kicker.number}", lambda k=kicker: screen.submit(c.KickOff(k))))
            else:
                add(wrap_label("Place the figures, then select the player who receives the kick-off.", 15))
        if "declare" in open_:
            add(wrap_label("Declare an action:", 15))
            for action in Action:
                add(button(action.label, lambda a=action: self._start_declaring(screen, a)))
        if "pass" in open_:
            if state.round_kind is not None and state.round_kind.value == "transition" \
                    and state.phase is Phase.MOVEMENT:
                add(wrap_label("Transition round: zone movements only (free).", 15))
            for a in open_["pass"]:
                add(button(f"{a.team.label}: pass", lambda t=a.team: screen.submit(c.PassTurn(t))))
        if "offside" in open_:
            add(button("Offside trap...", lambda: screen.set_mode("offside")))
        if "reach_ball" in open_:
            add(button("Who reached the ball...", lambda: screen.set_mode("reach")))
        if "choose_taker" in open_:
            add(button("Choose the taker (touch him)", lambda: screen.set_mode("taker")))
        for a in open_.get("restart_step", ()):
            add(button(f"{a.team.label}: end this step", lambda t=a.team: screen.submit(c.PassTurn(t))))
        if "wall" in open_:
            add(button("Set a wall...", lambda: screen.set_mode("wall")))
        r = state.restart
        if state.phase is Phase.RESTART and r is not None and kicker_off_the_spot(state, r):
            spot = place_kicker(state, r)
            add(wrap_label("The kicker stands on one of the two squares by the penalty spot (outlined).", 15))
            if spot is not None:
                add(button(f"Put #{r.taker.number} by the penalty spot",
                           lambda to=spot, k=r.taker: screen.submit(c.Move(k, to))))
        for a in open_.get("shootout", ()):
            kicker = screen.selected
            if kicker is not None and kicker.team is a.team:
                add(button(f"Penalty by #{kicker.number}", lambda k=kicker: screen.submit(
                    c.TakeShootoutKick(k))))
            else:
                add(wrap_label("Select the next penalty taker.", 15))
        if "substitute" in open_:
            add(button("Substitution...", lambda: screen.set_mode("sub_off")))

    def choice_button(self, screen: Any, view: Any, request: Any, option: str) -> Any | None:
        """A volley is a shot: its button opens the shot's tokens (then the volley is sent);
        "dispute" says which dispute."""
        head = view.state.queue[0] if view.state.queue else None
        if head is None or not isinstance(head.ctx, VolleyChoiceCtx):
            return None
        if option == "dispute":
            return button("Aerial dispute", lambda r=request.id: screen.controller.choose(r, "dispute"))
        if option != "volley":
            return None
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        for ref in volleyers(head):
            row.add_widget(button(f"Volley by #{ref.number}...", lambda p=ref: self._start_volley(screen, p)))
        return row

    def _start_volley(self, screen: Any, player: PlayerRef) -> None:
        screen.picked = [player]
        screen.form = dict(SHOT)
        screen.set_mode("volley", keep_picked=True)

    def _volley(self, screen: Any, ps) -> None:
        player = screen.picked[0] if screen.picked else None
        if player is not None:
            screen.submit(c.Volley(player, self._shot_plan(screen.form), target_ps=ps))

    def marked(self, screen: Any, view: Any) -> list:
        """The two squares by the penalty spot while a penalty's kicker is placed."""
        state = view.state if view is not None else None
        r = getattr(state, "restart", None)
        if state is None or state.phase is not Phase.RESTART or r is None or r.kind is not RestartKind.PENALTY:
            return []
        return list(penalty_spot(state, r))

    # --- declaring -------------------------------------------------------------------------------
    def _start_declaring(self, screen: Any, action: Action) -> None:
        screen.action = action
        screen.form = dict(SHOT)
        if action is Action.KEEP_AND_RUN:
            self._expect_run(screen, action, ())
        screen.set_mode("opponents" if action is Action.SPEED_DRIBBLING else "target", keep_action=True)

    @staticmethod
    def _expect_run(screen: Any, action: Action, opponents: tuple) -> None:
        """A run declared: its target MS may come from the camera, as the carrier is moved there."""
        view = screen.view
        carrier = view.state.ball.carrier if view is not None and view.state is not None else None
        if carrier is None:
            return

        def build(state: Any, sighting: Any) -> Any:
            ms = fq.board(state).mm_to_ms(sighting.x_mm, sighting.y_mm) if sighting.on_pitch else None
            here = state.players[carrier].ms if carrier in state.players else None
            return None if ms is None or ms == here else c.Declare(carrier, action, target_ms=ms,
                                                                   opponents=opponents)
        expect(screen, carrier, build, f"{action.label} by #{carrier.number}")

    def _to_target(self, screen: Any) -> None:
        self._expect_run(screen, Action.SPEED_DRIBBLING, tuple(screen.picked))
        screen.set_mode("target", keep_action=True, keep_picked=True)

    def _declare(self, screen: Any, view: Any, ps, ms) -> None:
        carrier = view.state.ball.carrier
        action, opponents = screen.action, tuple(screen.picked)
        if carrier is None or action is None:
            screen.reset()
            return
        if action in PS_ACTIONS and action.is_shot:
            command = c.Declare(carrier, action, target_ps=ps, shot=self._shot_plan(screen.form))
        elif action.is_pass:
            command = c.Declare(carrier, action, target_ps=ps)
        else:
            command = c.Declare(carrier, action, target_ms=ms, opponents=opponents)
        screen.submit(command)

    @staticmethod
    def _shot_plan(sh: dict) -> ShotPlan:
        tokens = (5,) * sh["five"] + (10,) * sh["ten"]
        if sh["chip"]:
            tokens = (10,) * (sh["five"] + sh["ten"])
        dive = sh["dive"] if sh["dive"] >= 0 else None
        return ShotPlan(tokens=tokens or (5,), save_token=10 if sh["chip"] else sh["save"], chip=sh["chip"],
                        curved=sh["curved"], gk_dive=dive)

    @staticmethod
    def _bump(screen: Any, key: str, delta: int) -> None:
        form = dict(screen.form)
        form[key] = max(0 if key != "dive" else -1, min(12, form[key] + delta))
        screen.form = form
        screen.build_panel()

    @staticmethod
    def _toggle(screen: Any, key: str, value=None) -> None:
        form = dict(screen.form)
        form[key] = (not form[key]) if value is None else value
        screen.form = form
        screen.build_panel()

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        state = view.state
        mode = screen.mode
        if mode == "target":
            action = screen.action
            what = "PS" if action.is_pass or action.is_shot else "MS"
            add(wrap_label(f"{action.label}: touch the target {what}.", 17, bold=True))
            if action.is_shot:
                self._shot_controls(screen, add, "Shoot at the near goal-line PS",
                                    lambda: self._declare(screen, view, None, None))
        elif mode == "volley":
            who = screen.picked[0] if screen.picked else None
            add(wrap_label(f"Volley by #{who.number if who else '?'}: set the shot-on-goal tokens, then touch the "
                           f"goal-line PS it flies to.", 17, bold=True))
            self._shot_controls(screen, add, "Volley at the near goal-line PS", lambda: self._volley(screen, None))
        elif mode == "opponents":
            names = ", ".join(str(o) for o in screen.picked) or "none yet"
            add(wrap_label(f"Speed dribbling: touch the opponents to challenge ({names}), then the target.", 17,
                           bold=True))
            add(button("Now touch the target MS", lambda: self._to_target(screen)))
        elif mode == "taker":
            add(wrap_label("Touch the player who takes it.", 17, bold=True))
        elif mode == "wall":
            add(wrap_label(f"Wall: touch up to five players ({len(screen.picked)} chosen).", 17, bold=True))
            team = state.restart.team.other if state.restart else Team.HOME
            add(button("Set the wall", lambda t=team: screen.submit(c.SetWall(t, tuple(screen.picked)))))
        elif mode == "offside":
            add(wrap_label("Offside trap: touch the attacker first, then the defenders who step up.", 17,
                           bold=True))
            if len(screen.picked) >= 2:
                add(button("Call offside", lambda: screen.submit(
                    c.CallOffside(screen.picked[0], tuple(screen.picked[1:])))))
        elif mode == "reach":
            add(wrap_label("Touch who reached the loose ball.", 17, bold=True))
            add(button("Confirm", lambda: screen.submit(c.ReachBall(tuple(screen.picked), 1))))
        elif mode == "sub_off":
            add(wrap_label("Substitution: touch the player coming off.", 17, bold=True))
        elif mode == "sub_on":
            off = screen.picked[0]
            add(wrap_label(f"{off} comes off: choose who comes on.", 17, bold=True))
            for p in state.players.values():
                if p.ref.team is off.team and p.where.value == "bench":
                    add(button(f"#{p.ref.number} {p.card.name}", lambda on=p.ref: screen.submit(
                        c.CallSubstitution(off.team, off, on))))
        else:
            return False
        return True

    def _shot_controls(self, screen: Any, add: Callable[[Any], None], shoot_text: str,
                       shoot: Callable[[], None]) -> None:
        sh = screen.form
        add(wrap_label(f"Tokens: {sh['five']} x -5, {sh['ten']} x -10; save token -{sh['save']}"
                       f"{'; chip' if sh['chip'] else ''}{'; curved' if sh['curved'] else ''}"
                       f"{'; keeper dives ' + str(sh['dive']) + ' MS' if sh['dive'] >= 0 else ''}", 15))
        rows = ((("-5 +", lambda: self._bump(screen, "five", 1)), ("-5 -", lambda: self._bump(screen, "five", -1)),
                 ("-10 +", lambda: self._bump(screen, "ten", 1)), ("-10 -", lambda: self._bump(screen, "ten", -1))),
                (("central", lambda: self._toggle(screen, "save", 5)),
                 ("angled", lambda: self._toggle(screen, "save", 10)),
                 ("chip", lambda: self._toggle(screen, "chip")), ("curved", lambda: self._toggle(screen, "curved"))),
                (("dive +", lambda: self._bump(screen, "dive", 1)), ("dive -", lambda: self._bump(screen, "dive", -1))))
        for items in rows:
            row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
            for text, fn in items:
                row.add_widget(button(text, fn))
            add(row)
        add(button(shoot_text, shoot))

    # --- touches -----------------------------------------------------------------------------------
    def on_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        mode = screen.mode
        if mode == "opponents":
            if ref.team is not view.state.attacking:
                screen.toggle_pick(ref)
            return True
        if mode in ("wall", "reach", "offside"):
            screen.toggle_pick(ref)
            return True
        if mode == "taker":
            screen.submit(c.ChooseTaker(ref))
            return True
        if mode == "sub_off":
            screen.picked = [ref]
            screen.set_mode("sub_on", keep_picked=True)
            return True
        if mode == "target" and screen.action in (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS):
            ms = view.state.players[ref].ms
            if ms is not None:
                self.on_cell(screen, view, ms)
            return True
        return False

    def on_cell(self, screen: Any, view: Any, cell) -> bool:
        if screen.mode == "volley":
            self._volley(screen, screen.board.ms_to_ps(cell))
            return True
        if screen.mode == "target" and screen.action is not None:
            self._declare(screen, view, screen.board.ms_to_ps(cell), cell)
            return True
        return False
