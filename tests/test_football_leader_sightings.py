"""The camera's contract for Football Leader: board millimetres to spaces, and a sighting to
the command a coach would have given (a movement's card is asked when the camera saw it)."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.football_leader import commands as c
from companion.football_leader.components import load_components
from companion.football_leader.model import Phase
from companion.sightings import Sighting
from companion.teams import Team
from football_leader_kit import A, H, choose, d12, lowest_card, new_match, plain_team, to_kick_off, write_sheets

BOARD = load_components().board


def test_every_space_centre_maps_back_to_its_space_and_the_board_is_symmetric():
    for sp in BOARD.spaces:
        assert BOARD.space_at(*sp.center) == sp.key
        assert BOARD.mirror(BOARD.mirror(sp.key)) == sp.key
    assert BOARD.space_at(-100.0, 250.0) is None and BOARD.space_at(420.0, 600.0) is None
    assert BOARD.space_at(-30.0, 250.0) == (-1, 0) and BOARD.space_at(870.0, 250.0) == (7, 0)


def test_the_board_as_the_rulebook_describes_it():
    pitch = BOARD.pitch_spaces()
    assert len(pitch) == 38 and sum(sp.halved for sp in pitch) == 6
    assert sorted(sp.key for sp in pitch if sp.penalty_area) == [(0, 1), (0, 2), (0, 3), (6, 1), (6, 2), (6, 3)]
    inner = [sp for sp in pitch if 0 < sp.key[0] < 6 and not sp.halved and sp.key[1] not in (0, 4, 5)]
    for sp in inner:  # fig. 4: two forward, two sideways, two backward
        steps = [BOARD.step(sp.key, n, True).value for n, _ in BOARD.neighbours(sp.key)]
        assert sorted(steps) == ["backward", "backward", "forward", "forward", "sideways", "sideways"], sp.label


def match_in_turn():
    m = new_match(home=plain_team("Home"), away=plain_team("Away"))
    to_kick_off(m)
    return m


def sight(m, ref, space):
    x, y = BOARD.center_mm(space)
    return m.ruleset.command_for(m.state, Sighting(ref, x, y))


def test_a_counter_seen_moving_in_its_coachs_turn_is_a_movement_whose_card_is_asked():
    m = match_in_turn()
    assert sight(m, H(8), (2, 2)) is None              # still where it stood
    assert sight(m, None, (2, 2)) is None              # the ball rides on its carrier
    command = sight(m, H(8), (2, 1))
    assert command == c.Move(H(8), (2, 1))
    m.submit(command)
    req = m.pending()[0]
    assert req.kind == "choice" and "gold-4-12" in req.options and "cancel" in req.options
    assert sight(m, H(8), (2, 1)) is None              # seen again while the card is asked
    choose(m, "silver-2-4")                            # any colour moves one space
    assert m.state.players[H(8)].space == (2, 1) and m.state.cards[Team.HOME].hand == 4


def test_only_cards_that_allow_the_move_are_offered_and_cancel_withdraws_it():
    m = match_in_turn()
    m.submit(c.Move(H(2), (2, 2), path=((1, 2), (2, 2))))    # two spaces: GOLD cards of 2 or more
    options = m.pending()[0].options
    assert "gold-2-4" in options and "gold-1-3" not in options and "silver-4-12" not in options
    choose(m, "cancel")
    s = m.state
    assert s.players[H(2)].space == (0, 1) and s.cards[Team.HOME].hand == 5 and s.turn.stage.value == "start"


def test_a_counter_of_the_other_side_seen_moving_is_a_placement_the_rules_refuse():
    m = match_in_turn()
    command = sight(m, A(8), (3, 2))
    assert command == PlaceFigure(A(8), (3, 2))
    with pytest.raises(RuleViolation, match="correction"):
        m.submit(command)
    m.submit(PlaceFigure(A(8), (3, 2), correction=True))
    assert m.state.players[A(8)].space == (3, 2)


def test_in_a_set_up_a_sighting_is_a_placement_checked_against_the_sheet():
    m = new_match()
    write_sheets(m)
    d12(m, Team.HOME, 7)
    d12(m, Team.AWAY, 3)
    assert m.state.phase is Phase.SET_UP
    events = m.sight(Sighting(H(5), *BOARD.center_mm((1, 4))))
    assert events and events[0].payload.space == (1, 4)
    with pytest.raises(RuleViolation, match="strategy sheet puts"):
        m.sight(Sighting(H(5), *BOARD.center_mm((1, 3))))


def test_reachable_spaces_for_the_tablet():
    m = match_in_turn()
    rules = m.ruleset
    # The kick-off carrier moves one space at most: every space next to D3 with room for Home.
    assert rules.reachable(m.state, H(9)) == frozenset({(2, 1), (2, 2), (3, 1), (3, 3), (4, 1), (4, 2)})
    assert rules.reachable(m.state, H(1)) == frozenset()            # the goalkeeper stays in goal
    m.submit(c.Move(H(8), (2, 1), lowest_card(m, Team.HOME)))
    assert rules.reachable(m.state, H(8)) == frozenset()            # a Moved Marker
    far = rules.reachable(m.state, H(2))                             # GOLD movement: a 4 card, 4 spaces
    assert (4, 2) in far and (5, 2) not in far
