"""The vision benchmarks' figures on the runs a person can ask for: nothing to report is None
(printed "no frames"), never a crash in the script (issue 31: ``vision_bench.py --frames 0``
passed an empty list into a percentile), and counts are refused where they are parsed."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

from bench_figures import count, median, quantiles, ratio, show, time_rows  # noqa: E402


def test_empty_timings_give_none_not_a_crash():
    assert quantiles([]) is None and median([]) is None
    assert ratio([], [1.0]) is None and ratio([1.0], []) is None and ratio([1.0], [0.0]) is None
    rows = time_rows([], [])
    assert set(rows.values()) == {None}
    assert show(None) == "no frames"


def test_percentiles_and_ratios_at_each_percentile():
    ours, theirs = list(range(1, 101)), [2 * v for v in range(1, 101)]
    assert quantiles(ours, (50, 95, 99)) == [50.5, 95.05, 99.01]
    rows = time_rows(ours, theirs)
    assert rows["time ratio ours/default (p50, p95, p99)"] == [0.5, 0.5, 0.5]
    assert quantiles([float("nan"), 3.0]) == [3.0, 3.0, 3.0]


def test_counts_are_refused_with_their_range():
    parse = count(1, 10)
    assert parse("3") == 3
    for bad, words in (("0", "1 to 10, got 0"), ("11", "1 to 10, got 11"), ("x", "a whole number")):
        with pytest.raises(argparse.ArgumentTypeError, match=words):
            parse(bad)


@pytest.mark.parametrize("script, argv", [
    ("vision_bench.py", ["--frames", "0", "--frames-720", "0", "--sequences", "0", "--lenses", "1"]),
    ("vision_wide.py", ["--frames", "0", "--sequences", "0"]),
    ("vision_pose.py", ["--scenes", "0", "--frames", "0"]),
    ("live_identity.py", ["--sequences", "0"]),
])
def test_scripts_run_with_nothing_to_measure(script, argv, tmp_path):
    out = tmp_path / "out.json"
    extra = ["--json", str(out)]
    done = subprocess.run([sys.executable, str(BENCH / script), *argv, *extra], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert out.exists()


@pytest.mark.parametrize("script, argv, words", [
    ("vision_bench.py", ["--frames", "-1"], "--frames: 0 to 10000, got -1"),
    ("vision_bench.py", ["--lenses", "0"], "--lenses: 1 to 100, got 0"),
    ("vision_wide.py", ["--frames", "1001"], "--frames: 0 to 1000, got 1001"),
    ("vision_wide.py", ["--only", "nothing"], "names no condition"),
])
def test_scripts_refuse_edge_arguments_in_words(script, argv, words):
    done = subprocess.run([sys.executable, str(BENCH / script), *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
