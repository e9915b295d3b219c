"""Futboard's printed field as the tablet draws it: spaces, areas, spots, corner slots, the
kick penalties on the sides and the goalkeeper's reductions near the goals, the Street
board's yellow lines (pure Python)."""

from __future__ import annotations

import logging
import math

from companion.board import GridBoard
from companion.futboard.components import load_components
from companion.futboard.pitch import End, Pitch

from ..base import GRASS, WHITE, Shape

log = logging.getLogger(__name__)

YELLOW = (1, 0.88, 0.15, 1)
FAINT = (1, 1, 1, 0.16)


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


def shipped_pitches() -> list[Pitch]:
    out = []
    for board in ("futboard", "street"):
        try:
            out.append(load_components(board=board).pitch)
        except Exception:   # a broken shipped file must not stop the tablet drawing a board
            log.exception("cannot read the shipped Futboard %s board", board)
    return out


def pitch_from_grid(board: GridBoard) -> Pitch:
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

