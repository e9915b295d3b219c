"""Flow tests: the match set-up, turns, cards, movements and Moved Markers, rule by rule.

Positions after the kick-off set-up (tests/football_leader_kit.py): Home's #9 in D3 [3, 2]
with Away's #10, Home's #10 in D4 [3, 3] with Away's #9; Home defends x = 0 (rows A..D).
"""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import DiceMismatch, RuleViolation
from companion.football_leader import commands as c
from companion.football_leader.model import Phase, RestartKind, Stage, StrategySheet
from companion.teams import Team
from football_leader_kit import (A, C, H, HOME_GOAL_KICK, HOME_KICK_OFF, choose, confirm, d12, free_move,
                                 lowest_card, new_match, pass_turn, place, plain_team, sheet, to_kick_off,
                                 with_counter, write_sheets)

from companion.football_leader.components import shipped_team


def plain_match(**options):
    m = new_match(home=plain_team("Home"), away=plain_team("Away"), **options)
    to_kick_off(m)
    return m


# --- set-up: sheets, opening roll, kick-off ---------------------------------------------------------

def test_nothing_before_the_strategy_sheets():
    m = new_match()
    assert [r.id for r in m.pending()] == ["strategy_home", "strategy_away"]
    with pytest.raises(RuleViolation, match="6.1 Strategy Sheet"):
        m.submit(c.ConfirmSetUp(Team.HOME))
    with pytest.raises(RuleViolation, match="1.6 Dice"):
        d12(m, Team.HOME, 5)


@pytest.mark.parametrize("change, message", [
    ({"goalkeeper": 2}, "goalkeeper is #1"),
    ({"kick_off": {n: sp for n, sp in HOME_KICK_OFF.items() if n != 11}}, "same ten counters"),
    ({"kick_off": {**HOME_KICK_OFF, 11: (4, 1)}}, "dark grey"),
    ({"kick_off": {**HOME_KICK_OFF, 11: (3, 2), 10: (3, 2)}}, "room for two counters"),
    ({"kick_off": {**HOME_KICK_OFF, 11: (3, 0), 6: (3, 0)}}, "room for one counter"),
    ({"kick_off": {**HOME_KICK_OFF, 9: (2, 1), 10: (2, 3)}}, "central space"),
])
def test_a_strategy_sheet_is_checked(change, message):
    m = new_match()
    fields = {"goalkeeper": 1, "goal_kick": dict(HOME_GOAL_KICK), "kick_off": dict(HOME_KICK_OFF)} | change
    if "kick_off" in change and set(change["kick_off"]) != set(HOME_GOAL_KICK):
        fields["goal_kick"] = dict(HOME_GOAL_KICK)
    bad = StrategySheet(fields["goalkeeper"], fields["goal_kick"], fields["kick_off"])
    before = m.state
    with pytest.raises(RuleViolation, match=message):
        m.submit(c.WriteStrategy(Team.HOME, bad))
    assert m.state is before


def test_away_reads_its_grey_spaces_on_the_board_turned_round():
    m = new_match()
    m.submit(c.WriteStrategy(Team.HOME, sheet()))
    with pytest.raises(RuleViolation, match="dark grey"):
        m.submit(c.WriteStrategy(Team.AWAY, sheet()))  # Home's places are Away's far side
    m.submit(c.WriteStrategy(Team.AWAY, sheet(mirrored=True)))
    assert m.state.phase is Phase.OPENING_ROLL


def test_the_opening_roll_is_rolled_again_on_a_tie_and_the_higher_kicks_off():
    m = new_match()
    write_sheets(m)
    d12(m, Team.HOME, 6)
    d12(m, Team.AWAY, 6)
    assert m.state.phase is Phase.OPENING_ROLL and len(m.pending()) == 2
    d12(m, Team.HOME, 2)
    with pytest.raises(DiceMismatch):
        d12(m, Team.HOME, 9)  # Home has rolled: this is Away's die
    d12(m, Team.AWAY, 9)
    s = m.state
    assert s.first_player is Team.AWAY and s.restart.kind is RestartKind.KICK_OFF and s.restart.team is Team.AWAY
    assert {t: (s.cards[t].deck, s.cards[t].hand) for t in Team} == {Team.HOME: (45, 5), Team.AWAY: (45, 5)}
    assert s.phase is Phase.SET_UP


