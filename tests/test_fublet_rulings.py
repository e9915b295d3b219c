"""Issue 34's Fublet rulings, each worked from the rulebook's sentence (docs/assumptions.md
F29 and F43a): a volley against defenders in the receiver's PS, and where the penalty kicker
stands."""

from __future__ import annotations

import pytest

from companion.commands import Choose, PlaceFigure
from companion.errors import RuleViolation
from companion.fublet import commands as c
from companion.fublet.components import Action, Skill, shipped_team
from companion.fublet.model import Phase, RestartKind, ShotPlan
from companion.fublet.open_actions import open_actions
from companion.teams import Team

from fublet_kit import A, H, choose, fixed_match, pass_phase, pct, to_first_round, with_skills

VOLLEY = ShotPlan(tokens=(5, 5, 5), save_token=5, save_ms=(1, 14))   # 70 - 15 - 5 = 50


def _cross_into_a_crowded_ps(*, second_attacker: bool = False):
    """Away #11 crosses to PS (2, 7), where Away #9 (volley 70) and Home #3 (aerial tackle 67)
    stand: "Defenders, or goalkeeper, in the same PS can try to prevent the attacker's volley
    shot." Returns the match at the choice the receiver's coach makes."""
    away = with_skills(with_skills(shipped_team("harbour"), 11, cross=80), 9, volley=70)
    home = with_skills(with_skills(shipped_team("rovers"), 1, save=60), 3, aerial_tackle=67)
    m = fixed_match(home=home, away=away)
    to_first_round(m)
    m.submit(PlaceFigure(A(11), square=(10, 2), correction=True))   # in Home's cross area
    m.submit(PlaceFigure(A(9), square=(5, 14), correction=True))    # in PS (2, 7)
    m.submit(PlaceFigure(H(3), square=(4, 14), correction=True))    # the same PS
    if second_attacker:
        m.submit(PlaceFigure(A(10), square=(5, 15), correction=True))
    m.submit(PlaceFigure(A(8), square=(22, 3), correction=True))
    m.submit(PlaceFigure(H(1), square=(1, 15), correction=True))
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(5, 1)))
    pct(m, Team.AWAY, 10)
    pass_phase(m)
    pass_phase(m)
    assert m.state.ball.carrier == A(11)
    m.submit(c.Declare(A(11), Action.CROSS, target_ps=(2, 7)))
    pct(m, Team.AWAY, 20)
    pass_phase(m)
    return m


def test_a_receiver_with_a_defender_in_his_ps_may_volley_or_play_the_aerial_dispute():
    m = _cross_into_a_crowded_ps()
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.AWAY
    assert req.options == ("dispute", "volley")
    assert "with opponents there" in req.text
    assert [(a.id, a.arg("player")) for a in open_actions(m.state) if a.id == "volley"] == [("volley", A(9))]
    m.submit(c.Volley(A(9), VOLLEY))
    # "skill tests are rolled by both coaches on volley's final value (skill value minus
    # penalty) and defender's aerial tackle skill value"
    texts = [r.text for r in m.pending()]
    assert any("Volley by #9" in t and "success if <= 50" in t for t in texts)
    assert any("Aerial Tackle" in t and "#3" in t and "success if <= 67" in t for t in texts)


def test_a_defender_who_beats_a_good_volley_wins_the_ball():
    m = _cross_into_a_crowded_ps()
    m.submit(c.Volley(A(9), VOLLEY))
    pct(m, Team.AWAY, 33)
    pct(m, Team.HOME, 60)    # both succeed, the higher wins
    assert m.state.ball.carrier == H(3)
    assert m.state.score[Team.AWAY] == 0


def test_a_volley_that_beats_the_defender_goes_on_to_the_save_with_the_same_result():
    m = _cross_into_a_crowded_ps()
    m.submit(c.Volley(A(9), VOLLEY))
    pct(m, Team.AWAY, 40)
    pct(m, Team.HOME, 20)    # both succeed, 40 > 20
    save = m.pending()[0]
    assert save.team is Team.HOME and "Save" in save.text
    assert m.state.declaration.shot_result == 40
    pct(m, Team.HOME, 80)    # the save fails: goal
    assert m.state.score[Team.AWAY] == 1


