"""Flow tests for the actions: pass, dodge, shot, tackle, foul checks, free kicks, goal kicks.

Both teams are ``plain_team``: no special abilities, every characteristic GOLD except pass
(SILVER), defence GOLD-6; goalkeepers parry GOLD-10, defence SILVER-8. After the kick-off
Home's #9 has the ball in D3 [3, 2], marked by Away's #10.
"""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.football_leader import commands as c
from companion.football_leader.model import Phase, RestartKind, Stage
from companion.teams import Team
from football_leader_kit import (A, C, H, choose, confirm, d12, free_move, lowest_card, new_match, pass_turn, place,
                                 plain_team, to_kick_off, with_counter)


def plain_match(home=None, away=None, **options):
    m = new_match(home=home or plain_team("Home"), away=away or plain_team("Away"), **options)
    to_kick_off(m)
    return m


def text(m) -> str:
    return m.pending()[0].text


def hand(m, team=Team.HOME) -> int:
    return m.state.cards[team].hand


def to_away_turn(m):
    """Home moves a counter (not #9's neighbours in D3) and ends its turn."""
    pass_turn(m, avoid=(H(9),))
    assert m.state.turn.team is Team.AWAY


# --- pass -------------------------------------------------------------------------------------------

def test_a_pass_to_an_offside_counter_is_refused():
    m = plain_match()
    place(m, H(8), (5, 2))
    for n in (2, 3, 4, 5):
        place(m, A(n), (4, n - 2 if n < 4 else n - 1))  # nobody of Away's outfield in rows F and G
    before = m.state
    with pytest.raises(RuleViolation, match="Offside"):
        m.submit(c.Pass(H(8), C("silver-4-10")))
    assert m.state is before
    place(m, A(5), (5, 1))  # a defender in his row: onside
    m.submit(c.Pass(H(8), C("silver-4-10")))
    assert m.pending()[0].kind == "dice"


def test_nobody_is_offside_in_his_own_half():
    m = plain_match()
    for n in range(2, 12):
        place(m, A(n), (6, 0) if n == 2 else (6, 2))  # (the capacity is not checked for corrections)
    m.submit(c.Pass(H(11), C("silver-4-10")))  # #11 in D2: the middle row is Home's half too


def test_passes_go_to_teammates_on_the_pitch_but_not_the_goalkeeper():
    m = plain_match()
    with pytest.raises(RuleViolation, match="goalkeeper"):
        m.submit(c.Pass(H(1), C("silver-4-10")))
    with pytest.raises(RuleViolation, match="Home's counters on the pitch"):
        m.submit(c.Pass(A(8), C("silver-4-10")))
    with pytest.raises(RuleViolation, match="Home's counters on the pitch"):
        m.submit(c.Pass(H(12), C("silver-4-10")))


def test_a_pass_no_defender_can_take_never_fails_but_spends_its_card():
    m = plain_match()
    place(m, A(10), (4, 3))  # nobody left at the origin, the destination, or next to it
    m.submit(c.Pass(H(6), C("silver-4-10")))
    s = m.state
    assert not s.queue and s.ball == H(6) and hand(m) == 4 and s.turn.stage is Stage.PASSED


def test_a_missed_pass_goes_to_a_defender_at_the_destination_chosen_by_his_coach():
    m = plain_match()
    place(m, A(8), (3, 3))      # D4: Away #9 and #8 with Home's #10
    m.submit(c.Pass(H(10), C("silver-4-10")))
    assert "difficulty 12" in text(m)  # sideways 3, one defender at D3 and two at D4
    d12(m, Team.HOME, 1)
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.AWAY and set(req.options) == {"away#8", "away#9"}
    choose(m, "away#8")
    s = m.state
    assert s.ball == A(8) and s.players[A(8)].space == (3, 3) and s.turn.team is Team.AWAY


