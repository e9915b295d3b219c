"""The Fußball-Liga variant as it is drawn (board.py: the printed board; look.py: figures,
ball, scoreboard)."""

from .board import board_shapes
from .look import FussballLigaLook, mmss

__all__ = ["FussballLigaLook", "board_shapes", "mmss"]
