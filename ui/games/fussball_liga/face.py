"""The Fußball-Liga variant on the tablet: the square grid with its goals, areas and marks;
the half's real-time clock and the phase time limit (the tablet is the game's clock: it
calls "time up" itself); each side's 18 movement points; kicks aimed by touch, interception
attempts, dribbling interceptions, the goalkeeper's options, set-ups, penalty-kicks, cards,
substitutions and corrections. The face is put together from its panels:

* ui/looks/fussball_liga/: the printed board, the figures, the ball and the scoreboard
  (shared with the scoreboard web page); lineup.py: the standard line-up;
* clocks.py: the clocks read as of now, time-up calls and the bars;
* scoreboard.py: bars, stepper, chips;
* actions.py: the action panel (open actions to forms); modes.py: touch modes and corrections.

Everything but the widgets the panels build is plain Python (tested without a window)."""

from __future__ import annotations

import re
from typing import Any

from companion import box
from companion.fussball_liga import commands as c
from companion.fussball_liga.components import load_components
from companion.fussball_liga.model import Options, PhaseLimit
from companion.teams import PlayerRef, Team

from ...looks.fussball_liga import FussballLigaLook
from ..base import Choice, Face
from .actions import ActionPanel
from .aims import Aims
from .clocks import Clocks
from .modes import Modes
from .scoreboard import Panels

OPTIONAL_RULES = ("goalkeeper_save", "taking_a_pass", "goal_posts", "bonus_points")


_TYPED_PLAYER = re.compile(r"(home|away)\s*#?\s*(\d{1,2})", re.IGNORECASE)


def _players(text: object) -> tuple[PlayerRef, ...]:
    """Players typed on the setup screen: "Home 4, Away 8" (or "home#4 away#8")."""
    if not text or not str(text).strip():
        return ()
    found = list(_TYPED_PLAYER.finditer(str(text)))
    rest = _TYPED_PLAYER.sub("", str(text)).replace(",", "").strip()
    if rest or not found:
        raise ValueError(f"players: write each as its side and shirt number, like \"Home 4, Away 8\" "
                         f"(got {str(text).strip()!r})")
    return tuple(PlayerRef(Team(m.group(1).lower()), int(m.group(2))) for m in found)



class FussballLigaFace(ActionPanel, Aims, Modes, Panels, Clocks, FussballLigaLook, Face):
    def __init__(self) -> None:
        # ``match_options`` also takes "optional_rules" (all four optional rules at once).
        super().__init__(game="fussball_liga", title="Fußball-Liga", tick_s=0.5, options=[
            Choice("no_limit", "No phase time limit (trying out tactics)"),
            Choice("chess_clock", "Chess clock instead of 30 s egg timers"),
            Choice("half", "Half length (minutes)", "45", ("10", "15", "20", "30", "45")),
            Choice("ties", "A draw goes to extra time and penalties"),
            Choice("keep_ends", "Keep the ends at half-time"),
            # The optional rules and tournament play: under "More options" (13 rows do not fit).
            Choice("goalkeeper_save", "Optional rule: the goalkeeper's save", more=True),
            Choice("taking_a_pass", "Optional rule: taking a pass", more=True),
            Choice("goal_posts", "Optional rule: goal posts", more=True),
            Choice("bonus_points", "Optional rule: bonus points", more=True),
            Choice("tournament", "Tournament play (yellow cards carry over)", more=True),
            Choice("third_foul_two_cards", "A third foul that is a 1: two yellow cards", more=True),
            Choice("carried_yellows", "Booked in this round's earlier match", "Home 4, Away 8", text=True, more=True),
            Choice("suspended", "Suspended for this match", "Away 8", text=True, more=True),
        ])
        self._sent: set[tuple] = set()   # time-up calls made (kind, team, the clock's as-of)

    # --- setup -------------------------------------------------------------------------------
    def teams(self, folder: Any = None) -> list[str]:
        return box.team_keys(self.game, folder)

    @staticmethod
    def match_options(options: dict[str, bool | str]) -> Options:
        limit = PhaseLimit.NONE if options.get("no_limit") else (
            PhaseLimit.CHESS_CLOCK if options.get("chess_clock") else PhaseLimit.EGG_TIMER)
        ties = bool(options.get("ties"))
        every = bool(options.get("optional_rules"))
        rules = {key: every or bool(options.get(key)) for key in OPTIONAL_RULES}
        carried, suspended = _players(options.get("carried_yellows")), _players(options.get("suspended"))
        return Options(phase_limit=limit, extra_time=ties, shootout=ties, half_minutes=int(options.get("half", 45)),
                       change_ends=not options.get("keep_ends"),
                       tournament=bool(options.get("tournament")) or bool(carried or suspended),
                       carried_yellows=carried, suspended=suspended,
                       third_foul_two_cards=bool(options.get("third_foul_two_cards")), **rules)

    def create(self, home: str, away: str, options: dict[str, bool | str], folder: Any) -> Any:
        rosters = {Team.HOME: box.team(self.game, home, folder), Team.AWAY: box.team(self.game, away, folder)}
        chosen = self.match_options(options)
        for ref in chosen.carried_yellows + chosen.suspended:
            roster = rosters[ref.team]
            if all(p.number != ref.number for p in roster.players):
                raise ValueError(f"{ref.team.label} {ref.number}: {roster.name} has no player #{ref.number}")
        return c.CreateMatch(rosters[Team.HOME], rosters[Team.AWAY], load_components(folder), chosen)
