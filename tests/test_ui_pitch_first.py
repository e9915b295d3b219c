"""A camera's move reaches the pitch on the frame its view arrives; the live screen's panels,
which take far longer to rebuild, follow on the next frame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_ui_app import APP_HANG

ROOT = Path(__file__).resolve().parent.parent


def test_the_pitch_shows_a_new_view_a_frame_before_the_rest_of_the_screen(tmp_path):
    out = tmp_path / "result.json"
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2")
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_pitch_first.py"), str(out)], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    assert out.exists(), f"the app did not finish:\n{proc.stderr[-4000:]}"
    result = json.loads(out.read_text())
    assert result["error"] == ""
    flips = result["flips"]
    pitch = next(i for i, f in enumerate(flips) if f["pitch"])
    screen = next(i for i, f in enumerate(flips) if f["screen"])
    assert pitch < screen  # the figures first
    assert all(f["pitch"] and f["screen"] for f in flips[screen:])  # then everything agrees
