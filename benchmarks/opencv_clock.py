"""How much of a call's time is OpenCV's own work: the thread CPU time spent inside cv2's
module-level functions (``cv2.remap``, ``cv2.findContours``, ...) while a block runs.

What is left of a reader's time beyond it is Python's and numpy's; what it holds is the floor
that no rewrite of the Python parts can go under. Methods of OpenCV's objects
(``ArucoDetector.detectMarkers``, which the 4K search calls) are not counted: they cannot be
wrapped from Python.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import cv2


def _clocked(f: Callable, spent: list[float]) -> Callable:
    @functools.wraps(f)
    def clocked(*args, **kwargs):
        t0 = time.thread_time()
        try:
            return f(*args, **kwargs)
        finally:
            spent[0] += time.thread_time() - t0
    return clocked


@contextmanager
def opencv_clock() -> Iterator[list[float]]:
    """Within the block, every module-level OpenCV function adds its thread CPU time (seconds)
    to the yielded one-item list; they are put back as they were on leaving it. A call made
    inside another OpenCV call is counted once (OpenCV never calls back into Python)."""
    spent = [0.0]
    originals = {name: f for name, f in vars(cv2).items()
                 if callable(f) and type(f).__name__ == "builtin_function_or_method"}
    try:
        for name, f in originals.items():
            setattr(cv2, name, _clocked(f, spent))
        yield spent
    finally:
        for name, f in originals.items():
            setattr(cv2, name, f)
