"""The rulebook's numbers and tables, played through the rules: each printed row of the goal-shot
table, each bonus effect of the interception and dribbling tables, the automatic misses and
fouls, and the worked figures of the text (12 + 6 = 18 squares, 18 points a side, 6 a player,
2 a square in close control, 1 for each 45 degrees of the ball around the player)."""

from __future__ import annotations

import pytest

from companion.fussball_liga import commands as c
from companion.fussball_liga.model import Control, RestartKind
from companion.teams import Team

from fussball_liga_kit import DEEP, A, H, choose, die, kicked_off, pass_movement, scene, to_turn_two


def mods(m) -> dict[str, int]:
    ask = m.state.queue[0]
    return {x.label: x.value for x in ask.modifiers}


def test_one_shot_and_its_follow_up_cover_12_plus_6_18_squares():
    m = to_turn_two()
    scene(m, {11: (2, 2), 7: (14, 14), 8: (20, 14)}, {1: (29, 10), 2: (28, 3), 3: (27, 17)}, ball=(2, 2),
          holder=H(11))
    m.submit(c.Kick(H(11), (14, 14)))   # 12 squares diagonally
    m.submit(c.Kick(H(7), (20, 14)))    # the follow-up, 6 along the row
    s = m.state
    assert s.ball.holder == H(8) and s.ball.square == (20, 14)
    kicks = [e.payload for e in m.events if e.type == "fussball_liga.kick_taken"][-2:]
    assert sum(len(k.path) for k in kicks) == 18


@pytest.mark.parametrize("distance, needs", [(1, 1), (2, 2), (4, 3), (6, 4), (7, 5), (9, 5), (12, 6)])
def test_each_row_of_the_goal_shot_table(distance, needs):
    for face, scores in ((needs - 1, False), (needs, True)):
        if face < 1:
            continue
        m = to_turn_two()
        scene(m, {11: (30 - distance, 10)}, {}, ball=(30 - distance, 10), holder=H(11))
        m.submit(c.Kick(H(11), (30, 10)))
        die(m, Team.HOME, face)
        assert m.state.score[Team.HOME] == (1 if scores else 0), (distance, face)


def test_a_follow_up_counts_only_its_own_distance():
    m = to_turn_two()
    scene(m, {11: (16, 10), 7: (28, 10)}, {1: (29, 3), 2: (29, 16)}, ball=(16, 10), holder=H(11))
    m.submit(c.Kick(H(11), (28, 10)))
    m.submit(c.Kick(H(7), (30, 10)))  # 2 squares: hits on 2 or more
    die(m, Team.HOME, 2)
    assert m.state.score[Team.HOME] == 1


# --- the shot interception table's bonus effects ----------------------------------------------------------

def attempt(defender_at, square, kick=((10, 10), (20, 10)), receiver=True, keeper=False, **options):
    m = to_turn_two(**options)
    origin, target = kick
    home = {11: origin, **({7: target} if receiver else {})}
    away = {**DEEP, 6: (27, 17), (1 if keeper else 4): defender_at}
    scene(m, home, away, ball=origin, holder=H(11))
    m.submit(c.Kick(H(11), target))
    m.submit(c.Intercept(A(1) if keeper else A(4), square))
    return m


@pytest.mark.parametrize("square, effect", [
    ((11, 10), 1),    # next to the origin
    ((19, 10), 1),    # next to the target
    ((12, 10), -1),   # 2 from the origin
    ((15, 10), -2),   # more than 2 from both
])
def test_the_distance_bonus_effects(square, effect):
    m = attempt(square, square)
    assert sum(mods(m).values()) == effect


def test_the_goalkeeper_in_his_penalty_area_gets_plus_one():
    m = attempt((28, 10), (28, 10), kick=((20, 10), (30, 10)), receiver=False, keeper=True)
    assert mods(m) == {"2 squares from origin or target": -1, "goalkeeper in his goal or penalty area": 1}
    die(m, Team.AWAY, 3)  # through his square: 3 - 1 + 1 = 3 -> ok
    assert m.state.ball.holder == A(1) and m.state.ball.control is Control.HANDS


def test_the_goalkeeper_outside_his_area_has_no_privilege():
    m = attempt((15, 11), (15, 10), keeper=True)
    assert "goalkeeper in his goal or penalty area" not in mods(m)


