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


def spec_datas() -> list[tuple[Path, str]]:
    """The spec's data list, read by running the spec with PyInstaller's names stubbed out."""
    import sys
    import types

    captured: dict = {}
    hooks = types.ModuleType("kivy.tools.packaging.pyinstaller_hooks")
    hooks.get_deps_minimal = lambda **_kw: {"hiddenimports": [], "excludes": []}
    hooks.hookspath = lambda: []
    hooks.runtime_hooks = lambda: []
    names = {"SPECPATH": str(ROOT / "ui" / "packaging" / "windows"), "Analysis": lambda *a, **kw: captured.update(kw) or types.SimpleNamespace(
                 pure=[], scripts=[], binaries=[], datas=[]),
             "PYZ": lambda *a, **kw: None, "EXE": lambda *a, **kw: None, "COLLECT": lambda *a, **kw: None,
             "Tree": lambda *a, **kw: None}
    saved = sys.modules.get(hooks.__name__)
    sys.modules[hooks.__name__] = hooks
    try:
        exec(compile((ROOT / "ui" / "packaging" / "windows" / "touchline.spec").read_text(encoding="utf-8"),
                     "touchline.spec", "exec"), names)
    finally:
        if saved is None:
            sys.modules.pop(hooks.__name__, None)
        else:
            sys.modules[hooks.__name__] = saved
    return [(Path(src), dest) for src, dest in captured["datas"]]


def test_the_desktop_spec_takes_every_file_the_package_ships():
    """What pyproject ships as package data, the PyInstaller build must carry to the same place
    (.ci/package-smoke builds and runs it; this is the quick check of its data list)."""
    import tomllib

    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]
    datas = spec_datas()
    missing = []
    for package, patterns in package_data.items():
        base = ROOT.joinpath(*package.split("."))
        for pattern in patterns:
            for path in base.glob(pattern):
                rel = path.relative_to(ROOT).as_posix()
                carried = any(path == src or (src.is_dir() and src in path.parents
                                              and f"{dest}/{path.relative_to(src).as_posix()}" == rel)
                              or (path == src and f"{dest}/{path.name}" == rel) for src, dest in datas)
                if not carried:
                    missing.append(rel)
    assert missing == [], f"the spec's datas leave out {missing[:5]}"
