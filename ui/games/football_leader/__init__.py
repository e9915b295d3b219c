"""Football Leader's face on the tablet (see face.py for how its modules divide it)."""

from ...looks.football_leader import SpaceGeometry, board_shapes, counter_spots
from .dodges import DODGES
from .face import FootballLeaderFace
from .sheets import PRESETS, preset_sheet
from .turn import ACTIONS, card_text

__all__ = ["ACTIONS", "DODGES", "PRESETS", "FootballLeaderFace", "SpaceGeometry", "board_shapes", "card_text",
           "counter_spots", "preset_sheet"]
