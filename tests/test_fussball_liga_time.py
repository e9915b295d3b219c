"""Real time: the halves on the tablet's clock, the phase time limit (egg timer or chess
clock), time-up proposals, the end of a half, extra time, the shoot-out, tournament play."""

from __future__ import annotations

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.fussball_liga import commands as c
from companion.fussball_liga.model import Period, Phase, PhaseLimit, RestartKind
from companion.fussball_liga.rules import FussballLigaRules
from companion.match import Match
from companion.teams import Team

from fussball_liga_kit import (DEEP, A, Clock, H, choose, die, kicked_off, lineup, new_match, pass_movement, scene,
                               toss)


def refused(m, command, *fragments):
    before = (m.state, m.events)
    with pytest.raises(RuleViolation) as info:
        m.submit(command)
    assert (m.state, m.events) == before
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)


def test_the_half_clock_runs_from_the_kick_off_and_pauses():
    clock = Clock()
    m = new_match(clock=clock)
    toss(m)
    lineup(m)
    clock.tick(120)  # setting up is not playing time
    m.submit(c.Kick(H(9), (12, 11)))
    clock.tick(60)
    m.submit(c.PassTurn(Team.HOME))
    half = m.summary()["clock"]["half"]
    assert half["elapsed_s"] == 60.0 and half["running"] and half["limit_s"] == 2700.0
    m.submit(c.PauseClock("a dispute"))
    clock.tick(300)
    m.submit(c.ResumeClock())
    clock.tick(15)
    m.submit(c.PassTurn(Team.AWAY))
    assert m.summary()["clock"]["half"]["elapsed_s"] == 75.0
    refused(m, c.ResumeClock(), "not paused")


def test_a_replayed_journal_gives_the_same_clock_readings():
    clock = Clock()
    m = kicked_off(clock=clock)
    clock.tick(42.5)
    m.submit(c.PassTurn(Team.HOME))
    again = Match.from_events(FussballLigaRules(), m.events)
    assert again.state == m.state and again.summary()["clock"] == m.summary()["clock"]


def test_time_up_for_the_half_is_checked_against_the_clock():
    clock = Clock()
    m = kicked_off(clock=clock, half_minutes=10)
    clock.tick(598)
    refused(m, c.CallTimeUp("half", clock.instant), "598.0 s of 600 s")
    clock.tick(1.6)  # within the tolerance of 0.5 s
    m.submit(c.CallTimeUp("half", clock.instant))
    assert m.state.half_time_up and m.state.period is Period.FIRST_HALF  # the phase is completed first
    refused(m, c.CallTimeUp("half", clock.instant), "up already")


def test_a_person_may_override_the_clock():
    clock = Clock()
    m = kicked_off(clock=clock)
    m.submit(c.CallTimeUp("half", clock.instant, correction=True))
    assert m.state.half_time_up


def test_the_current_phase_is_completed_then_the_half_ends_and_ends_change():
    clock = Clock()
    m = kicked_off(clock=clock, half_minutes=1)
    clock.tick(61)
    m.submit(c.CallTimeUp("half", clock.instant))
    m.submit(c.Move(H(2), (6, 3)))  # the movement phase goes on to its end
    pass_movement(m)
    s = m.state
    assert s.period is Period.SECOND_HALF and s.phase is Phase.LINE_UP
    assert s.restart.kind is RestartKind.KICK_OFF and s.restart.team is Team.AWAY and s.home_end == "high"
    assert not s.clocks.half_on and m.summary()["clock"]["half"]["elapsed_s"] == 0.0


def test_time_up_before_a_kick_off_ends_the_half_at_once():
    clock = Clock()
    m = new_match(clock=clock, half_minutes=1)
    toss(m)
    lineup(m)
    m.submit(c.Kick(H(9), (12, 11)))
    scene(m, {11: (26, 10)}, {}, ball=(26, 10), holder=H(11))
    pass_movement(m)
    m.submit(c.Kick(H(11), (30, 10)))
    die(m, Team.HOME, 6)  # a goal: Away's kick-off is next
    clock.tick(61)
    m.submit(c.CallTimeUp("half", clock.instant))
    assert m.state.period is Period.SECOND_HALF


def test_a_direct_free_kick_is_completed_after_time_is_up_an_indirect_one_forfeited():
    clock = Clock()
    m = kicked_off(clock=clock, half_minutes=1)
    scene(m, {11: (13, 10)}, {4: (14, 11), **DEEP}, ball=(14, 10), holder=H(11))
    clock.tick(61)
    m.submit(c.CallTimeUp("half", clock.instant))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Tackle(A(4)))
    die(m, Team.AWAY, 2)  # a foul
    choose(m, "free_kick")
    assert m.state.period is Period.FIRST_HALF and m.state.restart.kind is RestartKind.FREE_KICK
    m.submit(c.Move(A(4), (17, 11)))
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Kick(H(11), (14, 4)))
    assert m.state.period is Period.SECOND_HALF  # the kick landed: the half is over
    # An indirect free-kick would have been forfeited:
    m2 = kicked_off(clock=Clock(), half_minutes=1)
    m2.submit(c.CallTimeUp("half", m2.state.clock_at.plus(61)))
    m2.submit(c.CallMisconduct(A(4), "other"))
    assert m2.state.period is Period.SECOND_HALF


