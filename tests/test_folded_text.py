"""A request folded to its first lines in a narrow window (ui/widgets/folded.py), with a
width of one unit a character: what is kept, where "... more" goes, what is left whole."""

from __future__ import annotations

import pytest

from ui.widgets.folded import MORE, fold_text

TEXT = "Home: place the figures in their own halves and kick off: a pass of up to 6 squares"


def wrap(text: str, width: int) -> list[str]:
    """The lines a label wraps ``text`` to at ``width`` characters (at spaces)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


@pytest.mark.parametrize(("width", "lines", "folded"), [
    (30, 2, "Home: place the figures in their own halves and ... more"),
    (25, 3, "Home: place the figures in their own halves and kick off: a pass ... more"),
    (30, 3, TEXT),                      # three lines of 30 hold it
    (20, 2, "Home: place the figures in ... more"),
    (44, 2, TEXT),                      # two lines of 44 hold it: left whole
    (200, 2, TEXT),
])
def test_a_long_request_keeps_its_first_lines_and_ends_in_more(width, lines, folded):
    got = fold_text(TEXT, width, len, lines=lines)
    assert got == folded
    assert len(wrap(got, width)) <= lines, wrap(got, width)
    if got != TEXT:
        assert got.endswith(" " + MORE) and TEXT.startswith(got[:-len(MORE) - 1])


def test_more_takes_the_place_of_the_last_words_that_do_not_leave_it_room():
    # "aaaa bbbb" fills the second line: both go, "... more" alone does not need them.
    assert fold_text("xxxxxxxxx aaaa bbbb cccc", 9, len, lines=2) == "xxxxxxxxx ... more"


@pytest.mark.parametrize("text", ["", "short", "two\nlines of its own that are long enough to fold twice"])
def test_what_fits_or_breaks_its_own_lines_is_left_whole(text):
    assert fold_text(text, 10, len, lines=2) == text


def test_a_width_that_cannot_hold_more_leaves_the_text_whole():
    assert fold_text(TEXT, len(MORE), len) == TEXT
