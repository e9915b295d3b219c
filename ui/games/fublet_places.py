"""Where things may go in Fublet, as the tablet shows it: the board coloured by what a touch
would mean (a pass, a shot, a run, a tackle), the legend of the colours, the actions a touch
on a coloured square offers, and a touch the rules would refuse said in a coach's words and
not sent. What the rules take is companion/fublet/targets.py (every target a command their
``decide`` accepts); this is only its drawing and its forms, a part of ``FubletFace``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.fublet import commands as c
from companion.fublet import queries as fq
from companion.fublet import targets as ft
from companion.fublet.components import Action
from companion.fublet.model import Phase
from companion.sightings import Sighting
from companion.teams import PlayerRef

from ..widgets.keypad import button, wrap_label

# What a place on the board would mean, by colour (Face.tints; the panel's legend names them).
# Strong enough that each hue reads as its legend's chip over the green (a long pass's violet
# at 0.26 read as grey).
KIND_RGBA = {"short_pass": (0.25, 0.6, 1, 0.55), "long_pass": (0.75, 0.3, 1, 0.5), "cross": (1, 0.55, 0.1, 0.5),
             "shot": (1, 0.15, 0.15, 0.6), "volley": (1, 0.15, 0.15, 0.6), "run": (1, 1, 0.3, 0.45),
             "kick_off": (0.2, 1, 0.4, 0.55), "tackle": (1, 0.4, 0.1, 0.6)}
MOVE_RGBA = (1, 1, 0.3, 0.28)   # the board's plain reach (ui/widgets/pitch.py), where a figure may move
LEGEND_WORDS = {"short_pass": "Short pass", "long_pass": "Long pass", "cross": "Cross", "shot": "Shot",
                "run": "Run (ball)", "kick_off": "Kick-off to", "tackle": "Tackle", "volley": "Volley"}


class Places:
    """The part of Fublet's face that shows where the ball and the figures may go."""

    def reach(self, ruleset: Any, state: Any, player: PlayerRef) -> list:
        """The squares the selected figure may go to now, as the rules take it: his runs with
        the ball, his movements, his placement before a kick-off or a restart."""
        return sorted({t.place for t in self.figure_targets_now(state, player) if t.kind != "tackle"})

    def figure_targets_now(self, state: Any, player: PlayerRef) -> tuple:
        key = ("figure", id(state), player)
        cached = getattr(self, "_targets_memo", None)
        if cached is not None and cached[0] == key and cached[1] is state:
            return cached[2]
        found = ft.figure_targets(state, player) if state is not None and state.created else ()
        self._targets_memo = (key, state, found)
        return found

    def ball_targets_now(self, state: Any, action: Action | None) -> tuple:
        key = ("ball", id(state), action)
        cached = getattr(self, "_ball_memo", None)
        if cached is not None and cached[0] == key and cached[1] is state:
            return cached[2]
        found = ft.ball_targets(state, action) if state is not None and state.created else ()
        self._ball_memo = (key, state, found)
        return found

    def shown_targets(self, screen: Any, view: Any) -> tuple:
        """The places the board colours now, by what a touch there would mean: the ball's
        (every action's, or the one being declared), a volley's, the kick-off's receivers,
        the tackles open to the selected defender."""
        state = view.state if view is not None else None
        if state is None or not getattr(state, "created", False):
            return ()
        mode, selected = screen.mode, screen.selected
        if mode == "target" and isinstance(screen.action, Action):
            found = self.ball_targets_now(state, screen.action)
            if screen.action is Action.SPEED_DRIBBLING:
                found = self.ball_targets_now(state, Action.KEEP_AND_RUN)
            return found
        if mode == "volley" and screen.picked:
            return ft.volley_targets(state, screen.picked[0])
        if mode:
            return ()
        if state.phase is Phase.KICK_OFF:
            return ft.kick_off_targets(state)
        who = ft.declarer(state)
        if who is not None and (selected is None or selected == who):
            return self.ball_targets_now(state, None)
        if selected is not None and state.phase is Phase.MOVEMENT:
            return tuple(t for t in self.figure_targets_now(state, selected) if t.kind == "tackle")
        return ()

    def tints(self, screen: Any, view: Any) -> list:
        state = view.state
        out = []
        for t in self.shown_targets(screen, view):
            rgba = KIND_RGBA.get(t.kind)
            if rgba is not None:
                out.extend((cell, rgba) for cell in t.cells(state))
        return out

    def legend_items(self, screen: Any, view: Any) -> list[tuple[str, tuple]]:
        kinds = {t.kind for t in self.shown_targets(screen, view)}
        return [(LEGEND_WORDS[k], KIND_RGBA[k]) for k in KIND_RGBA if k in kinds]

    def refuse(self, screen: Any, view: Any, command: Any, targets: tuple) -> None:
        """A touch the rules would refuse: not sent; said in a coach's words below the panel
        (what was asked, why not, what would be taken), the form left open."""
        text = ft.refusal(view.state, command, targets)
        names = getattr(screen, "names", None)
        screen.error_text = names.line(text) if names is not None else text

    @staticmethod
    def closed_reason(state: Any, action: Action, short: bool = False) -> str:
        """Why an action has no place open to it now, and what to do instead."""
        who = ft.declarer(state)
        if who is None:
            return "nobody may declare now" if short else f"{action.label}: nobody may declare now."
        plan = None if ft.penalty_kick(state) else ft.PLAIN_SHOT
        probe = c.Declare(who, action, target_ps=ft.start_ps(state, who), shot=plan) \
            if not action.is_run else c.Declare(who, action, target_ms=(0, 0), opponents=(who,))
        reason = ft.why(state, probe) or "no place on the board takes it"
        if short:
            return f"not now ({reason})"
        return f"{action.label} is not possible now: {reason}. Cancel and choose another action."

    def move_legend(self, screen: Any, view: Any) -> list[tuple[str, tuple]]:
        """The movement phases' colours for the selected figure: where he may move, where
        a move would tackle the ball carrier."""
        sel = screen.selected
        if sel is None or view.state is None:
            return []
        found = self.figure_targets_now(view.state, sel)
        items = []
        if any(t.kind in ("move", "tactical_move") for t in found):
            items.append(("Move", MOVE_RGBA))
        if any(t.kind == "tackle" for t in found):
            items.append(("Move and tackle", KIND_RGBA["tackle"]))
        return items

    def places_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        """The forms a touch on a coloured square opens: the ball's actions for it, or a
        figure's moves to it (a plain move or a tackle). False for the face's other modes."""
        state = view.state
        mode = screen.mode
        if mode == "ball_at":
            cell = screen.form.get("ms")
            here = [t for t in self.ball_targets_now(state, None) if cell in t.cells(state)]
            add(wrap_label("The ball to this square:", 17, bold=True))
            for t in here:
                if t.kind == "shot" and ft.penalty_kick(state):
                    add(button("Penalty kick at this goal-line PS", lambda t=t: screen.submit(t.command)))
                elif t.kind == "shot":
                    add(button(f"{t.action.label} at this goal-line PS...", lambda t=t: self.start_shot_at(screen, t)))
                elif t.kind == "run":
                    add(button(f"Keep And Run here ({t.words.rsplit(', ', 1)[-1]})",
                               lambda t=t: screen.submit(t.command)))
                    add(button("Speed Dribbling here...", lambda t=t: self.start_dribble_to(screen, t.place)))
                else:
                    add(button(t.words[:1].upper() + t.words[1:], lambda t=t: screen.submit(t.command)))
        elif mode == "move_at":
            cell, who = screen.form.get("ms"), screen.picked[0] if screen.picked else None
            here = [t for t in self.figure_targets_now(state, who) if t.place == cell] if who is not None else []
            add(wrap_label(f"#{who.number if who else '?'} to this square:", 17, bold=True))
            for t in here:
                add(button(t.words[:1].upper() + t.words[1:], lambda t=t: screen.submit(t.command)))
        else:
            return False
        return True

    def touch_cell(self, screen: Any, view: Any, cell) -> bool:
        """A square touched with no form open: the ball's choices for it, a tackle's, or a
        refusal in words for a square the selected figure may not go to (nothing sent)."""
        state = view.state
        who = ft.declarer(state)
        sel = screen.selected
        if who is not None and sel in (None, who):
            here = [t for t in self.ball_targets_now(state, None) if cell in t.cells(state)]
            if here:
                screen.form = {"ms": cell}
                screen.set_mode("ball_at")
                return True
            if sel == who:
                ball = self.ball_targets_now(state, None)
                command = c.Declare(who, Action.KEEP_AND_RUN, target_ms=cell)
                self.refuse(screen, view, command, ball)
                return True
            return False
        if sel is None or sel not in state.players:
            return False
        found = self.figure_targets_now(state, sel)
        here = [t for t in found if t.place == cell]
        if any(t.kind == "tackle" for t in here):
            screen.picked = [sel]
            screen.form = {"ms": cell}
            screen.set_mode("move_at", keep_picked=True)
            return True
        if here or state.phase not in (Phase.KICK_OFF, Phase.RESTART, Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT):
            return False   # a highlighted square: the screen sends it as the camera would see it
        x, y = fq.board(state).ms_center_mm(cell)
        command = view.ruleset.command_for(state, Sighting(sel, x, y))
        if command is None:
            return False
        self.refuse(screen, view, command, tuple(t for t in found if t.kind != "tackle"))
        screen.selected = None
        return True
