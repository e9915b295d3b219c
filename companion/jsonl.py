"""JSON Lines export and import: one event per line, for sharing and bug reports.

An export from a journal starts with a header line, then one event object per line, then a
closing line (see docs/journal.md)::

    {"touchline":"journal export","schema":3,"game":"fublet","events":812,"last_seq":812,
     "head":"<hash of the last event>","active_only":false,"omitted":[],"chain":"full"}
    {"seq":1,"batch":1,"at":"...","source":"manual","type":"fublet.match_created","data":{...},"hash":"..."}
    ...
    {"touchline":"export end","events":812,"last_seq":812,"head":"<hash of the last event>"}

Lines of undone or discarded events carry ``"status"``; lines without it are active. Each
event line carries its chained hash; the header names the count and the last hash, so a
line lost anywhere is found, and the closing line marks the end: a file cut anywhere, also
just before its closing line, "ends early". An ``--active-only`` export says so in its header
and lists each run of events it left out with that run's last hash, so the chain still checks
across the gaps. A header's ``altered`` (absent when there is nothing to say) carries the
journal's mark: its events came, on the user's word, from a file whose chain was stripped.

Schema 2 exports (before the closing line) are read with a note. Files written without a
header (older exports, ``export_lines`` of in-memory events for fixtures, or an export whose
header and hashes were stripped) are read as unchained: every other check holds, a note
says the chain is missing, ``verify`` does not vouch for them and ``import`` refuses them
unless told to accept them (the journal it makes is then marked altered). Import checks
every line and names the first bad one by its line number.
"""

from __future__ import annotations

import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

from . import opener
from .errors import TouchlineError
from .events import Event, format_time, now
from .journal import Journal, Loaded, Stored, altered_of, check_stored, read_stored
from .journal_chain import (ACTIVE, DISCARDED, MAX_EVENTS, MAX_SEQ, UNDONE, Broken, Checked, RawRow, check_rows,
                            dump_json, load_json)
from .journal_domains import domain_checker
from .outfiles import Staged, check_target

_STATUSES = (ACTIVE, UNDONE, DISCARDED)
HEADER_MARK = "journal export"
CLOSING_MARK = "export end"
EXPORT_SCHEMA = 3            # 3: a closing line; 2 (still read, with a note): none
READABLE_SCHEMAS = (2, 3)
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
    schema: int = EXPORT_SCHEMA
    altered: str = ""


@dataclass(frozen=True, slots=True)
class Closing:
    events: int
    last_seq: int
    head: str
    line: int


@dataclass(frozen=True, slots=True)
class Imported:
    events: tuple[Event, ...]          # active events, in order
    redo: tuple[tuple[Event, ...], ...]  # undone batches, oldest first
    all_rows: tuple[tuple[Event, str], ...]
    raw: tuple[RawRow, ...] = ()       # the rows as read (their data text is what the chain covers)
    header: Header | None = None
    note: str = ""
    checked: Checked | None = None

    @property
    def unchained(self) -> bool:
        """No header, no hashes: stripped, or written before exports kept a chain."""
        return self.header is None

    @property
    def altered(self) -> str:
        """Why the events cannot be vouched for, as the header says ('' when it says nothing)."""
        if self.header is None:
            return ""
        return altered_of({"altered": self.header.altered, "chain": self.header.chain})

    @property
    def omitted(self) -> dict[int, tuple[int, str]]:
        return {first: (last, digest) for first, last, digest in self.header.omitted} if self.header else {}

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


def export_loaded(stored: Stored, loaded: Loaded, out: IO[str], include_undone: bool = True,
                  altered: str = "") -> int:
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
    head_hash = checked.head
    head = {"touchline": HEADER_MARK, "schema": EXPORT_SCHEMA, "game": stored.game, "events": len(lines),
            "last_seq": last, "head": head_hash, "active_only": bool(runs) or not include_undone,
            "omitted": runs, "chain": chain}
    if stored.altered or altered:
        head["altered"] = stored.altered or altered
    out.write(json.dumps(head, separators=(",", ":")) + "\n")
    for line in lines:
        out.write(line)
    closing = {"touchline": CLOSING_MARK, "events": len(lines), "last_seq": last, "head": head_hash}
    out.write(json.dumps(closing, separators=(",", ":")) + "\n")
    return len(lines)


def _line(raw: RawRow, digest: str) -> str:
    status = "" if raw.status == ACTIVE else f',"status":{json.dumps(raw.status)}'
    return (f'{{"seq":{raw.seq},"batch":{raw.batch},"at":{json.dumps(raw.at)},"source":{json.dumps(raw.source)},'
            f'"type":{json.dumps(raw.type)},"data":{raw.data}{status},"hash":"{digest}"}}\n')


