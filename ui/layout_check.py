"""Checks a screen's layout the way a coach would meet its faults: text cut off or spilling
out of its box, widgets drawn over each other, a button too small for a finger, text too
small to read from a metre (ui/theme.py's scale), on the board too (its printed numbers, the
figures' numbers, the ball), and touch targets that move while the coach's finger is on its
way (``Steadiness``: one step of a match, two frames). Used by the UI scenarios on every
screenshot (tests/ui_scenario.py, tests/test_ui_app.py) at 1280x800 and 1920x1200, and by the
gallery (tests/gallery.py) over every screen of every game."""

from __future__ import annotations

from collections import Counter

from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from . import theme
from .widgets.fit_label import MARKUP
from .widgets.pitch import OVERPRINT_PX, ink_box, ink_overlap

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


def _wrapped_height(w: Label) -> float:
    """The height ``w``'s text takes wrapped to its box's width, however tall the box is."""
    options = dict(w._label.options)
    options["text_size"] = (w.text_size[0], None)
    whole = type(w._label)(**options)
    whole.refresh()
    return float(whole.content_height)


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
            elif w.shorten and "\n" not in w.text:
                # Shortened to fit ("Extra m...ement"): cut, so unreadable all the same.
                room = (w.text_size[0] if w.text_size and w.text_size[0] else w.width) - 2 * _padding_x(w)
                plain = MARKUP.sub("", w.text) if w.markup else w.text
                full = w._label.get_extents(plain)[0]
                if full > room + SLACK:
                    out.append(f"{where}{_name(w)} text cut to fit: needs {full:.0f} px, has {room:.0f}")
            elif w.text_size and w.text_size[1]:
                # A fixed text box keeps its lines to its height: lines past it are cut unseen
                # (the clock's hint wrapped and pushed "2nd half" out of its button).
                need = _wrapped_height(w)
                if need > w.text_size[1] + SLACK:
                    out.append(f"{where}{_name(w)} text cut at its foot: needs {need:.0f} px high, "
                               f"has {w.text_size[1]:.0f}")
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
    for pitch in boards(root):
        out += check_board(pitch, where)
    return out


def boards(root: Widget) -> list[Widget]:
    """The boards drawn on a screen (ui/widgets/pitch.py's PitchView, wherever it sits)."""
    return [w for w, _clip in _walk(root) if hasattr(w, "smallest_label") and hasattr(w, "printed")
            and getattr(w, "geometry", None) is not None and _visible(w)]


def check_board(pitch: Widget, where: str = "") -> list[str]:
    """A board's own faults: a printed label or a figure's number under the theme's size, a
    ball too small to see, printed labels over each other or cut at the board's edge."""
    out = []
    if pitch.smallest_label is not None and pitch.smallest_label < sp(theme.BOARD_MIN) - 0.01:
        out.append(f"{where}a board label at {pitch.smallest_label / sp(1):.1f} sp < {theme.BOARD_MIN} sp")
    if pitch.ball_px is not None and pitch.ball_px < dp(theme.BALL_MIN_DP) - SLACK:
        out.append(f"{where}the ball is drawn {pitch.ball_px:.0f} px wide < {theme.BALL_MIN_DP} dp")
    labels = pitch.printed
    x0, y0 = pitch.to_window(pitch.x, pitch.y)
    for i, (text, *box) in enumerate(labels):
        x, y, w, h = ink_box(*box)
        if x < pitch.x - SLACK or y < pitch.y - SLACK or x + w > pitch.right + SLACK or y + h > pitch.top + SLACK:
            out.append(f"{where}the board's {text!r} is cut at the board's edge")
        for other, *other_box in labels[i + 1:]:
            dx, dy = ink_overlap(tuple(box), tuple(other_box))
            if dx > OVERPRINT_PX and dy > OVERPRINT_PX:
                out.append(f"{where}the board's {text!r} and {other!r} are printed over each other "
                           f"({dx:.0f}x{dy:.0f} px, at {x0 + x - pitch.x:.0f}, {y0 + y - pitch.y:.0f})")
    return out


# --- targets that hold still -----------------------------------------------------------------------
Target = tuple[int, str, tuple[float, float, float, float]]   # the widget's id, its text, its rectangle
Targets = list[Target]


def targets(root: Widget) -> Targets:
    """Every enabled touch target on show: the widget, its text and its window rectangle (as
    if every panel were scrolled to its top)."""
    out: Targets = []
    for w, clip in _walk(root):
        if not isinstance(w, ButtonBehavior) or w.disabled or not _visible(w):
            continue
        rect = _rect(w)
        if clip is not None and not _inside(rect, clip):
            continue
        text = getattr(w, "text", "") or getattr(w, "caption", "") or type(w).__name__
        out.append((id(w), text, _unscrolled(w, rect)))
    return out


def _unscrolled(w: Widget, rect):
    """A widget's rectangle as if every panel it is in were scrolled to its top: a coach's own
    scrolling moves what he scrolls, not the layout under his finger."""
    x0, y0, x1, y1 = rect
    parent = w.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView) and parent.children:
            content = parent.children[0]
            _vx, _vy, _vx1, vtop = _rect(parent)
            ctop = _rect(content)[3]
            dy = ctop - vtop if content.height > parent.height else 0.0
            y0, y1 = y0 - dy, y1 - dy
        parent = parent.parent
    return x0, y0, x1, y1


def moved(before: Targets, after: Targets, where: str = "") -> list[str]:
    """Targets shown in both frames whose place changed: a finger on its way lands on another
    button (a hint line that disappears moves every button below it). The same widget is
    matched by itself; a panel built afresh by the text of its buttons, where that text is
    the only one of its kind in both frames."""
    out = []
    by_id = {(i, t): rect for i, t, rect in after}   # a recycled widget showing another text is another target
    count_before = Counter(t for _i, t, _r in before)
    count_after = Counter(t for _i, t, _r in after)
    by_text = {t: rect for _i, t, rect in after if count_after[t] == 1}
    for i, text, a in before:
        b = by_id.get((i, text))
        if b is None and count_before[text] == 1:
            b = by_text.get(text)
        if b is None:
            continue
        if max(abs(a[k] - b[k]) for k in range(4)) > SLACK + 1:
            out.append(f"{where}{text[:40]!r} moved from {a[0]:.0f},{a[1]:.0f} to {b[0]:.0f},{b[1]:.0f} "
                       f"within one step")
    return out


class Steadiness:
    """Watches the touch targets of one step: ``look(step, root)`` on each frame (or each
    tap); while ``step`` (the screen, the question asked, the mode) stays the same, a target
    that moves is a fault, said once."""

    def __init__(self) -> None:
        self.step: object = None
        self.last: Targets = []
        self.faults: list[str] = []

    def look(self, step: object, root: Widget, where: str = "") -> list[str]:
        now = targets(root)
        found = moved(self.last, now, where) if step == self.step else []
        for f in found:
            if f not in self.faults:
                self.faults.append(f)
        self.step, self.last = step, now
        return found
