"""Every worked example printed in fublet.txt, replayed through the rules core."""

from __future__ import annotations

import pytest

from companion.board import grid_distance
from companion.commands import PlaceFigure
from companion.fublet import commands as c
from companion.fublet.components import Action, shipped_team
from companion.fublet.model import Phase, ShotPlan, Status
from companion.teams import Team

from fublet_kit import (A, H, choose, fixed_match, pass_phase, pct, scatter,
                        to_first_round, with_skills)


# --- Ball and Player Movements: diagonal counting -------------------------------------------------

def test_diagonal_move_of_four_steps_counts_six():
    # "G moves diagonally for a total of 6 MS": 1 + 2 + 1 + 2.
    assert grid_distance((0, 0), (4, 4)) == 6


def test_mixed_move_counts_seven():
    # Two straight, a diagonal, a straight, two diagonals: 1+1+1+1+2+1 = 7.
    path = [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 3)]
    assert grid_distance(path[0], path[-1]) == 7


def test_single_movement_is_measured_with_the_diagonal_rule():
    m = fixed_match()
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(12, 6)))
    pct(m, Team.AWAY, 10)
    assert m.state.phase is Phase.MOVEMENT and m.state.pace == 2
    # H7 at (16, 12) facing +x: two diagonal steps count 1 + 2 = 3 > pace 2.
    with pytest.raises(Exception, match="would cover 3 MS"):
        m.submit(c.Move(H(7), (18, 14)))
    m.submit(c.Move(H(7), (17, 13)))
    assert m.state.players[H(7)].ms == (17, 13)


# --- Phase 1: Declaration + MP gain ----------------------------------------------------------------

def test_paul_earns_5_and_bruce_3_for_a_5_ps_short_pass():
    m = fixed_match()
    to_first_round(m)  # Away (Paul's board) attacks, Home (Bruce's board) defends
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    assert m.state.declaration.distance == 5
    assert m.state.mp == {Team.AWAY: 5, Team.HOME: 3}


def test_no_mp_below_the_minimum_round_pace():
    m = fixed_match()
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(12, 6)))  # 2 PS < minimum 3
    assert m.state.mp == {Team.AWAY: 0, Team.HOME: 3}


def test_mp_are_capped_at_20_and_the_excess_is_lost():
    m = fixed_match()
    to_first_round(m)
    for _ in range(5):
        m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
        m.undo()  # declare-undo does not accumulate: undo drops the MP too
    assert m.state.mp == {Team.AWAY: 0, Team.HOME: 0}
    from companion.fublet import flow
    from companion.fublet.tx import Tx
    tx = Tx(m.state)
    flow.change_mp(tx, Team.AWAY, 30, "test")
    assert tx.state.mp[Team.AWAY] == 20 and tx.out[-1].delta == 20


# --- Round Pace ------------------------------------------------------------------------------------

def test_keep_and_run_of_7_ms_sets_round_pace_7():
    away = with_skills(shipped_team("harbour"), 8, speed=8)
    m = fixed_match(away=away)
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(22, 13)))
    assert m.state.pace == 7 and m.state.zone_pace == 4
    assert m.state.minute == 4  # stopwatch moves by the small number
    assert m.state.players[A(8)].ms == (22, 13)
    assert m.state.players[A(8)].status is Status.EXHAUSTED


def test_long_pass_of_7_ps_sets_round_pace_7():
    m = fixed_match()
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.LONG_PASS, target_ps=(7, 6)))
    pct(m, Team.AWAY, 12)
    assert m.state.pace == 7
    assert m.state.ball.ps == (7, 6)


def test_failed_6_ps_short_pass_scattered_one_ps_gives_pace_5():
    # The pass goes 4 PS back and 4 across (6 PS); the scatter die shows 1: one PS towards the
    # defending team's goal, leaving the ball 5 PS from the passer.
    m = fixed_match()
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(18, 10)))
    pct(m, Team.AWAY, 99)
    scatter(m, 1)
    assert m.state.ball.ps == (17, 10)
    assert m.state.pace == 5


