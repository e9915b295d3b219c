"""Default line-ups: a legal kick-off shape for a side, and the placements that set it
(pure Python)."""

from __future__ import annotations

from typing import Any

from companion.commands import PlaceFigure
from companion.futboard import queries as q
from companion.futboard.components import Position
from companion.futboard.model import MAX_PER_LINE, KickOff
from companion.teams import PlayerRef, Team

# Where a default line-up stands, as a share of a team's half from its own goal line.
SHAPE_DEPTH = {Position.DEFENDER: 0.3, Position.MIDFIELDER: 0.6, Position.ATTACKER: 0.8}


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

