"""The Futboard rules, command by command: turns, movement, passes, kicks, taking the ball,
fouls and cards, penalties, corners, offside, the line rule, goals and restarts."""

from __future__ import annotations

import pytest

from companion.commands import Choose, PlaceFigure
from companion.errors import DiceMismatch, RuleViolation
from companion.futboard import commands as c
from companion.futboard import queries as q
from companion.futboard.components import load_components, shipped_team
from companion.futboard.model import Corner, KickOff, Options, Penalty, Phase, Variant, Where
from companion.futboard.rules import FutboardRules
from companion.match import Match
from companion.teams import Team

from futboard_kit import A, H, HOME_442, away_of, d12, end_turn, fix, kicked_off, lineup, new_match, with_tile


# --- setup and the kick-off ------------------------------------------------------------------------

def test_a_new_match_waits_for_the_line_up_and_the_kick_off():
    m = new_match()
    s = m.state
    assert s.phase is Phase.LINEUP and s.restart == KickOff(Team.HOME)
    assert sum(p.on_field for p in s.players.values()) == 22
    ids = [r.id for r in m.pending()]
    assert ids == ["lineup_home", "lineup_away", "kick_off"]


def test_the_time_or_the_goals_must_be_chosen():
    with pytest.raises(ValueError, match="time or the number of goals"):
        Options()


def test_street_is_played_on_the_street_board_with_two_of_each_position():
    rules = FutboardRules()
    m = Match(rules)
    with pytest.raises(RuleViolation, match="Street board"):
        m.submit(c.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(),
                               Options(variant=Variant.STREET, goal_limit=2)))
    with pytest.raises(RuleViolation, match="2 players from each tactical position"):
        m.submit(c.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(board="street"),
                               Options(variant=Variant.STREET, goal_limit=2), home_lineup=(1, 2, 3, 4, 6, 7, 9)))
    m.submit(c.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(board="street"),
                           Options(variant=Variant.STREET, goal_limit=2)))
    assert sum(p.on_field for p in m.state.players.values()) == 14


def test_players_are_placed_in_their_own_field_and_the_kicker_in_the_circle():
    m = new_match()
    with pytest.raises(RuleViolation, match="own field"):
        m.submit(PlaceFigure(H(2), square=(12, 2)))
    with pytest.raises(RuleViolation, match="own field"):
        m.submit(PlaceFigure(A(9), square=(9, 6)))  # Away does not kick off: no circle exception
    m.submit(PlaceFigure(H(9), square=(10, 6)))      # the kicker may stand in the circle's far half
    with pytest.raises(RuleViolation, match="not on the board"):
        m.submit(PlaceFigure(H(2), square=(30, 2)))
    with pytest.raises(RuleViolation, match="outside the field"):
        m.submit(PlaceFigure(H(2), square=(-1, 2)))


def test_the_kick_off_needs_everyone_placed_and_is_a_pass_from_the_circle():
    m = new_match()
    with pytest.raises(RuleViolation, match="place #"):
        m.submit(c.Pass(H(9), H(8)))
    lineup(m)
    with pytest.raises(RuleViolation, match="Home starts with the ball"):
        m.submit(c.Pass(A(9), A(8)))
    with pytest.raises(RuleViolation, match="centre circle"):
        m.submit(c.Pass(H(8), H(9)))
    with pytest.raises(RuleViolation, match="the round has not started"):
        m.submit(c.Move(H(8), (7, 7)))
    m.submit(c.Pass(H(9), H(8)))
    s = m.state
    assert s.phase is Phase.PLAY and s.round == 1 and s.ball == H(8)
    assert s.turn is Team.HOME and s.actions_left == 2 and s.ball_moved


def test_the_kick_off_is_refused_with_five_in_a_line():
    m = new_match()
    shape = dict(HOME_442)
    shape[11] = (3, 12)
    lineup(m, home=shape)
    with pytest.raises(RuleViolation, match="more than 4 players in line 3"):
        m.submit(c.Pass(H(9), H(8)))


def test_a_refused_command_changes_nothing():
    m = kicked_off()
    before, events = m.state, m.events
    with pytest.raises(RuleViolation):
        m.submit(c.Move(H(8), (18, 6)))
    assert m.state is before and m.events == events


# --- turns --------------------------------------------------------------------------------------

