"""Undo and Redo buttons that say what they take back or bring back: "Undo: #7 Kit passes to
#9 Zed". The words (the step's log line, from the controller's view) are cut at a word so the
whole text fits the button in two lines at its font size, whatever its width: a button never
shows a text that runs out of it or loses its verb."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.properties import StringProperty

from .icons import IconButton

LINES = 2


def wrap(words: list[str], width: float, measure) -> list[str]:
    """Words wrapped greedily into lines no wider than ``width`` (a word wider than the line
    alone stays on its own line)."""
    lines: list[str] = []
    for word in words:
        if lines and measure(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def fitted(verb: str, what: str, width: float, measure, lines: int = LINES) -> str:
    """"Verb: what" with ``what`` cut at a word (and "…") until it fits ``lines`` lines."""
    if not what:
        return verb
    words = what.split()
    while words:
        text = f"{verb}: {' '.join(words)}" + ("" if len(words) == len(what.split()) else "…")
        wrapped = wrap(text.split(), width, measure)
        if len(wrapped) <= lines and all(measure(line) <= width for line in wrapped):
            return text
        words.pop()
    return verb


class StepButton(IconButton):
    verb = StringProperty("Undo")
    what = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(verb=self._fit, what=self._fit, width=self._fit, font_size=self._fit, padding=self._fit)
        self._fit()

    def _fit(self, *_args) -> None:
        # Kivy wraps within text_size less the padding (the icon's room, ui/widgets/icons.py):
        # the words measure against what is left of it.
        box = max(dp(40), self.width - dp(14))
        left = self.padding[0] if len(self.padding) else 0
        right = self.padding[2] if len(self.padding) > 2 else 0
        room = max(dp(20), box - left - right)
        self.text_size = (box, None)
        probe = CoreLabel(font_size=self.font_size, font_name=self.font_name)

        def measure(text: str) -> float:
            return probe.get_extents(text)[0]
        self.text = fitted(self.verb, self.what, room, measure)