def test_a_field_player_replacing_the_goalkeeper_gets_no_bonus():
    m = to_turn_two()
    scene(m, {11: (20, 10)}, {1: (29, 3), 2: (28, 9)}, ball=(20, 10), holder=H(11))
    m.submit(c.CallMisconduct(A(1), "other"))
    m.submit(c.CallMisconduct(A(1), "other"))  # sent off
    choose(m, "away#2")
    assert m.state.players[A(2)].stand_in
    # Home's indirect free-kick from (20, 10); the stand-in waits in the penalty area.
    m.submit(c.Move(A(2), (26, 9)))
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.Move(H(11), (19, 10)))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Kick(H(11), (27, 10)))
    m.submit(c.Intercept(A(2), (26, 10)))
    assert mods(m) == {"next to the ball's origin or target": 1}  # no goalkeeper's +1


@pytest.mark.parametrize("original, through, wins", [
    (1, True, False),   # an original 1 always loses, whatever the bonus
    (2, True, True),    # through (needs 3) with +1 next to the origin
    (4, False, True),   # adjacent (needs 5) with +1
    (3, False, False),
])
def test_the_interception_results_with_the_bonus(original, through, wins):
    m = attempt((11, 10) if through else (11, 11), (11, 10))
    die(m, Team.AWAY, original)
    assert (m.state.ball.holder == A(4)) is wins


# --- the dribbling table's bonus effects ---------------------------------------------------------------------

def tackle(attacker=(13, 10), ball=(14, 10), principal=(15, 10), supporters=(), fair_play=False, keeper=False):
    m = kicked_off()
    away = {(1 if keeper else 4): principal}
    for i, sq in enumerate(supporters):
        away[5 + i] = sq
    scene(m, {11: attacker}, away, ball=ball, holder=H(11))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Tackle(A(1) if keeper else A(4), tuple(A(5 + i) for i in range(len(supporters))), fair_play))
    return m


def test_no_committed_defender_next_to_the_attacker_is_minus_one():
    assert sum(mods(tackle()).values()) == -1


def test_each_supporting_defender_adds_one():
    m = tackle(supporters=((13, 11), (12, 9)))
    assert mods(m) == {"2 supporting defender(s)": 2}


def test_the_ball_dribbled_into_the_defenders_square_adds_two():
    m = tackle(attacker=(13, 10), ball=(14, 10), principal=(14, 10))
    assert mods(m) == {"ball dribbled into the defender's square": 2}


def test_the_goalkeeper_in_his_goal_area_adds_one_and_fair_play_takes_one():
    m = tackle(attacker=(26, 10), ball=(27, 10), principal=(28, 10), keeper=True)  # not in his goal area
    assert mods(m) == {"no committed defender next to the attacker": -1}
    m2 = tackle(attacker=(27, 10), ball=(28, 10), principal=(29, 10), keeper=True, fair_play=True)
    assert mods(m2) == {"no committed defender next to the attacker": -1, "goalkeeper in his goal or goal area": 1,
                        "fair play": -1}


@pytest.mark.parametrize("close, original, bonus_ok", [(False, 3, True), (True, 4, False), (True, 5, True)])
def test_wide_control_loses_the_ball_on_three_close_on_five(close, original, bonus_ok):
    m = kicked_off()
    scene(m, {11: (13, 10)}, {4: (14, 11)}, ball=(13, 10) if close else (14, 10), holder=H(11))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Tackle(A(4)))
    assert sum(mods(m).values()) == 0
    die(m, Team.AWAY, original)
    assert (m.state.ball.holder == A(4)) is bonus_ok


def test_an_original_two_is_a_foul_only_with_a_defender_next_to_the_attacker():
    m = tackle(attacker=(13, 10), ball=(14, 10), principal=(15, 10))  # not next to the attacker
    die(m, Team.AWAY, 2)
    assert m.state.players[A(4)].fouls == 0 and m.state.restart is None and not m.state.queue
    m = tackle(attacker=(13, 10), ball=(14, 10), principal=(14, 11))
    die(m, Team.AWAY, 2)
    assert m.state.players[A(4)].fouls == 1 and m.state.players[A(4)].yellow == 0


@pytest.mark.parametrize("original, fair_play, wins, fouls", [
    (1, True, True, 0),    # 1 + 2 - 1 = 2 with a supporter: 3, "ok" in the wide row
    (2, True, True, 0),    # 4: "ok"
    (1, False, False, 1),  # no fair play: the original 1 is a foul (and a yellow card)
    (2, False, False, 1),  # the original 2 is a foul
])
def test_an_original_one_or_two_without_a_foul_reads_the_modified_result(original, fair_play, wins, fouls):
    """LV30: the headings are modified results ("d1-", "d6+", "Effects given below,
    cumulative"); the original roll only decides the foul ("An original die roll of "1" or
    "2" is a foul if ... the defender did not declare 'fair play'"). The ball, in wide control,
    is dribbled through the principal's square (+2), one supporter stands next to the attacker
    (+1), and fair play takes one: an original 1 reads 3 and wins the ball."""
    m = tackle(attacker=(13, 10), ball=(14, 10), principal=(14, 10), supporters=((13, 11),), fair_play=fair_play)
    assert sum(mods(m).values()) == (2 if fair_play else 3)
    die(m, Team.AWAY, original)
    assert (m.state.ball.holder == A(4)) is wins
    assert m.state.players[A(4)].fouls == fouls


