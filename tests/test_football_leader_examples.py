"""Every worked example and printed table of football-leader.txt, as tests.

Each test quotes the example it checks. Difficulty arithmetic is tested on the pure
functions and again through a match where the example is a situation on the board.
"""

from __future__ import annotations

import pytest

from companion.football_leader import commands as c
from companion.football_leader.cards import allowance, bonus, draw_count, read
from companion.football_leader.components import Colour, Trait, load_components, load_deck
from companion.football_leader.difficulty import (FOUL_TABLE, dodge_difficulty, direct_kick_difficulty, foul_check,
                                                  move_dodge_difficulty, pass_difficulty, penalty_difficulty,
                                                  shot_difficulty, tackle_difficulty)
from companion.football_leader.model import Stage
from companion.football_leader.pitch import ShootNumbers, Step
from companion.dice import DieKind, roll_of
from companion.teams import Team
from football_leader_kit import A, C, H, choose, d12, new_match, place, to_kick_off, with_counter

from companion.football_leader.components import shipped_team

BOARD = load_components().board


def defenders(counts):
    return lambda space: counts.get(space, 0)


# --- 1.6 Dice -----------------------------------------------------------------------------------

def test_two_dice_keep_the_best_and_only_the_black_one_misses():
    """"a dice roll with a result of 1 in the White dice and 12 in the black one, would be a
    12, but it would be an automatic miss if the opposite result happens"."""
    white_one = roll_of(DieKind.D12, 12, 1, colours=("black", "white"))
    black_one = roll_of(DieKind.D12, 1, 12, colours=("black", "white"))
    assert read(white_one, "best") == (12, False)
    assert read(black_one, "best") == (12, True)
    # The order the dice arrive in does not matter: the colour names the black die.
    assert read(roll_of(DieKind.D12, 12, 1, colours=("white", "black")), "best") == (12, True)


def test_a_single_1_is_always_a_miss():
    """"Even most simple actions will need a dice roll because a result of 1 it is always
    considered a miss"."""
    assert read(roll_of(DieKind.D12, 1), "best") == (1, True)
    assert read(roll_of(DieKind.D12, 2), "best") == (2, False)


# --- 1.7 Action Cards, fig. 7 ------------------------------------------------------------------------

PRINTED = [  # fig. 7 as printed: movement-bonus, GOLD, SILVER, BRONZE (the 2-6 row stops after GOLD)
    (4, 12, 2, 1, 1), (4, 11, 3, 2, 1), (4, 10, 2, 1, 1), (3, 9, 3, 2, 1), (3, 8, 2, 1, 1), (3, 7, 3, 2, 1)]


def test_the_printed_rows_of_the_card_distribution():
    deck = load_deck()
    rows = {(r.move, r.bonus): r for r in deck.rows}
    for move, bonus_, gold, silver, bronze in PRINTED:
        r = rows[(move, bonus_)]
        assert (r.gold, r.silver, r.bronze, r.placeholder) == (gold, silver, bronze, False)
    assert rows[(2, 6)].gold == 2 and rows[(2, 6)].placeholder
    # The printed rows add up to 17 gold, 9 silver, 6 bronze.
    assert [sum(row[i] for row in PRINTED) + (2 if i == 2 else 0) for i in (2, 3, 4)] == [17, 9, 6]


def test_a_deck_holds_50_cards_25_gold_15_silver_10_bronze():
    """"Notice that there are 25 GOLD cards, 15 SILVER cards and 10 BRONZE cards"."""
    counts = load_deck().counts()
    assert sum(counts.values()) == 50
    by_colour = {colour: sum(n for card, n in counts.items() if card.colour is colour) for colour in Colour}
    assert by_colour == {Colour.GOLD: 25, Colour.SILVER: 15, Colour.BRONZE: 10}


def test_the_cards_the_examples_play_are_in_the_deck():
    counts = load_deck().counts()
    for name in ("gold-4-12", "silver-4-10", "gold-4-11", "bronze-3-7", "gold-3-8", "gold-2-5", "bronze-2-5"):
        assert counts.get(C(name), 0) > 0, name


# --- 2.1 colour matching and minimum values ------------------------------------------------------------

def test_colour_example_1_a_bronze_card_moves_a_gold_mover_one_space():
    """"a player-counter with movement GOLD-3 that plays a BRONZE-3-7 card can only move one space"."""
    assert allowance(Trait.from_json("gold-3"), C("bronze-3-7")) == 1


