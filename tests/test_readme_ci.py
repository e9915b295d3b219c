"""CI runs exactly the test command the README gives a newcomer."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = ROOT / ".ci" / "run"


def readme_commands() -> list[str]:
    """The one-line commands in the README's ``sh`` code blocks."""
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_the_readme_has_one_test_command():
    tests = [c for c in readme_commands() if "-m pytest" in c]
    assert len(tests) == 1, tests
    assert "pip install -e '.[test]'" in tests[0]


def test_ci_runs_the_readme_test_command_verbatim():
    test = next(c for c in readme_commands() if "-m pytest" in c)
    lines = [line.strip() for line in CI.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert test in lines
    assert lines[-1] == test, "the README's test command must be the last thing .ci/run does"


def test_ci_script_is_strict_and_executable():
    text = CI.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert os.access(CI, os.X_OK)


def test_the_readme_has_a_run_command_and_benchmark_figures():
    commands = readme_commands()
    assert any(c.endswith("pip install -e . && .venv/bin/touchline") for c in commands)  # starts the app
    assert any("benchmarks/run.py" in c for c in commands)
    # The figures live in docs/benchmarks.md (the README links there), each with its machine.
    assert "docs/benchmarks.md" in README
    figures = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert re.search(r"\| replay 5,\d{3} events .*\| [\d.]+ ms \|", figures)


def test_the_readme_is_a_door():
    """What Touchline is, the two commands, the rest in short with links: about 250 lines at most."""
    assert len(README.splitlines()) <= 250
    for link in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (ROOT / link).exists(), link


def test_every_doc_says_who_it_is_for():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        head = doc.read_text(encoding="utf-8").split("\n")[:4]
        assert any(line.startswith("*For ") or line.startswith("For ") for line in head), doc.name
