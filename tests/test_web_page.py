"""The scoreboard page in a real browser (Debian's headless Chromium, driven by selenium):
``touchline serve`` follows a journal the 'tablet' writes; an event is appended; the page shows
it. Screenshots go to test-artifacts/web/ for people to look at."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import web_browser
from tests.web_kit import GrowingJournal

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "web"

missing = web_browser.available()
if missing and os.environ.get("CI"):
    raise RuntimeError(f"the browser tests cannot run: {missing}")   # CI installs them: never skip there
pytestmark = pytest.mark.skipif(bool(missing), reason=missing)


def start_serve(path: Path, tmp_path: Path) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"))
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", str(path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    line = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/\S+/", line)
    if not found:
        proc.kill()
        raise AssertionError(f"no address printed: {line!r} {proc.stderr.read()[-2000:]}")
    return proc, found.group(0)


def shown_seq(driver) -> int:
    return int(driver.execute_script("return Number(document.getElementById('log').dataset.seq || 0)"))


@pytest.mark.parametrize("size", [(1280, 800), (412, 915)])
def test_the_page_shows_an_event_the_tablet_appends(tmp_path, size):
    from selenium.webdriver.support.ui import WebDriverWait

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = GrowingJournal(tmp_path / "match.sqlite", upto=60)
    proc, url = start_serve(table.path, tmp_path)
    try:
        with web_browser.chromium(*size) as driver:
            wait = WebDriverWait(driver, 30, poll_frequency=0.05)
            driver.get(url)
            wait.until(lambda d: shown_seq(d) == table.last.seq)
            wait.until(lambda d: d.execute_script("return document.querySelectorAll('#board rect').length") > 100)
            assert "Touchline Rovers" in driver.find_element("id", "score").text
            assert driver.find_element("id", "live").text == "live"
            figures = driver.execute_script("return document.querySelectorAll('#figures g.fig').length")
            assert figures >= 22
            pending = driver.find_element("id", "pending").text
            assert pending and pending != "nothing"
            count, line = table.next_logged()
            event = table.grow(count)                  # the tablet accepts the next commands
            wait.until(lambda d: shown_seq(d) == event.seq)
            assert driver.find_element("css selector", "#log li").text == line
            name = f"scoreboard-{size[0]}x{size[1]}.png"
            driver.save_screenshot(str(ARTIFACTS / name))
            assert (ARTIFACTS / name).stat().st_size > 10_000
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
        table.close()
    assert "Traceback" not in err, err


def test_a_damaged_journal_is_a_clear_page_then_a_clear_line(tmp_path):
    from selenium.webdriver.support.ui import WebDriverWait

    table = GrowingJournal(tmp_path / "match.sqlite", upto=20)
    proc, url = start_serve(table.path, tmp_path)
    try:
        with web_browser.chromium() as driver:
            wait = WebDriverWait(driver, 30, poll_frequency=0.05)
            driver.get(url)
            wait.until(lambda d: shown_seq(d) == table.last.seq)
            table.close()
            table.path.write_bytes(b"this is no longer a journal")
            wait.until(lambda d: "problem" in d.find_element("tag name", "body").get_attribute("class"))
            problem = driver.find_element("id", "problem").text
            assert "not a Touchline journal" in problem
            driver.save_screenshot(str(ARTIFACTS / "scoreboard-problem.png"))
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=60)
    assert "not a Touchline journal" in err and "Traceback" not in err


@pytest.mark.parametrize("size", [(412, 915), (1280, 800)])
def test_a_finished_match_reads_on_a_phone_and_says_full_time(tmp_path, size):
    """A whole Fußball-Liga match, followed from its export: the page says "full time", not
    "live"; every figure's number and the ball are readable on a phone held upright (the pitch
    then runs down the screen); the log says places in words, never coordinates."""
    from selenium.webdriver.support.ui import WebDriverWait

    proc, url = start_serve(ROOT / "tests" / "data" / "fussball_liga_full_match.jsonl", tmp_path)
    try:
        with web_browser.chromium(*size) as driver:
            wait = WebDriverWait(driver, 30, poll_frequency=0.05)
            driver.get(url)
            wait.until(lambda d: d.execute_script("return document.querySelectorAll('#figures g.fig').length") >= 20)
            wait.until(lambda d: d.find_element("id", "live").text == "full time")
            numbers = driver.execute_script(
                "return [...document.querySelectorAll('#figures g.fig text')].map(t => t.getBoundingClientRect().height)")
            assert numbers and min(numbers) >= 13, numbers
            ball = driver.execute_script(
                "const b = document.querySelector('#figures circle.ball'); return b ? b.getBoundingClientRect().width : 99")
            assert ball >= 11, ball
            log = driver.find_element("id", "log").text
            assert "Final" in log and not re.search(r"\(-?\d+, ?-?\d+\)", log), log
            driver.save_screenshot(str(ARTIFACTS / f"scoreboard-full-time-{size[0]}x{size[1]}.png"))
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
