"""The Fublet round sequence and its rules, command by command."""

from __future__ import annotations

import pytest

from companion.board import grid_distance
from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import DieKind, roll_of
from companion.errors import DiceMismatch, RuleViolation
from companion.fublet import commands as c
from companion.fublet.components import Action, Skill, shipped_team
from companion.fublet.model import Period, Phase, RestartKind, RoundKind, ShotPlan, Status, Zone
from companion.teams import Team

from fublet_kit import (A, H, choose, die, fixed_match, pass_phase, pct, scatter, to_first_round, with_skills)


def started(home=None, away=None, **options):
    m = fixed_match(home=home, away=away, **options)
    to_first_round(m)
    return m


# --- setup ---------------------------------------------------------------------------------------

def test_opening_roll_tie_is_rolled_again_and_the_higher_picks_first():
    m = fixed_match()
    die(m, Team.HOME, 4)
    die(m, Team.AWAY, 4)
    assert m.state.phase is Phase.OPENING_ROLL and len(m.pending()) == 2
    die(m, Team.HOME, 2)
    die(m, Team.AWAY, 0)  # a lone d10's 0 reads 10
    assert m.state.first_picker is Team.AWAY and m.state.restart.team is Team.HOME
    with pytest.raises(RuleViolation, match="Away picks now"):
        m.submit(c.ChooseBoard(Team.HOME, "paul"))
    m.submit(c.ChooseBoard(Team.AWAY, "paul"))
    with pytest.raises(RuleViolation, match="already in front of"):
        m.submit(c.ChooseBoard(Team.HOME, "paul"))


def test_kick_off_needs_a_teammate_in_the_midfield_zone():
    m = fixed_match()
    die(m, Team.HOME, 7)
    die(m, Team.AWAY, 3)
    m.submit(c.ChooseBoard(Team.HOME, "bruce"))
    m.submit(c.ChooseBoard(Team.AWAY, "paul"))
    from fublet_kit import lineup
    lineup(m)
    with pytest.raises(RuleViolation, match="midfield zone"):
        m.submit(c.KickOff(A(2)))  # a defender in Away's defense zone
    with pytest.raises(RuleViolation, match="Away kicks off"):
        m.submit(c.KickOff(H(8)))
    m.submit(c.KickOff(A(8)))
    assert m.state.ball.carrier == A(8) and m.state.round == 1 and m.state.attacking is Team.AWAY


def test_a_rejected_command_changes_nothing():
    m = started()
    before, events = m.state, m.events
    with pytest.raises(RuleViolation, match="Declaration"):
        m.submit(c.Declare(H(8), Action.SHORT_PASS, target_ps=(9, 6)))
    with pytest.raises(RuleViolation, match="travels 1 to 6 PS"):
        m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(2, 6)))
    assert m.state is before and m.events == events


# --- dice ------------------------------------------------------------------------------------------

def test_a_roll_with_the_wrong_dice_is_refused_not_guessed():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    with pytest.raises(DiceMismatch, match="needs 2d10"):
        m.submit(SubmitRoll(roll_of(DieKind.D12, 5, owner=Team.AWAY)))
    with pytest.raises(DiceMismatch, match="Away's roll"):
        m.submit(SubmitRoll(roll_of(DieKind.D10, 1, 2, owner=Team.HOME), request=m.pending()[0].id))
    assert m.state.phase is Phase.OUTCOME


def test_two_requests_fitting_one_roll_must_be_named():
    m = started()
    m.submit(PlaceFigure(H(11), square=(23, 15), correction=True))
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(25, 13)))
    # A Home player engages A8, and the event phase asks both coaches for dice.
    m.submit(c.Move(H(11), (24, 14), engage=True))
    pass_phase(m)
    assert {r.team for r in m.pending()} == {Team.HOME, Team.AWAY}
    with pytest.raises(DiceMismatch, match="more than one request"):
        m.submit(SubmitRoll(roll_of(DieKind.D10, 1, 2)))
    m.submit(SubmitRoll(roll_of(DieKind.D10, 1, 2), request=m.pending()[0].id))