def test_a_missed_pass_next_to_a_defender_moves_him_in_without_a_marker():
    m = plain_match()
    m.submit(c.Pass(H(7), C("silver-4-10")))  # C5: nobody of Away, #11 next to it in D5
    d12(m, Team.HOME, 1)
    s = m.state
    assert s.ball == A(11) and s.players[A(11)].space == (2, 4) and s.players[A(11)].markers == 0


def test_the_optional_rule_loses_a_pass_rolled_1_at_its_origin():
    m = plain_match(pass_one_loses_in_origin=True)
    place(m, A(11), (4, 4))
    place(m, A(6), (3, 4))    # a defender next to C5 and one at the origin
    m.submit(c.Pass(H(7), C("silver-4-10")))
    d12(m, Team.HOME, 1)
    assert m.state.ball == A(10) and m.state.players[A(10)].space == (3, 2)


def test_a_goalkeeper_who_takes_a_missed_pass_restarts_with_a_goal_kick():
    m = new_match(home=plain_team("Home"), away=plain_team("Away"))
    to_kick_off(m, home_roll=2, away_roll=9, kicker=10)   # Away kicks off: #10 in D3
    place(m, A(8), (0, 2))                                 # in A3, between Home's #2 and #3
    m.submit(c.Pass(A(8), C("silver-4-10")))
    d12(m, Team.AWAY, 1)
    req = m.pending()[0]
    assert "home#1" in req.options
    choose(m, "home#1")
    s = m.state
    assert s.ball == H(1) and s.restart.kind is RestartKind.GOAL_KICK and s.phase is Phase.SET_UP
    confirm(m)
    s = m.state
    assert s.turn.stage is Stage.GOAL_KICK and (s.cards[Team.HOME].hand, s.cards[Team.AWAY].hand) == (6, 5)
    assert s.players[A(8)].space == (4, 2) and s.players[H(9)].space == (3, 2)  # the goal-kick places
    m.submit(c.Pass(H(9), C("bronze-4-12")))  # the goalkeeper passes with any colour
    assert "card bonus +12" in text(m)
    d12(m, Team.HOME, 9)
    assert m.state.turn.stage is Stage.START and m.state.turn.startup == H(9)


def test_move_and_pass_with_the_same_counter_is_refused():
    m = plain_match()
    m.submit(c.Move(H(9), (2, 2), C("gold-3-9")))
    with pytest.raises(RuleViolation, match="4.7 Actions NOT allowed"):
        m.submit(c.Pass(H(8), C("silver-4-10")))


def test_receive_and_move_and_a_second_pass_are_refused():
    m = plain_match()
    place(m, A(10), (5, 3))
    place(m, A(9), (5, 3))
    m.submit(c.Pass(H(8), C("silver-4-10")))   # never fails: #8 has it
    with pytest.raises(RuleViolation, match="4.7"):
        m.submit(c.Move(H(8), (2, 1), lowest_card(m, Team.HOME)))
    with pytest.raises(RuleViolation, match="second pass"):
        m.submit(c.Pass(H(6), C("silver-3-9")))
    m.submit(c.Move(H(9), (2, 1), lowest_card(m, Team.HOME)))  # the passer may make the extra movement
    assert m.state.turn.team is Team.AWAY


def test_pass_and_dodge_a_failed_dodge_keeps_the_ball_and_the_pass_card():
    m = plain_match()
    with pytest.raises(RuleViolation, match="not marked"):
        m.submit(c.Pass(H(8), C("silver-4-10"), dodge_card=C("gold-4-11")))
    m.submit(c.Pass(H(10), C("silver-4-10"), dodge_card=C("gold-4-11")))
    assert "dodge by #10 before the pass: difficulty 12" in text(m)
    d12(m, Team.HOME, 1)
    s = m.state
    assert s.ball == H(9) and s.turn.team is Team.AWAY
    assert s.cards[Team.HOME].played == {C("gold-4-11"): 1}


