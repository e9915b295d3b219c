"""The rules reference in the tablet app (headless Kivy): links from the live screen's pending
request and refusal to their rulebook section, the Rules button, the search box."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_ui_app import not_blank, run_scenario


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_the_rules_reference_from_the_live_screen(size, tmp_path):
    result = run_scenario(size, tmp_path, "game:reference")
    assert result["error"] == "", result["error"]
    assert any(line.startswith("refusal: Fublet rulebook, ") for line in result["log"]), result["log"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"reference_live_link", "reference_setup", "reference_search", "reference_refusal_link",
            "reference_refusal_section"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
