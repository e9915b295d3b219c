"""`touchline demo` end to end: the app, the rendered camera, the simulated tray, the rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_ui_app import APP_HANG

ROOT = Path(__file__).resolve().parent.parent


def test_the_demo_plays_its_match_through_camera_tray_and_rules(tmp_path):
    result = tmp_path / "demo.json"
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "--pace", "0", "--exit-when-done",
                           "--result", str(result)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=APP_HANG)
    assert result.exists(), proc.stderr[-3000:]
    r = json.loads(result.read_text())
    assert r["error"] == "", r["error"]
    assert proc.returncode == 0
    assert r["summary"]["score"] == {"home": 0, "away": 1}
    # Every part took part: moves proposed by the camera, rolls framed by the tray.
    assert r["sources"].get("vision", 0) >= 22 and r["sources"].get("tray", 0) >= 5
    assert r["camera"] == "ok" and r["tray"] == "ok"
    assert "the camera to see #9's run" in r["steps"]
