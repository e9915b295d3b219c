"""Questions the rules ask about a state: who stands where, who marks whom, the offside line.

Home defends the low end (x = 0) and Away the high end for the whole match: the rulebook
has no halves and no change of ends.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from .model import MAX_PER_LINE, FutboardState, PlayerState, Where
from .pitch import End, Pitch


def pitch(s: FutboardState) -> Pitch:
    assert s.components is not None
    return s.components.pitch


def own_end(team: Team) -> End:
    return End.LOW if team is Team.HOME else End.HIGH


def attacked_end(team: Team) -> End:
    return own_end(team).other


def label(ref: PlayerRef, s: FutboardState) -> str:
    p = s.players.get(ref)
    return f"{ref} ({p.tile.name})" if p is not None else str(ref)


def on_field(s: FutboardState, team: Team | None = None) -> list[PlayerState]:
    return [p for p in s.players.values() if p.on_field and (team is None or p.ref.team is team)]


def reserves(s: FutboardState, team: Team) -> list[PlayerState]:
    return [p for p in s.players.values() if p.ref.team is team and p.where is Where.RESERVE]


def occupied(s: FutboardState, but: PlayerRef | None = None) -> dict[Square, PlayerRef]:
    return {p.space: p.ref for p in s.players.values() if p.on_field and p.space is not None and p.ref != but}


def occupant(s: FutboardState, sq: Square) -> PlayerRef | None:
    return occupied(s).get(tuple(sq))


def inside(s: FutboardState, sq: Square) -> bool:
    return pitch(s).inside(sq, s.street)


def opponents_adjacent(s: FutboardState, ref: PlayerRef, at: Square | None = None) -> list[PlayerRef]:
    """Opposing players on the spaces around ``at`` (the player's own space by default)."""
    at = at if at is not None else s.players[ref].space
    if at is None:
        return []
    adjacent = pitch(s).adjacent
    return [p.ref for p in on_field(s, ref.team.other) if p.space is not None and adjacent(at, p.space)]


def blocked(s: FutboardState, ref: PlayerRef) -> bool:
    """Adjacent to 2 or more opponents: he can neither receive a pass nor kick to goal."""
    return len(opponents_adjacent(s, ref)) >= 2


def in_line_count(s: FutboardState, p: PlayerState) -> bool:
    """The goalkeeper is not one of the "players" of the four in a line ("10 players plus the
    Goalkeeper"), as in the last opponent's player (FB34, FB20), unless the table's option
    counts him."""
    return not p.goalkeeper or s.options.keeper_in_line


def line_count(s: FutboardState, team: Team, line: int, but: PlayerRef | None = None) -> int:
    return sum(1 for p in on_field(s, team)
               if p.space is not None and p.space[0] == line and p.ref != but and in_line_count(s, p))


def line_full(s: FutboardState, ref: PlayerRef, sq: Square) -> bool:
    """Would ``ref`` on ``sq`` make five of his team in that line?"""
    if not in_line_count(s, s.players[ref]):
        return False
    return line_count(s, ref.team, sq[0], but=ref) >= MAX_PER_LINE


def crowded_lines(s: FutboardState, team: Team) -> list[int]:
    lines: dict[int, int] = {}
    for p in on_field(s, team):
        if p.space is not None and in_line_count(s, p):
            lines[p.space[0]] = lines.get(p.space[0], 0) + 1
    return sorted(line for line, n in lines.items() if n > MAX_PER_LINE)


def keeper(s: FutboardState, team: Team) -> PlayerState | None:
    for p in on_field(s, team):
        if p.goalkeeper:
            return p
    return None


def last_defender_line(s: FutboardState, defending: Team) -> int | None:
    """The line of the defending side's rearmost player other than its goalkeeper."""
    lines = [p.space[0] for p in on_field(s, defending) if p.space is not None and not p.goalkeeper]
    if not lines:
        return None
    return min(lines) if own_end(defending) is End.LOW else max(lines)


def offside(s: FutboardState, receiver: PlayerRef) -> bool:
    """In a line in front of (nearer the opponents' goal than) the last opponent's player."""
    p = s.players[receiver]
    last = last_defender_line(s, receiver.team.other)
    if p.space is None or last is None:
        return False
    return p.space[0] > last if attacked_end(receiver.team) is End.HIGH else p.space[0] < last


def in_own_field(s: FutboardState, team: Team, sq: Square) -> bool:
    return pitch(s).half(sq) is own_end(team)


def ruler_marks(s: FutboardState, a: Square, b: Square) -> float:
    assert s.components is not None
    return pitch(s).distance_mm(a, b) / s.components.ruler.mark_mm


def carrier_team(s: FutboardState) -> Team | None:
    return s.ball.team if s.ball is not None else None