def test_cross_sets_pace_2_and_shots_pace_1():
    away = with_skills(shipped_team("harbour"), 9, cross=80)
    m = fixed_match(away=away)
    to_first_round(m, kicker=9)
    # Away attacks x = 0: move #9 into a cross area near Home's goal first.
    m.submit(PlaceFigure(A(9), square=(10, 2), correction=True))
    m.submit(c.Declare(A(9), Action.CROSS, target_ps=(2, 6)))
    pct(m, Team.AWAY, 30)
    assert m.state.pace == 2


# --- Speed Dribbling -------------------------------------------------------------------------------

def _speed_dribble():
    away = with_skills(shipped_team("harbour"), 8, speed=8, speed_dribbling=70)
    home = with_skills(shipped_team("rovers"), 7, tackle=60)
    m = fixed_match(home=home, away=away)
    to_first_round(m)
    # A8 at (29, 12) runs to (22, 13); H7 stands in the way at (26, 12).
    m.submit(PlaceFigure(H(7), square=(26, 12), correction=True))
    m.submit(c.Declare(A(8), Action.SPEED_DRIBBLING, target_ms=(22, 13), opponents=(H(7),)))
    choose(m, "tackle")
    return m


def test_speed_dribbling_attacker_wins_reaches_the_declared_ms_and_defender_is_stunned():
    m = _speed_dribble()
    pct(m, Team.AWAY, 50)
    pct(m, Team.HOME, 40)
    s = m.state
    assert s.players[A(8)].ms == (22, 13) and s.ball.carrier == A(8)
    assert s.players[H(7)].status is Status.STUNNED
    assert s.pace == 7


def test_speed_dribbling_attacker_loses_stops_next_to_the_defender_who_takes_the_ball():
    m = _speed_dribble()
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 55)
    s = m.state
    assert s.ball.carrier == H(7)
    assert s.players[A(8)].status is Status.STUNNED
    assert s.players[H(7)].status is Status.READY
    assert max(abs(s.players[A(8)].ms[0] - 26), abs(s.players[A(8)].ms[1] - 12)) == 1
    assert s.pace == grid_distance((29, 12), s.players[A(8)].ms)


def test_speed_dribbling_both_fail_deflects_the_ball_one_ps_and_stuns_both():
    m = _speed_dribble()
    pct(m, Team.AWAY, 88)
    pct(m, Team.HOME, 77)
    assert m.pending()[0].dice.describe() == "1d8"
    scatter(m, 3)
    s = m.state
    assert s.ball.carrier is None and s.ball.ps is not None
    assert s.players[A(8)].status is Status.STUNNED and s.players[H(7)].status is Status.STUNNED
    assert grid_distance(s.ball.ps, (13, 6)) == 1  # one PS from the defender's PS


# "In every case of physical challenge between two players, when one of the skill tests fails
# while the other is successful, the player who failed the test fouls the other." The Speed
# Dribbling section changes only who is stunned; the one exemption from fouls is the
# deflection's (F20).

def test_speed_dribbling_a_failed_tackle_is_the_defenders_foul_and_the_advantage_runs_on():
    m = _speed_dribble()
    pct(m, Team.AWAY, 50)   # speed dribbling 70: good
    pct(m, Team.HOME, 75)   # tackle 60: failed
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.AWAY and set(req.options) == {"advantage", "free_kick"}
    assert m.state.players[H(7)].status is Status.STUNNED  # the loser, as in every speed dribbling
    choose(m, "advantage")
    s = m.state
    assert s.players[A(8)].ms == (22, 13) and s.ball.carrier == A(8)
    assert s.players[H(7)].status is Status.STUNNED and s.pace == 7


