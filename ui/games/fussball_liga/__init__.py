"""The Fußball-Liga face on the tablet (see face.py for how its modules divide it)."""

from ...looks.fussball_liga import board_shapes, mmss
from .clocks import bar_specs, expired
from .face import FussballLigaFace
from .lineup import standard_lineup

__all__ = ["FussballLigaFace", "bar_specs", "board_shapes", "expired", "mmss", "standard_lineup"]
