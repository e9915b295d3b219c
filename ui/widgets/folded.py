"""A request folded to its first lines in a narrow window, whole at a touch.

At 800x600 the live screen's panel shows about 230 px: a request of the rules in four or five
lines (the Liga's kick-off, both sides' set-up in Football Leader) filled it, and the buttons
that answer it sat under the fold. Folded, a request shows its first two lines ending in
"... more"; a touch on it shows it whole, another folds it again.

``fold_text`` is pure (a ``measure`` of a line's width is handed in), so the wrap is tested
without a window; ``fold_line`` fits it to a Kivy label and keeps it fitted as the label's
width changes.
"""

from __future__ import annotations

from collections.abc import Callable

MORE = "... more"
LINES = 2


def fold_text(text: str, width: float, measure: Callable[[str], float], lines: int = LINES,
              more: str = MORE) -> str:
    """``text`` cut to the words that fill ``lines`` lines of ``width`` (wrapped at spaces, as
    a label wraps), the last line ending in ``more``; ``text`` itself when it fits. A text
    with its own line breaks, or a width too small to say anything, is left whole."""
    if "\n" in text or width <= measure(more):
        return text
    rows: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and measure(trial) > width:
            rows.append(line)
            if len(rows) == lines:
                break
            line = word
        else:
            line = trial
    else:
        return text   # every word placed within ``lines`` lines
    kept = rows[-1].split(" ")
    while kept and measure(" ".join(kept) + " " + more) > width:
        kept.pop()
    rows[-1] = " ".join([*kept, more])
    return " ".join(rows)


def fold_line(label, folded: bool, on_touch: Callable[[], None]) -> None:
    """Fold ``label`` (a panel line that wraps to its width: ``wrap_label``, ``team_line``)
    when ``folded``, and call ``on_touch`` when the coach touches it, folded or whole, if
    folding cut anything. Its whole text stays in ``label.whole_text`` (the panel's rows are
    known by it: ui/widgets/steady.py)."""
    from kivy.core.text import Label as CoreLabel

    whole = label.text
    label.whole_text = whole
    # The font as the label draws it: what its text needs on one line.
    core = CoreLabel(font_size=label.font_size, bold=label.bold, font_name=label.font_name)

    def measure(s: str) -> float:
        return core.get_extents(s)[0]

    def room() -> float:
        return label.width - label.padding[0] - label.padding[2] - 2   # a pixel each side, for Kivy's own wrap

    def fit(*_args) -> None:
        if label.width > 1:
            label.text = fold_text(whole, room(), measure) if folded else whole

    def touched(_w, touch) -> bool:
        if label.collide_point(*touch.pos) and fold_text(whole, room(), measure) != whole:
            on_touch()
            return True
        return False

    label.bind(width=fit, on_touch_down=touched)
    fit()
