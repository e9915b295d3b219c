"""Flow tests, rule by rule: the game turn (shot phase, movement phase), kicks and passes,
interceptions, goal shots, off-side, movement and dribbling, stoppages and restarts."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.fussball_liga import commands as c
from companion.fussball_liga.model import Control, Phase, RestartKind, SetupStep
from companion.teams import Team

from fussball_liga_kit import (DEEP, A, H, choose, die, kicked_off, lineup, new_match, pass_movement, scene,
                               to_turn_two, toss)


def refused(m, command, *fragments):
    before = (m.state, m.events)
    with pytest.raises(RuleViolation) as info:
        m.submit(command)
    assert (m.state, m.events) == before, "a refused command must change nothing"
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)
    return info.value


# --- setting up -----------------------------------------------------------------------------------

def test_the_coin_toss_decides_the_first_kick_off_and_the_ends():
    m = new_match()
    assert [r.kind for r in m.pending()] == ["choice"]
    toss(m, winner="away", pick="ends", end="low")  # Away defends low: Home defends high, Home kicks off
    s = m.state
    assert (s.toss_winner, s.first_kicker, s.home_end) == (Team.AWAY, Team.HOME, "high")
    assert s.phase is Phase.LINE_UP and s.restart.kind is RestartKind.KICK_OFF and s.restart.team is Team.HOME


def test_commands_before_the_match_is_created_are_refused():
    from companion.fussball_liga.rules import FussballLigaRules
    from companion.match import Match

    m = Match(FussballLigaRules())
    refused(m, c.PassTurn(Team.HOME), "create the match first")


def test_the_kick_off_line_up_rules():
    m = new_match()
    toss(m)
    lineup(m)
    refused(m, c.Kick(A(9), (16, 9)), "Home kicks off")
    refused(m, c.Kick(H(11), (12, 12)), "two squares touching the ball")
    refused(m, c.Kick(H(9), (14, 3)), "pass the ball to another player")
    refused(m, c.Kick(H(9), (7, 9)), "at most 6 squares")
    m.submit(PlaceFigure(A(9), square=(16, 10)))  # inside the centre circle
    refused(m, c.Kick(H(9), (12, 11)), "centre circle")
    m.submit(PlaceFigure(A(9), square=(18, 10)))
    m.submit(PlaceFigure(H(7), square=(16, 2)))  # in the other half
    refused(m, c.Kick(H(9), (12, 11)), "own half")
    m.submit(PlaceFigure(H(7), square=(9, 8)))
    m.submit(c.Kick(H(9), (12, 11)))
    s = m.state
    assert s.ball.holder == H(11) and s.ball.control is Control.LOOSE and s.ball.square == (12, 11)
    assert s.phase is Phase.MOVEMENT and s.clocks.half_on  # no follow-up after a kick-off


def test_figures_are_placed_one_per_square():
    m = new_match()
    toss(m)
    m.submit(PlaceFigure(H(2), square=(4, 4)))
    refused(m, PlaceFigure(H(3), square=(4, 4)), "one player per square")
    refused(m, PlaceFigure(H(3), square=(-1, 4)), "off the playing field")
    m.submit(PlaceFigure(H(1), square=(-1, 10)))  # the goalkeeper may stand in his goal


# --- the shot phase ----------------------------------------------------------------------------------

def test_an_attacker_without_the_ball_skips_the_shot_phase():
    m = kicked_off()
    scene(m, {11: (12, 12), 9: (14, 9)}, {4: (20, 7)}, ball=(16, 16))
    pass_movement(m)
    assert m.state.turn_no == 2 and m.state.phase is Phase.MOVEMENT  # nobody controls the ball


def test_a_shot_follows_a_row_a_column_or_a_diagonal():
    m = to_turn_two()
    scene(m, {11: (10, 10), 7: (14, 14)}, DEEP, ball=(10, 10), holder=H(11))
    refused(m, c.Kick(H(11), (13, 12)), "straight line")
    refused(m, c.Kick(H(11), (23, 10)), "at most 12 squares")
    refused(m, c.Kick(A(4), (12, 10)), "only an attacker can shoot")
    m.submit(c.Kick(H(11), (14, 14)))
    s = m.state
    assert s.ball.holder == H(7) and s.ball.control is Control.CLOSE and s.ball.square == (14, 14)


def test_from_loose_control_the_target_must_be_nearer_the_ball_than_the_shooter():
    m = to_turn_two()
    scene(m, {11: (10, 10), 7: (10, 16), 8: (16, 10)}, DEEP, ball=(11, 10), holder=H(11))
    assert m.state.ball.control is Control.LOOSE
    refused(m, c.Kick(H(11), (11, 16)), "closer to the ball than to the shooting player")
    m.submit(c.Kick(H(11), (16, 10)))
    assert m.state.ball.holder == H(8)


def test_a_pass_next_to_two_teammates_names_its_receiver():
    m = to_turn_two()
    scene(m, {11: (10, 10), 7: (14, 9), 8: (14, 11)}, DEEP, ball=(10, 10), holder=H(11))
    refused(m, c.Kick(H(11), (14, 10)), "name the receiver")
    refused(m, c.Kick(H(11), (14, 10), receiver=H(9)), "not next to")
    m.submit(c.Kick(H(11), (14, 10), receiver=H(8)))
    assert m.state.ball.holder == H(8) and m.state.ball.control is Control.LOOSE


def test_a_pass_to_a_defenders_square_gives_him_the_ball_and_a_new_turn():
    m = to_turn_two()
    scene(m, {11: (10, 10)}, {**DEEP, 4: (14, 10)}, ball=(10, 10), holder=H(11))
    m.submit(c.Kick(H(11), (14, 10)))
    m.submit(c.PassTurn(Team.AWAY))  # no interception: the ball simply arrives at him
    s = m.state
    assert s.attacking is Team.AWAY and s.turn_no == 3 and s.phase is Phase.SHOT and s.ball.holder == A(4)


def test_a_kick_to_an_empty_square_leaves_the_ball_loose():
    m = to_turn_two()
    scene(m, {11: (10, 10)}, {}, ball=(10, 10), holder=H(11))
    m.submit(c.Kick(H(11), (16, 10)))
    s = m.state
    assert s.ball.holder is None and s.ball.square == (16, 10) and s.phase is Phase.MOVEMENT


def test_a_follow_up_by_the_attacker_in_the_target_square_once():
    m = to_turn_two()
    scene(m, {11: (10, 10), 7: (14, 10), 8: (14, 16)}, DEEP, ball=(10, 10), holder=H(11))
    m.submit(c.Kick(H(11), (14, 10)))
    assert m.state.phase is Phase.SHOT and m.pending()[0].id == "follow_up"
    refused(m, c.Kick(H(8), (14, 12)), "only the attacker in the target square")
    refused(m, c.Kick(H(7), (14, 17)), "at most 6 squares")
    m.submit(c.Kick(H(7), (14, 16)))  # the follow-up may change direction
    s = m.state
    assert s.ball.holder == H(8) and s.phase is Phase.MOVEMENT
    refused(m, c.Kick(H(8), (14, 12)), "only in the shot phase")


def test_offside_is_given_on_a_forward_pass_from_the_offender_square():
    m = to_turn_two()
    # Home attacks the high goal; #9 stands beyond the ball with only the goalkeeper nearer the line.
    scene(m, {11: (12, 10), 9: (24, 12), 7: (16, 4)}, {1: (29, 10), 4: (22, 8)}, ball=(12, 10), holder=H(11))
    m.submit(c.Kick(H(11), (16, 6)))  # forward, to #7: #9's position is penalised, target or not
    s = m.state
    assert s.restart.kind is RestartKind.INDIRECT_FREE_KICK and s.restart.team is Team.AWAY
    assert s.restart.spot == (24, 12) and s.phase is Phase.SET_UP


def test_no_offside_on_a_square_pass_or_in_the_own_half():
    m = to_turn_two()
    scene(m, {11: (12, 10), 9: (24, 12), 7: (12, 4)}, {1: (29, 10)}, ball=(12, 10), holder=H(11))
    m.submit(c.Kick(H(11), (12, 5)))  # along the column: not towards the goal line
    assert m.state.restart is None and m.state.ball.holder == H(7)


# --- interception ---------------------------------------------------------------------------------

def flying(path_defenders: dict, kick=((10, 10), (18, 10)), receiver=None):
    m = to_turn_two()
    origin, target = kick
    home = {11: origin}
    if receiver:
        home[7] = receiver
    scene(m, home, {**DEEP, **path_defenders}, ball=origin, holder=H(11))
    m.submit(c.Kick(H(11), target))
    return m


def test_the_defender_may_try_where_the_ball_passes_his_square_or_next_to_it():
    m = flying({4: (13, 11), 5: (16, 10)}, receiver=(18, 10))
    assert m.state.flight is not None and m.pending()[0].team is Team.AWAY
    refused(m, c.Intercept(A(4), (17, 10)), "not in or next to")
    refused(m, c.Intercept(A(4), (18, 10)), "before it arrives at the target square")
    m.submit(c.Intercept(A(4), (13, 10)))
    req = m.pending()[0]
    assert req.kind == "dice" and req.dice.owner is Team.AWAY
    die(m, Team.AWAY, 6)  # adjacent, 3 from the origin: -2 -> 4: fails (adjacent needs 5)
    assert m.state.flight is not None
    refused(m, c.Intercept(A(4), (14, 10)), "tried already")
    m.submit(c.Intercept(A(5), (16, 10)))  # through his square, 2 from the target: -1
    die(m, Team.AWAY, 2)  # 1: fails; nobody else can try: the ball arrives
    assert m.state.flight is None and m.state.ball.holder == H(7)


def test_attempts_follow_the_balls_path_and_a_through_attempt_needs_three():
    m = flying({4: (13, 11), 5: (16, 10), 6: (18, 11)}, receiver=(18, 10))
    m.submit(c.Intercept(A(5), (15, 10)))  # adjacent, 3 from the origin and the target: -2
    die(m, Team.AWAY, 6)  # 4: fails
    refused(m, c.Intercept(A(4), (13, 10)), "has passed")
    m.submit(c.PassTurn(Team.AWAY))
    assert m.state.ball.holder == H(7)


def test_a_through_interception_needs_three():
    m = flying({5: (16, 10)}, receiver=(18, 10))
    m.submit(c.Intercept(A(5), (16, 10)))  # through his square, 2 from the target: -1
    die(m, Team.AWAY, 4)  # 3: ok
    s = m.state
    assert s.attacking is Team.AWAY and s.ball.holder == A(5) and s.ball.control is Control.CLOSE


def test_an_original_one_always_loses_the_interception():
    m = flying({4: (11, 10)}, receiver=(18, 10))
    m.submit(c.Intercept(A(4), (11, 10)))  # through, next to the origin: +1
    die(m, Team.AWAY, 1)
    assert m.state.ball.holder == H(7)


def test_one_attempt_per_square_and_per_group_but_the_goalkeeper_is_exempt():
    m = flying({4: (13, 11), 5: (14, 11), 1: (15, 11), 6: (27, 16)}, receiver=(18, 10))
    m.submit(c.Intercept(A(4), (13, 10)))
    die(m, Team.AWAY, 2)
    refused(m, c.Intercept(A(5), (14, 10)), "same group")
    m.submit(c.Intercept(A(1), (14, 10)))  # the goalkeeper (outside his area: no bonus)
    die(m, Team.AWAY, 2)
    m.submit(c.Intercept(A(1), (14, 10)))  # his second attempt, in the same square
    die(m, Team.AWAY, 2)
    assert m.state.flight is None and m.state.ball.holder == H(7)  # nobody may try again: it arrives


def test_letting_the_ball_go_lands_it():
    m = flying({4: (13, 11)}, receiver=(18, 10))
    refused(m, c.PassTurn(Team.HOME), "the defender decides")
    m.submit(c.PassTurn(Team.AWAY))
    assert m.state.ball.holder == H(7) and m.state.flight is None


# --- goal shots ------------------------------------------------------------------------------------

def shot_at_goal(origin, target, defenders=None, **options):
    m = to_turn_two(**options)
    scene(m, {11: origin}, defenders or {}, ball=origin, holder=H(11))
    m.submit(c.Kick(H(11), target))
    return m


def test_a_goal_shot_rolls_on_the_table_and_scores():
    m = shot_at_goal((26, 10), (30, 10))  # 4 squares: hits on 3+
    req = m.pending()[0]
    assert req.kind == "dice" and req.team is Team.HOME and "hits on 3+" in req.text
    die(m, Team.HOME, 3)
    s = m.state
    assert s.score[Team.HOME] == 1 and s.restart.kind is RestartKind.KICK_OFF and s.restart.team is Team.AWAY
    assert s.phase is Phase.LINE_UP


def test_a_missed_goal_shot_gives_the_defender_a_goal_kick():
    m = shot_at_goal((22, 10), (30, 10))  # 8 squares: hits on 5+
    die(m, Team.HOME, 4)
    s = m.state
    assert s.score[Team.HOME] == 0 and s.restart.kind is RestartKind.GOAL_KICK and s.restart.team is Team.AWAY


def test_a_shot_at_the_own_goal_is_a_goal_shot():
    # LV19: "plus the 6+6 goal squares": the own goal's too (an own goal if it hits).
    m = to_turn_two()
    scene(m, {11: (4, 10)}, {}, ball=(4, 10), holder=H(11))
    m.submit(c.Kick(H(11), (-1, 10)))
    assert "goal shot by home#11 from 5 squares" in m.pending()[0].text


def test_the_goalkeeper_in_the_targeted_goal_square_has_the_ball():
    m = shot_at_goal((26, 10), (30, 10), {1: (30, 10)})
    m.submit(c.PassTurn(Team.AWAY))  # no attempt next to the goal: the ball arrives
    s = m.state
    assert s.ball.holder == A(1) and s.ball.control is Control.HANDS and s.attacking is Team.AWAY


# --- the goalkeeper's hands ------------------------------------------------------------------------------

def keeper_catches():
    m = shot_at_goal((22, 10), (30, 10), {1: (29, 11)})
    m.submit(c.Intercept(A(1), (29, 10)))  # adjacent, next to the target +1, goalkeeper in his area +1
    die(m, Team.AWAY, 3)
    return m


def test_the_goalkeeper_intercepting_in_his_area_holds_the_ball_in_his_hands():
    m = keeper_catches()
    s = m.state
    assert s.ball.holder == A(1) and s.ball.control is Control.HANDS and s.ball.square == (29, 10)
    assert s.phase is Phase.SHOT and s.attacking is Team.AWAY


def test_the_goalkeeper_holds_the_ball_for_a_turn():
    m = keeper_catches()
    m.submit(c.HoldBall(A(1)))
    s = m.state
    assert s.phase is Phase.MOVEMENT and s.holding == A(1) and s.ball.square == (29, 11)
    refused(m, c.Move(A(1), (28, 11)), "does not move")
    m.submit(c.PassTurn(Team.AWAY))  # no moves: Home's last step
    m.submit(PlaceFigure(H(9), square=(23, 12), correction=True))
    refused(m, c.Move(H(9), (27, 13)), "at least 3 squares")
    refused(m, c.Tackle(H(9)), "not allowed to attack")
    m.submit(c.Move(H(9), (26, 15)))
    m.submit(c.PassTurn(Team.HOME))
    s = m.state
    assert s.phase is Phase.SHOT and s.turn_no == 4
    refused(m, c.PassTurn(Team.AWAY), "must drop it and kick")
    refused(m, c.Kick(A(1), (20, 11)), "drop the ball")
    refused(m, c.Kick(A(1), (23, 11), drop=(24, 11)), "next to")
    m.submit(c.Kick(A(1), (22, 12), drop=(28, 12)))
    assert m.state.holding is None and m.state.ball.square == (22, 12)


# --- movement ------------------------------------------------------------------------------------

def test_alternation_and_the_defender_spending_up_to_the_attacker():
    m = kicked_off()
    scene(m, {11: (12, 12), 2: (4, 3), 3: (4, 8)}, {4: (20, 7), 5: (20, 3)}, ball=(12, 11), holder=H(11))
    refused(m, c.Move(A(4), (19, 7)), "attacker moves first")
    m.submit(c.Move(H(2), (6, 3)))  # 2 points
    refused(m, c.Move(H(3), (5, 8)), "one player per step")
    refused(m, c.Move(A(4), (17, 7)), "up to what the attacker has spent")
    m.submit(c.Move(A(4), (18, 7)))  # the defender answers: 2 points
    refused(m, c.Move(A(5), (19, 3)), "up to what the attacker has spent")
    refused(m, c.Move(H(3), (5, 8)), "the defender is moving")
    m.submit(c.PassTurn(Team.AWAY))
    refused(m, c.Move(H(2), (7, 3)), "moved in this phase already")
    m.submit(c.Move(H(3), (10, 8)))  # 6 points: the most one player may spend
    refused(m, c.Move(H(3), (11, 8)), "no player may spend more than 6")
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Move(A(5), (14, 3)))  # up to 8 - 2 = 6
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.PassTurn(Team.HOME))  # the attacker moves no more: the defender's last step
    assert m.state.movement.attacker_done
    m.submit(PlaceFigure(A(6), square=(20, 15), correction=True))
    m.submit(c.Move(A(6), (14, 15)))  # all he has left, up to 6 a player
    m.submit(c.PassTurn(Team.AWAY))
    s = m.state
    assert s.phase is Phase.SHOT and s.turn_no == 2


def test_a_side_spends_at_most_18_points():
    m = kicked_off()
    scene(m, {11: (12, 12), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16)}, {}, ball=(12, 11), holder=H(11))
    for ref, to in ((H(2), (10, 3)), (H(3), (10, 8)), (H(4), (10, 12))):
        m.submit(c.Move(ref, to))
        m.submit(c.PassTurn(Team.HOME))
        m.submit(c.PassTurn(Team.AWAY))
    assert m.state.movement.spent[Team.HOME] == 18
    assert m.state.movement.attacker_done  # no points left: the defender's last step at once
    assert m.state.movement.turn is Team.AWAY


def test_dribbling_with_close_control_costs_two_a_square():
    m = kicked_off()
    scene(m, {11: (12, 12)}, {}, ball=(12, 12), holder=H(11))
    refused(m, c.Move(H(11), (16, 12)), "no player may spend more than 6 points", "this costs 8")
    m.submit(c.Move(H(11), (15, 12)))
    s = m.state
    assert s.ball.square == (15, 12) and s.ball.holder == H(11) and s.movement.spent[Team.HOME] == 6


def test_loose_control_moves_only_into_the_front_and_the_ball_moves_beside():
    m = kicked_off()
    scene(m, {11: (12, 12)}, {}, ball=(13, 12), holder=H(11))
    refused(m, c.Move(H(11), (11, 12)), "front square")
    m.submit(c.Move(H(11), (14, 11), path=((13, 12), (14, 11))))
    s = m.state
    assert s.ball.square == (15, 11) and s.ball.control is Control.LOOSE and s.movement.spent[Team.HOME] == 2


def test_the_ball_moved_around_the_player_costs_one_a_45_degrees():
    m = kicked_off()
    scene(m, {11: (12, 12)}, {}, ball=(13, 12), holder=H(11))
    m.submit(c.MoveBall(H(11), (11, 12)))  # 180 degrees
    assert m.state.movement.spent[Team.HOME] == 4 and m.state.ball.square == (11, 12)
    m.submit(c.MoveBall(H(11), (12, 12)))  # into his own square: close control
    assert m.state.ball.control is Control.CLOSE and m.state.movement.spent[Team.HOME] == 5


def test_the_ball_ending_in_a_teammates_square_changes_control():
    m = kicked_off()
    scene(m, {11: (12, 12), 7: (15, 12)}, {}, ball=(13, 12), holder=H(11))
    m.submit(c.Move(H(11), (14, 12)))  # the ball rolls into #7's square
    assert m.state.ball.holder == H(7) and m.state.ball.control is Control.CLOSE


def test_players_do_not_enter_occupied_squares_or_squeeze_between_two():
    m = kicked_off()
    scene(m, {11: (12, 12), 2: (10, 10)}, {4: (11, 10), 5: (10, 11)}, ball=(12, 12), holder=H(11))
    refused(m, c.Move(H(2), (11, 10)), "occupied")
    refused(m, c.Move(H(2), (11, 11), path=((11, 11),)), "may not pass between")


def test_a_loose_ball_is_taken_by_the_first_player_moving_next_to_it():
    m = kicked_off()
    scene(m, {11: (12, 12)}, {4: (20, 10)}, ball=(17, 12))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Move(A(4), (18, 11)))
    s = m.state
    assert s.ball.holder == A(4) and s.ball.control is Control.LOOSE
    assert s.attacking is Team.AWAY and s.phase is Phase.SHOT and s.turn_no == 2


def test_leaving_the_field_is_booked_with_an_indirect_free_kick():
    m = kicked_off()
    scene(m, {11: (12, 12), 5: (4, 0)}, {}, ball=(12, 12), holder=H(11))
    m.submit(c.Move(H(5), (4, -1)))
    s = m.state
    assert s.players[H(5)].yellow == 1
    assert s.restart.kind is RestartKind.INDIRECT_FREE_KICK and s.restart.team is Team.AWAY
    assert s.restart.spot == (4, 0)


def test_at_most_two_players_of_a_side_in_a_goal_area():
    m = kicked_off()
    scene(m, {11: (12, 12), 2: (29, 8), 3: (29, 9), 4: (27, 10)}, {}, ball=(12, 12), holder=H(11))
    refused(m, c.Move(H(4), (29, 10)), "no more than 2 players")


# --- dribbling interception ------------------------------------------------------------------------

def dribble_scene(home_ball=(14, 10), control=Control.LOOSE, defenders=None):
    m = kicked_off()
    carrier = (13, 10) if control is Control.LOOSE else home_ball
    scene(m, {11: carrier}, defenders or {4: (15, 10)}, ball=home_ball, holder=H(11), control=control)
    m.submit(c.PassTurn(Team.HOME))  # the defender's last step
    return m


def test_a_dribbling_interception_against_wide_control_wins_on_three():
    m = dribble_scene()
    refused(m, c.Tackle(A(5)), "not on the board")
    m.submit(c.Tackle(A(4)))
    req = m.pending()[0]
    assert req.team is Team.AWAY and "needs 3+" in req.text
    die(m, Team.AWAY, 3)  # -1: no committed defender next to the attacker -> 2: fails
    assert m.state.ball.holder == H(11)
    refused(m, c.Tackle(A(4)), "committed himself already")


def test_a_foul_on_a_roll_of_one_or_two_gives_a_free_kick_and_a_one_a_yellow_card():
    m = dribble_scene(defenders={4: (14, 11)})  # next to the attacker and the ball
    m.submit(c.Tackle(A(4)))
    die(m, Team.AWAY, 1)
    s = m.state
    assert s.players[A(4)].fouls == 1 and s.players[A(4)].yellow == 1
    choice = m.pending()[0]
    assert choice.kind == "choice" and choice.team is Team.HOME and choice.options == ("free_kick", "advantage")
    choose(m, "free_kick")
    s = m.state
    assert s.restart.kind is RestartKind.FREE_KICK and s.restart.team is Team.HOME and s.restart.spot == (14, 10)
    assert s.phase is Phase.SET_UP and s.restart.step is SetupStep.DEFENDER


def test_fair_play_avoids_the_foul():
    m = dribble_scene(defenders={4: (14, 11)})
    m.submit(c.Tackle(A(4), fair_play=True))
    die(m, Team.AWAY, 1)
    assert m.state.players[A(4)].fouls == 0 and m.state.ball.holder == H(11) and not m.state.queue


def test_close_control_needs_five_and_supporters_add_one_each():
    m = dribble_scene(home_ball=(13, 10), control=Control.CLOSE, defenders={4: (14, 10), 5: (13, 11)})
    m.submit(c.Tackle(A(4), supporters=(A(5),)))
    req = m.pending()[0]
    assert "needs 5+" in req.text and "+1 1 supporting" in req.text
    die(m, Team.AWAY, 4)  # 4 + 1 = 5: wins
    assert m.state.ball.holder == A(4) and m.state.attacking is Team.AWAY
