"""What a camera sighting means in Futboard at each moment, and that the rules still decide."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.events import Source
from companion.futboard import commands as c
from companion.futboard.model import Phase
from companion.sightings import Sighting
from companion.teams import Team

from futboard_kit import A, H, d12, fix, kicked_off, new_match


def seen(ref, space, dx=10.0, dy=30.0):
    """A sighting of ``ref`` settled inside ``space`` (45 mm spaces), not at its centre."""
    return Sighting(ref, space[0] * 45 + dx, space[1] * 45 + dy, facing=0.0)


def test_line_up_sightings_are_placements():
    m = new_match()
    rules = m.ruleset
    assert rules.command_for(m.state, seen(H(2), (3, 2))) == PlaceFigure(H(2), (3, 2))
    m.sight(seen(H(2), (3, 2)))
    assert m.state.players[H(2)].space == (3, 2) and m.events[-1].source is Source.VISION


def test_in_a_turn_a_figure_that_settled_elsewhere_is_a_movement():
    m = kicked_off()
    rules = m.ruleset
    assert rules.command_for(m.state, seen(H(2), (4, 3))) == c.Move(H(2), (4, 3))
    m.sight(seen(H(2), (4, 3)))
    assert m.state.actions_left == 1 and H(2) in m.state.moved


def test_the_other_sides_figure_moving_is_refused_unless_corrected():
    m = kicked_off()
    cmd = m.ruleset.command_for(m.state, seen(A(2), (15, 2)))
    assert cmd == PlaceFigure(A(2), (15, 2))
    before = m.events
    with pytest.raises(RuleViolation, match="only as an action"):
        m.sight(seen(A(2), (15, 2)))
    assert m.events == before


def test_sightings_that_change_nothing():
    m = kicked_off()
    rules = m.ruleset
    assert rules.command_for(m.state, seen(H(2), (3, 2))) is None          # same space
    assert rules.command_for(m.state, Sighting(None, 100.0, 100.0)) is None  # the ball
    assert rules.command_for(m.state, Sighting(H(2), None, None)) is None    # lifted
    assert rules.command_for(m.state, seen(H(14), (4, 4))) is None         # a reserve on the bench
    assert rules.command_for(m.state, Sighting(H(2), 5000.0, 100.0)) is None


def test_a_corner_taker_is_placed_and_a_penalty_cleared_by_sightings():
    m = kicked_off(to=8)
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 4)
    d12(m, Team.AWAY, 4)
    assert m.state.phase is Phase.CORNER
    m.sight(seen(H(11), (19, 0)))
    assert m.state.ball == H(11) and m.state.turn is Team.AWAY

    m = kicked_off(to=8)
    fix(m, H(8), (17, 8))
    m.submit(c.EndTurn(Team.HOME))
    m.submit(c.TakeBall(A(4)))
    d12(m, Team.AWAY, 12)
    assert m.ruleset.command_for(m.state, seen(A(4), (15, 8))) == c.Move(A(4), (15, 8))
    m.sight(seen(A(4), (15, 8)))
    assert m.ruleset.command_for(m.state, seen(H(9), (17, 6))) == PlaceFigure(H(9), (17, 6))
