"""Places in a coach's words: the rules speak of squares by their coordinates ("PS (17, 10)",
"(24, 22)", "space 8, 4"), which no board prints. At the tablet's edge each one becomes what
the board shows instead:

- a place the board prints a name for keeps that name (Football Leader's spaces: "F4");
- on the live screen (the pending request, the panel, the outcome, a refusal) a letter, and
  the place is ringed on the board with the same letter: "the ball reaches pass square A";
- in the log, which stays after the board has moved on, a few words of where it lies: "moves
  to a square in the right half, near the top touch line" (left and right as the tablet
  draws the board).

Plain Python (no Kivy), like ui/words.py: the live screen, the controller's log and the tests
read it. The rules' own messages stay as they are (the rules core keeps its coordinates for
the journal and the tests).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MmRect = tuple[float, float, float, float]

# "(17, 10)", "PS (17, 10)", "MS (3, 4)", "square (5, 6)"
PAIR = re.compile(r"(?:\b(?P<kind>pass square|PS|MS|square|space)\s+)?\((?P<a>-?\d{1,3}),\s?(?P<b>-?\d{1,3})\)")
# "square 30, 14", "to 24, 22", "at 3,4": a bare pair after a word that says it is a place
BARE = re.compile(r"\b(?P<lead>pass square|PS|MS|square|space|to|at|on|in|from)\s+"
                  r"(?P<a>-?\d{1,3}),\s?(?P<b>-?\d{1,3})(?![\d.])")
LEADS = ("to", "at", "on", "in", "from")
# "(17, 12) -> (13, 12)": a kick's or a run's way
ARROW = re.compile(r"(?:\b(?P<k0>pass square|PS|MS|square|space)\s+)?\((?P<a0>-?\d{1,3}),\s?(?P<b0>-?\d{1,3})\)"
                   r"\s*->\s*(?:\b(?P<k1>pass square|PS|MS|square|space)\s+)?"
                   r"\((?P<a1>-?\d{1,3}),\s?(?P<b1>-?\d{1,3})\)")


# A place the rules name by its coordinate in words of their own.
PHRASES = {"the goal line at x = 0": "the goal on the left of the board as the tablet draws it"}


def has_place(text: str) -> bool:
    """Whether a text names a place by its coordinates."""
    if not text:
        return False
    if "x = 0" in text:
        return True
    return "," in text and (PAIR.search(text) is not None or BARE.search(text) is not None)


@dataclass
class Tags:
    """The places named on the live screen now, each with its letter (A, B, ...)."""

    letters: dict[MmRect, str] = field(default_factory=dict)

    def tag(self, rect: MmRect) -> str:
        letter = self.letters.get(rect)
        if letter is None:
            n = len(self.letters)
            letter = chr(ord("A") + n % 26) + ("" if n < 26 else str(n // 26))
            self.letters[rect] = letter
        return letter

    def marks(self) -> list[tuple[str, MmRect]]:
        """What the board rings: (letter, rectangle in drawing millimetres)."""
        return [(letter, rect) for rect, letter in self.letters.items()]


class Places:
    """One board's places: ``geometry`` is the look's drawing (ui/looks/base.py), ``board``
    the rules' board (its own names, its pass squares)."""

    def __init__(self, game: str, board: Any, geometry: Any) -> None:
        self.game, self.board, self.geometry = game, board, geometry

    # --- one place ------------------------------------------------------------------------------
    def _kind(self, kind: str | None) -> str:
        if kind in ("PS", "pass square"):
            return "PS"
        return "space" if self.game == "futboard" else "square"

    def printed(self, a: int, b: int) -> str | None:
        """The name the board prints for the place, if it prints one (Football Leader's spaces)."""
        label = getattr(self.board, "label", None)
        if label is None or not callable(label):
            return None
        try:
            return str(label((a, b)))
        except (KeyError, ValueError, TypeError, IndexError):
            return None

    def rect(self, kind: str, a: int, b: int) -> MmRect | None:
        """The place's rectangle on the drawn board (drawing millimetres), or None."""
        g = self.geometry
        if g is None:
            return None
        try:
            if kind == "PS":
                ps_cols = getattr(self.board, "ps_cols", None)
                ms_cols = getattr(self.board, "ms_cols", None)
                if not ps_cols or not ms_cols:
                    return None
                n = ms_cols // ps_cols
                x0, y0, _x1, _y1 = g.cell_rect((a * n, b * n))
                _a, _b, x1, y1 = g.cell_rect((a * n + n - 1, b * n + n - 1))
                return (x0, y0, x1, y1)
            return tuple(g.cell_rect((a, b)))   # type: ignore[return-value]
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            return None

    def where(self, rect: MmRect) -> str:
        """Where a place lies, as the tablet draws the board: "in the right half, near the top
        touch line"."""
        g = self.geometry
        x_off, y_off = getattr(g, "x_off", 0.0), getattr(g, "y_off", 0.0)
        length, width = g.length_mm - 2 * x_off, g.width_mm - 2 * y_off
        cx, cy = (rect[0] + rect[2]) / 2 - x_off, (rect[1] + rect[3]) / 2 - y_off
        fx, fy = cx / length, cy / width
        if not (0 <= fx <= 1 and 0 <= fy <= 1):
            side = "left goal line" if fx < 0 else "right goal line" if fx > 1 else \
                "bottom touch line" if fy < 0 else "top touch line"
            return f"outside the field, beyond the {side}"
        along = ("by the left goal" if fx < 1 / 6 else "in the left half" if fx < 5 / 12 else
                 "around halfway" if fx <= 7 / 12 else "in the right half" if fx < 5 / 6 else "by the right goal")
        across = ", near the top touch line" if fy > 0.8 else ", near the bottom touch line" if fy < 0.2 else ""
        return along + across

    # --- texts ----------------------------------------------------------------------------------
    def _say(self, m: re.Match, tags: Tags | None, bare: bool) -> str:
        a, b = int(m.group("a")), int(m.group("b"))
        lead = m.group("lead") if bare else None
        word = None if lead in LEADS else (lead if bare else m.group("kind"))
        before = f"{lead} " if lead in LEADS else ""
        name = self.printed(a, b) if self.game == "football_leader" else None
        if name is not None:
            return f"{before}{name}"
        kind = self._kind(word)
        rect = self.rect(kind, a, b)
        if rect is None:
            return m.group(0)
        noun = "pass square" if kind == "PS" else "space" if kind == "space" else "square"
        if tags is not None:
            return f"{before}{noun} {tags.tag(rect)}"
        return f"{before}a {noun} {self.where(rect)}"

    def in_words(self, text: str) -> str:
        """A log line's places in words (no letters: the board has moved on)."""
        return self._sub(text, None)

    def on_board(self, text: str, tags: Tags) -> str:
        """A live line's places as letters, each added to ``tags`` for the board to ring."""
        return self._sub(text, tags)

    def _way(self, m: re.Match) -> str:
        """ "(17, 12) -> (13, 12)" in the log: how far and which way, as the tablet draws the
        board ("4 squares towards the left goal")."""
        a0, b0, a1, b1 = (int(m.group(k)) for k in ("a0", "b0", "a1", "b1"))
        kind = self._kind(m.group("k0") or m.group("k1"))
        if self.rect(kind, a0, b0) is None or self.rect(kind, a1, b1) is None:
            return m.group(0)
        dx, dy = a1 - a0, b1 - b0
        n = max(abs(dx), abs(dy))
        if n == 0:
            return f"within one {'pass square' if kind == 'PS' else kind}"
        along = "the right goal" if dx > 0 else "the left goal"
        across = "the top touch line" if dy > 0 else "the bottom touch line"
        towards = along if abs(dx) >= 2 * abs(dy) else across if abs(dy) >= 2 * abs(dx) else f"{along} and {across}"
        noun = "pass square" if kind == "PS" else kind
        return f"{n} {noun}{'s' if n != 1 else ''} towards {towards}"

    def _sub(self, text: str, tags: Tags | None) -> str:
        if not has_place(text):
            return text
        for phrase, words in PHRASES.items():
            text = text.replace(phrase, words)
        if tags is None:
            text = ARROW.sub(self._way, text)
            # "4 spaces towards the right goal, 4 spaces": said once
            text = re.sub(r"\b(\d+ (?:space|square)s?) (towards [^,;]+), \1\b", r"\1 \2", text)
        text = PAIR.sub(lambda m: self._say(m, tags, False), text)
        return BARE.sub(lambda m: self._say(m, tags, True), text)


class NoPlaces(Places):
    """Before a match has a board: texts stay as they are."""

    def __init__(self) -> None:
        super().__init__("", None, None)

    def _sub(self, text: str, tags: Tags | None) -> str:
        for phrase, words in PHRASES.items():
            text = text.replace(phrase, words)
        return text


_CACHE: dict[int, tuple[Any, Places]] = {}


def places_for(game: str, board: Any) -> Places:
    """The places of a match's board (one Places per board object: boards are immutable), in
    the drawing of the game's look (ui/looks/)."""
    if board is None or not game:
        return NoPlaces()
    hit = _CACHE.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    try:
        from .looks import look_for   # plain Python: the scoreboard page says places too, without Kivy
        geometry = look_for(game).geometry(board)
    except Exception:   # a board the look cannot draw: its places cannot be shown either
        geometry = None
    places = Places(game, board, geometry) if geometry is not None else NoPlaces()
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[id(board)] = (board, places)
    return places
