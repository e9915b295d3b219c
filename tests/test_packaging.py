"""The tablet builds name what is loaded by name at run time: every game's rules, box data
and tablet face (PyInstaller cannot see importlib's imports)."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.games import GAMES
from ui.games import FACES

ROOT = Path(__file__).resolve().parents[1]


def test_the_windows_spec_names_every_game():
    tree = ast.parse((ROOT / "ui" / "packaging" / "windows" / "touchline.spec").read_text(encoding="utf-8"))
    games = next(node.value for node in ast.walk(tree)
                 if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "GAMES")
    named = {elt.value for elt in games.elts}
    assert named == set(GAMES) == set(FACES)
    for game in named:
        assert (ROOT / "companion" / game / "data").is_dir(), game


def test_the_android_build_takes_the_data_files():
    spec = (ROOT / "ui" / "packaging" / "android" / "buildozer.spec").read_text(encoding="utf-8")
    exts = next(line for line in spec.splitlines() if line.startswith("source.include_exts"))
    assert {"py", "kv", "json"} <= {e.strip() for e in exts.split("=", 1)[1].split(",")}
