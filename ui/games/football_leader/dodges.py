"""The ball carrier's dodges, planned before he moves (Football Leader 4.1, 4.2): each dodge's
card and a supporter, in one form opened when the carrier's main-action move needs dodges."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader.components import Card, Colour
from companion.football_leader.model import DodgePlan
from companion.football_leader.movement import plan_move
from companion.football_leader.open_actions import open_actions
from companion.football_leader.pitch import Space
from companion.teams import PlayerRef

from ... import theme
from ...widgets.keypad import TOUCH, button, wrap_label
from .turn import card_text

DODGES = "move_dodges"   # the ball carrier's movement with its dodges planned (4.1, 4.2)


def _support_colour(need: Any, dodge: dict) -> Colour | None:
    """The card colour the chosen support of a planned dodge costs (None: free or none)."""
    for opt in need.supporters:
        if opt.supporter == dodge.get("supporter"):
            return opt.colour
    return None


class Dodges:
    """The dodge-planning form: opened by ``_plan_dodges``, drawn by ``_dodges_panel``."""

    def _plan_dodges(self, screen: Any, state: Any, mover: PlayerRef, to: Space, card: Card | None) -> bool:
        """The ball carrier moving in his main action: when the movement needs dodges, open the
        form that plans them (each dodge's card, a supporter); False when none is needed."""
        # Only while the rules have the carrier's own move open (his main action, nothing
        # awaited): the rules' open actions for this state, the list the view carries.
        if not any(a.id == "move" and a.team is mover.team and a.arg("carrier") == mover
                   for a in open_actions(state)):
            return False
        plan = plan_move(state, mover, tuple(to))
        if plan is None or not plan.dodges:
            return False
        self._start(screen, DODGES, {"team": mover.team, "mover": mover, "space": plan.path[-1], "plan": plan,
                                     "card": card, "dodges": [{} for _ in plan.dodges],
                                     "target": ("dodge", 0) if card is not None else ("card", 0)})
        return True

    @staticmethod
    def _next_target(form: dict) -> tuple[str, int]:
        """The first slot left empty: the movement card, a dodge's card, a paid support's card;
        with none, the slot being filled (a second touch replaces its card)."""
        if form.get("card") is None:
            return ("card", 0)
        for i, (d, need) in enumerate(zip(form["dodges"], form["plan"].dodges)):
            if d.get("card") is None:
                return ("dodge", i)
            if d.get("supporter") is not None and d.get("support_card") is None and _support_colour(need, d):
                return ("support", i)
        return form.get("target", ("dodge", 0))

    def _dodges_panel(self, screen: Any, state: Any, form: dict, add) -> None:
        plan, team, mover = form["plan"], form["team"], form["mover"]
        target = form.get("target", ("card", 0))
        card = form.get("card")
        add(wrap_label(f"Move #{mover.number} to {q.where(state, form['space'])} ({plan.cost} space(s)): "
                       f"{len(plan.dodges)} dodge(s) on the way. Touch a line, then its card; a forward dodge "
                       f"may be supported by a teammate in its space (one a turn).", 15, bold=True))
        add(button(("> " if target[0] == "card" else "") + f"Movement card: {card_text(card) if card else '?'}",
                   lambda: self._set_form(screen, target=("card", 0))))
        for i, (need, d) in enumerate(zip(plan.dodges, form["dodges"])):
            who = ", ".join(f"#{r.number}" for r in need.defenders)
            supported = d.get("supporter") is not None
            difficulty = need.supported_difficulty if supported else need.difficulty
            text = (f"{'> ' if target == ('dodge', i) else ''}{i + 1}. leaving {q.where(state, need.leaving)} "
                    f"({who}), {need.step.value}, difficulty {difficulty}: "
                    f"{card_text(d['card']) if d.get('card') else 'card asked then'}")
            add(button(text, lambda i=i: self._set_form(screen, target=("dodge", i))))
            if need.supporters:
                row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
                for opt in need.supporters:
                    cost = "free" if opt.colour is None else f"a {opt.colour.value.upper()} card"
                    on = d.get("supporter") == opt.supporter
                    b = button(f"{'> ' if on else ''}supported by #{opt.supporter.number} ({cost})",
                               lambda i=i, r=opt.supporter: self._toggle_supporter(screen, i, r))
                    b.font_size = theme.SMALL
                    row.add_widget(b)
                add(row)
            if supported and _support_colour(need, d):
                sc = d.get("support_card")
                add(button(f"{'> ' if target == ('support', i) else ''}   support card: "
                           f"{card_text(sc) if sc else '?'}",
                           lambda i=i: self._set_form(screen, target=("support", i))))
        command = self._dodges_command(form)
        if command is not None:
            add(button("Move", lambda: self._submit(screen, command)))
        add(button("Move, the dodges' cards asked as they come", lambda: self._submit(
            screen, c.Move(mover, form["space"], card, path=plan.path))))
        self._card_grid(screen, state, team, add, lambda cd: self._dodge_card(screen, cd))

    def _dodge_card(self, screen: Any, card: Card) -> None:
        form = dict(screen.form)
        kind, i = form.get("target", ("card", 0))
        if kind == "card":
            form["card"] = card
        else:
            dodges = [dict(d) for d in form["dodges"]]
            dodges[i]["card" if kind == "dodge" else "support_card"] = card
            form["dodges"] = dodges
        form["target"] = self._next_target(form)
        screen.form = form
        screen.build_panel()

    def _toggle_supporter(self, screen: Any, i: int, ref: PlayerRef) -> None:
        """One supported dodge a turn (4.2): choosing a supporter clears any other."""
        form = dict(screen.form)
        was = form["dodges"][i].get("supporter")
        dodges = [{k: v for k, v in d.items() if k not in ("supporter", "support_card")} for d in form["dodges"]]
        if was != ref:
            dodges[i]["supporter"] = ref
        form["dodges"] = dodges
        form["target"] = self._next_target(form)
        screen.form = form
        screen.build_panel()

    def _touch_supporter(self, screen: Any, ref: PlayerRef) -> None:
        """A touch on a teammate who could support one of the dodges: he does (or no longer)."""
        for i, need in enumerate(screen.form["plan"].dodges):
            if any(opt.supporter == ref for opt in need.supporters):
                self._toggle_supporter(screen, i, ref)
                return

    @staticmethod
    def _dodges_command(form: dict) -> Any:
        """The Move with its plans, or None while the movement card or a support's cards are
        missing. Dodges left without a card (after the last planned one) are asked as they come."""
        card = form.get("card")
        if card is None:
            return None
        plans = []
        for need, d in zip(form["plan"].dodges, form["dodges"]):
            supporter = d.get("supporter")
            if supporter is not None and (d.get("card") is None
                                          or (_support_colour(need, d) and d.get("support_card") is None)):
                return None
            plans.append(DodgePlan(d.get("card"), supporter, d.get("support_card") if supporter else None))
        while plans and plans[-1] == DodgePlan():
            plans.pop()
        return c.Move(form["mover"], form["space"], card, path=form["plan"].path, dodges=tuple(plans))

    def marked(self, screen: Any, view: Any) -> list:
        if screen.mode == DODGES:   # the spaces he dodges out of
            return [need.leaving for need in screen.form["plan"].dodges]
        return []
