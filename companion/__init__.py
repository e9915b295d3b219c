"""Touchline's rules core: events, journal, dice, board geometry and the game rulesets.

Pure Python on purpose: nothing here imports cv2, kivy or serial, so the rules can be
tested, replayed and embedded anywhere.
"""

__version__ = "0.1.0"