def test_the_kick_off_goes_to_a_counter_on_a_central_space():
    m = new_match()
    write_sheets(m)
    d12(m, Team.HOME, 7)
    d12(m, Team.AWAY, 3)
    with pytest.raises(RuleViolation, match="3.9 Kick Off"):
        m.submit(c.KickOff(H(9)))  # not before both have confirmed the set-up
    confirm(m)
    with pytest.raises(RuleViolation, match="central spaces"):
        m.submit(c.KickOff(H(8)))
    with pytest.raises(RuleViolation, match="Home kicks off"):
        m.submit(c.KickOff(A(10)))
    m.submit(c.KickOff(H(10)))
    s = m.state
    assert s.ball == H(10) and s.turn.team is Team.HOME and s.turn.startup == H(10)
    assert s.players[H(9)].space == (3, 2) and s.players[A(10)].space == (3, 2)


def test_sheet_changes_only_in_a_set_up_and_three_of_each():
    m = new_match()
    write_sheets(m)
    d12(m, Team.HOME, 7)
    d12(m, Team.AWAY, 3)
    for n, space in ((2, (1, 1)), (3, (1, 4)), (4, (0, 2))):
        m.submit(c.ChangeStrategy(Team.HOME, H(n), goal_kick=space))
    with pytest.raises(RuleViolation, match="3 position modifications"):
        m.submit(c.ChangeStrategy(Team.HOME, H(5), kick_off=(1, 3)))
    m.submit(c.Replace(Team.HOME, H(6), H(12)))
    assert m.state.sheets[Team.HOME].kick_off[12] == (2, 0)  # the new counter takes the places
    with pytest.raises(RuleViolation, match="substitutes"):
        m.submit(c.Replace(Team.HOME, H(7), H(6)))  # #6 is out, not a substitute
    with pytest.raises(RuleViolation, match="dark grey"):
        m.submit(c.Replace(Team.HOME, H(7), H(13), kick_off=(5, 2)))
    confirm(m)
    assert m.state.players[H(12)].space == (2, 0) and not m.state.players[H(6)].on_pitch
    m.submit(c.KickOff(H(9)))
    with pytest.raises(RuleViolation, match="only before either a goal kick or a kick off"):
        m.submit(c.Replace(Team.HOME, H(7), H(13)))


def test_a_set_up_placement_must_match_the_sheet():
    m = new_match()
    write_sheets(m)
    d12(m, Team.HOME, 7)
    d12(m, Team.AWAY, 3)
    m.submit(PlaceFigure(H(9), square=(3, 2)))
    with pytest.raises(RuleViolation, match="puts home#9 in D3"):
        m.submit(PlaceFigure(H(9), square=(2, 2)))
    m.submit(PlaceFigure(H(9), x_mm=420.0, y_mm=200.0))  # D3 in millimetres


# --- turns and cards --------------------------------------------------------------------------------

def test_a_turn_has_a_main_action_and_then_may_end():
    m = plain_match()
    with pytest.raises(RuleViolation, match="play a card first"):
        m.submit(c.EndTurn(Team.HOME))
    with pytest.raises(RuleViolation, match="Home's turn"):
        m.submit(free_move(m, Team.AWAY))
    m.submit(free_move(m, Team.HOME))
    assert m.state.turn.stage is Stage.AFTER_MAIN
    m.submit(c.EndTurn(Team.HOME))
    assert m.state.turn.team is Team.AWAY and m.state.turn.number == 2


def test_the_draw_rule_two_cards_or_one_when_holding_four():
    m = plain_match()
    m.submit(free_move(m, Team.HOME))
    m.submit(c.EndTurn(Team.HOME))            # 4 in hand: draws one
    assert m.state.cards[Team.HOME].hand == 5
    m.submit(free_move(m, Team.AWAY))
    m.submit(free_move(m, Team.AWAY))         # the extra movement ends the turn: 3 in hand, draws two
    s = m.state
    assert s.cards[Team.AWAY].hand == 5 and s.cards[Team.AWAY].deck == 43 and s.turn.team is Team.HOME


def test_a_card_the_deck_no_longer_holds_is_refused():
    m = plain_match()
    m.submit(c.Move(H(8), (2, 1), C("gold-4-12")))
    m.submit(c.EndTurn(Team.HOME))
    pass_turn(m)
    m.submit(c.Move(H(4), (1, 2), C("gold-4-12")))
    m.submit(c.EndTurn(Team.HOME))
    pass_turn(m)
    with pytest.raises(RuleViolation, match="all 2 GOLD-4-12 cards"):
        m.submit(c.Move(H(5), (1, 3), C("gold-4-12")))
    with pytest.raises(RuleViolation, match="no GOLD-5-5"):
        from companion.football_leader.components import Card, Colour
        m.submit(c.Move(H(5), (1, 3), Card(Colour.GOLD, 5, 5)))


