"""The ball token looked at again, turned every way: where the rescue stage read no ball.

The rescue stage (:mod:`vision.rescue`) draws each candidate's patch turned as its edges seem
to run, measured at a third of the patch's resolution. A ball token is a single 9.5 mm marker
on a 12 mm token lying on the board, about 10 px across at 1080p: on the printed pitch around it
the turn so measured can be 20-30 degrees off, the marker's black border is then not where the
box sums look for it, and its edges do not fit. There is one ball and one id to find, so where
none was read the likeliest few of its candidates (a cap's white margin around a black border,
strongest first) are drawn again at turns an eighth of a quarter turn apart and read as any
rescue patch is: every id of the dictionary, the same margin over the second-best, the edges
fitted; only the ball's id is kept, and only if it is read at one place.
"""

from __future__ import annotations

import math

import numpy as np

from .detect import Detection

# patches drawn per candidate, their turns spread over a quarter turn (a square's symmetry)
TURNS = 8


def ball_again(settings, gray: np.ndarray, camera, view, story: list, marker_mm: float, token_mm: float,
               dictionary: str, ball_id: int, tries: int) -> tuple[list[Detection], list]:
    """Detections (frame pixels) of the ball (``ball_id``) in the grey frame (H, W) uint8 from
    the ball search's candidates (``story``: :class:`vision.rescue.Candidate` s in its view
    ``view``, strongest first) whose cap margin showed (``settings.min_rim``) but which read
    nothing: the first ``tries`` of them, each drawn at :data:`TURNS` turns. Returns at most
    one detection, and the new candidates' stories for the debug image."""
    from .rescue import one_per_id, read_patches  # the stage imports this module

    tried = [c for c in story if c.marker < 0 and c.rim >= settings.min_rim][:tries]
    if not tried:
        return [], []
    centres = np.array([c.view_px for c in tried], np.float64)
    turns = np.arange(TURNS) * (math.pi / 2 / TURNS)
    got, more = read_patches(settings, gray, camera, view, np.repeat(centres, TURNS, axis=0), marker_mm, token_mm,
                             dictionary, {ball_id}, np.tile(turns, len(tried)))
    return one_per_id(got), more
