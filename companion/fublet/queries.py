"""Questions the rules ask about a state: who stands where, which zone, which skill value.

Ends: each team defends one end of the board ("low" at x = 0 or "high"); board areas are
named per end (``penalty_area_low``), so "the penalty area Home defends" is
``area(s, "penalty_area", own_end(s, Team.HOME))``.
"""

from __future__ import annotations

from typing import Iterable

from ..board import GridBoard, Square, grid_distance, is_behind
from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef, Team
from .components import Skill, TacticalBoard
from .model import (SKILL_MAX, SKILL_MIN, FubletState, Modifier, PlayerState, Test, Where, Zone)

TWO_D10 = (DieKind.D10, DieKind.D10)


def board(s: FubletState) -> GridBoard:
    assert s.components is not None
    return s.components.board


def own_end(s: FubletState, team: Team) -> str:
    low = s.options.home_defends_low == (team is Team.HOME)
    return "low" if low else "high"


def attacked_end(s: FubletState, team: Team) -> str:
    return "high" if own_end(s, team) == "low" else "low"


def attacks_high(s: FubletState, team: Team) -> bool:
    return attacked_end(s, team) == "high"


def forward(s: FubletState, team: Team) -> int:
    """+1 when the team attacks towards x = L, else -1 (the sign of a forward column step)."""
    return 1 if attacks_high(s, team) else -1


def ps_in(s: FubletState, area: str, end: str, ps: Square | None) -> bool:
    if ps is None:
        return False
    b = board(s)
    name = f"{area}_{end}"
    return b.has_area(name) and b.ps_in(name, ps)


def ms_in(s: FubletState, area: str, end: str, ms: Square | None) -> bool:
    if ms is None:
        return False
    b = board(s)
    name = f"{area}_{end}"
    return b.has_area(name) and b.ms_in(name, ms)


def ps_of(s: FubletState, ref: PlayerRef) -> Square | None:
    p = s.players[ref]
    return board(s).ms_to_ps(p.ms) if p.ms is not None and p.on_pitch else None


def zone_of(s: FubletState, team: Team, ms: Square) -> Zone:
    """Defense, midfield or attack zone, from ``team``'s point of view."""
    b = board(s)
    if b.ms_in("third_mid", ms):
        return Zone.MIDFIELD
    in_low = b.ms_in("third_low", ms)
    own_low = own_end(s, team) == "low"
    return Zone.DEFENSE if in_low == own_low else Zone.ATTACK


def in_own_half(s: FubletState, team: Team, ms: Square) -> bool:
    return ms_in(s, "half", own_end(s, team), ms)


def on_pitch(s: FubletState, team: Team | None = None) -> list[PlayerState]:
    return [p for p in s.players.values() if p.on_pitch and (team is None or p.ref.team is team)]


def occupant(s: FubletState, ms: Square, ignore: Iterable[PlayerRef] = ()) -> PlayerRef | None:
    skip = set(ignore)
    for p in s.players.values():
        if p.on_pitch and p.ms == ms and p.ref not in skip:
            return p.ref
    return None


def players_in_ps(s: FubletState, ps: Square, team: Team | None = None) -> list[PlayerRef]:
    b = board(s)
    return [p.ref for p in on_pitch(s, team) if p.ms is not None and b.ms_to_ps(p.ms) == ps]


def goalkeeper(s: FubletState, team: Team) -> PlayerState | None:
    for p in on_pitch(s, team):
        if p.goalkeeper:
            return p
    return None


def positions_known(s: FubletState, refs: Iterable[PlayerRef]) -> bool:
    return all(s.players[r].ms is not None for r in refs)


def tactical_board(s: FubletState, team: Team) -> TacticalBoard | None:
    board_id = s.boards.get(team)
    if board_id is None or s.components is None:
        return None
    return s.components.tactical_board(board_id)


def boost(s: FubletState, team: Team, skill: Skill, column: str | None) -> int:
    tb = tactical_board(s, team)
    if tb is None or column is None:
        return 0
    table = tb.outcome_boosts if column == "outcome" else tb.event_boosts
    return table.get(skill, 0)


def clamp_skill(value: int) -> int:
    return max(SKILL_MIN, min(SKILL_MAX, value))


def skill_test(s: FubletState, ref: PlayerRef, skill: Skill, label: str, column: str | None = None,
               modifiers: tuple[Modifier, ...] = ()) -> Test:
    """A 2d10 test on a player's skill with the board's training boost for the phase column
    ("outcome" or "event") and any bonuses or penalties; clamped to 10..90 once modified."""
    p = s.players[ref]
    base = p.skill(skill)
    mods = list(modifiers)
    b = boost(s, ref.team, skill, column)
    if b:
        mods.insert(0, Modifier("boost", b))
    target = base + sum(m.value for m in mods)
    if mods:
        target = clamp_skill(target)
    return Test(team=ref.team, label=label, dice=DiceSpec(TWO_D10, ref.team), player=ref, skill=skill,
                base=base, modifiers=tuple(mods), target=target,
                injury_risk=skill is not Skill.TACTICAL_PERCEPTION)


def plain_roll(team: Team | None, label: str, kind: DieKind) -> Test:
    return Test(team=team or Team.HOME, label=label, dice=DiceSpec((kind,), team))


def move_cost(s: FubletState, p: PlayerState, to: Square) -> int | None:
    """MS a move costs the figure, with the -2 backward-movement penalty when its facing is
    known; None when its start is not known."""
    if p.ms is None:
        return None
    dist = grid_distance(p.ms, to)
    if p.facing is not None and dist > 0 and is_behind(p.ms, to, p.facing):
        dist += 2
    return dist


def is_backward(p: PlayerState, to: Square) -> bool:
    return p.ms is not None and p.facing is not None and p.ms != to and is_behind(p.ms, to, p.facing)


def ball_ps(s: FubletState) -> Square | None:
    if s.ball.carrier is not None:
        return ps_of(s, s.ball.carrier)
    return s.ball.ps


def label(ref: PlayerRef, s: FubletState | None = None) -> str:
    if s is not None and ref in s.players:
        return f"{ref.team.label} #{ref.number} {s.players[ref].card.name}"
    return f"{ref.team.label} #{ref.number}"


def bench(s: FubletState, team: Team) -> list[PlayerState]:
    return [p for p in s.players.values() if p.ref.team is team and p.where is Where.BENCH]