def test_the_egg_timer_ends_the_phase_after_30_seconds():
    clock = Clock()
    m = kicked_off(clock=clock)
    clock.tick(29)
    refused(m, c.CallTimeUp("phase", clock.instant), "29.0 s of 30 s")
    refused(m, c.CallTimeUp("phase", clock.instant, team=Team.HOME), "both coaches'")
    clock.tick(1)
    m.submit(c.CallTimeUp("phase", clock.instant))
    s = m.state
    assert s.phase is Phase.SHOT and s.turn_no == 2  # the movement phase ended at once
    assert m.summary()["clock"]["phase"]["elapsed_s"] == 0.0


def test_the_egg_timer_stops_while_dice_are_rolled():
    clock = Clock()
    m = kicked_off(clock=clock)
    scene(m, {11: (13, 10)}, {4: (14, 11)}, ball=(14, 10), holder=H(11))
    m.submit(c.PassTurn(Team.HOME))
    clock.tick(10)
    m.submit(c.Tackle(A(4), fair_play=True))
    clock.tick(100)  # a long time to find the die
    die(m, Team.AWAY, 3)
    assert m.summary()["clock"]["phase"]["elapsed_s"] == 10.0


def test_time_running_out_in_the_shot_phase_lands_the_ball_without_more_attempts():
    clock = Clock()
    m = kicked_off(clock=clock)
    pass_movement(m)
    scene(m, {11: (10, 10), 7: (18, 10)}, {**DEEP, 4: (13, 11)}, ball=(10, 10), holder=H(11))
    m.submit(c.Kick(H(11), (18, 10)))
    clock.tick(31)
    m.submit(c.CallTimeUp("phase", clock.instant))
    s = m.state
    assert s.ball.holder == H(7) and s.phase is Phase.MOVEMENT  # no follow-up either


def test_the_chess_clock_counts_each_coachs_own_time():
    clock = Clock()
    m = kicked_off(clock=clock, phase_limit=PhaseLimit.CHESS_CLOCK)
    clock.tick(20)
    m.submit(c.Move(H(2), (6, 3)))
    clock.tick(25)  # the attacker's step goes on
    m.submit(c.PassTurn(Team.HOME))
    clock.tick(28)
    chess = m.summary()["clock"]["chess"]
    refused(m, c.CallTimeUp("phase", clock.instant, team=Team.AWAY), "28.0 s of 30 s")
    refused(m, c.CallTimeUp("phase", clock.instant), "name the coach")
    assert chess["home"]["elapsed_s"] == 45.0 and not chess["home"]["running"] and chess["away"]["running"]
    m.submit(c.CallTimeUp("phase", clock.instant, team=Team.HOME))  # his 45 s are past the limit
    assert m.state.phase is Phase.SHOT and m.state.turn_no == 2


def test_playing_on_after_time_ran_out_is_misconduct():
    clock = Clock()
    m = kicked_off(clock=clock)
    clock.tick(30)
    m.submit(c.CallTimeUp("phase", clock.instant))
    m.submit(c.CallMisconduct(H(2), "played_on"))
    s = m.state
    assert s.players[H(2)].yellow == 1 and s.restart.kind is RestartKind.INDIRECT_FREE_KICK
    assert s.restart.spot == (12, 11)  # where the ball was when time ran out


def test_a_match_without_a_phase_limit_refuses_phase_time_ups():
    clock = Clock()
    m = kicked_off(clock=clock, phase_limit=PhaseLimit.NONE)
    clock.tick(300)
    refused(m, c.CallTimeUp("phase", clock.instant), "without a phase time limit")


# --- the end of the match -------------------------------------------------------------------------------

def mirror(sq):
    return (29 - sq[0], 19 - sq[1])


def kick_off_again(m):
    """Every figure lifted and put down in the kick-off shapes (mirrored for the high end);
    the kicking side's #9 passes to the square next to its #11."""
    from fussball_liga_kit import AWAY_LINEUP, HOME_LINEUP

    s = m.state
    kicking = s.restart.team
    for ref, p in s.players.items():
        if p.square is not None:
            m.submit(PlaceFigure(ref, None))
    for team in (Team.HOME, Team.AWAY):
        low = s.end_of(team) == "low"
        shape = HOME_LINEUP if team is kicking else AWAY_LINEUP
        if (team is kicking) != low:
            shape = {n: mirror(sq) for n, sq in shape.items()}
        for n, sq in shape.items():
            m.submit(PlaceFigure(H(n) if team is Team.HOME else A(n), square=sq))
    nine = H(9) if kicking is Team.HOME else A(9)
    m.submit(c.Kick(nine, (12, 11) if s.end_of(kicking) == "low" else mirror((12, 11))))


