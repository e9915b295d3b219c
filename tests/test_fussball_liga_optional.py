"""The optional rules, each switched on by consent: Goalkeeper's Save, Taking a Pass, Goal
Posts and Bonus Points (aces and wash-outs). Their tables are placeholders (data)."""

from __future__ import annotations

from companion.fussball_liga import commands as c
from companion.fussball_liga.model import Control, RestartKind
from companion.teams import Team

from fussball_liga_kit import DEEP, A, H, choose, dice, die, kicked_off, scene, to_turn_two


def keeper_intercepts(face_save, **options):
    m = to_turn_two(goalkeeper_save=True, **options)
    scene(m, {11: (22, 10)}, {1: (29, 11), 2: (28, 3)}, ball=(22, 10), holder=H(11))
    m.submit(c.Kick(H(11), (30, 10)))
    m.submit(c.Intercept(A(1), (29, 10)))
    die(m, Team.AWAY, 3)  # adjacent +1 (next to the target) +1 (goalkeeper): 5 -> ok
    req = m.pending()[0]
    assert req.kind == "dice" and "goalkeeper's save" in req.text
    die(m, Team.AWAY, face_save)
    return m


def test_goalkeepers_save_hold():
    m = keeper_intercepts(4)
    assert m.state.ball.holder == A(1) and m.state.ball.control is Control.HANDS


def test_goalkeepers_save_corner():
    m = keeper_intercepts(1)
    r = m.state.restart
    assert (r.kind, r.team, r.spot) == (RestartKind.CORNER, Team.HOME, (29, 19))


def test_goalkeepers_save_parry_drops_the_ball_back_along_its_path():
    m = keeper_intercepts(2)
    s = m.state
    assert s.ball.square == (28, 10) and s.ball.holder == A(1)  # next to him, nobody else near: he has it
    assert s.attacking is Team.AWAY


def test_the_save_roll_only_with_the_rule_on():
    m = to_turn_two()
    scene(m, {11: (22, 10)}, {1: (29, 11), 2: (28, 3)}, ball=(22, 10), holder=H(11))
    m.submit(c.Kick(H(11), (30, 10)))
    m.submit(c.Intercept(A(1), (29, 10)))
    die(m, Team.AWAY, 3)
    assert not m.state.queue and m.state.ball.holder == A(1)


# --- taking a pass ---------------------------------------------------------------------------------------

def pass_of_six(faces, receiver_at=(16, 10), target=(16, 10), home=None, away=None):
    m = to_turn_two(taking_a_pass=True)
    scene(m, {11: (10, 10), 7: receiver_at, **(home or {})}, {**DEEP, **(away or {})}, ball=(10, 10),
          holder=H(11))
    m.submit(c.Kick(H(11), target))
    req = m.pending()[0]
    assert req.kind == "dice" and req.dice.describe() == "2d6" and req.team is Team.HOME
    dice(m, Team.HOME, *faces)
    return m


def test_a_pass_is_taken_when_two_dice_beat_its_distance():
    m = pass_of_six((3, 4))  # 7 against 6
    assert m.state.ball.holder == H(7) and m.state.ball.control is Control.CLOSE


def test_a_pass_rebounds_to_the_first_empty_square_beyond_the_player():
    m = pass_of_six((3, 3), home={8: (17, 10)})  # 6 against 6: the ball bounces past #8's square
    s = m.state
    assert s.ball.square == (18, 10) and s.ball.holder == H(8) and s.ball.control is Control.LOOSE


def test_a_missed_pass_rolls_on_and_the_nearest_take_it():
    m = pass_of_six((1, 2), away={4: (20, 11)})  # 3 against 6: rolls on 3 squares to (19, 10)
    s = m.state
    assert s.ball.square == (19, 10) and s.ball.holder == A(4) and s.attacking is Team.AWAY


def test_a_missed_pass_may_leave_the_field():
    m = to_turn_two(taking_a_pass=True)
    scene(m, {11: (10, 6), 7: (10, 1)}, DEEP, ball=(10, 6), holder=H(11))
    m.submit(c.Kick(H(11), (10, 1)))
    dice(m, Team.HOME, 1, 1)  # 2 against 5: 3 squares on, over the touch line
    r = m.state.restart
    assert (r.kind, r.team, r.spot) == (RestartKind.THROW_IN, Team.AWAY, (10, -1))


