"""Camera sightings become the command they stand for; the rules still decide."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.events import Source
from companion.fublet import commands as c
from companion.fublet.components import Action
from companion.fublet.model import Phase, Status
from companion.sightings import Sighting
from companion.teams import Team

from fublet_kit import A, H, die, fixed_match, pass_phase, pct, to_first_round


def at(ms):
    """The board point at the middle of an MS on the shipped board (20 mm squares)."""
    return (ms[0] * 20 + 10.0, ms[1] * 20 + 10.0)


def seen(ref, ms, facing=None):
    x, y = at(ms)
    return Sighting(ref, x, y, facing)


def test_before_kick_off_a_sighting_places_the_figure():
    m = fixed_match()
    die(m, Team.HOME, 7)
    die(m, Team.AWAY, 3)
    events = m.sight(seen(H(7), (16, 12), facing=10))
    assert events[0].source is Source.VISION
    assert m.state.players[H(7)].ms == (16, 12) and m.state.players[H(7)].facing == 10
    assert m.sight(seen(H(7), (16, 12), facing=12)) == ()  # same square: nothing to book


def test_in_the_movement_phase_a_sighting_is_a_single_movement_checked_by_the_rules():
    m = fixed_match()
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    m.sight(seen(H(7), (17, 12)))
    p = m.state.players[H(7)]
    assert p.ms == (17, 12) and p.status is Status.EXHAUSTED and m.state.mp[Team.HOME] == 1
    with pytest.raises(RuleViolation, match="Away's turn"):
        m.sight(seen(H(8), (19, 19)))
    with pytest.raises(RuleViolation, match="would cover"):
        m.sight(seen(A(7), (20, 19)))
    assert m.state.players[A(7)].ms == (31, 19)


def test_a_move_seen_while_a_coach_declares_is_refused_unless_corrected():
    m = fixed_match()
    to_first_round(m)
    with pytest.raises(RuleViolation, match="correction"):
        m.sight(seen(H(7), (17, 12)))
    m.submit(PlaceFigure(H(7), square=(17, 12), correction=True))
    assert m.state.players[H(7)].manual


def test_tactical_movement_sighting_asks_for_the_test():
    m = fixed_match()
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    m.sight(seen(H(7), (17, 12)))
    assert "Tactical Perception" in m.pending()[0].text
    assert m.state.players[H(7)].ms == (16, 12)  # only a good test moves him in the books


def test_the_ball_token_and_unknown_figures_propose_nothing():
    m = fixed_match()
    to_first_round(m)
    assert m.sight(Sighting(None, 100.0, 100.0)) == ()
    assert m.state.phase is Phase.DECLARATION