def test_three_actions_then_the_opponents_turn():
    m = kicked_off()  # the kick-off pass was the first action
    m.submit(c.Move(H(2), (4, 2)))
    assert m.state.turn is Team.HOME and m.state.actions_left == 1
    m.submit(c.Move(H(3), (4, 5)))
    assert m.state.turn is Team.AWAY and m.state.actions_left == 3 and m.state.turn_no == 2


def test_a_player_moves_once_a_turn():
    m = kicked_off()
    m.submit(c.Move(H(2), (4, 2)))
    with pytest.raises(RuleViolation, match="moves once a turn"):
        m.submit(c.Move(H(2), (5, 2)))
    end_turn(m)
    m.submit(c.Move(A(2), (15, 2)))
    with pytest.raises(RuleViolation, match="moves once a turn"):
        m.submit(c.Move(A(2), (14, 2)))


def test_the_ball_must_move_each_turn():
    m = kicked_off()
    end_turn(m)
    # Away has no ball: it may end its turn at once.
    end_turn(m)
    assert m.state.turn is Team.HOME
    with pytest.raises(RuleViolation, match="ball has not moved"):
        end_turn(m)
    m.submit(c.Move(H(3), (4, 5)))
    m.submit(c.Move(H(4), (4, 7)))
    with pytest.raises(RuleViolation, match="You Have to Move the Ball"):
        m.submit(c.Move(H(5), (4, 10)))
    m.submit(c.Move(H(8), (8, 8)))  # the carrier moves: the ball has moved
    assert m.state.turn is Team.AWAY


def box_in(m: Match, sq) -> None:
    """Eight Away players all round ``sq``."""
    spots = [(sq[0] + dl, sq[1] + dr) for dl in (-1, 0, 1) for dr in (-1, 0, 1) if (dl, dr) != (0, 0)]
    for n, spot in zip((2, 3, 4, 5, 6, 7, 8, 10), spots):
        fix(m, A(n), spot)


def test_a_ball_that_cannot_move_does_not_hold_up_the_turn():
    # #8 with a ruler of 0 (no pass), boxed in, in his own field (no kick).
    m = kicked_off(to=8, home=with_tile(shipped_team("estrela"), 8, pass_ruler=0))
    box_in(m, (6, 7))
    m.submit(c.EndTurn(Team.HOME))
    assert m.state.turn is Team.AWAY


# --- movement -------------------------------------------------------------------------------------

def test_movement_is_limited_by_the_tile_and_blocked_by_figures():
    m = kicked_off()
    with pytest.raises(RuleViolation, match="4 spaces away.*allows 3"):
        m.submit(c.Move(H(6), (2, 2)))
    with pytest.raises(RuleViolation, match="taken by home#7"):
        m.submit(c.Move(H(6), (6, 5)))
    # A free space ringed by figures cannot be reached: no moving over them.
    box_in(m, (8, 8))
    with pytest.raises(RuleViolation, match="cannot move over other players"):
        m.submit(c.Move(H(10), (8, 8)))


def test_a_figure_may_pass_outside_the_field_but_not_stop_there():
    m = kicked_off()
    fix(m, H(5), (0, 0))
    for ref, sq in ((H(6), (1, 0)), (H(7), (1, 1)), (H(10), (0, 1))):
        fix(m, ref, sq)
    with pytest.raises(RuleViolation, match="outside the field"):
        m.submit(c.Move(H(6), (1, -1)))
    # #6 at (1, 0) runs out round the corner and back in: (2, -1) then (3, 0).
    m.submit(c.Move(H(6), (3, 0)))
    assert m.state.players[H(6)].space == (3, 0)


def test_a_ball_carrier_without_dribble_stops_next_to_an_opponent():
    m = kicked_off(to=8, home=with_tile(shipped_team("estrela"), 8, dribble=False))
    fix(m, H(8), (8, 2))
    fix(m, A(2), (10, 3))
    with pytest.raises(RuleViolation, match="no dribble symbol"):
        m.submit(c.Move(H(8), (11, 5)))  # every 3-step path passes next to away#2
    m.submit(c.Move(H(8), (9, 2)))       # but he may end his move beside him
    assert m.state.players[H(8)].space == (9, 2)


