"""Stoppages and restarts: throw-ins, corner-kicks, goal-kicks, free-kicks and penalty-kicks,
the re-positioning before them, and fouls, cards and misconduct."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.fussball_liga import commands as c
from companion.fussball_liga.model import Control, Phase, RestartKind, SetupStep
from companion.teams import Team

from fussball_liga_kit import DEEP, A, H, choose, die, kicked_off, scene, to_turn_two


def refused(m, command, *fragments):
    before = (m.state, m.events)
    with pytest.raises(RuleViolation) as info:
        m.submit(command)
    assert (m.state, m.events) == before
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)


def out_over(target, origin=(10, 10), home=None, away=None):
    m = to_turn_two()
    scene(m, {11: origin, **(home or {})}, {**DEEP, **(away or {})}, ball=origin, holder=H(11))
    m.submit(c.Kick(H(11), target))
    if m.state.flight is not None:
        m.submit(c.PassTurn(Team.AWAY))  # no interception attempt
    return m


# --- the ball out of play ------------------------------------------------------------------------------

def test_over_the_touch_line_a_throw_in_from_the_first_square_outside():
    m = out_over((10, -1))
    r = m.state.restart
    assert (r.kind, r.team, r.spot, r.step) == (RestartKind.THROW_IN, Team.AWAY, (10, -1), SetupStep.DEFENDER)
    assert m.state.phase is Phase.SET_UP and m.state.ball.square == (10, -1)


def test_over_the_opponents_goal_line_a_goal_kick_over_the_own_a_corner():
    m = out_over((30, 15), origin=(25, 10))  # diagonally, wide of the goal
    assert m.state.restart.kind is RestartKind.GOAL_KICK and m.state.restart.team is Team.AWAY
    m = out_over((-1, 1), origin=(8, 10))   # Home's own goal line (Home defends low)
    r = m.state.restart
    assert (r.kind, r.team, r.spot) == (RestartKind.CORNER, Team.AWAY, (0, 0))


def test_a_shot_aimed_off_the_field_is_misconduct_when_called():
    m = out_over((10, -1))
    m.submit(c.CallMisconduct(H(11), "shot_out"))
    s = m.state
    assert s.players[H(11)].yellow == 1 and s.restart.kind is RestartKind.THROW_IN and s.restart.team is Team.AWAY
    refused(m, c.CallMisconduct(H(11), "shot_out"), "right after it")


# --- the set-up after a stoppage ---------------------------------------------------------------------------

def throw_in():
    """Home kicked the ball out past #4: Away throws in from (10, -1); Home's #7 stands 2 away."""
    return out_over((10, -1), home={7: (11, 1)}, away={4: (10, 1), 5: (16, 10)})


def test_the_defender_re_positions_first_and_keeps_three_squares_away():
    m = throw_in()
    assert m.state.restart.team is Team.AWAY
    refused(m, c.Move(A(4), (10, 0)), "Home re-positions now")
    refused(m, c.PassTurn(Team.HOME), "home#7 is 2 squares from the ball")
    refused(m, c.Move(H(7), (11, 8)), "up to 6 movement points")
    m.submit(c.Move(H(7), (11, 2)))
    m.submit(c.PassTurn(Team.HOME))
    assert m.state.restart.step is SetupStep.ATTACKER


def throw_in_set_up():
    m = throw_in()
    m.submit(c.Move(H(7), (11, 2)))
    m.submit(c.PassTurn(Team.HOME))
    return m


