"""What the camera reports, and how the rules read it.

The camera commits a *sighting* when a figure has settled somewhere: the figure, a board
point in millimetres (or off the pitch), and the way it faces. A sighting is not a fact yet:
the ruleset turns it into the command a coach would have given for that move at this
moment of the match (``Ruleset.command_for``), and that command is validated like any other.
A sighting the rules refuse leaves the journal untouched, and the tablet shows the refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from .teams import PlayerRef


@dataclass(frozen=True, slots=True)
class Sighting:
    """A figure (``player``) or the ball (``player`` None) settled at a board point.

    ``x_mm``/``y_mm`` are None when the figure is off the pitch; ``area`` then names the
    off-pitch area it stands in (a bench, the substitution area) when known. ``facing`` is
    in degrees, 0 along +x, counter-clockwise seen from above.
    """

    player: PlayerRef | None
    x_mm: float | None
    y_mm: float | None
    facing: float | None = None
    area: str | None = None
    marker: int | None = None

    @property
    def on_pitch(self) -> bool:
        return self.x_mm is not None and self.y_mm is not None


@dataclass(frozen=True, slots=True)
class Standing:
    """Where the rules have a figure standing: the rectangle of its square or space, in board
    millimetres (x along the pitch, y across). The camera checks what it reads against it: an
    id read inside another figure's rectangle while that figure's marker does not read is
    likely that figure's marker partly covered (vision/tracker.py)."""

    player: PlayerRef
    x0_mm: float
    y0_mm: float
    x1_mm: float
    y1_mm: float

    @classmethod
    def around(cls, player: PlayerRef, x_mm: float, y_mm: float, length_mm: float, width_mm: float) -> "Standing":
        """The rectangle ``length_mm`` x ``width_mm`` centred on a square's or space's centre."""
        return cls(player, x_mm - length_mm / 2, y_mm - width_mm / 2, x_mm + length_mm / 2, y_mm + width_mm / 2)

    @property
    def centre_mm(self) -> tuple[float, float]:
        return (self.x0_mm + self.x1_mm) / 2, (self.y0_mm + self.y1_mm) / 2

    def contains(self, x_mm: float, y_mm: float, margin_mm: float = 0.0) -> bool:
        """Whether a board point lies in the rectangle grown by ``margin_mm`` on every side."""
        return (self.x0_mm - margin_mm <= x_mm <= self.x1_mm + margin_mm
                and self.y0_mm - margin_mm <= y_mm <= self.y1_mm + margin_mm)

    def __repr__(self) -> str:
        return (f"Standing({self.player!r}, {self.x0_mm:g}, {self.y0_mm:g}, {self.x1_mm:g}, "
                f"{self.y1_mm:g})")
