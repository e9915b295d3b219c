"""Rescue candidates looked at again, turned every way: where the first turn was wrong.

The rescue stage (:mod:`vision.rescue`) draws each candidate's patch turned as its edges seem
to run, measured on the patch at a third of its resolution. For a marker of 7 px in a blurred
frame, or a 10 px ball token on the printed pitch, with a figure's dark body or a line beside
it, that turn can be 10-45 degrees off: the marker's black border is then not where the box
sums look for it, and its edges do not fit (15 of the 30 misses left on the 9 mm tuning scenes).
So the likeliest few candidates that read nothing (a cap's white margin around a black border,
strongest first) are drawn again at turns spread evenly over a quarter turn (a square's
symmetry) and read as any rescue patch is: every id of the dictionary, the same margin over the
second-best, the edges fitted. :func:`look_turned` does it; the stage calls it for the figures'
caps and, where no ball was read, for the ball.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .detect import Detection
from .patches import cell_px_in_frame, one_per_id, read_patches
from .refine import dictionary_codes


def look_turned(settings, gray: np.ndarray, camera, view, story: list, marker_mm: float, cap_mm: float,
                dictionary: str, accept: set[int], tries: int, turns: int) -> tuple[list[Detection], list]:
    """Detections (frame pixels, ids in ``accept``) in the grey frame (H, W) uint8 from a
    search's candidates (``story``: :class:`vision.patches.Candidate` s in its view ``view``,
    strongest first) whose cap margin showed (``settings.min_rim``) but which read nothing: the
    first ``tries`` of them whose cells are under ``settings.large_cell_px`` frame pixels (a
    larger marker's turn is measured well), each drawn at ``turns`` turns spread evenly over a
    quarter turn.
    Returns the detections (one per id, as :func:`vision.patches.one_per_id` keeps them) and
    the new candidates' stories for the debug image."""
    tried = [c for c in story if c.marker < 0 and c.rim >= settings.turned_min_rim
             and cell_px_in_frame(c.to_frame, c.patch.shape[0], settings.cell_px) < settings.large_cell_px][:tries]
    if not tried or not accept:
        return [], []
    centres = np.array([c.view_px for c in tried], np.float64)
    angles = np.arange(turns) * (math.pi / 2 / turns)
    # read as any id, so that a candidate read as two ids at two turns (the one asked for or not)
    # is seen to be neither
    every = set(range(int(dictionary_codes(dictionary)[1].max()) + 1))
    got, more = read_patches(settings, gray, camera, view, np.repeat(centres, turns, axis=0), marker_mm, cap_mm,
                             dictionary, every, np.tile(angles, len(tried)))
    ids = np.array([c.marker for c in more]).reshape(len(tried), turns)
    torn = {int(m) for row in ids if len(set(row[row >= 0].tolist())) > 1 for m in row[row >= 0]}
    more = [replace(c, marker=c.marker if c.marker in accept and c.marker not in torn else -1) for c in more]
    return one_per_id([d for d in got if d.marker in accept and d.marker not in torn]), more
