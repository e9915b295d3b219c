"""Checks a screen's layout the way a coach would meet its faults: text cut off or spilling
out of its box, widgets drawn over each other, a button too small for a finger, text too
small to read from a metre (ui/theme.py's scale). Used by the UI scenarios on every
screenshot (tests/test_ui_layout.py) at 1280x800 and 1920x1200."""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from . import theme

SLACK = 1.5        # pixels of rounding allowed
TOUCH_MIN_DP = 48


def _visible(w: Widget) -> bool:
    while w is not None:
        if w.opacity <= 0.01 or w.width < 1 or w.height < 1:
            return False
        parent = w.parent
        if parent is w:
            break
        w = parent
    return True


def _walk(w: Widget, clip=None):
    """Widgets with the window rectangle they may show in (a ScrollView clips its content)."""
    yield w, clip
    if isinstance(w, ScrollView):
        x, y = w.to_window(w.x, w.y)
        clip = (x, y, x + w.width, y + w.height)
    for child in w.children:
        yield from _walk(child, clip)


def _rect(w: Widget) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def _inside(rect, clip) -> bool:
    return clip is None or (rect[0] >= clip[0] - SLACK and rect[1] >= clip[1] - SLACK
                            and rect[2] <= clip[2] + SLACK and rect[3] <= clip[3] + SLACK)


def _padding_x(w: Label) -> float:
    pad = w.padding
    return float(pad[0]) if isinstance(pad, (list, tuple)) and pad else float(pad or 0)


def _name(w: Widget) -> str:
    text = getattr(w, "text", "")
    text = f" {text[:40]!r}" if isinstance(text, str) and text else ""
    return f"{type(w).__name__}{text}"


def check(root: Widget, screen: str = "") -> list[str]:
    """Every fault on the shown screen, one line each (empty: none)."""
    out: list[str] = []
    where = f"{screen}: " if screen else ""
    for w, clip in _walk(root):
        if not _visible(w):
            continue
        rect = _rect(w)
        if clip is not None and not _inside(rect, clip):
            continue   # scrolled out of view: not on screen now
        if isinstance(w, ScrollView) and w.children:
            # The content must fill the view as far as it can: never scrolled off into nothing.
            content = w.children[0]
            top, bottom = min(rect[3], _rect(content)[3]), max(rect[1], _rect(content)[1])
            shown = max(0.0, top - bottom)
            if shown + SLACK < min(content.height, w.height):
                out.append(f"{where}{_name(w)} shows {shown:.0f} px of its content "
                           f"({content.height:.0f} px tall): scrolled off")
        if isinstance(w, Label) and w.text.strip():
            tw, th = w.texture_size
            if w.font_size < sp(theme.SMALL_SP) - 0.01:
                out.append(f"{where}{_name(w)} font {w.font_size / sp(1):.0f} sp < {theme.SMALL_SP} sp")
            if tw > w.width + SLACK or th > w.height + SLACK:
                out.append(f"{where}{_name(w)} text {tw:.0f}x{th:.0f} overflows its box {w.width:.0f}x{w.height:.0f}")
            elif w.shorten and "\n" not in w.text and not w.markup:
                # Shortened to fit ("Extra m...ement"): cut, so unreadable all the same.
                room = (w.text_size[0] if w.text_size and w.text_size[0] else w.width) - 2 * _padding_x(w)
                full = w._label.get_extents(w.text)[0]
                if full > room + SLACK:
                    out.append(f"{where}{_name(w)} text cut to fit: needs {full:.0f} px, has {room:.0f}")
        if isinstance(w, TextInput) and w.font_size < sp(theme.SMALL_SP) - 0.01:
            out.append(f"{where}{_name(w)} font {w.font_size / sp(1):.0f} sp < {theme.SMALL_SP} sp")
        if isinstance(w, (ButtonBehavior, TextInput)) and not w.disabled:
            if min(w.width, w.height) < dp(TOUCH_MIN_DP) - SLACK:
                out.append(f"{where}{_name(w)} touch target {w.width:.0f}x{w.height:.0f} < {TOUCH_MIN_DP} dp")
        if isinstance(w, Layout) and not isinstance(w, FloatLayout):
            kids = [c for c in w.children if _visible(c)]
            for i, a in enumerate(kids):
                ra = _rect(a)
                for b in kids[i + 1:]:
                    rb = _rect(b)
                    ox = min(ra[2], rb[2]) - max(ra[0], rb[0])
                    oy = min(ra[3], rb[3]) - max(ra[1], rb[1])
                    if ox > SLACK and oy > SLACK:
                        out.append(f"{where}{_name(a)} and {_name(b)} overlap by {ox:.0f}x{oy:.0f}")
    pitch = getattr(getattr(root, "ids", {}), "get", lambda _k: None)("pitch")
    if pitch is not None and getattr(pitch, "smallest_label", None) is not None \
            and pitch.smallest_label < sp(theme.BOARD_MIN) - 0.01:
        out.append(f"{where}a board label at {pitch.smallest_label / sp(1):.1f} sp < {theme.BOARD_MIN} sp")
    return out
