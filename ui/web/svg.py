"""The pitch as SVG: the printed board (drawn once per board) and the figures (every change).

Geometry speaks board millimetres with y up (as Kivy draws); SVG's y runs down, so every y is
flipped against the board's width. The look follows ui/widgets/pitch.py: team colours, dimmed
figures that are not ready, a ring for the goalkeeper, a dashed ring for a figure placed by
hand, a card badge, the ball at a carrier's feet.
"""

from __future__ import annotations

from collections import defaultdict
from html import escape
from typing import Iterable

from companion.teams import Team

from ..looks.base import BallMark, Figure, Geometry

TEAM_FILL = {Team.HOME: (0.15, 0.35, 0.85), Team.AWAY: (0.85, 0.2, 0.2)}


def _rgb(rgba: Iterable[float], shade: float = 1.0) -> str:
    r, g, b = (max(0, min(255, round(v * shade * 255))) for v in tuple(rgba)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def board_svg(geometry: Geometry) -> str:
    """The printed board as an SVG group (viewBox in board millimetres, y down)."""
    h = geometry.width_mm
    out = [f'<rect x="0" y="0" width="{_n(geometry.length_mm)}" height="{_n(h)}" fill="#0d3314"/>']
    for shape in geometry.shapes():
        colour = _rgb(shape.rgba)
        alpha = shape.rgba[3] if len(shape.rgba) > 3 else 1
        op = f' opacity="{alpha:.2f}"' if alpha < 0.999 else ""
        d = shape.data
        if shape.kind in ("fill", "outline"):
            x0, y0, x1, y1 = min(d[0], d[2]), min(d[1], d[3]), max(d[0], d[2]), max(d[1], d[3])
            box = f'x="{_n(x0)}" y="{_n(h - y1)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}"'
            if shape.kind == "fill":
                out.append(f'<rect {box} fill="{colour}"{op}/>')
            else:
                out.append(f'<rect {box} fill="none" stroke="{colour}" stroke-width="{_n(shape.width)}"{op}/>')
        elif shape.kind == "line":
            points = " ".join(f"{_n(d[i])},{_n(h - d[i + 1])}" for i in range(0, len(d) - 1, 2))
            out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                       f'stroke-width="{_n(shape.width)}"{op}/>')
        elif shape.kind == "text":
            size = max(shape.width, 6)
            out.append(f'<text x="{_n(d[0])}" y="{_n(h - d[1])}" font-size="{_n(size)}" fill="{colour}" '
                       f'text-anchor="middle" dominant-baseline="central"{op}>{escape(shape.text)}</text>')
    return "".join(out)


def _positions(geometry: Geometry, figures: list[Figure], radius: float) -> list[tuple[Figure, float, float]]:
    """Where each figure is drawn (board mm, y up): at its point, or its cell's centre, side by
    side when a cell holds several."""
    by_cell: dict[object, list[Figure]] = defaultdict(list)
    out = []
    for f in figures:
        if f.at is not None:
            out.append((f, *f.at))   # already in drawing millimetres, as the tablet draws it
        else:
            by_cell[f.cell].append(f)
    for cell, group in by_cell.items():
        try:
            cx, cy = geometry.cell_centre(cell)
            x0, y0, x1, y1 = geometry.cell_rect(cell)
        except (TypeError, ValueError, KeyError):  # a cell this board cannot place: leave it off
            continue
        if len(group) == 1:
            out.append((group[0], cx, cy))
            continue
        cw, ch = x1 - x0, y1 - y0
        step = min(2.1 * radius, cw / len(group)) if cw >= ch else 0
        vstep = 0 if step else min(2.1 * radius, ch / len(group))
        for i, f in enumerate(sorted(group, key=lambda f: (f.ref.team.value, f.ref.number))):
            off = i - (len(group) - 1) / 2
            out.append((f, cx + off * step, cy + off * vstep))
    return out


def figures_svg(geometry: Geometry, figures: list[Figure], ball: BallMark) -> str:
    """The figures and the ball as an SVG group, in the board's viewBox."""
    h = geometry.width_mm
    r = max(geometry.figure_radius_mm(), 4.0)
    out = []
    for f, x, y in _positions(geometry, figures, r):
        sx, sy = _n(x), _n(h - y)
        fill = _rgb(TEAM_FILL[f.ref.team], 0.55 if f.dim else 1.0)
        label = f"{f.ref.team.value} {f.ref.number}" + (" (not ready)" if f.dim else "")
        out.append(f'<g class="fig {f.ref.team.value}" data-ref="{f.ref}"><title>{escape(label)}</title>')
        out.append(f'<circle cx="{sx}" cy="{sy}" r="{_n(r)}" fill="{fill}" stroke="#000" stroke-width="0.6"/>')
        if f.crossed:
            out.append(f'<circle cx="{sx}" cy="{sy}" r="{_n(r - 1)}" fill="none" stroke="#000" '
                       f'stroke-opacity="0.6" stroke-width="1.6"/>')
        if f.goalkeeper:
            out.append(f'<circle cx="{sx}" cy="{sy}" r="{_n(r + 1)}" fill="none" stroke="#fff" stroke-width="1"/>')
        if f.manual:
            out.append(f'<circle cx="{sx}" cy="{sy}" r="{_n(r + 2.5)}" fill="none" stroke="#ff9900" '
                       f'stroke-width="1.2" stroke-dasharray="2 2"/>')
        out.append(f'<text x="{sx}" y="{sy}" font-size="{_n(r * 1.1)}" fill="#fff" font-weight="bold" '
                   f'text-anchor="middle" dominant-baseline="central">{f.ref.number}</text>')
        if f.badge:
            bx, by = x + r * 0.75, h - (y + r * 0.75)
            colour = "#e61a1a" if "R" in f.badge else "#ffd91a"
            w = r * (0.5 + 0.45 * len(f.badge))
            out.append(f'<rect x="{_n(bx - w / 2)}" y="{_n(by - r * 0.45)}" width="{_n(w)}" height="{_n(r * 0.9)}" '
                       f'fill="{colour}"/><text x="{_n(bx)}" y="{_n(by)}" font-size="{_n(r * 0.8)}" '
                       f'text-anchor="middle" dominant-baseline="central">{escape(f.badge)}</text>')
        if ball.carrier is not None and f.ref == ball.carrier:
            out.append(_ball(x + r * 0.8, h - (y - r * 0.8), r * 0.45))
        out.append("</g>")
    if ball.carrier is None:
        spot = None
        if ball.at is not None:
            spot = ball.at
        elif ball.cell is not None:
            try:
                spot = geometry.cell_centre(ball.cell)
            except (TypeError, ValueError, KeyError):
                spot = None
        if spot is not None:
            out.append(_ball(spot[0], h - spot[1], r * 0.55))
    return "".join(out)


def _ball(x: float, y: float, r: float) -> str:
    return (f'<circle class="ball" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="#fff" stroke="#000" '
            f'stroke-width="0.6"/>')


def svg_document(geometry: Geometry, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(geometry.length_mm)} '
            f'{_n(geometry.width_mm)}" preserveAspectRatio="xMidYMid meet">{body}</svg>')
