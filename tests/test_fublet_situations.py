"""More Fublet situations: requests' wording, device undo, time and the penalty-box rule,
championship mode, volleys, chips, corners, goal kicks, the goalkeeper's card."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import DieKind, roll_of
from companion.errors import RuleViolation
from companion.events import Source
from companion.fublet import commands as c
from companion.fublet.components import Action, Skill, shipped_team
from companion.fublet.model import Period, Phase, RestartKind, ShotPlan, Status
from companion.teams import Team

from fublet_kit import (A, H, board_entry, choose, fixed_match, pass_phase, pct, scatter, to_first_round,
                        with_skills)


def started(home=None, away=None, boards=None, **options):
    m = fixed_match(home=home, away=away, boards=boards, **options)
    to_first_round(m)
    return m


def test_request_text_names_team_test_skill_boost_target_and_dice():
    boards = (board_entry("paul", "Paul", {}, {}, outcome_boosts={"short_pass": 5}),
              board_entry("bruce", "Bruce", {}, {}))
    away = with_skills(shipped_team("harbour"), 8, short_pass=64)
    m = started(away=away, boards=boards)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    req = m.pending()[0]
    assert req.kind == "dice" and req.dice.describe() == "2d10"
    assert req.text == "Away: skill test, Short Pass by #8, skill 64 + boost 5: success if <= 69, roll 2d10"


def test_undoing_a_tray_roll_restores_the_pending_request():
    m = started()
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    before = m.state
    m.submit(SubmitRoll(roll_of(DieKind.D10, 9, 9, owner=Team.AWAY, source=Source.TRAY, device="tray-1")),
             Source.TRAY)
    assert m.events[-1].source is Source.RULES
    assert any(e.source is Source.TRAY for e in m.events)
    assert m.state.phase is Phase.OUTCOME  # waiting for the scatter die
    m.undo()  # the coach says the tray misread: drop the roll and everything it caused
    assert m.state == before and m.pending()[0].team is Team.AWAY
    pct(m, Team.AWAY, 12)
    assert m.state.ball.ps == (9, 6)


def test_skill_after_modifiers_is_clamped_to_10_90():
    away = with_skills(shipped_team("harbour"), 9, long_shot=30)
    m = started(away=away)
    m.submit(PlaceFigure(A(9), square=(12, 14), correction=True))
    # Move the ball to #9 with a pass, then shoot with heavy tokens.
    m.submit(c.Declare(A(8), Action.LONG_PASS, target_ps=(6, 7)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    choose(m, "ball_control")
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    assert m.state.ball.carrier == A(9)
    m.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7),
                       shot=ShotPlan(tokens=(10, 10, 10, 5, 5, 5, 5), save_token=10, save_ms=(1, 14))))
    assert "success if <= 10" in m.pending()[0].text  # 30 - 60 clamps to 10


def test_chip_shot_needs_minus_10_tokens_and_the_keeper_off_his_line():
    m = started()
    m.submit(PlaceFigure(A(8), square=(12, 14), correction=True))
    with pytest.raises(RuleViolation, match="only -10 tokens"):
        m.submit(c.Declare(A(8), Action.LONG_SHOT, target_ps=(0, 7),
                           shot=ShotPlan(tokens=(10, 5), save_token=10, chip=True)))
    m.submit(PlaceFigure(H(1), square=(0, 15), correction=True))  # on the goal line
    with pytest.raises(RuleViolation, match="off his goal line"):
        m.submit(c.Declare(A(8), Action.LONG_SHOT, target_ps=(0, 7),
                           shot=ShotPlan(tokens=(10, 10), save_token=10, chip=True)))


def test_finalization_only_inside_the_box_and_shots_only_in_the_opponents_half():
    m = started()
    with pytest.raises(RuleViolation, match="only from the opponents' half"):
        m.submit(c.Declare(A(8), Action.LONG_SHOT, target_ps=(0, 7), shot=ShotPlan(tokens=(10,), save_token=5)))
    m.submit(PlaceFigure(A(8), square=(12, 14), correction=True))
    with pytest.raises(RuleViolation, match="declare a long shot"):
        m.submit(c.Declare(A(8), Action.FINALIZATION, target_ps=(0, 7), shot=ShotPlan(tokens=(10,), save_token=5)))


def test_volley_from_a_cross():
    away = with_skills(with_skills(shipped_team("harbour"), 11, cross=80), 9, volley=70)
    home = with_skills(shipped_team("rovers"), 1, save=60)
    m = started(away=away, home=home)
    m.submit(PlaceFigure(A(11), square=(10, 2), correction=True))   # in Home's cross area
    m.submit(PlaceFigure(A(9), square=(5, 14), correction=True))    # in PS (2, 7)
    m.submit(PlaceFigure(A(8), square=(22, 3), correction=True))
    m.submit(PlaceFigure(H(1), square=(1, 15), correction=True))
    # Give #11 the ball: a short pass, received.
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(5, 1)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    pass_phase(m)
    assert m.state.ball.carrier == A(11)
    m.submit(c.Declare(A(11), Action.CROSS, target_ps=(2, 7)))
    pct(m, Team.AWAY, 20)
    pass_phase(m)
    assert "volley" in m.pending()[0].text
    m.submit(c.Volley(A(9), ShotPlan(tokens=(5, 5, 5), save_token=5, save_ms=(1, 14))))
    req = m.pending()[0]
    assert "Volley by #9" in req.text and "success if <= 50" in req.text
    pct(m, Team.AWAY, 33)
    save = m.pending()[0]
    assert save.team is Team.HOME and "dive 1 MS 10" in save.text
    pct(m, Team.HOME, 80)  # fails: goal
    assert m.state.score[Team.AWAY] == 1


def test_corner_after_the_keeper_saves_over_the_bar():
    away = with_skills(shipped_team("harbour"), 8, long_shot=80)
    m = started(away=away)
    m.submit(PlaceFigure(A(8), square=(12, 14), correction=True))
    m.submit(c.Declare(A(8), Action.LONG_SHOT, target_ps=(0, 7),
                       shot=ShotPlan(tokens=(10, 5, 5, 5, 5), save_token=5, save_ms=(1, 14))))
    pct(m, Team.AWAY, 20)
    pass_phase(m)
    pct(m, Team.HOME, 30)   # saved (30 > 20)
    choose(m, "no")         # no catch: it scatters
    scatter(m, 1)           # towards the net: over the bar
    s = m.state
    assert s.phase is Phase.RESTART and s.restart.kind is RestartKind.CORNER and s.restart.team is Team.AWAY
    assert s.restart.spot_ms in ((0, 0), (0, 31))
    assert s.players[H(1)].status is Status.STUNNED


def test_goal_kick_after_a_pass_out_over_the_goal_line_may_go_15_ps():
    m = started()
    m.submit(PlaceFigure(A(8), square=(6, 2), correction=True))
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(0, 1)))
    pct(m, Team.AWAY, 95)
    scatter(m, 1)  # towards Home's goal line: out
    s = m.state
    assert s.restart.kind is RestartKind.GOAL_KICK and s.restart.team is Team.HOME
    with pytest.raises(RuleViolation, match="goalkeeper takes the goal kick"):
        m.submit(c.ChooseTaker(H(2)))
    m.submit(c.ChooseTaker(H(1)))
    m.submit(c.Declare(H(1), Action.LONG_PASS, target_ps=(15, 7)))  # 15 PS from PS (0, 7)
    assert m.state.declaration.distance == 15


def test_goalkeeper_injured_with_no_goalkeeper_left_hands_his_card_to_a_player():
    home = replace(shipped_team("rovers"), players=tuple(
        replace(p, goalkeeper=False, skills={k: v for k, v in p.skills.items()
                                              if k.value not in ("save", "rush_out", "handling", "penalty_kick")})
        if p.number == 12 else p for p in shipped_team("rovers").players))
    m = started(home=home)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    # Home's keeper tries a tactical move and is injured on 75.
    m.submit(c.TacticalMove(H(1), (2, 15)))
    pct(m, Team.HOME, 75)
    assert not m.state.players[H(1)].injured  # tactical perception tests never injure
    m.undo(2)
    m.submit(c.CallSubstitution(Team.HOME, H(1), H(12)))
    pass_phase(m)
    req = m.pending()[0]
    assert "no goalkeeper" in req.text and req.team is Team.HOME
    m.submit(Choose(req.id, "home#5"))
    s = m.state
    assert s.players[H(5)].goalkeeper
    assert s.players[H(5)].skill(Skill.SAVE) == s.players[H(1)].card.skills[Skill.SAVE]


# --- time -------------------------------------------------------------------------------------------

def keep_running(m, rows=(12, 13)):
    i = 0
    while m.state.phase is Phase.DECLARATION:
        carrier = m.state.ball.carrier
        ms = m.state.players[carrier].ms
        m.submit(c.Declare(carrier, Action.KEEP_AND_RUN, target_ms=(ms[0], rows[i % 2])))
        pass_phase(m)
        pass_phase(m)
        i += 1
        if i > 80:
            raise AssertionError("the half did not end")


def test_play_goes_on_after_time_while_the_ball_is_in_a_penalty_box():
    m = started()
    i = 0
    while m.state.minute < 44:  # one minute a round: runs of 1 MS
        ms = m.state.players[A(8)].ms
        m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(ms[0], 12 + i % 2)))
        pass_phase(m)
        pass_phase(m)
        i += 1
    m.submit(PlaceFigure(A(8), square=(4, 12), correction=True))  # inside Home's box
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(4, 13)))
    assert m.state.time_up
    pass_phase(m)
    pass_phase(m)
    assert m.state.period is Period.FIRST_HALF and m.state.phase is Phase.DECLARATION  # still in the box
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(8, 13)))  # out of the box (running backwards)
    pass_phase(m)
    pass_phase(m)
    assert m.state.period is Period.SECOND_HALF


def test_championship_draw_stands_with_one_point_each():
    m = started(championship=True)
    keep_running(m)
    m.submit(c.ChooseBoard(Team.AWAY, "bruce"))
    m.submit(c.ChooseBoard(Team.HOME, "paul"))
    from fublet_kit import lineup
    lineup(m)
    m.submit(c.KickOff(H(8)))
    keep_running(m, rows=(19, 20))
    s = m.state
    assert s.phase is Phase.OVER and s.result.winner is None
    assert (s.result.points_home, s.result.points_away) == (1, 1)
    assert m.summary()["result"]["points"] == {"home": 1, "away": 1}
    with pytest.raises(RuleViolation, match="match is over"):
        m.submit(c.PassTurn(Team.HOME))


def test_a_draw_goes_to_extra_time_then_a_shootout():
    m = started()
    from fublet_kit import lineup
    keep_running(m)
    for period, first, kicker in ((Period.SECOND_HALF, Team.AWAY, H(8)), (Period.EXTRA_FIRST, Team.HOME, A(8)),
                                  (Period.EXTRA_SECOND, Team.AWAY, H(8))):
        assert m.state.period is period
        m.submit(c.ChooseBoard(first, "bruce"))
        m.submit(c.ChooseBoard(first.other, "paul"))
        lineup(m)
        m.submit(c.KickOff(kicker))
        keep_running(m, rows=(12, 13) if kicker.team is Team.AWAY else (19, 20))
    s = m.state
    assert s.period is Period.SHOOTOUT and s.turn is Team.HOME
    with pytest.raises(RuleViolation, match="it is Home's kick"):
        m.submit(c.TakeShootoutKick(A(9)))
    m.submit(c.TakeShootoutKick(H(9)))
    pct(m, Team.HOME, 20)
    pct(m, Team.AWAY, 90)
    m.submit(c.TakeShootoutKick(A(9)))
    pct(m, Team.AWAY, 97)
    pct(m, Team.HOME, 10)
    with pytest.raises(RuleViolation, match="has kicked already"):
        m.submit(c.TakeShootoutKick(H(9)))
    assert [(k.kicker, k.scored) for k in m.state.shootout] == [(H(9), True), (A(9), False)]


def test_a_traced_trajectory_fixes_the_token_sides():
    m = started()
    m.submit(PlaceFigure(A(8), square=(14, 14), correction=True))  # PS (7, 7): behind the outstanding lines
    path = ((7, 7), (6, 7), (5, 7), (4, 7), (3, 7), (2, 7), (1, 7), (0, 7))
    with pytest.raises(RuleViolation, match="-10, -5, -5, -5, -5, -5, -5, -5"):
        m.submit(c.Declare(A(8), Action.LONG_SHOT, shot=ShotPlan(tokens=(5,) * 8, save_token=5, trajectory=path)))
    m.submit(c.Declare(A(8), Action.LONG_SHOT, shot=ShotPlan(tokens=(10,) + (5,) * 7, save_token=5,
                                                            trajectory=path)))
    assert m.state.declaration.target_ps == (0, 7)
    assert "- shot-on-goal tokens 45 - save attempt token 5" in m.pending()[0].text


def test_a_shot_with_the_keepers_position_unknown_needs_his_dive():
    from fublet_kit import die
    m = fixed_match()
    die(m, Team.HOME, 7)
    die(m, Team.AWAY, 3)
    m.submit(c.ChooseBoard(Team.HOME, "bruce"))
    m.submit(c.ChooseBoard(Team.AWAY, "paul"))
    m.submit(c.KickOff(A(8)))  # nobody placed: positions unknown
    with pytest.raises(RuleViolation, match="give his dive"):
        m.submit(c.Declare(A(8), Action.LONG_SHOT, shot=ShotPlan(tokens=(5,), save_token=5)))
    m.submit(c.Declare(A(8), Action.LONG_SHOT, shot=ShotPlan(tokens=(5,), save_token=5, gk_dive=2)))
    pct(m, Team.AWAY, 10)
    choose(m, "none")  # positions unknown: any defender might be adjacent, so the coach is asked
    pass_phase(m)
    assert "dive 2 MS 20" in m.pending()[0].text


def test_the_volley_choice_offers_both_answers_and_a_volley_needs_its_plan():
    m = started()
    m.submit(PlaceFigure(A(9), square=(15, 11), correction=True))
    m.submit(c.Declare(A(8), Action.LONG_PASS, target_ps=(7, 6)))
    pct(m, Team.AWAY, 10)
    m.submit(c.Move(A(9), (15, 12)))
    pass_phase(m)
    req = m.pending()[0]
    assert req.options == ("ball_control", "volley")
    with pytest.raises(RuleViolation, match="declare it as a volley"):
        m.submit(Choose(req.id, "volley"))
