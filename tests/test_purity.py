"""The rules core stays pure Python: nothing under companion/ imports cv2, kivy or serial."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"cv2", "kivy", "serial"}
MODULES = sorted((ROOT / "companion").rglob("*.py"))


def forbidden_imports(source: str) -> list[str]:
    """Names of forbidden modules imported by ``source``, however the import is spelt:
    ``import serial.tools``, ``from cv2 import x``, ``import kivy.app as k``, and
    ``__import__("cv2")`` / ``importlib.import_module("kivy")`` with a constant name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in ("__import__", "import_module") and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        found += [name for name in names if name.split(".")[0] in FORBIDDEN]
    return found


@pytest.mark.parametrize("source, expected", [
    ("import cv2", ["cv2"]),
    ("import serial.tools.list_ports", ["serial.tools.list_ports"]),
    ("from cv2 import aruco", ["cv2"]),
    ("from kivy.app import App", ["kivy.app"]),
    ("import numpy, kivy as k", ["kivy"]),
    ("def f():\n    import serial\n", ["serial"]),
    ("__import__('cv2')", ["cv2"]),
    ("importlib.import_module('kivy.clock')", ["kivy.clock"]),
    ("from . import serial", []),          # a sibling module of that name, not pyserial
    ("import serializer, cv2x", []),
    ("x = 'import cv2'", []),
])
def test_the_detector_itself(source, expected):
    assert forbidden_imports(source) == expected


def test_there_are_modules_to_check():
    assert len(MODULES) > 10


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_module_under_companion_imports_devices_or_ui(path):
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


def test_importing_the_rules_loads_no_device_or_ui_library():
    code = (
        "import json, sys, pkgutil, importlib, companion\n"
        "import companion.fublet.rules\n"
        "for info in pkgutil.walk_packages(companion.__path__, 'companion.'):\n"
        "    importlib.import_module(info.name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
