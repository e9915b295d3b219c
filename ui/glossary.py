"""What the tablet's short words and marks mean, game by game: the rulebooks' abbreviations
(PS, MS, MP), the marks on the player cards ("9YY~", "8YYR"), what the bars count and what the
board prints. The live screen explains each one by a tap (a bar, a card, a line under the
panel) and lists them all in its glossary (More > Words and marks).

Plain Python (no Kivy), like ui/words.py: the screens and the tests read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Term:
    """One word or mark: ``key`` as it is printed ("PS", "Y"), ``name`` in full, ``text`` what
    it means at the table."""

    key: str
    name: str
    text: str


# The marks on a player card, after his number; their meaning differs a little by game.
CARD_MARKS: dict[str, dict[str, Term]] = {
    "fublet": {
        "Y": Term("Y", "Yellow card", "one Y for each yellow card he has been shown"),
        "R": Term("R", "Red card", "sent off: he plays no more in this match"),
        "~": Term("~", "Exhausted", "his card is turned sideways: he has moved or received the ball and cannot "
                  "move again this round (he may still resolve events)"),
        "x": Term("x", "Stunned", "he lost a challenge: he stays exhausted for the next round too"),
        "+": Term("+", "Injured", "hurt in a skill test (a roll of 25, 50 or 75): he must be substituted"),
    },
    "football_leader": {
        "Y": Term("Y", "Yellow card", "one Y for each yellow card he has been shown"),
        "R": Term("R", "Red card", "sent off: his counter has left the board"),
        "~": Term("~", "Moved Marker", "he has moved this turn (two with a Run): he may not move again"),
        "x": Term("x", "Replaced", "substituted: another counter plays in his place"),
    },
    "futboard": {
        "Y": Term("Y", "Yellow card", "one Y for each yellow card he has been shown"),
        "R": Term("R", "Red card", "sent off: he plays no more in this match"),
        "~": Term("~", "Moved", "he has moved in this turn"),
    },
    "fussball_liga": {
        "Y": Term("Y", "Yellow card", "one Y for each yellow card (a second one sends him off)"),
        "R": Term("R", "Sent off", "a red card or a second yellow: he plays no more in this match"),
        "~": Term("~", "Moved", "he has moved in this movement phase"),
    },
}

PLACE = Term("place", "Not on the board yet", "this figure is on the team sheet but not on the board: tap "
             "his card, then tap his square on the board to put him there")

TERMS: dict[str, list[Term]] = {
    "fublet": [
        Term("PS", "Pass square", "the big squares of three shades of grass; a kicked ball always moves by PS "
             "(a short pass goes 1 to 6 PS, a long pass 7 to 12)"),
        Term("MS", "Movement square", "the small squares, four to a PS; a player always moves by MS"),
        Term("MP", "Movement points", "what a side earns by following its tactical board and spends to move "
             "players in the movement phases (the Home MP and Away MP bars)"),
        Term("Pace", "Round pace", "how fast the round was played: the PS the ball ran or the MS a player ran "
             "(the Pace bar); it moves the match clock on"),
        Term("Zones", "Defence, midfield and attack zones", "the two dark green lines across the board split "
             "each team's field into its defence, midfield and attack zones"),
    ],
    "football_leader": [
        Term("A1-G6", "Spaces", "every space of the board has its name printed in its corner: a letter for "
             "the column (A by the left goal to G by the right goal) and a number for the row"),
        Term("6-10-14", "Shooting numbers", "printed along a space's bottom edge: how hard a shot from that "
             "space is, with no defender, one or two defenders in the space (a single 23 or 24: that, with no "
             "defender allowed)"),
        Term("deck", "Deck", "the action cards a coach has not drawn yet (the team's bar)"),
        Term("hand", "Hand", "the action cards a coach holds now"),
        Term("moved", "Moved Markers", "how many Moved Markers the team has used this turn, of those it has"),
    ],
    "futboard": [
        Term("0 -1 -2", "Kick penalties", "the numbers printed along both sides of the field: a kick at goal "
             "from that line takes that much off the kicker's accuracy"),
        Term("-1 -2 -3", "Goalkeeper's reductions", "the numbers in the spaces near each goal: a goalkeeper who "
             "stands there defends with that much less"),
        Term("actions", "Actions", "each turn a side has 3 actions: move a player, pass, kick, take the ball "
             "(the actions bar counts those left)"),
        Term("Time left", "Match clock", "the time left of the match's time limit"),
    ],
    "fussball_liga": [
        Term("MP", "Movement points", "each side has 18 to spend in every movement phase, no player more than "
             "6 (the Home MP and Away MP bars count those left)"),
        Term("Defender MP", "The defender's movement points", "what the defending side may spend now, after "
             "the attacker stopped moving a player"),
        Term("1 2 3 4", "Goal numbers", "the goal's four squares: at a penalty kick the goalkeeper stands in "
             "one of them, then the kicker rolls"),
        Term("low goal", "Low and high goal", "the goal on the left of the board as the tablet draws it is "
             "the low goal, the one on the right the high goal"),
        Term("Half", "Half clock", "the time played in this half"),
        Term("Timer", "Phase timer", "the time left for the phase being played (the egg timer option)"),
    ],
}


def terms(game: str) -> list[Term]:
    """Every term of a game: its own words, then the card marks."""
    marks = list(CARD_MARKS.get(game, {}).values())
    return [*TERMS.get(game, []), *marks, PLACE]


def _pattern(key: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(key)}(?![\w-])")


def terms_in(game: str, *texts: str) -> list[Term]:
    """The game's abbreviations a text uses (PS, MS, MP, ...), in the glossary's order."""
    joined = "\n".join(t for t in texts if t)
    out = []
    for term in TERMS.get(game, []):
        short = term.key.isupper() and len(term.key) <= 3
        if short and _pattern(term.key).search(joined):
            out.append(term)
    return out


def bar_terms(game: str, caption: str) -> list[Term]:
    """What a bar's caption counts ("Home MP 12/18", "Home: deck 42, hand 5, moved 1/5")."""
    low = caption.lower()
    return [t for t in TERMS.get(game, []) if t.key.lower() in low or t.name.lower() in low]


MARKS = re.compile(r"^(\d{1,2})([^\d\s]*)")


def card_marks(game: str, text: str) -> list[Term]:
    """What a player card's marks mean: "9YY~" -> two yellow cards, moved."""
    m = MARKS.match(text.strip())
    if m is None:
        return []
    table = CARD_MARKS.get(game, {})
    out: list[Term] = []
    for ch in m.group(2):
        term = table.get(ch)
        if term is not None and term not in out:
            out.append(term)
    if "place" in text:
        out.append(PLACE)
    return out


def marks_line(game: str, text: str) -> str:
    """A card's marks in words: "YY: two yellow cards; ~: moved this turn"."""
    m = MARKS.match(text.strip())
    if m is None:
        return ""
    parts = []
    for term in card_marks(game, text):
        if term is PLACE:
            parts.append("not on the board yet")
            continue
        count = m.group(2).count(term.key)
        if term.key == "Y" and count > 1:
            parts.append(f"{'Y' * count}: {count} yellow cards")
        else:
            parts.append(f"{term.key}: {term.name.lower()}")
    return "; ".join(parts)
