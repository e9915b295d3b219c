"""The match report's page in a real browser: Debian's chromium, headless, renders it (the
screenshot goes to test-artifacts/ for people to look at) and its DOM holds the score, the
tables and every plot. Skipped where no chromium is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parent.parent
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync"]


@pytest.mark.skipif(BROWSER is None, reason="no chromium on this machine (apt-get install chromium)")
def test_the_report_page_renders_in_chromium(tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["report", str(ROOT / "tests/data/fublet_full_match.jsonl"), "--out", str(out)]) == 0
    capsys.readouterr()
    page = (out / "index.html").as_uri()
    profile = ["--user-data-dir=" + str(tmp_path / "profile")]
    dom = subprocess.run([BROWSER, *FLAGS, *profile, "--dump-dom", page], capture_output=True, text=True,
                         timeout=180)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "Touchline Rovers" in dom.stdout and "4 - 2 on penalties" in dom.stdout
    for plot in ("possession", "timeline", "counters", "luck", "heat"):
        assert f'src="{plot}.svg"' in dom.stdout
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    shot = artifacts / "report-page.png"
    shot.unlink(missing_ok=True)
    done = subprocess.run([BROWSER, *FLAGS, *profile, "--window-size=1100,4400", f"--screenshot={shot}", page],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    import cv2

    image = cv2.imread(str(shot))
    assert image is not None and image.shape[:2] == (4400, 1100) and float(image.std()) > 10.0
