"""What stops the kick-off: the line-up the rules check before the first pass of a round."""

from __future__ import annotations

from ..teams import Team
from . import queries as q
from .model import MAX_PER_LINE, FutboardState, KickOff


def lineup_problems(s: FutboardState) -> list[str]:
    """What stops the kick-off: unplaced players, players outside their own field, five in a
    line. The kicking side may have one player in the centre circle beyond the halfway line."""
    out = []
    b = q.pitch(s)
    kicking = s.restart.team if isinstance(s.restart, KickOff) else None
    for team in (Team.HOME, Team.AWAY):
        players = q.on_field(s, team)
        unplaced = sorted(p.ref.number for p in players if p.space is None)
        if unplaced:
            out.append(f"{team.label}: place #{', #'.join(map(str, unplaced))} on the field")
            continue
        away = [p for p in players if not q.in_own_field(s, team, p.space)]
        in_circle = [p for p in away if team is kicking and tuple(p.space) in b.centre_circle]
        if len(in_circle) == 1:
            away.remove(in_circle[0])
        if away:
            out.append(f"{team.label}: each team places its players in its own field; "
                       f"{', '.join(str(p.ref) for p in away)} {'is' if len(away) == 1 else 'are'} not")
        for line in q.crowded_lines(s, team):
            out.append(f"{team.label}: more than {MAX_PER_LINE} players in line {line}")
    return out