# --- movement ------------------------------------------------------------------------------------------

def test_movement_by_colour_minimum_and_outburst():
    home = with_counter(shipped_team("lions"), 7, movement="gold-3", abilities=["outburst"])
    home = with_counter(home, 5, movement="gold-3", abilities=[])
    m = new_match(home=home)
    to_kick_off(m)
    with pytest.raises(RuleViolation, match="moves 1 space"):
        m.submit(c.Move(H(5), (3, 4), C("bronze-3-7")))  # B5 -> C5 -> D5: two spaces
    m.submit(c.Move(H(5), (3, 5), C("gold-2-5")))         # GOLD-3 minimum: three spaces (a dotted one)
    m.submit(c.Move(H(7), (4, 4), C("bronze-3-8")))       # Outburst: two spaces with any colour
    assert m.state.players[H(7)].space == (4, 4)


def test_a_dotted_line_counts_half_rounded_up_over_the_move():
    m = plain_match()
    b = m.state.components.board
    # B2 -> B1 (dotted) -> C1: one full step and a half: 2 spaces.
    from companion.football_leader.movement import path_cost
    assert path_cost(m.state, (1, 1), ((1, 0), (2, 0))) == 2
    assert path_cost(m.state, (1, 1), ((1, 0),)) == 1
    assert b.dotted((1, 0), (1, 1))


def test_a_counter_with_a_marker_cannot_move_again():
    m = plain_match()
    m.submit(c.Move(H(8), (2, 1), lowest_card(m, Team.HOME)))
    assert m.state.players[H(8)].markers == 1
    with pytest.raises(RuleViolation, match="has a Moved Marker"):
        m.submit(c.Move(H(8), (2, 2), lowest_card(m, Team.HOME)))


def test_run_allows_a_second_marker():
    home = with_counter(shipped_team("lions"), 4, abilities=["run"])
    m = new_match(home=home)
    to_kick_off(m)
    m.submit(c.Move(H(4), (1, 2), lowest_card(m, Team.HOME)))
    m.submit(c.Move(H(4), (1, 3), lowest_card(m, Team.HOME)))   # the extra movement
    assert m.state.players[H(4)].markers == 2
    pass_turn(m)
    with pytest.raises(RuleViolation, match="a second marker only"):
        m.submit(c.Move(H(4), (1, 2), lowest_card(m, Team.HOME)))


def test_the_fifth_marker_clears_the_others_but_not_those_of_this_turn():
    m = plain_match()
    for mover, to in ((H(2), (0, 2)), (H(3), (0, 4))):
        m.submit(c.Move(mover, to, lowest_card(m, Team.HOME)))
        m.submit(c.EndTurn(Team.HOME))
        pass_turn(m)
    m.submit(c.Move(H(4), (1, 2), lowest_card(m, Team.HOME)))   # the third and fourth markers
    m.submit(c.Move(H(5), (1, 3), lowest_card(m, Team.HOME)))
    pass_turn(m)
    m.submit(c.Move(H(6), (2, 1), lowest_card(m, Team.HOME)))   # the fifth marker
    markers = {n: m.state.players[H(n)].markers for n in (2, 3, 4, 5, 6)}
    assert markers == {2: 0, 3: 0, 4: 0, 5: 0, 6: 1}
    m.submit(c.Move(H(2), (0, 1), lowest_card(m, Team.HOME)))   # free again: the extra movement
    assert m.state.players[H(6)].markers == 1 and m.state.players[H(2)].markers == 1


def test_the_fifth_marker_by_an_extra_movement_keeps_the_main_actions_marker():
    m = plain_match()
    for mover, to in ((H(2), (0, 2)), (H(3), (0, 4)), (H(4), (1, 2))):
        m.submit(c.Move(mover, to, lowest_card(m, Team.HOME)))
        m.submit(c.EndTurn(Team.HOME))
        pass_turn(m)
    m.submit(c.Move(H(5), (1, 3), lowest_card(m, Team.HOME)))   # the fourth, this turn
    m.submit(c.Move(H(6), (2, 1), lowest_card(m, Team.HOME)))   # the fifth, as extra movement
    s = m.state
    assert [s.players[H(n)].markers for n in (2, 3, 4, 5, 6)] == [0, 0, 0, 1, 1]


