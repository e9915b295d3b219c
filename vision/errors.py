"""Errors the camera side raises on purpose; each message says what is wrong and what to do."""

from __future__ import annotations

from companion.errors import TouchlineError


class VisionError(TouchlineError):
    """A frame, a file or a setting the camera side cannot use."""


class SourceError(VisionError):
    """A frame source cannot deliver frames (no camera, unreadable file, empty folder)."""