def test_colour_example_2_a_gold_card_gives_a_gold_passer_its_bonus():
    """"a player-counter with GOLD pass characteristic that plays a GOLD-3-8 card ... will have a +8 bonus"."""
    assert bonus(Trait.from_json("gold"), C("gold-3-8")) == 8


def test_minimum_example_1_movement():
    """"movement GOLD-3 that plays a GOLD-2-5 card ... capable of moving up to 3 spaces, instead of 2"."""
    assert allowance(Trait.from_json("gold-3"), C("gold-2-5")) == 3


def test_minimum_example_2_pass():
    """"GOLD-7 passing characteristic that plays a GOLD-2-5 card ... will have a +7 bonus"."""
    assert bonus(Trait.from_json("gold-7"), C("gold-2-5")) == 7


def test_minimum_applies_only_with_the_matching_colour():
    """"GOLD-7 pass characteristic that plays a BRONZE-2-5 card ... will have a +0 bonus"."""
    assert bonus(Trait.from_json("gold-7"), C("bronze-2-5")) == 0


def test_outburst_moves_two_spaces_with_any_card():
    assert allowance(Trait.from_json("gold-3"), C("bronze-3-7"), outburst=True) == 2


def test_the_defence_number_is_not_a_minimum():
    """"the value for Defence characteristic is NOT a minimum"; tackles add only the card's bonus."""
    assert bonus(Trait.from_json("gold-7"), C("gold-2-5"), minimum=False) == 5


def test_the_draw_rule():
    """"draw a maximum of two cards from the deck, or just one in case of having already four"."""
    assert [draw_count(n) for n in range(0, 7)] == [2, 2, 2, 2, 1, 0, 0]


# --- 3.3 Pass, fig. 7 ---------------------------------------------------------------------------------

def test_pass_step_values():
    """"4 for each space forwards (or backwards), 3 for each space across the pitch sideways or 2
    if the path crosses a dotted line"."""
    none = defenders({})
    assert pass_difficulty(BOARD, (2, 2), (3, 2), True, none).total == 4       # forward
    assert pass_difficulty(BOARD, (3, 2), (2, 2), True, none).total == 4       # backward
    assert pass_difficulty(BOARD, (2, 1), (2, 2), True, none).total == 3       # sideways
    assert pass_difficulty(BOARD, (3, 1), (3, 0), True, none).total == 2       # across a dotted line


def test_fig7_pass_example_arithmetic():
    """"The pass goes through three spaces, one forward and two spaces sideways, crossing a
    dotted line. Difficulty value for the action is therefore 9 for the distance and 9 for the
    defending players, two of them in origin and one in destination spaces, to a total
    difficulty of 18." (#10 in C3, #3 in the halved space D6.)"""
    d = pass_difficulty(BOARD, (2, 2), (3, 5), True, defenders({(2, 2): 2, (3, 5): 1, (3, 4): 2}))
    assert d.distance == 9 and len(d.path) == 3
    assert (d.origin_defenders, d.dest_defenders) == (2, 1)
    assert d.total == 18   # the two defenders in D5, on the way, are not counted
    assert d.total - C("silver-4-10").bonus == 8  # "A SILVER-4-10 is used so a 8 or more ... is needed"


def test_passing_backwards_leaves_out_the_origin_defenders():
    d = pass_difficulty(BOARD, (3, 2), (2, 2), True, defenders({(3, 2): 2}))
    assert d.backward and d.total == 4


def fig7_match(face: int):
    """#10 (SILVER pass) in C3 with two Away defenders; #3 in D6 with one; SILVER-4-10."""
    home = with_counter(shipped_team("lions"), 10, passing="silver", abilities=())
    home = with_counter(home, 3, abilities=())  # no Ball Control: one die
    m = new_match(home=home)
    to_kick_off(m, kicker=10)
    place(m, H(10), (2, 2))
    place(m, H(3), (3, 5))
    place(m, A(2), (2, 2))
    place(m, A(4), (2, 2))
    place(m, A(3), (3, 5))
    for n in (5, 6, 7, 8, 9, 10, 11):  # the others keep out of the way (and keep #3 onside)
        place(m, A(n), (6, 0) if n % 2 else (6, 4))
    place(m, A(9), (4, 2))
    m.submit(c.Pass(H(3), C("silver-4-10")))
    request = m.pending()[0]
    assert "difficulty 18, card bonus +10" in request.text and "8 or more" in request.text
    d12(m, Team.HOME, face)
    return m