def test_a_dribbler_runs_past_opponents():
    m = kicked_off(to=8)  # #8 has the dribble symbol
    fix(m, H(8), (8, 2))
    fix(m, A(2), (10, 3))
    m.submit(c.Move(H(8), (11, 5)))
    assert m.state.players[H(8)].space == (11, 5)


def test_no_more_than_four_of_a_team_in_a_line():
    m = kicked_off()
    with pytest.raises(RuleViolation, match="already has 4 players in line 3"):
        m.submit(c.Move(H(6), (3, 3)))


def test_the_goalkeeper_is_not_one_of_the_four_players_in_a_line():
    """FB34 and FB20 read "players" alike: the rulebook counts "10 players plus the
    Goalkeeper", so neither the four in a line nor the last opponent's player counts him.
    Line 3 holds four of Home's players (#2, #3, #4, #5): the goalkeeper may join them by a
    movement, a fifth player may not."""
    m = kicked_off()
    fix(m, H(1), (1, 6))
    m.submit(c.Move(H(1), (3, 6)))   # two spaces up
    assert m.state.players[H(1)].space == (3, 6) and not q.crowded_lines(m.state, Team.HOME)
    with pytest.raises(RuleViolation, match="already has 4 players in line 3"):
        m.submit(c.Move(H(6), (3, 3)))


def test_a_table_that_counts_the_goalkeeper_in_the_line_may_say_so_at_setup():
    m = kicked_off(keeper_in_line=True)
    fix(m, H(1), (1, 6))
    with pytest.raises(RuleViolation, match="already has 4 players in line 3"):
        m.submit(c.Move(H(1), (3, 6)))


# --- passes and offside -----------------------------------------------------------------------------

def test_a_pass_reaches_as_far_as_the_ruler_on_the_tile():
    m = kicked_off(to=8)  # #8 at (6, 7), pass 6 marks of 45 mm
    fix(m, H(11), (12, 7))
    m.submit(c.Pass(H(8), H(11)))  # exactly 6 marks
    assert m.state.ball == H(11)
    fix(m, H(8), (4, 8))            # 8 along, 1 across from #11 (pass 4): too far
    with pytest.raises(RuleViolation, match=r"8.1 ruler marks away.*reaches 4"):
        m.submit(c.Pass(H(11), H(8)))


def test_a_player_next_to_two_opponents_cannot_receive():
    m = kicked_off(to=8)
    fix(m, H(7), (8, 9))
    fix(m, A(7), (9, 9))
    fix(m, A(8), (9, 10))
    with pytest.raises(RuleViolation, match="next to 2 or more opposing players and cannot receive"):
        m.submit(c.Pass(H(8), H(7)))


def test_offside_is_a_line_in_front_of_the_last_opponent():
    m = kicked_off(to=8)
    # Away's last outfield line is 16 (the goalkeeper does not count). #11 in line 17: offside.
    fix(m, H(8), (12, 8))
    fix(m, H(11), (17, 9))
    with pytest.raises(RuleViolation, match="Offside.*in front of the last opponent's player"):
        m.submit(c.Pass(H(8), H(11)))
    fix(m, H(11), (16, 9))  # level with the last defender: onside
    m.submit(c.Pass(H(8), H(11)))
    assert m.state.ball == H(11)


def test_no_offside_in_street():
    m = kicked_off(Variant.STREET, to=7)
    fix(m, H(7), (13, 7))
    fix(m, H(11), (17, 5))   # in front of Away's defenders (line 16)
    m.submit(c.Pass(H(7), H(11)))
    assert m.state.ball == H(11)


def test_passes_go_to_a_teammate():
    m = kicked_off(to=8)
    with pytest.raises(RuleViolation, match="own team"):
        m.submit(c.Pass(H(8), A(9)))
    with pytest.raises(RuleViolation, match="another player"):
        m.submit(c.Pass(H(8), H(8)))
    with pytest.raises(RuleViolation, match="only the player with the ball"):
        m.submit(c.Pass(H(7), H(6)))


# --- kicks --------------------------------------------------------------------------------------

def kick_ready(to: int = 8, at=(15, 9)) -> Match:
    """Home's #8 with the ball at ``at`` (4 lines from Away's goal: penalty 1), 2 actions left."""
    m = kicked_off(to=to)
    fix(m, H(to), at)
    return m


def test_no_kick_from_the_defensive_field():
    m = kicked_off(to=8)
    with pytest.raises(RuleViolation, match="defensive field"):
        m.submit(c.Kick(H(8)))


