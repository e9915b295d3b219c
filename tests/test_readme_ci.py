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
    assert re.search(r"\| replay 5,\d{3} events .*\| [\d.]+ ms \|", README)
