"""A frame reduced by a whole factor, each pixel a block's mean: what the views of the caps'
plane and the 4K frame's coarse search are drawn from (one reduction, shared, per frame)."""

from __future__ import annotations

import cv2
import numpy as np


def reduce_frame(gray: np.ndarray, shrink: int, reduced: dict | None = None) -> np.ndarray:
    """Grey frame (H, W) uint8 -> (H // shrink, W // shrink) uint8, each pixel the mean of a
    ``shrink`` x ``shrink`` block (the frame itself at 1): halved while ``shrink`` is even, then
    reduced by what is left at once. OpenCV's area reduction has a fast path for 2 (1.2 ms for
    a 4K frame on one thread here, against 6.3 ms by 4 and 8.4 ms by 3 at once). Each step
    rounds to whole grey levels, so the result may differ from one reduction by a grey level.
    ``reduced``: the frame's reductions made already, by factor (this one is kept there)."""
    if shrink <= 1:
        return gray
    if reduced is not None and shrink in reduced:
        return reduced[shrink]
    # on from the largest halving made already that divides it: the same steps
    start = max((f for f in (reduced or ()) if f & (f - 1) == 0 and shrink % f == 0), default=1)
    small, left = (reduced[start], shrink // start) if start > 1 else (gray, shrink)
    while left > 1:
        k = 2 if left % 2 == 0 else left
        h, w = small.shape[0] // k, small.shape[1] // k
        small = cv2.resize(small[:k * h, :k * w], (w, h), interpolation=cv2.INTER_AREA)
        left //= k
    if reduced is not None:
        reduced[shrink] = small
    return small