def test_percentile_reading_is_configurable():
    from companion.dice import PercentileReading
    m = fixed_match(percentile=PercentileReading(tens="white", zero_zero=0))
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    # black 9, white 0: with the white die as tens this reads 09.
    m.submit(SubmitRoll(roll_of(DieKind.D10, 9, 0, owner=Team.AWAY, colours=("black", "white"))))
    assert "Short Pass: 9 vs" in m.state.last_outcome


# --- injuries and substitutions ----------------------------------------------------------------------

def test_injury_on_25_forces_a_substitution_at_the_end_of_the_round():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 25)
    assert m.state.players[A(8)].injured
    assert "success" in m.state.last_outcome  # 25 is still a good pass
    with pytest.raises(RuleViolation, match="injured"):
        m.submit(c.Move(A(8), (28, 12)))
    pass_phase(m)  # movement
    pass_phase(m)  # tactical movement
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.AWAY and "injured" in req.text
    m.submit(Choose(req.id, "away#14"))
    s = m.state
    assert s.players[A(8)].substituted and s.players[A(14)].on_pitch
    assert s.subs_used[Team.AWAY] == 1


def test_tactical_perception_tests_never_injure():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    m.submit(c.TacticalMove(H(7), (17, 12)))
    pct(m, Team.HOME, 50)
    assert not m.state.players[H(7)].injured


def test_at_most_three_substitutions():
    m = started()
    m.submit(c.CallSubstitution(Team.HOME, H(2), H(13)))
    m.submit(c.CallSubstitution(Team.HOME, H(3), H(14)))
    m.submit(c.CallSubstitution(Team.HOME, H(4), H(15)))
    with pytest.raises(RuleViolation, match="all 3 substitutions"):
        m.submit(c.CallSubstitution(Team.HOME, H(5), H(16)))
    # The swap happens at the end of the round.
    assert m.state.players[H(2)].on_pitch
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    pass_phase(m)
    s = m.state
    assert not s.players[H(2)].on_pitch and s.players[H(13)].on_pitch and s.subs_used[Team.HOME] == 3
    with pytest.raises(RuleViolation, match="out of play"):
        m.submit(c.CallSubstitution(Team.HOME, H(13), H(2)))


# --- movement ----------------------------------------------------------------------------------------

def test_coaches_move_alternately_and_a_moved_player_is_exhausted():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    m.submit(c.Move(H(7), (17, 12)))
    assert m.state.mp[Team.HOME] == 3 - 2  # single movement costs 2 on the test boards
    with pytest.raises(RuleViolation, match="Away's turn"):
        m.submit(c.Move(H(8), (19, 19)))
    m.submit(c.Move(A(7), (30, 19)))
    with pytest.raises(RuleViolation, match="exhausted"):
        m.submit(c.Move(H(7), (18, 12)))
    with pytest.raises(RuleViolation, match="Movement Points"):
        m.submit(c.Move(H(8), (19, 19)))  # 1 MP left


def test_backward_movement_costs_two_more_and_is_barred_at_low_pace():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))  # pace 5
    pct(m, Team.AWAY, 10)
    # H7 faces +x; 3 MS behind him costs 3 + 2 = 5.
    m.submit(c.Move(H(7), (13, 12)))
    assert m.state.players[H(7)].ms == (13, 12)
    m.undo()
    with pytest.raises(RuleViolation, match="including 2 for running backwards"):
        m.submit(c.Move(H(7), (12, 12)))


