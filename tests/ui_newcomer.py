"""Touches a newcomer makes, for the drivers that play a game only by what the screen shows
(tests/ui_play_*_restarts.py, *_full_time.py): buttons found by their text, figures by the
number drawn on them, and board squares only where the screen lights them, chosen by what
the light means (its kind: a pass, a shot, a move...), never by coordinates the board does
not print. A drive that cannot go on this way is a bug of the app."""

from __future__ import annotations

from kivy.uix.button import Button

from companion.teams import PlayerRef, Team
from ui_harness import tap, widgets


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


def view(sc):
    return sc.app.controller.view


def explain(sc) -> str:
    v = view(sc)
    texts = [w.text for w in widgets(sc.screen().ids.panel) if getattr(w, "text", "")][:25]
    return f"error {v.error!r}; tablet {sc.screen().error_text!r}; pending {[r.text for r in v.pending]}; panel {texts}"


def check(sc, ok: bool, what: str) -> None:
    if not ok:
        raise AssertionError(f"{what}; {explain(sc)}")


def lit(sc) -> dict:
    """The lit cells on the board and what each means (its kind)."""
    pitch = sc.screen().ids.pitch
    kinds = pitch.reach_kinds
    return {tuple(c) if isinstance(c, list) else c: kinds.get(tuple(c) if isinstance(c, list) else c, "move")
            for c in pitch.reach}


def tap_cell(sc, cell) -> None:
    pitch = sc.screen().ids.pitch
    x, y = pitch.to_window(*pitch.cell_centre(cell))
    tap(x, y)
    sc.log.append(f"tap lit {cell}")


def tap_lit(sc, kind: str, prefer=None):
    """Touch a lit cell of ``kind``; ``prefer`` orders the candidates (the first is taken)."""
    cells = sorted(c for c, k in lit(sc).items() if k == kind)
    check(sc, bool(cells), f"no lit {kind!r} square (lit: {sorted(set(lit(sc).values()))})")
    if prefer is not None:
        cells.sort(key=prefer)
    tap_cell(sc, cells[0])
    return cells[0]


def tap_figure(sc, ref: PlayerRef) -> None:
    """Touch a figure where the pitch drew it (its number is on it)."""
    pitch = sc.screen().ids.pitch
    spot = next((s for s in pitch._spots if s[0] == ref), None)   # noqa: SLF001  (where it was drawn)
    check(sc, spot is not None, f"{ref} is not drawn on the board")
    x, y = pitch.to_window(spot[1], spot[2])
    tap(x, y)
    sc.log.append(f"tap figure {ref}")


def has_button(sc, text: str, startswith: bool = False) -> bool:
    return any(isinstance(w, Button) and not w.disabled and (w.text.startswith(text) if startswith else w.text == text)
               for w in widgets(sc.screen()))


def press_start(sc, prefix: str) -> str:
    """Press the enabled button whose text starts with ``prefix``; its text."""
    check(sc, has_button(sc, prefix, True), f"no button starting {prefix!r}")
    b = sc.button(prefix, startswith=True)
    text = b.text
    sc.press(prefix, startswith=True)
    return text


def roll(sc, digits: str) -> None:
    """The pending die typed on the keypad (the dice are the test's, never chance)."""
    check(sc, any(r.kind == "dice" for r in view(sc).pending), f"no die asked before {digits}")
    sc.keypad(digits)


def keypad_faces(sc, *faces: int) -> None:
    """Several dice on the keypad, "Next die" between them (a d12 shows 10 to 12)."""
    check(sc, any(r.kind == "dice" for r in view(sc).pending), f"no dice asked before {faces}")
    panel = sc.screen().ids.panel
    for i, face in enumerate(faces):
        if i:
            sc.press("Next die", within=panel)
        for digit in str(face):
            sc.press(digit, within=panel)
    sc.press("Roll", within=panel)


def roll_all(sc, face: int) -> None:
    """Every die the pending roll asks for showing ``face`` (one die or two)."""
    req = next((r for r in view(sc).pending if r.kind == "dice"), None)
    check(sc, req is not None, f"no dice asked before {face}")
    n = len(req.dice.kinds) if req.dice is not None else 1
    keypad_faces(sc, *([face] * n))
