"""Futboard's action panel: a button or a hint for each action the rules list as open now
(``view.actions``, see companion/futboard/open_actions.py), by its id, and nothing else.

The widget helpers are imported only where buttons are built, so tests read the panel
without a window (they stand ``_widgets`` in by plain records).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.commands import PlaceFigure
from companion.futboard import commands as c
from companion.futboard import queries as q
from companion.futboard import targets as ft
from companion.futboard.kicks import kick_problem
from companion.futboard.model import KickOff, Phase
from companion.ruleset import OpenAction
from companion.teams import PlayerRef, Team

from ...theme import SMALL_SP
from .lineup import lineup_commands


def _widgets():
    # Imported here so the face's pure parts load without Kivy (tests without a window).
    from ...widgets.keypad import button, wrap_label
    return button, wrap_label


def _steady():
    # A hint in a button's room and the colours' legend (ui/widgets/steady.py): imported
    # where the panel is built, like _widgets.
    from ...widgets.steady import button_room, legend
    return button_room, legend


def ball_legend(face: Any, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
    """The colours on the board for the ball, in a room of its own whether or not the player
    with the ball is selected."""
    _room, legend = _steady()
    items = face.legend_items(screen, view)
    who = ft.kicker(view.state)
    add(legend(items, rows=1, hint=f"Select #{who.number} (he has the ball) to see where it may go." if who else ""))


def by_id(actions: tuple[OpenAction, ...]) -> dict[str, list[OpenAction]]:
    out: dict[str, list[OpenAction]] = {}
    for a in actions:
        out.setdefault(a.id, []).append(a)
    return out


def kick_off_player(s: Any, selected: PlayerRef | None) -> PlayerRef | None:
    """The kicking side's player in the centre circle (the selected one when several are)."""
    ko = s.restart
    if not isinstance(ko, KickOff):
        return None
    circle = set(q.pitch(s).centre_circle)
    inside = [p.ref for p in q.on_field(s, ko.team) if p.space is not None and tuple(p.space) in circle]
    if selected in inside:
        return selected
    return min(inside, key=lambda r: r.number) if inside else None


def kick_odds(s: Any, kicker: PlayerRef) -> str:
    """The numbers that hit: 1 to accuracy minus the penalty printed for his line."""
    p = s.players[kicker]
    target = p.tile.accuracy - q.pitch(s).kick_penalty(p.space, q.attacked_end(kicker.team))
    return f"1-{target}" if target > 0 else "none"


def tile_text(s: Any, ref: PlayerRef) -> str:
    """What the selected player's tile says, for the coach choosing an action."""
    t = s.players[ref].tile
    dribble = ", dribble" if t.dribble else ""
    keeper = f", defence {t.defence}" if t.defence is not None else ""
    return (f"#{ref.number} {t.name} ({t.position.value}): moves {t.movement}{dribble}, pass {t.pass_ruler}, "
            f"kick {t.accuracy}, take {t.strength} (foul {t.foul}){keeper}")


