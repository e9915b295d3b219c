"""The live screen's top row beside the score (the team names on their shirts are
ui/widgets/teamtag.py's): the game's clock with what a tap on it does, and how the camera
and the dice tray are."""

from __future__ import annotations

from kivy.utils import escape_markup

from .. import theme

HEALTH = {"off": "off", "ok": "on", "degraded": "unsure", "lost": "lost"}


def health_line(view) -> str:
    camera, tray = str(view.camera), str(view.tray)
    return f"Camera {HEALTH.get(camera, camera)} · Tray {HEALTH.get(tray, tray)}"


def clock_markup(clock: str, action: str, narrow: bool) -> str:
    """The clock's button: its time, and under it what a tap does (``action``: "start", "stop"
    or "" for a clock no tap moves)."""
    # On the clock itself "Tap to start" says enough where the whole hint would wrap onto a
    # third line and push the clock's own line out of its button (800 px: "half").
    hint = {"start": "Tap to start", "stop": "Tap to stop"}.get(action) if narrow else \
        {"start": "Tap to start the clock", "stop": "Tap to stop the clock"}.get(action)
    return f"{escape_markup(clock)}\n[size={theme.SMALL}][b]{hint}[/b][/size]" if hint else escape_markup(clock)
