"""Futboard's face on the tablet (see face.py for how its modules divide it)."""

from ...looks.futboard import board_shapes
from .face import FutboardFace
from .lineup import lineup_commands, lineup_shape

__all__ = ["FutboardFace", "board_shapes", "lineup_commands", "lineup_shape"]
