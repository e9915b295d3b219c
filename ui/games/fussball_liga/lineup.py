"""The standard kick-off line-up, scaled to the board (pure Python)."""

from __future__ import annotations

from companion.fussball_liga.model import LigaState
from companion.fussball_liga.pitch import Pitch, dist
from companion.teams import PlayerRef, Team

# The standard kick-off shape for a 30 x 20 board, kicking side in the low half (each number
# to a square; scaled to other boards). The waiting side mirrors it into the high half.
KICKING = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
           10: (9, 16), 9: (14, 9), 11: (13, 12)}
WAITING = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
           10: (9, 16), 9: (11, 9), 11: (11, 12)}


def standard_lineup(s: LigaState) -> list[tuple[PlayerRef, tuple[int, int]]]:
    """Each player on the pitch to a square of the kick-off shape for his end (the kicking
    side's #9, or its first field player, on a kick-off square): a start for coaches who set
    the figures by hand. Scaled to the board; never two on a square, no defender in the
    centre circle."""
    p = s.components.pitch
    r = s.restart
    kicking = r.team if r is not None else Team.HOME
    taken: set[tuple[int, int]] = set()
    out = []
    for team in (kicking, kicking.other):
        low = s.end_of(team) == "low"
        shape = KICKING if team is kicking else WAITING
        players = sorted((x for x in s.players.values() if x.on_pitch and x.ref.team is team),
                         key=lambda x: (not x.goalkeeper, x.ref.number))
        spare = [n for n in shape if n not in {x.ref.number for x in players}]
        kicker_done = team is not kicking
        for x in players:
            n = x.ref.number if x.ref.number in shape and not (x.goalkeeper and x.ref.number != 1) else None
            if x.goalkeeper:
                n = 1
            elif n is None or n == 1:
                n = spare.pop(0) if spare else 6
            col, row = shape[n]
            col = round(col * p.halfway_col / 15) if col else 0
            row = min(p.rows - 1, round(row * p.rows / 20))
            sq = (col, row) if low else (p.cols - 1 - col, p.rows - 1 - row)
            if not kicker_done and not x.goalkeeper and n == 9:
                sq = p.kick_off_squares[s.end_of(team)][0]
                kicker_done = True
            sq = _free_near(p, sq, taken, s.end_of(team), team is not kicking)
            taken.add(sq)
            out.append((x.ref, sq))
    return out


def _free_near(p: Pitch, want, taken: set, end: str, defending: bool):
    def ok(sq) -> bool:
        return (p.in_field(sq) and sq not in taken and p.half_of(sq) == end
                and not (defending and p.in_centre_circle(sq)))
    if ok(want):
        return want
    options = [sq for sq in p.field_squares() if ok(sq)]
    return min(options, key=lambda sq: (dist(sq, want), sq))

