"""Writing the files Touchline hands out (reports, CSV tables, exports) without ever writing
through a link, and CSV that a spreadsheet cannot run.

Every output goes first into a new temporary file beside its target, created with O_EXCL and
O_NOFOLLOW (so nothing planted at the temporary name is followed either), and is then put in
place by a rename, which replaces a directory entry and never follows what the entry points
to. A symbolic link, a folder, a FIFO or any other non-regular file at the target is refused
outright, ``force`` or not: someone who plants a link there means to redirect the write. An
existing regular file is refused unless ``force`` says to replace it; without ``force`` the
file is placed with a hard link, which fails rather than replaces if anything appeared there
meanwhile.

CSV cells are made inert as OWASP's CSV injection guidance says: a text cell that begins
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading single quote, so
a team called ``=HYPERLINK(...)`` is shown as text, not run as a formula. Numbers the program
itself computed (a goal difference of -2) stay numbers.
"""

from __future__ import annotations

import csv
import errno
import io
import logging
import os
import secrets
import stat
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable

from .errors import TouchlineError

log = logging.getLogger(__name__)

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
          | getattr(os, "O_BINARY", 0))


class OutputRefused(TouchlineError, OSError):
    """An output file was not written: a link or a non-file stands at its place, or a file
    exists and the caller did not ask to replace it. The message names the path."""


def check_target(path: Path, force: bool = False) -> None:
    """Refuse a target that is a link or not a regular file, or that exists without ``force``."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise OutputRefused(f"{path}: is a symbolic link; Touchline never writes through a link "
                            f"(remove it or choose another name)")
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(f"{path}: is not a regular file (a folder, pipe or device); choose another name")
    if not force:
        raise OutputRefused(f"{path}: a file already exists there; choose another name or add --force")


def check_folder(path: Path) -> None:
    """Refuse an output folder that is a link or not a folder (it may be missing: it is made)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise OutputRefused(f"{path}: is a symbolic link; Touchline never writes through a link "
                            f"(give the real folder or a new one)")
    if not stat.S_ISDIR(st.st_mode):
        raise OutputRefused(f"{path}: is not a folder; --out needs a folder (new or a report's)")


def _new_temp(target: Path) -> tuple[Path, int]:
    for _ in range(8):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.partial")
        try:
            return tmp, os.open(tmp, _FLAGS, 0o644)
        except FileExistsError:
            continue
    raise OutputRefused(f"{target}: no free temporary name beside it; nothing was written")


def _place(tmp: Path, target: Path, force: bool) -> None:
    check_target(target, force)
    if force:
        os.replace(tmp, target)  # renames over the entry itself, never through it
        return
    try:
        os.link(tmp, target, follow_symlinks=False)  # fails, never replaces, if anything is there now
    except FileExistsError:
        raise OutputRefused(f"{target}: a file appeared there while it was written; nothing was replaced") from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS):
            raise
        os.replace(tmp, target)  # a file system without hard links (FAT on a card): checked just above
        return
    os.unlink(tmp)


class Staged:
    """Files written into temporary files beside their targets and put in place together by
    :meth:`commit`: every target is checked first, so a refusal writes none of them."""

    def __init__(self, folder: Path, force: bool = False) -> None:
        self.folder = Path(folder)
        self.force = force
        self.temps: dict[str, Path] = {}

    def open(self, name: str) -> BinaryIO:
        """A new temporary file for ``name``, opened for binary writing; close it before commit."""
        if name in self.temps or Path(name).name != name or name in ("", ".", ".."):
            raise ValueError(f"not a plain new file name: {name!r}")
        tmp, fd = _new_temp(self.folder / name)
        self.temps[name] = tmp
        return os.fdopen(fd, "wb")

    def write_bytes(self, name: str, data: bytes) -> Path:
        with self.open(name) as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return self.folder / name

    def write_text(self, name: str, text: str) -> Path:
        return self.write_bytes(name, text.encode("utf-8"))

    def write_csv(self, name: str, header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> Path:
        """A CSV table written a row at a time as ``rows`` gives them: a season's history is
        never held whole (the bytes are ``csv_bytes``'s)."""
        with self.open(name) as fh, io.TextIOWrapper(fh, encoding="utf-8", newline="") as text:
            _write_rows(text, header, rows)
            text.flush()
            os.fsync(fh.fileno())
        return self.folder / name

    def commit(self) -> list[Path]:
        """Put every staged file in place; returns their paths in the order written."""
        try:
            for name in self.temps:
                check_target(self.folder / name, self.force)
            placed = []
            for name, tmp in self.temps.items():
                _place(tmp, self.folder / name, self.force)
                placed.append(self.folder / name)
            return placed
        finally:
            self.discard()

    def discard(self) -> None:
        for tmp in self.temps.values():
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            except OSError as exc:
                log.warning("temporary file %s not removed: %s", tmp, exc)
        self.temps.clear()


def _write_one(path: Path, force: bool, write: Callable[[Staged, str], Any]) -> Path:
    """One file staged by ``write(staged, name)`` and put in place (see the module's notes)."""
    path = Path(path)
    check_target(path, force)
    staged = Staged(path.parent, force)
    try:
        write(staged, path.name)
    except BaseException:
        staged.discard()
        raise
    return staged.commit()[0]


def write_bytes(path: Path, data: bytes, force: bool = False) -> Path:
    """Write one file safely (see the module's notes)."""
    return _write_one(path, force, lambda staged, name: staged.write_bytes(name, data))


def write_text(path: Path, text: str, force: bool = False) -> Path:
    return write_bytes(path, text.encode("utf-8"), force)


def inert_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as written: text that would start a formula gets a quote."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        text = str(value)
        return "'" + text if text.startswith(FORMULA_STARTS) else text
    return value


def _write_rows(out, header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> None:
    w = csv.writer(out)
    w.writerow([inert_cell(v) for v in header])
    for row in rows:
        w.writerow([inert_cell(v) for v in row])


def csv_bytes(header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> bytes:
    buf = io.StringIO(newline="")
    _write_rows(buf, header, rows)
    return buf.getvalue().encode("utf-8")


def write_csv(path: Path, header: Iterable[Any], rows: Iterable[Iterable[Any]], force: bool = False) -> Path:
    """The one CSV writer of every table Touchline writes: inert cells, written safely, a row
    at a time."""
    return _write_one(path, force, lambda staged, name: staged.write_csv(name, header, rows))


__all__ = ["OutputRefused", "Staged", "check_target", "check_folder", "write_bytes", "write_text", "write_csv",
           "inert_cell", "csv_bytes", "FORMULA_STARTS"]
