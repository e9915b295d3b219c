"""The printed board is drawn once into a texture (issue 32, item 1): it looks as it did when
its instructions were replayed every frame, in all four games, and moving figures do not draw
it again (tests/ui_pitch_bake.py, in its own process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from test_ui_app import APP_HANG
from web_kit import GAMES

ROOT = Path(__file__).resolve().parent.parent


def test_the_baked_board_looks_as_drawn_and_is_drawn_once(tmp_path):
    out = tmp_path / "result.json"
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2")
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_pitch_bake.py"), str(out), str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=APP_HANG)
    assert out.exists(), f"the driver did not finish:\n{proc.stderr[-4000:]}"
    result = json.loads(out.read_text())
    assert result["error"] == ""
    assert sorted(result["games"]) == sorted(GAMES)
    for game, r in result["games"].items():
        assert r["draws_before"] >= 1 and r["draws_after"] == r["draws_before"], (game, r)
        # Each figure's instructions were made once; moving them made none.
        assert r["figures"] >= 10 and r["made_before"] >= r["figures"] and r["made_after"] == r["made_before"], (game, r)
        baked = np.asarray(Image.open(r["baked"]).convert("RGB"), dtype=int)
        direct = np.asarray(Image.open(r["direct"]).convert("RGB"), dtype=int)
        # A thin line may land one pixel over (the texture sits on whole pixels): each pixel
        # is compared with the nearest match within one pixel of it.
        diff = np.min([np.abs(baked - np.roll(direct, (dy, dx), axis=(0, 1))).max(axis=2)
                       for dy in (-1, 0, 1) for dx in (-1, 0, 1)], axis=0)[1:-1, 1:-1]
        assert (diff <= 24).mean() >= 0.999, (game, float((diff <= 24).mean()))