def test_no_kick_next_to_two_opponents():
    m = kick_ready()
    fix(m, A(4), (16, 8))
    with pytest.raises(RuleViolation, match="cannot kick the ball to goal"):
        m.submit(c.Kick(H(8)))


def test_a_kick_asks_both_coaches_for_a_d12():
    m = kick_ready()
    m.submit(c.Kick(H(8)))
    reqs = m.pending()
    assert [(r.id, r.team, r.dice.describe()) for r in reqs] == [("t1.0", Team.HOME, "1d12"),
                                                                 ("t1.1", Team.AWAY, "1d12")]
    assert "succeeds on 1-6" in reqs[0].text and "succeeds on 1-8" in reqs[1].text


def test_a_missed_kick_needs_no_keepers_roll_and_gives_him_the_ball():
    m = kick_ready()
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 7)
    s = m.state
    assert not s.queue and s.ball == A(1) and s.turn is Team.AWAY and s.actions_left == 3
    assert "misses" in s.last_outcome


def test_the_keepers_roll_may_come_first():
    m = kick_ready()
    m.submit(c.Kick(H(8)))
    d12(m, Team.AWAY, 9)
    assert m.state.queue
    d12(m, Team.HOME, 2)
    assert m.state.score[Team.HOME] == 1 and m.state.phase is Phase.LINEUP
    assert m.state.restart == KickOff(Team.AWAY)


def test_a_defended_kick_and_a_corner_on_equal_numbers():
    m = kick_ready()
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 3)
    d12(m, Team.AWAY, 5)
    assert m.state.ball == A(1) and m.state.turn is Team.AWAY and "defended" in m.state.last_outcome
    m = kick_ready()
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 4)
    d12(m, Team.AWAY, 4)
    assert m.state.phase is Phase.CORNER and m.state.restart == Corner(Team.HOME)


def test_equal_numbers_are_no_corner_in_street():
    m = kicked_off(Variant.STREET, to=7)
    fix(m, H(7), (15, 8))
    m.submit(c.Kick(H(7)))
    d12(m, Team.HOME, 4)
    d12(m, Team.AWAY, 4)  # the keeper's 4 is within his defence: defended
    assert m.state.phase is Phase.PLAY and m.state.ball == A(1)


def test_a_keeper_off_his_line_loses_defence():
    m = kick_ready()
    fix(m, A(1), (17, 6))   # 2 lines out, row 6: reduction 2
    m.submit(c.Kick(H(8)))
    assert "succeeds on 1-6" in m.pending()[1].text
    fix_far = kick_ready()
    fix(fix_far, A(1), (12, 3))  # beyond the printed spaces: 'elsewhere' = 5
    fix_far.submit(c.Kick(H(8)))
    assert "succeeds on 1-3" in fix_far.pending()[1].text


def test_a_kick_with_no_number_to_hit_misses_without_a_roll():
    weak = with_tile(shipped_team("estrela"), 8, accuracy=3)
    m = kicked_off(to=8, home=weak)
    fix(m, H(8), (10, 12))      # 9 lines from goal: penalty 4
    m.submit(c.Kick(H(8)))
    s = m.state
    assert not s.queue and s.ball == A(1) and s.turn is Team.AWAY and "no number to hit" in s.last_outcome


def test_a_keeper_with_no_defence_left_rolls_only_for_the_corner():
    m = kick_ready()
    fix(m, A(1), (12, 3))       # 'elsewhere': 5 off
    m.submit(c.Kick(H(8)))
    assert "no defence left" not in m.pending()[1].text  # 8 - 5 = 3 left
    weak = with_tile(shipped_team("mare"), 1, defence=4)
    m = kicked_off(to=8, away=weak)
    fix(m, H(8), (15, 9))
    fix(m, A(1), (12, 3))
    m.submit(c.Kick(H(8)))
    assert "no defence left" in m.pending()[1].text
    d12(m, Team.HOME, 2)
    d12(m, Team.AWAY, 1)
    assert m.state.score[Team.HOME] == 1
    street = kicked_off(Variant.STREET, to=7, away=weak)
    fix(street, H(7), (15, 8))
    fix(street, A(1), (12, 3))
    street.submit(c.Kick(H(7)))
    assert [r.team for r in street.pending()] == [Team.HOME]   # no corners in Street: no keeper's roll
    d12(street, Team.HOME, 2)
    assert street.state.score[Team.HOME] == 1