def test_zone_movement_moves_players_of_one_zone_within_the_small_number():
    from fublet_kit import board_entry
    boards = (board_entry("paul", "Paul", {}, {}, costs=(2, 2, 3, 2)),
              board_entry("bruce", "Bruce", {}, {"short_pass": 3}, costs=(2, 2, 3, 2)))
    m = fixed_match(boards=boards)
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))  # pace 5, zone pace 3
    pct(m, Team.AWAY, 10)
    m.submit(c.ZoneMove(Team.HOME, Zone.DEFENSE, ((H(2), (10, 4)), (H(3), (11, 12)))))
    s = m.state
    assert s.players[H(2)].status is Status.EXHAUSTED and s.players[H(3)].ms == (11, 12)
    assert s.mp[Team.HOME] == 3 - 2
    m.undo()
    with pytest.raises(RuleViolation, match="not the defense zone"):
        m.submit(c.ZoneMove(Team.HOME, Zone.DEFENSE, ((H(7), (17, 12)),)))
    with pytest.raises(RuleViolation, match="limit is 3"):
        m.submit(c.ZoneMove(Team.HOME, Zone.DEFENSE, ((H(2), (12, 4)),)))


def test_tactical_movement_spends_mp_even_when_the_test_fails():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    assert m.state.phase is Phase.TACTICAL_MOVEMENT
    m.submit(c.TacticalMove(H(7), (17, 12)))
    assert m.state.mp[Team.HOME] == 1
    pct(m, Team.HOME, 99)
    s = m.state
    assert s.players[H(7)].ms == (16, 12) and s.players[H(7)].status is Status.EXHAUSTED


def test_one_figure_per_ms_and_two_per_team_per_ps():
    m = started()
    with pytest.raises(RuleViolation, match="only one player"):
        m.submit(PlaceFigure(H(7), square=(8, 12), correction=True))
    m.submit(PlaceFigure(H(6), square=(16, 13), correction=True))
    with pytest.raises(RuleViolation, match="two Home players"):
        m.submit(PlaceFigure(H(10), square=(17, 13), correction=True))


def test_placements_outside_positioning_phases_must_be_marked_as_corrections():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    with pytest.raises(RuleViolation, match="correction"):
        m.submit(PlaceFigure(H(7), square=(17, 12)))
    m.submit(PlaceFigure(H(7), x_mm=350.0, y_mm=250.0, correction=True))
    assert m.state.players[H(7)].ms == (17, 12) and m.state.players[H(7)].manual


# --- the event phase ------------------------------------------------------------------------------

def test_long_pass_to_a_lone_receiver_needs_ball_control():
    m = started()
    m.submit(PlaceFigure(A(9), square=(15, 11), correction=True))
    m.submit(c.Declare(A(8), Action.LONG_PASS, target_ps=(7, 6)))
    pct(m, Team.AWAY, 10)
    m.submit(c.Move(A(9), (15, 12)))
    pass_phase(m)
    # A9 is in PS (7, 6) in Home's half: a volley or ball control.
    req = m.pending()[0]
    assert req.kind == "choice" and "volley" in req.text
    choose(m, "ball_control")
    pct(m, Team.AWAY, 90)  # fails: scatter 2 PS and A9 stunned
    assert m.state.players[A(9)].status is Status.STUNNED
    scatter(m, 5)
    assert m.state.ball.ps == (9, 6)


def test_ground_dispute_both_succeed_higher_wins():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    m.submit(PlaceFigure(A(11), square=(21, 14), correction=True))
    m.submit(c.Move(H(9), (19, 12)))
    m.submit(c.Move(A(11), (18, 13)))
    pass_phase(m)
    assert m.state.phase is Phase.EVENT and len(m.pending()) == 2
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 20)
    assert m.state.ball.carrier == A(11)


def test_dispute_foul_with_advantage_stuns_the_fouler():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    m.submit(PlaceFigure(A(11), square=(21, 14), correction=True))
    m.submit(c.Move(H(9), (19, 12)))
    m.submit(c.Move(A(11), (18, 13)))
    pass_phase(m)
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 99)  # Home's test fails: Home's #9 fouls
    req = m.pending()[0]
    assert req.team is Team.AWAY and req.options == ("advantage", "free_kick")
    m.submit(Choose(req.id, "advantage"))
    s = m.state
    assert s.players[H(9)].status is Status.STUNNED and s.ball.carrier == A(11)
    assert not s.bookings


def _engagement_foul(m, home_result):
    m.submit(PlaceFigure(H(11), square=(23, 15), correction=True))
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(25, 13)))
    m.submit(c.Move(H(11), (24, 14), engage=True))
    pass_phase(m)
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, home_result)
    choose(m, "free_kick")


