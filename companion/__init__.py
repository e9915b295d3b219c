"""Touchline's rules core: events, journal, dice, board geometry and the game rulesets.

Pure Python on purpose: nothing here imports cv2, kivy or serial, so the rules can be
tested, replayed and embedded anywhere.
"""

__version__ = "0.1.0"

# Before any record class is made: the methods dataclasses writes for them are compiled once
# and kept (companion/method_cache.py), about half of importing a game otherwise.
from . import method_cache as _method_cache  # noqa: E402

_method_cache.install()
