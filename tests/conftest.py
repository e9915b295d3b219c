"""Test-wide setup: the tablet app runs headless here (no display; Kivy's SDL2 draws
offscreen), which the app only does when asked to (without it, it says there is no display
and exits with status 2). Child processes (the UI scenarios, `touchline demo`) inherit it."""

from __future__ import annotations

import os

os.environ["TOUCHLINE_HEADLESS"] = "1"
# Mesa's software GL (llvmpipe) draws on the calling thread: its rasterizer threads (one a core
# by default) spin while they wait, which cost a UI scenario 60% more CPU (20.8 s against 12.9 s
# user for the rules reference's) on a 2-core machine shared with the rest of the suite.
os.environ.setdefault("LP_NUM_THREADS", "0")

# Property tests draw the same examples on every run and every machine (seeded randomness,
# house style): a failure found once is found again, and CI never fails on a lucky draw.
# HYPOTHESIS_PROFILE=explore draws new examples, to look for failures on purpose.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