def test_one_attacker_must_move_into_position_then_take_the_kick():
    m = throw_in_set_up()
    refused(m, c.PassTurn(Team.AWAY), "into position for the throw in")
    refused(m, c.Move(A(5), (16, -1)), "may not leave the playing field")
    m.submit(c.Move(A(4), (10, -1)))  # only the thrower steps off the field, onto the throw-in square
    m.submit(c.PassTurn(Team.AWAY))
    s = m.state
    assert s.phase is Phase.SHOT and s.restart.step is SetupStep.KICK and s.turn_no == 3
    refused(m, c.Kick(A(4), (10, 6)), "at most 6 squares")
    m.submit(c.Kick(A(4), (10, 4)))
    m.submit(c.PassTurn(Team.HOME))  # no interception attempt
    s = m.state
    assert s.restart is None and s.ball.no_touch == A(4) and s.ball.square == (10, 4) and s.ball.loose


def test_the_thrower_may_touch_the_ball_again_only_after_another_player():
    m = throw_in_set_up()
    m.submit(c.Move(A(4), (10, -1)))
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.Kick(A(4), (12, 1)))  # to an empty square: the ball lies loose
    assert m.state.ball.loose and m.state.phase is Phase.MOVEMENT
    m.submit(c.Move(A(4), (11, 0)))  # next to the ball, but he may not take it
    assert m.state.ball.loose


def test_a_goal_kick_from_a_goal_area_square_with_the_opponents_out_of_the_area():
    m = out_over((30, 15), origin=(25, 10), home={9: (27, 12)})
    assert m.state.restart.kind is RestartKind.GOAL_KICK
    refused(m, c.PassTurn(Team.HOME), "leave the opponent's penalty area")
    m.submit(c.Move(H(9), (24, 12)))
    m.submit(c.Move(H(11), (24, 8)))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Move(A(1), (29, 8)))  # the goalkeeper to a goal-area square
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.Kick(A(1), (17, 8)))  # 12 squares
    m.submit(c.PassTurn(Team.HOME))
    assert m.state.ball.square == (17, 8)


def test_a_corner_kick_may_target_the_penalty_area_off_the_lines():
    m = out_over((-1, 1), origin=(8, 10), away={9: (6, 3), 8: (3, 7)})
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Move(A(9), (0, 0), path=((5, 2), (4, 1), (3, 0), (2, 0), (1, 0), (0, 0))))
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.Kick(A(9), (3, 6), receiver=A(8)))  # not on a row, column or diagonal: inside the area
    assert m.state.ball.holder == A(8) and m.state.ball.control is Control.LOOSE


# --- fouls and free-kicks ---------------------------------------------------------------------------------

def foul_at(square=(14, 10), attacker=(13, 10), defender=(14, 11), **options):
    m = kicked_off(**options)
    scene(m, {11: attacker}, {4: defender, 1: (29, 10), 2: (28, 3)}, ball=square, holder=H(11))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Tackle(A(4)))
    die(m, Team.AWAY, 2)
    return m


def test_a_direct_free_kick_keeps_the_defenders_three_squares_away_except_in_the_goal_area():
    m = foul_at()
    choose(m, "free_kick")
    assert m.state.restart.kind is RestartKind.FREE_KICK and m.state.players[A(4)].yellow == 0
    refused(m, c.PassTurn(Team.AWAY), "away#4 is 1 square from the ball")
    m.submit(c.Move(A(4), (17, 11)))
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.PassTurn(Team.HOME))  # #11 is next to the ball already
    m.submit(c.Kick(H(11), (18, 14)))  # a place-kick: any direction
    m.submit(c.PassTurn(Team.AWAY))
    assert m.state.ball.square == (18, 14)


def test_advantage_plays_on():
    m = foul_at()
    choose(m, "advantage")
    s = m.state
    assert s.restart is None and s.phase is Phase.MOVEMENT and s.ball.holder == H(11)
    assert s.players[A(4)].fouls == 1


def test_a_foul_on_an_attacker_in_the_penalty_area_is_a_penalty_kick():
    m = foul_at(square=(26, 10), attacker=(25, 10), defender=(26, 11))
    choose(m, "penalty_kick")
    s = m.state
    assert s.restart.kind is RestartKind.PENALTY and s.restart.step is SetupStep.FREE and s.phase is Phase.SET_UP