def test_the_keepers_roll_fits_only_the_keepers_request():
    m = kick_ready()
    m.submit(c.Kick(H(8)))
    from companion.commands import SubmitRoll
    from companion.dice import DieKind, roll_of
    with pytest.raises(DiceMismatch, match="more than one request"):
        m.submit(SubmitRoll(roll_of(DieKind.D12, 5)))   # a keypad roll with no owner
    with pytest.raises(DiceMismatch, match="needs 1d12"):
        m.submit(SubmitRoll(roll_of(DieKind.D10, 5, owner=Team.HOME)))
    m.submit(SubmitRoll(roll_of(DieKind.D12, 5), "t1.1"))
    assert m.state.queue[0].tests[1].result == 5


# --- corner kicks -----------------------------------------------------------------------------------

def corner_for_home() -> Match:
    m = kick_ready()
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 4)
    d12(m, Team.AWAY, 4)
    return m


def test_a_corner_taker_goes_on_a_corner_slot_then_the_defence_moves():
    m = corner_for_home()
    assert m.pending()[0].id == "corner"
    with pytest.raises(RuleViolation, match="corner slot"):
        m.submit(PlaceFigure(H(11), square=(18, 0)))
    with pytest.raises(RuleViolation, match="Home takes the corner"):
        m.submit(PlaceFigure(A(2), square=(19, 0)))
    m.submit(PlaceFigure(H(11), square=(19, 0)))
    s = m.state
    assert s.ball == H(11) and s.turn is Team.AWAY and s.restart == Corner(Team.HOME, H(11), "defence")
    with pytest.raises(RuleViolation, match="no taking the ball"):
        fix(m, A(2), (18, 1))
        m.submit(c.TakeBall(A(2)))
    m.submit(c.Move(A(3), (17, 4)))
    end_turn(m)
    s = m.state
    assert s.turn is Team.HOME and s.actions_left == 3 and s.restart.step == "attack"


def test_the_corner_must_be_passed_and_knows_no_offside():
    m = corner_for_home()
    m.submit(PlaceFigure(H(11), square=(19, 0)))
    end_turn(m)
    with pytest.raises(RuleViolation, match="passes the ball; he does not run"):
        m.submit(c.Move(H(11), (18, 0)))
    with pytest.raises(RuleViolation, match="must be passed"):
        m.submit(c.Kick(H(11)))
    with pytest.raises(RuleViolation, match="you have to pass the ball"):
        end_turn(m)
    fix(m, H(9), (18, 3))    # in front of Away's last line (16): offside, but not from a corner
    m.submit(c.Pass(H(11), H(9)))
    assert m.state.ball == H(9) and m.state.restart is None and m.state.actions_left == 2


def test_the_last_action_of_a_corner_turn_is_the_pass():
    m = corner_for_home()
    m.submit(PlaceFigure(H(11), square=(19, 0)))
    end_turn(m)
    m.submit(c.Move(H(2), (4, 2)))
    m.submit(c.Move(H(3), (4, 5)))
    with pytest.raises(RuleViolation, match="corner must be passed now"):
        m.submit(c.Move(H(4), (4, 7)))


def test_with_nobody_to_receive_the_corner_goes_to_the_keeper():
    m2 = corner_for_home()
    m2.submit(PlaceFigure(H(11), square=(19, 12)))
    fix(m2, H(8), (17, 11))           # within #11's 4 marks
    end_turn(m2)
    with pytest.raises(RuleViolation, match="can receive the corner"):
        m2.submit(c.Pass(H(11), A(1)))


def test_the_corner_to_the_keeper_when_no_teammate_can_receive():
    m = corner_for_home()
    m.submit(PlaceFigure(H(11), square=(19, 0)))
    end_turn(m)
    assert m.state.players[H(8)].space == (15, 9)
    from companion.futboard.passing import pass_problem
    assert all(pass_problem(m.state, H(11), p.ref, True) for p in m.state.players.values()
               if p.on_field and p.ref.team is Team.HOME and p.ref != H(11))
    m.submit(c.Pass(H(11), A(1)))
    s = m.state
    assert s.ball == A(1) and s.turn is Team.AWAY and s.restart is None and s.actions_left == 3