def test_the_extra_movement_is_never_the_ball_carrier_and_only_one():
    m = plain_match()
    m.submit(free_move(m, Team.HOME))
    with pytest.raises(RuleViolation, match="carrying the ball"):
        m.submit(c.Move(H(9), (2, 2), lowest_card(m, Team.HOME)))
    m.submit(free_move(m, Team.HOME))
    assert m.state.turn.team is Team.AWAY  # after the extra movement the turn is over


def test_the_start_up_rule_one_space_for_the_kick_off_carrier():
    m = plain_match()
    with pytest.raises(RuleViolation, match="Start Up"):
        m.submit(c.Move(H(9), (1, 2), C("gold-3-9"), path=((2, 2), (1, 2))))
    m.submit(c.Move(H(9), (2, 2), C("gold-3-9")))   # backward: no dodge needed
    assert m.state.turn.stage is Stage.CARRIER_MOVED


def test_the_ball_carrier_cannot_move_through_a_space_full_of_his_team():
    m = plain_match()
    place(m, H(4), (2, 2))          # C3 holds #8 and #4: full for Home
    pass_turn(m, avoid=(H(2), H(4), H(8)))
    pass_turn(m)
    with pytest.raises(RuleViolation, match="full of his own team"):
        m.submit(c.Move(H(9), (1, 2), C("gold-3-9"), path=((2, 2), (1, 2))))
    # A counter without the ball may go through, but not stop there.
    m.submit(c.Move(H(2), (2, 3), C("gold-3-9"), path=((1, 2), (2, 2), (2, 3))))
    assert m.state.players[H(2)].space == (2, 3)


def test_a_goalkeeper_does_not_move_and_a_full_space_takes_nobody():
    m = plain_match()
    with pytest.raises(RuleViolation, match="goal space"):
        m.submit(c.Move(H(1), (0, 2), lowest_card(m, Team.HOME)))
    m.submit(c.Move(H(11), (3, 0), lowest_card(m, Team.HOME)))      # D1 is halved: one Home counter
    with pytest.raises(RuleViolation, match="no room"):
        m.submit(c.Move(H(6), (3, 0), lowest_card(m, Team.HOME)))
    with pytest.raises(RuleViolation, match="not a space of the pitch"):
        m.submit(c.Move(H(6), (-1, 0), lowest_card(m, Team.HOME)))


def test_move_and_dodge_sideways_is_half_and_backward_is_free():
    m = plain_match()
    place(m, A(8), (3, 2))  # D3: Away #10 and #8 (defence 6 each) mark #9
    m.submit(c.Move(H(9), (3, 1), C("gold-3-9")))
    movement = m.summary()["movement"]
    assert movement["player"] == "home#9" and [sp["label"] for sp in movement["path"]] == ["D2"]
    assert m.pending()[0].kind == "choice" and "dodges to leave D3" in m.pending()[0].text
    choose(m, "gold-4-11")
    assert "difficulty 9" in m.pending()[0].text   # half of 6 + 6 + 6 = 18
    d12(m, Team.HOME, 5)
    assert m.state.players[H(9)].space == (3, 1) and m.state.ball == H(9)


def test_an_unmarked_carrier_leaves_his_space_without_a_dodge():
    m = plain_match()
    m.submit(c.Dodge(C("gold-4-11")))
    d12(m, Team.HOME, 6)
    m.submit(c.EndTurn(Team.HOME))
    pass_turn(m)
    m.submit(c.Move(H(9), (4, 2), C("gold-3-9")))     # forward out of D3 while unmarked: no roll
    s = m.state
    assert not s.queue and s.players[H(9)].space == (4, 2) and s.unmarked is None


def test_dodge_plans_go_with_the_movements_card():
    from companion.football_leader.model import DodgePlan
    m = plain_match()
    with pytest.raises(RuleViolation, match="card together with its dodge plans"):
        m.submit(c.Move(H(9), (4, 2), dodges=(DodgePlan(C("gold-4-11")),)))
    with pytest.raises(RuleViolation, match="needs 1 dodge"):
        m.submit(c.Move(H(9), (4, 2), C("gold-3-9"), dodges=(DodgePlan(C("gold-4-11")), DodgePlan(C("gold-4-10")))))
