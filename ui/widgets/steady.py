"""A panel that holds still while the coach answers one question: a line or a button that goes
away within one step (a second request answered, a hint no longer needed) leaves its room
empty, so nothing below it moves up under a finger on its way to the next button. The room
closes when the step changes (a new question, mode or selection): the panel is built afresh.

The live screen records the panel's rows once they are laid out (``held_lines`` on every
change of the panel's height) and, when it builds the panel again for the same step, hands
them to ``hold_still``.
"""

from __future__ import annotations

from kivy.uix.widget import Widget

Row = tuple[tuple[str, str], float]   # ((kind, text), height)


class Held(Widget):
    """The room of rows that went away within this step: ``room`` less what the rows that took
    their place (``against``) need, never less than nothing."""

    def __init__(self, room: float, against: tuple[Widget, ...] = (), spacing: float = 0.0, **kwargs) -> None:
        super().__init__(size_hint_y=None, height=0, **kwargs)
        self.room, self.against, self.spacing = room, against, spacing
        for w in against:
            w.bind(height=self._fit)
        self._fit()

    def _fit(self, *_args) -> None:
        # ``room`` counts the rows' spacing too; the blank's own spacing is taken off (down to
        # a height of minus one spacing: a blank with nothing to hold takes no room at all).
        taken = sum(w.height + self.spacing for w in self.against) + self.spacing
        self.height = max(-self.spacing, self.room - taken)


def _key(w: Widget) -> tuple[str, str]:
    if isinstance(w, Held):
        return ("held", "")
    text = getattr(w, "text", None)
    if isinstance(text, str):
        return (type(w).__name__, text)
    # A row of several widgets (a keypad, a grid of options): known by the texts in it.
    texts = [c.text for c in w.walk(restrict=True) if isinstance(getattr(c, "text", None), str)]
    return (type(w).__name__, "|".join(texts[:12]))


def held_lines(panel: Widget) -> list[Row]:
    """The panel's rows, top first, with their heights as laid out (a held blank: its room)."""
    spacing = panel.spacing[1] if isinstance(panel.spacing, (list, tuple)) else float(panel.spacing)
    # A blank's row is its room less the spacing it stands for (hold_still adds it back).
    return [(_key(w), float(w.room - spacing if isinstance(w, Held) else w.height)) for w in reversed(panel.children)]


def hold_still(panel: Widget, before: list[Row]) -> None:
    """Put a ``Held`` blank where rows of ``before`` went missing from the panel just built (or
    were replaced by shorter ones), so the rows after them stay where they were. Rows that
    appear push the rest down: that cannot be held."""
    from difflib import SequenceMatcher

    if not before:
        return
    spacing = panel.spacing[1] if isinstance(panel.spacing, (list, tuple)) else float(panel.spacing)
    now = list(reversed(panel.children))
    old_keys = [k for k, _h in before]
    keys = [_key(w) for w in now]
    blanks: dict[int, Held] = {}    # index in ``now`` -> the blank put before that row
    for op, i1, i2, j1, j2 in SequenceMatcher(a=old_keys, b=keys, autojunk=False).get_opcodes():
        if op == "equal" or op == "insert":
            continue
        room = sum(h + spacing for _k, h in before[i1:i2])
        if room > 0:
            blanks[j2] = Held(room, tuple(now[j1:j2]), spacing)
    if not blanks:
        return
    rows = []
    for i, w in enumerate([*now, None]):
        if i in blanks:
            rows.append(blanks[i])
        if w is not None:
            rows.append(w)
    panel.clear_widgets()
    for w in rows:
        panel.add_widget(w)