def test_speed_dribbling_a_failed_tackle_gives_a_free_kick_where_the_attacker_was_fouled():
    m = _speed_dribble()
    pct(m, Team.AWAY, 50)
    pct(m, Team.HOME, 85)   # a failed tackle of 85: the call board's yellow (placeholder: 80 and up)
    choose(m, "free_kick")
    s = m.state
    spot = s.players[A(8)].ms
    assert max(abs(spot[0] - 26), abs(spot[1] - 12)) == 1   # stopped next to the defender
    assert (s.restart.kind.value, s.restart.team, s.restart.spot_ms) == ("free_kick", Team.AWAY, spot)
    assert s.players[H(7)].yellow == 1


def test_speed_dribbling_a_failed_dribble_against_a_good_tackle_is_the_attackers_foul():
    m = _speed_dribble()
    pct(m, Team.AWAY, 80)   # speed dribbling 70: failed
    pct(m, Team.HOME, 40)   # tackle 60: good
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.HOME
    choose(m, "free_kick")
    s = m.state
    assert (s.restart.kind.value, s.restart.team, s.restart.spot_ms) == ("free_kick", Team.HOME, (26, 12))
    assert s.players[A(8)].status is Status.STUNNED


def test_speed_dribbling_the_advantage_after_the_attackers_foul_gives_the_defender_the_ball():
    m = _speed_dribble()
    pct(m, Team.AWAY, 80)
    pct(m, Team.HOME, 40)
    choose(m, "advantage")
    s = m.state
    assert s.ball.carrier == H(7) and s.players[A(8)].status is Status.STUNNED
    assert max(abs(s.players[A(8)].ms[0] - 26), abs(s.players[A(8)].ms[1] - 12)) == 1


# --- Shots: tokens, save attempt token, goalkeeper dive ---------------------------------------------

def _shot_match(shot_skill=75, save=80):
    away = with_skills(shipped_team("harbour"), 9, long_shot=shot_skill, finalization=shot_skill)
    home = with_skills(shipped_team("rovers"), 1, save=save)
    m = fixed_match(home=home, away=away)
    to_first_round(m, kicker=9)
    m.submit(PlaceFigure(A(9), square=(12, 14), correction=True))  # PS (6, 7): outside the box, Home's half
    m.submit(PlaceFigure(H(1), square=(1, 15), correction=True))
    return m


def test_central_shot_minus_25_with_goalkeeper_minus_10():
    m = _shot_match()
    plan = ShotPlan(tokens=(5, 5, 5, 5), save_token=5, save_ms=(1, 14))
    m.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7), shot=plan))
    req = m.pending()[0]
    assert "success if <= 50" in req.text  # 75 - 25
    pct(m, Team.AWAY, 40)
    pass_phase(m)
    save = m.pending()[0]
    assert save.team is Team.HOME and "dive 1 MS 10" in save.text and "success if <= 70" in save.text


def test_angled_shot_minus_35_with_goalkeeper_minus_30():
    m = _shot_match()
    plan = ShotPlan(tokens=(5, 5, 5, 5, 5), save_token=10, save_ms=(1, 18))
    m.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 8), shot=plan))
    assert "success if <= 40" in m.pending()[0].text  # 75 - 35
    pct(m, Team.AWAY, 40)
    pass_phase(m)
    assert "dive 3 MS 30" in m.pending()[0].text and "success if <= 50" in m.pending()[0].text


def test_goal_when_the_save_fails_and_kick_off_to_the_conceding_team():
    m = _shot_match()
    plan = ShotPlan(tokens=(5, 5, 5, 5), save_token=5, save_ms=(1, 14))
    m.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7), shot=plan))
    pct(m, Team.AWAY, 40)
    pass_phase(m)
    pct(m, Team.HOME, 95)
    s = m.state
    assert s.score == {Team.HOME: 0, Team.AWAY: 1}
    assert s.goals[0].scorer == A(9)
    assert s.phase is Phase.KICK_OFF and s.restart.team is Team.HOME


