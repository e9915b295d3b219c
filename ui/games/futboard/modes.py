"""Futboard's touch modes: a pass by touching the receiver, and substitutions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.futboard import commands as c
from companion.futboard import queries as q
from companion.futboard import targets as ft
from companion.futboard.model import Corner
from companion.futboard.passing import pass_problem
from companion.teams import PlayerRef

from . import actions


def receivers(s: Any, passer: PlayerRef) -> list[PlayerRef]:
    """Who can receive a pass from ``passer`` now (the ruler, two opponents, offside)."""
    r = s.restart
    corner_pass = isinstance(r, Corner) and r.step == "attack" and s.ball == r.taker
    out = [m.ref for m in q.on_field(s, passer.team)
           if m.ref != passer and pass_problem(s, passer, m.ref, corner_pass) is None]
    if corner_pass and not out:
        keeper = q.keeper(s, passer.team.other)
        if keeper is not None:
            out.append(keeper.ref)   # "If you cannot pass the ball to any of your players"
    return sorted(out, key=lambda r: (r.team is not passer.team, r.number))


class Modes:
    """The face's ``mode_panel`` and its touches."""

    receivers = staticmethod(receivers)

    @staticmethod
    def _start_pass(screen: Any, passer: PlayerRef) -> None:
        screen.action = passer
        screen.set_mode("pass", keep_action=True)

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        button, wrap_label = actions._widgets()
        s = view.state
        mode = screen.mode
        if mode == "pass":
            passer = screen.action
            if not isinstance(passer, PlayerRef):
                return False
            add(wrap_label(f"Pass from #{passer.number}: touch the receiver (in blue on the board).", 17, bold=True))
            open_ = receivers(s, passer)
            if not open_:
                add(wrap_label("Nobody can receive a pass from him now.", 15))
            for ref in open_:
                name = s.players[ref].tile.name
                add(button(f"to #{ref.number} {name}", lambda to=ref: screen.submit(c.Pass(passer, to))))
        elif mode == "sub_off":
            add(wrap_label("Substitution: touch the player coming off.", 17, bold=True))
        elif mode == "sub_on":
            if not screen.picked:
                return False
            off = screen.picked[0]
            add(wrap_label(f"#{off.number} comes off: choose who comes on.", 17, bold=True))
            going = s.players[off]
            # Only those the rules take: keeper for keeper, and in Street the same position.
            fits = [p for p in q.reserves(s, off.team) if p.goalkeeper == going.goalkeeper
                    and (not s.street or p.tile.position is going.tile.position)]
            for p in sorted(fits, key=lambda p: p.ref.number):
                add(button(f"#{p.ref.number} {p.tile.name} ({p.tile.position.value})",
                           lambda on=p.ref: screen.submit(c.Substitute(off, on))))
        else:
            return False
        return True

    # --- touches -------------------------------------------------------------------------------------
    def on_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        mode = screen.mode
        if mode == "pass" and isinstance(screen.action, PlayerRef):
            if ref != screen.action:
                targets = ft.ball_targets(view.state, screen.action)
                passes = tuple(t for t in targets if t.kind == "pass")
                if any(t.command.to == ref for t in passes):
                    screen.submit(c.Pass(screen.action, ref))
                else:   # not sent: said why, and to whom it may go
                    self.refuse(screen, view, c.Pass(screen.action, ref), passes)
            return True
        if mode == "sub_off":
            screen.picked = [ref]
            screen.set_mode("sub_on", keep_picked=True)
            return True
        return mode in ("sub_on",)

    def on_cell(self, screen: Any, view: Any, cell) -> bool:
        # In a mode a touch on an empty space means nothing (not a move).
        if screen.mode in ("pass", "sub_off", "sub_on"):
            return True
        if screen.mode or getattr(screen, "override", False):
            return False
        return self.touch_cell(screen, view, cell)

    @staticmethod
    def refuse(screen: Any, view: Any, command: Any, targets: tuple) -> None:
        """A touch the rules would refuse: not sent; said below the panel in a coach's words
        (what was asked, why not, what would be taken)."""
        text = ft.refusal(view.state, command, targets)
        names = getattr(screen, "names", None)
        screen.error_text = names.line(text) if names is not None else text
