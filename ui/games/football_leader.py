"""Football Leader on the tablet: the board of 38 spaces (halved spaces, dotted lines, goals,
shooting numbers), up to four counters a space, decks, hands and Moved Markers as bars, and
the actions of a turn played with the action card the coach lays face up.

The rules count the cards in each hand but never see them (the decks are physical), so the
card buttons offer every card the coach's deck still holds this period: the coach touches
the one he plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion import box
from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader.components import Card, Colour, load_components
from companion.football_leader.model import (POSITION_CHANGES, DodgePlan, Options, Phase, Stage,
                                            StrategySheet)
from companion.football_leader.movement import plan_move
from companion.football_leader.pitch import HIGH, LOW, Space, SpaceBoard
from companion.teams import PlayerRef, Team

from .. import theme
from ..autoflow import expect
from ..widgets.keypad import TOUCH, button, wrap_label
from .base import GRASS, TEAM_BAR, WHITE, BallMark, BarSpec, Chip, Choice, Face, Figure, Geometry, Scoreboard, Shape

STEPS = ("strategy", "opening roll", "set up", "kick off", "main action", "shoot or extra", "extra movement",
         "shootout", "over")
CARD_RGBA = {Colour.GOLD: (1.0, 0.78, 0.1, 1), Colour.SILVER: (0.72, 0.75, 0.8, 1),
             Colour.BRONZE: (0.78, 0.45, 0.2, 1)}
FIGURE_MM = 17.0      # a counter drawn this big: two of a team stacked fit a space
GOAL_DEPTH = 60.0     # the goal spaces stand outside the goal lines

# Strategy sheets for the team defending x = 0 (the other team's sheet is the board turned
# half round), by the order of the ten outfield starters. The shipped board's rows 0..3
# are a team's own half; any other board gets its own sheet written by touch.
PRESETS: dict[str, tuple[tuple[Space, ...], tuple[Space, ...]]] = {
    # name: (kick-off spaces, goal-kick spaces)
    "4-4-2": (((0, 1), (0, 3), (1, 1), (1, 4), (2, 0), (2, 4), (2, 2), (3, 2), (3, 3), (3, 1)),
              ((0, 1), (0, 3), (1, 2), (1, 3), (2, 1), (2, 3), (2, 2), (3, 2), (3, 3), (3, 4))),
    "attacking": (((0, 1), (0, 3), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3), (3, 4)),
                  ((0, 2), (1, 1), (1, 4), (2, 0), (2, 2), (2, 4), (3, 1), (3, 2), (3, 3), (3, 4))),
    "defensive": (((0, 1), (0, 2), (0, 3), (1, 1), (1, 4), (2, 1), (2, 3), (2, 2), (3, 2), (3, 3)),
                  ((0, 1), (0, 2), (0, 3), (1, 1), (1, 4), (1, 2), (1, 3), (2, 2), (2, 1), (2, 3))),
}

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
DODGES = "move_dodges"   # the ball carrier's movement with its dodges planned (4.1, 4.2)
SLOT_TEXT = {"mover": "touch the counter to move", "receiver": "touch the receiver",
             "taker": "touch the counter who takes the kick", "tackler": "touch the tackling counter",
             "space": "touch the space to move to"}


# --- the board ------------------------------------------------------------------------------------

def _segments_minus(a0: float, a1: float, cuts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The parts of [a0, a1] outside every cut (the solid rest of an edge with dotted stretches)."""
    parts = [(a0, a1)]
    for c0, c1 in cuts:
        out = []
        for p0, p1 in parts:
            if c1 <= p0 or c0 >= p1:
                out.append((p0, p1))
                continue
            if c0 > p0:
                out.append((p0, c0))
            if c1 < p1:
                out.append((c1, p1))
        parts = out
    return [p for p in parts if p[1] - p[0] > 0.5]


def _shared_edge(a, b) -> tuple[str, float, float, float] | None:
    """The edge two touching rectangles share: ("v", x, y0, y1) or ("h", y, x0, x1)."""
    for xa, xb in ((a.x1, b.x0), (a.x0, b.x1)):
        if abs(xa - xb) < 0.5:
            lo, hi = max(a.y0, b.y0), min(a.y1, b.y1)
            if hi - lo > 0.5:
                return ("v", xa, lo, hi)
    for ya, yb in ((a.y1, b.y0), (a.y0, b.y1)):
        if abs(ya - yb) < 0.5:
            lo, hi = max(a.x0, b.x0), min(a.x1, b.x1)
            if hi - lo > 0.5:
                return ("h", ya, lo, hi)
    return None