def test_save_then_catch_makes_the_goalkeeper_carrier_and_ends_his_stun():
    m = _shot_match()
    plan = ShotPlan(tokens=(5, 5, 5, 5), save_token=5, save_ms=(1, 14))
    m.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7), shot=plan))
    pct(m, Team.AWAY, 40)
    pass_phase(m)
    pct(m, Team.HOME, 60)  # save 60 <= 70 and higher than 40
    assert m.state.players[H(1)].status is Status.STUNNED
    choose(m, "catch")
    pct(m, Team.HOME, 45)  # handling must beat the shot's 40
    s = m.state
    assert s.ball.carrier == H(1)
    assert s.players[H(1)].status is Status.READY


# --- Free Kick Wall ----------------------------------------------------------------------------------

def _free_kick_near_goal():
    """Away's #9 is fouled by Home's #4 just outside Home's box; Away takes the free kick."""
    away = with_skills(shipped_team("harbour"), 9, long_shot=75, dribbling=60)
    home = with_skills(shipped_team("rovers"), 4, tackle=50)
    m = fixed_match(home=home, away=away)
    to_first_round(m, kicker=9)
    m.submit(PlaceFigure(A(9), square=(15, 14), correction=True))
    m.submit(PlaceFigure(H(4), square=(9, 15), correction=True))
    m.submit(c.Declare(A(9), Action.KEEP_AND_RUN, target_ms=(11, 14)))
    assert m.state.pace == 4
    m.submit(c.Move(H(4), (10, 14), engage=True))
    pass_phase(m)
    pct(m, Team.AWAY, 40)   # dribbling good
    pct(m, Team.HOME, 70)   # tackle fails: Home's #4 fouls
    choose(m, "free_kick")
    return m


def test_free_kick_wall_75_minus_25_against_wall_of_40():
    m = _free_kick_near_goal()
    s = m.state
    assert s.phase is Phase.RESTART and s.restart.team is Team.AWAY
    assert s.restart.spot_ms == (11, 14)
    m.submit(c.SetWall(Team.HOME, (H(2), H(3), H(5), H(6))))
    # The four in the wall stand next to the ball; the others clear the 5 MS.
    for ref, ms in ((H(2), (5, 12)), (H(3), (5, 13)), (H(5), (5, 14)), (H(6), (5, 15))):
        m.submit(PlaceFigure(ref, square=ms, correction=True))
    m.submit(PlaceFigure(H(4), square=(4, 20), correction=True))
    for _ in range(6):
        team = next(r.team for r in m.pending() if r.team is not None and "step" in r.text)
        m.submit(c.PassTurn(team))
    m.submit(c.ChooseTaker(A(9)))
    plan = ShotPlan(tokens=(5, 5, 5, 5), save_token=5, save_ms=(1, 14))
    m.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7), shot=plan))
    assert "success if <= 50" in m.pending()[0].text
    pct(m, Team.AWAY, 45)
    wall = m.pending()[0]
    assert wall.team is Team.HOME and "success if <= 40" in wall.text
    pct(m, Team.HOME, 30)  # the wall succeeds but lower than 45: the ball flies over
    assert "flies over the wall" in m.state.last_outcome
    assert all(m.state.players[r].status is Status.EXHAUSTED for r in (H(2), H(3), H(5), H(6)))


def test_curved_shot_cannot_be_deflected_by_the_wall():
    m = _free_kick_near_goal()
    m.submit(c.SetWall(Team.HOME, (H(2), H(3))))
    for ref, ms in ((H(2), (5, 13)), (H(3), (5, 14)), (H(4), (4, 20))):
        m.submit(PlaceFigure(ref, square=ms, correction=True))
    for _ in range(6):
        team = next(r.team for r in m.pending() if r.team is not None and "step" in r.text)
        m.submit(c.PassTurn(team))
    m.submit(c.ChooseTaker(A(9)))
    plan = ShotPlan(tokens=(5, 5, 5, 5, 10), save_token=5, save_ms=(1, 14), curved=True)
    m.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7), shot=plan))
    pct(m, Team.AWAY, 20)
    assert m.state.phase is Phase.MOVEMENT  # no wall test: straight on to the goalkeeper


