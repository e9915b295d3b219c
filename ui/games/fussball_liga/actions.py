"""The Fußball-Liga action panel: a form for each action the rules list as open now
(``view.actions``, see companion/fussball_liga/open_actions.py), by its id, and nothing else.
A button the rules would refuse for being unavailable (a set-up not yet done) is never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.fussball_liga import commands as c
from companion.fussball_liga.interception import attempt_problem
from companion.fussball_liga.model import LigaState, Phase, RestartKind
from companion.fussball_liga.restarts import setup_problems, taker_squares
from companion.teams import PlayerRef
from companion.ruleset import OpenAction

# What "pass" means beside each kind of kick (the coach lets the chance go).
NO_KICK = {"follow_up": "no follow-up", "keeper": "put the ball down (no kick)"}
PROBLEM = (1, 0.75, 0.25, 1)   # a line saying what the rules still wait for


def by_id(actions: tuple[OpenAction, ...]) -> dict[str, list[OpenAction]]:
    out: dict[str, list[OpenAction]] = {}
    for a in actions:
        out.setdefault(a.id, []).append(a)
    return out


class ActionPanel:
    """The face's ``panel``: open actions to forms (the forms' modes are in modes.py)."""

    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        from ...widgets.keypad import button, wrap_label
        from ...widgets.steady import button_room

        state: LigaState = view.state
        self._mark(screen, [])
        if state.phase is Phase.OVER:
            add(wrap_label("The match is over.", 18))
            return
        open_ = by_id(view.actions)
        sel = screen.selected
        kicks = {a.arg("kind"): a for a in open_.get("kick", ())}
        self._selection_rows(screen, state, add)
        # The step's own action first: at 800x600 the panel shows the request and about two
        # more rows, so what ends the step (kick off, set-up done) must not sit under the hints.
        # Until it is open, a hint of what it waits for holds its room (``button_room``): the
        # button takes the hint's place and nothing under it moves. The line-up and the kick-off
        # are one step, so the standard line-up stays under the kick-off's room throughout.
        for a in open_.get("kick_off", ()):
            kicker = self._on_spot(state, a.team, state.components.pitch.kick_off_squares[state.end_of(a.team)], sel)
            if kicker is not None:
                add(button(f"Kick off by #{kicker.number}: touch the target", lambda k=kicker: self._kick_mode(
                    screen, k)))
            else:
                add(button_room(f"To kick off, put a {a.team.label} player on a kick-off square."))
            standard = button("Standard line-up", lambda: self._line_up(screen, view))
            standard.whole_row = True   # not paired with "Kick off" when it comes (widgets/keypad.py)
            add(standard)
            add(wrap_label("Place a figure: touch his chip or figure, then a lit square of his own half (the "
                           "kick-off squares are the two by the centre mark). After the standard line-up, set the "
                           "figures on the table to match.", 18))
        for a in open_.get("set_up", ()):
            if "set_up_done" in open_:
                add(button(f"{a.team.label}: set-up done", lambda t=a.team: screen.submit(c.PassTurn(t))))
            elif state.restart is not None:
                # What stands between the coach and "set-up done", where the button will come.
                for i, problem in enumerate(setup_problems(state, state.restart, a.team)[:3]):
                    said = problem[:1].upper() + problem[1:] + "."   # the panel names "Away#9" too (ui/words.py)
                    add(button_room(said, colour=PROBLEM) if i == 0 else wrap_label(said, 18, colour=PROBLEM))
            if sel is not None and sel.team is a.team:
                add(button(f"Move #{sel.number} square by square...",
                           lambda k=sel: self._enter(screen, "path", k, path=[], hand_to=None)))
            add(wrap_label(f"{a.team.label} re-positions: select a figure, then touch a lit square.", 18))
        for a in open_.get("penalty", ()):
            spots = state.components.pitch.ends[state.end_of(a.team.other)].penalty_squares
            kicker = self._on_spot(state, a.team, spots, sel)
            if kicker is not None:
                add(button(f"Penalty-kick by #{kicker.number}", lambda k=kicker: screen.submit(c.TakePenalty(k))))
            add(wrap_label("Place the figures by touch (select one: his squares light up); the defending goalkeeper "
                           "on goal square 1-4.", 18))
            if kicker is None:
                add(wrap_label(f"{a.team.label}'s kicker stands on one of the two squares behind the penalty mark: "
                               f"nobody does yet.", 18))
        if "restart" in kicks:
            self._kicker_buttons(screen, state, kicks["restart"], add)
        if "intercept" in open_ or "let_go" in open_:
            self._intercept_buttons(screen, state, open_, add)
        if "drop" in kicks:
            gk = kicks["drop"].arg("player")
            add(button(f"#{gk.number}: drop the ball, then kick", lambda k=gk: self._enter(screen, "drop", k)))
        if "follow_up" in kicks:
            h = kicks["follow_up"].arg("player")
            add(button(f"Follow-up by #{h.number}: touch the target", lambda k=h: self._kick_mode(screen, k)))
        if "keeper" in kicks:
            gk = kicks["keeper"].arg("player")
            add(button(f"#{gk.number} kicks it: touch the target", lambda k=gk: self._kick_mode(screen, k)))
            for a in open_.get("hold", ()):
                add(button(f"#{gk.number} holds the ball for a turn", lambda k=a.arg("player"): screen.submit(
                    c.HoldBall(k))))
            # A teammate next to the ball may kick it instead (the rules check who stands there).
            if sel is not None and sel.team is kicks["keeper"].team and sel != gk:
                add(button(f"#{sel.number} kicks it: touch the target", lambda k=sel: self._kick_mode(screen, k)))
        if "shot" in kicks and kicks["shot"].arg("player") is not None:
            h = kicks["shot"].arg("player")
            add(button(f"Shoot or pass (#{h.number}): touch the target", lambda k=h: self._kick_mode(screen, k)))
        if state.phase is Phase.MOVEMENT:   # with no points left the step can still be ended
            self._movement_buttons(screen, state, open_, add)
        else:
            kind = next((k for k in ("follow_up", "keeper") if k in kicks), None)
            for a in open_.get("pass", ()):
                what = NO_KICK.get(kind, "no kick this phase")
                add(button(f"{a.team.label}: {what}", lambda t=a.team: screen.submit(c.PassTurn(t))))
        for a in open_.get("shootout", ()):
            kickers = self._shootout_kickers(view, a.team)
            if sel is not None and sel.team is a.team and sel in kickers:
                add(button(f"Penalty by #{sel.number}", lambda k=sel: screen.submit(c.TakePenalty(k))))
            elif kickers:
                add(button(f"Penalty by #{kickers[0].number}", lambda k=kickers[0]: screen.submit(
                    c.TakePenalty(k))))
                add(wrap_label(f"Or select another of {a.team.label}'s players who has not kicked yet.", 18))
            else:
                add(wrap_label(f"{a.team.label}'s next kicker: put the other side's goalkeeper on goal square 1-4 "
                               f"first (select him: the squares light up).", 18))
        self._always(screen, open_, add)

    def _kicker_buttons(self, screen, state, action: OpenAction, add) -> None:
        from ...widgets.keypad import button, wrap_label

        team = action.team
        kicker = self._on_spot(state, team, taker_squares(state, state.restart, team), screen.selected)
        if kicker is not None:
            add(button(f"Take it: #{kicker.number} kicks, touch the target", lambda k=kicker: self._kick_mode(
                screen, k)))
            return
        where = {RestartKind.THROW_IN: "on the throw-in square", RestartKind.CORNER: "on the corner area",
                 RestartKind.GOAL_KICK: "in the goal area"}.get(state.restart.kind, "next to the ball")
        add(wrap_label(f"{team.label}'s kicker stands {where}: nobody does yet.", 18))

    @staticmethod
    def _shootout_kickers(view, team) -> list[PlayerRef]:
        """The players the rules would take for the next shoot-out kick, by shirt number."""
        from companion.errors import RuleViolation

        out = []
        for p in sorted(view.state.players.values(), key=lambda p: p.ref.number):
            if p.ref.team is not team or not p.on_pitch:
                continue
            try:
                view.ruleset.decide(view.state, c.TakePenalty(p.ref))
            except RuleViolation:
                continue
            out.append(p.ref)
        return out

    @staticmethod
    def _on_spot(state, team, spots, sel) -> PlayerRef | None:
        """Who takes a kick from ``spots``: the selected figure if he stands on one, else the
        side's first figure that does."""
        on = sorted((p.ref for p in state.players.values() if p.placed and p.ref.team is team and p.square in spots),
                    key=lambda r: r.number)
        if sel is not None and sel in on:
            return sel
        return on[0] if on else None

    def _selection_rows(self, screen, state, add) -> None:
        """The selected figure's lit squares in words, and the key to their colours."""
        from ...widgets.keypad import wrap_label
        from .aims import kick_summary

        sel = screen.selected
        if sel is None:
            return
        found = self.found(state, sel)
        if not found:
            return
        if self.is_kick(state, sel):
            add(wrap_label(kick_summary(sel, found), 18, bold=True))
        else:
            kinds = {t.kind for t in found.values()}
            verb = "stand" if kinds <= {"place", "kicker", "keeper"} else "go"
            add(wrap_label(f"#{sel.number}: the lit squares are where he may {verb} now; touch one.", 18, bold=True))
        self.legend_rows(screen, found, add)

    def _intercept_buttons(self, screen, state, open_: dict, add) -> None:
        from ...widgets.keypad import button, wrap_label

        f = state.flight
        for a in open_.get("intercept", ()):
            self._mark(screen, list(f.path))
            options = [(p.ref, i) for p in state.players.values() if p.placed and p.ref.team is a.team
                       for i in range(len(f.path)) if attempt_problem(state, f, p.ref, i) is None]
            for ref, i in sorted(options, key=lambda o: (o[1], o[0].number))[:8]:
                sq = f.path[i]
                add(button(f"#{ref.number} tries in {sq[0]},{sq[1]}", lambda r=ref, s=sq: screen.submit(
                    c.Intercept(r, s))))
            if not options:
                add(wrap_label("No defender can reach the ball's path.", 15))
        for a in open_.get("let_go", ()):
            add(button(f"{a.team.label}: let it go", lambda t=a.team: screen.submit(c.PassTurn(t))))

    def _movement_buttons(self, screen, state, open_: dict, add) -> None:
        from ...widgets.keypad import button, wrap_label

        sel = screen.selected
        if state.holding is not None and state.hold_turn == state.turn_no:
            add(wrap_label(f"#{state.holding.number} holds the ball: opponents keep 3 squares away.", 15))
        for a in open_.get("move", ()):
            add(wrap_label("Move a figure: select it, then touch a lit square (the cheapest path), or:", 18))
            if sel is not None and sel.team is a.team:
                add(button(f"Move #{sel.number} square by square...",
                           lambda k=sel: self._enter(screen, "path", k, path=[], hand_to=None)))
        for a in open_.get("move_ball", ()):
            h = a.arg("player")
            add(button(f"Move the ball around #{h.number}...", lambda k=h: self._enter(screen, "ball", k)))
        if "tackle" in open_:
            add(button("Dribbling interception...", lambda: self._enter(screen, "tackle", fair_play=False)))
        for a in open_.get("pass", ()):
            add(button(f"{a.team.label}: step done", lambda t=a.team: screen.submit(c.PassTurn(t))))

    def _always(self, screen, open_: dict, add) -> None:
        from ...widgets.keypad import button

        if "substitute" in open_:
            add(button("Substitution...", lambda: screen.set_mode("sub_off")))
        if "misconduct" in open_:
            add(button("Call misconduct...", lambda: screen.set_mode("misconduct")))
        if "pause_clock" in open_:
            add(button("Pause the clock", lambda: screen.submit(c.PauseClock("paused on the tablet"))))
        elif "resume_clock" in open_:
            add(button("Resume the clock", lambda: screen.submit(c.ResumeClock())))
        add(button("Clock and ball corrections...", lambda: screen.set_mode("fix")))
