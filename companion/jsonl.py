"""JSON Lines export and import: one event per line, for sharing and bug reports.

Each line is an event object (see docs/journal.md). Lines of undone or discarded events
carry ``"status"``; lines without it are active. Import checks every line and names the
first bad one by its line number.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable

from .errors import DecodeError, TouchlineError
from .events import Event
from .journal import ACTIVE, DISCARDED, UNDONE, Journal

_STATUSES = (ACTIVE, UNDONE, DISCARDED)


class ImportError_(TouchlineError):
    """A JSON Lines file has a bad line; ``line`` is its 1-based number (0: the file as a whole)."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}, line {line}: {reason}" if line else f"{path}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Imported:
    events: tuple[Event, ...]          # active events, in order
    redo: tuple[tuple[Event, ...], ...]  # undone batches, oldest first
    all_rows: tuple[tuple[Event, str], ...]


def export_lines(rows: Iterable[tuple[Event, str]], out: IO[str], include_undone: bool = True) -> int:
    """Write events as JSON Lines; returns how many lines were written."""
    count = 0
    for event, status in rows:
        if status != ACTIVE and not include_undone:
            continue
        obj = event.to_json()
        if status != ACTIVE:
            obj["status"] = status
        out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        count += 1
    return count


def export_journal(journal: Journal, path: str | os.PathLike, include_undone: bool = True) -> int:
    tmp = Path(f"{path}.partial")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            count = export_lines(journal.rows(), out, include_undone)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return count


def read_lines(lines: Iterable[str], name: str = "<input>") -> Imported:
    """Parse and check JSON Lines; raise ImportError_ naming the first bad line."""
    rows: list[tuple[Event, str]] = []
    last_seq = 0
    batch_status: dict[int, str] = {}
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportError_(name, number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        status = obj.pop("status", ACTIVE) if isinstance(obj, dict) else ACTIVE
        if status not in _STATUSES:
            raise ImportError_(name, number, f"status must be one of {', '.join(_STATUSES)}, got {status!r}")
        try:
            event = Event.from_json(obj)
        except DecodeError as exc:
            raise ImportError_(name, number, str(exc)) from None
        if event.seq <= last_seq:
            raise ImportError_(name, number, f"seq {event.seq} does not follow {last_seq}; events must be "
                                             f"in increasing sequence order")
        known = batch_status.get(event.batch)
        if known is None:
            if event.batch != event.seq:
                raise ImportError_(name, number, f"batch {event.batch} was never started (the first event of "
                                                 f"a batch has seq == batch)")
            batch_status[event.batch] = status
        elif known != status:
            raise ImportError_(name, number, f"batch {event.batch} mixes '{known}' and '{status}' events")
        last_seq = event.seq
        rows.append((event, status))
    active = tuple(e for e, s in rows if s == ACTIVE)
    undone: dict[int, list[Event]] = {}
    for e, s in rows:
        if s == UNDONE:
            undone.setdefault(e.batch, []).append(e)
    if undone and active and min(undone) < active[-1].batch:
        first = min(undone)
        raise ImportError_(name, 0, f"undone batch {first} comes before active events; it cannot be redone "
                                    f"(mark it 'discarded')")
    return Imported(active, tuple(tuple(undone[b]) for b in sorted(undone)), tuple(rows))


def read_file(path: str | os.PathLike) -> Imported:
    try:
        with open(path, encoding="utf-8") as fh:
            return read_lines(fh, str(path))
    except UnicodeDecodeError as exc:
        raise ImportError_(str(path), 0, f"not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise ImportError_(str(path), 0, f"cannot read the file ({exc.strerror or exc})") from None


def import_to_journal(imported: Imported, path: str | os.PathLike, game: str) -> Journal:
    """Write imported events into a new journal file, keeping their seq, time and status.
    If writing fails, the half-made journal is removed again."""
    journal = Journal.create(path, game)
    try:
        journal.insert_rows(imported.all_rows)
    except BaseException:
        journal.close()
        for leftover in (Path(path), Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        raise
    return journal
