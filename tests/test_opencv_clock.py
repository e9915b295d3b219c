"""benchmarks/opencv_clock.py: the time inside OpenCV's own functions, counted while a block
runs and only then (the benchmark's floor under any rewrite of the Python parts)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.opencv_clock import opencv_clock


def test_counts_opencv_calls_and_nothing_else():
    image = np.random.default_rng(7).integers(0, 256, (1500, 1500), np.uint8)
    with opencv_clock() as inside:
        sorted(range(200_000), key=lambda k: -k)  # Python's own work: not OpenCV's
        assert inside[0] == 0.0
        out = cv2.GaussianBlur(image, (0, 0), 3.0)
        after_blur = inside[0]
        assert after_blur > 0.0
        np.sort(image, axis=None)  # numpy's: not counted either
        assert inside[0] == after_blur
    # the wrapped call gives what OpenCV gives
    assert np.array_equal(out, cv2.GaussianBlur(image, (0, 0), 3.0))


def test_puts_opencv_back_even_when_the_block_raises():
    blur, remap = cv2.GaussianBlur, cv2.remap
    with pytest.raises(RuntimeError):
        with opencv_clock():
            assert cv2.GaussianBlur is not blur
            raise RuntimeError("the block failed")
    assert cv2.GaussianBlur is blur and cv2.remap is remap