# --- movement figures -------------------------------------------------------------------------------------

def test_close_control_costs_2_a_square_and_the_ball_1_for_each_45_degrees():
    m = kicked_off()
    scene(m, {11: (12, 12)}, {}, ball=(12, 12), holder=H(11))
    m.submit(c.Move(H(11), (14, 12)))           # 2 squares with the ball: 4 points
    m.submit(c.MoveBall(H(11), (15, 12)))       # out to a front square: 1
    m.submit(c.MoveBall(H(11), (15, 13)))       # 45 degrees: 1
    assert m.state.movement.spent[Team.HOME] == 6
    assert m.state.movement.by_player[H(11)] == 6


def test_a_defender_may_answer_with_up_to_what_the_attacker_spent_and_all_in_his_last_step():
    m = kicked_off()
    scene(m, {11: (12, 12), 2: (4, 3)}, {4: (20, 7), 5: (20, 3), 6: (20, 15), 7: (20, 11)}, ball=(12, 12),
          holder=H(11))
    m.submit(c.Move(H(2), (7, 3)))  # 3
    m.submit(c.Move(A(4), (19, 7)))
    m.submit(c.Move(A(5), (18, 3)))  # 1 + 2 = 3: all the attacker has spent
    m.submit(c.PassTurn(Team.AWAY))
    m.submit(c.PassTurn(Team.HOME))  # no more: Away's last step may spend the other 15
    for ref, to in ((A(6), (14, 15)), (A(7), (14, 11)), (A(5), (15, 3))):
        if ref == A(5):
            break
        m.submit(c.Move(ref, to))
    assert m.state.movement.spent[Team.AWAY] == 15
    m.submit(c.PassTurn(Team.AWAY))
    assert m.state.turn_no == 2


def test_a_pass_to_a_defenders_square_is_his_ball():
    m = to_turn_two()
    scene(m, {11: (10, 10)}, {**DEEP, 4: (16, 10)}, ball=(10, 10), holder=H(11))
    m.submit(c.Kick(H(11), (16, 10)))
    m.submit(c.PassTurn(Team.AWAY))
    assert m.state.attacking is Team.AWAY and m.state.ball.holder == A(4)
    pass_movement(m)


def test_a_foul_in_the_penalty_area_is_a_penalty_kick():
    m = tackle(attacker=(27, 10), ball=(28, 10), principal=(28, 11))
    die(m, Team.AWAY, 2)
    choose(m, "penalty_kick")
    assert m.state.restart.kind is RestartKind.PENALTY


# --- LV19: "the target may be any space of the playing field, plus the 6+6 goal squares" ----------

def test_a_back_pass_to_the_goalkeeper_standing_in_his_goal():
    """"You may pass the ball to your own goal-keeper": also where he stands in one of his
    goal squares; he plays it like any other player (close control, not in his hands)."""
    m = to_turn_two()
    scene(m, {11: (3, 9), 1: (-1, 9)}, DEEP, ball=(3, 9), holder=H(11))
    m.submit(c.Kick(H(11), (-1, 9)))
    s = m.state
    assert s.ball.holder == H(1) and s.ball.control is Control.CLOSE and s.score[Team.AWAY] == 0
    assert "follow-up" in m.pending()[0].text   # he may move it on like any attacker in the target square


@pytest.mark.parametrize("face, own_goal", [(5, True), (1, False)])
def test_a_shot_at_the_own_goal_scores_for_the_other_side_or_gives_them_a_corner(face, own_goal):
    m = to_turn_two()
    scene(m, {11: (3, 10), 1: (-1, 8)}, DEEP, ball=(3, 10), holder=H(11))
    m.submit(c.Kick(H(11), (-1, 10)))            # 4 squares: "hit" on 3 or more
    assert "goal shot by home#11 from 4 squares (hits on 3+)" in m.pending()[0].text
    die(m, Team.HOME, face)
    s = m.state
    if own_goal:
        assert s.score == {Team.HOME: 0, Team.AWAY: 1}
        assert m.summary()["goals"][-1]["scorer"] is None
    else:
        assert s.score[Team.AWAY] == 0
        assert (s.restart.kind, s.restart.team) == (RestartKind.CORNER, Team.AWAY)
