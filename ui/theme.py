"""One look for every screen: colours, the team colours, and the typography scale.

Sizes are strings Kivy reads as sp. At 1280x800 on a 10" tablet no text goes under ``SMALL``
(18 sp), the numbers printed on a board and on the figures included (``BOARD_MIN``): that is
what reads from a chair a metre away (ui/layout_check.py checks every screen the UI tests
photograph). The sp follow the coach's text size (Settings: ``TEXT_SIZES``, Kivy's font
scale); the colours below follow the high-contrast setting (``set_contrast``), read by every
widget when it is made (the app makes its screens again when the setting changes).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.teams import Team

# --- typography (sp) -------------------------------------------------------------------------
DISPLAY = "56sp"     # the app's name on Home
SCORE = "30sp"       # the scoreboard
TITLE = "28sp"       # a screen's title
HEADING = "22sp"     # a pending request, a section
BODY = "20sp"        # buttons, forms, messages
SMALL = "18sp"       # the smallest text anywhere but on the board
SMALL_SP = 18
BOARD_MIN = 18       # the smallest printed number on a board or a figure (sp): as any text
BALL_MIN_DP = 18     # the ball is drawn at least this wide (dp): a dot is lost at 1 m

# The coach's text size (Settings): Kivy's font scale, so every sp grows with it.
TEXT_SIZES = {"normal": 1.0, "large": 1.2}
TEXT_SIZE_WORDS = {"normal": "Normal", "large": "Large"}

# --- colours (rgba) ------------------------------------------------------------------------------
BACKGROUND = (0.08, 0.09, 0.11, 1)
HOME_BACKGROUND = (0.07, 0.13, 0.09, 1)
SURFACE = (0.16, 0.17, 0.2, 1)
TEXT = (1, 1, 1, 1)
MUTED = (0.78, 0.8, 0.82, 1)
ACCENT = (1, 0.84, 0.25, 1)       # the active phase, whose turn it is
GOOD = (0.6, 1, 0.6, 1)
BAD = (1, 0.55, 0.45, 1)
WARN = (1, 0.75, 0.25, 1)
OUTCOME = (0.75, 0.95, 0.75, 1)
GO = (0.16, 0.55, 0.28, 1)        # what starts play again (a stopped clock)
DISABLED_TEXT = (1, 1, 1, 0.45)   # a button that cannot be pressed now
FRAME = (1, 1, 1, 0)              # a frame round every button (only in high contrast)
BOARD_TEXT_ALPHA = 0.0            # 0: a board's printed labels keep their own alpha; 1: opaque

# The two looks: Settings' high contrast makes the backgrounds black, every grey text white,
# frames the buttons and prints the board's numbers opaque.
NORMAL_LOOK = {"BACKGROUND": BACKGROUND, "HOME_BACKGROUND": HOME_BACKGROUND, "SURFACE": SURFACE, "TEXT": TEXT,
               "MUTED": MUTED, "GOOD": GOOD, "BAD": BAD, "WARN": WARN, "OUTCOME": OUTCOME,
               "DISABLED_TEXT": DISABLED_TEXT, "FRAME": FRAME, "BOARD_TEXT_ALPHA": BOARD_TEXT_ALPHA}
HIGH_CONTRAST_LOOK = {"BACKGROUND": (0, 0, 0, 1), "HOME_BACKGROUND": (0, 0, 0, 1), "SURFACE": (0.1, 0.1, 0.1, 1),
                      "TEXT": (1, 1, 1, 1), "MUTED": (1, 1, 1, 1), "GOOD": (0.55, 1, 0.55, 1),
                      "BAD": (1, 0.62, 0.52, 1), "WARN": (1, 0.85, 0.3, 1), "OUTCOME": (0.7, 1, 0.7, 1),
                      "DISABLED_TEXT": (1, 1, 1, 0.7), "FRAME": (1, 1, 1, 1), "BOARD_TEXT_ALPHA": 1.0}
high_contrast = False


def set_contrast(on: bool) -> None:
    """Switch the module's colours to the high-contrast look (or back): widgets made after
    this read the new colours."""
    global high_contrast
    high_contrast = bool(on)
    globals().update(HIGH_CONTRAST_LOOK if on else NORMAL_LOOK)

HOME = (0.2, 0.42, 0.92, 1)
AWAY = (0.88, 0.25, 0.25, 1)
TEAM = {Team.HOME: HOME, Team.AWAY: AWAY}


def hex_of(rgba) -> str:
    """A colour as markup wants it: "ff8800"."""
    return "".join(f"{max(0, min(255, int(round(c * 255)))):02x}" for c in rgba[:3])


# --- the box's team colours ------------------------------------------------------------------------
BLACK = (0, 0, 0, 1)
CLASH = 120.0        # two shirts nearer than this (redmean RGB distance, 0..765) look alike at 1 m
PITCH_GREEN = (0.05, 0.2, 0.08, 1)


def rgba_of(colour: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """"#1f4fd1" -> (0.12, 0.31, 0.82, 1)."""
    text = colour.lstrip("#")
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255, alpha)


def luminance(rgba) -> float:
    """Relative luminance (WCAG 2): 0 for black, 1 for white."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(float(c)) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(rgba) -> tuple[float, float, float, float]:
    """Black or white text, whichever reads better on ``rgba``."""
    return BLACK if contrast(rgba, BLACK) > contrast(rgba, TEXT) else TEXT


