"""Test-wide setup: the tablet app runs headless here (no display; Kivy's SDL2 draws
offscreen), which the app only does when asked to (without it, it says there is no display
and exits with status 2). Child processes (the UI scenarios, `touchline demo`) inherit it."""

from __future__ import annotations

import os

os.environ["TOUCHLINE_HEADLESS"] = "1"

# Property tests draw the same examples on every run and every machine (seeded randomness,
# house style): a failure found once is found again, and CI never fails on a lucky draw.
# HYPOTHESIS_PROFILE=explore draws new examples, to look for failures on purpose.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
