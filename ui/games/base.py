"""What the tablet needs from a game beyond the core's Ruleset and the game's look: what its
bars and phase stepper say, its options, and the buttons of its actions. One ``Face`` per game
(ui/games/<game>); the live screen and the pitch widget know nothing else about a game.

How a match is drawn (the board, the figures, the ball, the scoreboard's lines) is the game's
``Look`` (ui/looks/), plain Python shared with the scoreboard web page; a face is its look
plus the tablet's parts. Everything here is plain Python (no Kivy) except ``Face.panel``,
which adds widgets the screen hands it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion.teams import PlayerRef, Team
from companion.view import Summary

from ..looks.base import Cell, Look


@dataclass(frozen=True, slots=True)
class Chip:
    """A player card under the pitch: touching it selects the player."""

    ref: PlayerRef
    text: str
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class BarSpec:
    caption: str
    value: float
    maximum: float
    colour: tuple[float, float, float, float] = (0.95, 0.8, 0.2, 1)


# What a lit cell would mean if tapped, its colour on the board and its words in the legend.
TARGET_KINDS: dict[str, tuple[tuple[float, float, float, float], str]] = {
    "move": ((1, 1, 1, 0.22), "move"),
    "dribble": ((1, 0.9, 0.2, 0.45), "run with the ball"),
    "dodge": ((0.75, 0.45, 1, 0.50), "move and dodge"),
    "take": ((0.3, 1, 1, 0.45), "take the loose ball"),
    "pass": ((0.2, 1, 0.35, 0.50), "pass to a teammate"),
    "shot": ((1, 0.25, 0.9, 0.60), "shot at goal"),
    "tackle": ((1, 0.35, 0.1, 0.60), "tackle the ball carrier"),
    "loose": ((0.45, 0.7, 1, 0.40), "into space (the ball lies free)"),
    "opponent": ((1, 0.55, 0.1, 0.55), "to an opponent"),
    "out": ((0.6, 0.6, 0.6, 0.55), "out of play"),
    "offside": ((1, 0.15, 0.15, 0.55), "off-side"),
    "own_goal": ((1, 0.15, 0.15, 0.55), "own goal"),
    "place": ((1, 1, 1, 0.20), "he may stand here"),
    "kicker": ((0.2, 1, 0.35, 0.55), "where the taker stands"),
    "keeper": ((0.3, 1, 1, 0.50), "the goalkeeper's squares"),
}


TEAM_BAR = {Team.HOME: (0.2, 0.4, 0.9, 1), Team.AWAY: (0.9, 0.25, 0.25, 1)}


@dataclass
class Choice:
    """One game option on the setup screen (Futboard Street, championship play, ...): a yes/no
    switch, or, with ``values``, one of several (``default`` then is one of them), or with
    ``text`` a line the coach types (``default`` then is its hint). ``more``: folded under the
    setup screen's "More options" row, so a game with many options still fits one screen."""

    key: str
    label: str
    default: bool | str = False
    values: tuple[str, ...] = ()
    text: bool = False
    more: bool = False


@dataclass
class Face(Look):
    """A game as the tablet shows it: its look (drawing, scoreboard) and the tablet's parts.
    A game's face is ``class XFace(<panels>, XLook, Face)``."""

    game: str = ""
    title: str = ""
    options: list[Choice] = field(default_factory=list)
    # When set, the screen calls ``tick`` this often (seconds): real-time clocks.
    tick_s: float | None = None

    # --- setup -------------------------------------------------------------------------------
    def teams(self, folder: Any = None) -> list[str]:
        """The teams' keys: the shipped ones and those in the table's box folder ``folder``."""
        raise NotImplementedError

    def team_name(self, team: str, folder: Any = None) -> str:
        """A team's name as its roster prints it ("Touchline Rovers" for "rovers"): the table's
        own roster in ``folder`` where it has one, else the shipped one."""
        try:
            from companion import box
            return str(getattr(box.team(self.game, team, folder), "name", "") or team)
        except Exception:   # an unreadable roster still shows its key; starting says what is wrong
            return team

    def default_pair(self, folder: Any = None) -> tuple[str, str]:
        names = self.teams(folder)
        return (names[-1], names[0]) if len(names) > 1 else (names[0], names[0])

    def create(self, home: str, away: str, options: dict[str, bool], folder: Any) -> Any:
        """The game's CreateMatch command for two shipped teams; ``folder`` holds the table's
        own box data when it has some (else None: the shipped files)."""
        raise NotImplementedError

    # --- drawing (the look draws; these mark what a touch can do) ----------------------------
    def marked(self, screen: Any, view: Any) -> list[Cell]:
        """Cells to outline now (a mode's candidates: pass receivers, free corner slots)."""
        return []

    def reach(self, ruleset: Any, state: Any, player: PlayerRef) -> list[Cell]:
        """The cells the selected figure can reach (drawn as a highlight)."""
        try:
            return sorted(ruleset.reachable(state, player))
        except (KeyError, ValueError, TypeError):
            return []

    def targets(self, ruleset: Any, state: Any, player: PlayerRef) -> dict[Cell, str]:
        """The cells the selected figure may go to now, each with its kind (a key of
        ``TARGET_KINDS``: what a tap there would mean); by default his movement range, drawn
        in the board's plain highlight (a kind of no meaning of its own)."""
        return {cell: "reach" for cell in self.reach(ruleset, state, player)}

    # --- the panels ------------------------------------------------------------------------------
    def bars(self, summary: Summary) -> list[BarSpec]:
        return []

    def stepper(self, state: Any, summary: Summary) -> tuple[Sequence[str], str]:
        """The phase names to show in order, and the current one."""
        return (), ""

    def chips(self, state: Any) -> Iterable[Chip]:
        return ()

    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        """Add the buttons for what the coaches can do now (after the screen has shown the
        pending requests; dice and choices the screen handles itself)."""

    def choice_button(self, screen: Any, view: Any, request: Any, option: str) -> Any | None:
        """A widget of the game's own for one option of a pending choice (a volley that needs
        its shot first); None: the screen's plain button, which answers with the option."""
        return None

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        """The panel while the screen is in one of this game's modes (``screen.mode``); False
        when the mode is not this game's."""
        return False

    # --- touches --------------------------------------------------------------------------------
    def on_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        """A touched figure in one of the game's modes; False leaves it to the screen (select)."""
        return False

    def on_cell(self, screen: Any, view: Any, cell: Cell) -> bool:
        """A touched empty cell in one of the game's modes; False leaves it to the screen
        (move the selected figure there)."""
        return False

    def tick(self, screen: Any, view: Any, now: datetime) -> None:
        """Called every ``tick_s`` seconds while a match is shown (real-time clocks)."""