def _dashes(kind: str, at: float, lo: float, hi: float, dash: float = 8.0) -> list[Shape]:
    out = []
    v = lo
    while v < hi:
        end = min(v + dash, hi)
        data = (at, v, at, end) if kind == "v" else (v, at, end, at)
        out.append(Shape("line", (1, 1, 1, 0.85), data, 1.3))
        v += 2 * dash
    return out


def _circle(cx: float, cy: float, r: float, n: int = 40) -> tuple[float, ...]:
    import math
    pts: list[float] = []
    for i in range(n + 1):
        a = 2 * math.pi * i / n
        pts.extend((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(pts)


def board_shapes(b: SpaceBoard) -> list[Shape]:
    """The printed board in the rules' millimetres: grass by rows, the field's lines (touch
    lines, halfway line, centre circle, penalty areas), every space's outline with its dotted
    stretches, the goals, each space's label and shooting numbers."""
    out: list[Shape] = []
    pitch = b.pitch_spaces()
    for sp in pitch:
        out.append(Shape("fill", GRASS[sp.key[0] % 2], (sp.x0, sp.y0, sp.x1, sp.y1)))
    for sp in pitch:
        if sp.penalty_area:   # the printed areas: a lighter shade over their spaces
            out.append(Shape("fill", (1, 1, 1, 0.07), (sp.x0, sp.y0, sp.x1, sp.y1)))
    # Dotted stretches, by the edges they lie on.
    cuts: dict[tuple[str, float], list[tuple[float, float]]] = {}
    dotted: list[Shape] = []
    for link in b.links:
        if not link.dotted:
            continue
        edge = _shared_edge(b.space(link.a), b.space(link.b))
        if edge is None:
            continue
        kind, at, lo, hi = edge
        cuts.setdefault((kind, round(at, 1)), []).append((lo, hi))
        dotted.extend(_dashes(kind, at, lo, hi))
    line = (1, 1, 1, 0.55)
    for sp in pitch:
        edges = (("v", sp.x0, sp.y0, sp.y1), ("v", sp.x1, sp.y0, sp.y1), ("h", sp.y0, sp.x0, sp.x1),
                 ("h", sp.y1, sp.x0, sp.x1))
        for kind, at, lo, hi in edges:
            for p0, p1 in _segments_minus(lo, hi, cuts.get((kind, round(at, 1)), [])):
                out.append(Shape("line", line, (at, p0, at, p1) if kind == "v" else (p0, at, p1, at), 1.0))
    out.extend(dotted)
    # The football field over the spaces.
    out.append(Shape("outline", WHITE, (0, 0, b.length_mm, b.width_mm), 2.0))
    mid = b.length_mm / 2
    out.append(Shape("line", WHITE, (mid, 0, mid, b.width_mm), 1.6))
    central = [sp for sp in pitch if sp.central]
    cy = (min(sp.y0 for sp in central) + max(sp.y1 for sp in central)) / 2 if central else b.width_mm / 2
    out.append(Shape("line", WHITE, _circle(mid, cy, min(b.width_mm, b.length_mm) * 0.12), 1.6))
    for end in (LOW, HIGH):
        area = [sp for sp in pitch if sp.penalty_area and b.end_of(sp.key) == end]
        if area:
            out.append(Shape("outline", WHITE, (min(s.x0 for s in area), min(s.y0 for s in area),
                                                max(s.x1 for s in area), max(s.y1 for s in area)), 1.8))
    for sp in b.spaces:
        if sp.goal:
            out.append(Shape("fill", (0.92, 0.92, 0.95, 0.35), (sp.x0, sp.y0, sp.x1, sp.y1)))
            out.append(Shape("outline", WHITE, (sp.x0, sp.y0, sp.x1, sp.y1), 2.0))
            for i in range(1, 4):   # the net
                y = sp.y0 + (sp.y1 - sp.y0) * i / 4
                out.append(Shape("line", (1, 1, 1, 0.35), (sp.x0, y, sp.x1, y), 1.0))
    # Labels last, over the lines: the name in a corner, the shooting numbers along the bottom
    # (y grows upwards on the screen: the top of a space is y1).
    for sp in pitch:
        h = sp.y1 - sp.y0
        size = 13.0 if h >= 80 else 11.0
        out.append(Shape("text", (1, 1, 1, 0.75), (sp.x0 + 14, sp.y1 - size * 0.75), size, sp.label))
        if sp.shoot is not None:
            out.append(Shape("text", (1, 0.92, 0.35, 0.9), ((sp.x0 + sp.x1) / 2, sp.y0 + size * 0.7), size,
                             sp.shoot.to_json()))
    return out


class SpaceGeometry(Geometry):
    """A SpaceBoard as the tablet draws it: cells are the spaces' keys; the drawing starts at
    the back of the low goal (the goal spaces lie outside the field)."""

    def __init__(self, board: SpaceBoard, radius_mm: float = FIGURE_MM) -> None:
        self.board = board
        x0 = min(sp.x0 for sp in board.spaces)
        y0 = min(sp.y0 for sp in board.spaces)
        self.x_off, self.y_off = max(0.0, -x0), max(0.0, -y0)
        self.length_mm = max(board.length_mm, max(sp.x1 for sp in board.spaces)) + self.x_off
        self.width_mm = max(board.width_mm, max(sp.y1 for sp in board.spaces)) + self.y_off
        self._radius = radius_mm
        self._shapes = tuple(_shift(sh, self.x_off, self.y_off) for sh in board_shapes(board))

    def shapes(self) -> Sequence[Shape]:
        return self._shapes

    def cell_at(self, x_mm: float, y_mm: float) -> Space | None:
        x, y = x_mm - self.x_off, y_mm - self.y_off
        for sp in self.board.spaces:
            if sp.contains(x, y):
                return sp.key
        return None

    def cell_rect(self, cell) -> tuple[float, float, float, float]:
        sp = self.board.space(tuple(cell))
        return sp.x0 + self.x_off, sp.y0 + self.y_off, sp.x1 + self.x_off, sp.y1 + self.y_off

    def figure_radius_mm(self) -> float:
        return self._radius

    def point(self, cell) -> tuple[float, float]:
        return self.board.center_mm(tuple(cell))

    def to_drawing(self, x: float, y: float) -> tuple[float, float]:
        return x + self.x_off, y + self.y_off


def _shift(shape: Shape, dx: float, dy: float) -> Shape:
    if not dx and not dy:
        return shape
    data = tuple(v + (dx if i % 2 == 0 else dy) for i, v in enumerate(shape.data))
    return Shape(shape.kind, shape.rgba, data, shape.width, shape.text)


def counter_spots(state: Any, g: SpaceGeometry, where: dict[PlayerRef, Space] | None = None,
                  ) -> dict[PlayerRef, tuple[float, float]]:
    """Where each counter on the board is drawn (drawing millimetres): in the half of its space
    nearest its own goal (1.2), stacked when two; an unmarked ball carrier in the middle, over
    its markers (3.4); a goalkeeper in the middle of the goal space."""
    b = g.board
    out: dict[PlayerRef, tuple[float, float]] = {}
    if where is None:
        where = {p.ref: p.space for p in state.players.values() if p.on_pitch and p.space is not None}
    by_space: dict[tuple[Space, Team], list] = {}
    for ref, space in where.items():
        if b.has(space):
            by_space.setdefault((space, ref.team), []).append(ref)
    for (space, team), group in by_space.items():
        sp = b.space(space)
        group.sort(key=lambda r: r.number)
        if sp.goal:
            xs = [(sp.x0 + sp.x1) / 2] * len(group)
        else:
            low = q.own_end(state, team) == LOW
            xs = [sp.x0 + (sp.x1 - sp.x0) * (0.27 if low else 0.73)] * len(group)
        for i, ref in enumerate(group):
            x = xs[i]
            if q.is_unmarked(state, ref):
                x = (sp.x0 + sp.x1) / 2
            y = sp.y0 + (sp.y1 - sp.y0) * (i + 1) / (len(group) + 1)
            out[ref] = g.to_drawing(x, y)
    return out


def card_text(card: Card) -> str:
    return f"{card.colour.value.upper()} {card.move}-{card.bonus}"


def preset_sheet(state: Any, team: Team, name: str) -> StrategySheet:
    """A preset sheet for ``team``: its first ten outfield counters by number; the team
    defending x = L reads the spaces on the board turned half round."""
    roster = state.roster(team)
    starters = sorted(cn.number for cn in roster.counters if not cn.goalkeeper)[:10]
    ko, gk = PRESETS[name]
    b = q.board(state)
    turn = (lambda sp: sp) if q.own_end(state, team) == LOW else b.mirror
    return StrategySheet(roster.goalkeeper.number, {n: turn(sp) for n, sp in zip(starters, gk)},
                         {n: turn(sp) for n, sp in zip(starters, ko)})


def _support_colour(need: Any, dodge: dict) -> Colour | None:
    """The card colour the chosen support of a planned dodge costs (None: free or none)."""
    for opt in need.supporters:
        if opt.supporter == dodge.get("supporter"):
            return opt.colour
    return None


class FootballLeaderFace(Face):
    def __init__(self) -> None:
        super().__init__(game="football_leader", title="Football Leader",
                         options=[Choice("extra_time", "Extra time on a draw", True),
                                  Choice("shootout", "Penalty kicks after a draw", True),
                                  Choice("pass_one_loses_in_origin", "Optional: a 1 loses a pass in origin"),
                                  Choice("tackle_loop_rule", "Recommended: no tackling back the next turn", True),
                                  Choice("second_yellow_sends_off", "A second yellow card sends off", True)])

    # --- setup -------------------------------------------------------------------------------
    def teams(self, folder: Any = None) -> list[str]:
        return box.team_keys(self.game, folder)

    def create(self, home: str, away: str, options: dict[str, bool], folder: Any) -> Any:
        return c.CreateMatch(box.team(self.game, home, folder), box.team(self.game, away, folder),
                             load_components(folder),
                             Options(extra_time=bool(options.get("extra_time", True)),
                                     shootout=bool(options.get("shootout", True)),
                                     pass_one_loses_in_origin=bool(options.get("pass_one_loses_in_origin")),
                                     tackle_loop_rule=bool(options.get("tackle_loop_rule", True)),
                                     second_yellow_sends_off=bool(options.get("second_yellow_sends_off", True))))

    # --- drawing -------------------------------------------------------------------------------
    def geometry(self, board: SpaceBoard) -> SpaceGeometry:
        return self.cached_geometry(board, SpaceGeometry)

    def figures(self, state: Any) -> list[Figure]:
        if state.components is None:
            return []
        g = self.geometry(state.components.board)
        spots = counter_spots(state, g)
        out = []
        for p in state.players.values():
            if p.ref in spots:
                # Dim: a Moved Marker on it; the badge: booked (a yellow card marker).
                out.append(Figure(p.ref, p.space, dim=p.markers > 0, goalkeeper=p.goalkeeper, manual=p.manual,
                                  at=spots[p.ref], badge="Y" * p.yellow))
        if state.phase is Phase.SET_UP:
            out.extend(self._sheet_preview(state, g, {f.ref for f in out}))
        return out

    def _sheet_preview(self, state: Any, g: SpaceGeometry, placed: set) -> list[Figure]:
        """Before the first kick-off no counter stands yet: the sheets' places, dimmed, so a
        coach can touch them (a position change) before both confirm."""
        if state.restart is None:
            return []
        kick_off = state.restart.kind.value == "kick_off"
        where = {}
        for team, sheet in state.sheets.items():
            for number, space in (sheet.kick_off if kick_off else sheet.goal_kick).items():
                ref = PlayerRef(team, number)
                p = state.players.get(ref)
                if ref not in placed and p is not None and p.on_pitch and g.board.has(space):
                    where[ref] = space
        spots = counter_spots(state, g, where)
        return [Figure(ref, space, dim=True, at=spots[ref]) for ref, space in where.items()]

    def ball(self, state: Any, board: SpaceBoard | None) -> BallMark:
        if state.ball is not None:
            return BallMark(carrier=state.ball)
        if board is None:
            return BallMark()
        # Before a kick-off the ball waits on the centre spot.
        g = self.geometry(board)
        return BallMark(at=g.to_drawing(board.length_mm / 2, board.width_mm / 2))

    # --- panels --------------------------------------------------------------------------------
    def scoreboard(self, summary: dict[str, Any], now: datetime | None = None) -> Scoreboard:
        teams = summary.get("teams", {})
        score = summary.get("score", {})
        text = (f"{teams.get('home', 'Home')}  {score.get('home', 0)} - {score.get('away', 0)}  "
                f"{teams.get('away', 'Away')}")
        shoot = summary.get("shootout") or {}
        if shoot:
            text += f"  ({shoot.get('home', 0)}-{shoot.get('away', 0)} pens)"
        turn = summary.get("turn") or {}
        half = str(summary.get("half", ""))
        # No clock: a half lasts as long as the decks; the turn counts the time.
        clock = f"{half}, turn {turn['number']}" if turn else half
        if summary.get("last_turn"):
            clock += f" of {summary['last_turn']}"
        phase = str(summary.get("phase", "")).replace("_", " ")
        if turn and summary.get("phase") == "turn":
            phase = f"{turn['team'].capitalize()}'s turn: {turn['stage'].replace('_', ' ')}"
        elif summary.get("restart") and summary.get("phase") in ("set_up", "kick_off"):
            r = summary["restart"]
            phase = f"{phase.capitalize()}: {r['kind'].replace('_', ' ')} for {r['team'].capitalize()}"
        result = summary.get("result")
        if result:
            phase = "Full time" + (f": {result['winner'].capitalize()} win ({result['decided_by']})"
                                   if result.get("winner") else ": a draw")
        return Scoreboard(text, clock, phase)

    def bars(self, summary: dict[str, Any]) -> list[BarSpec]:
        decks = summary.get("decks") or {}
        out = []
        for team in (Team.HOME, Team.AWAY):
            d = decks.get(team.value)
            if not d:
                continue
            colour = TEAM_BAR[team]
            # One bar a team (the deck left), its caption in words: readable at 18 sp.
            out.append(BarSpec(f"{team.label}: deck {d['deck']}, hand {d['hand']}, moved "
                               f"{d['markers_on_board']}/{d['markers_total']}", d["deck"], d["size"] or 50, colour))
        return out

    def stepper(self, state: Any, summary: dict[str, Any]) -> tuple[tuple[str, ...], str]:
        phase = state.phase
        if phase is Phase.TURN and state.turn is not None:
            stage = state.turn.stage
            if stage in (Stage.CARRIER_MOVED, Stage.PASSED, Stage.VISION_PASSED):
                return STEPS, "shoot or extra"
            if stage in (Stage.AFTER_MAIN, Stage.DONE):
                return STEPS, "extra movement"
            return STEPS, "main action"
        return STEPS, {Phase.STRATEGY: "strategy", Phase.OPENING_ROLL: "opening roll", Phase.SET_UP: "set up",
                       Phase.KICK_OFF: "kick off", Phase.SHOOTOUT: "shootout", Phase.OVER: "over"}.get(phase, "")

    def chips(self, state: Any) -> list[Chip]:
        out = []
        for p in sorted(state.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
            if p.where.value == "bench":
                continue
            # ~ a Moved Marker (two with Run), Y a yellow card, R sent off, x replaced, ? not on a space.
            mark = "~" * p.markers + "Y" * p.yellow + ("R" if p.sent_off else "")
            mark += "x" if p.replaced and not p.sent_off else ""
            mark += "?" if p.on_pitch and p.space is None else ""
            out.append(Chip(p.ref, f"{p.ref.number}{mark}", enabled=p.on_pitch))
        return out

    # --- the action panel ------------------------------------------------------------------------
    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        state = view.state
        self._clear_marks(screen)
        if not state.created:
            return
        phase = state.phase
        if phase is Phase.OVER:
            add(wrap_label("The match is over.", 18, bold=True))
            return
        if phase is Phase.STRATEGY:
            self._strategy_panel(screen, state, add)
        elif phase is Phase.SET_UP:
            self._set_up_panel(screen, state, add)
        elif phase is Phase.KICK_OFF:
            self._kick_off_panel(screen, state, add)
        elif phase is Phase.TURN and state.turn is not None and not state.queue:
            self._turn_panel(screen, view, add)
        elif phase is Phase.SHOOTOUT and not state.queue:
            self._shootout_panel(screen, state, add)
        if phase in (Phase.SET_UP, Phase.KICK_OFF, Phase.TURN):
            add(wrap_label("A figure in the wrong space: select it, press Override, touch its space.", 13,
                           colour=(0.7, 0.7, 0.7, 1)))

    def _strategy_panel(self, screen: Any, state: Any, add) -> None:
        for team in (Team.HOME, Team.AWAY):
            if team in state.sheets:
                continue
            add(wrap_label(f"{team.label} ({state.roster(team).name}): a preset sheet, or write one by touch.", 15))
            row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
            for name in PRESETS:
                b = button(f"{team.label} {name}", lambda t=team, n=name: self._submit(
                    screen, c.WriteStrategy(t, preset_sheet(state, t, n))))
                b.font_size = theme.SMALL
                row.add_widget(b)
            add(row)
            add(button(f"{team.label}: write the sheet by touch...", lambda t=team: self._start_sheet(screen, state, t)))

    def _set_up_panel(self, screen: Any, state: Any, add) -> None:
        for team in (Team.HOME, Team.AWAY):
            if team in state.ready:
                add(wrap_label(f"{team.label} is ready.", 15))
                continue
            add(button(f"{team.label}: confirm the set-up", lambda t=team: self._submit(screen, c.ConfirmSetUp(t))))
            add(button(f"{team.label}: change a position...", lambda t=team: self._start(
                screen, "change", {"team": t, "kind": "kick_off"})))
            add(button(f"{team.label}: replace a counter...", lambda t=team: self._start(
                screen, "replace", {"team": t})))

    def _kick_off_panel(self, screen: Any, state: Any, add) -> None:
        team = state.restart.team if state.restart is not None else None
        if team is None:
            return
        b = q.board(state)
        central = sorted(p.ref.number for p in q.outfield(state, team) if p.space is not None
                         and b.space(p.space).central)
        for number in central:
            add(button(f"Kick off to #{number}", lambda n=number: self._submit(screen, c.KickOff(PlayerRef(team, n)))))
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

    def _shootout_panel(self, screen: Any, state: Any, add) -> None:
        missing = [t for t in (Team.HOME, Team.AWAY) if t not in state.shootout_order]
        for team in missing:
            mine = sorted((p for p in q.on_pitch(state, team)), key=lambda p: (p.goalkeeper, p.ref.number))
            order = tuple(p.ref for p in mine)
            add(button(f"{team.label}: kickers by number", lambda t=team, o=order: self._submit(screen, 
                c.SetShootoutOrder(t, o))))
            add(button(f"{team.label}: name the order by touch...", lambda t=team: self._start(
                screen, "order", {"team": t})))
        if missing:
            return
        from companion.football_leader.shootout import next_team
        team = next_team(state)
        add(wrap_label(f"{team.label}: touch the card played for the penalty.", 15, bold=True))
        self._card_grid(screen, state, team, add, lambda card, t=team: self._submit(screen, c.TakeShootoutKick(t, card)))

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

    # --- modes ---------------------------------------------------------------------------------------
    def _start(self, screen: Any, mode: str, form: dict) -> None:
        screen.form = form
        if form.get("mover") is not None:
            screen.selected = form["mover"]    # the screen shows where he can go
        screen.set_mode(mode)

    def _start_sheet(self, screen: Any, state: Any, team: Team) -> None:
        sheet = preset_sheet(state, team, next(iter(PRESETS)))
        self._start(screen, "sheet", {"team": team, "kind": "kick_off", "ko": dict(sheet.kick_off),
                                      "gk": dict(sheet.goal_kick), "pick": None})

    def _set_form(self, screen: Any, **changes) -> None:
        form = dict(screen.form)
        form.update(changes)
        screen.form = form
        screen.build_panel()

    def _submit(self, screen: Any, command: Any) -> None:
        self._clear_marks(screen)
        screen.submit(command)

    @staticmethod
    def _clear_marks(screen: Any) -> None:
        """The sheet editor lit its spaces as a movement range: back to the selection's range."""
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is not None and pitch.reach and screen.selected is None:
            screen.refresh_reach()

    @staticmethod
    def _mark(screen: Any, cells: list) -> None:
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is not None:
            pitch.reach = cells

    def _slot(self, form: dict, key: str) -> str | None:
        """The next slot of an action to fill, or None when all are."""
        _label, slots = ACTIONS[key]
        slots = slots + (("support_card",) if key == "dodge" and form.get("supporter") is not None else ())
        for slot in slots:
            if slot not in form:
                return slot
        return None

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        state = view.state
        mode = screen.mode
        form = screen.form
        if mode in ACTIONS:
            self._action_panel(screen, state, mode, form, add)
        elif mode == "change":
            team, who = form["team"], form.get("player")
            kind = form.get("kind", "kick_off")
            add(wrap_label(f"{team.label}: position change ({POSITION_CHANGES} a match). " + (f"#{who.number}: touch his new {kind.replace('_', '-')} space."
                                             if who else "Touch the counter."), 16, bold=True))
            row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
            for k, text in (("kick_off", "kick-off"), ("goal_kick", "goal kick")):
                row.add_widget(button(("> " if k == kind else "") + text, lambda k=k: self._set_form(screen, kind=k)))
            add(row)
        elif mode == "replace":
            team, off = form["team"], form.get("off")
            if off is None:
                add(wrap_label(f"{team.label}: replacement: touch the counter who leaves.", 16, bold=True))
            else:
                add(wrap_label(f"#{off.number} leaves: who comes on (he takes #{off.number}'s places)?", 16,
                               bold=True))
                for p in q.bench(state, team):
                    add(button(f"#{p.ref.number} {p.counter.name}", lambda on=p.ref: self._submit(screen, 
                        c.Replace(team, off, on))))
        elif mode == "order":
            team = form["team"]
            names = ", ".join(f"#{r.number}" for r in screen.picked) or "none yet"
            add(wrap_label(f"{team.label}: touch the kickers in order ({names}).", 16, bold=True))
            if len(screen.picked) >= min(5, len(q.on_pitch(state, team))):
                add(button("Set the order", lambda: self._submit(screen, c.SetShootoutOrder(team, tuple(screen.picked)))))
        elif mode == "sheet":
            self._sheet_panel(screen, state, form, add)
        elif mode == DODGES:
            self._dodges_panel(screen, state, form, add)
        else:
            return False
        return True

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

    def _sheet_panel(self, screen: Any, state: Any, form: dict, add) -> None:
        team, kind = form["team"], form["kind"]
        spaces = form["ko"] if kind == "kick_off" else form["gk"]
        pick = form.get("pick")
        add(wrap_label(f"{team.label}'s sheet, {kind.replace('_', ' ')} set-up: touch a counter, then his space "
                       f"(ten counters; the goalkeeper stays in goal).", 15, bold=True))
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        for k, text in (("kick_off", "kick-off"), ("goal_kick", "goal kick")):
            row.add_widget(button(("> " if k == kind else "") + text, lambda k=k: self._set_form(screen, kind=k,
                                                                                                  pick=None)))
        add(row)
        grid = GridLayout(cols=2, spacing=dp(3), size_hint_y=None)
        roster = state.roster(team)
        outfield = [cn for cn in sorted(roster.counters, key=lambda cn: cn.number) if not cn.goalkeeper]
        for cn in outfield:
            where = q.where(state, spaces[cn.number]) if cn.number in spaces else "bench"
            text = f"{'> ' if pick == cn.number else ''}#{cn.number} {cn.name[:8]}: {where}"
            grid.add_widget(button(text, lambda n=cn.number: self._sheet_pick(screen, n)))
        grid.height = ((len(outfield) + 1) // 2) * (TOUCH + dp(3))
        add(grid)
        if pick is not None and pick in spaces:
            add(button(f"#{pick} to the bench", lambda: self._sheet_place(screen, None)))
        count = len(spaces)
        ready = len(form["ko"]) == 10 and len(form["gk"]) == 10 and set(form["ko"]) == set(form["gk"])
        if ready:
            add(button(f"Write {team.label}'s sheet", lambda: self._submit(screen, c.WriteStrategy(
                team, StrategySheet(roster.goalkeeper.number, dict(form["gk"]), dict(form["ko"]))))))
        else:
            add(wrap_label(f"{count} counters placed for this set-up; ten, the same in both.", 14))
        self._mark(screen, sorted(set(spaces.values())))

    def _sheet_pick(self, screen: Any, number: int) -> None:
        self._set_form(screen, pick=None if screen.form.get("pick") == number else number)

    def _sheet_place(self, screen: Any, space: Space | None) -> None:
        form = dict(screen.form)
        pick = form.get("pick")
        if pick is None:
            return
        key = "ko" if form["kind"] == "kick_off" else "gk"
        spaces = dict(form[key])
        if space is None:
            spaces.pop(pick, None)
        else:
            spaces[pick] = space
        form[key] = spaces
        form["pick"] = None
        screen.form = form
        screen.build_panel()

    # --- the ball carrier's dodges, planned before he moves (4.1, 4.2) -----------------------------
    def _plan_dodges(self, screen: Any, state: Any, mover: PlayerRef, to: Space, card: Card | None) -> bool:
        """The ball carrier moving in his main action: when the movement needs dodges, open the
        form that plans them (each dodge's card, a supporter); False when none is needed."""
        t = state.turn
        if (state.phase is not Phase.TURN or t is None or t.stage is not Stage.START or state.queue
                or mover != state.ball or mover.team is not t.team):
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

    # --- touches -----------------------------------------------------------------------------------
    def on_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        state = view.state
        mode = screen.mode
        form = screen.form
        p = state.players.get(ref)
        if mode in ACTIONS:
            slot = self._slot(form, mode)
            if slot in PLAYER_SLOTS:
                if ref.team is form["team"]:
                    self._fill_player(screen, state, mode, slot, ref)
            elif slot == "space" and p is not None and p.space is not None:
                self._fill(screen, state, mode, "space", p.space)
            elif mode == "dodge" and ref.team is form["team"] and ref != state.ball:
                self._set_form(screen, supporter=None if form.get("supporter") == ref else ref)
            return True
        if mode == "change":
            if form.get("player") is None and ref.team is form["team"]:
                self._set_form(screen, player=ref)
            elif form.get("player") is not None and p is not None and p.space is not None:
                self.on_cell(screen, view, p.space)
            return True
        if mode == "replace":
            if form.get("off") is None and ref.team is form["team"] and p is not None and not p.goalkeeper:
                self._set_form(screen, off=ref)
            return True
        if mode == "order":
            if ref.team is form["team"]:
                screen.toggle_pick(ref)
            return True
        if mode == "sheet":
            return True
        if mode == DODGES:
            self._touch_supporter(screen, ref)
            return True
        # A counter touched while another is selected, in another space: the selected one goes
        # there (a space holding figures has no empty spot to touch).
        sel = screen.selected
        if sel is None or sel == ref or p is None or p.space is None:
            return False
        mine = state.players.get(sel)
        if mine is None or mine.space == p.space:
            return False
        x_mm, y_mm = q.board(state).center_mm(p.space)
        if screen.override:
            screen.controller.override(sel, x_mm, y_mm)
        elif (state.phase is Phase.TURN and state.turn is not None and sel.team is state.turn.team
              and ref.team is not sel.team):
            if self._plan_dodges(screen, state, sel, p.space, None):
                return True
            screen.controller.tap_move(sel, x_mm, y_mm)
        else:
            return False
        screen.selected = None
        return True

    def _fill_player(self, screen: Any, state: Any, key: str, slot: str, ref: PlayerRef) -> None:
        if slot == "mover":
            screen.selected = ref    # the screen then shows where he can go
        self._fill(screen, state, key, slot, ref)

    def on_cell(self, screen: Any, view: Any, cell) -> bool:
        state = view.state
        mode = screen.mode
        form = screen.form
        cell = tuple(cell)
        if mode in ACTIONS:
            if self._slot(form, mode) == "space":
                self._fill(screen, state, mode, "space", cell)
            return True
        if mode == "change":
            who = form.get("player")
            if who is not None:
                kind = form.get("kind", "kick_off")
                self._submit(screen, c.ChangeStrategy(form["team"], who, **{kind: cell}))
            return True
        if mode == "sheet":
            self._sheet_place(screen, cell)
            return True
        if mode == DODGES:
            return True
        if not mode and screen.selected is not None and not screen.override:
            # The selected ball carrier touched to a space: plan his dodges first, if any.
            return self._plan_dodges(screen, state, screen.selected, cell, None)
        return mode in ("replace", "order")
