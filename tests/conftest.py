"""Test-wide setup: the tablet app runs headless here (no display; Kivy's SDL2 draws
offscreen), which the app only does when asked to (without it, it says there is no display
and exits with status 2). Child processes (the UI scenarios, `touchline demo`) inherit it."""

from __future__ import annotations

import os

os.environ["TOUCHLINE_HEADLESS"] = "1"
