"""The printed size of the markers, measured on a frame rather than assumed.

A table that printed its caps at another scale than the shipped sheet (11 mm markers instead of
17) used to lose its camera with no clear message: the size check took every cap for tipped
over, or the search sized for 17 mm markers did not find them. Here each marker read is measured
in millimetres where it stands, from the camera model (its corners cast onto the plane at its
height), and the caps' median is the printed size: calibration stores it, and a reader with no
size given or stored measures it on the frame itself.

Pure functions over cast points; the casting is :func:`vision.locate.marker_points_mm`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .config import MarkerSet

# How many pixels smaller than it is the reader measures a marker's side (a cap's thin white
# margin darkened by what is around it): vision.locate.EDGE_SHRINK_PX, the same measure.
EDGE_SHRINK_PX = 0.4
# A measured size this far from the one in use (as a fraction) is another print, not noise:
# the caps' median over three or more is good to 2-3 % (the cap height, the edge shrink).
SIZE_TOLERANCE = 0.08
MIN_CAPS = 3


@dataclass(frozen=True, slots=True)
class MarkerSizes:
    """Printed sides measured on a frame: the caps' markers (the median of ``figures`` caps)
    and the ball token's, each None where not measured."""

    figure_mm: float | None = None
    figures: int = 0
    ball_mm: float | None = None

    @property
    def measured(self) -> bool:
        return self.figure_mm is not None or self.ball_mm is not None

    def apply(self, markers: MarkerSet) -> MarkerSet:
        """``markers`` with the sizes measured here (the others as they were)."""
        return markers.with_marker_sizes(self.figure_mm, self.ball_mm)

    def to_json(self) -> dict:
        out: dict = {}
        if self.figure_mm is not None:
            out.update({"figure_marker_mm": self.figure_mm, "caps_measured": self.figures})
        if self.ball_mm is not None:
            out["ball_marker_mm"] = self.ball_mm
        return out

    @classmethod
    def from_json(cls, obj: object) -> "MarkerSizes":
        """Refuses (ValueError) a size no printed marker has."""
        if not isinstance(obj, dict):
            raise ValueError("marker sizes are an object like {\"figure_marker_mm\": 11.0}")
        fig, ball = obj.get("figure_marker_mm"), obj.get("ball_marker_mm")
        for name, v in (("figure_marker_mm", fig), ("ball_marker_mm", ball)):
            if v is not None and not (isinstance(v, (int, float)) and 3.0 <= float(v) <= 100.0):
                raise ValueError(f"{name} must be 3..100 mm, got {v!r}")
        return cls(None if fig is None else float(fig), int(obj.get("caps_measured", 0)),
                   None if ball is None else float(ball))


def marker_sides_mm(corners_px: np.ndarray, points_mm: np.ndarray, shrink_px: float = EDGE_SHRINK_PX) -> np.ndarray:
    """Each marker's printed side (N,) mm: its edges (N, 4, 2 corners px) lengthened by the
    reader's edge shrink, at the millimetres per pixel its corners cast onto the plane at its
    height (``points_mm`` (N, 4, 2)) give along each edge; the four edges averaged."""
    px = np.linalg.norm(corners_px - corners_px[:, [3, 0, 1, 2]], axis=2)
    mm = np.linalg.norm(points_mm - points_mm[:, [3, 0, 1, 2]], axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        sides = ((px + shrink_px) * mm / px).mean(axis=1)
    return sides


def measure(markers: MarkerSet, ids: list[int], corners_px: np.ndarray, points_mm: np.ndarray) -> MarkerSizes:
    """The printed sizes shown by markers ``ids`` (their corners (N, 4, 2) px and board points
    (N, 4, 2) mm on the plane at their heights): the caps' median, where ``MIN_CAPS`` caps or
    more read once each and agree (a robust spread under 10 %), and the ball token's, where it
    read once. A lifted cap or two do not move a median."""
    if not len(ids):
        return MarkerSizes()
    sides = marker_sides_mm(np.asarray(corners_px, float), np.asarray(points_mm, float))
    ids_arr = np.asarray(ids)
    once = np.array([int((ids_arr == m).sum()) == 1 for m in ids])
    ok = np.isfinite(sides) & once
    caps = ok & np.isin(ids_arr, markers.figure_ids)
    figure_mm, n = None, int(caps.sum())
    if n >= MIN_CAPS:
        typical = float(np.median(sides[caps]))
        spread = 1.4826 * float(np.median(np.abs(sides[caps] - typical)))
        if spread <= 0.1 * typical:
            figure_mm = round(typical, 1)
    ball = ok & (ids_arr == markers.ball_id)
    ball_mm = round(float(sides[ball][0]), 1) if ball.any() else None
    if ball_mm is not None and not 3.0 <= ball_mm <= 100.0:
        ball_mm = None
    if figure_mm is not None and not 3.0 <= figure_mm <= 100.0:
        figure_mm = None
    return MarkerSizes(figure_mm, n if figure_mm is not None else 0, ball_mm)


def other_print(in_use_mm: float, measured_mm: float | None) -> bool:
    """Whether a measured side says the markers are printed at another size than ``in_use_mm``."""
    return measured_mm is not None and abs(measured_mm / in_use_mm - 1.0) > SIZE_TOLERANCE


def disagreement(markers: MarkerSet, sizes: MarkerSizes, source: str) -> str | None:
    """A sentence for the coach when what the frame shows is another print than the size in use
    (``source``: "given", "measured" when calibrating, "assumed"), offering the measured size;
    None when they agree."""
    parts = []
    if other_print(markers.figure_marker_mm, sizes.figure_mm):
        parts.append(f"the caps' markers measure {sizes.figure_mm:g} mm across ({sizes.figures} caps), "
                     f"not {markers.figure_marker_mm:g} mm")
    if other_print(markers.ball_marker_mm, sizes.ball_mm):
        parts.append(f"the ball token's marker measures {sizes.ball_mm:g} mm, not {markers.ball_marker_mm:g} mm")
    if not parts:
        return None
    how = {"given": "the size given", "measured": "the size measured at calibration",
           "assumed": "the shipped sheet's size"}.get(source, "the size in use")
    offer = []
    if other_print(markers.figure_marker_mm, sizes.figure_mm):
        offer.append(f"--marker-mm {sizes.figure_mm:g}")
    if other_print(markers.ball_marker_mm, sizes.ball_mm):
        offer.append(f"--ball-marker-mm {sizes.ball_mm:g}")
    return (f"{'; '.join(parts)} ({how}): use the measured size ({' '.join(offer)}, or the camera check's "
            f"'Use the measured size'), or calibrate again with the figures standing")
