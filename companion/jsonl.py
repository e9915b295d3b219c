"""JSON Lines export and import: one event per line, for sharing and bug reports.

An export from a journal starts with a header line, then one event object per line (see
docs/journal.md)::

    {"touchline":"journal export","schema":2,"game":"fublet","events":812,"last_seq":812,
     "head":"<hash of the last event>","active_only":false,"omitted":[],"chain":"full"}
    {"seq":1,"batch":1,"at":"...","source":"manual","type":"fublet.match_created","data":{...},"hash":"..."}

Lines of undone or discarded events carry ``"status"``; lines without it are active. Each
event line carries its chained hash; the header names the count and the last hash, so a
line lost anywhere, the end included, is found. An ``--active-only`` export says so in its
header and lists each run of events it left out with that run's last hash, so the chain
still checks across the gaps.

Files written without a header (older exports, and ``export_lines`` of in-memory events for
fixtures) are read as unchained: every other check holds, and a note says the chain is
missing. Import checks every line and names the first bad one by its line number.
"""

from __future__ import annotations

import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterable

from .errors import TouchlineError
from .events import Event, format_time, now
from .journal import Journal, Loaded, Stored, check_stored, read_stored
from .journal_chain import (ACTIVE, DISCARDED, MAX_SEQ, UNDONE, Broken, RawRow, check_rows, dump_json,
                            load_json)
from .journal_domains import domain_checker
from .outfiles import Staged, check_target

_STATUSES = (ACTIVE, UNDONE, DISCARDED)
HEADER_MARK = "journal export"
EXPORT_SCHEMA = 2
_ENVELOPE = ("seq", "batch", "at", "source", "type", "data", "status", "hash")
_HASH = re.compile(r"^[0-9a-f]{64}$")