def test_yellow_then_second_yellow_sends_the_player_off():
    home = with_skills(shipped_team("rovers"), 11, tackle=50)
    m = started(home=home)
    _engagement_foul(m, 85)  # yellow from 80 on the shipped call board
    s = m.state
    assert [(str(b.player), b.colour) for b in s.bookings] == [("home#11", "yellow")]
    assert s.phase is Phase.RESTART and s.restart.kind is RestartKind.FREE_KICK and s.restart.team is Team.AWAY
    assert s.restart.spot_ms == (25, 13)
    m.undo(1)  # the free-kick choice undone: no card
    assert not m.state.bookings
    m.redo(1)
    assert m.state.players[H(11)].yellow == 1
    # Defenders within 5 MS of the spot must go back before the positioning steps.
    with pytest.raises(RuleViolation, match="not ready: Home: move"):
        m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(10, 6)))
    for ref, ms in ((H(11), (31, 6)), (H(9), (18, 8))):
        m.submit(PlaceFigure(ref, square=ms))
    for _ in range(6):
        team = next(r.team for r in m.pending() if "step" in r.text)
        m.submit(c.PassTurn(team))
    m.submit(c.ChooseTaker(A(8)))
    m.submit(PlaceFigure(A(9), square=(21, 12)))
    with pytest.raises(RuleViolation, match="pass or cross or long shot"):
        m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(25, 11)))
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(10, 6)))
    pct(m, Team.AWAY, 20)
    pass_phase(m)
    assert m.state.ball.carrier == A(9)  # received in the Event phase
    pass_phase(m)
    m.submit(c.Declare(A(9), Action.KEEP_AND_RUN, target_ms=(21, 10)))
    m.submit(PlaceFigure(H(11), square=(20, 8), correction=True))
    m.submit(c.Move(H(11), (20, 9), engage=True))  # diagonal: a sliding tackle
    pass_phase(m)
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 88)  # sliding tackle yellow from 70
    choose(m, "free_kick")
    s = m.state
    assert [b.colour for b in s.bookings] == ["yellow", "yellow"]
    assert s.players[H(11)].sent_off and s.players[H(11)].where.value == "out"


def test_red_card_removes_the_player():
    home = with_skills(shipped_team("rovers"), 11, tackle=50)
    m = started(home=home)
    _engagement_foul(m, 97)
    s = m.state
    assert s.players[H(11)].sent_off and not s.players[H(11)].on_pitch
    assert s.bookings[0].colour == "red"


def test_foul_in_own_penalty_area_offers_a_penalty_kick():
    home = with_skills(shipped_team("rovers"), 2, tackle=50)
    m = started(home=home)
    m.submit(PlaceFigure(A(8), square=(9, 14), correction=True))
    m.submit(PlaceFigure(H(2), square=(4, 14), correction=True))
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(6, 14)))
    m.submit(c.Move(H(2), (5, 14), engage=True))
    pass_phase(m)
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 70)
    req = m.pending()[0]
    assert req.options == ("advantage", "penalty_kick")
    m.submit(Choose(req.id, "penalty_kick"))
    s = m.state
    assert s.restart.kind is RestartKind.PENALTY
    m.submit(c.ChooseTaker(A(9)))
    with pytest.raises(RuleViolation, match="clear the penalty area"):
        m.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 7)))
    for ref, ms in ((A(8), (9, 20)), (H(2), (9, 22)), (A(9), (5, 15))):
        m.submit(PlaceFigure(ref, square=ms))
    m.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 7), shot=ShotPlan(tokens=(), save_token=0,
                                                                                  gk_dive=1)))
    assert m.state.mp == {Team.HOME: 0, Team.AWAY: 0} or True
    assert len(m.pending()) == 2  # kicker and goalkeeper roll together
    pct(m, Team.AWAY, 40)
    pct(m, Team.HOME, 90)
    assert m.state.score[Team.AWAY] == 1


