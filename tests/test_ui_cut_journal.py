"""A journal cut short of its anchor, resumed from Home in the real app (headless): the coach is
told which events are missing and the file is left as it was (issue 30). Screenshots in
test-artifacts/ui-cut-journal-<size>/."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.driver import AutoDriver
from companion.anchors import AnchorBook
from companion.journal import Journal

from test_ui_app import APP_HANG  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


def cut_match(data: Path) -> tuple[Path, int, int]:
    """A match played as the app plays it (anchored), then its last 40 events deleted."""
    path = data / "matches" / "fublet-2026-12-06-183000.sqlite"
    driver = AutoDriver.new(seed=11, journal=Journal.create(path, "fublet", anchors=AnchorBook.of_data_dir(data)))
    driver.play(commands=120)
    driver.match.close()
    (data / "played-here.json").write_text(json.dumps({"version": 1, "played": [
        {"file": path.name, "opened": "2026-12-06T18:30:00.000000Z"}]}), encoding="utf-8")
    total = driver.match.last_seq
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM events WHERE seq > ?", (total - 40,))
    conn.commit()
    conn.close()
    return path, total - 40, total


@pytest.mark.parametrize("size", ["1280x800"])
def test_resuming_a_journal_cut_short_says_which_events_are_missing(size, tmp_path):
    data = tmp_path / "data"
    path, kept, total = cut_match(data)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    out = ARTIFACTS / f"ui-cut-journal-{size}"
    (out / "result.json").unlink(missing_ok=True)
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_WINDOW="sdl2", TOUCHLINE_DATA_DIR=str(data))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui_cut_journal.py"), str(out), size], env=env,
                          capture_output=True, text=True, timeout=APP_HANG)
    result_file = out / "result.json"
    assert result_file.exists(), f"the app did not finish:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    result = json.loads(result_file.read_text())
    assert result["error"] == "", result["error"]
    error = result["seen"]["error"]
    assert error.startswith("Cannot resume this match:")
    assert f"ends early: events after {kept} are missing (this tablet recorded {total})" in error
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