def play_half(m, clock):
    """Kick off if due; time runs out at once; both coaches pass to the end of the half."""
    if m.state.phase is Phase.LINE_UP:
        kick_off_again(m)
    clock.tick(m.state.options.half_seconds(m.state.period) + 1)
    m.submit(c.CallTimeUp("half", clock.instant))
    while m.state.phase in (Phase.MOVEMENT, Phase.SHOT):
        s = m.state
        m.submit(c.PassTurn(s.movement.turn if s.phase is Phase.MOVEMENT else s.attacking))


def test_a_draw_stands_without_extra_time_and_tournament_points():
    clock = Clock()
    m = kicked_off(clock=clock, half_minutes=1, tournament=True)
    play_half(m, clock)
    play_half(m, clock)
    s = m.summary()
    assert s["result"] == {"winner": None, "home": 0, "away": 0, "decided_by": "draw",
                           "points": {"home": 1, "away": 1}}
    assert s["phase"] == "over" and s["pending"] == []


def test_extra_time_then_a_shoot_out():
    clock = Clock()
    m = kicked_off(clock=clock, half_minutes=1, extra_half_minutes=1, extra_time=True, shootout=True)
    for _ in range(4):
        play_half(m, clock)
    s = m.state
    assert s.period is Period.SHOOTOUT and s.phase is Phase.SHOOTOUT and s.attacking is Team.HOME  # the toss winner
    refused(m, c.TakePenalty(A(9)), "Home's kick")
    m.submit(PlaceFigure(A(1), square=(30, 8) if s.end_of(Team.AWAY) == "high" else (-1, 8)))
    kicks = [(Team.HOME, 9, 5), (Team.AWAY, 9, 6), (Team.HOME, 10, 5), (Team.AWAY, 10, 6), (Team.HOME, 11, 5),
             (Team.AWAY, 11, 6)]
    for team, n, face in kicks:
        if m.state.phase is Phase.OVER:
            break
        other = team.other
        gk = next(p for p in m.state.players.values() if p.ref.team is other and p.goalkeeper)
        numbers = m.state.components.pitch.ends[m.state.end_of(other)].goal_numbers
        if gk.square not in numbers.values():
            m.submit(PlaceFigure(gk.ref, None))
            m.submit(PlaceFigure(gk.ref, square=numbers[1]))
        m.submit(c.TakePenalty(H(n) if team is Team.HOME else A(n)))
        die(m, team, face)
    s = m.summary()
    assert s["result"]["winner"] == "home" and s["result"]["decided_by"] == "shoot-out"
    assert (s["shootout"]["home"], s["shootout"]["away"]) == (3, 0)


def test_golden_goal_ends_extra_time():
    clock = Clock()
    m = kicked_off(clock=clock, half_minutes=1, extra_time=True, golden_goal=True)
    play_half(m, clock)
    play_half(m, clock)
    assert m.state.period is Period.EXTRA_FIRST
    kick_off_again(m)
    s = m.state
    side = s.attacking
    goal_col = 30 if s.attacked_end(side) == "high" else -1
    spot = (26, 10) if goal_col == 30 else (3, 10)
    shooter = H(11) if side is Team.HOME else A(11)
    scene(m, {11: spot} if side is Team.HOME else {}, {11: spot} if side is Team.AWAY else {}, ball=spot,
          holder=shooter)
    pass_movement(m)
    m.submit(c.Kick(shooter, (goal_col, 10)))
    die(m, side, 6)
    s = m.summary()
    assert s["result"]["decided_by"] == "golden goal" and s["phase"] == "over"


def test_tournament_yellow_cards_carry_over_and_suspensions():
    with pytest.raises(RuleViolation, match="suspended"):
        new_match(tournament=True, suspended=(H(9),))
    clock = Clock()
    m = kicked_off(clock=clock, tournament=True, carried_yellows=(A(4), A(6)), suspended=(H(14),))
    scene(m, {11: (12, 12)}, {4: (20, 7)}, ball=(12, 12), holder=H(11))
    m.submit(c.CallMisconduct(A(4), "other"))
    refused(m, c.Substitute(H(2), H(14)), "suspended")
    t = m.summary()["tournament"]
    assert t["suspended_next_match"] == ["away#4"] and t["carried_yellows"] == ["away#4", "away#6"]