def test_pass_and_dodge_both_made_leaves_the_receiver_unmarked_and_no_shot():
    m = plain_match()
    m.submit(c.Pass(H(10), C("silver-4-10"), dodge_card=C("gold-4-11")))
    d12(m, Team.HOME, 5)
    d12(m, Team.HOME, 5)
    s = m.state
    assert s.ball == H(10) and s.unmarked.player == H(10) and s.turn.stage is Stage.AFTER_MAIN


def test_game_vision_passes_instead_of_the_extra_movement():
    home = with_counter(plain_team("Home"), 9, abilities=["game_vision"])
    m = plain_match(home=home)
    m.submit(c.Move(H(11), (4, 1), lowest_card(m, Team.HOME)))
    m.submit(c.Pass(H(11), C("silver-4-10")))      # to the counter moved this turn
    d12(m, Team.HOME, 6)
    assert m.state.turn.stage is Stage.VISION_PASSED
    with pytest.raises(RuleViolation, match="Game Vision"):
        m.submit(free_move(m, Team.HOME))


def test_without_game_vision_the_main_action_is_over():
    m = plain_match()
    m.submit(c.Move(H(11), (4, 1), lowest_card(m, Team.HOME)))
    with pytest.raises(RuleViolation, match="main action is over"):
        m.submit(c.Pass(H(11), C("silver-4-10")))


# --- dodge --------------------------------------------------------------------------------------

def test_a_dodge_needs_a_marker_and_cannot_be_repeated_to_stay_unmarked():
    m = plain_match()
    place(m, A(10), (4, 3))
    with pytest.raises(RuleViolation, match="no defender marks"):
        m.submit(c.Dodge(C("gold-4-11")))
    place(m, A(10), (3, 2))
    m.submit(c.Dodge(C("gold-4-11")))
    d12(m, Team.HOME, 4)
    m.submit(c.EndTurn(Team.HOME))
    pass_turn(m)
    with pytest.raises(RuleViolation, match="cannot try a dodge again"):
        m.submit(c.Dodge(C("gold-4-12")))


def test_a_failed_dodge_gives_the_ball_to_a_defender_of_his_coachs_choice():
    m = plain_match()
    place(m, A(8), (3, 2))
    m.submit(c.Dodge(C("bronze-4-12")))   # a bronze card: +0 against 6 + 6 + 6
    assert "difficulty 18, card bonus +0" in text(m)
    d12(m, Team.HOME, 12)
    choose(m, "away#8")
    assert m.state.ball == A(8) and m.state.turn.team is Team.AWAY


@pytest.mark.parametrize("supporter_pass, support_card, error", [
    ("gold", None, None),                       # same colour as the dodge: no card
    ("silver", C("silver-3-9"), None),          # a card of the supporter's pass colour
    ("silver", None, "SILVER card"),
    ("silver", C("gold-3-9"), "SILVER card"),
    ("gold", C("gold-3-9"), "needs no card"),
])
def test_a_supported_dodge_is_halved(supporter_pass, support_card, error):
    home = with_counter(plain_team("Home"), 8, passing=supporter_pass)
    m = plain_match(home=home)
    place(m, H(8), (3, 2))
    place(m, A(8), (3, 2))
    command = c.Dodge(C("gold-4-11"), supporter=H(8), support_card=support_card)
    if error:
        with pytest.raises(RuleViolation, match=error):
            m.submit(command)
        return
    m.submit(command)
    assert "difficulty 9" in text(m)


# --- shot ---------------------------------------------------------------------------------------

def test_a_shot_needs_shooting_numbers_and_no_defender_on_a_23():
    m = plain_match()
    with pytest.raises(RuleViolation, match="no shooting numbers"):
        m.submit(c.Shoot(C("gold-4-12")))
    place(m, H(9), (4, 2))          # E3 prints 23
    place(m, A(8), (4, 2))
    with pytest.raises(RuleViolation, match="no defender counter can be in the space"):
        m.submit(c.Shoot(C("gold-4-12")))
    place(m, A(8), (4, 1))
    m.submit(c.Shoot(C("gold-4-12")))
    assert "difficulty 23" in text(m)


