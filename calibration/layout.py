"""Where the printed markers sit: a square marker's corners in board millimetres, and the four
corner markers placed just outside the pitch corners."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def marker_corners_mm(x_mm: float, y_mm: float, side_mm: float, facing_deg: float, z_mm: float = 0.0) -> np.ndarray:
    """Board coordinates (4, 3) of a square marker's corners in ArUco order (top-left, top-right,
    bottom-right, bottom-left of the printed marker) when it lies face up with its centre at
    ``(x_mm, y_mm, z_mm)`` and its top edge pointing at ``facing_deg`` (0 = +x, counter-clockwise).

    Seen from above with the top edge pointing up the page, the page's right is the facing
    turned 90 degrees clockwise: ``right = (sin f, -cos f)``.
    """
    a = math.radians(facing_deg)
    up = np.array([math.cos(a), math.sin(a)]) * side_mm / 2
    right = np.array([math.sin(a), -math.cos(a)]) * side_mm / 2
    c = np.array([x_mm, y_mm])
    xy = np.array([c + up - right, c + up + right, c - up + right, c - up - right])
    return np.column_stack([xy, np.full(4, float(z_mm))])


def facing_of(corners_xy: np.ndarray) -> float:
    """The facing (degrees, 0 = +x, counter-clockwise, in [0, 360)) of a marker from its corners
    (4, 2) in board coordinates: from its centre towards the middle of its top edge."""
    c = np.asarray(corners_xy, dtype=float).reshape(4, 2)
    v = (c[0] + c[1]) / 2 - (c[2] + c[3]) / 2
    return math.degrees(math.atan2(v[1], v[0])) % 360.0


@dataclass(frozen=True, slots=True)
class CornerLayout:
    """Four corner markers, ``ids[i]`` beside the pitch corner ``i`` of (0, 0), (L, 0), (L, W),
    (0, W). Each is a square of ``side_mm`` whose centre sits ``offset_mm`` outside the pitch along
    both lines through that corner, printed upright for a reader standing at the y = 0 touch line
    (its top edge points at +y)."""

    ids: tuple[int, int, int, int] = (40, 41, 42, 43)
    side_mm: float = 40.0
    offset_mm: float = 40.0

    def __post_init__(self) -> None:
        if len(self.ids) != 4 or len(set(self.ids)) != 4:
            raise ValueError(f"the corner layout needs four different marker ids, got {self.ids}")
        if self.side_mm <= 0 or self.offset_mm < self.side_mm / 2:
            raise ValueError("corner markers need a positive size and must lie outside the pitch "
                             f"(offset {self.offset_mm} mm < half the side {self.side_mm / 2} mm)")

    def centres_mm(self, length_mm: float, width_mm: float) -> dict[int, tuple[float, float]]:
        o = self.offset_mm
        spots = ((-o, -o), (length_mm + o, -o), (length_mm + o, width_mm + o), (-o, width_mm + o))
        return dict(zip(self.ids, spots))

    def corners_mm(self, length_mm: float, width_mm: float) -> dict[int, np.ndarray]:
        """Each corner marker's corners (4, 3) in board mm, ArUco order."""
        return {i: marker_corners_mm(x, y, self.side_mm, 90.0)
                for i, (x, y) in self.centres_mm(length_mm, width_mm).items()}

    def describe(self, length_mm: float, width_mm: float) -> list[str]:
        """Where each marker goes, in words a person can follow with a ruler."""
        names = ("(0, 0)", f"({length_mm:g}, 0)", f"({length_mm:g}, {width_mm:g})", f"(0, {width_mm:g})")
        lines = []
        for (mid, (x, y)), name in zip(self.centres_mm(length_mm, width_mm).items(), names):
            lines.append(f"marker {mid}: its centre {self.offset_mm:g} mm outside the goal line and {self.offset_mm:g} mm "
                         f"outside the touch line at pitch corner {name}, at ({x:g}, {y:g}) mm; top edge towards "
                         f"the far touch line (+y)")
        return lines
