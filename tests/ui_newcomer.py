"""A newcomer's hands on the real app (for tests/ui_play_<game>.py drivers run by
tests/ui_scenario.py): only what the screen shows is touched. Buttons are found by their
text, figures by the number drawn on them, and a board square is touched only where the
screen highlights it (a figure's reach, a target's colour, an outline). Nothing here reads
the rules to decide where to touch; the drivers choose among what is shown.

Also the check that nothing moves under a finger: the panel's buttons that are there before
and after a step keep their place (``steady``).
"""

from __future__ import annotations

from ui_harness import tap, widgets

from kivy.uix.button import Button  # noqa: E402 (after the harness has set up Kivy)


def pitch(sc):
    return sc.screen().ids.pitch


def highlighted(sc) -> set:
    """Every square the board shows as one to touch now."""
    p = pitch(sc)
    cells = {tuple(c) for c in p.reach} | {tuple(c) for c in p.marked}
    cells |= {tuple(cell) for cell, _rgba in p.tints}
    return cells


def tinted(sc, rgba=None) -> set:
    """The squares filled in a colour (all, or those of one colour)."""
    return {tuple(cell) for cell, c in pitch(sc).tints if rgba is None or tuple(c) == tuple(rgba)}


def tap_cell(sc, cell) -> None:
    """A highlighted square touched (refused if the screen does not show it)."""
    cell = tuple(cell)
    assert cell in highlighted(sc), f"square {cell} is not highlighted: a newcomer would not touch it"
    p = pitch(sc)
    x, y = p.to_window(*p.cell_centre(cell))
    tap(x, y)
    sc.log.append(f"tap square {cell}")


def tap_any_cell(sc, cell) -> None:
    """A square touched whether highlighted or not: a newcomer's wrong touch (a test of the
    refusal's words)."""
    p = pitch(sc)
    x, y = p.to_window(*p.cell_centre(tuple(cell)))
    tap(x, y)
    sc.log.append(f"tap square {cell} (not highlighted)")


def figure_spot(sc, ref):
    for r, x, y, _cell in pitch(sc)._spots:
        if r == ref:
            return x, y
    raise AssertionError(f"{ref} is not drawn on the board")


def tap_figure(sc, ref) -> None:
    """The figure with this number touched where it is drawn."""
    p = pitch(sc)
    x, y = p.to_window(*figure_spot(sc, ref))
    tap(x, y)
    sc.log.append(f"tap figure {ref}")


def panel_buttons(sc) -> dict[str, tuple[float, float]]:
    """The panel's buttons by text, with where each is on the window."""
    out = {}
    for w in widgets(sc.screen().ids.panel):
        if isinstance(w, Button) and w.text and w.opacity > 0:
            out.setdefault(w.text, w.to_window(w.x, w.y))
    return out


def button_texts(sc) -> list[str]:
    return [w.text for w in widgets(sc.screen().ids.panel) if isinstance(w, Button) and not w.disabled and w.text]


def about_to_press(sc, text: str) -> dict[str, tuple[float, float]]:
    """The button scrolled into view as a finger would (the panel may be taller than the
    screen), then where every panel button stands: what ``steady`` compares after the press."""
    sc.scroll_to(sc.button(text))
    return panel_buttons(sc)


def steady(sc, before: dict, what: str) -> None:
    """The buttons there before and after ``what`` did not move (nothing under a finger)."""
    after = panel_buttons(sc)
    moved = {t: (before[t], after[t]) for t in before if t in after and abs(before[t][1] - after[t][1]) > 0.5}
    if moved:
        sc.layout.append(f"{what}: buttons moved under a finger: {moved}")


def has_button(sc, text: str, startswith: bool = False) -> bool:
    return any((t.startswith(text) if startswith else t == text) for t in button_texts(sc))


def first_button(sc, prefix: str) -> str:
    found = [t for t in button_texts(sc) if t.startswith(prefix)]
    assert found, f"no button starting {prefix!r}; buttons: {button_texts(sc)}"
    return found[0]