class ActionPanel:
    """The face's ``panel``: open actions to forms."""

    kick_off_player = staticmethod(kick_off_player)
    kick_odds = staticmethod(kick_odds)
    tile_text = staticmethod(tile_text)

    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        _button, wrap_label = _widgets()
        s = view.state
        if not s.created:
            return
        if s.phase is Phase.OVER:
            add(wrap_label(f"The match is over: {self.phase_line(view.summary)}.", 18, bold=True))
            return
        open_ = by_id(view.actions)
        sel = screen.selected
        # Buttons that come and go stand below those that stay, and a hint keeps the room of
        # the button it stands for: nothing moves under a finger (the issue's "Start the
        # clock" moved every button up and the next tap opened a substitution).
        self._clock_room(view, open_, add)
        self._lineup_panel(screen, view, open_, add)
        self._restart_panel(screen, view, open_, add)
        self._turn_panel(screen, view, open_, add)
        self._clock_panel(screen, view, open_, add)
        self._take_panel(screen, view, open_, add)
        if sel is not None and sel in s.players:   # last: selecting a figure moves no button
            add(wrap_label(tile_text(s, sel), 14, colour=(0.75, 0.9, 1, 1)))

    @staticmethod
    def _clock_room(view: Any, open_: dict, add: Callable[[Any], None]) -> None:
        """While the clock runs, a line in the room of the "Start the match clock" request
        (the last of the requests above): starting or pausing the clock moves nothing."""
        if "time_up" in open_ and "pause_clock" in open_ and not any(r.id == "clock" for r in view.pending):
            _button, wrap_label = _widgets()
            add(wrap_label("Match clock running (pause it when play stops)", SMALL_SP))

    def _lineup_panel(self, screen: Any, view: Any, open_: dict, add: Callable[[Any], None]) -> None:
        button, wrap_label = _widgets()
        s = view.state
        button_room, _legend = _steady()

        def kick_off() -> None:
            for a in open_.get("kick_off", ()):
                kicker = kick_off_player(s, screen.selected)
                if kicker is not None:
                    add(button(f"Kick off: #{kicker.number} passes...", lambda k=kicker: self._start_pass(screen, k)))
                else:
                    add(button_room(f"Put a {a.team.label} player in the centre circle to kick off."))

        # What the step is for comes first: the line-up while a side still lacks figures, then
        # the kick-off (at 800x600 the panel shows the requests and about two rows more; the
        # line-up's hint and buttons had kept "Kick off" under the fold once the figures stood).
        # Each is its own step (the head request changes), so nothing moves within one.
        lining_up = any(r.id.startswith("lineup_") for r in view.pending)
        if not lining_up:
            kick_off()
        if "line_up" in open_:
            add(wrap_label("Select a player (figure or chip), then touch a space in his own field.", 15))
            for a in open_["line_up"]:
                add(button(f"{a.team.label}: default line-up", lambda t=a.team: self._line_up(screen, view, t)))
        if lining_up:
            kick_off()
        if "substitute" in open_:
            add(button("Substitution...", lambda: screen.set_mode("sub_off")))

    @staticmethod
    def _line_up(screen: Any, view: Any, team: Team) -> None:
        for command in lineup_commands(view.state, team):
            screen.submit(command)

    @staticmethod
    def _restart_panel(screen: Any, view: Any, open_: dict, add: Callable[[Any], None]) -> None:
        button, wrap_label = _widgets()
        s = view.state
        for a in open_.get("corner_taker", ()):
            slots = ", ".join(map(str, q.pitch(s).corners(q.attacked_end(a.team))))
            add(wrap_label(f"Select a {a.team.label} player, then touch a corner slot ({slots}).", 15))
        for a in open_.get("leave_area", ()):
            add(wrap_label(f"{a.team.label}: select each player in the area and touch a space outside it.", 15))
        for a in open_.get("penalty_taker", ()):
            team = a.team
            spot = q.pitch(s).spot(q.attacked_end(team))
            taker = screen.selected if screen.selected is not None and screen.selected.team is team \
                else s.restart.fouled
            if s.players[taker].on_field:
                add(button(f"#{taker.number} takes it (to the spot)",
                           lambda t=taker: screen.submit(PlaceFigure(t, square=spot))))
            add(wrap_label(f"Or select another {team.label} player and touch the spot {spot}.", 15))

    def _turn_panel(self, screen: Any, view: Any, open_: dict, add: Callable[[Any], None]) -> None:
        button, wrap_label = _widgets()
        button_room, _legend = _steady()
        s = view.state
        sel = screen.selected
        for a in open_.get("move", ()):
            if sel is not None and sel.team is a.team:
                add(button_room(f"Move #{sel.number}: touch a highlighted space."))
            else:
                add(button_room("Move: select a player, then touch a space."))
        if "pass" in open_:
            ball_legend(self, screen, view, add)
        for a in open_.get("pass", ()):
            carrier = a.arg("player")
            add(button(f"Pass from #{carrier.number}...", lambda k=carrier: self._start_pass(screen, k)))
            if not any(k.arg("player") == carrier for k in open_.get("kick", ())):
                problem = kick_problem(s, carrier)
                add(button_room(f"No kick: {problem[1]}." if problem is not None else "No kick now."))
        for a in open_.get("kick", ()):
            kicker = a.arg("player")
            add(button(f"Kick at goal (#{kicker.number}, hits on {kick_odds(s, kicker)})",
                       lambda k=kicker: screen.submit(c.Kick(k))))
        ends = open_.get("end_turn", ())
        for a in ends:
            add(button(f"{a.team.label}: end the turn", lambda t=a.team: screen.submit(c.EndTurn(t))))
        if not ends and open_.get("move"):
            add(button_room("End the turn: not yet, the ball must be played first."))

    def _take_panel(self, screen: Any, view: Any, open_: dict, add: Callable[[Any], None]) -> None:
        """Taking the ball: a button for each player next to the carrier (they come and go
        with the moves, so they stand last)."""
        button, wrap_label = _widgets()
        s = view.state
        for a in open_.get("take_ball", ()):
            carrier = s.ball
            cs = s.players[carrier].space
            takers = [p.ref for p in q.on_field(s, a.team)
                      if p.space is not None and cs is not None and q.pitch(s).adjacent(p.space, cs)]
            for ref in sorted(takers, key=lambda r: r.number):
                tile = s.players[ref].tile
                # By name as well as number: both sides wear a #9, and the two may stand side by side.
                add(button(f"#{ref.number} {tile.name} takes the ball from #{carrier.number} "
                           f"{s.players[carrier].tile.name} (1-{tile.strength}, foul {tile.foul})",
                           lambda t=ref: screen.submit(c.TakeBall(t))))
            if not takers:
                add(wrap_label(f"Take the ball: move a player next to #{carrier.number} first (orange spaces).",
                               14, colour=(0.8, 0.8, 0.8, 1)))

    def _clock_panel(self, screen: Any, view: Any, open_: dict, add: Callable[[Any], None]) -> None:
        # "time_up" is open while the match runs against a time limit: only then is the clock
        # worth a button (the rules also keep a clock for a match to a goal limit).
        if "time_up" not in open_:
            return
        button, _wrap = _widgets()
        s = view.state
        if "start_clock" in open_:
            add(button("Start the clock", lambda: screen.submit(c.StartClock(self.now()))))
            return
        if "pause_clock" in open_:
            add(button("Pause the clock", lambda: screen.submit(c.PauseClock(self.now()))))
        if s.clock.elapsed_at(self.now()) >= s.options.time_limit_min * 60:
            add(button("Time is up", lambda: screen.submit(c.CallTimeUp(self.now()))))
