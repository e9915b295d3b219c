"""One thread for the camera's numerical work.

Reading a frame is many small steps (thresholds, contours, corner fits on 20-pixel markers);
OpenCV's and numpy's thread pools gain nothing on them, and on a machine whose cores are busy
(a tablet drawing its UI, or a computer shared with other programs) their threads wait on one
another: vision measured several times slower with the pools than on one thread. The benchmarks
pin one thread; the app and the ``touchline`` commands pin it here.

numpy's BLAS reads its thread count from the environment once, when numpy is first imported, so
:func:`one_thread_env` must run before that to count (it never overrides a value the user set);
OpenCV's can be set at any time (:func:`one_thread`).
"""

from __future__ import annotations

import os

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread_env() -> None:
    """Ask numpy's BLAS (OpenBLAS, MKL, OpenMP) for one thread, unless the user said otherwise."""
    for var in THREAD_VARS:
        os.environ.setdefault(var, "1")


def one_thread() -> None:
    """One thread for OpenCV (process-wide) and, if numpy is not imported yet, for its BLAS."""
    one_thread_env()
    import cv2

    cv2.setNumThreads(1)