def test_fig7_pass_made_with_an_8():
    m = fig7_match(8)
    assert m.state.ball == H(3)
    assert m.state.turn.stage is Stage.PASSED


def test_fig7_pass_missed_with_a_7_goes_to_the_defender_at_the_destination():
    """"otherwise defending player #3 will get the ball as stated in the first case of a missed pass"."""
    m = fig7_match(7)
    assert m.state.ball == A(3)
    assert m.state.turn.team is Team.AWAY  # the turn ended without an extra movement


# --- 3.4 Dodge, fig. 8 ---------------------------------------------------------------------------------

def test_fig8_dodge_arithmetic():
    """"Difficulty value for the action is 18, resulting from a basic 6 added up to 6 defence value
    of each defending player. He uses a GOLD-4-11 card and the dice roll is an 8, which with the
    card bonus totals 19, so it is now unmarked.\""""
    assert dodge_difficulty([6, 6]) == 18
    assert 8 + bonus(Trait.from_json("gold"), C("gold-4-11")) == 19


def test_fig8_dodge_in_a_match():
    home = with_counter(shipped_team("lions"), 10, dodge="gold", abilities=())
    m = new_match(home=home)
    to_kick_off(m, kicker=10)
    place(m, A(9), (4, 1))         # Away #9 leaves D4; #2 and #4 (defence 6) mark #10
    place(m, A(2), (3, 3))
    place(m, A(4), (3, 3))
    m.submit(c.Dodge(C("gold-4-11")))
    assert "difficulty 18, card bonus +11" in m.pending()[0].text
    d12(m, Team.HOME, 8)
    s = m.summary()
    assert s["unmarked"] == {"player": "home#10", "until_turn": 3}
    assert m.state.turn.stage is Stage.AFTER_MAIN


# --- 3.5 Shoot ---------------------------------------------------------------------------------------

def test_shot_numbers_by_defenders_and_unmarked():
    """"X when there're no defenders, Y for ONE defender and Z for TWO defenders ... if the
    shooter is unmarked then it will use X for ONE defender and Y for TWO defenders"."""
    n = ShootNumbers((4, 8, 12))
    assert [shot_difficulty(n, d, False, 10, 10) for d in (0, 1, 2)] == [14, 18, 22]
    assert [shot_difficulty(n, d, True, 10, 10) for d in (0, 1, 2)] == [14, 14, 18]


def test_23_and_24_ignore_the_goalkeeper_except_a_parry_of_11_or_12():
    """"a parry value of 11 or 12, converts 23 difficulty shoots into 24"."""
    assert shot_difficulty(ShootNumbers((23,)), 0, False, 10, 10) == 23
    assert shot_difficulty(ShootNumbers((23,)), 0, False, 11, 11) == 24
    assert shot_difficulty(ShootNumbers((23,)), 0, False, 12, 12) == 24
    assert shot_difficulty(ShootNumbers((24,)), 0, False, 8, 8) == 24


def test_move_or_pass_and_shoot_add_4_and_shooting_on_the_fly_takes_it_back():
    n = ShootNumbers((4, 8, 12))
    assert shot_difficulty(n, 0, False, 10, 10, combined=True) == 18
    assert shot_difficulty(n, 0, False, 10, 10, combined=True, on_the_fly=True) == 14


def test_direct_and_penalty_kick_difficulties():
    """Direct kick: "the same as if there were a single defending player-counter in the space";
    penalty: "4 + value of the goalkeeper parry"."""
    assert direct_kick_difficulty(ShootNumbers((4, 8, 12)), 10) == 18
    assert penalty_difficulty(12) == 16
    assert penalty_difficulty(8) == 12  # an acting goalkeeper's BRONZE-8


# --- 3.6, 4.6 Tackle -----------------------------------------------------------------------------------

def test_tackle_difficulties():
    """Tackle 16; hard tackle 12; "If the player being tackled is unmarked only a Hard Tackle is
    permitted and the difficulty ... increased to 16"; move and tackle: "if the tackled player
    was unmarked difficulty value is increased to 20! being 16 otherwise"."""
    assert tackle_difficulty(hard=False, unmarked=False, moved=False) == 16
    assert tackle_difficulty(hard=True, unmarked=False, moved=False) == 12
    assert tackle_difficulty(hard=True, unmarked=True, moved=False) == 16
    assert tackle_difficulty(hard=True, unmarked=False, moved=True) == 16
    assert tackle_difficulty(hard=True, unmarked=True, moved=True) == 20
    with pytest.raises(ValueError):
        tackle_difficulty(hard=False, unmarked=True, moved=False)


