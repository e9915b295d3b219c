"""Launching the tablet app: with no display it says so in one line and exits 2; launched
(headless, opted in), it opens at 1280x800 and prints no traceback, no CRITICAL line and no
deprecation warning at the default log level."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from test_ui_app import APP_HANG

ROOT = Path(__file__).resolve().parent.parent

# Starts `touchline` (plain: the app) with an app class that stops itself one second after it
# started and prints its window's size.
QUIT_AFTER_START = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import ui.app as app_module
built = app_module.build_app_class

def build_app_class():
    cls = built()

    class StopsItself(cls):
        def on_start(self):
            super().on_start()
            from kivy.clock import Clock
            from kivy.core.window import Window

            def stop(_dt):
                print("window", *Window.size, flush=True)
                self.stop()
            Clock.schedule_once(stop, 1.0)
    return StopsItself

app_module.build_app_class = build_app_class
import companion.cli
raise SystemExit(companion.cli.main([]))
"""


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KIVY_", "TOUCHLINE_", "SDL_")) and k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(KIVY_HOME=str(tmp_path / "kivy"), TOUCHLINE_DATA_DIR=str(tmp_path / "data"), **extra)
    return env


def test_with_no_display_the_app_says_so_in_one_line_and_exits_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "companion.cli"], cwd=ROOT, env=clean_env(tmp_path),
                          capture_output=True, text=True, timeout=APP_HANG)
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "xvfb-run" in lines[0], proc.stderr
    assert proc.stdout == ""


def test_a_launch_is_quiet_and_opens_at_1280x800(tmp_path):
    driver = tmp_path / "quit_after_start.py"   # a file: Kivy reads an App's source file
    driver.write_text(QUIT_AFTER_START)
    proc = subprocess.run([sys.executable, str(driver)], cwd=ROOT,
                          env=clean_env(tmp_path, TOUCHLINE_HEADLESS="1"), capture_output=True, text=True,
                          timeout=APP_HANG)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "window 1280 800" in proc.stdout, proc.stdout
    err = proc.stderr
    assert "Traceback" not in err, err[-3000:]
    assert "CRITICAL" not in err, err[-3000:]
    assert "Deprecated" not in err and "DeprecationWarning" not in err, err[-3000:]
    assert " INFO" not in err, err[-3000:]


def test_the_window_fits_a_smaller_screen_and_keeps_its_shape(monkeypatch):
    from ui.launch import WINDOW_ENV, window_size

    monkeypatch.delenv(WINDOW_ENV, raising=False)
    assert window_size(None) == (1280, 800)
    assert window_size((1920, 1200)) == (1280, 800)
    w, h = window_size((1024, 700))
    assert w <= 1024 and h <= 700 - 64 and abs(w / h - 1.6) < 0.01
    monkeypatch.setenv(WINDOW_ENV, "1920x1200")
    assert window_size((1024, 700)) == (1920, 1200)


def test_no_display_is_said_only_on_a_desktop_without_one(monkeypatch):
    from ui.launch import HEADLESS_ENV, display_problem

    for name in ("DISPLAY", "WAYLAND_DISPLAY", HEADLESS_ENV):
        monkeypatch.delenv(name, raising=False)
    assert "no display" in display_problem()
    monkeypatch.setenv(HEADLESS_ENV, "1")
    assert display_problem() is None
    monkeypatch.delenv(HEADLESS_ENV)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert display_problem() is None
