"""One look for every screen: colours, the team colours, and the typography scale.

Sizes are strings Kivy reads as sp. At 1280x800 on a 10" tablet nothing but a board's
printed labels goes under ``SMALL`` (18 sp) and no board label under ``BOARD_MIN`` (12 sp):
that is what reads from a chair a metre away (tests/test_ui_layout.py checks it).
"""

from __future__ import annotations

from companion.teams import Team

# --- typography (sp) -------------------------------------------------------------------------
DISPLAY = "56sp"     # the app's name on Home
SCORE = "30sp"       # the scoreboard
TITLE = "28sp"       # a screen's title
HEADING = "22sp"     # a pending request, a section
BODY = "20sp"        # buttons, forms, messages
SMALL = "18sp"       # the smallest text anywhere but on the board
SMALL_SP = 18
BOARD_MIN = 12       # the smallest printed number on a board (sp)

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

HOME = (0.2, 0.42, 0.92, 1)
AWAY = (0.88, 0.25, 0.25, 1)
TEAM = {Team.HOME: HOME, Team.AWAY: AWAY}
# Player cards: the team colour, darker, so white numbers stay readable.
CARD = {Team.HOME: (0.18, 0.32, 0.72, 1), Team.AWAY: (0.68, 0.2, 0.2, 1)}


def team_colour(team: Team | str | None, alpha: float = 1.0) -> tuple[float, float, float, float]:
    if isinstance(team, str):
        team = Team(team) if team in ("home", "away") else None
    r, g, b, _ = TEAM.get(team, TEXT) if team is not None else TEXT
    return (r, g, b, alpha)


def hex_of(rgba) -> str:
    """A colour as markup wants it: "ff8800"."""
    return "".join(f"{max(0, min(255, int(round(c * 255)))):02x}" for c in rgba[:3])