# --- taking the ball, fouls and cards ------------------------------------------------------------------

def take_ready(carrier_at=(8, 8), taker=A(7), taker_at=(9, 8)) -> Match:
    """Home's #8 has the ball; it is Away's turn with ``taker`` next to him."""
    m = kicked_off(to=8)
    fix(m, H(8), carrier_at)
    fix(m, taker, taker_at)
    end_turn(m)
    assert m.state.turn is Team.AWAY
    return m


def test_taking_the_ball_gives_three_fresh_actions():
    m = take_ready()
    m.submit(c.Move(A(2), (15, 2)))
    m.submit(c.TakeBall(A(7)))
    assert "takes it on 1-5, a foul on 12" in m.pending()[0].text
    d12(m, Team.AWAY, 5)
    s = m.state
    assert s.ball == A(7) and s.turn is Team.AWAY and s.actions_left == 3 and not s.moved


def test_a_failed_attempt_uses_an_action_and_may_be_tried_again():
    m = take_ready()
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 9)
    assert m.state.ball == H(8) and m.state.actions_left == 2
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 1)
    assert m.state.ball == A(7)


def test_take_only_from_an_adjacent_carrier():
    m = take_ready(taker_at=(10, 9))
    with pytest.raises(RuleViolation, match="not next to home#8"):
        m.submit(c.TakeBall(A(7)))


def test_a_foul_books_the_fouler_and_hands_the_turn_over():
    m = take_ready()
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 12)
    s = m.state
    assert s.players[A(7)].yellow == 1 and s.turn is Team.HOME and s.actions_left == 3 and s.ball == H(8)
    assert s.fouls[Team.AWAY] == 1


def test_a_second_yellow_sends_the_player_off():
    m = take_ready()
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 12)
    end_turn_with_ball(m)
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 12)
    p = m.state.players[A(7)]
    assert p.yellow == 2 and p.where is Where.OFF and p.space is None
    assert [(str(b.player), b.yellow_cards, b.sent_off) for b in m.state.bookings] == [
        ("away#7", 1, False), ("away#7", 2, True)]
    with pytest.raises(RuleViolation, match="sent off"):
        m.submit(PlaceFigure(A(7), square=(12, 0), correction=True))


def end_turn_with_ball(m: Match) -> None:
    """Home moves a player, then the carrier a step and back is not allowed: pass and return."""
    carrier = m.state.ball
    m.submit(c.Pass(carrier, H(7)))
    m.submit(c.Pass(H(7), carrier))
    m.submit(c.EndTurn(Team.HOME))


def test_street_fouls_give_no_cards():
    m = kicked_off(Variant.STREET, to=7)
    fix(m, H(7), (8, 8))
    fix(m, A(7), (9, 8))
    end_turn(m)
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 12)
    assert m.state.players[A(7)].yellow == 0 and not m.state.bookings and m.state.turn is Team.HOME


def test_a_foul_number_other_than_12():
    m = take_ready(taker=A(2), taker_at=(9, 8))  # Mare Azul's #2 fouls on 11
    m.submit(c.TakeBall(A(2)))
    assert "a foul on 11" in m.pending()[0].text
    d12(m, Team.AWAY, 12)   # 12 is above his strength 7: a plain failure
    assert m.state.ball == H(8) and not m.state.bookings
    m.submit(c.TakeBall(A(2)))
    d12(m, Team.AWAY, 11)
    assert m.state.players[A(2)].yellow == 1


# --- penalties ---------------------------------------------------------------------------------------

def penalty_for_home() -> Match:
    """Away's #4 fouls Home's #8 inside Away's area."""
    m = take_ready(carrier_at=(17, 8), taker=A(4), taker_at=(16, 8))
    fix(m, A(4), (16, 8))
    m.submit(c.TakeBall(A(4)))
    d12(m, Team.AWAY, 12)
    return m


def test_a_foul_in_the_area_is_a_penalty():
    m = penalty_for_home()
    s = m.state
    assert s.phase is Phase.PENALTY and s.restart == Penalty(Team.HOME, A(4), H(8)) and s.ball is None
    ids = [r.id for r in m.pending()]
    assert ids == ["clear_area", "penalty_taker"]
    assert "away#3" in m.pending()[0].text and "away#4" in m.pending()[0].text


