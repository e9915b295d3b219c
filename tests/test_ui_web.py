"""The scoreboard page switched on and off from the tablet app (headless Kivy), and the page
following the match the coach plays on the tablet."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_ui_app import not_blank, run_scenario


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_the_page_is_switched_on_from_settings_and_follows_the_match(size, tmp_path):
    result = run_scenario(size, tmp_path, "game:web")
    assert result["error"] == "", result["error"]
    assert "switched off: connection refused" in result["log"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"web_settings", "web_scoreboard_off", "web_scoreboard_on", "web_scoreboard_switched_off"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
