"""The camera's contract: board millimetres to squares, and what a sighting stands for at each
moment of the match (the rules still decide)."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.events import Source
from companion.fussball_liga import commands as c
from companion.fussball_liga.model import Control, Phase
from companion.sightings import Sighting
from companion.teams import Team

from fussball_liga_kit import DEEP, A, H, kicked_off, new_match, scene, to_turn_two, toss

MM = 22.0


def at_square(sq):
    return ((sq[0] + 0.5) * MM, (sq[1] + 0.5) * MM)


def seen(ref, sq):
    x, y = at_square(sq)
    return Sighting(ref, x, y)


def test_a_line_up_sighting_is_a_placement_with_the_vision_source():
    m = new_match()
    toss(m)
    events = m.sight(seen(H(2), (4, 3)))
    assert events[0].type == "fussball_liga.figure_placed" and events[0].source is Source.VISION
    assert m.state.players[H(2)].square == (4, 3)
    assert m.sight(seen(H(2), (4, 3))) == ()  # the same square: nothing to record


def test_a_movement_phase_sighting_is_a_move_checked_by_the_rules():
    m = kicked_off()
    cmd = m.ruleset.command_for(m.state, seen(H(2), (6, 3)))
    assert cmd == c.Move(H(2), (6, 3))
    m.sight(seen(H(2), (6, 3)))
    assert m.state.movement.spent[Team.HOME] == 2
    with pytest.raises(RuleViolation, match="no player may spend more than 6"):
        m.sight(seen(H(2), (13, 3)))
    assert m.state.players[H(2)].square == (6, 3)


def test_the_ball_seen_beside_its_carrier_is_him_moving_it():
    m = kicked_off()
    scene(m, {11: (12, 12)}, {}, ball=(12, 12), holder=H(11))
    x, y = at_square((13, 12))
    cmd = m.ruleset.command_for(m.state, Sighting(None, x, y))
    assert cmd == c.MoveBall(H(11), (13, 12))
    m.sight(Sighting(None, x, y))
    assert m.state.ball.control is Control.LOOSE and m.state.movement.spent[Team.HOME] == 1
    far = at_square((20, 12))
    assert m.ruleset.command_for(m.state, Sighting(None, *far)) is None


def test_a_figure_moving_in_the_shot_phase_is_only_a_proposal_the_rules_refuse():
    m = to_turn_two()
    scene(m, {11: (10, 10)}, DEEP, ball=(10, 10), holder=H(11))
    cmd = m.ruleset.command_for(m.state, seen(H(11), (11, 10)))
    assert cmd == PlaceFigure(H(11), (11, 10))
    with pytest.raises(RuleViolation, match="correction"):
        m.sight(seen(H(11), (11, 10)))
    m.submit(PlaceFigure(H(11), (11, 10), correction=True))  # a person overrides
    assert m.state.players[H(11)].square == (11, 10)


def test_a_set_up_sighting_is_a_re_positioning_move():
    m = to_turn_two()
    scene(m, {11: (10, 10), 7: (11, 1)}, {**DEEP, 4: (10, 1)}, ball=(10, 10), holder=H(11))
    m.submit(c.Kick(H(11), (10, -1)))
    m.submit(c.PassTurn(Team.AWAY))
    assert m.state.phase is Phase.SET_UP
    assert m.ruleset.command_for(m.state, seen(H(7), (11, 3))) == c.Move(H(7), (11, 3))


def test_placements_in_millimetres():
    m = new_match()
    toss(m)
    m.submit(PlaceFigure(H(1), x_mm=-11.0, y_mm=10.5 * MM))  # in his goal, behind the line
    assert m.state.players[H(1)].square == (-1, 10)
    with pytest.raises(RuleViolation, match="off the board"):
        m.submit(PlaceFigure(H(2), x_mm=-60.0, y_mm=100.0))


def test_a_figure_lifted_off_the_board():
    m = new_match()
    toss(m)
    m.sight(seen(H(2), (4, 3)))
    assert m.ruleset.command_for(m.state, Sighting(H(2), None, None)) == PlaceFigure(H(2), None)
    m.sight(Sighting(H(2), None, None))
    assert m.state.players[H(2)].square is None


def test_reachable_squares_for_the_tablet():
    m = kicked_off()
    scene(m, {11: (12, 12), 2: (4, 3)}, {}, ball=(12, 12), holder=H(11))
    squares = m.ruleset.reachable(m.state, H(11))  # close control: 2 a square, 6 points: 3 squares
    assert (15, 12) in squares and (16, 12) not in squares and (12, 12) not in squares
    assert len(m.ruleset.reachable(m.state, H(2))) == 13 * 13 - 1 - sum(
        1 for c_ in range(-2, 11) for r in range(-3, 10) if not (0 <= c_ < 30 and 0 <= r < 20))
    assert m.ruleset.reachable(m.state, A(4)) == frozenset()  # off the board
