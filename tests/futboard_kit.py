"""Helpers for driving a Futboard match in tests: line-ups, d12 rolls, turn passing."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from companion.commands import PlaceFigure, SubmitRoll
from companion.dice import DieKind, roll_of
from companion.futboard import commands as c
from companion.futboard.components import load_components, shipped_team
from companion.futboard.model import Options, Phase, Variant
from companion.futboard.rules import FutboardRules
from companion.match import Match
from companion.teams import PlayerRef, Team

T0 = datetime(2026, 12, 5, 15, 0, 0, tzinfo=timezone.utc)


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# Home defends x = 0 (lines 0..9 are its field); Away is mirrored. #9 stands in the circle.
HOME_442 = {1: (0, 6), 2: (3, 2), 3: (3, 5), 4: (3, 7), 5: (3, 10), 6: (6, 2), 7: (6, 5), 8: (6, 7), 10: (6, 10),
            9: (9, 6), 11: (8, 4)}
HOME_STREET = {1: (0, 6), 2: (3, 4), 3: (3, 8), 6: (6, 4), 7: (6, 8), 9: (9, 6), 11: (8, 3)}


def mirror(sq):
    return (19 - sq[0], sq[1])


def away_of(home: dict) -> dict:
    return {n: mirror(sq) for n, sq in home.items()}


def with_tile(team, number: int, **values):
    tiles = tuple(replace(t, **values) if t.number == number else t for t in team.tiles)
    return replace(team, tiles=tiles)


def new_match(variant: Variant = Variant.FUTBOARD, home=None, away=None, journal=None, clock=None,
              **options) -> Match:
    options.setdefault("goal_limit", 3)
    board = "street" if variant is Variant.STREET else "futboard"
    m = Match(FutboardRules(), journal, **({"clock": clock} if clock else {}))
    m.submit(c.CreateMatch(home or shipped_team("estrela"), away or shipped_team("mare"),
                           load_components(board=board), Options(variant=variant, **options)))
    return m


def lineup(m: Match, home=None, away=None) -> None:
    street = m.state.options.variant is Variant.STREET
    for n, sq in (home or (HOME_STREET if street else HOME_442)).items():
        m.submit(PlaceFigure(H(n), square=sq))
    for n, sq in (away or away_of(HOME_STREET if street else HOME_442)).items():
        m.submit(PlaceFigure(A(n), square=sq))


def kicked_off(variant: Variant = Variant.FUTBOARD, to: int = 8, home=None, away=None, **options) -> Match:
    """A match after Home's kick-off: #9 in the circle passes to #``to``."""
    m = new_match(variant, home=home, away=away, **options)
    lineup(m)
    m.submit(c.Pass(H(9), H(to)))
    assert m.state.phase is Phase.PLAY
    return m


def d12(m: Match, team: Team | None, face: int, request: str | None = None):
    return m.submit(SubmitRoll(roll_of(DieKind.D12, face, owner=team), request))


def fix(m: Match, ref: PlayerRef, sq) -> None:
    """Put a figure somewhere by hand (a correction), to set up a situation."""
    m.submit(PlaceFigure(ref, square=sq, correction=True))


def end_turn(m: Match) -> None:
    m.submit(c.EndTurn(m.state.turn))


def turn_to(m: Match, team: Team) -> None:
    """End turns until it is ``team``'s."""
    for _ in range(3):
        if m.state.turn is team:
            return
        end_turn(m)
    assert m.state.turn is team