def test_a_goal_restarts_with_the_other_sides_kick_off():
    m = plain_match()
    place(m, H(9), (5, 2))          # F3: 4-8-12 + parry 10
    m.submit(c.Shoot(C("gold-4-12")))
    assert "difficulty 14" in text(m)
    d12(m, Team.HOME, 2)
    s = m.state
    assert s.score[Team.HOME] == 1 and s.restart.kind is RestartKind.KICK_OFF and s.restart.team is Team.AWAY
    assert s.turn.team is Team.AWAY and s.phase is Phase.SET_UP
    confirm(m)
    m.submit(c.KickOff(A(10)))
    assert m.state.ball == A(10)


def test_a_missed_shot_is_followed_by_the_defenders_goal_kick():
    m = plain_match()
    place(m, H(9), (5, 2))
    m.submit(c.Shoot(C("bronze-4-12")))
    d12(m, Team.HOME, 1)
    s = m.state
    assert s.ball == A(1) and s.restart.kind is RestartKind.GOAL_KICK and s.turn.team is Team.AWAY
    assert s.phase is Phase.SET_UP


def test_move_and_shoot_and_pass_and_shoot_add_four():
    m = plain_match()
    place(m, H(9), (4, 2))
    place(m, A(10), (4, 1))
    place(m, A(8), (4, 3))
    m.submit(c.Move(H(9), (5, 2), C("gold-3-9")))
    m.submit(c.Shoot(C("gold-4-12")))
    assert "difficulty 18" in text(m)     # 4 + parry 10 + 4


def test_pass_and_shoot_on_the_fly_takes_the_four_back():
    home = with_counter(plain_team("Home"), 8, abilities=["shoot_on_the_fly"])
    m = plain_match(home=home)
    place(m, H(8), (5, 2))
    place(m, A(5), (5, 1))                # onside
    m.submit(c.Pass(H(8), C("silver-4-10")))
    d12(m, Team.HOME, 10)
    m.submit(c.Shoot(C("gold-4-12")))
    assert "difficulty 14" in text(m)


def test_dodge_and_shoot_in_the_same_turn_is_refused():
    m = plain_match()
    place(m, H(9), (5, 2))
    place(m, A(10), (5, 2))
    m.submit(c.Dodge(C("gold-4-11")))
    d12(m, Team.HOME, 8)
    with pytest.raises(RuleViolation, match="dodge \\(to get unmarked\\) and shoot"):
        m.submit(c.Shoot(C("gold-4-12")))


def test_an_unmarked_shooter_counts_one_defender_fewer_next_turn():
    m = plain_match()
    place(m, H(9), (5, 2))
    place(m, A(10), (5, 2))
    m.submit(c.Dodge(C("gold-4-11")))
    d12(m, Team.HOME, 8)
    m.submit(c.EndTurn(Team.HOME))
    pass_turn(m, avoid=(A(10),))
    m.submit(c.Shoot(C("gold-4-12")))
    assert "difficulty 14" in text(m)     # X, not Y: 4 + parry 10


# --- tackle -------------------------------------------------------------------------------------

def test_basic_tackle_rules():
    m = plain_match()
    to_away_turn(m)
    with pytest.raises(RuleViolation, match="colour of the defence"):
        m.submit(c.Tackle(A(10), C("silver-4-11")))
    with pytest.raises(RuleViolation, match="from the carrier's space"):
        m.submit(c.Tackle(A(8), C("gold-4-11")))
    with pytest.raises(RuleViolation, match="Away's turn"):
        m.submit(c.Tackle(H(8), C("gold-4-11")))
    m.submit(c.Tackle(A(10), C("gold-4-11")))
    assert "difficulty 16, card bonus +11" in text(m)
    d12(m, Team.AWAY, 5)
    s = m.state
    assert s.ball == A(10) and s.turn.stage is Stage.AFTER_MAIN and s.guard == (A(10), 2)
    with pytest.raises(RuleViolation, match="carrying the ball"):
        m.submit(c.Move(A(10), (4, 2), lowest_card(m, Team.AWAY)))


