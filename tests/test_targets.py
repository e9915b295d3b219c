"""Where a selected figure may go and what each place means (companion/<game>/targets.py), for
the Fußball-Liga and Football Leader: every lit place is one the rules take, the kick-off the
issue met is a pass to #11 and never to #7, and refusals are said in a coach's words."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.fussball_liga import commands as lc
from companion.fussball_liga import targets as lt
from companion.fussball_liga.model import PhaseLimit
from companion.football_leader import targets as ft
from fussball_liga_kit import A, H, kicked_off, new_match, pass_movement, toss
from ui.games.fussball_liga.lineup import standard_lineup


def away_kick_off():
    """The issue's kick-off: Away kicks off from the high half after the standard line-up."""
    m = new_match(phase_limit=PhaseLimit.NONE)
    toss(m, winner="away", pick="kick_off")
    for ref, sq in standard_lineup(m.state):
        m.submit(PlaceFigure(ref, square=sq))
    return m


def test_the_kick_off_lights_passes_to_the_teammates_a_straight_kick_reaches():
    m = away_kick_off()
    s = m.state
    found = lt.kick_targets(s, A(9))
    assert found and {t.kind for t in found.values()} == {"pass"}
    receivers = {r for t in found.values() for r in t.receivers}
    assert A(11) in receivers and A(7) not in receivers     # #7 is on no line from the ball
    for sq, t in found.items():   # each lit square is a kick the rules take
        m.ruleset.decide(s, lc.Kick(A(9), sq, receiver=t.receivers[0] if len(t.receivers) > 1 else None))
    with pytest.raises(RuleViolation) as refused:
        m.ruleset.decide(s, lc.Kick(A(9), s.players[A(7)].square))
    said = str(refused.value)
    assert "a kick-off is a pass, not a shot" in said and "Kick-Off" in said and "(20, 11)" not in said


def test_the_shot_phase_lights_passes_space_and_out_of_play_each_with_its_meaning():
    m = kicked_off(phase_limit=PhaseLimit.NONE)
    pass_movement(m)
    s = m.state
    holder = s.ball.holder
    found = lt.targets(s, holder)
    kinds = {t.kind for t in found.values()}
    assert {"pass", "loose", "out"} <= kinds
    assert all(t.text for t in found.values())
    for sq, t in found.items():
        if t.kind == "out":
            assert t.text.startswith("out of play: a throw-in") or "corner" in t.text or "goal-kick" in t.text


def test_a_movement_lights_his_run_with_its_cost_and_a_set_up_the_kicker_s_square():
    m = kicked_off(phase_limit=PhaseLimit.NONE)
    found = lt.targets(m.state, H(11))
    assert found and {t.kind for t in found.values()} == {"dribble"}
    assert all("point" in t.text for t in found.values())
    for sq in found:
        m.ruleset.decide(m.state, lc.Move(H(11), sq))


def test_the_line_up_lights_the_own_half_and_the_kick_off_squares():
    m = new_match(phase_limit=PhaseLimit.NONE)
    toss(m)
    for ref, sq in standard_lineup(m.state):
        m.submit(PlaceFigure(ref, square=sq))
    s = m.state
    mine = lt.targets(s, H(7))
    pitch = s.components.pitch
    assert all(pitch.half_of(sq) == s.end_of(H(7).team) for sq in mine)
    assert {sq for sq, t in mine.items() if t.kind == "kicker"} <= set(pitch.kick_off_squares[s.end_of(H(7).team)])
    theirs = lt.targets(s, A(7))
    assert not any(pitch.in_centre_circle(sq) for sq in theirs)


def test_football_leader_lights_passes_with_their_difficulty_moves_and_a_tackle():
    from football_leader_kit import new_match as fl_match, pass_turn, plain_team, to_kick_off

    m = fl_match(home=plain_team("Home"), away=plain_team("Away"))
    to_kick_off(m)
    s = m.state
    carrier = s.ball
    found = ft.targets(s, carrier)
    kinds = {t.kind for t in found.values()}
    assert "pass" in kinds and ("move" in kinds or "dodge" in kinds)
    assert all("difficulty" in t.text for t in found.values() if t.kind == "pass")
    pass_turn(m, avoid=(carrier,))
    s = m.state
    tacklers = [p.ref for p in s.players.values() if p.ref.team is s.turn.team and p.space == s.players[s.ball].space]
    assert tacklers
    lit = ft.targets(s, tacklers[0])
    assert any(t.kind == "tackle" for t in lit.values())
    assert ft.targets(s, carrier) == {}     # not his side's turn: nothing lit