def distance(a, b) -> float:
    """How different two colours look ("redmean" weighted RGB distance, 0..~765)."""
    r1, g1, b1 = (c * 255 for c in a[:3])
    r2, g2, b2 = (c * 255 for c in b[:3])
    rm = (r1 + r2) / 2
    return ((2 + rm / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2 + (2 + (255 - rm) / 256) * (b1 - b2) ** 2) ** 0.5


@dataclass(frozen=True)
class Kit:
    """How a side is painted: its shirt (figures, name tags, cards), the text on it, and the
    ring drawn round its figures (its trim, or the text colour: a dark shirt on the green
    pitch still shows)."""

    shirt: tuple[float, float, float, float]
    text: tuple[float, float, float, float]
    ring: tuple[float, float, float, float]
    note: str = ""       # why the away side is not in its first colour ("clash")

    @classmethod
    def of(cls, shirt, trim=None, note: str = "") -> "Kit":
        text = text_on(shirt)
        ring = trim if trim is not None and distance(trim, shirt) >= CLASH else text
        return cls(tuple(shirt), text, tuple(ring), note)


DEFAULT_KITS = {Team.HOME: Kit.of(HOME), Team.AWAY: Kit.of(AWAY)}
# An away side whose every colour looks like the home shirt wears one of these instead.
SPARE_SHIRTS = (AWAY, HOME, (0.96, 0.96, 0.96, 1), (0.1, 0.1, 0.1, 1), (1, 0.6, 0.1, 1))


def kits(home: tuple[str, ...] = (), away: tuple[str, ...] = ()) -> dict[Team, Kit]:
    """Each side's kit from the box's colours (``#rrggbb``, shirt first; none entered: the
    tablet's own blue and red). Two shirts that look alike are told apart the way referees
    do: the away side changes, to its second colour if that differs from the home shirt, else
    to the spare shirt that differs most."""
    def parse(colours) -> list[tuple[float, float, float, float]]:
        out = []
        for c in colours or ():
            try:
                out.append(rgba_of(c))
            except (ValueError, IndexError):
                continue
        return out
    h, a = parse(home), parse(away)
    home_kit = Kit.of(h[0], h[1] if len(h) > 1 else None) if h else DEFAULT_KITS[Team.HOME]
    if a:
        away_kit = Kit.of(a[0], a[1] if len(a) > 1 else None)
    else:
        away_kit = DEFAULT_KITS[Team.AWAY]
    if distance(home_kit.shirt, away_kit.shirt) < CLASH:
        alternates = [c for c in a[1:] if distance(c, home_kit.shirt) >= CLASH]
        if alternates:
            away_kit = Kit.of(alternates[0], a[0], note="second colours: the shirts clash")
        else:
            spare = max(SPARE_SHIRTS, key=lambda c: distance(c, home_kit.shirt))
            away_kit = Kit.of(spare, a[0] if a else None, note="spare colours: the shirts clash")
    return {Team.HOME: home_kit, Team.AWAY: away_kit}
