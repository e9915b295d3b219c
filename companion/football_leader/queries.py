"""Questions the rules ask about a state: who stands where, who marks whom, which cards are left.

Ends: each team defends one end of the board, "low" (x = 0) or "high"; Home defends the low
end for the whole match (the rulebook never changes ends).
"""

from __future__ import annotations

from ..teams import PlayerRef, Team
from .components import Ability, Card, Counter
from .model import FootballLeaderState, PlayerState, Where
from .pitch import HIGH, LOW, Space, SpaceBoard


def board(s: FootballLeaderState) -> SpaceBoard:
    assert s.components is not None
    return s.components.board


def own_end(s: FootballLeaderState, team: Team) -> str:
    return LOW if (team is Team.HOME) == s.options.home_defends_low else HIGH


def attacked_end(s: FootballLeaderState, team: Team) -> str:
    return HIGH if own_end(s, team) == LOW else LOW


def towards_high(s: FootballLeaderState, team: Team) -> bool:
    return attacked_end(s, team) == HIGH


def goal_space(s: FootballLeaderState, team: Team) -> Space:
    """The goal space ``team`` defends (where its goalkeeper stays)."""
    return board(s).goal_space(own_end(s, team))


def counter(s: FootballLeaderState, ref: PlayerRef) -> Counter:
    return s.players[ref].counter


def has(s: FootballLeaderState, ref: PlayerRef, ability: Ability) -> bool:
    p = s.players[ref]
    return not p.goalkeeper and p.counter.has(ability)


def on_pitch(s: FootballLeaderState, team: Team | None = None) -> list[PlayerState]:
    return [p for p in s.players.values() if p.on_pitch and (team is None or p.ref.team is team)]


def outfield(s: FootballLeaderState, team: Team | None = None) -> list[PlayerState]:
    return [p for p in on_pitch(s, team) if not p.goalkeeper]


def in_space(s: FootballLeaderState, space: Space | None, team: Team | None = None) -> list[PlayerState]:
    if space is None:
        return []
    return [p for p in on_pitch(s, team) if p.space == space]


def count_in(s: FootballLeaderState, space: Space, team: Team, ignore: PlayerRef | None = None) -> int:
    return sum(1 for p in in_space(s, space, team) if p.ref != ignore)


def room(s: FootballLeaderState, space: Space, team: Team, ignore: PlayerRef | None = None) -> int:
    """Counters of ``team`` the space still takes (two, one in a halved space)."""
    return board(s).space(space).capacity - count_in(s, space, team, ignore)


def keeper(s: FootballLeaderState, team: Team) -> PlayerState | None:
    for p in on_pitch(s, team):
        if p.goalkeeper:
            return p
    return None


def keeper_values(s: FootballLeaderState, team: Team) -> tuple[int, int]:
    """(parry, defence) of ``team``'s goalkeeper; 0, 0 with nobody in goal."""
    k = keeper(s, team)
    if k is None:
        return 0, 0
    return k.parry.value or 0, k.keeper_defence.value or 0


def space_of(s: FootballLeaderState, ref: PlayerRef | None) -> Space | None:
    if ref is None:
        return None
    p = s.players[ref]
    return p.space if p.on_pitch else None


def carrier_space(s: FootballLeaderState) -> Space | None:
    return space_of(s, s.ball)


def is_unmarked(s: FootballLeaderState, ref: PlayerRef) -> bool:
    """Unmarked by a dodge, still in the same space, with the ball, within its time (3.4)."""
    u = s.unmarked
    if u is None or u.player != ref or s.ball != ref:
        return False
    if s.players[ref].space != u.space:
        return False
    number = s.turn.number if s.turn is not None else s.turns
    return number <= u.until_turn


def can_take_marker(s: FootballLeaderState, ref: PlayerRef) -> bool:
    """No Moved Marker yet, or one on a counter with Run (3.1, 5)."""
    p = s.players[ref]
    return p.markers == 0 or (p.markers == 1 and has(s, ref, Ability.RUN))


def in_goal_area(s: FootballLeaderState, space: Space, team: Team) -> bool:
    """One of the three spaces of the penalty area in front of ``team``'s goal."""
    b = board(s)
    return b.has(space) and b.space(space).penalty_area and b.end_of(space) == own_end(s, team)


def offside(s: FootballLeaderState, ref: PlayerRef, space: Space | None = None) -> bool:
    """3.3: no defending counter in the receiver's row nor in any row up to the defending
    goalkeeper; never in his own half (the four rows nearest his side)."""
    space = space or s.players[ref].space
    if space is None:
        return False
    b = board(s)
    team = ref.team
    if b.in_half(space, own_end(s, team)):
        return False
    high = towards_high(s, team)
    row = space[0]
    for p in outfield(s, team.other):
        if p.space is None:
            continue
        if (p.space[0] >= row) if high else (p.space[0] <= row):
            return False
    return True


def bench(s: FootballLeaderState, team: Team) -> list[PlayerState]:
    return [p for p in s.players.values() if p.ref.team is team and p.where is Where.BENCH]


# --- cards ------------------------------------------------------------------------------------

def deck_counts(s: FootballLeaderState) -> dict[Card, int]:
    assert s.components is not None
    return s.components.deck.counts()


def cards_left(s: FootballLeaderState, team: Team) -> dict[Card, int]:
    """Each card of the deck not yet played this period (in the deck or in hand)."""
    played = s.cards[team].played
    return {card: n - played.get(card, 0) for card, n in deck_counts(s).items() if n - played.get(card, 0) > 0}


def label(ref: PlayerRef | None, s: FootballLeaderState | None = None) -> str:
    if ref is None:
        return "nobody"
    if s is not None and ref in s.players:
        return f"{ref.team.label} #{ref.number} {s.players[ref].counter.name}"
    return f"{ref.team.label} #{ref.number}"


def where(s: FootballLeaderState, space: Space | None) -> str:
    return board(s).label(space)
