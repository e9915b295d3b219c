"""Questions the rules ask about a state: who stands where, which end, which area."""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from .model import Control, LigaState, PlayerState
from .pitch import Pitch, dist


def pitch(s: LigaState) -> Pitch:
    assert s.components is not None
    return s.components.pitch


def limits(s: LigaState):
    return s.components.rules.limits


def costs(s: LigaState):
    return s.components.rules.costs


def tables(s: LigaState):
    return s.components.tables


def label(ref: PlayerRef | None, s: LigaState | None = None) -> str:
    if ref is None:
        return "nobody"
    if s is not None and ref in s.players:
        return f"{ref.team.label} #{ref.number} {s.players[ref].card.name}"
    return str(ref)


def on_pitch(s: LigaState, team: Team | None = None) -> list[PlayerState]:
    return [p for p in s.players.values() if p.on_pitch and (team is None or p.ref.team is team)]


def placed(s: LigaState, team: Team | None = None) -> list[PlayerState]:
    return [p for p in s.players.values() if p.placed and (team is None or p.ref.team is team)]


def positions(s: LigaState) -> dict[Square, PlayerRef]:
    return {p.square: p.ref for p in s.players.values() if p.placed}


def occupant(s: LigaState, sq: Square) -> PlayerRef | None:
    for p in s.players.values():
        if p.placed and p.square == sq:
            return p.ref
    return None


def goalkeeper(s: LigaState, team: Team) -> PlayerState | None:
    for p in s.players.values():
        if p.ref.team is team and p.on_pitch and p.goalkeeper:
            return p
    return None


def in_own_goal(s: LigaState, ref: PlayerRef, sq: Square | None) -> bool:
    return sq is not None and sq in pitch(s).ends[s.end_of(ref.team)].goal


def in_penalty_area(s: LigaState, end: str, sq: Square | None) -> bool:
    return sq is not None and pitch(s).ends[end].in_penalty_area(sq)


def in_goal_area(s: LigaState, end: str, sq: Square | None) -> bool:
    return sq is not None and pitch(s).ends[end].in_goal_area(sq)


def keeper_in_area(s: LigaState, ref: PlayerRef, area: str) -> bool:
    """The team's real goalkeeper (not a stand-in) in his goal or his own ``area``
    ("penalty_area" or "goal_area"): where he gets his +1 on interception rolls."""
    p = s.players[ref]
    if not p.goalkeeper or p.stand_in or p.square is None:
        return False
    end = s.end_of(ref.team)
    if in_own_goal(s, ref, p.square):
        return True
    return in_penalty_area(s, end, p.square) if area == "penalty_area" else in_goal_area(s, end, p.square)


def in_own_half(s: LigaState, team: Team, sq: Square) -> bool:
    return pitch(s).half_of(sq) == s.end_of(team)


def forward(s: LigaState, team: Team) -> int:
    """+1 when ``team`` attacks towards higher columns."""
    return pitch(s).towards(s.attacked_end(team))


def holder(s: LigaState) -> PlayerState | None:
    return s.players[s.ball.holder] if s.ball.holder is not None else None


def near(a: Square | None, b: Square | None, n: int = 1) -> bool:
    return a is not None and b is not None and dist(a, b) <= n


def goal_area_count(s: LigaState, end: str, team: Team, moving: PlayerRef | None = None,
                    to: Square | None = None) -> int:
    """Players of ``team`` in ``end``'s goal area, with ``moving`` counted at ``to``."""
    count = 0
    for p in s.players.values():
        if not p.placed or p.ref.team is not team:
            continue
        sq = to if p.ref == moving else p.square
        if in_goal_area(s, end, sq):
            count += 1
    if moving is not None and moving.team is team and not s.players[moving].placed and in_goal_area(s, end, to):
        count += 1
    return count


def control_of(s: LigaState, ref: PlayerRef, ball_sq: Square) -> Control:
    return Control.CLOSE if s.players[ref].square == ball_sq else Control.LOOSE
