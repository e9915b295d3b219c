"""What the tablet needs from a game beyond the core's Ruleset: how its board is drawn, where
its figures stand, what its scoreboard, bars and phase stepper say, and the buttons of its
actions. One ``Face`` per game (ui/games/<game>.py); the live screen and the pitch widget
know nothing else about a game.

Everything here is plain Python (no Kivy) except ``Face.panel``, which adds widgets the
screen hands it. Board geometry is in board millimetres, as the camera speaks: x along the
pitch from one goal line, y across it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion.board import GridBoard
from companion.teams import PlayerRef, Team
from companion.view import Summary

Cell = Hashable          # a game's square or space key, as its rules spell it
MmRect = tuple[float, float, float, float]   # x0, y0, x1, y1 in board millimetres

GRASS = ((0.16, 0.47, 0.22, 1), (0.19, 0.53, 0.25, 1), (0.22, 0.58, 0.28, 1))
WHITE = (1, 1, 1, 0.9)


@dataclass(frozen=True, slots=True)
class Shape:
    """One drawing instruction of the printed board, in board millimetres.

    ``kind``: "fill" and "outline" take ``data = (x0, y0, x1, y1)``; "line" takes a flat run
    of points ``(x0, y0, x1, y1, ...)``; "text" takes ``(x, y)`` and ``text``.
    """

    kind: str
    rgba: tuple[float, float, float, float]
    data: tuple[float, ...]
    width: float = 1.2
    text: str = ""


def shifted(shape: Shape, dx: float, dy: float) -> Shape:
    """The same shape moved by (dx, dy) millimetres."""
    data = tuple(v + (dx if i % 2 == 0 else dy) for i, v in enumerate(shape.data))
    return Shape(shape.kind, shape.rgba, data, shape.width, shape.text)


class Geometry:
    """A board as the tablet draws it: its size, printed shapes, and cells to touch."""

    length_mm: float
    width_mm: float

    def shapes(self) -> Sequence[Shape]:
        raise NotImplementedError

    def cell_at(self, x_mm: float, y_mm: float) -> Cell | None:
        raise NotImplementedError

    def cell_rect(self, cell: Cell) -> MmRect:
        raise NotImplementedError

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        x0, y0, x1, y1 = self.cell_rect(cell)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def figure_radius_mm(self) -> float:
        """How big a figure is drawn (its marker, not its base)."""
        raise NotImplementedError

    def point(self, cell: Cell) -> tuple[float, float]:
        """A cell's centre in the rules' board millimetres (what a camera sighting carries)."""
        return self.cell_centre(cell)


class RectGeometry(Geometry):
    """A grid of equal rectangular cells (Fublet's movement squares, Futboard's spaces, the
    Fußball-Liga squares): ``cols`` x ``rows`` over ``length_mm`` x ``width_mm``, the cell
    key ``(col, row)``, optionally a ring of ``margin`` cells outside the field."""

    def __init__(self, length_mm: float, width_mm: float, cols: int, rows: int, shapes: Sequence[Shape] = (),
                 margin: int = 0, radius: float = 0.45) -> None:
        self.cols, self.rows, self.margin = cols, rows, margin
        self.cw, self.ch = length_mm / cols, width_mm / rows
        # The drawn board includes the outer ring, so figures standing there can be touched.
        self.x_off, self.y_off = margin * self.cw, margin * self.ch
        self.length_mm = length_mm + 2 * self.x_off
        self.width_mm = width_mm + 2 * self.y_off
        # Shapes come in the rules' frame (the field from 0, 0): moved in by the ring.
        self._shapes = tuple(shifted(sh, self.x_off, self.y_off) for sh in shapes) if margin else tuple(shapes)
        self._radius = radius

    def shapes(self) -> Sequence[Shape]:
        return self._shapes

    def cell_at(self, x_mm: float, y_mm: float) -> Cell | None:
        col = int((x_mm - self.x_off) // self.cw)
        row = int((y_mm - self.y_off) // self.ch)
        m = self.margin
        if -m <= col < self.cols + m and -m <= row < self.rows + m:
            return (col, row)
        return None

    def cell_rect(self, cell: Cell) -> MmRect:
        col, row = cell  # type: ignore[misc]
        x0, y0 = self.x_off + col * self.cw, self.y_off + row * self.ch
        return x0, y0, x0 + self.cw, y0 + self.ch

    def figure_radius_mm(self) -> float:
        return min(self.cw, self.ch) * self._radius

    def to_board(self, x: float, y: float) -> tuple[float, float]:
        """Field millimetres (the rules' frame) to drawing millimetres (with the ring)."""
        return x + self.x_off, y + self.y_off

    def point(self, cell: Cell) -> tuple[float, float]:
        x, y = self.cell_centre(cell)
        return x - self.x_off, y - self.y_off


def grid_shapes(b: GridBoard, zone_lines: bool = True) -> list[Shape]:
    """The printed look of a GridBoard: pass squares in three shades of grass, touch and
    halfway lines, the areas, the two zone lines (Fublet), the goals."""
    out: list[Shape] = []
    pw, ph = b.length_mm / b.ps_cols, b.width_mm / b.ps_rows
    for shade in range(3):
        for c in range(b.ps_cols):
            for r in range(b.ps_rows):
                if (c + r) % 3 == shade:
                    out.append(Shape("fill", GRASS[shade], (c * pw, r * ph, (c + 1) * pw, (r + 1) * ph)))
    out.append(Shape("outline", WHITE, (0, 0, b.length_mm, b.width_mm), 1.5))
    out.append(Shape("line", WHITE, (b.length_mm / 2, 0, b.length_mm / 2, b.width_mm)))
    for name in ("penalty_area_low", "penalty_area_high", "goal_area_low", "goal_area_high", "yellow_lines"):
        if b.has_area(name):
            colour = (1, 0.9, 0.2, 0.9) if name == "yellow_lines" else WHITE
            for rect in b.area(name).rects:
                out.append(Shape("outline", colour, (rect.col0 * pw, rect.row0 * ph, (rect.col1 + 1) * pw,
                                                     (rect.row1 + 1) * ph)))
    if zone_lines and b.has_area("third_mid"):
        rect = b.area("third_mid").rects[0]
        for col in (rect.col0, rect.col1 + 1):
            out.append(Shape("line", (0.1, 0.35, 0.12, 0.9), (col * pw, 0, col * pw, b.width_mm), 2))
    for name in ("goal_line_low", "goal_line_high"):
        if b.has_area(name):
            for rect in b.area(name).rects:
                gx = -6 if name.endswith("low") else b.length_mm
                out.append(Shape("fill", (1, 1, 1, 1), (gx, rect.row0 * ph, gx + 6, (rect.row1 + 1) * ph)))
    return out


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure as drawn: where the books have it and what its look says."""

    ref: PlayerRef
    cell: Cell
    dim: bool = False            # exhausted, stunned, injured: not ready
    crossed: bool = False        # stunned, or lying down
    goalkeeper: bool = False
    manual: bool = False         # placed by a person, not yet confirmed by the camera
    at: tuple[float, float] | None = None   # an exact board point, when the game has one
    badge: str = ""              # a short tag drawn at the figure's shoulder: "Y" for a booking


@dataclass(frozen=True, slots=True)
class BallMark:
    """Where the ball is drawn: at a carrier's feet, in a cell, or at a board point."""

    carrier: PlayerRef | None = None
    cell: Cell | None = None
    at: tuple[float, float] | None = None


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


@dataclass(frozen=True, slots=True)
class Scoreboard:
    score: str
    clock: str
    phase: str


def scoreline(summary: Summary) -> str:
    """ "Home team  1 - 0  Away team" """
    (home, away), (h, a) = summary.teams, summary.score
    return f"{home}  {h} - {a}  {away}"


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
class Face:
    """A game as the tablet shows it. Subclasses fill in the game's parts."""

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

    # --- drawing -------------------------------------------------------------------------------
    def geometry(self, board: Any) -> Geometry:
        raise NotImplementedError

    def cached_geometry(self, board: Any, build: Callable[[Any], Geometry]) -> Geometry:
        """``build(board)``, built again only when the board object changes (every view asks;
        boards are immutable but not all hashable)."""
        cached = getattr(self, "_geometry_cache", None)
        if cached is None or cached[0] is not board:
            cached = (board, build(board))
            self._geometry_cache = cached
        return cached[1]

    def figures(self, state: Any) -> list[Figure]:
        raise NotImplementedError

    def ball(self, state: Any, board: Any) -> BallMark:
        raise NotImplementedError

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
    def scoreboard(self, summary: Summary, now: datetime | None = None) -> Scoreboard:
        return Scoreboard(scoreline(summary), summary.clock.period, summary.phase.replace("_", " "))

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
