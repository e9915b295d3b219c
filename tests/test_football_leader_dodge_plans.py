"""Planning a ball carrier's dodges before he moves (movement.plan_move, asked by the tablet):
the dodges the rules will then ask for, in order, with who could support each (4.1, 4.2).

The situation (Home defends x = 0, so a step to a higher row is forward): Home's #10 (GOLD
dodge and movement, no abilities) has the ball in C3 [2, 2] with his teammate #3 and two Away
defenders (#2, #4, defence 6 each: difficulty 6 + 6 + 6 = 18); D3 [3, 2] holds Home's #9 and
Away's #10.
"""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader.components import Colour, shipped_team
from companion.football_leader.model import DodgeCardCtx, DodgePlan, MoveDodgeCtx
from companion.football_leader.movement import dodges_needed, plan_move
from companion.football_leader.pitch import Step
from companion.teams import Team
from football_leader_kit import A, C, H, choose, d12, give_ball, new_match, place, to_kick_off, with_counter

C3, C2, B3, D3, E3 = (2, 2), (2, 1), (1, 2), (3, 2), (4, 2)


def carrier_match(supporter_pass: str = "gold"):
    home = with_counter(shipped_team("lions"), 10, dodge="gold", movement="gold", abilities=())
    home = with_counter(home, 3, passing=supporter_pass)
    m = new_match(home=home)
    to_kick_off(m, kicker=9)          # the start-up rule binds #9, not #10
    place(m, H(8), B3)                # C3: #10 and #3 only, of Home
    place(m, H(10), C3)
    place(m, H(3), C3)
    place(m, A(2), C3)
    place(m, A(4), C3)
    give_ball(m, H(10))
    return m


def walk_without_plans(m, to, cards=("gold-4-11", "gold-4-12")):
    """Move #10 with no plans and answer the rules' questions as they come (every dodge a
    success): the spaces the rules asked a dodge for, with each dodge's difficulty."""
    m.submit(c.Move(H(10), to, C("gold-3-9")))
    asked = []
    for card in cards:
        head = m.state.queue[0] if m.state.queue else None
        if head is None or not isinstance(head.ctx, DodgeCardCtx):
            break
        leaving = head.ctx.leaving
        choose(m, card)
        roll = m.state.queue[0]
        assert isinstance(roll.ctx, MoveDodgeCtx) and roll.ctx.leaving == leaving
        asked.append((leaving, roll.tests[0].difficulty))
        d12(m, Team.HOME, 12)
    return asked


# --- the query agrees with the rules -------------------------------------------------------------------

@pytest.mark.parametrize("to", [D3, E3, C2, B3, (3, 3)])
def test_the_plan_lists_the_dodges_the_rules_then_ask_for_in_order(to):
    m = carrier_match()
    plan = plan_move(m.state, H(10), to)
    assert plan is not None and plan.path[-1] == to
    start = m.state.players[H(10)].space
    assert [d.leaving for d in plan.dodges] == [sp for sp, _ in dodges_needed(m.state, H(10), start, plan.path)]
    asked = walk_without_plans(m, to)
    assert asked == [(d.leaving, d.difficulty) for d in plan.dodges]
    assert m.state.players[H(10)].space == to and m.state.ball == H(10)


def test_two_dodges_forward_name_defenders_difficulties_and_supporters():
    m = carrier_match(supporter_pass="silver")
    plan = plan_move(m.state, H(10), E3)
    assert plan.path == (D3, E3) and plan.cost == 2
    first, second = plan.dodges
    assert (first.leaving, first.step, first.defenders) == (C3, Step.FORWARD, (A(2), A(4)))
    assert (first.difficulty, first.supported_difficulty) == (18, 9)
    # #3 passes SILVER, #10 dodges GOLD: his support costs a SILVER card.
    assert [(o.supporter, o.colour) for o in first.supporters] == [(H(3), Colour.SILVER)]
    assert (second.leaving, second.defenders) == (D3, (A(10),))
    assert [o.supporter for o in second.supporters] == [H(9)]


def test_sideways_and_backward_steps():
    m = carrier_match()
    side = plan_move(m.state, H(10), C2)
    assert [(d.leaving, d.step) for d in side.dodges] == [(C3, Step.SIDEWAYS)]
    assert side.dodges[0].difficulty == 9 and side.dodges[0].supporters == ()   # 4.2: forward only
    assert plan_move(m.state, H(10), B3).dodges == ()                           # backward is free
    with pytest.raises(RuleViolation, match="only in forward movements"):
        m.submit(c.Move(H(10), C2, C("gold-3-9"), dodges=(DodgePlan(C("gold-4-11"), H(3)),)))