# --- 3.7 Foul check table --------------------------------------------------------------------------------

@pytest.mark.parametrize("value, outcome", [(12, "red"), (11, "yellow"), (10, "yellow"), (9, "foul"), (8, "foul"),
                                            (7, "foul"), (6, "foul"), (5, ""), (4, ""), (3, ""), (2, ""), (1, "")])
def test_foul_check_table(value, outcome):
    assert foul_check(value) == outcome


def test_the_table_covers_every_face_once():
    faces = [v for low, high, _ in FOUL_TABLE for v in range(low, high + 1)]
    assert sorted(faces) == list(range(1, 13))


def test_foul_check_keeps_the_lower_die_for_a_tackle_and_the_higher_for_a_hard_tackle():
    roll = roll_of(DieKind.D12, 11, 4, colours=("black", "white"))
    assert read(roll, "low") == (4, False)
    assert read(roll, "high") == (11, False)


# --- 4.1, 4.2 Move and dodge, supported dodge, fig. 9 ----------------------------------------------------------

def test_move_dodge_sideways_is_half_and_support_halves():
    """"it is half of the value (rounded up) in case of sideways movements"; supported: "the
    difficulty value of the Dodge action is halved (rounded up)"."""
    assert move_dodge_difficulty(18, Step.FORWARD, False) == 18
    assert move_dodge_difficulty(17, Step.SIDEWAYS, False) == 9
    assert move_dodge_difficulty(18, Step.FORWARD, True) == 9


def fig9_match(supporter_pass: str):
    """#10 (GOLD dodge) moves forward out of C3, marked by two defence-6 defenders, with #3 in
    the space to support him."""
    home = with_counter(shipped_team("lions"), 10, dodge="gold", abilities=())
    home = with_counter(home, 3, passing=supporter_pass)
    m = new_match(home=home)
    to_kick_off(m, kicker=10)
    place(m, H(10), (2, 2))
    place(m, H(3), (2, 2))
    place(m, A(2), (2, 2))
    place(m, A(4), (2, 2))
    return m


def test_fig9_supported_move_and_dodge_is_halved_to_9_without_a_card():
    """"Since there is a supporting player in the space that has the same colour in passing
    characteristic that the supported player dodging characteristic, he immediately gets the
    benefit of a supported dodge and thus difficulty value is halved to 9.\""""
    from companion.football_leader.model import DodgePlan
    m = fig9_match("gold")
    hand = m.state.cards[Team.HOME].hand
    m.submit(c.Move(H(10), (3, 2), C("gold-3-9"), dodges=(DodgePlan(C("gold-4-11"), H(3)),)))
    assert "difficulty 9" in m.pending()[0].text
    assert m.state.cards[Team.HOME].hand == hand - 2  # the move's card and the dodge's card
    d12(m, Team.HOME, 2)
    assert m.state.players[H(10)].space == (3, 2) and m.state.ball == H(10)


def test_fig9_a_silver_passer_needs_a_silver_card_to_support():
    """"If, for example, player #3 would have a silver pass colour, it would have been necessary to
    spend a SILVER extra card in order to get the support benefit.\""""
    from companion.errors import RuleViolation
    from companion.football_leader.model import DodgePlan
    m = fig9_match("silver")
    with pytest.raises(RuleViolation, match="SILVER"):
        m.submit(c.Move(H(10), (3, 2), C("gold-3-9"), dodges=(DodgePlan(C("gold-4-11"), H(3)),)))
    hand = m.state.cards[Team.HOME].hand
    m.submit(c.Move(H(10), (3, 2), C("gold-3-9"), dodges=(DodgePlan(C("gold-4-11"), H(3), C("silver-3-9")),)))
    assert "difficulty 9" in m.pending()[0].text
    assert m.state.cards[Team.HOME].hand == hand - 3


def test_move_and_dodge_example_failure_places_a_marker_and_loses_the_ball():
    """"a movement is interrupted in the space where a dodge is failed, and in every case a Moved
    Marker is placed on the player-counter, even though the ball is lost at very first dodge\""""
    m = fig9_match("gold")
    m.submit(c.Move(H(10), (3, 2), C("gold-3-9")))
    choose(m, "gold-4-11")
    d12(m, Team.HOME, 1)
    s = m.state
    assert s.players[H(10)].space == (2, 2) and s.players[H(10)].markers == 1
    choose(m, "away#2")
    assert m.state.ball == A(2)