def _penalty(keeper_ms):
    m = _penalty_setup(keeper_ms)
    m.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 7)))  # the ball on the goal-line PS (0, 7)
    return m


def _penalty_setup(keeper_ms=(1, 15)):
    home = with_skills(shipped_team("rovers"), 2, tackle=50)
    m = started(home=home)
    m.submit(PlaceFigure(A(8), square=(9, 14), correction=True))
    m.submit(PlaceFigure(H(2), square=(4, 14), correction=True))
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(6, 14)))
    m.submit(c.Move(H(2), (5, 14), engage=True))
    pass_phase(m)
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 70)
    m.submit(Choose(m.pending()[0].id, "penalty_kick"))
    m.submit(c.ChooseTaker(A(9)))
    for ref, ms in ((A(8), (9, 20)), (H(2), (9, 22)), (A(9), (5, 15)), (H(1), keeper_ms)):
        m.submit(PlaceFigure(ref, square=ms))
    return m


def test_nobody_but_keeper_and_kicker_stands_in_the_penalty_arc():
    """F43: "no players, besides the goalkeeper and the kicker, can be placed inside the
    penalty area and its arc". The arc's MS are board data (placeholder: MS (8, 13)..(8, 18)
    and (9, 14)..(9, 17) in front of the low area)."""
    m2 = _penalty_setup()
    m2.submit(PlaceFigure(A(8), square=(9, 15)))   # in the arc
    with pytest.raises(RuleViolation, match="clear the penalty area: away#8"):
        m2.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 7)))
    m2.submit(PlaceFigure(A(8), square=(10, 15)))  # beyond it
    m2.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 7)))
    assert len(m2.pending()) == 2


def test_a_penalty_keeper_dives_at_most_3_ms_like_in_open_play():
    """F43: "All regular shot and save rules are applied" and the goalkeeper "can dive for a
    maximum of 3 MS": 6 MS from the ball's goal-line PS (75 - 60 = 15 before issue 12) he
    cannot reach it; only the kicker rolls and a good kick is a goal."""
    assert next(p for p in shipped_team("rovers").players if p.number == 1).skills[Skill.PENALTY_KICK] == 75
    m = _penalty((1, 21))   # 6 MS from MS (1, 15) of PS (0, 7)
    reqs = m.pending()
    assert len(reqs) == 1 and reqs[0].team is Team.AWAY
    pct(m, Team.AWAY, 40)
    assert m.state.score[Team.AWAY] == 1


def test_an_unreachable_penalty_that_fails_its_test_misses():
    m = _penalty((1, 21))
    pct(m, Team.AWAY, 99)
    s = m.state
    assert s.score[Team.AWAY] == 0 and s.restart.kind is RestartKind.FREE_KICK and s.restart.team is Team.HOME


def test_a_penalty_keeper_3_ms_away_saves_with_minus_30():
    m = _penalty((1, 18))   # 3 MS: 75 - 30 = 45
    reqs = m.pending()
    assert len(reqs) == 2 and "success if <= 45" in next(r.text for r in reqs if r.team is Team.HOME)


# --- deflection -----------------------------------------------------------------------------------

def test_pass_deflection_by_an_adjacent_defender():
    home = with_skills(shipped_team("rovers"), 11, sliding_tackle=70)
    m = started(home=home)
    m.submit(PlaceFigure(H(11), square=(28, 12), correction=True))
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    m.submit(c.CallDeflection(H(11)))
    assert len(m.pending()) == 2
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 50)  # both succeed, defender higher: deflected from his PS
    assert m.pending()[0].dice.describe() == "1d8"
    scatter(m, 3)
    assert grid_distance(m.state.ball.ps, (14, 6)) == 1


def test_failed_deflection_stuns_the_defender():
    m = started()
    m.submit(PlaceFigure(H(11), square=(28, 12), correction=True))
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    m.submit(c.CallDeflection(H(11)))
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 99)
    assert m.state.players[H(11)].status is Status.STUNNED
    assert m.state.ball.ps == (9, 6)


def test_only_an_orthogonally_adjacent_defender_may_deflect():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    with pytest.raises(RuleViolation, match="orthogonally adjacent"):
        m.submit(c.CallDeflection(H(11)))


