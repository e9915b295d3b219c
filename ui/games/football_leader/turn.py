"""Football Leader's turn on the tablet: the kick-off, the turn's actions (each open action the
rules list, mapped to its form), the action forms filled by touches and card buttons, and
the shoot-out. The rules count the cards in each hand but never see them (the decks are
physical), so the card buttons offer every card the coach's deck still holds this period."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader.components import Card, Colour
from companion.teams import PlayerRef, Team

from ... import theme
from ...autoflow import expect
from ...widgets.keypad import TOUCH, button, wrap_label

CARD_RGBA = {Colour.GOLD: (1.0, 0.78, 0.1, 1), Colour.SILVER: (0.72, 0.75, 0.8, 1),
             Colour.BRONZE: (0.78, 0.45, 0.2, 1)}

# A turn's actions: the slots a coach fills, in order; the last card touched submits.
# Player slots are filled by touching a figure (or its chip), "space" by touching a space,
# the others by a card button.
ACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "move": ("Move", ("mover", "card", "space")),
    "pass": ("Pass", ("receiver", "card")),
    "pass_dodge": ("Pass and dodge", ("receiver", "dodge_card", "card")),
    "vision": ("Game Vision pass", ("receiver", "card")),
    "kick_pass": ("Pass", ("receiver", "card")),
    "dodge": ("Dodge", ("card",)),
    "shoot": ("Shoot", ("card",)),
    "direct": ("Direct kick: shoot", ("taker", "card")),
    "tackle": ("Tackle", ("tackler", "card")),
    "hard": ("Hard tackle", ("tackler", "card")),
    "move_tackle": ("Move and tackle", ("tackler", "move_card", "card")),
}
PLAYER_SLOTS = ("mover", "receiver", "taker", "tackler")
CARD_SLOTS = {"card": "the card", "dodge_card": "the receiver's dodge card", "move_card": "the movement card",
              "support_card": "the support card"}
SLOT_TEXT = {"mover": "touch the counter to move", "receiver": "touch the receiver",
             "taker": "touch the counter who takes the kick", "tackler": "touch the tackling counter",
             "space": "touch the space to move to"}


def card_text(card: Card) -> str:
    return f"{card.colour.value.upper()} {card.move}-{card.bonus}"



class TurnForms:
    """The kick-off, turn and shoot-out panels, and the action forms."""

    def _kick_off_panel(self, screen: Any, state: Any, open_: dict, add) -> None:
        for a in open_.get("kick_off", ()):
            team = a.team
            b = q.board(state)
            central = sorted(p.ref.number for p in q.outfield(state, team) if p.space is not None
                             and b.space(p.space).central)
            for number in central:
                add(button(f"Kick off to #{number}", lambda n=number, t=team: self._submit(
                    screen, c.KickOff(PlayerRef(t, n)))))
            kicker = screen.selected
            if kicker is not None and kicker.team is team and kicker.number not in central:
                add(button(f"Kick off to #{kicker.number}", lambda k=kicker: self._submit(screen, c.KickOff(k))))

    def _turn_panel(self, screen: Any, view: Any, add) -> None:
        """The turn's buttons: each open action the rules list, mapped to its form."""
        state = view.state
        team = state.turn.team
        carrier = state.ball
        open_ = {a.id: a for a in view.actions if a.team is team}
        acts: list[tuple[str, Callable[[], None]]] = []

        def act(key: str, label: str | None = None, **form) -> None:
            acts.append((label or ACTIONS[key][0] + "...", lambda: self._start(screen, key, {"team": team, **form})))

        move, pass_, shoot, tackle = (open_.get(k) for k in ("move", "pass", "shoot", "tackle"))
        kind = pass_.arg("kind") if pass_ is not None else None
        if pass_ is not None and pass_.arg("goalkeeper"):
            act("kick_pass", "Goalkeeper pass...")
            kind = None
        if "call_goal_kick" in open_:
            acts.append(("Call a goal kick", lambda: self._submit(screen, c.CallGoalKick(team))))
        mover = move.arg("carrier") if move is not None else None
        if mover is not None:
            act("move", f"Move #{mover.number} (with the ball)...", mover=mover)
        if kind == "pass":
            act("pass")
        if "dodge" in open_:
            act("dodge")
        if tackle is not None:
            here = [p.ref for p in q.in_space(state, q.carrier_space(state), team)]
            who = {"tackler": here[0]} if len(here) == 1 else {}
            act("tackle", **who)
            act("hard", **who)
            act("move_tackle")
        if shoot is not None and shoot.arg("kind") == "direct":
            act("direct", "Choose the taker and shoot...")
        elif shoot is not None:
            act("shoot", f"Shoot (#{carrier.number})..." if shoot.arg("follow_up") else None)
        if kind == "pass":
            act("pass_dodge")
        if move is not None:
            act("move", "Move another counter..." if mover is not None else
                "Extra movement..." if move.arg("extra") else None)
        if kind == "vision":
            act("vision", f"Game Vision pass by #{carrier.number}...")
        elif kind in ("free_kick", "goal_kick"):
            act("kick_pass", "Indirect kick: pass..." if kind == "free_kick" else "Goal kick: pass...")
        if "end_turn" in open_:
            acts.append((f"{team.label}: end the turn", lambda: self._submit(screen, c.EndTurn(team))))
        for text, fn in acts:
            add(button(text, fn))
        if move is not None:
            add(wrap_label("Or move by touch: the counter, then an empty space (the card is asked).", 13,
                           colour=(0.7, 0.7, 0.7, 1)))

    def _shootout_panel(self, screen: Any, state: Any, open_: dict, add) -> None:
        for a in open_.get("shootout_order", ()):
            team = a.team
            mine = sorted((p for p in q.on_pitch(state, team)), key=lambda p: (p.goalkeeper, p.ref.number))
            order = tuple(p.ref for p in mine)
            add(button(f"{team.label}: kickers by number", lambda t=team, o=order: self._submit(
                screen, c.SetShootoutOrder(t, o))))
            add(button(f"{team.label}: name the order by touch...", lambda t=team: self._start(
                screen, "order", {"team": t})))
        for a in open_.get("shootout_kick", ()):
            team = a.team
            add(wrap_label(f"{team.label}: touch the card played for the penalty.", 15, bold=True))
            self._card_grid(screen, state, team, add, lambda card, t=team: self._submit(
                screen, c.TakeShootoutKick(t, card)))

    # --- the card buttons ---------------------------------------------------------------------------
    def _card_grid(self, screen: Any, state: Any, team: Team, add, pick: Callable[[Card], None]) -> None:
        """Every card ``team``'s deck still holds this period, by colour, highest first."""
        left = q.cards_left(state, team)
        columns = [sorted((cd for cd in left if cd.colour is colour), key=lambda cd: cd.sort_key)
                   for colour in Colour]
        rows = max((len(col) for col in columns), default=0)
        grid = GridLayout(cols=3, spacing=dp(3), size_hint_y=None, height=rows * (TOUCH + dp(3)))
        for i in range(rows):
            for col in columns:
                if i < len(col):
                    card = col[i]
                    # Flat colours (no button texture): the card's colour as printed.
                    b = button(card_text(card), lambda cd=card: pick(cd), background_normal="",
                               background_color=CARD_RGBA[card.colour], bold=True,
                               color=(0.05, 0.05, 0.05, 1) if card.colour is not Colour.BRONZE else (1, 1, 1, 1))
                    b.font_size = theme.SMALL
                    grid.add_widget(b)
                else:
                    grid.add_widget(BoxLayout(size_hint_y=None, height=TOUCH))
        add(grid)

    def _slot(self, form: dict, key: str) -> str | None:
        """The next slot of an action to fill, or None when all are."""
        _label, slots = ACTIONS[key]
        slots = slots + (("support_card",) if key == "dodge" and form.get("supporter") is not None else ())
        for slot in slots:
            if slot not in form:
                return slot
        return None

    def _action_panel(self, screen: Any, state: Any, key: str, form: dict, add) -> None:
        team = form["team"]
        label = ACTIONS[key][0]
        done = []
        for slot in PLAYER_SLOTS:
            if form.get(slot) is not None:
                done.append(f"{slot} #{form[slot].number}")
        if form.get("space") is not None:
            done.append(f"to {q.where(state, form['space'])}")
        for slot in CARD_SLOTS:
            if form.get(slot) is not None:
                done.append(f"{slot.replace('_', ' ')} {form[slot]}")
        if form.get("supporter") is not None:
            done.append(f"supported by #{form['supporter'].number}")
        slot = self._slot(form, key)
        step = SLOT_TEXT.get(slot) or (f"touch {CARD_SLOTS[slot]}" if slot else "")
        add(wrap_label(f"{label}: {step}." + (f"  ({'; '.join(done)})" if done else ""), 16, bold=True))
        if key == "dodge" and "card" not in form:
            add(wrap_label("To support the dodge, first touch a teammate in the same space.", 13))
        if key == "pass_dodge" and "card" not in form:
            row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
            two = form.get("two", "")
            for value, text in (("", "one die"), ("dodge", "Unmark: 2 dice dodge"), ("pass", "Unmark: 2 dice pass")):
                row.add_widget(button(("> " if two == value else "") + text,
                                      lambda v=value: self._set_form(screen, two=v)))
            add(row)
        if slot == "support_card":
            add(button("No support card needed (same colours)", lambda: self._fill(screen, state, key,
                                                                                   "support_card", None)))
        if slot in CARD_SLOTS:
            self._card_grid(screen, state, team, add, lambda card, s=slot: self._fill(screen, state, key, s, card))

    def _fill(self, screen: Any, state: Any, key: str, slot: str, value: Any) -> None:
        form = dict(screen.form)
        form[slot] = value
        screen.form = form
        if self._slot(form, key) is None:
            if key == "move" and self._plan_dodges(screen, state, form["mover"], form["space"], form.get("card")):
                return
            self._submit(screen, self._command(key, form))
        else:
            if key == "move" and self._slot(form, key) == "space" and form["mover"] != state.ball:
                self._expect_space(screen, form["mover"], form["card"])
            screen.build_panel()

    @staticmethod
    def _expect_space(screen: Any, mover: PlayerRef, card: Card) -> None:
        """Mover and card chosen: the space may come from the camera, as the counter is moved."""
        def build(state: Any, sighting: Any) -> Any:
            p = state.players.get(mover)
            space = q.board(state).space_at(sighting.x_mm, sighting.y_mm) if sighting.on_pitch else None
            return None if p is None or space is None or space == p.space else c.Move(mover, space, card)
        expect(screen, mover, build, f"move #{mover.number} with {card}")

    @staticmethod
    def _command(key: str, f: dict) -> Any:
        if key == "move":
            return c.Move(f["mover"], f["space"], f["card"])
        if key in ("pass", "vision", "kick_pass"):
            return c.Pass(f["receiver"], f["card"])
        if key == "pass_dodge":
            return c.Pass(f["receiver"], f["card"], dodge_card=f["dodge_card"], two_dice_on=f.get("two", ""))
        if key == "dodge":
            return c.Dodge(f["card"], f.get("supporter"), f.get("support_card"))
        if key == "shoot":
            return c.Shoot(f["card"])
        if key == "direct":
            return c.Shoot(f["card"], f["taker"])
        if key == "tackle":
            return c.Tackle(f["tackler"], f["card"])
        if key == "hard":
            return c.Tackle(f["tackler"], f["card"], hard=True)
        return c.Tackle(f["tackler"], f["card"], hard=True, move_card=f["move_card"])

    def _fill_player(self, screen: Any, state: Any, key: str, slot: str, ref: PlayerRef) -> None:
        if slot == "mover":
            screen.selected = ref    # the screen then shows where he can go
        self._fill(screen, state, key, slot, ref)

