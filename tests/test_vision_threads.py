"""The camera's numerical work on one thread: numpy's BLAS asked before numpy loads, OpenCV when
the vision thread starts; a value the user set is kept."""

from __future__ import annotations

import os
import subprocess
import sys

import cv2

from vision.threads import THREAD_VARS


def _child(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    out = subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True,
                         timeout=120, check=True)
    return out.stdout.strip()


def test_the_vision_commands_ask_for_one_blas_thread_before_numpy_loads():
    code = ("import sys; import vision.cli; import os; "
            "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'], 'numpy' in sys.modules)")
    assert _child(code) == "1 1 True"
    # numpy was imported by vision.cli, after the variables were set (what OpenBLAS reads at load)
    assert _child(code, OPENBLAS_NUM_THREADS="3") == "3 1 True"  # the user's choice stands


def test_the_vision_thread_pins_opencv_to_one_thread():
    code = ("import cv2; cv2.setNumThreads(4); from vision.threads import one_thread; one_thread(); "
            "print(cv2.getNumThreads())")
    assert _child(code) == "1"


def test_the_worker_pins_opencv_when_it_starts(tmp_path):
    from vision.live import VisionWorker
    from vision.sources import IterSource

    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(4)
        worker = VisionWorker(lambda: IterSource(iter(()), "nothing"), calibrate=lambda image: None).start()
        worker.join(120)   # a hang guard: an empty source ends at once
        assert worker.finished.is_set() and cv2.getNumThreads() == 1
    finally:
        cv2.setNumThreads(before)
