"""Futboard on the tablet: the field of spaces as printed, turns of three actions, the match
clock or the goal limit, line-ups, passes by touch, kicks, taking the ball, corners,
penalties and substitutions. The face is put together from its panels:

* ui/looks/futboard/: the printed field, the figures, the ball and the scoreboard (shared
  with the scoreboard web page); lineup.py: default line-ups;
* scoreboard.py: bars, stepper, chips and the tablet's clock;
* actions.py: the action panel (open actions to forms); modes.py: touch modes.

Everything but the widgets the panels build is plain Python (tests read it without a window).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from companion import box
from companion.futboard import commands as c
from companion.futboard import queries as q
from companion.futboard.components import load_components
from companion.futboard.model import Corner, KickOff, Options, Penalty, Phase, Variant
from companion.teams import PlayerRef, Team

from ...looks.futboard import FutboardLook
from ..base import Choice, Face
from .actions import ActionPanel
from .modes import Modes
from .scoreboard import Panels

TIME_LIMIT_MIN = 20      # the time limit the setup screen offers first
GOAL_LIMIT = 3           # the goal limit of the old yes/no "goals" option


def _limit(value: object, default: int | None) -> int | None:
    """A limit from the setup screen: a number, "none", or absent (the default)."""
    if value is None:
        return default
    if value == "none":
        return None
    return int(value)



class FutboardFace(ActionPanel, Modes, Panels, FutboardLook, Face):
    def __init__(self) -> None:
        super().__init__(game="futboard", title="Futboard", tick_s=1.0,
                         options=[Choice("street", "Futboard Street (variant)"),
                                  Choice("kick_off", "Starts with the ball", "Home", ("Home", "Away")),
                                  Choice("time", "Time limit (minutes)", str(TIME_LIMIT_MIN),
                                         ("none", "10", "20", "30", "45", "60")),
                                  Choice("goal_limit", "Goal limit", "none", ("none", "1", "2", "3", "5")),
                                  Choice("keeper_in_line", "The goalkeeper counts in the four in a line")])
        self._time_up_at: datetime | None = None
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)

    # --- setup -------------------------------------------------------------------------------
    def teams(self, folder: Any = None) -> list[str]:
        return box.team_keys(self.game, folder)

    def create(self, home: str, away: str, options: dict[str, bool], folder: Any) -> c.CreateMatch:
        street = bool(options.get("street"))
        # "goals" (a yes/no switch of earlier versions) still means: first to 3, no clock.
        goals = _limit(options.get("goal_limit"), GOAL_LIMIT if options.get("goals") else None)
        minutes = _limit(options.get("time"), None if options.get("goals") else TIME_LIMIT_MIN)
        if minutes is None and goals is None:
            raise ValueError("choose a time limit or a goal limit: the match needs one to end")
        components = load_components(folder, board="street" if street else "futboard")
        self._learn(components.pitch)
        return c.CreateMatch(box.team(self.game, home, folder), box.team(self.game, away, folder), components,
                             Options(variant=Variant.STREET if street else Variant.FUTBOARD,
                                     kick_off=Team.AWAY if options.get("kick_off") == "Away"
                                     or options.get("away_starts") else Team.HOME,
                                     time_limit_min=minutes, goal_limit=goals,
                                     keeper_in_line=bool(options.get("keeper_in_line"))))

    # --- touches ------------------------------------------------------------------------------
    def reach(self, ruleset: Any, state: Any, player: PlayerRef) -> list:
        """Where the selected figure may go now: its movement in play, the free corner slots
        for the corner's taker, the spot for the penalty's taker, out of the area for the side
        that fouled."""
        if not state.created or player not in state.players or not state.players[player].on_field:
            return []
        p = q.pitch(state)
        r = state.restart
        taken = set(q.occupied(state, but=player))
        if state.phase is Phase.CORNER and isinstance(r, Corner):
            if player.team is not r.team:
                return []
            return sorted(sq for sq in p.corners(q.attacked_end(r.team)) if sq not in taken)
        if state.phase is Phase.PENALTY and isinstance(r, Penalty):
            if player.team is r.team:
                spot = p.spot(q.attacked_end(r.team))
                return [] if r.kicker is not None or spot in taken else [spot]
            end = q.own_end(r.team.other)
            if not p.in_penalty_area(state.players[player].space, end):
                return []
            return sorted(sq for sq in super().reach(ruleset, state, player) if not p.in_penalty_area(sq, end))
        if state.phase is Phase.LINEUP and isinstance(r, KickOff):
            circle = set(p.centre_circle) if r.team is player.team else set()
            return sorted(sq for sq in p.field(state.street).squares()
                          if sq not in taken and (q.in_own_field(state, player.team, sq) or sq in circle))
        if state.phase is Phase.PLAY and state.turn is player.team:
            return super().reach(ruleset, state, player)
        return []