def test_a_defender_who_fails_against_a_good_volley_fouls_the_volleyer():
    """The chart's "Aerial dispute | Aerial tackle, Volley | Aerial tackle | Foul | Foul": in his
    own penalty area the foul is a penalty kick, or the advantage lets the volley go on."""
    m = _cross_into_a_crowded_ps()
    m.submit(c.Volley(A(9), VOLLEY))
    pct(m, Team.AWAY, 40)
    pct(m, Team.HOME, 90)    # fails
    req = m.pending()[0]
    assert req.team is Team.AWAY and req.options == ("advantage", "penalty_kick")
    choose(m, "advantage")
    assert m.state.players[H(3)].status.value == "stunned"
    save = m.pending()[0]
    assert save.team is Team.HOME and "Save" in save.text


def test_a_volley_that_fails_against_a_good_aerial_tackle_is_the_volleyers_foul():
    m = _cross_into_a_crowded_ps()
    m.submit(c.Volley(A(9), VOLLEY))
    pct(m, Team.AWAY, 70)    # fails (over 50)
    pct(m, Team.HOME, 30)
    req = m.pending()[0]
    assert req.team is Team.HOME and req.options[0] == "advantage"


def test_choosing_the_dispute_rolls_aerial_tackle_on_both_sides():
    m = _cross_into_a_crowded_ps()
    choose(m, "dispute")
    texts = [r.text for r in m.pending()]
    assert len(texts) == 2 and all("Aerial Tackle" in t and "aerial dispute" in t for t in texts)


def test_two_attackers_in_the_ps_either_may_volley():
    m = _cross_into_a_crowded_ps(second_attacker=True)
    assert sorted(a.arg("player").number for a in open_actions(m.state) if a.id == "volley") == [9, 10]
    m.submit(c.Volley(A(10), VOLLEY))
    assert any("Volley by #10" in r.text for r in m.pending())


def test_only_a_receiver_in_the_ps_may_volley():
    m = _cross_into_a_crowded_ps()
    with pytest.raises(RuleViolation, match="Volley Shots"):
        m.submit(c.Volley(A(8), VOLLEY))
    with pytest.raises(RuleViolation, match="goal-line PS"):
        m.submit(c.Volley(A(9), VOLLEY, target_ps=(0, 3)))
    m.submit(c.Volley(A(9), VOLLEY, target_ps=(0, 8)))
    assert m.state.declaration.target_ps == (0, 8)


# --- the penalty kicker's place -------------------------------------------------------------------

def _penalty(kicker_ms):
    """A foul in Home's penalty area; Away #9 takes the penalty from ``kicker_ms``."""
    home = with_skills(shipped_team("rovers"), 2, tackle=50)
    m = fixed_match(home=home)
    to_first_round(m)
    m.submit(PlaceFigure(A(8), square=(9, 14), correction=True))
    m.submit(PlaceFigure(H(2), square=(4, 14), correction=True))
    m.submit(c.Declare(A(8), Action.KEEP_AND_RUN, target_ms=(6, 14)))
    m.submit(c.Move(H(2), (5, 14), engage=True))
    pass_phase(m)
    pct(m, Team.AWAY, 30)
    pct(m, Team.HOME, 70)
    m.submit(Choose(m.pending()[0].id, "penalty_kick"))
    m.submit(c.ChooseTaker(A(9)))
    for ref, ms in ((A(8), (9, 20)), (H(2), (9, 22)), (H(1), (1, 15))):
        m.submit(PlaceFigure(ref, square=ms))
    m.submit(c.Move(A(9), kicker_ms))   # free positioning at a penalty
    assert m.state.restart.kind is RestartKind.PENALTY
    return m


def test_a_kicker_4_ms_from_the_spot_is_refused_naming_the_rule():
    """fublet.txt: "The attacking coach picks a player to take the penalty and places it in one
    of the two MS close to the penalty spot." The board's two MS are (5, 15) and (5, 16)."""
    m = _penalty((5, 20))
    before = m.state
    with pytest.raises(RuleViolation, match=r"Penalty Kicks: .*two MS close to the penalty spot.*4 MS"):
        m.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 7)))
    assert m.state == before
    assert not any(a.id == "declare" for a in open_actions(m.state))
    m.submit(c.Move(A(9), (5, 16)))
    assert any(a.id == "declare" for a in open_actions(m.state))
    m.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 7)))
    assert m.state.phase is Phase.OUTCOME and len(m.pending()) == 2


@pytest.mark.parametrize("spot", [(5, 15), (5, 16)])
def test_either_ms_by_the_spot_takes_the_kick(spot):
    m = _penalty(spot)
    m.submit(c.Declare(A(9), Action.FINALIZATION, target_ps=(0, 8)))
    texts = [r.text for r in m.pending()]
    assert any("Finalization" in t for t in texts) and any(Skill.PENALTY_KICK.label in t for t in texts)