class ImportError_(TouchlineError):
    """A JSON Lines file has a bad line; ``line`` is its 1-based number (0: the file as a whole)."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}, line {line}: {reason}" if line else f"{path}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Header:
    game: str
    events: int
    last_seq: int
    head: str
    active_only: bool
    omitted: tuple[tuple[int, int, str], ...]
    chain: str


@dataclass(frozen=True, slots=True)
class Imported:
    events: tuple[Event, ...]          # active events, in order
    redo: tuple[tuple[Event, ...], ...]  # undone batches, oldest first
    all_rows: tuple[tuple[Event, str], ...]
    raw: tuple[RawRow, ...] = ()       # the rows as read (their data text is what the chain covers)
    header: Header | None = None
    note: str = ""

    @property
    def game(self) -> str:
        if self.header is not None:
            return self.header.game
        return self.all_rows[0][0].type.partition(".")[0] if self.all_rows else ""


# --- writing -------------------------------------------------------------------------------------

def export_lines(rows: Iterable[tuple[Event, str]], out: IO[str], include_undone: bool = True) -> int:
    """Write in-memory events as unchained JSON Lines (no header, no hashes): fixtures and
    bug reports of a match that has no journal. Returns how many lines were written."""
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


def export_loaded(stored: Stored, loaded: Loaded, out: IO[str], include_undone: bool = True) -> int:
    """Write a checked journal snapshot as chained JSON Lines with its header; returns the
    number of event lines. Payloads are written as stored, byte for byte, so the hashes hold."""
    checked = loaded.checked
    assert checked is not None
    journal_hops = stored.omitted
    lines: list[str] = []
    runs: list[list[Any]] = []
    run: list[Any] | None = None
    last = 0
    for (event, status), raw, digest in zip(checked.rows, stored.rows, checked.hashes):
        if raw.seq != last + 1:  # the journal itself was imported from an active-only export
            hop_last, hop_hash = journal_hops[last + 1]
            run = [run[0] if run else last + 1, hop_last, hop_hash]
        if include_undone or status == ACTIVE:
            if run:
                runs.append(run)
                run = None
            lines.append(_line(raw, digest))
        else:
            run = [run[0] if run else raw.seq, raw.seq, digest]
        last = raw.seq
    if run:
        runs.append(run)
    chain = stored.meta.get("chain", "full") if stored.chained else \
        f"computed {format_time(now())} on export from a journal that kept none (schema 1)"
    head = {"touchline": HEADER_MARK, "schema": EXPORT_SCHEMA, "game": stored.game, "events": len(lines),
            "last_seq": last, "head": checked.head, "active_only": bool(runs) or not include_undone,
            "omitted": runs, "chain": chain}
    out.write(json.dumps(head, separators=(",", ":")) + "\n")
    for line in lines:
        out.write(line)
    return len(lines)


def _line(raw: RawRow, digest: str) -> str:
    status = "" if raw.status == ACTIVE else f',"status":{json.dumps(raw.status)}'
    return (f'{{"seq":{raw.seq},"batch":{raw.batch},"at":{json.dumps(raw.at)},"source":{json.dumps(raw.source)},'
            f'"type":{json.dumps(raw.type)},"data":{raw.data}{status},"hash":"{digest}"}}\n')


def export_file(stored: Stored, loaded: Loaded, path: str | os.PathLike, include_undone: bool = True,
                force: bool = True) -> int:
    """Write the export to ``path`` through a new temporary file beside it, renamed into place
    when complete; a link or non-file at ``path`` is refused, and an existing file unless
    ``force`` (companion/outfiles.py)."""
    target = Path(path)
    check_target(target, force)
    staged = Staged(target.parent, force)
    try:
        with staged.open(target.name) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as out:
            count = export_loaded(stored, loaded, out, include_undone)
            out.flush()
            os.fsync(raw.fileno())
    except BaseException:
        staged.discard()
        raise
    staged.commit()
    return count


def export_journal(journal: Journal, path: str | os.PathLike, include_undone: bool = True) -> int:
    """Export an open journal (read through its own consistent snapshot)."""
    stored = read_stored(journal.path)
    return export_file(stored, check_stored(stored), path, include_undone)


# --- reading -------------------------------------------------------------------------------------

def read_lines(lines: Iterable[str], name: str = "<input>") -> Imported:
    """Parse and check JSON Lines; raise ImportError_ naming the first bad line."""
    header: Header | None = None
    rows: list[RawRow] = []
    seen_event = False
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            obj = load_json(text)
        except json.JSONDecodeError as exc:
            raise ImportError_(name, number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        except ValueError as exc:
            raise ImportError_(name, number, f"not valid JSON ({exc})") from None
        if type(obj) is not dict:
            raise ImportError_(name, number, f"expected a JSON object for an event, got {type(obj).__name__}")
        if "touchline" in obj:
            if seen_event or header is not None:
                raise ImportError_(name, number, "a header line in the middle of the file (two exports joined?)")
            header = _header(obj, name, number)
            continue
        seen_event = True
        rows.append(_raw(obj, name, number, header is not None))
    game = header.game if header else _game_of(rows)
    omitted = {first: (last, digest) for first, last, digest in header.omitted} if header else {}
    try:
        checked = check_rows(rows, chained=header is not None, omitted=omitted, domain=domain_checker(game))
    except Broken as exc:
        raise ImportError_(name, exc.line, f"{exc}") from None
    all_rows = checked.rows
    if header is not None:
        last, head = checked.last_seq, checked.head
        trailing = omitted.get(last + 1)
        if trailing is not None:
            last, head = trailing
        if len(rows) != header.events or last != header.last_seq or head != header.head:
            raise ImportError_(name, 0, f"the header promises {header.events} events up to event "
                                        f"{header.last_seq}, but the file holds {len(rows)} up to event "
                                        f"{last}{'' if head == header.head or last != header.last_seq else ' with another last hash'}: "
                                        f"events were lost or changed at the end")
        if header.active_only and any(s != ACTIVE for _, s in all_rows):
            raise ImportError_(name, 0, "the header says active-only, but the file holds undone or discarded events")
        if not header.active_only and omitted:
            raise ImportError_(name, 0, "the header lists left-out events but does not say active-only")
        for event, _ in all_rows:
            if event.type.partition(".")[0] != game:
                raise ImportError_(name, 0, f"event {event.seq} is a {event.type} event in a {game} export")
    note = _note(header, name)
    return Imported(checked.active, checked.redo, all_rows, tuple(rows), header, note)


def _note(header: Header | None, name: str) -> str:
    if header is None:
        return f"{name}: no hash chain (an export of an older Touchline, or of in-memory events): loss or edits " \
               f"cannot be detected beyond the checks every file passes"
    notes = []
    if header.active_only:
        notes.append("an --active-only export: undone and discarded events are left out")
    if header.chain != "full":
        notes.append(f"hash chain {header.chain}")
    return f"{name}: {'; '.join(notes)}" if notes else ""


def _header(obj: dict, name: str, number: int) -> Header:
    def fail(reason: str) -> ImportError_:
        return ImportError_(name, number, f"header: {reason}")
    if obj.get("touchline") != HEADER_MARK:
        raise fail(f"not a Touchline export header (touchline: {str(obj.get('touchline'))[:40]!r})")
    schema = obj.get("schema")
    if type(schema) is not int or schema > EXPORT_SCHEMA:
        raise fail(f"export schema {str(schema)[:20]} is newer than this Touchline reads ({EXPORT_SCHEMA}); "
                   f"update Touchline")
    if schema != EXPORT_SCHEMA:
        raise fail(f"export schema {schema} is not one Touchline wrote")
    game, events, last_seq, head = obj.get("game"), obj.get("events"), obj.get("last_seq"), obj.get("head")
    active_only, omitted, chain = obj.get("active_only"), obj.get("omitted"), obj.get("chain")
    if type(game) is not str or not game:
        raise fail("game must be a name")
    for label, value in (("events", events), ("last_seq", last_seq)):
        if type(value) is not int or not 0 <= value <= MAX_SEQ:
            raise fail(f"{label} must be a count, got {str(value)[:20]}")
    if type(head) is not str or not _HASH.match(head):
        raise fail("head must be a hash (64 hex digits)")
    if type(active_only) is not bool:
        raise fail("active_only must be true or false")
    if type(chain) is not str:
        raise fail("chain must be text")
    if type(omitted) is not list:
        raise fail("omitted must be a list")
    runs = []
    for run in omitted:
        if (type(run) is not list or len(run) != 3 or type(run[0]) is not int or type(run[1]) is not int
                or not 1 <= run[0] <= run[1] <= MAX_SEQ or type(run[2]) is not str or not _HASH.match(run[2])):
            raise fail(f"omitted: each run is [first seq, last seq, hash], got {str(run)[:40]}")
        runs.append((run[0], run[1], run[2]))
    unknown = set(obj) - {"touchline", "schema", "game", "events", "last_seq", "head", "active_only", "omitted",
                          "chain"}
    if unknown:
        raise fail(f"unknown field {sorted(unknown)[0][:40]!r}")
    return Header(game, events, last_seq, head, active_only, tuple(runs), chain)


def _raw(obj: dict, name: str, number: int, chained: bool) -> RawRow:
    for key in obj:
        if key not in _ENVELOPE:
            raise ImportError_(name, number, f"{key[:40]}: unknown field")
    for key in ("seq", "at", "source", "type", "data"):
        if key not in obj:
            raise ImportError_(name, number, f"{key}: missing field")
    if chained and "hash" not in obj:
        raise ImportError_(name, number, "hash: missing field (the header says every event carries one)")
    if not chained and "hash" in obj:
        raise ImportError_(name, number, "event carries a hash but the file has no header line (was it removed?)")
    seq = obj["seq"]
    try:
        data = dump_json(obj["data"])
    except ValueError as exc:
        raise ImportError_(name, number, f"data: {exc}") from None
    return RawRow(seq, obj.get("batch", seq), obj["at"], obj["source"], obj["type"], data,
                  obj.get("status", ACTIVE), obj.get("hash"), number, obj["data"])


def _game_of(rows: list[RawRow]) -> str:
    if not rows or not isinstance(rows[0].type, str):
        return ""
    return rows[0].type.partition(".")[0]


def read_file(path: str | os.PathLike) -> Imported:
    try:
        with open(path, encoding="utf-8") as fh:
            return read_lines(fh, str(path))
    except UnicodeDecodeError as exc:
        raise ImportError_(str(path), 0, f"not UTF-8 text ({exc.reason})") from None
    except IsADirectoryError:
        raise ImportError_(str(path), 0, "is a folder, not a JSON Lines file") from None
    except OSError as exc:
        raise ImportError_(str(path), 0, f"cannot read the file ({exc.strerror or exc})") from None
    except MemoryError:
        raise ImportError_(str(path), 0, "too large to read") from None


def import_to_journal(imported: Imported, path: str | os.PathLike, game: str) -> Journal:
    """Write imported events into a new journal file, keeping their seq, time, status and
    payload text (so the chain carries over). The journal is built under a temporary name and
    renamed into place when complete: a failure leaves nothing at ``path``, and a stale
    ``-wal`` or ``-shm`` lying there refuses the import (and is left alone)."""
    meta: dict[str, str] = {}
    header = imported.header
    if header is None:
        meta["chain"] = f"computed {format_time(now())} on import of an export that kept none"
    elif header.chain != "full":
        meta["chain"] = header.chain
    if header is not None and header.omitted:
        meta["omitted"] = json.dumps([list(run) for run in header.omitted], separators=(",", ":"))
    return Journal.create_with(path, game, imported.raw, meta)


__all__ = ["ImportError_", "Imported", "Header", "export_lines", "export_loaded", "export_file", "export_journal",
           "read_lines", "read_file", "import_to_journal"]
