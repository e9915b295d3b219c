"""The club's QR code read with the tablet's camera: its join link (http://HOST:PORT/#join=TOKEN).

Bounded: a few seconds of frames at most, on the caller's thread (Settings runs it on one of
its own, never the UI thread). When the camera already reads the board for a match, its newest
frame is used instead of opening the device a second time.
"""

from __future__ import annotations

import logging
import time
from typing import Callable, Iterable

import cv2
import numpy as np

from companion.club.keys import JOIN_MARK

log = logging.getLogger(__name__)

MAX_FRAMES = 60
MAX_SECONDS = 8.0
NO_CAMERA = "This tablet has no camera Touchline can open: type or paste the club's join link instead."


def join_link_in(image: np.ndarray, detector: cv2.QRCodeDetector | None = None) -> str:
    """The join link a QR code in ``image`` holds, or ""."""
    detector = detector or cv2.QRCodeDetector()
    try:
        text, _points, _straight = detector.detectAndDecode(image)
    except cv2.error:   # a frame the detector cannot take: as if no code were in it
        return ""
    return text if text and JOIN_MARK in text and text.startswith(("http://", "https://")) else ""


def first_join_link(frames: Iterable[np.ndarray], max_frames: int = MAX_FRAMES, max_seconds: float = MAX_SECONDS,
                    clock: Callable[[], float] = time.monotonic) -> str:
    """The first join link read in ``frames``, looking at ``max_frames`` of them for at most
    ``max_seconds``; "" when none."""
    detector = cv2.QRCodeDetector()
    end = clock() + max_seconds
    for n, image in enumerate(frames):
        if image is not None:
            found = join_link_in(image, detector)
            if found:
                return found
        if n + 1 >= max_frames or clock() >= end:
            break
    return ""


def camera_frames(device: int | str = 0):
    """Frames from the camera, closed when the caller stops asking (raises SourceError when
    there is no camera)."""
    from vision.sources import CameraSource

    source = CameraSource(device)
    source.open()
    try:
        while True:
            yield source.read().image
    finally:
        source.close()


def latest_frames(latest: Callable[[], object], max_frames: int = MAX_FRAMES):
    """The newest frames of the camera already running for the match."""
    last = None
    for _ in range(max_frames):
        got = latest()
        image = got[0] if isinstance(got, tuple) else None
        if image is not None and image is not last:
            last = image
            yield image
        else:
            time.sleep(0.05)   # the next frame comes from the vision thread, not from us
            yield None


def scan(camera_service=None, device: int | str = 0) -> tuple[str, str]:
    """(join link, words for the coach). Runs off the UI thread; bounded."""
    from vision.errors import VisionError

    try:
        if camera_service is not None and getattr(camera_service, "kind", "none") == "device":
            frames = latest_frames(camera_service.latest)
        else:
            frames = camera_frames(device)
        link = first_join_link(frames)
    except VisionError as exc:
        log.info("club scan: %s", exc)
        return "", NO_CAMERA
    except Exception as exc:   # a camera that fails mid-way: said, the coach types the link
        log.warning("club scan failed: %s", exc)
        return "", f"The camera could not read the code ({exc}): type or paste the club's join link instead."
    if not link:
        return "", ("No club's QR code seen: hold the printed code square in front of the camera, about "
                    "30 cm away, and scan again.")
    return link, "The club's code was read."
