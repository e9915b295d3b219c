"""Frame sources behind one interface: a camera device, a video file, a folder of images, or the
synthetic renderer. ``open()`` and ``read()`` raise :class:`~vision.errors.SourceError` with a
message naming the device or file; ``read()`` returns None at the end of a file or folder."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Protocol

import cv2
import numpy as np

from .errors import SourceError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: BGR uint8 (H, W, 3), its time in seconds (the device's clock, or frame index
    over frame rate for files), its index and where it came from."""

    image: np.ndarray = field(repr=False)
    time_s: float
    index: int
    name: str = ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.image.shape[1], self.image.shape[0])


class FrameSource(Protocol):
    name: str

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def read_image(path: Path) -> np.ndarray:
    """An image file as BGR uint8 (H, W, 3); SourceError naming the file if it cannot be read."""
    path = Path(path)
    if not path.exists():
        raise SourceError(f"{path}: no such image file")
    if path.is_dir():
        raise SourceError(f"{path}: is a folder, not an image")
    data = np.fromfile(str(path), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise SourceError(f"{path}: cannot be read as an image (damaged, empty or not an image format OpenCV "
                          f"knows: use PNG or JPEG)")
    return image


class CameraSource:
    """A camera through ``cv2.VideoCapture``: ``device`` is an index (0) or a path (/dev/video2).
    Times come from the monotonic clock when a frame arrives. ``live``: frames come whether or
    not they are read (the vision worker keeps only the newest)."""

    live = True

    def __init__(self, device: int | str, size: tuple[int, int] | None = None, fps: float | None = None):
        self.device = device
        self.size = size
        self.fps = fps
        self.name = f"camera {device}"
        self._cap: cv2.VideoCapture | None = None
        self._index = 0

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"{self.name}: no camera there (not plugged in, busy in another program, or no "
                              f"permission): plug it in or pick another device")
        if self.size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        if self.fps:
            cap.set(cv2.CAP_PROP_FPS, self.fps)
        self._cap = cap

    def read(self) -> Frame | None:
        if self._cap is None:
            raise SourceError(f"{self.name}: not open")
        ok, image = self._cap.read()
        if not ok or image is None:
            raise SourceError(f"{self.name}: stopped sending frames (unplugged?)")
        self._index += 1
        return Frame(image, time.monotonic(), self._index - 1, self.name)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class VideoFileSource:
    """A video file; frame times are index / the file's frame rate."""

    def __init__(self, path: Path, fps: float | None = None):
        self.path = Path(path)
        self.name = str(path)
        self.fps = fps
        self._cap: cv2.VideoCapture | None = None
        self._index = 0

    def open(self) -> None:
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"{self.path}: cannot be opened as a video (damaged, or a format this OpenCV cannot "
                              f"decode)")
        self.fps = self.fps or (cap.get(cv2.CAP_PROP_FPS) or 30.0)
        self._cap = cap

    def read(self) -> Frame | None:
        if self._cap is None:
            raise SourceError(f"{self.path}: not open")
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        self._index += 1
        return Frame(image, (self._index - 1) / self.fps, self._index - 1, self.name)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageFolderSource:
    """The images of a folder in name order; frame times are index / ``fps``."""

    def __init__(self, folder: Path, fps: float = 30.0):
        self.folder = Path(folder)
        self.name = str(folder)
        self.fps = fps
        self._files: list[Path] = []
        self._index = 0

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"{self.folder}: no such folder")
        self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise SourceError(f"{self.folder}: holds no images ({', '.join(IMAGE_SUFFIXES)})")

    def read(self) -> Frame | None:
        if self._index >= len(self._files):
            return None
        path = self._files[self._index]
        self._index += 1
        return Frame(read_image(path), (self._index - 1) / self.fps, self._index - 1, str(path))

    def close(self) -> None:
        pass


class IterSource:
    """Frames from any iterator of ``(image, time_s)``: the synthetic renderer's sequences.
    ``live``: the iterator runs at a camera's pace whether or not it is read (a stand-in for a
    camera), so the vision worker keeps only its newest frame."""

    def __init__(self, frames: Iterator[tuple[np.ndarray, float]], name: str = "synthetic", live: bool = False):
        self._frames = frames
        self.name = name
        self.live = live
        self._index = 0

    def open(self) -> None:
        pass

    def read(self) -> Frame | None:
        try:
            image, t = next(self._frames)
        except StopIteration:
            return None
        self._index += 1
        return Frame(image, t, self._index - 1, self.name)

    def close(self) -> None:
        pass


def source_for(spec: str, fps: float = 30.0) -> FrameSource:
    """A source from a command-line word: a device index or /dev/video path, a video file, or a
    folder of images. ("synthetic" is handled by the caller, which knows the board.)"""
    if spec.isdigit():
        return CameraSource(int(spec))
    path = Path(spec)
    if spec.startswith("/dev/video"):
        return CameraSource(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        raise SourceError(f"{spec}: is a single image; 'watch' needs a camera, a video or a folder of images "
                          f"('touchline vision locate' reads single images)")
    return VideoFileSource(path)