def test_the_tackle_loop_rule():
    m = plain_match()
    to_away_turn(m)
    m.submit(c.Tackle(A(10), C("gold-4-11")))
    d12(m, Team.AWAY, 5)
    m.submit(c.EndTurn(Team.AWAY))
    with pytest.raises(RuleViolation, match="tackle loop"):
        m.submit(c.Tackle(H(9), C("gold-4-12")))
    m2 = plain_match(tackle_loop_rule=False)
    to_away_turn(m2)
    m2.submit(c.Tackle(A(10), C("gold-4-11")))
    d12(m2, Team.AWAY, 5)
    m2.submit(c.EndTurn(Team.AWAY))
    m2.submit(c.Tackle(H(9), C("gold-4-12")))


def test_hard_tackle_is_a_movement_with_a_marker():
    m = plain_match()
    to_away_turn(m)
    m.submit(c.Tackle(A(10), C("gold-4-11"), hard=True))
    assert "difficulty 12" in text(m) and m.state.players[A(10)].markers == 1
    d12(m, Team.AWAY, 1)
    assert "higher of two dice" in text(m)


def test_a_counter_with_a_marker_cannot_hard_tackle():
    m = plain_match()
    to_away_turn(m)
    m.submit(c.Move(A(8), (3, 2), lowest_card(m, Team.AWAY)))
    m.submit(c.EndTurn(Team.AWAY))
    pass_turn(m, avoid=(H(9),))
    with pytest.raises(RuleViolation, match="Moved Marker"):
        m.submit(c.Tackle(A(8), C("gold-4-11"), hard=True))
    m.submit(c.Tackle(A(8), C("gold-4-11")))  # a basic tackle is no movement


def test_only_a_hard_tackle_on_an_unmarked_counter():
    m = plain_match()
    m.submit(c.Dodge(C("gold-4-11")))
    d12(m, Team.HOME, 8)
    m.submit(c.EndTurn(Team.HOME))
    with pytest.raises(RuleViolation, match="unmarked"):
        m.submit(c.Tackle(A(10), C("gold-4-12")))
    m.submit(c.Tackle(A(10), C("gold-4-12"), hard=True))
    assert "difficulty 16" in text(m)


def test_move_and_tackle_is_one_space_and_always_hard():
    away = with_counter(plain_team("Away"), 8, abilities=["defence"])
    m = plain_match(away=away)
    to_away_turn(m)
    with pytest.raises(RuleViolation, match="one-space movement"):
        m.submit(c.Tackle(A(6), C("gold-4-11"), move_card=C("bronze-2-4")))   # E5 is not next to D3
    m.submit(c.Tackle(A(8), C("gold-4-11"), move_card=C("bronze-2-4")))
    s = m.state
    assert "difficulty 16" in text(m) and s.players[A(8)].space == (3, 2) and s.players[A(8)].markers == 1
    assert len(m.pending()[0].dice.kinds) == 1   # no Defence dice in a move and tackle


def test_move_and_tackle_on_an_unmarked_counter_is_20():
    m = plain_match()
    m.submit(c.Dodge(C("gold-4-11")))
    d12(m, Team.HOME, 8)
    m.submit(c.EndTurn(Team.HOME))
    m.submit(c.Tackle(A(8), C("gold-4-12"), move_card=C("bronze-2-4")))
    assert "difficulty 20" in text(m)


def test_defence_rolls_two_dice_in_a_tackle():
    away = with_counter(plain_team("Away"), 10, abilities=["defence"])
    m = plain_match(away=away)
    to_away_turn(m)
    m.submit(c.Tackle(A(10), C("gold-4-11")))
    assert len(m.pending()[0].dice.kinds) == 2


# --- fouls and free kicks ---------------------------------------------------------------------------------