def test_the_area_is_cleared_by_the_movement_rules_and_the_taker_placed_on_the_spot():
    m = penalty_for_home()
    with pytest.raises(RuleViolation, match="still in the penalty area"):
        m.submit(c.Move(A(4), (16, 9)))
    with pytest.raises(RuleViolation, match="spaces away"):
        m.submit(c.Move(A(4), (12, 8)))
    with pytest.raises(RuleViolation, match="outfield players in the area"):
        m.submit(c.Move(A(1), (14, 6)))
    with pytest.raises(RuleViolation, match="area indicated for kicking, space"):
        m.submit(PlaceFigure(H(9), square=(16, 6)))
    m.submit(PlaceFigure(H(9), square=(17, 6)))
    for ref, to in ((A(3), (15, 5)), (A(4), (15, 8)), (A(7), (15, 9))):
        if m.state.players[ref].space is not None and q_in_area(m, ref):
            m.submit(c.Move(ref, to))
    reqs = m.pending()
    assert [r.kind for r in reqs] == ["dice", "dice"], reqs
    assert "different groups" in reqs[0].text


def q_in_area(m, ref):
    from companion.futboard import queries as q
    return q.pitch(m.state).in_penalty_area(m.state.players[ref].space, q.own_end(ref.team))


def cleared_penalty() -> Match:
    m = penalty_for_home()
    m.submit(PlaceFigure(H(9), square=(17, 6)))
    for ref, to in ((A(3), (15, 5)), (A(4), (15, 8)), (A(7), (15, 9))):
        if q_in_area(m, ref):
            m.submit(c.Move(ref, to))
    return m


def test_a_penalty_in_another_group_is_a_goal():
    m = cleared_penalty()
    d12(m, Team.HOME, 4)
    d12(m, Team.AWAY, 5)
    s = m.state
    assert s.score[Team.HOME] == 1 and s.goals[0].how == "penalty" and s.phase is Phase.LINEUP


def test_a_penalty_in_the_same_group_is_defended_and_two_actions_remain():
    m = cleared_penalty()
    d12(m, Team.HOME, 9)
    d12(m, Team.AWAY, 12)
    s = m.state
    assert s.score[Team.HOME] == 0 and s.phase is Phase.PLAY and s.ball == A(1)
    assert s.turn is Team.HOME and s.actions_left == 2


# --- goals, restarts, substitutions and the end -----------------------------------------------------------

def test_after_a_goal_the_other_side_kicks_off_and_reserves_may_come_on():
    m = kick_ready()
    with pytest.raises(RuleViolation, match="before restarting after a goal"):
        m.submit(c.Substitute(H(8), H(14)))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 1)
    d12(m, Team.AWAY, 12)
    assert m.state.phase is Phase.LINEUP and m.state.restart == KickOff(Team.AWAY)
    with pytest.raises(RuleViolation, match="goalkeeper is replaced by a goalkeeper"):
        m.submit(c.Substitute(H(1), H(14)))
    m.submit(c.Substitute(H(8), H(14)))
    s = m.state
    assert s.players[H(14)].on_field and s.players[H(14)].space == (15, 9) and s.players[H(8)].where is Where.RESERVE
    # Everyone back to the kick-off shape; Away kicks off from the circle.
    fix_shape = dict(HOME_442)
    fix_shape[14] = fix_shape.pop(8)
    for ref in list(s.players):
        if s.players[ref].on_field:
            m.submit(PlaceFigure(ref, square=None))
    lineup(m, home=fix_shape, away=away_of(HOME_442))
    m.submit(c.Pass(A(9), A(8)))
    assert m.state.round == 2 and m.state.turn is Team.AWAY


