"""The Football Leader board as the tablet draws it: 38 spaces (halved spaces, dotted lines,
goals, shooting numbers), and where each counter stands in its space (pure Python)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.football_leader import queries as q
from companion.football_leader.pitch import HIGH, LOW, Space, SpaceBoard
from companion.teams import PlayerRef, Team

from ..base import GRASS, WHITE, Geometry, Shape

FIGURE_MM = 17.0      # a counter drawn this big: two of a team stacked fit a space
GOAL_DEPTH = 60.0     # the goal spaces stand outside the goal lines


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
