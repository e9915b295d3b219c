"""Headless Chromium (Debian's) driven by selenium, for the scoreboard page's tests.

Only pages on 127.0.0.1 are opened; background networking, updates and sync are off, and
every run gets a fresh profile folder.
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = "/usr/bin/chromedriver"


def browser_path() -> str | None:
    for path in CHROMIUM:
        if Path(path).exists():
            return path
    return shutil.which("chromium")


def available() -> str:
    """Why a browser test cannot run here, or "" when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if browser_path() is None:
        return "Debian's chromium is not installed (apt-get install chromium chromium-driver)"
    if not Path(CHROMEDRIVER).exists():
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return ""


@contextmanager
def chromium(width: int = 1280, height: int = 800) -> Iterator["object"]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="touchline-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser_path()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-extensions",
                 "--disable-default-apps", "--disable-dev-shm-usage", "--hide-scrollbars",
                 f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