def test_the_goal_limit_ends_the_match():
    m = kick_ready(at=(15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 1)
    d12(m, Team.AWAY, 12)
    m2 = Match.from_events(FutboardRules(), m.events)
    assert m2.state == m.state
    one = new_match(goal_limit=1)
    lineup(one)
    one.submit(c.Pass(H(9), H(8)))
    fix(one, H(8), (15, 9))
    one.submit(c.Kick(H(8)))
    d12(one, Team.HOME, 1)
    d12(one, Team.AWAY, 12)
    s = one.summary()
    assert s["phase"] == "over" and s["result"] == {"winner": "home", "home": 1, "away": 0,
                                                     "decided_by": "goal limit"}
    assert one.pending() == ()
    with pytest.raises(RuleViolation, match="the match is over"):
        one.submit(c.EndTurn(Team.AWAY))


def test_choices_are_not_part_of_futboard():
    m = kicked_off()
    with pytest.raises(RuleViolation, match="no questions"):
        m.submit(Choose("c1", "yes"))


def test_corrections_fix_a_position_without_an_action_but_keep_the_line_rule():
    m = kicked_off()
    fix(m, A(2), (12, 2))
    assert m.state.players[A(2)].manual and m.state.actions_left == 2
    with pytest.raises(RuleViolation, match="more than 4 players in line 3"):
        fix(m, H(6), (3, 3))
    with pytest.raises(RuleViolation, match="only as an action"):
        m.submit(PlaceFigure(H(6), square=(7, 3)))


def test_a_street_match_plays_inside_the_yellow_lines():
    m = kicked_off(Variant.STREET, to=7)
    with pytest.raises(RuleViolation, match="beyond the yellow lines"):
        m.submit(c.Move(H(2), (3, 1)))
    with_ = with_tile(m.state.home, 2, movement=5)
    assert with_.tile(2).movement == 5


# --- without a goalkeeper, Street substitutes, what the tablet reads ------------------------------------------

def keeper_sent_off() -> Match:
    """Away's goalkeeper fouls twice (yellow, yellow: sent off); Home then has the ball."""
    m = kicked_off(to=8)
    fix(m, H(8), (8, 8))
    fix(m, A(1), (9, 9))
    end_turn(m)
    for _ in range(2):
        m.submit(c.TakeBall(A(1)))
        d12(m, Team.AWAY, 12)
        if m.state.players[A(1)].on_field:
            end_turn_with_ball(m)
    assert m.state.players[A(1)].where is Where.OFF and m.state.turn is Team.HOME
    return m


def test_without_a_goalkeeper_every_hit_is_a_goal():
    m = keeper_sent_off()
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    assert [r.team for r in m.pending()] == [Team.HOME]
    d12(m, Team.HOME, 6)
    assert m.state.score[Team.HOME] == 1


def test_without_a_goalkeeper_a_miss_goes_to_the_defender_nearest_the_goal():
    m = keeper_sent_off()
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 12)
    assert m.state.ball == A(3) and m.state.turn is Team.AWAY  # (16, 5) is nearest (19, 6)


def test_a_sent_off_player_is_not_replaced():
    m = keeper_sent_off()
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 1)
    with pytest.raises(RuleViolation, match="not on the field"):
        m.submit(c.Substitute(A(1), A(12)))
    with pytest.raises(RuleViolation, match="not a reserve.*sent off"):
        m.submit(c.Substitute(A(2), A(1)))


def test_a_street_substitute_plays_the_same_position():
    m = kicked_off(Variant.STREET, to=7)
    fix(m, H(7), (15, 8))
    m.submit(c.Kick(H(7)))
    d12(m, Team.HOME, 1)
    d12(m, Team.AWAY, 12)
    with pytest.raises(RuleViolation, match="2 players from each tactical position"):
        m.submit(c.Substitute(A(2), A(8)))   # a defender for a midfielder
    m.submit(c.Substitute(A(2), A(13)))      # a defender for a defender


def test_every_phase_tells_the_coaches_what_to_do():
    import json
    seen = {}
    for m in (new_match(), kicked_off(), corner_for_home(), penalty_for_home()):
        s = m.summary()
        json.dumps(s)
        seen[s["phase"]] = [r["text"] for r in s["pending"]]
        assert s["pending"] and all(r["text"] for r in s["pending"])
    assert set(seen) == {"lineup", "play", "corner", "penalty"}
    assert "centre circle" in seen["lineup"][-1]
    assert "move a player, pass, kick to goal" in seen["play"][0]
    assert "corner slot" in seen["corner"][0]
    assert "out of the area" in seen["penalty"][0] and "penalty spot" in seen["penalty"][1]


def test_the_tablet_reads_a_figures_range():
    m = kicked_off()
    rules = m.ruleset
    reach = rules.reachable(m.state, H(6))   # (6, 2), movement 3
    assert (9, 2) in reach and (6, 5) not in reach and (10, 2) not in reach
    assert (3, 3) not in reach               # line 3 already holds four of Home's players
    assert rules.reachable(m.state, H(14)) == frozenset()  # a reserve