def export_file(stored: Stored, loaded: Loaded, path: str | os.PathLike, include_undone: bool = True,
                force: bool = True, altered: str = "") -> int:
    """Write the export to ``path`` through a new temporary file beside it, renamed into place
    when complete; a link or non-file at ``path`` is refused, and an existing file unless
    ``force`` (companion/outfiles.py). ``altered``: what else is known against the journal
    (it differs from this tablet's anchor of its match), carried in the header."""
    target = Path(path)
    check_target(target, force)
    staged = Staged(target.parent, force)
    try:
        with staged.open(target.name) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as out:
            count = export_loaded(stored, loaded, out, include_undone, altered)
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
    closing: Closing | None = None
    rows: list[RawRow] = []
    seen_event = False
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if closing is not None:
            raise ImportError_(name, number, f"a line after the closing line (line {closing.line}): two exports "
                                             f"joined, or lines added after the end")
        try:
            obj = load_json(text)
        except json.JSONDecodeError as exc:
            raise ImportError_(name, number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        except ValueError as exc:
            raise ImportError_(name, number, f"not valid JSON ({exc})") from None
        if type(obj) is not dict:
            raise ImportError_(name, number, f"expected a JSON object for an event, got {type(obj).__name__}")
        if "touchline" in obj:
            if obj.get("touchline") == CLOSING_MARK:
                if header is None or header.schema < 3:
                    raise ImportError_(name, number, "a closing line, but the file has no header that expects one")
                closing = _closing(obj, name, number)
                continue
            if seen_event or header is not None:
                raise ImportError_(name, number, "a header line in the middle of the file (two exports joined?)")
            header = _header(obj, name, number)
            continue
        seen_event = True
        if len(rows) >= MAX_EVENTS:
            raise ImportError_(name, number, f"more events than any match ({MAX_EVENTS:,} at most; a full match is a "
                                             f"few thousand): not read further")
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
        if last < header.last_seq and len(rows) < header.events:
            raise ImportError_(name, 0, f"ends early: events after {last} are missing (the header promises "
                                        f"{header.events} events up to event {header.last_seq})")
        if len(rows) != header.events or last != header.last_seq or head != header.head:
            raise ImportError_(name, 0, f"the header promises {header.events} events up to event "
                                        f"{header.last_seq}, but the file holds {len(rows)} up to event "
                                        f"{last}{'' if head == header.head or last != header.last_seq else ' with another last hash'}: "
                                        f"events were lost or changed at the end")
        if header.schema >= 3:
            if closing is None:
                raise ImportError_(name, 0, f"ends early: its closing line is missing (the file was cut after event "
                                            f"{last}, or its end was removed)")
            if (closing.events, closing.last_seq, closing.head) != (header.events, header.last_seq, header.head):
                raise ImportError_(name, closing.line, f"the closing line says {closing.events} events up to event "
                                                       f"{closing.last_seq}, the header {header.events} up to "
                                                       f"{header.last_seq}{'' if closing.head == header.head else ' with another last hash'}: "
                                                       f"one of them was changed")
        if header.active_only and any(s != ACTIVE for _, s in all_rows):
            raise ImportError_(name, 0, "the header says active-only, but the file holds undone or discarded events")
        if not header.active_only and omitted:
            raise ImportError_(name, 0, "the header lists left-out events but does not say active-only")
        for event, _ in all_rows:
            if event.type.partition(".")[0] != game:
                raise ImportError_(name, 0, f"event {event.seq} is a {event.type} event in a {game} export")
    note = _note(header, name)
    return Imported(checked.active, checked.redo, all_rows, tuple(rows), header, note, checked)


def _note(header: Header | None, name: str) -> str:
    if header is None:
        return f"{name}: no hash chain (an export of an older Touchline, of in-memory events, or one whose chain " \
               f"was stripped): loss or edits cannot be detected beyond the checks every file passes"
    notes = []
    altered = altered_of({"altered": header.altered, "chain": header.chain})
    if altered:
        notes.append(f"altered: {altered}")
    if header.schema < 3:
        notes.append("written before exports carried a closing line: only its header vouches for its end")
    if header.active_only:
        notes.append("an --active-only export: undone and discarded events are left out")
    if header.chain != "full" and not altered:
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
    if schema not in READABLE_SCHEMAS:
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
    altered = obj.get("altered", "")
    if type(altered) is not str or (altered == "" and "altered" in obj) or schema < 3 and "altered" in obj:
        raise fail("altered must be text saying why (schema 3 on)")
    unknown = set(obj) - {"touchline", "schema", "game", "events", "last_seq", "head", "active_only", "omitted",
                          "chain", "altered"}
    if unknown:
        raise fail(f"unknown field {sorted(unknown)[0][:40]!r}")
    return Header(game, events, last_seq, head, active_only, tuple(runs), chain, schema, altered)


def _closing(obj: dict, name: str, number: int) -> Closing:
    def fail(reason: str) -> ImportError_:
        return ImportError_(name, number, f"closing line: {reason}")
    events, last_seq, head = obj.get("events"), obj.get("last_seq"), obj.get("head")
    for label, value in (("events", events), ("last_seq", last_seq)):
        if type(value) is not int or not 0 <= value <= MAX_SEQ:
            raise fail(f"{label} must be a count, got {str(value)[:20]}")
    if type(head) is not str or not _HASH.match(head):
        raise fail("head must be a hash (64 hex digits)")
    unknown = set(obj) - {"touchline", "events", "last_seq", "head"}
    if unknown:
        raise fail(f"unknown field {sorted(unknown)[0][:40]!r}")
    return Closing(events, last_seq, head, number)


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
    """Read and check an export (a regular file of at most a match file's size: anything else
    is refused before it is read, companion/opener.py)."""
    try:
        with opener.open_text(path, "a JSON Lines export", missing="cannot read the file (no such file)") as fh:
            return read_lines(_bounded_lines(fh, str(path)), str(path))
    except opener.UnreadableFile as exc:
        raise ImportError_(str(path), 0, _without_name(str(exc), str(path))) from None
    except UnicodeDecodeError as exc:
        raise ImportError_(str(path), 0, f"not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise ImportError_(str(path), 0, f"cannot read the file ({exc.strerror or exc})") from None
    except MemoryError:
        raise ImportError_(str(path), 0, "too large to read") from None


MAX_LINE = 2 * 1024 * 1024  # characters: an event's line is at most about 20 kB (a match's creation)


def _bounded_lines(fh: IO[str], name: str) -> Iterator[str]:
    """The file's lines, refusing one longer than any event's before it is held whole."""
    for number, line in enumerate(iter(lambda: fh.readline(MAX_LINE + 1), ""), start=1):
        if len(line) > MAX_LINE:
            raise ImportError_(name, number, f"longer than any event's line (over {MAX_LINE // (1024 * 1024)} MB "
                                             f"without a line break); not an export Touchline wrote")
        yield line


def _without_name(text: str, name: str) -> str:
    return text[len(name) + 2:] if text.startswith(f"{name}: ") else text


class Unvouched(ImportError_):
    """An export whose chain was stripped, or that is marked altered: imported only when the
    user says so (``accept_altered``), and then marked altered in the new journal."""


def unvouched(imported: Imported, name: str) -> str:
    """Why an import of this export needs the user's word, or '' when it does not."""
    if imported.unchained:
        return (f"{name}: it carries no hash chain (no header, no hashes: stripped, or written by an older Touchline), "
                f"so an edited event cannot be told from the match as it was played")
    if imported.altered:
        return f"{name}: it is marked altered ({imported.altered})"
    return ""


def import_to_journal(imported: Imported, path: str | os.PathLike, game: str, accept_altered: bool = False,
                      source: str = "", altered: str = "") -> Journal:
    """Write imported events into a new journal file, keeping their seq, time, status and
    payload text (so the chain carries over). The journal is built under a temporary name and
    renamed into place when complete: a failure leaves nothing at ``path``, and a stale
    ``-wal`` or ``-shm`` lying there refuses the import (and is left alone).

    An export with no chain, or marked altered, is refused (``Unvouched``) unless
    ``accept_altered``; the journal made from it then carries the mark (meta ``altered``),
    and so does every export and import of it. ``source`` names the export in that mark;
    ``altered`` is what else is known against it (it differs from this tablet's record)."""
    why = unvouched(imported, source or "the export") or (f"{source}: {altered}" if altered else "")
    if why and not accept_altered:
        raise Unvouched(source or "the export", 0, why.partition(": ")[2] + "; it was not imported (to import it "
                        "anyway, marked altered for good, say so: touchline import --accept-altered)")
    meta: dict[str, str] = {}
    header = imported.header
    reasons = [imported.altered, altered]
    if header is None:
        meta["chain"] = f"computed {format_time(now())} on import of an export that kept none"
        reasons.insert(0, f"imported {format_time(now())} from {Path(source).name or 'an export'}, which carried no "
                          f"hash chain: its events were accepted on the user's word")
    elif header.chain != "full":
        meta["chain"] = header.chain
    if any(reasons):
        meta["altered"] = "; ".join(dict.fromkeys(r for r in reasons if r))
    if header is not None and header.omitted:
        meta["omitted"] = json.dumps([list(run) for run in header.omitted], separators=(",", ":"))
    return Journal.create_with(path, game, imported.raw, meta)


__all__ = ["ImportError_", "Unvouched", "unvouched", "Imported", "Header", "Closing", "export_lines", "export_loaded", "export_file", "export_journal",
           "read_lines", "read_file", "import_to_journal"]
