"""The Fußball-Liga touch modes: kicks aimed by touch (a drop, a receiver named), a move
square by square, the ball moved around its holder, dribbling interceptions, misconduct,
substitutions, and a person's corrections of the clock and the ball."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from companion.commands import PlaceFigure
from companion.fussball_liga import commands as c
from companion.fussball_liga import targets as tg
from companion.fussball_liga.clock import Instant
from companion.fussball_liga.model import Control, LigaState, Phase, PhaseLimit
from companion.fussball_liga.pitch import dist
from companion.teams import PlayerRef, Team

from . import aims
from .lineup import standard_lineup

OFFENCES = (("foul", "Foul play (free-kick)"), ("shot_out", "Shot aimed off the field"),
            ("played_on", "Played on after time ran out"), ("other", "Other willful violation"))


class Modes:
    """The face's ``mode_panel``, its touches, and the helpers the action panel's forms use."""

    @staticmethod
    def _mark(screen, cells) -> None:
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is not None:
            pitch.marked = [tuple(sq) for sq in cells]

    @staticmethod
    def _enter(screen, mode: str, who: PlayerRef | None = None, **form) -> None:
        """Into one of this game's touch modes, acting for ``who`` (set before the panel is built)."""
        screen.form = form
        screen.action = who
        screen.set_mode(mode, keep_action=True)

    def _kick_mode(self, screen, kicker: PlayerRef) -> None:
        self._enter(screen, "kick", kicker)

    def _line_up(self, screen, view) -> None:
        """Lift every figure, then put each on his square of the standard shape."""
        state = view.state
        ctl = screen.controller
        for p in state.players.values():
            if p.square is not None:
                ctl.submit(PlaceFigure(p.ref, None))
        for ref, sq in standard_lineup(state):
            ctl.submit(PlaceFigure(ref, square=sq))
        screen.reset()

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        from kivy.metrics import dp
        from kivy.uix.boxlayout import BoxLayout

        from ...widgets.keypad import TOUCH, button, wrap_label

        state: LigaState = view.state
        mode = screen.mode
        form = dict(screen.form)
        if mode == "kick":
            found = self.kick_found(screen, state)
            self._light(screen, found)
            add(wrap_label(f"#{screen.action.number} kicks: touch a lit square, or a teammate to pass to him.", 18,
                           bold=True))
            add(wrap_label(aims.kick_summary(screen.action, found), 18))
            self.legend_rows(screen, found, add)
        elif mode == "drop":
            drop = form.get("drop")
            if drop is None:
                found = tg.drop_squares(state, screen.action)
                add(wrap_label(f"#{screen.action.number}: touch a lit square next to him to drop the ball there.", 18,
                               bold=True))
            else:
                found = self.kick_found(screen, state)
                add(wrap_label("Ball dropped: now touch where he kicks it (a lit square).", 18, bold=True))
                add(wrap_label(aims.kick_summary(screen.action, found), 18))
            self._mark(screen, [drop] if drop else [])
            self._light(screen, found)
            self.legend_rows(screen, found, add)
        elif mode == "receiver":
            target = form["target"]
            add(wrap_label(f"Several teammates stand next to {target[0]},{target[1]}: who takes the pass?", 17,
                           bold=True))
            for ref in form["mates"]:
                add(button(f"To #{ref.number}", lambda r=ref: screen.submit(c.Kick(
                    screen.action, tuple(form["target"]), receiver=r, drop=form.get("drop")))))
        elif mode == "path":
            path = form.get("path", [])
            ref = screen.action
            hand = form.get("hand_to")
            add(wrap_label(f"#{ref.number}: touch each square he steps through ({len(path)} so far)"
                           + (f"; hands the ball to #{hand.number}" if hand else "") + ".", 17, bold=True))
            self._mark(screen, path)
            if path:
                add(button(f"Move along {len(path)} square(s)", lambda: screen.submit(c.Move(
                    ref, tuple(path[-1]), tuple(tuple(x) for x in path), hand))))
                add(button("Take back the last square", lambda: self._set_form(screen, path=path[:-1])))
            if state.ball.holder == ref:
                add(wrap_label("Touch a teammate to hand him the ball at the end.", 15))
        elif mode == "ball":
            add(wrap_label(f"Move the ball around #{screen.action.number}: touch its new square (his own, or "
                           f"one next to him).", 17, bold=True))
        elif mode == "tackle":
            picked = list(screen.picked)
            fair = form.get("fair_play", False)
            names = (f"#{picked[0].number} tries" + (", supported by " + ", ".join(f"#{r.number}" for r in picked[1:])
                                                      if len(picked) > 1 else "")) if picked else "nobody yet"
            add(wrap_label(f"Dribbling interception: touch the defender next to the ball, then any supporters "
                           f"({names}).", 17, bold=True))
            add(button(f"Fair play: {'yes' if fair else 'no'}", lambda: self._set_form(screen, fair_play=not fair)))
            if picked:
                add(button("Try it", lambda: screen.submit(c.Tackle(picked[0], tuple(picked[1:]), fair))))
        elif mode == "misconduct":
            picked = list(screen.picked)
            who = f"#{picked[0].number} ({picked[0].team.label})" if picked else "touch the offender"
            add(wrap_label(f"Call misconduct: {who}", 17, bold=True))
            if picked:
                for offence, text in OFFENCES:
                    add(button(text, lambda o=offence: screen.submit(c.CallMisconduct(picked[0], o))))
        elif mode == "sub_off":
            add(wrap_label("Substitution: touch the player coming off.", 17, bold=True))
        elif mode == "sub_on":
            off = screen.picked[0]
            out = state.players[off]
            add(wrap_label(f"#{off.number} comes off: who comes on?", 17, bold=True))
            for p in sorted(state.players.values(), key=lambda p: p.ref.number):
                if p.ref.team is not off.team or p.where.value != "bench":
                    continue
                if out.goalkeeper or not p.card.goalkeeper:
                    add(button(f"#{p.ref.number} {p.card.name}", lambda on=p.ref, gk=out.goalkeeper: screen.submit(
                        c.Substitute(off, on, gk))))
                else:
                    add(button(f"#{p.ref.number} {p.card.name} (field)", lambda on=p.ref: screen.submit(
                        c.Substitute(off, on))))
                    add(button(f"#{p.ref.number} {p.card.name} in goal", lambda on=p.ref: screen.submit(
                        c.Substitute(off, on, True))))
        elif mode == "fix":
            self._fix_panel(screen, state, add)
        elif mode == "ball_fix":
            sq = form.get("square")
            if sq is None:
                add(wrap_label("Correct the ball: touch the square where it lies.", 17, bold=True))
            else:
                sq = tuple(sq)
                add(wrap_label(f"The ball at {sq[0]},{sq[1]}: who controls it?", 17, bold=True))
                add(button("Nobody (loose ball)", lambda: screen.submit(c.PlaceBall(sq))))
                near = sorted((p for p in state.players.values() if p.placed and dist(p.square, sq) <= 1),
                              key=lambda p: (p.ref.team.value, p.ref.number))
                for p in near:
                    control = Control.CLOSE if p.square == sq else Control.LOOSE
                    row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
                    row.add_widget(button(f"{p.ref.team.label} #{p.ref.number} ({control.value})",
                                          lambda r=p.ref, k=control: screen.submit(c.PlaceBall(sq, r, k))))
                    if p.goalkeeper:
                        row.add_widget(button("in his hands", lambda r=p.ref: screen.submit(
                            c.PlaceBall(sq, r, Control.HANDS))))
                    add(row)
        else:
            return False
        return True

    def _fix_panel(self, screen, state, add) -> None:
        from ...widgets.keypad import button, wrap_label

        add(wrap_label("Corrections (a person overrides the rules' books):", 17, bold=True))
        add(button("Correct the ball...", lambda: self._enter(screen, "ball_fix")))
        now = lambda: Instant.of(datetime.now(UTC))
        if state.clocks.half_on and not state.half_time_up:
            add(button("Time up: the half ends now", lambda: screen.submit(c.CallTimeUp("half", now(),
                                                                                          correction=True))))
        limit = state.options.phase_limit
        if state.phase in (Phase.SHOT, Phase.MOVEMENT) and not state.phase_time_up:
            if limit is PhaseLimit.EGG_TIMER:
                add(button("Time up: the egg timer ran out", lambda: screen.submit(
                    c.CallTimeUp("phase", now(), correction=True))))
            elif limit is PhaseLimit.CHESS_CLOCK:
                for team in (Team.HOME, Team.AWAY):
                    add(button(f"Time up: {team.label}'s chess clock", lambda t=team: screen.submit(
                        c.CallTimeUp("phase", now(), t, correction=True))))
        add(wrap_label("Override (bottom bar) places a figure anywhere with a touch.", 15))

    @staticmethod
    def _set_form(screen, **changes) -> None:
        form = dict(screen.form)
        form.update(changes)
        screen.form = form
        screen.build_panel()

    # --- touches -----------------------------------------------------------------------------------
    def on_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        mode = screen.mode
        state: LigaState = view.state
        p = state.players.get(ref)
        if not mode:
            return self.selected_figure(screen, view, ref)
        if mode == "kick" and p is not None and p.placed:
            self.kick_at_figure(screen, view, ref)   # a teammate: pass to him, where a pass can reach him
            return True
        if mode == "drop" and screen.form.get("drop") is not None and p is not None and p.placed:
            self.kick_at_figure(screen, view, ref)
            return True
        if mode in ("drop", "ball", "ball_fix") and p is not None and p.placed:
            return self.on_cell(screen, view, p.square)   # the figure's square is the one meant
        if mode == "path":
            if ref.team is screen.action.team and ref != screen.action and state.ball.holder == screen.action:
                hand = screen.form.get("hand_to")
                self._set_form(screen, hand_to=None if hand == ref else ref)
            return True
        if mode == "tackle":
            if ref.team is not state.attacking:
                screen.toggle_pick(ref)
            return True
        if mode == "misconduct":
            screen.picked = [ref]
            screen.build_panel()
            return True
        if mode == "sub_off":
            screen.picked = [ref]
            screen.set_mode("sub_on", keep_picked=True)
            return True
        return mode in ("receiver", "fix")

    def on_cell(self, screen: Any, view: Any, cell) -> bool:
        mode = screen.mode
        state: LigaState = view.state
        cell = tuple(cell)
        if not mode:
            ball = state.ball
            if screen.selected is None and ball.holder is not None and ball.square == cell:
                screen.selected = ball.holder   # the ball touched: its holder's kick or run is lit
                return True
            return self.selected_tap(screen, view, cell)
        if mode == "kick":
            self.kick_at(screen, view, cell)
            return True
        if mode == "drop":
            if screen.form.get("drop") is None:
                if cell in tg.drop_squares(state, screen.action):
                    self._set_form(screen, drop=cell)
                else:
                    self.refuse_tap(screen, f"#{screen.action.number} drops the ball on a free square next to him "
                                            f"inside his penalty area, from where he can kick it: touch a lit square.")
            else:
                self.kick_at(screen, view, cell)
            return True
        if mode == "path":
            self._set_form(screen, path=[*screen.form.get("path", []), cell])
            return True
        if mode == "ball":
            screen.submit(c.MoveBall(screen.action, cell))
            return True
        if mode == "ball_fix":
            self._set_form(screen, square=cell)
            return True
        return bool(mode)