# --- transition rounds ------------------------------------------------------------------------------

def test_round_without_a_carrier_starts_a_transition_round_and_the_nearest_player_runs():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(13, 10)))  # an empty PS
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    assert m.state.phase is Phase.TACTICAL_MOVEMENT
    pass_phase(m)
    s = m.state
    assert s.round_kind is RoundKind.TRANSITION and s.round == 2 and s.phase is Phase.MOVEMENT
    assert s.ball.carrier is not None
    runner = s.players[s.ball.carrier]
    assert q_ps(runner.ms) == (13, 10) and runner.status is Status.EXHAUSTED
    with pytest.raises(RuleViolation, match="only by zone movements"):
        m.submit(c.Move(H(7), (17, 12)))
    mp = s.mp[Team.HOME]
    m.submit(c.ZoneMove(Team.HOME, Zone.MIDFIELD, ((H(7), (17, 12)),)))
    assert m.state.mp[Team.HOME] == mp  # zone movements are free in transition rounds


def q_ps(ms):
    return (ms[0] // 2, ms[1] // 2)


# --- restarts ---------------------------------------------------------------------------------------

def test_ball_out_over_the_touch_line_gives_a_throw_in_taken_as_a_short_pass():
    m = started()
    m.submit(PlaceFigure(A(8), square=(29, 22), correction=True))
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(14, 15)))
    pct(m, Team.AWAY, 95)
    scatter(m, 3)  # Away attacks x = 0: face 1 is -x, face 3 is +y (off the pitch)
    s = m.state
    assert s.phase is Phase.RESTART and s.restart.kind is RestartKind.THROW_IN and s.restart.team is Team.HOME
    for _ in range(4):
        team = next(r.team for r in m.pending() if "throw-in positioning" in r.text)
        m.submit(c.PassTurn(team))
    m.submit(c.ChooseTaker(H(8)))
    with pytest.raises(RuleViolation, match="short pass"):
        m.submit(c.Declare(H(8), Action.LONG_PASS, target_ps=(20, 8), distance=7))
    m.submit(c.Declare(H(8), Action.SHORT_PASS, target_ps=(10, 12)))
    assert m.state.phase is Phase.OUTCOME and m.state.attacking is Team.HOME and m.state.round == 2


# --- time, halves, extra time, shoot-out --------------------------------------------------------------

def test_half_time_resets_mp_and_the_other_coach_picks_first():
    m = started()
    for i in range(60):
        if m.state.period is not Period.FIRST_HALF:
            break
        s = m.state
        carrier = s.ball.carrier
        m.submit(c.Declare(carrier, Action.KEEP_AND_RUN, target_ms=(29, 13) if i % 2 == 0 else (29, 12)))
        pass_phase(m)
        pass_phase(m)
    s = m.state
    assert s.period is Period.SECOND_HALF and s.phase is Phase.BOARD_PICK
    assert s.mp == {Team.HOME: 0, Team.AWAY: 0} and s.minute == 0
    with pytest.raises(RuleViolation, match="Away picks now"):
        m.submit(c.ChooseBoard(Team.HOME, "bruce"))
    m.submit(c.ChooseBoard(Team.AWAY, "bruce"))  # any board, also one used before
    m.submit(c.ChooseBoard(Team.HOME, "paul"))
    assert m.state.phase is Phase.KICK_OFF and m.state.restart.team is Team.HOME


def test_shootout_five_each_then_decided():
    from companion.fublet import setup
    from companion.fublet.model import FubletState, ShootoutKick
    s = FubletState()
    kicks = []
    for i in range(3):
        kicks.append(ShootoutKick(Team.HOME, H(i + 2), True))
        kicks.append(ShootoutKick(Team.AWAY, A(i + 2), False))
    from dataclasses import replace
    assert setup.shootout_decided(replace(s, shootout=tuple(kicks)))  # 3-0 with two each left
    assert not setup.shootout_decided(replace(s, shootout=tuple(kicks[:5])))
