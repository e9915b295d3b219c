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