def test_a_counter_without_the_ball_dodges_nothing_and_a_path_is_followed_or_refused():
    m = carrier_match()
    assert plan_move(m.state, H(3), D3).dodges == ()
    given = plan_move(m.state, H(10), (3, 3), path=((2, 3), (3, 3)))   # sideways to C4, then forward
    assert plan_move(m.state, H(10), (3, 3)).path == ((3, 3),)
    assert given.path == ((2, 3), (3, 3)) and [d.leaving for d in given.dodges] == [C3]
    assert given.dodges[0].step is Step.SIDEWAYS
    assert plan_move(m.state, H(10), D3, path=(E3,)) is None        # not touching
    assert plan_move(m.state, H(10), C3) is None                    # where he stands


def test_an_unmarked_carrier_leaves_his_space_freely():
    m = carrier_match()
    m.submit(c.Dodge(C("gold-4-12")))
    d12(m, Team.HOME, 12)
    assert q.is_unmarked(m.state, H(10))
    assert plan_move(m.state, H(10), D3).dodges == ()


# --- a supported plan from the query -------------------------------------------------------------------

def test_a_free_support_from_the_plan_halves_the_dodge_to_9():
    """Fig. 9: "he immediately gets the benefit of a supported dodge and thus difficulty value
    is halved to 9"."""
    m = carrier_match("gold")
    need = plan_move(m.state, H(10), D3).dodges[0]
    option = need.supporters[0]
    assert option.supporter == H(3) and option.colour is None
    hand = m.state.cards[Team.HOME].hand
    m.submit(c.Move(H(10), D3, C("gold-3-9"), path=plan_move(m.state, H(10), D3).path,
                    dodges=(DodgePlan(C("gold-4-11"), option.supporter),)))
    roll = m.state.queue[0]
    assert roll.tests[0].difficulty == need.supported_difficulty == 9
    assert "supported forward dodge" in roll.tests[0].label
    assert m.state.cards[Team.HOME].hand == hand - 2          # the move's card and the dodge's
    d12(m, Team.HOME, 2)                                      # 2 + 11 >= 9
    assert m.state.players[H(10)].space == D3 and m.state.ball == H(10)
    assert m.state.turn.supported
    # The turn's one supported dodge is used: no one is offered again.
    assert all(not d.supporters for d in plan_move(m.state, H(10), E3).dodges)


def test_a_paid_support_and_an_unsupported_second_dodge():
    """"it would have been necessary to spend a SILVER extra card"; "no more than ONE of them can
    be supported" (the second dodge goes unsupported, on its own card)."""
    m = carrier_match("silver")
    plan = plan_move(m.state, H(10), E3)
    first, second = plan.dodges
    colour = first.supporters[0].colour
    assert colour is Colour.SILVER
    with pytest.raises(RuleViolation, match="SILVER"):
        m.submit(c.Move(H(10), E3, C("gold-3-9"), path=plan.path,
                        dodges=(DodgePlan(C("gold-4-11"), H(3)), DodgePlan(C("gold-4-12")))))
    with pytest.raises(RuleViolation, match="no more than one"):
        m.submit(c.Move(H(10), E3, C("gold-3-9"), path=plan.path,
                        dodges=(DodgePlan(C("gold-4-11"), H(3), C("silver-3-9")),
                                DodgePlan(C("gold-4-12"), H(9), C("silver-4-12")))))
    hand = m.state.cards[Team.HOME].hand
    m.submit(c.Move(H(10), E3, C("gold-3-9"), path=plan.path,
                    dodges=(DodgePlan(C("gold-4-11"), H(3), C("silver-3-9")), DodgePlan(C("gold-4-12")))))
    assert m.state.queue[0].tests[0].difficulty == first.supported_difficulty
    d12(m, Team.HOME, 12)
    assert m.state.queue[0].tests[0].difficulty == second.difficulty      # the second: its card, no question
    d12(m, Team.HOME, 12)
    assert m.state.players[H(10)].space == E3
    assert m.state.cards[Team.HOME].hand == hand - 4


def test_a_plan_for_the_first_dodge_only_leaves_the_second_to_be_asked():
    m = carrier_match("gold")
    plan = plan_move(m.state, H(10), E3)
    m.submit(c.Move(H(10), E3, C("gold-3-9"), path=plan.path, dodges=(DodgePlan(C("gold-4-11"), H(3)),)))
    d12(m, Team.HOME, 12)
    head = m.state.queue[0]
    assert isinstance(head.ctx, DodgeCardCtx) and head.ctx.leaving == plan.dodges[1].leaving
