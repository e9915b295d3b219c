"""How the devices and the match are doing, in the words the screens show: shared by the
controller and its desks (ui/controller_dice.py, ui/controller_camera.py)."""

from __future__ import annotations

from enum import Enum

NO_MATCH = "No match is open: start a new match, or resume the last one from Home."
NO_MATCH_TO_RESUME = "There is no match to resume yet: start a new match."


class Health(str, Enum):
    """How a device is doing, as the screen shows it (a str, so "ok" compares equal)."""

    OFF = "off"            # not in use: positions or rolls come by hand
    OK = "ok"
    DEGRADED = "degraded"  # working, with a problem (a tray connecting, a camera to recalibrate)
    LOST = "lost"          # was in use and is gone

    def __str__(self) -> str:
        return self.value
