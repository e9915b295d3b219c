"""Notice when the corner markers leave the places the calibration saw them in (the camera or
the board was bumped), without being fooled by a hand passing over one of them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class MonitorSettings:
    """A shift above ``tolerance_px`` (median over the corner markers seen) that lasts
    ``confirm_s`` means the view moved; ``hidden_s`` without any corner marker is doubtful."""

    tolerance_px: float = 3.0
    confirm_s: float = 0.5
    hidden_s: float = 2.0


class CornerMonitor:
    """Feed it the corner-marker centres seen in each frame; it answers "ok", "moved" or
    "hidden". "moved" sticks until the monitor is reset with a new calibration."""

    def __init__(self, expected_px: dict[int, tuple[float, float]], settings: MonitorSettings = MonitorSettings()):
        self.expected = {int(k): np.asarray(v, float) for k, v in expected_px.items()}
        self.settings = settings
        self.state = "ok"
        self.shift_px = 0.0
        self._moved_since: float | None = None
        self._last_seen: float | None = None
        self.moved_markers: tuple[int, ...] = ()

    def reset(self, expected_px: dict[int, tuple[float, float]]) -> None:
        self.__init__(expected_px, self.settings)

    def update(self, seen_px: dict[int, tuple[float, float]], t: float) -> str:
        if not self.expected or self.state == "moved":
            return self.state
        common = [m for m in seen_px if m in self.expected]
        if self._last_seen is None:
            self._last_seen = t
        if not common:
            if t - self._last_seen > self.settings.hidden_s:
                self.state = "hidden"
            return self.state
        self._last_seen = t
        shifts = {m: float(np.linalg.norm(np.asarray(seen_px[m], float) - self.expected[m])) for m in common}
        shift = float(np.median(list(shifts.values())))
        if shift > self.settings.tolerance_px:
            self._moved_since = t if self._moved_since is None else self._moved_since
            if t - self._moved_since >= self.settings.confirm_s:
                self.state = "moved"
                self.shift_px = shift
                self.moved_markers = tuple(sorted(m for m, s in shifts.items() if s > self.settings.tolerance_px))
                return self.state
        else:
            self._moved_since = None
        self.state = "ok"
        return self.state
