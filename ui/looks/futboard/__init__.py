"""Futboard as it is drawn (board.py: the printed field; look.py: figures, ball, scoreboard)."""

from .board import board_shapes
from .look import FutboardLook, mmss

__all__ = ["FutboardLook", "board_shapes", "mmss"]