def test_a_pass_next_to_the_receiver_rebounds_from_that_square():
    m = pass_of_six((3, 2), receiver_at=(17, 11), target=(16, 10))  # 5 against 6: rolls on 1 from (16, 10)
    assert m.state.ball.square == (17, 10) and m.state.ball.holder == H(7)


# --- goal posts ----------------------------------------------------------------------------------------

def post_shot(face_post, goal_posts=True):
    m = to_turn_two(goal_posts=goal_posts)
    scene(m, {11: (24, 1)}, {}, ball=(24, 1), holder=H(11))
    m.submit(c.Kick(H(11), (30, 7)))  # from (29, 6) into goal square (30, 7): across the post's edge
    die(m, Team.HOME, 6)  # on target
    if face_post is not None:
        req = m.pending()[0]
        assert "goal post" in req.text
        die(m, Team.HOME, face_post)
    return m


def test_a_shot_across_the_posts_edge_may_hit_the_post():
    m = post_shot(1)
    s = m.state
    assert s.score[Team.HOME] == 0 and s.ball.square == (29, 6) and s.ball.holder is None


def test_in_off_the_post():
    m = post_shot(3)
    assert m.state.score[Team.HOME] == 1


def test_no_post_roll_without_the_rule():
    m = post_shot(None, goal_posts=False)
    assert m.state.score[Team.HOME] == 1


# --- bonus points -------------------------------------------------------------------------------------

def test_an_aces_constant_bonus_counts_on_his_goal_shot():
    m = to_turn_two(bonus_points=True)
    scene(m, {9: (22, 10)}, {}, ball=(22, 10), holder=H(9))  # Rotstein's #9: ace, +1
    m.submit(c.Kick(H(9), (30, 10)))
    ask = m.state.queue[0]
    assert [x.value for x in ask.modifiers] == [1]
    die(m, Team.HOME, 4)  # 8 squares: needs 5
    assert m.state.score[Team.HOME] == 1


def test_a_wash_outs_bonus_is_applied_by_the_opponent():
    m = to_turn_two(bonus_points=True)
    scene(m, {11: (10, 10), 7: (18, 10)}, {**DEEP, 4: (14, 11)}, ball=(10, 10), holder=H(11))
    m.submit(c.Kick(H(11), (18, 10)))
    m.submit(c.Intercept(A(4), (14, 10)))  # Gruenwald's #4 is no wash-out; Rotstein's #4 is
    assert not any(r.kind == "choice" for r in m.pending())


def test_a_pool_ace_spends_his_points_a_roll_at_a_time():
    m = to_turn_two(bonus_points=True)
    scene(m, {10: (24, 10)}, {}, ball=(24, 10), holder=H(10))  # Rotstein's #10: ace, a pool of 2
    m.submit(c.Kick(H(10), (30, 10)))
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.HOME and req.options == ("none", "favour:1", "favour:2")
    choose(m, "favour:2")
    assert m.state.players[H(10)].pool_used == 2
    assert [x.value for x in m.state.queue[0].modifiers] == [2]
    die(m, Team.HOME, 1)  # 6 squares: needs 4; 1 + 2 = 3 misses
    assert m.state.restart.kind is RestartKind.GOAL_KICK


def test_the_opponent_decides_a_wash_outs_bonus_in_a_dribbling_interception():
    m = kicked_off(bonus_points=True)
    scene(m, {4: (13, 10)}, {5: (14, 11)}, ball=(14, 10), holder=H(4))  # Rotstein's #4: wash-out, 1
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Tackle(A(5)))
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is Team.AWAY  # the attacker's wash-out, decided by Away
    choose(m, "favour:1")  # in his favour: against the tackle
    assert [x.value for x in m.state.queue[0].modifiers] == [-1]


def test_the_optional_tables_are_reported_only_when_used():
    m = kicked_off()
    plain = m.summary()["placeholders"]
    m2 = kicked_off(goalkeeper_save=True, taking_a_pass=True, goal_posts=True, bonus_points=True)
    more = m2.summary()["placeholders"]
    assert len(more) == len(plain) + 3
    assert any("bonus characteristics" in n for n in more) and not any("bonus" in n for n in plain)