def foul(m, space=None, check=(6, 9), hard=False, tackler=10):
    """Away tackles Home's #9 (moved to ``space`` first) and misses; the foul check rolls ``check``."""
    if space is not None:
        place(m, H(9), space)
        place(m, A(tackler), space)
    to_away_turn(m)
    m.submit(c.Tackle(A(tackler), C("gold-4-11"), hard=hard))
    d12(m, Team.AWAY, 1)
    d12(m, Team.AWAY, *check)


def test_no_foul_lets_the_defender_make_his_extra_movement():
    m = plain_match()
    foul(m, check=(5, 12))   # the lower die: 5
    assert m.state.turn.team is Team.AWAY and m.state.turn.stage is Stage.AFTER_MAIN and not m.state.bookings


def test_a_foul_ends_the_defenders_turn_and_gives_an_indirect_kick():
    m = plain_match()
    away_deck = m.state.cards[Team.AWAY].deck
    foul(m, check=(6, 9))
    s = m.state
    assert s.turn.team is Team.HOME and s.turn.stage is Stage.FREE_KICK and s.ball == H(9)
    assert s.cards[Team.HOME].hand == 6                   # the extra card at the start of the turn
    assert s.cards[Team.AWAY].deck == away_deck - 1       # the defender still drew (4 in hand: one)
    with pytest.raises(RuleViolation, match="free kick first"):
        m.submit(free_move(m, Team.HOME))
    # The kick's own space does not count: D3 -> C3 is 4, though Away's #10 stands in D3.
    m.submit(c.Pass(H(8), C("silver-4-10")))
    assert "difficulty 4" in text(m)
    d12(m, Team.HOME, 5)
    assert m.state.ball == H(8) and m.state.turn.startup == H(8)
    assert m.state.turn.stage is Stage.START


def test_a_foul_in_a_space_with_three_numbers_gives_a_direct_kick():
    m = plain_match()
    foul(m, space=(5, 2))
    s = m.state
    assert s.restart.kind is RestartKind.DIRECT_KICK and s.turn.stage is Stage.DIRECT_KICK
    m.submit(c.Shoot(C("gold-4-12"), taker=H(11)))
    assert "direct free kick by #11" in text(m) and "difficulty 18" in text(m)   # Y 8 + parry 10
    d12(m, Team.HOME, 2)
    assert m.state.restart.kind is RestartKind.GOAL_KICK and m.state.turn.team is Team.AWAY


def test_a_foul_in_the_goal_area_gives_a_penalty():
    m = plain_match()
    foul(m, space=(6, 2))
    assert m.state.restart.kind is RestartKind.PENALTY
    m.submit(c.Shoot(C("gold-4-12")))
    assert "penalty kick by #9" in text(m) and "difficulty 14" in text(m)  # 4 + parry 10


@pytest.mark.parametrize("check, hard, colour, sent_off", [
    ((10, 12), False, "yellow", False),   # the lower die of a tackle: 10
    ((3, 11), True, "yellow", False),     # the higher die of a hard tackle: 11
    ((12, 12), False, "red", True),
])
def test_cards_from_the_foul_check(check, hard, colour, sent_off):
    m = plain_match()
    foul(m, check=check, hard=hard)
    s = m.state
    assert [(b.player, b.colour, b.sent_off) for b in s.bookings] == [(A(10), colour, sent_off)]
    assert s.players[A(10)].on_pitch is not sent_off


def test_a_second_yellow_card_sends_off():
    m = plain_match()
    foul(m, check=(10, 10))
    m.submit(c.Pass(H(8), C("silver-4-10")))
    d12(m, Team.HOME, 5)
    m.submit(free_move(m, Team.HOME, avoid=(H(8),)))
    m.submit(c.EndTurn(Team.HOME))
    place(m, A(10), (2, 2))
    m.submit(c.Tackle(A(10), C("gold-4-12")))
    d12(m, Team.AWAY, 1)
    d12(m, Team.AWAY, 11, 11)
    p = m.state.players[A(10)]
    assert p.yellow == 2 and p.sent_off and not p.on_pitch


