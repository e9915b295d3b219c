"""Opening a file that came from anywhere: regular files only, never blocking, never unbounded.

Every reader of a match file (a journal, its side files, a JSON Lines export) opens it here
first, so a file of the wrong kind is refused in one line before anything reads it:

- **Regular files only.** A FIFO, a device (a link to ``/dev/zero`` or ``/dev/urandom``), a
  socket or a folder is refused by ``os.stat`` before it is opened, and again by ``fstat`` on
  what was opened (the path may have been swapped in between). The open itself carries
  ``O_NONBLOCK``, so even a FIFO that appears in that instant cannot block it (an open of a
  FIFO for reading waits for a writer; a read of one waits for data).
- **Bounded size.** A match file larger than ``MAX_BYTES`` is refused by its size: the longest
  real match is a few MB (5,000 events: 1.3 MB of journal), so this is room for matches many
  times longer than any played, while a file of any size the reader would otherwise take
  into memory whole (a 50 GB export is one ``readline``) stops here.

What is found wrong is an ``UnreadableFile`` (a TouchlineError): the command line prints it
as one line and exits with status 2, the match list shows the file as unreadable.
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import BinaryIO, TextIO

from .errors import TouchlineError

MAX_BYTES = 128 * 1024 * 1024   # a match file (a journal with its -wal, or an export) at most
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a folder"))
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # none on Windows, which has no FIFOs in its file system either
_FLAGS = os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0) \
    | getattr(os, "O_BINARY", 0)


class UnreadableFile(TouchlineError):
    """A file that is not a regular file, is too large, or cannot be opened. It was not touched."""


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in a few words."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def check_regular(path: str | os.PathLike, what: str = "a match file", limit: int | None = MAX_BYTES,
                  missing: str | None = None) -> os.stat_result:
    """The file's status (links followed), or UnreadableFile when it is no regular file or
    over ``limit`` bytes. ``missing`` words a file that does not exist (else the OS's words)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UnreadableFile(f"{path}: {missing or 'no such file'}") from None
    except OSError as exc:
        raise UnreadableFile(f"{path}: cannot be read ({exc.strerror or exc})") from None
    _check_status(path, st, what, limit)
    return st


def _check_status(path: str | os.PathLike, st: os.stat_result, what: str, limit: int | None) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise UnreadableFile(f"{path}: is a folder, not {what}")
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableFile(f"{path}: is {kind_of(st.st_mode)}, not {what}; it was not opened")
    if limit is not None and st.st_size > limit:
        raise UnreadableFile(f"{path}: {_mb(st.st_size)} is too large for {what} (at most {_mb(limit)}; the "
                             f"longest real match is a few MB); it was not read")


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB" if size >= 1024 * 1024 else f"{size} bytes"


def open_binary(path: str | os.PathLike, what: str = "a match file", limit: int | None = MAX_BYTES,
                missing: str | None = None) -> BinaryIO:
    """The file opened for reading in binary, after the checks above (before and after the
    open). The caller closes it."""
    check_regular(path, what, limit, missing)
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise UnreadableFile(f"{path}: {missing or 'no such file'}") from None
    except OSError as exc:
        raise UnreadableFile(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        _check_status(path, os.fstat(fd), what, limit)  # what was opened, not what was there before
        if _NONBLOCK:
            os.set_blocking(fd, True)   # a regular file: reads never wait anyway, and io expects it
        return io.open(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def open_text(path: str | os.PathLike, what: str = "a match file", limit: int | None = MAX_BYTES,
              missing: str | None = None) -> TextIO:
    """The file opened as UTF-8 text (universal newlines), after the same checks."""
    return io.TextIOWrapper(open_binary(path, what, limit, missing), encoding="utf-8")


def read_head(path: str | os.PathLike, size: int, what: str = "a match file", limit: int | None = MAX_BYTES,
              missing: str | None = None) -> bytes:
    """The first ``size`` bytes of the file (fewer when it is shorter)."""
    with open_binary(path, what, limit, missing) as fh:
        return fh.read(size)


def side_file(path: str | os.PathLike, what: str) -> os.stat_result | None:
    """A side file's status (a journal's ``-wal`` or ``-shm``) when it exists, links followed;
    None when it does not. One that exists but is no regular file is refused."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UnreadableFile(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableFile(f"{path}: the {what} beside the journal is {kind_of(st.st_mode)}, not a regular "
                             f"file; nothing was read")
    return st


def within(path: str | os.PathLike, total: int, what: str = "a journal with its write-ahead log",
           limit: int = MAX_BYTES) -> None:
    """Refuse when files read together (a journal and its ``-wal``) exceed ``limit``."""
    if total > limit:
        raise UnreadableFile(f"{path}: {_mb(total)} is too large for {what} (at most {_mb(limit)}; the longest "
                             f"real match is a few MB); it was not read")


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """The two paths name one file (links and ``..`` followed); False when either is missing."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def resolved(path: str | os.PathLike) -> Path:
    return Path(os.path.realpath(path))


__all__ = ["MAX_BYTES", "UnreadableFile", "check_regular", "open_binary", "open_text", "read_head", "side_file",
           "within", "same_file", "resolved", "kind_of"]
