"""What an action card is worth to a counter, the draw rule, and dice readings.

Colour matching (2.1): a card helps only when its colour is the characteristic's colour;
then a printed number on the characteristic is a minimum ("Minimum Values"). Otherwise
the bonus is 0 and the movement 1 (2 with Outburst). Defence is never a minimum.
"""

from __future__ import annotations

from ..dice import Roll
from .components import Card, Trait
from .model import HAND

MISMATCH_MOVE = 1
OUTBURST_MOVE = 2


def bonus(trait: Trait | None, card: Card, any_colour: bool = False, minimum: bool = True) -> int:
    """The card's bonus for an action on ``trait``; ``any_colour`` for a goalkeeper's pass,
    ``minimum`` False for a tackle (the defence number is not a minimum)."""
    if any_colour:
        return card.bonus
    if trait is None or trait.colour is not card.colour:
        return 0
    if minimum and trait.value is not None:
        return max(card.bonus, trait.value)
    return card.bonus


def allowance(trait: Trait | None, card: Card, outburst: bool = False) -> int:
    """Spaces a counter may move with ``card``."""
    if trait is None or trait.colour is not card.colour:
        return OUTBURST_MOVE if outburst else MISMATCH_MOVE
    return max(card.move, trait.value or 0)


def draw_count(hand: int) -> int:
    """2.1: "draw a maximum of two cards from the deck, or just one in case of having
    already four cards on his hand" (none with a full hand)."""
    if hand >= HAND:
        return 0
    return 1 if hand == HAND - 1 else 2


def black_die(roll: Roll) -> int:
    """The index of the black die: the die coloured "black", else the first (keypad entries
    are made black die first)."""
    for i, d in enumerate(roll.dice):
        if d.die.colour == "black":
            return i
    return 0


def read(roll: Roll, pick: str) -> tuple[int, bool]:
    """(the die that counts, automatic miss). One die: a 1 is always a miss. Two dice kept
    best: only the black die's 1 is a miss (1.6). A foul check keeps the "low" or "high" die
    and has no miss."""
    values = [d.value for d in roll.dice]
    if pick == "low":
        return min(values), False
    if pick == "high":
        return max(values), False
    if len(values) == 1:
        return values[0], values[0] == 1
    return max(values), values[black_die(roll)] == 1