def penalty_ready(m):
    for ref, p in list(m.state.players.items()):
        if p.square is not None:
            m.submit(PlaceFigure(ref, None))
    m.submit(PlaceFigure(H(9), square=(26, 9)))
    m.submit(PlaceFigure(H(3), square=(20, 3)))
    m.submit(PlaceFigure(A(4), square=(23, 12)))


def test_the_penalty_kick_set_up_and_the_results():
    m = foul_at(square=(26, 10), attacker=(25, 10), defender=(26, 11))
    choose(m, "penalty_kick")
    penalty_ready(m)
    refused(m, c.TakePenalty(H(9)), "goal squares numbered 1 to 4")
    m.submit(PlaceFigure(A(1), square=(30, 9)))  # goal square no. 2
    m.submit(PlaceFigure(A(5), square=(25, 5)))  # in the penalty area
    refused(m, c.TakePenalty(H(9)), "only the goalkeeper and the kicker")
    m.submit(PlaceFigure(A(5), square=(12, 5)))  # in the attacker's end
    refused(m, c.TakePenalty(H(9)), "attacker's end")
    m.submit(PlaceFigure(A(5), square=(18, 5)))
    refused(m, c.TakePenalty(H(3)), "squares behind the penalty mark")
    m.submit(c.TakePenalty(H(9)))
    die(m, Team.HOME, 2)  # aimed at square 2: the goalkeeper stands there
    s = m.state
    assert s.score[Team.HOME] == 0 and s.ball.holder == A(1) and s.ball.control is Control.HANDS
    assert s.attacking is Team.AWAY and s.phase is Phase.SHOT


@pytest.mark.parametrize("face, result", [(1, "goal"), (3, "goal"), (4, "goal"), (5, "goal"), (6, "miss")])
def test_penalty_results(face, result):
    m = foul_at(square=(26, 10), attacker=(25, 10), defender=(26, 11))
    choose(m, "penalty_kick")
    penalty_ready(m)
    m.submit(PlaceFigure(A(1), square=(30, 9)))
    m.submit(c.TakePenalty(H(9)))
    die(m, Team.HOME, face)
    s = m.state
    if result == "goal":
        assert s.score[Team.HOME] == 1 and s.restart.kind is RestartKind.KICK_OFF
    else:
        assert s.score[Team.HOME] == 0 and s.restart.kind is RestartKind.GOAL_KICK and s.restart.team is Team.AWAY


# --- cards -------------------------------------------------------------------------------------------

def fouls_by(m, player, rolls):
    """``player`` tries dribbling interceptions in successive movement phases, rolling as given."""
    for roll in rolls:
        turn = m.state.turn_no
        s = m.state
        while s.turn_no == turn or s.phase is not Phase.MOVEMENT or s.movement.turn is not Team.AWAY:
            m.submit(c.PassTurn(s.movement.turn if s.phase is Phase.MOVEMENT else s.attacking))
            s = m.state
        m.submit(PlaceFigure(player, square=(14, 11), correction=True))
        m.submit(c.PlaceBall((14, 10), H(11), Control.LOOSE))
        m.submit(c.Tackle(player))
        die(m, Team.AWAY, roll)
        if m.pending() and m.pending()[0].kind == "choice":
            choose(m, "advantage")


def test_third_foul_yellow_then_a_yellow_for_a_one_sends_him_off():
    m = foul_at()            # foul no. 1 (a 2)
    choose(m, "advantage")
    fouls_by(m, A(4), [2, 2])  # no. 2, no. 3: the yellow card
    p = m.state.players[A(4)]
    assert (p.fouls, p.yellow, p.sent_off) == (3, 1, False)
    fouls_by(m, A(4), [1])      # a 1: the second yellow card
    p = m.state.players[A(4)]
    assert (p.fouls, p.yellow, p.sent_off, p.on_pitch) == (4, 2, True, False)
    cards = m.summary()["cards"]
    assert [x["colour"] for x in cards] == ["yellow", "yellow-red"]


