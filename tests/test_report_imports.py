"""What the report and the games import (issue 32, item 3): the plots are drawn with
matplotlib's object interface (a Figure on an Agg canvas: no pyplot anywhere in the project's
library code), matplotlib is imported only when a report is drawn, and its style is the
report's only while it draws. Checked in fresh processes, by ``sys.modules``; never by time."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
LIBRARY = ("companion", "ui", "vision", "calibration", "firmware_bridge")


def modules_after(code: str) -> set[str]:
    """The modules loaded once ``code`` has run in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_no_library_module_imports_pyplot():
    found = []
    for package in LIBRARY:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, (ast.Import, ast.ImportFrom)) else []
                module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
                if any("pyplot" in n for n in names + [module]) or (module == "matplotlib" and "pyplot" in names):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_a_report_draws_its_plots_without_pyplot(tmp_path):
    out = tmp_path / "r"
    loaded = modules_after(
        "from companion.cli import main\n"
        f"assert main(['report', {str(DATA / 'futboard_full_match.jsonl')!r}, '--out', {str(out)!r}, '--png']) == 0\n")
    assert "matplotlib.figure" in loaded and "matplotlib.backends.backend_agg" in loaded   # it did draw
    assert "matplotlib.pyplot" not in loaded
    for name in ("possession", "timeline", "counters", "luck", "heat"):
        assert (out / f"{name}.svg").stat().st_size > 1000 and (out / f"{name}.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("code", [
    "from companion.cli import main; main(['replay', {match!r}])",
    "from companion.cli import main; main(['history', '--folder', {folder!r}])",
    "import companion.report.cli, companion.report.build, companion.report.html, companion.report.history",
    "from companion.games import ruleset_for\nfor g in ('fublet', 'football_leader', 'fussball_liga', 'futboard'): "
    "ruleset_for(g)",
], ids=["replay", "history", "report modules", "every game"])
def test_reading_and_replaying_never_load_matplotlib(code):
    loaded = modules_after(code.format(match=str(DATA / "fublet_full_match.jsonl"), folder=str(DATA)))
    assert not {m for m in loaded if m.split(".")[0] in ("matplotlib", "PIL")}


def test_the_reports_style_is_its_own_while_it_draws(tmp_path):
    import matplotlib

    from companion.report.build import build_report
    from companion.report.plots import STYLE, draw_all
    from companion.loading import load_match

    before = {key: matplotlib.rcParams[key] for key in STYLE}
    assert before != STYLE   # else the check below could not fail
    match = load_match(DATA / "futboard_full_match.jsonl")
    drawn = draw_all(build_report(match.ruleset, match.events), tmp_path, ("svg",))
    assert set(drawn) == {"possession", "timeline", "counters", "luck", "heat"}
    assert 'font-size: 13px' in (tmp_path / drawn["timeline"]["svg"]).read_text(encoding="utf-8")  # the titles'
    assert {key: matplotlib.rcParams[key] for key in STYLE} == before
