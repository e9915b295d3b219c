"""Errors a calibration step raises on purpose; each message says what is wrong and what to do."""

from __future__ import annotations

from companion.errors import TouchlineError


class CalibrationError(TouchlineError):
    """A calibration cannot be made, loaded or used (markers missing, too inaccurate, made for
    another camera or board)."""