def test_a_third_foul_that_is_also_a_one_shows_one_yellow_card():
    """LV36: "The yellow card is also shown to him for every 3rd foul play in the game" and
    "with a yellow card shown in case of a "1"": each names a case in which the yellow card
    is shown; one foul in both cases shows it once ("all the official Laws of Soccer also
    rule this game": one offence, one caution). Fouls no. 1 and 2 are 2s, no. 3 is a 1."""
    m = foul_at()
    choose(m, "advantage")
    fouls_by(m, A(4), [2, 1])
    p = m.state.players[A(4)]
    assert (p.fouls, p.yellow, p.sent_off) == (3, 1, False)
    assert [x["colour"] for x in m.summary()["cards"]] == ["yellow"]
    fouls_by(m, A(4), [2, 2, 2])  # no. 6: the next third foul, the second yellow card
    p = m.state.players[A(4)]
    assert (p.fouls, p.yellow, p.sent_off) == (6, 2, True)


def test_a_table_that_shows_two_cards_for_a_third_foul_that_is_a_one_may_say_so_at_setup():
    m = foul_at(third_foul_two_cards=True)
    choose(m, "advantage")
    fouls_by(m, A(4), [2, 1])
    p = m.state.players[A(4)]
    assert (p.fouls, p.yellow, p.sent_off) == (3, 2, True)


def test_a_goalkeeper_sent_off_is_replaced_by_a_field_player():
    m = to_turn_two()
    scene(m, {11: (10, 10)}, DEEP, ball=(10, 10), holder=H(11))
    m.submit(c.CallMisconduct(A(1), "other"))
    m.submit(c.CallMisconduct(A(1), "other"))
    s = m.state
    assert s.players[A(1)].sent_off
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.AWAY and "away#2" in req.options
    choose(m, "away#2")
    p = m.state.players[A(2)]
    assert p.goalkeeper and p.stand_in


def test_misconduct_gives_a_yellow_card_and_an_indirect_free_kick():
    m = to_turn_two()
    scene(m, {11: (10, 10)}, DEEP, ball=(10, 10), holder=H(11))
    m.submit(c.CallMisconduct(A(2), "other"))
    s = m.state
    assert s.players[A(2)].yellow == 1
    assert (s.restart.kind, s.restart.team, s.restart.spot) == (RestartKind.INDIRECT_FREE_KICK, Team.HOME, (10, 10))
    refused(m, c.CallMisconduct(A(2), "played_on"), "after a phase's time ran out")


def test_a_foul_declared_by_a_coach_gives_a_free_kick_from_the_ball():
    m = to_turn_two()
    scene(m, {11: (10, 10)}, DEEP, ball=(10, 10), holder=H(11))
    m.submit(c.CallMisconduct(A(2), "foul"))
    assert m.state.players[A(2)].fouls == 1 and m.state.players[A(2)].yellow == 0
    choose(m, "free_kick")
    assert m.state.restart.kind is RestartKind.FREE_KICK and m.state.restart.spot == (10, 10)


# --- substitutions ---------------------------------------------------------------------------------------

def test_substitutions_at_a_stoppage_three_at_most():
    m = out_over((10, -1))
    refused(m, c.Substitute(H(2), A(12)), "teammate on the bench")
    refused(m, c.Substitute(H(1), H(13)), "bring the substitute on as the goalkeeper")
    for off, on in ((2, 13), (3, 14), (4, 15)):
        m.submit(c.Substitute(H(off), H(on)))
    refused(m, c.Substitute(H(5), H(16)), "all 3 substitutions")
    refused(m, c.Substitute(H(13), H(2)), "not on the bench")
    assert m.state.players[H(13)].on_pitch and m.state.subs_used[Team.HOME] == 3
