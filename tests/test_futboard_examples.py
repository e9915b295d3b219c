"""The rulebook's own examples, tables and FAQ answers (futboard.txt), through the rules core.

Each test quotes the sentence it checks. The text prints one table (the penalty groups in
the goal); the tile and field values it refers to are box data, checked in
test_futboard_components.py.
"""

from __future__ import annotations

import itertools

import pytest

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.futboard import commands as c
from companion.futboard import queries as q
from companion.futboard.components import load_components, shipped_team
from companion.futboard.model import PENALTY_GROUPS, KickOff, Options, Phase, Variant
from companion.futboard.penalty import group
from companion.futboard.rules import FutboardRules
from companion.match import Match
from companion.teams import Team

from futboard_kit import A, H, d12, end_turn, fix, kicked_off, lineup, new_match, with_tile

# --- Penalty: "These numbers are indicated in the goal: 1 2 3 4 / 5 6 7 8 / 9 10 11 12." ---------------


def test_the_goal_is_printed_in_three_groups_of_four():
    assert PENALTY_GROUPS == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))
    assert [group(f) for f in range(1, 13)] == [0] * 4 + [1] * 4 + [2] * 4


@pytest.mark.parametrize("kick, keeper", list(itertools.product(range(1, 13), repeat=2)))
def test_every_pair_of_penalty_rolls(kick, keeper):
    """"If the numbers they get are from different groups ... it's Goal! ... If the numbers
    are from the same group, the goalkeeper defended the kick!" """
    m = PENALTY_MATCH.copy()
    d12(m, Team.HOME, kick)
    d12(m, Team.AWAY, keeper)
    scored = (kick - 1) // 4 != (keeper - 1) // 4
    assert m.state.score[Team.HOME] == int(scored)
    assert m.state.phase is (Phase.LINEUP if scored else Phase.PLAY)


class _Snapshot:
    """A match rebuilt for each case from the events of one penalty set up by the flow tests
    (the fold is the state)."""

    def __init__(self) -> None:
        self.events = None

    def copy(self) -> Match:
        if self.events is None:
            from test_futboard_flow import cleared_penalty
            self.events = cleared_penalty().events
        return Match.from_events(FutboardRules(), self.events)


PENALTY_MATCH = _Snapshot()


# --- B. Kick: "if you get a number between Nº1 and the Total Number of your kick accuracy, you hit
# the goal ... Subtract the total penalty from the field space on your kick." --------------------------

@pytest.mark.parametrize("line, penalty", [(10, 4), (11, 3), (12, 3), (13, 2), (14, 2), (15, 1), (16, 1), (17, 0),
                                           (18, 0), (19, 0)])
def test_the_further_from_goal_the_lower_the_accuracy(line, penalty):
    m = kicked_off(to=8)
    fix(m, H(8), (line, 12))
    m.submit(c.Kick(H(8)))
    ctx = m.state.queue[0].ctx
    assert (ctx.accuracy, ctx.penalty) == (7, penalty)
    assert m.state.queue[0].tests[0].target == 7 - penalty


@pytest.mark.parametrize("kick, keeper, outcome", [
    (6, 1, "defended"), (6, 8, "defended"), (6, 9, "GOAL"), (6, 6, "corner"), (7, 7, "misses"), (12, 3, "misses"),
    (1, 12, "GOAL"),
])
def test_a_kick_against_the_goalkeepers_defence(kick, keeper, outcome):
    """Kick accuracy 7 - 1 = 6 against defence 8 - 0 = 8. "If the goalkeeper cannot get a number
    between Nº1 and the Total number of his defensive force when rolling the dice, it is GOAL!" """
    m = kicked_off(to=8)
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.AWAY, keeper)
    if m.state.queue:
        d12(m, Team.HOME, kick)
    s = m.state
    if outcome == "GOAL":
        assert s.score[Team.HOME] == 1 and s.restart == KickOff(Team.AWAY)
    elif outcome == "corner":
        assert s.phase is Phase.CORNER
    else:
        assert s.ball == A(1) and s.turn is Team.AWAY and outcome in s.last_outcome


def test_a_missed_kick_needs_no_goalkeeper_roll():
    """FAQ: "If a player misses his kick goal, the goalkeeper no longer needs to roll his dice. In
    this case the goalkeeper will remain with the possession of the ball in any case." """
    m = kicked_off(to=8)
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 11)
    assert m.pending()[0].id == "turn" and m.state.ball == A(1) and m.state.turn is Team.AWAY


def test_moving_the_goalkeeper_may_decrease_his_defence():
    """FAQ: "If you move your Goalkeeper, your Defense Force may decrease. This is indicated in
    the spaces of the field near the goal." """
    m = kicked_off(to=8)
    end_turn(m)
    m.submit(c.Move(A(1), (18, 8)))      # 1 line out, 2 rows off centre: reduction 1
    end_turn(m)
    fix(m, H(8), (15, 11))
    m.submit(c.Kick(H(8)))
    ctx = m.state.queue[0].ctx
    assert (ctx.defence, ctx.reduction) == (8, 1)


# --- D. Take the Ball: "if you get the number indicated on the left side of the tile, X 12, it is a
# foul and you get a yellow card" ----------------------------------------------------------------------

def test_x_12_is_a_foul_even_for_the_strongest_tile():
    strong = with_tile(shipped_team("mare"), 7, strength=12)
    m = kicked_off(to=8, away=strong)
    fix(m, H(8), (8, 8))
    fix(m, A(7), (9, 8))
    end_turn(m)
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 12)
    assert m.state.players[A(7)].yellow == 1 and m.state.ball == H(8)