def test_the_goalkeeper_tackles_only_in_his_goal_area_and_then_may_call_a_goal_kick():
    m = plain_match()
    to_away_turn(m)
    with pytest.raises(RuleViolation, match="goal area"):
        m.submit(c.Tackle(A(1), C("silver-4-11")))
    place(m, H(9), (6, 2))
    m.submit(c.Tackle(A(1), C("silver-4-11")))          # the keeper's defence is SILVER-8
    d12(m, Team.AWAY, 6)
    s = m.state
    assert s.ball == A(1) and s.players[A(1)].space == (7, 0) and s.players[A(1)].markers == 0
    m.submit(c.EndTurn(Team.AWAY))
    pass_turn(m)
    m.submit(c.CallGoalKick(Team.AWAY))
    assert m.state.phase is Phase.SET_UP and m.state.restart.kind is RestartKind.GOAL_KICK


def test_the_goalkeeper_with_the_ball_may_pass_with_any_card_instead():
    m = plain_match()
    place(m, H(9), (6, 2))
    to_away_turn(m)
    m.submit(c.Tackle(A(1), C("silver-4-11")))
    d12(m, Team.AWAY, 6)
    m.submit(c.EndTurn(Team.AWAY))
    with pytest.raises(RuleViolation, match="goalkeeper holds the ball"):
        m.submit(c.CallGoalKick(Team.HOME))
    pass_turn(m)
    m.submit(c.Pass(A(8), C("bronze-4-10")))
    assert "card bonus +10" in text(m)


def test_a_goalkeeper_sent_off_is_replaced_by_a_substitute_with_bronze_8():
    m = plain_match()
    place(m, H(9), (6, 2))
    to_away_turn(m)
    m.submit(c.Tackle(A(1), C("silver-4-11"), hard=True))
    d12(m, Team.AWAY, 1)
    d12(m, Team.AWAY, 12, 2)
    req = m.pending()[0]
    assert req.team is Team.AWAY and set(req.options) == {"away#12", "away#13", "away#14"}
    choose(m, "away#12")
    s = m.state
    assert s.players[A(12)].goalkeeper and s.players[A(12)].space == (7, 0) and s.replacements_used[Team.AWAY] == 1
    assert s.restart.kind is RestartKind.PENALTY
    m.submit(c.Shoot(C("gold-4-12")))
    assert "difficulty 12" in text(m)    # 4 + BRONZE-8


def test_without_replacements_left_a_counter_on_the_pitch_goes_in_goal():
    m = new_match(home=plain_team("Home"), away=plain_team("Away"))
    from football_leader_kit import write_sheets
    write_sheets(m)
    d12(m, Team.HOME, 7)
    d12(m, Team.AWAY, 3)
    for off, on in ((2, 12), (3, 13), (4, 14)):
        m.submit(c.Replace(Team.AWAY, A(off), A(on)))
    confirm(m)
    m.submit(c.KickOff(H(9)))
    place(m, H(9), (6, 2))
    to_away_turn(m)
    m.submit(c.Tackle(A(1), C("silver-4-11"), hard=True))
    d12(m, Team.AWAY, 1)
    d12(m, Team.AWAY, 12, 2)
    req = m.pending()[0]
    assert "away#8" in req.options and "away#12" in req.options and len(req.options) == 10
    choose(m, "away#8")
    s = m.state
    assert s.players[A(8)].acting_keeper and s.replacements_used[Team.AWAY] == 3
    assert len([p for p in s.players.values() if p.ref.team is Team.AWAY and p.on_pitch]) == 10


def test_nobody_tackles_a_goalkeeper_holding_the_ball_in_his_goal_space():
    m = plain_match()
    place(m, H(9), (6, 2))
    to_away_turn(m)
    m.submit(c.Tackle(A(1), C("silver-4-11")))
    d12(m, Team.AWAY, 6)
    m.submit(c.EndTurn(Team.AWAY))
    place(m, H(8), (6, 1))
    with pytest.raises(RuleViolation, match="nobody tackles him"):
        m.submit(c.Tackle(H(8), C("gold-4-12"), move_card=C("bronze-2-4")))
