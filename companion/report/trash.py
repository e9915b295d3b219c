"""Deleted matches, kept for a while: a match a coach deletes is moved into the ``.trash``
folder inside the matches folder, with its journal's side files (an unfinished journal's
write-ahead log holds its last moves), and can be put back until it is emptied out after
``KEEP_DAYS``. Nothing here opens a journal: files are only moved, never changed.

A trashed file is named ``<UTC time of deletion>--<its name>``, so the trash needs no index
of its own that could disagree with the files.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..anchors import AnchorBook
from ..errors import TouchlineError
from . import notes

log = logging.getLogger(__name__)

TRASH_DIR = ".trash"
KEEP_DAYS = 30
SIDE_FILES = ("-wal", "-shm", "-journal")
STAMP = "%Y%m%dT%H%M%SZ"
_NAME = re.compile(r"^(\d{8}T\d{6}Z)(?:-(\d+))?--(.+)$")


class TrashError(TouchlineError):
    """A match that cannot be moved to or from the trash (said in a coach's words)."""


@dataclass(frozen=True)
class Trashed:
    """One deleted match: its file in the trash, the name it had, when it was deleted."""

    path: Path
    name: str
    deleted: datetime

    def left(self, now: datetime) -> int:
        """Whole days before it is emptied out (0: at the next look)."""
        return max(0, KEEP_DAYS - (now - self.deleted).days)


def trash_dir(folder: Path) -> Path:
    return Path(folder) / TRASH_DIR


def _files(base: Path) -> list[Path]:
    """A match file's side files that exist, then the file itself (moved last: until it moves,
    the match is still where it was)."""
    return [Path(f"{base}{s}") for s in SIDE_FILES if Path(f"{base}{s}").exists()] + [base]


def delete(folder: Path, name: str, now: datetime | None = None) -> Trashed:
    """Move the match file ``name`` of ``folder`` (and its side files) into the trash."""
    folder = Path(folder)
    source = folder / name
    if not source.is_file() or Path(name).name != name:
        raise TrashError(f"there is no match file {name!r} in the matches folder (deleted already?)")
    when = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    box = trash_dir(folder)
    try:
        box.mkdir(exist_ok=True)
        stamp, n = when.strftime(STAMP), 1
        target = box / f"{stamp}--{name}"
        while any(p.exists() for p in [target] + [Path(f"{target}{s}") for s in SIDE_FILES]):
            n += 1
            target = box / f"{stamp}-{n}--{name}"
        for part in _files(source):
            os.replace(part, Path(str(target) + part.name[len(name):]))
    except OSError as exc:
        raise TrashError(f"cannot move {name} to the trash ({exc.strerror or exc}); it stays where it was") from None
    return Trashed(target, name, when)


def listing(folder: Path) -> list[Trashed]:
    """The deleted matches, the most recently deleted first."""
    box = trash_dir(folder)
    if not box.is_dir():
        return []
    out = []
    for path in box.iterdir():
        m = _NAME.match(path.name)
        if m is None or path.name.endswith(SIDE_FILES) or not path.is_file():
            continue
        try:
            when = datetime.strptime(m.group(1), STAMP).replace(tzinfo=UTC)
        except ValueError:
            continue
        out.append(Trashed(path, m.group(3), when))
    return sorted(out, key=lambda t: (t.deleted, t.path.name), reverse=True)


def restore(folder: Path, trashed: Trashed) -> Path:
    """Put a deleted match back where it was; refused when a file of that name is there now."""
    folder = Path(folder)
    target = folder / trashed.name
    if not trashed.path.is_file():
        raise TrashError(f"{trashed.name} is no longer in the trash (emptied out?)")
    if any(p.exists() for p in [target] + [Path(f"{target}{s}") for s in SIDE_FILES]):
        raise TrashError(f"a match file named {trashed.name} is in the matches folder again: the deleted one "
                         f"stays in the trash")
    try:
        for part in _files(trashed.path):
            os.replace(part, Path(str(target) + part.name[len(trashed.path.name):]))
    except OSError as exc:
        raise TrashError(f"cannot put {trashed.name} back ({exc.strerror or exc})") from None
    return target


def empty_old(folder: Path, now: datetime | None = None, keep_days: int = KEEP_DAYS) -> list[str]:
    """Remove the matches deleted more than ``keep_days`` ago for good (and their notes);
    returns their names. What cannot be removed now is left for the next time."""
    now = now or datetime.now(UTC)
    gone = []
    for t in listing(folder):
        if now - t.deleted < timedelta(days=keep_days):
            continue
        try:
            for part in _files(t.path):
                part.unlink(missing_ok=True)
            # Its anchor (companion/anchors.py) goes too: a later match of the same file name
            # must not be measured against the deleted one's count and hash.
            AnchorBook.of_data_dir(Path(folder).parent).path_for(Path(folder) / t.name).unlink(missing_ok=True)
        except OSError as exc:
            log.info("trash: %s not removed yet: %s", t.path, exc)
            continue
        gone.append(t.name)
    still = {t.name for t in listing(folder)} | {p.name for p in Path(folder).iterdir() if p.is_file()} \
        if Path(folder).is_dir() else set()
    forgotten = set(gone) - still
    if forgotten:
        try:
            notes.forget(folder, forgotten)
        except notes.NotesError as exc:
            log.info("trash: notes of %s kept: %s", sorted(forgotten), exc)
    return gone
