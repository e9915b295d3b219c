"""What the live tracker tells the app: committed positions (sightings) and status changes.

These are the camera's proposals; the rules core decides what they mean (a placement, a
movement) and whether to accept them: ``to_core()`` gives the core's own
``companion.sightings.Sighting`` for ``Match.sight``. Nothing here knows the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.board import Square
from companion.sightings import Sighting as CoreSighting
from companion.teams import PlayerRef

OFF_PITCH = "off the pitch"  # the area of a point off the pitch in no named area (vision.locate)


@dataclass(frozen=True, slots=True)
class BallSighting:
    """The ball token settled at a board point (``square`` None off the pitch, ``area`` then names
    where: a bench, the substitution area or "off the pitch"); ``time_s`` is the frame's time."""

    x_mm: float
    y_mm: float
    square: Square | None
    area: str | None
    time_s: float

    def __repr__(self) -> str:
        return (f"BallSighting(x_mm={self.x_mm:.1f}, y_mm={self.y_mm:.1f}, square={self.square!r}, "
                f"area={self.area!r}, time_s={self.time_s:.3f})")

    def to_core(self) -> CoreSighting:
        """The rules core's sighting (``companion.sightings.Sighting``), for ``Match.sight``."""
        return _core(None, self.x_mm, self.y_mm, None, self.square, self.area, None)

    def to_json(self) -> dict:
        return {"type": "ball", "x_mm": round(self.x_mm, 1), "y_mm": round(self.y_mm, 1),
                "square": None if self.square is None else list(self.square), "area": self.area,
                "time_s": round(self.time_s, 3)}


@dataclass(frozen=True, slots=True)
class Sighting:
    """A figure settled at a board point, facing ``facing_deg`` (0 = +x, counter-clockwise):
    one committed move. ``square`` is its movement square (None off the pitch, ``area`` then
    names where), ``marker`` the id that was read, ``ball`` where the ball token last settled
    (None if never seen), ``time_s`` the frame's time. ``doubt``: why a person should confirm
    it (read where the rules have another figure); empty when there is nothing to doubt."""

    player: PlayerRef
    x_mm: float
    y_mm: float
    facing_deg: float
    square: Square | None
    area: str | None
    marker: int
    time_s: float
    ball: tuple[float, float] | None = None
    doubt: str = ""

    def __repr__(self) -> str:
        ball = None if self.ball is None else (round(self.ball[0], 1), round(self.ball[1], 1))
        doubt = f", doubt={self.doubt!r}" if self.doubt else ""
        return (f"Sighting(player={self.player!r}, x_mm={self.x_mm:.1f}, y_mm={self.y_mm:.1f}, "
                f"facing_deg={self.facing_deg:.0f}, square={self.square!r}, area={self.area!r}, "
                f"marker={self.marker}, time_s={self.time_s:.3f}, ball={ball!r}{doubt})")

    def to_core(self) -> CoreSighting:
        """The rules core's sighting (``companion.sightings.Sighting``), for ``Match.sight``: off
        the pitch it has no board point, only the named area (None where there is none)."""
        return _core(self.player, self.x_mm, self.y_mm, self.facing_deg, self.square, self.area, self.marker)

    def to_json(self) -> dict:
        return {"type": "figure", "player": str(self.player), "marker": self.marker,
                "x_mm": round(self.x_mm, 1), "y_mm": round(self.y_mm, 1), "facing_deg": round(self.facing_deg, 1),
                "square": None if self.square is None else list(self.square), "area": self.area,
                "time_s": round(self.time_s, 3),
                "ball": None if self.ball is None else [round(self.ball[0], 1), round(self.ball[1], 1)],
                **({"doubt": self.doubt} if self.doubt else {})}


@dataclass(frozen=True, slots=True)
class HealthChange:
    """Vision health changed: "ok" (trust the camera), "degraded" (frames arrive but the view is
    doubtful: corner markers hidden or moved, frames too slow) or "lost" (no frames: go manual)."""

    health: str
    reason: str
    time_s: float

    def to_json(self) -> dict:
        return {"type": "health", "health": self.health, "reason": self.reason, "time_s": round(self.time_s, 3)}


@dataclass(frozen=True, slots=True)
class RecalibrationNeeded:
    """The corner markers are no longer where the calibration saw them (camera or board bumped):
    positions cannot be trusted until the pitch is calibrated again."""

    shift_px: float
    markers: tuple[int, ...]
    time_s: float

    def to_json(self) -> dict:
        return {"type": "recalibrate", "shift_px": round(self.shift_px, 1), "markers": list(self.markers),
                "time_s": round(self.time_s, 3),
                "message": f"the corner markers moved by {self.shift_px:.0f} px: the camera or the board was bumped; "
                           f"calibrate the pitch again"}


@dataclass(frozen=True, slots=True)
class ConflictNotice:
    """A marker that stays in conflict (seen twice, or not in the marker map) for a while."""

    marker: int
    reason: str
    time_s: float

    def to_json(self) -> dict:
        return {"type": "conflict", "marker": self.marker, "reason": self.reason, "time_s": round(self.time_s, 3)}


@dataclass(frozen=True, slots=True)
class SizeNotice:
    """The caps' (or the ball token's) markers are printed at another size than the one the
    reader had: ``figure_mm`` and ``ball_mm`` as measured on the frames (None: not measured),
    ``reason`` in words; the reader goes on at the measured size."""

    figure_mm: float | None
    ball_mm: float | None
    reason: str
    time_s: float

    def to_json(self) -> dict:
        return {"type": "marker_size", "figure_marker_mm": self.figure_mm, "ball_marker_mm": self.ball_mm,
                "reason": self.reason, "time_s": round(self.time_s, 3)}


Event = Sighting | BallSighting | HealthChange | RecalibrationNeeded | ConflictNotice | SizeNotice


def _core(player: PlayerRef | None, x: float, y: float, facing: float | None, square: Square | None,
          area: str | None, marker: int | None) -> CoreSighting:
    if square is not None:
        return CoreSighting(player, x, y, facing, None, marker)
    return CoreSighting(player, None, None, facing, None if area == OFF_PITCH else area, marker)
