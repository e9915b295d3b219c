"""Football Leader as it is drawn (board.py: the printed board and where counters stand;
look.py: figures, ball, scoreboard)."""

from .board import SpaceGeometry, board_shapes, counter_spots
from .look import FootballLeaderLook

__all__ = ["FootballLeaderLook", "SpaceGeometry", "board_shapes", "counter_spots"]
