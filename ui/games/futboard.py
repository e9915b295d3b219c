"""Futboard on the tablet: the field of spaces as printed (areas, spots, corner slots, the
kick penalties on the sides and the goalkeeper's reductions near the goals, the Street
board's yellow lines), turns of three actions, the match clock or the goal limit, line-ups,
passes by touch, kicks, taking the ball, corners, penalties and substitutions.

The face's pure parts (drawing, figures, panels' texts, line-ups) need no Kivy; the widget
helpers are imported only where buttons are built, so tests read the face without a window.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from companion import box
from companion.board import GridBoard
from companion.commands import PlaceFigure
from companion.events import parse_time
from companion.futboard import commands as c
from companion.futboard import queries as q
from companion.futboard.components import Position, load_components
from companion.futboard.kicks import kick_problem
from companion.futboard.model import (
    ACTIONS_PER_TURN,
    MAX_PER_LINE,
    Corner,
    KickOff,
    Options,
    Penalty,
    Phase,
    Variant,
    Where,
)
from companion.futboard.passing import pass_problem
from companion.futboard.pitch import End, Pitch
from companion.teams import PlayerRef, Team

from .base import GRASS, TEAM_BAR, WHITE, BallMark, BarSpec, Chip, Choice, Face, Figure, RectGeometry, Scoreboard, Shape

log = logging.getLogger(__name__)

TIME_LIMIT_MIN = 20      # the time limit the setup screen offers first
GOAL_LIMIT = 3           # the goal limit of the old yes/no "goals" option
STEPS = ("line-up", "action 1", "action 2", "action 3", "corner kick", "penalty", "full time")
YELLOW = (1, 0.88, 0.15, 1)
FAINT = (1, 1, 1, 0.16)
TIME_UP_RETRY_S = 5.0    # a refused or lost "time is up" is proposed again after this long

# Where a default line-up stands, as a share of a team's half from its own goal line.
SHAPE_DEPTH = {Position.DEFENDER: 0.3, Position.MIDFIELDER: 0.6, Position.ATTACKER: 0.8}


# --- drawing ------------------------------------------------------------------------------------

def _circle(cx: float, cy: float, r: float, segments: int = 48) -> tuple[float, ...]:
    pts: list[float] = []
    for i in range(segments + 1):
        a = 2 * math.pi * i / segments
        pts += [cx + r * math.cos(a), cy + r * math.sin(a)]
    return tuple(pts)


def _num(n: int) -> str:
    return f"-{n}" if n else "0"


def board_shapes(p: Pitch) -> list[Shape]:
    """The printed field in the rules' millimetres (x from Home's goal line, y across)."""
    cw, ch, L, W, m = p.space_length_mm, p.space_width_mm, p.length_mm, p.width_mm, p.margin
    out = [Shape("fill", (0.1, 0.3, 0.14, 1), (-m * cw, -m * ch, L + m * cw, W + m * ch))]
    # Mown stripes two lines wide, as on most printed fields.
    for line in range(p.lines):
        out.append(Shape("fill", GRASS[1 + (line // 2) % 2], (line * cw, 0, (line + 1) * cw, W)))
    if p.yellow_lines is not None:
        y = p.yellow_lines
        # Beyond the yellow lines is outside the Street field: drawn darker.
        for r0, r1 in ((0, y.row0), (y.row1 + 1, p.rows)):
            if r1 > r0:
                out.append(Shape("fill", (0, 0, 0, 0.28), (0, r0 * ch, L, r1 * ch)))
    for line in range(1, p.lines):
        out.append(Shape("line", FAINT, (line * cw, 0, line * cw, W), 1))
    for row in range(1, p.rows):
        out.append(Shape("line", FAINT, (0, row * ch, L, row * ch), 1))
    for end in End:
        for sq in p.corners(end):
            out.append(Shape("fill", (1, 1, 1, 0.22), (sq[0] * cw, sq[1] * ch, (sq[0] + 1) * cw, (sq[1] + 1) * ch)))
        g = p.goal(end)
        out.append(Shape("fill", (1, 1, 1, 0.1), (g[0] * cw, g[1] * ch, (g[0] + 1) * cw, (g[1] + 1) * ch)))
        a = p.penalty_area
        lo, hi = p.at_end((a.col0, a.row0), end), p.at_end((a.col1, a.row1), end)
        x0, x1 = min(lo[0], hi[0]) * cw, (max(lo[0], hi[0]) + 1) * cw
        out.append(Shape("outline", WHITE, (x0, a.row0 * ch, x1, (a.row1 + 1) * ch), 1.5))
        sx, sy = p.centre_mm(p.spot(end))
        out.append(Shape("fill", (1, 1, 1, 1), (sx - 4, sy - 4, sx + 4, sy + 4)))
        # The goal: three spaces wide around the goalkeeper's space, behind the goal line.
        gx = -0.45 * cw if end is End.LOW else L
        out.append(Shape("fill", (0.95, 0.95, 0.95, 0.9), (gx, (g[1] - 1) * ch, gx + 0.45 * cw, (g[1] + 2) * ch)))
    out.append(Shape("line", WHITE, (L / 2, 0, L / 2, W), 1.5))
    circle = [p.centre_mm(sq) for sq in p.centre_circle]
    mx, my = L / 2, W / 2
    radius = max(math.hypot(x - mx, y - my) for x, y in circle) + min(cw, ch) / 2
    out.append(Shape("line", WHITE, _circle(mx, my, radius), 1.5))
    out.append(Shape("outline", WHITE, (0, 0, L, W), 2))
    if p.yellow_lines is not None:
        y = p.yellow_lines
        out.append(Shape("outline", YELLOW, (0, y.row0 * ch, L, (y.row1 + 1) * ch), 2.5))
    # The kick penalties printed on the sides: each line shows the penalty for a kick at the
    # goal of the half it lies in (nobody kicks from his own field).
    for line in range(p.lines):
        half = p.half((line, 0))
        if half is None:
            continue
        text = _num(p.kick_penalty((line, 0), half))
        for y in (-0.5 * ch, W + 0.5 * ch) if m else (0.5 * ch, W - 0.5 * ch):
            out.append(Shape("text", (1, 0.95, 0.6, 1), ((line + 0.5) * cw, y), 17, text))
    # The goalkeeper's defence reductions printed in the spaces near each goal.
    for end in End:
        for k in p.keeper.spaces:
            if k.reduction:
                sq = p.at_end((k.line, k.row), end)
                out.append(Shape("text", (1, 1, 1, 0.55), p.centre_mm(sq), 12, _num(k.reduction)))
    return out


def _shipped_pitches() -> list[Pitch]:
    out = []
    for board in ("futboard", "street"):
        try:
            out.append(load_components(board=board).pitch)
        except Exception:   # a broken shipped file must not stop the tablet drawing a board
            log.exception("cannot read the shipped Futboard %s board", board)
    return out


def _pitch_from_grid(board: GridBoard) -> Pitch:
    """A bare Pitch from the GridBoard alone (the printed numbers unknown): spots, areas and
    slots as the grid names them, nothing printed on the sides."""
    from companion.board import Rect
    from companion.futboard.pitch import KeeperReductions, KickPenalties

    def first(name: str):
        return board.area(name).rects[0]

    area = first("penalty_area_low")
    spot, goal = first("penalty_spot_low"), first("goal_space_low")
    circle = tuple(sq for r in board.area("centre_circle").rects for sq in r.squares())
    corners = tuple(sq for r in board.area("corner_slots_low").rects for sq in r.squares())
    yellow = first("yellow_lines") if board.has_area("yellow_lines") else None
    return Pitch(board.name, board.ps_cols, board.ps_rows, board.length_mm / board.ps_cols,
                 board.width_mm / board.ps_rows, circle, Rect(area.col0, area.row0, area.col1, area.row1),
                 (spot.col0, spot.row0), (goal.col0, goal.row0), corners,
                 KickPenalties((0,) * board.ps_cols), KeeperReductions((), 0), yellow_lines=yellow)


# --- line-ups ---------------------------------------------------------------------------------------

def _spread(n: int, r0: int, r1: int) -> list[int]:
    span = r1 - r0 + 1
    return [r0 + int((i + 0.5) * span / n) for i in range(n)]


def lineup_shape(s: Any, team: Team) -> dict[PlayerRef, tuple[int, int]]:
    """A legal kick-off shape for ``team``'s players on the field: the goalkeeper on his
    space, defenders, midfielders and attackers in lines across their own field (at most
    four to a line), the kicking side's first attacker in the centre circle; spaces held by
    opponents are avoided."""
    p = q.pitch(s)
    end = q.own_end(team)
    field = p.field(s.street)
    half = p.lines // 2
    taken = {sq for sq, ref in q.occupied(s).items() if ref.team is not team}
    out: dict[PlayerRef, tuple[int, int]] = {}

    def free(line: int, row: int) -> tuple[int, int] | None:
        # The nearest free space in this line, then in the lines behind it (own field only).
        for dl in range(half):
            ln = line - dl
            if ln < 0:
                break
            for dr in sorted(range(-p.rows, p.rows + 1), key=abs):
                sq = p.at_end((ln, row + dr), end)
                if field.row0 <= sq[1] <= field.row1 and sq not in taken and sq not in out.values() \
                        and sum(1 for v in out.values() if v[0] == sq[0]) < MAX_PER_LINE:
                    return sq
        return None

    players = sorted(q.on_field(s, team), key=lambda pl: pl.ref.number)
    kicking = isinstance(s.restart, KickOff) and s.restart.team is team
    keepers = [pl for pl in players if pl.goalkeeper]
    for pl in keepers[:1]:
        goal = p.goal(end)
        spot = goal if goal not in taken else free(p.lines_from_goal(goal, end), goal[1])
        if spot is not None:
            out[pl.ref] = spot
    outfield = [pl for pl in players if pl.ref not in out]
    if kicking:
        circle = sorted((sq for sq in p.centre_circle if p.half(sq) is end and sq not in taken),
                        key=lambda sq: (abs(sq[1] - p.rows // 2), sq))
        attackers = [pl for pl in outfield if pl.tile.position is Position.ATTACKER] or outfield
        if circle and attackers:
            out[attackers[0].ref] = circle[0]
    for position, depth in SHAPE_DEPTH.items():
        group = [pl for pl in outfield if pl.tile.position is position and pl.ref not in out]
        base = max(1, round(depth * half))
        lines = [group[i:i + MAX_PER_LINE] for i in range(0, len(group), MAX_PER_LINE)]
        for k, chunk in enumerate(lines):
            for pl, row in zip(chunk, _spread(len(chunk), field.row0, field.row1)):
                sq = free(max(0, base - k), row)
                if sq is not None:
                    out[pl.ref] = sq
    return out


def lineup_commands(s: Any, team: Team) -> list[PlaceFigure]:
    """The placements that put ``team`` in its default shape: figures in the way lifted
    first, then each set down (what a coach does with his hands)."""
    shape = lineup_shape(s, team)
    moving = [ref for ref, sq in shape.items() if s.players[ref].space != sq]
    lifts = [PlaceFigure(ref) for ref in moving if s.players[ref].space is not None]
    return lifts + [PlaceFigure(ref, square=shape[ref]) for ref in moving]


# --- the face -----------------------------------------------------------------------------------------

def _widgets():
    # Imported here so the face's pure parts load without Kivy (tests without a window).
    from ..widgets.keypad import button, wrap_label
    return button, wrap_label


def _elapsed(clock: dict[str, Any], now: datetime | None) -> float:
    elapsed = float(clock.get("elapsed_s") or 0.0)
    since = clock.get("since")
    if clock.get("running") and since and now is not None:
        elapsed += max(0.0, (now - parse_time(since)).total_seconds())
    return elapsed


def _mmss(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _team(value: str | None) -> Team | None:
    return Team(value) if value else None


def _limit(value: object, default: int | None) -> int | None:
    """A limit from the setup screen: a number, "none", or absent (the default)."""
    if value is None:
        return default
    if value == "none":
        return None
    return int(value)


class FutboardFace(Face):
    def __init__(self) -> None:
        super().__init__(game="futboard", title="Futboard", tick_s=1.0,
                         options=[Choice("street", "Futboard Street (variant)"),
                                  Choice("kick_off", "Starts with the ball", "Home", ("Home", "Away")),
                                  Choice("time", "Time limit (minutes)", str(TIME_LIMIT_MIN),
                                         ("none", "10", "20", "30", "45", "60")),
                                  Choice("goal_limit", "Goal limit", "none", ("none", "1", "2", "3", "5")),
                                  Choice("keeper_in_line", "The goalkeeper counts in the four in a line")])
        self._pitches: dict[int, tuple[GridBoard, Pitch]] = {}
        self._geometry: tuple[GridBoard, Pitch | None, RectGeometry] | None = None
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

    # --- drawing -------------------------------------------------------------------------------
    def _learn(self, pitch: Pitch) -> None:
        """Remember which field a GridBoard is drawn from: the tablet hands ``geometry`` the
        GridBoard only, and the printed kick penalties and reductions live on the Pitch."""
        grid = pitch.grid()
        self._pitches[id(grid)] = (grid, pitch)

    def _learn_state(self, state: Any) -> None:
        if state is not None and getattr(state, "components", None) is not None \
                and id(state.components.pitch.grid()) not in self._pitches:
            self._learn(state.components.pitch)

    def pitch_for(self, board: GridBoard) -> Pitch | None:
        known = self._pitches.get(id(board))
        if known is not None and known[0] is board:
            return known[1]
        for pitch in _shipped_pitches():
            # Pitch.grid() is cached by the pitch's value: the same object only for the same field.
            if pitch.grid() is board:
                self._learn(pitch)
                return pitch
        return None

    def geometry(self, board: GridBoard) -> RectGeometry:
        pitch = self.pitch_for(board)
        cached = self._geometry
        if cached is not None and cached[0] is board and cached[1] is pitch:
            return cached[2]
        drawn = pitch if pitch is not None else _pitch_from_grid(board)
        geo = RectGeometry(board.length_mm, board.width_mm, drawn.lines, drawn.rows, board_shapes(drawn),
                           margin=drawn.margin, radius=0.42)
        self._geometry = (board, pitch, geo)
        return geo

    def figures(self, state: Any) -> list[Figure]:
        self._learn_state(state)
        out = []
        for p in state.players.values():
            if not p.on_field or p.space is None:
                continue
            # Dim: moved this turn (a player moves once a turn).
            out.append(Figure(p.ref, tuple(p.space), dim=p.ref in state.moved, goalkeeper=p.goalkeeper,
                              manual=p.manual, badge="Y" * p.yellow))
        return out

    def ball(self, state: Any, board: GridBoard) -> BallMark:
        if state.ball is not None:
            return BallMark(carrier=state.ball)
        if state.components is None or board is None:
            return BallMark()
        p, geo = state.components.pitch, self.geometry(board)
        r = state.restart
        if state.phase is Phase.LINEUP and isinstance(r, KickOff):
            return BallMark(at=geo.to_board(p.length_mm / 2, p.width_mm / 2))
        if state.phase is Phase.PENALTY and isinstance(r, Penalty):
            return BallMark(at=geo.to_board(*p.centre_mm(p.spot(q.attacked_end(r.team)))))
        return BallMark()

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

    # --- panels --------------------------------------------------------------------------------
    def scoreboard(self, summary: dict[str, Any], now: datetime | None = None) -> Scoreboard:
        teams, score = summary.get("teams", {}), summary.get("score", {})
        board = f"{teams.get('home', 'Home')}  {score.get('home', 0)} - {score.get('away', 0)}  " \
                f"{teams.get('away', 'Away')}"
        limits = summary.get("limits") or {}
        if limits.get("time_min"):
            clock = summary.get("clock") or {}
            state = "" if clock.get("running") or summary.get("time_up") else "  (stopped)"
            shown = _mmss(min(_elapsed(clock, now), limits["time_min"] * 60))
            clock_text = f"{shown} / {limits['time_min']}:00{state}"
        else:
            clock_text = f"Turn {summary.get('turn_no', 0)}"
        if limits.get("goals"):
            clock_text += f"   first to {limits['goals']}"
        return Scoreboard(board, clock_text, self.phase_line(summary))

    @staticmethod
    def phase_line(summary: dict[str, Any]) -> str:
        """One short line: what the match is waiting for."""
        phase = summary.get("phase", "")
        restart = summary.get("restart") or {}
        side = (_team(restart.get("team")) or Team.HOME).label
        street = "Street: " if summary.get("variant") == "street" else ""
        if phase == "over":
            result = summary.get("result") or {}
            winner = _team(result.get("winner"))
            return f"Full time: {winner.label} win" if winner else "Full time: a draw"
        if phase == "lineup":
            return f"{street}Line-up, {side} kicks off"
        if phase == "corner":
            return f"Corner kick for {side}"
        if phase == "penalty":
            return f"Penalty for {side}"
        turn = _team(summary.get("turn"))
        if turn is None:
            return f"{street}Round {summary.get('round', 0)}"
        n = summary.get("actions_left", 0)
        corner = " (corner)" if restart.get("kind") == "corner" else ""
        return f"{street}{turn.label}'s turn{corner}: {n} of {summary.get('actions_per_turn', ACTIONS_PER_TURN)} " \
               f"actions left"

    def bars(self, summary: dict[str, Any]) -> list[BarSpec]:
        out = []
        turn = _team(summary.get("turn"))
        n = summary.get("actions_left", 0) if turn is not None else 0
        per = summary.get("actions_per_turn", ACTIONS_PER_TURN)
        out.append(BarSpec(f"{turn.label + ' actions' if turn else 'Actions'} {n}/{per}", n, per,
                           TEAM_BAR[turn] if turn else (0.5, 0.5, 0.5, 1)))
        limits = summary.get("limits") or {}
        if limits.get("time_min"):
            total = limits["time_min"] * 60
            left = max(0.0, total - _elapsed(summary.get("clock") or {}, self.now()))
            out.append(BarSpec(f"Time left {_mmss(math.ceil(left))}", left, total, (0.3, 0.8, 0.45, 1)))
        if limits.get("goals"):
            score = summary.get("score", {})
            for team in (Team.HOME, Team.AWAY):
                out.append(BarSpec(f"{team.label} {score.get(team.value, 0)} of {limits['goals']} goals",
                                   score.get(team.value, 0), limits["goals"], TEAM_BAR[team]))
        return out

    def stepper(self, state: Any, summary: dict[str, Any]) -> tuple[tuple[str, ...], str]:
        phase = state.phase
        if phase is Phase.PLAY:
            used = max(1, ACTIONS_PER_TURN - state.actions_left + 1)
            return STEPS, f"action {min(used, ACTIONS_PER_TURN)}"
        return STEPS, {Phase.LINEUP: "line-up", Phase.CORNER: "corner kick", Phase.PENALTY: "penalty",
                       Phase.OVER: "full time"}[phase]

    def chips(self, state: Any) -> list[Chip]:
        self._learn_state(state)
        out = []
        for p in sorted(state.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
            if p.where is Where.RESERVE:
                continue
            # Y per yellow card, R sent off, ? on the field but not placed, ~ moved this turn.
            mark = "Y" * p.yellow + ("R" if p.where is Where.OFF else "")
            mark += "?" if p.on_field and p.space is None else ""
            mark += "~" if p.ref in state.moved else ""
            out.append(Chip(p.ref, f"{p.ref.number}{mark}", enabled=p.on_field))
        return out

    # --- the action buttons ------------------------------------------------------------------------
    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        _button, wrap_label = _widgets()
        s = view.state
        if not s.created:
            return
        if s.phase is Phase.OVER:
            add(wrap_label(f"The match is over: {self.phase_line(view.summary)}.", 18, bold=True))
            return
        sel = screen.selected
        if sel is not None and sel in s.players:
            add(wrap_label(self.tile_text(s, sel), 14, colour=(0.75, 0.9, 1, 1)))
        if s.phase is Phase.LINEUP:
            self._lineup_panel(screen, view, add)
        elif s.phase is Phase.CORNER:
            r = s.restart
            slots = ", ".join(map(str, q.pitch(s).corners(q.attacked_end(r.team))))
            add(wrap_label(f"Select a {r.team.label} player, then touch a corner slot ({slots}).", 15))
        elif s.phase is Phase.PENALTY:
            self._penalty_panel(screen, view, add)
        elif s.phase is Phase.PLAY and s.turn is not None:
            self._play_panel(screen, view, add)
        self._clock_panel(screen, view, add)

    def _lineup_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        button, wrap_label = _widgets()
        s = view.state
        ko: KickOff = s.restart
        add(wrap_label("Select a player (figure or chip), then touch a space in his own field.", 15))
        for team in (Team.HOME, Team.AWAY):
            add(button(f"{team.label}: default line-up", lambda t=team: self._line_up(screen, view, t)))
        if not any(r.id.startswith("lineup_") for r in view.pending):
            kicker = self.kick_off_player(s, screen.selected)
            if kicker is not None:
                add(button(f"Kick off: #{kicker.number} passes...", lambda k=kicker: self._start_pass(screen, k)))
            else:
                add(wrap_label(f"Put a {ko.team.label} player in the centre circle to kick off.", 15))
        add(button("Substitution...", lambda: screen.set_mode("sub_off")))

    def _line_up(self, screen: Any, view: Any, team: Team) -> None:
        for command in lineup_commands(view.state, team):
            screen.submit(command)

    @staticmethod
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

    def _penalty_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        button, wrap_label = _widgets()
        s = view.state
        pen: Penalty = s.restart
        ids = {r.id for r in view.pending}
        if "clear_area" in ids:
            add(wrap_label(f"{pen.team.other.label}: select each player in the area and touch a space outside "
                           f"it.", 15))
        if "penalty_taker" in ids:
            spot = q.pitch(s).spot(q.attacked_end(pen.team))
            taker = screen.selected if screen.selected is not None and screen.selected.team is pen.team \
                else pen.fouled
            if s.players[taker].on_field:
                add(button(f"#{taker.number} takes it (to the spot)",
                           lambda t=taker: screen.submit(PlaceFigure(t, square=spot))))
            add(wrap_label(f"Or select another {pen.team.label} player and touch the spot {spot}.", 15))

    def _play_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        button, wrap_label = _widgets()
        s = view.state
        team = s.turn
        r = s.restart
        defence = isinstance(r, Corner) and r.step == "defence"
        sel = screen.selected
        if sel is not None and sel.team is team:
            add(wrap_label(f"Move #{sel.number}: touch a highlighted space.", 15))
        else:
            add(wrap_label("Move: select a player, then touch a space.", 15))
        carrier = s.ball
        if carrier is not None and carrier.team is team:
            add(button(f"Pass from #{carrier.number}...", lambda k=carrier: self._start_pass(screen, k)))
            problem = kick_problem(s, carrier)
            if problem is None:
                add(button(f"Kick at goal (#{carrier.number}, hits on {self.kick_odds(s, carrier)})",
                           lambda k=carrier: screen.submit(c.Kick(k))))
            else:
                add(wrap_label(f"No kick: {problem[1]}.", 14, colour=(0.8, 0.8, 0.8, 1)))
        elif carrier is not None and not defence:
            cs = s.players[carrier].space
            takers = [p.ref for p in q.on_field(s, team)
                      if p.space is not None and cs is not None and q.pitch(s).adjacent(p.space, cs)]
            for ref in sorted(takers, key=lambda r: r.number):
                tile = s.players[ref].tile
                add(button(f"#{ref.number} takes the ball from #{carrier.number} (1-{tile.strength}, foul "
                           f"{tile.foul})", lambda t=ref: screen.submit(c.TakeBall(t))))
            if not takers:
                add(wrap_label(f"Take the ball: move a player next to #{carrier.number} first.", 14,
                               colour=(0.8, 0.8, 0.8, 1)))
        add(button(f"{team.label}: end the turn", lambda t=team: screen.submit(c.EndTurn(t))))

    @staticmethod
    def kick_odds(s: Any, kicker: PlayerRef) -> str:
        """The numbers that hit: 1 to accuracy minus the penalty printed for his line."""
        p = s.players[kicker]
        target = p.tile.accuracy - q.pitch(s).kick_penalty(p.space, q.attacked_end(kicker.team))
        return f"1-{target}" if target > 0 else "none"

    @staticmethod
    def tile_text(s: Any, ref: PlayerRef) -> str:
        """What the selected player's tile says, for the coach choosing an action."""
        t = s.players[ref].tile
        dribble = ", dribble" if t.dribble else ""
        keeper = f", defence {t.defence}" if t.defence is not None else ""
        return (f"#{ref.number} {t.name} ({t.position.value}): moves {t.movement}{dribble}, pass {t.pass_ruler}, "
                f"kick {t.accuracy}, take {t.strength} (foul {t.foul}){keeper}")

    def _clock_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        button, _wrap = _widgets()
        s = view.state
        limit = s.options.time_limit_min
        if limit is None or s.time_up:
            return
        now = self.now()
        if not s.clock.running:
            add(button("Start the clock", lambda: screen.submit(c.StartClock(self.now()))))
            return
        add(button("Pause the clock", lambda: screen.submit(c.PauseClock(self.now()))))
        if s.clock.elapsed_at(now) >= limit * 60:
            add(button("Time is up", lambda: screen.submit(c.CallTimeUp(self.now()))))

    # --- modes -------------------------------------------------------------------------------------
    def _start_pass(self, screen: Any, passer: PlayerRef) -> None:
        screen.action = passer
        screen.set_mode("pass", keep_action=True)

    @staticmethod
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

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        button, wrap_label = _widgets()
        s = view.state
        mode = screen.mode
        if mode == "pass":
            passer = screen.action
            if not isinstance(passer, PlayerRef):
                return False
            add(wrap_label(f"Pass from #{passer.number}: touch the receiver.", 17, bold=True))
            open_ = self.receivers(s, passer)
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
                screen.submit(c.Pass(screen.action, ref))
            return True
        if mode == "sub_off":
            screen.picked = [ref]
            screen.set_mode("sub_on", keep_picked=True)
            return True
        return mode in ("sub_on",)

    def on_cell(self, screen: Any, view: Any, cell) -> bool:
        # In a mode a touch on an empty space means nothing (not a move).
        return screen.mode in ("pass", "sub_off", "sub_on")

    # --- the clock ---------------------------------------------------------------------------------------
    def tick(self, screen: Any, view: Any, now: datetime) -> None:
        """Refresh the time bar; propose "time is up" once the tablet's clock reaches the limit."""
        s = view.state
        if not s.created or s.options.time_limit_min is None:
            return
        screen.build_bars(view.summary)
        if s.time_up or s.phase is Phase.OVER or not s.clock.running:
            return
        if s.clock.elapsed_at(now) < s.options.time_limit_min * 60:
            return
        last = self._time_up_at
        if last is not None and (now - last).total_seconds() < TIME_UP_RETRY_S:
            return
        self._time_up_at = now
        # Straight to the controller: the coach may be in the middle of a mode.
        screen.controller.submit(c.CallTimeUp(now))
        if hasattr(screen, "time_up"):
            screen.time_up()