def test_the_same_player_may_try_again_but_moves_once():
    """FAQ: "The action of trying to take out the ball can be made more than once on your turn by
    the same player, but each of your players can only move once per turn." """
    m = kicked_off(to=8)
    fix(m, H(8), (8, 8))
    end_turn(m)
    fix(m, A(7), (10, 8))
    m.submit(c.Move(A(7), (9, 7)))
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 10)
    with pytest.raises(RuleViolation, match="moves once a turn"):
        m.submit(c.Move(A(7), (9, 8)))
    m.submit(c.TakeBall(A(7)))
    d12(m, Team.AWAY, 11)
    assert m.state.turn is Team.HOME  # three actions used: a move and two tries


# --- C. Movement and the FAQ on dribbling ------------------------------------------------------------

def test_a_player_without_dribble_and_without_the_ball_passes_alongside_opponents():
    """FAQ: "A player without dribble, but who is without the ball, will have no problem
    continuing his movement after passing alongside an opponent." """
    m = kicked_off(to=8)
    fix(m, H(6), (8, 2))
    fix(m, A(2), (10, 3))
    m.submit(c.Move(H(6), (11, 5)))       # #6 has no dribble symbol, and no ball
    assert m.state.players[H(6)].space == (11, 5)


def test_a_marked_carrier_without_dribble_may_leave_then_stops_at_the_next_opponent():
    """FAQ: "A player without dribble with the possession of the ball that is adjacent to two or
    more opponents may move to leave this position, but after that, when encountering an
    opponent, he must end his movement." """
    m = kicked_off(to=8, home=with_tile(shipped_team("estrela"), 8, dribble=False))
    fix(m, H(8), (8, 8))
    fix(m, A(7), (9, 7))
    fix(m, A(8), (9, 9))
    assert len(q.opponents_adjacent(m.state, H(8))) == 2
    fix(m, A(6), (6, 8))
    with pytest.raises(RuleViolation, match="no dribble symbol"):
        m.submit(c.Move(H(8), (5, 10)))    # both ways out pass next to away#6
    m.submit(c.Move(H(8), (7, 9)))         # he leaves the two markers and stops by away#6
    assert m.state.players[H(8)].space == (7, 9)


def test_a_player_cannot_move_over_another():
    """"You are not allowed to move over another player." """
    m = kicked_off()
    with pytest.raises(RuleViolation, match="taken by"):
        m.submit(c.Move(H(3), (3, 7)))


def test_moving_from_outside():
    """"You can move from outside the field if you are locked ahead, but you cannot end your
    movements and stay outside of the field." """
    m = kicked_off()
    fix(m, H(5), (3, 12))
    with pytest.raises(RuleViolation, match="outside the field"):
        m.submit(c.Move(H(5), (4, 13)))
    fix(m, A(10), (4, 12))
    fix(m, A(5), (4, 11))
    m.submit(c.Move(H(5), (5, 12)))        # round away#10 through (4, 13), outside
    assert m.state.players[H(5)].space == (5, 12)


# --- Start, Street and the other FAQ answers -----------------------------------------------------------

def test_the_first_action_is_a_pass():
    """"Position a player with the ball inside the Central Circle. Your first action should be a
    pass to another player in your team." """
    m = new_match()
    lineup(m)
    for cmd in (c.Move(H(9), (9, 7)), c.Kick(H(9)), c.EndTurn(Team.HOME)):
        with pytest.raises(RuleViolation, match="round has not started"):
            m.submit(cmd)
    m.submit(c.Pass(H(9), H(11)))
    assert m.state.ball == H(11)


def test_street_has_six_plus_a_goalkeeper_two_of_each_position():
    m = new_match(Variant.STREET)
    on = [p.tile.position.value for p in m.state.players.values() if p.on_field and p.ref.team is Team.HOME]
    assert sorted(on) == ["attacker", "attacker", "defender", "defender", "goalkeeper", "midfielder", "midfielder"]


def test_the_street_board_plays_the_original_game_ignoring_the_yellow_lines():
    """FAQ: "You can use the Futboard Street board to play the original Futboard with 10 players
    plus the Goalkeeper. Just ignore the yellow lines." """
    m = Match(FutboardRules())
    m.submit(c.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(board="street"),
                           Options(goal_limit=2)))
    lineup(m)
    m.submit(c.Pass(H(9), H(8)))
    m.submit(c.Move(H(2), (4, 1)))          # beyond the yellow lines: fine in the original game
    assert m.state.players[H(2)].space == (4, 1)


def test_a_reserve_comes_on_before_the_restart_after_a_goal():
    """FAQ: "You can replace a player in the field with a reserve before restarting after a goal." """
    m = kicked_off(to=8)
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 2)
    d12(m, Team.AWAY, 10)
    assert m.state.phase is Phase.LINEUP
    m.submit(c.Substitute(H(9), H(16)))
    assert m.state.players[H(16)].on_field and not m.state.players[H(9)].on_field
    with pytest.raises(RuleViolation, match="reserve"):
        m.submit(PlaceFigure(H(9), square=(5, 5)))


def test_the_goal_tokens_count_the_goals():
    """"Use the round tokens to indicate the amount of goals you have scored." """
    m = kicked_off(to=8)
    fix(m, H(8), (15, 9))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 2)
    d12(m, Team.AWAY, 10)
    assert m.summary()["score"] == {"home": 1, "away": 0}
    assert m.summary()["goals"] == [{"team": "home", "scorer": "home#8", "how": "kick", "turn": 1}]