# --- Offside -----------------------------------------------------------------------------------------

def _offside_setup():
    home = with_skills(with_skills(shipped_team("rovers"), 3, tactical_perception=61), 4, tactical_perception=73)
    away = with_skills(shipped_team("harbour"), 9, tactical_perception=66)
    m = fixed_match(home=home, away=away)
    to_first_round(m)
    for ref, ms in ((H(3), (19, 10)), (H(4), (19, 18)), (A(9), (21, 14))):
        m.submit(PlaceFigure(ref, square=ms, correction=True))
    # A1 (Away #8) passes 5 PS to PS (9, 6); the round pace is 5.
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 20)
    assert m.state.pace == 5 and m.state.phase is Phase.MOVEMENT
    m.submit(c.CallOffside(A(9), (H(3), H(4)), ((22, 10), (22, 18))))
    req = m.pending()[0]
    assert req.team is Team.HOME and "#3" in req.text and "success if <= 61" in req.text
    return m


def test_offside_trap_beaten_by_the_attackers_higher_successful_test():
    m = _offside_setup()
    pct(m, Team.HOME, 44)  # 44 <= 61: the defenders step up
    assert m.state.players[H(3)].ms == (22, 10) and m.state.players[H(4)].ms == (22, 18)
    req = m.pending()[0]
    assert req.team is Team.AWAY and "success if <= 66" in req.text
    pct(m, Team.AWAY, 53)  # 53 <= 66 and higher than 44: he escapes
    s = m.state
    assert s.phase is Phase.MOVEMENT and s.restart is None and "onside" in s.last_outcome
    assert s.players[H(3)].status is Status.EXHAUSTED and s.players[H(4)].status is Status.EXHAUSTED


def test_offside_trap_works_when_the_attacker_fails_or_is_lower():
    m = _offside_setup()
    pct(m, Team.HOME, 44)
    pct(m, Team.AWAY, 30)  # successful but lower than 44
    s = m.state
    assert s.phase is Phase.RESTART
    assert s.restart.team is Team.HOME and s.restart.spot_ms == (21, 14)


def test_an_equal_escape_result_is_a_tie_and_both_roll_again():
    """F48: the escape is a challenge ("If the challenge is won, the attacker acts timely"),
    and "in the event of a tie, tests are null and dice must be rerolled". With the
    example's numbers: the defence rolls 44 on D1's 61, A2 rolls 44 on his 66."""
    m = _offside_setup()
    pct(m, Team.HOME, 44)
    pct(m, Team.AWAY, 44)
    s = m.state
    assert s.phase is Phase.MOVEMENT and s.restart is None and "tie" in s.last_outcome
    reqs = m.pending()
    assert {r.team for r in reqs[:2]} == {Team.AWAY, Team.HOME}
    assert s.players[H(3)].ms == (22, 10)   # the defenders stay where the trap took them
    pct(m, Team.AWAY, 53)                   # A2 again: 53 on 66
    pct(m, Team.HOME, 50)                   # D1 again: 50 on 61, lower
    s = m.state
    assert s.phase is Phase.MOVEMENT and s.restart is None and "onside" in s.last_outcome


def test_after_a_tie_the_defences_higher_result_catches_him():
    m = _offside_setup()
    pct(m, Team.HOME, 44)
    pct(m, Team.AWAY, 44)
    pct(m, Team.AWAY, 40)
    pct(m, Team.HOME, 50)
    s = m.state
    assert s.phase is Phase.RESTART and s.restart.team is Team.HOME and s.restart.spot_ms == (21, 14)


def test_failed_offside_trap_leaves_the_defenders_where_they_were_but_exhausted():
    m = _offside_setup()
    pct(m, Team.HOME, 70)
    s = m.state
    assert s.players[H(3)].ms == (19, 10)
    assert s.players[H(3)].status is Status.EXHAUSTED
    assert s.phase is Phase.MOVEMENT
