"""What the vision benchmarks report, made safe for the runs a person can ask for: a condition
with no frames (``--frames 0``), a part left out, a timing list that stayed empty. A figure
that has nothing to stand on is None ("no frames"), never a crash in the script, and counts
are checked where they are parsed."""

from __future__ import annotations

import argparse
import math
from typing import Iterable

import numpy as np


def quantiles(values: Iterable[float], qs: tuple[float, ...] = (50, 95, 99), digits: int = 2) -> list[float] | None:
    """The ``qs`` percentiles of ``values``, rounded; None when there are none (or none finite)."""
    a = np.asarray([v for v in values if v is not None and math.isfinite(v)], float)
    if not len(a):
        return None
    return [round(float(np.percentile(a, q)), digits) for q in qs]


def median(values: Iterable[float], digits: int = 2) -> float | None:
    got = quantiles(values, (50,), digits)
    return None if got is None else got[0]


def ratio(ours: Iterable[float], theirs: Iterable[float], q: float = 50, digits: int = 3) -> float | None:
    """The ``q`` percentile of ``ours`` over the same percentile of ``theirs`` (both timed on the
    same frames); None when either is empty or the denominator is 0."""
    a, b = quantiles(ours, (q,), 6), quantiles(theirs, (q,), 6)
    if a is None or b is None or b[0] <= 0:
        return None
    return round(a[0] / b[0], digits)


def time_rows(ours: list[float], default: list[float], label: str = "") -> dict:
    """p50 / p95 / p99 of our times and of OpenCV's default detector on the same frames, and the
    ratio at each percentile (ours at p95 over the default detector's p95...)."""
    head = f"{label} " if label else ""
    same = len(ours) == len(default) and len(ours) > 0
    return {f"{head}ours ms (p50, p95, p99)": quantiles(ours),
            f"{head}default detector ms, the same frames (p50, p95, p99)": quantiles(default),
            f"{head}time ratio ours/default (p50, p95, p99)":
                [ratio(ours, default, q) for q in (50, 95, 99)] if ours and default else None,
            # frame by frame: each frame's time over the default detector's on that frame
            f"{head}per-frame ratio ours/default (p50, p95, p99)":
                quantiles([a / b for a, b in zip(ours, default) if b > 0], digits=3) if same else None}


def count(lo: int = 0, hi: int | None = None):
    """An argparse type: a whole number from ``lo`` (to ``hi``), with a message that says so."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number, got {text!r}") from None
        if n < lo or (hi is not None and n > hi):
            raise argparse.ArgumentTypeError(f"{lo} to {hi}, got {n}" if hi is not None else f"{lo} or more, got {n}")
        return n
    return parse


def show(value) -> str:
    """A figure as the scripts print it: floats to 4 digits, None as 'no frames'."""
    if value is None:
        return "no frames"
    return f"{value:.4g}" if isinstance(value, float) else str(value)
