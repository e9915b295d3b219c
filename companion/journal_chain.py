"""Checking stored events before anything folds them: order, batches, statuses, the hash
chain, decoding and the event types' domains.

A journal and a JSON Lines export hold the same rows: seq, batch, time, source, type, the
payload as compact JSON text, a status and a hash. Each hash is SHA-256 over the previous
event's hash and the event's own fields (not its status, which undo and redo change), so
an event that was changed, removed, inserted or renumbered breaks the chain at the first
event it touches. The chain detects loss and casual edits; it is not a signature: anyone
who rewrites every hash after an edit can forge it, so it vouches for a file only as far
as the file's head hash is known from elsewhere (the export header, a copy).

``check_rows`` walks the rows once, in order, and raises ``Broken`` naming the first row
where anything is wrong; a file is either wholly sound or refused.
"""

from __future__ import annotations

import gc
import hashlib
import json
import operator
from contextlib import contextmanager
from datetime import datetime
from dataclasses import dataclass
from itertools import chain, compress
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from .codec import constructor, fast_decoder, from_json, record_twin
from .errors import DecodeError, TouchlineError
from .events import Event, Source, parse_time, payload_type

_SOURCES = {s.value: s for s in Source}

GENESIS = "0" * 64            # the "previous hash" of event 1
MAX_SEQ = 2 ** 63 - 1          # SQLite's largest integer
# A file holds at most this many events, counted before any is read: a full scripted Fublet
# match is 1,309, Football Leader's 2,131, the longest match the benchmarks' drivers play
# 5,000 (undone and discarded events count too). At this cap every command, the report
# included, takes at most about two seconds of CPU (docs/benchmarks.md); a file of half a
# million events built to keep its readers busy is refused at once.
MAX_EVENTS = 20_000
ACTIVE, UNDONE, DISCARDED = "active", "undone", "discarded"
STATUSES = (ACTIVE, UNDONE, DISCARDED)
_STATUS_SET = frozenset(STATUSES)
_HEX = frozenset("0123456789abcdef")


class Broken(TouchlineError):
    """A stored event is impossible or does not match the chain. ``seq`` is 0 when the row's
    own seq is unusable; ``line`` is the JSON Lines line number (0 for a journal row)."""

    def __init__(self, seq: int, line: int, reason: str) -> None:
        super().__init__(f"event {seq}: {reason}" if seq else reason)
        self.seq = seq
        self.line = line
        self.reason = reason


class RawRow(NamedTuple):
    """One stored event as it was read, before any check. ``data`` is the payload's JSON
    text exactly as stored (what the hash covers); ``parsed`` is that text already parsed
    (JSON Lines parse whole lines), or ``None``. A tuple: thousands are read per replay."""

    seq: Any
    batch: Any
    at: Any
    source: Any
    type: Any
    data: Any
    status: Any = ACTIVE
    hash: Any = None
    line: int = 0
    parsed: Any = None


@dataclass(frozen=True, slots=True)
class Checked:
    """Rows that passed every check: the events and their statuses, in order (two tuples
    rather than a pair per row: a replay builds thousands), and the chain's head."""

    events: tuple[Event, ...]
    statuses: tuple[str, ...]
    hashes: tuple[str, ...]
    head: str
    last_seq: int

    @property
    def rows(self) -> tuple[tuple[Event, str], ...]:
        """Each event with its status."""
        return tuple(zip(self.events, self.statuses))

    @property
    def active(self) -> tuple[Event, ...]:
        if UNDONE not in self.statuses and DISCARDED not in self.statuses:
            return self.events
        return tuple(e for e, s in zip(self.events, self.statuses) if s == ACTIVE)

    @property
    def redo(self) -> tuple[tuple[Event, ...], ...]:
        if UNDONE not in self.statuses:
            return ()
        batches: dict[int, list[Event]] = {}
        for event, status in zip(self.events, self.statuses):
            if status == UNDONE:
                batches.setdefault(event.batch, []).append(event)
        return tuple(tuple(batches[b]) for b in sorted(batches))


def chain_hash(prev: str, seq: int, batch: int, at: str, source: str, type_: str, data: str) -> str:
    text = f"{prev}\n{seq}\n{batch}\n{at}\n{source}\n{type_}\n{data}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


_SCAN = _DECODER.scan_once


def load_json(text: str) -> Any:
    """``json.loads`` that refuses NaN and Infinity and turns runaway nesting into ValueError."""
    try:
        try:  # compact text (what Touchline writes): one scan, no whitespace to skip
            value, end = _SCAN(text, 0)
            if end == len(text):
                return value
        except (StopIteration, ValueError):
            pass
        return _DECODER.decode(text)  # anything else: the full decoder accepts it or says why not
    except RecursionError:
        raise ValueError("nested too deeply to be an event") from None


try:  # about three times as fast as json on event payloads (the standard decoder stays the reference)
    from orjson import loads as _orjson_loads
except ImportError:  # pragma: no cover - a platform without orjson's wheel
    _orjson_loads = None


def load_payload(text: str) -> Any:
    """A stored payload's JSON text parsed: by orjson where it accepts the text, else by
    ``load_json``, which accepts it or says why not (NaN, lone surrogates, runaway nesting).
    One difference, for text no Touchline event holds: an integer beyond 64 bits parses as
    a float (orjson's choice), so a field that wants an integer refuses it."""
    if _orjson_loads is not None:
        try:
            return _orjson_loads(text)
        except ValueError:  # orjson.JSONDecodeError
            pass
    return load_json(text)


def dump_json(value: Any) -> str:
    """The compact JSON text Touchline stores and hashes."""
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except RecursionError:
        raise ValueError("nested too deeply to be an event") from None


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while thousands of acyclic objects are built (a
    replay's events): otherwise it walks the whole heap again and again for nothing.

    On the way out the objects built meanwhile go straight to the collector's oldest
    generation (``_promote_young``): they are the match's long-lived history, and left young
    they would all be walked at the next allocation (about 2 ms after a 5,000-event open)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            _promote_young()
            gc.enable()


def _promote_young() -> None:
    """Move every tracked object into the oldest generation and zero the young count (what
    ``gc.freeze`` then ``gc.unfreeze`` do in CPython): nothing is walked now, and full
    collections still walk these objects later. Skipped when the program has frozen objects
    of its own, which unfreezing would release."""
    freeze, unfreeze = getattr(gc, "freeze", None), getattr(gc, "unfreeze", None)
    if freeze is None or unfreeze is None or gc.get_freeze_count():
        return
    freeze()
    unfreeze()


def check_rows(rows: Iterable[RawRow], *, chained: bool,
               omitted: Mapping[int, tuple[int, str]] | None = None,
               domain: Callable[[Any], None] | None = None) -> Checked:
    """Check rows in order; raise Broken at the first bad one. A row is a RawRow, or a
    journal's row as SQLite gives it (a RawRow's fields up to ``hash``).

    ``chained``: the rows carry hashes to check (else the chain is computed, for files
    written before Touchline kept one). ``omitted`` maps the first seq of each run of events
    an active-only export left out to that run's last seq and last hash, so the chain steps
    over it. ``domain`` checks a decoded payload against its type's domain (ValueError).
    """
    with gc_paused():
        return _check_rows(rows, chained, omitted or {}, domain)


def _check_rows(rows: Iterable[RawRow], chained: bool, omitted: Mapping[int, tuple[int, str]],
                domain: Callable[[Any], None] | None) -> Checked:
    rows = rows if isinstance(rows, (tuple, list)) else tuple(rows)
    if not omitted:
        checked = _check_whole(rows, chained, domain)
        if checked is not None:
            return checked
    # Something is wrong somewhere (or runs of events were left out): walk the rows one by
    # one, which names the first bad row.
    if rows and len(rows[0]) == _FETCHED:
        rows = [RawRow(*row) for row in rows]
    return _walk(rows, chained, omitted, domain)


_FETCHED = 8  # a journal's rows as SQLite gives them: a RawRow's fields before ``line``


_eq, _or = operator.eq, operator.or_
_from_iso, _zone_of = datetime.fromisoformat, operator.attrgetter("tzinfo")


def _all_of(values: tuple, kind: type) -> bool:
    """Every value is exactly of ``kind`` (no subclass: a bool is no seq)."""
    return set(map(type, values)) <= {kind}


def _check_whole(rows: Sequence[RawRow], chained: bool, domain: Callable[[Any], None] | None) -> Checked | None:
    """The same checks as ``_walk``, a column at a time: one pass per check, in C where it
    can be (replay runs this on every row of every file). ``None`` as soon as anything is
    off; ``_walk`` then finds the first bad row and says what is wrong with it. Accepts
    exactly what ``_walk`` accepts, giving the same events."""
    n = len(rows)
    if not n:
        return Checked((), (), (), GENESIS, 0)
    seqs, batches, ats, sources, types_, datas, statuses, stored, *more = zip(*rows)
    parsed = more[1] if len(more) == 2 else None  # JSON Lines rows carry their data parsed
    if not _in_order(seqs, batches, statuses):
        return None
    # Decoding and domains: each distinct payload text of a type and source once, in the
    # order of first appearance (the domain check learns the board from the first event).
    # (The text fields are checked to be text here, once per distinct value; anything else
    # fails here, or breaks the chain below.)
    kinds: dict[tuple[str, str], tuple[Any, Source, Callable[[Any], Any]]] = {}
    try:
        keys = list(zip(types_, sources, datas))
        payload_of: dict[tuple[str, str, str], Any] = dict.fromkeys(keys)
        first = dict(zip(reversed(keys), range(n - 1, -1, -1))) \
            if parsed is not None and any(p is not None for p in parsed) else None
        for key in payload_of:
            type_, source, data = key
            if type(data) is not str:
                return None
            kind = kinds.get((type_, source))
            if kind is None:
                if type(type_) is not str or type(source) is not str:
                    return None
                kind = kinds[(type_, source)] = _kind(type_, source)
            value = parsed[first[key]] if first is not None else None  # type: ignore[index]
            payload = kind[2](load_payload(data) if value is None else value)
            if domain is not None:
                domain(payload)
            payload_of[key] = payload
        when_of = _times_of(ats)
        if when_of is None:
            return None
    except (DecodeError, ValueError, RecursionError, TypeError):  # TypeError: unhashable values
        return None
    # The chain and the events, in one pass over the rows.
    sha256 = hashlib.sha256
    hashes: list[str] = []
    keep = hashes.append
    prev = GENESIS
    source_of = _SOURCES
    if _EVENT_SLOTS is None:
        events = []
        add = events.append
        for seq, b, at, source, type_, data, key in zip(seqs, batches, ats, sources, types_, datas, keys):
            prev = sha256(f"{prev}\n{seq}\n{b}\n{at}\n{source}\n{type_}\n{data}".encode("utf-8", "surrogatepass")
                          ).hexdigest()
            keep(prev)
            add(_make_event(seq, b, when_of[at], source_of[source], payload_of[key]))
    else:
        # Each Event built as its twin with its slots set, then given its class (twins.slot_twin:
        # the same instance its __init__, which only sets them, would make): no call per event.
        twin, event_class = _EVENT_SLOTS, Event
        events = []
        add = events.append
        for seq, b, at, source, type_, data, key in zip(seqs, batches, ats, sources, types_, datas, keys):
            prev = sha256(f"{prev}\n{seq}\n{b}\n{at}\n{source}\n{type_}\n{data}".encode("utf-8", "surrogatepass")
                          ).hexdigest()
            keep(prev)
            event = twin()
            event.seq = seq
            event.batch = b
            event.at = when_of[at]
            event.source = source_of[source]
            event.payload = payload_of[key]
            event.__class__ = event_class
            add(event)
    if chained and stored != tuple(hashes):
        return None
    return Checked(tuple(events), statuses, tuple(hashes), prev, n)


def _times_of(ats: tuple) -> dict[str, datetime] | None:
    """Each distinct event time's text parsed, with parse_time's checks a column at a time
    (text only, ISO 8601, with a zone): None when one is not; ValueError for a text that is
    no time."""
    texts = tuple(dict.fromkeys(ats))
    if not _all_of(texts, str):
        return None
    times = tuple(map(_from_iso, texts))
    if None in map(_zone_of, times):
        return None
    return dict(zip(texts, times))


def _in_order(seqs: tuple, batches: tuple, statuses: tuple) -> bool:
    """Seqs 1..n, every batch the seq of its first event, a batch's events consecutive and
    of one status, no active batch after an undone one."""
    n = len(seqs)
    if not (seqs == tuple(range(1, n + 1)) and _all_of(seqs, int) and _all_of(batches, int)):
        return False
    try:
        if not _STATUS_SET.issuperset(statuses):  # only text equals text
            return False
    except TypeError:  # an unhashable status (from a JSON Lines file)
        return False
    starts = list(map(_eq, batches, seqs))
    if not starts[0]:
        return False
    if not all(map(_or, starts, map(_eq, batches, chain((0,), batches)))):
        return False
    if not all(map(_or, starts, map(_eq, statuses, chain(("",), statuses)))):
        return False
    batch_statuses = list(compress(statuses, starts))
    return not (UNDONE in batch_statuses and ACTIVE in batch_statuses[batch_statuses.index(UNDONE):])


@dataclass(frozen=True, slots=True)
class Chain:
    """A journal's rows checked without their payloads: in order, of known sources, at
    readable times, each stored hash the one computed over its predecessor's."""

    hashes: tuple[str, ...]
    statuses: tuple[str, ...]
    head: str
    last_seq: int
    active: int             # how many rows are active (the events a replay folds)
    first_at: datetime      # when the first event and the last active one happened
    last_at: datetime


def check_chain(rows: Sequence[tuple]) -> Chain | None:
    """The checks of ``check_rows`` that need no game (order, batches, statuses, sources,
    times, the stored chain) on a journal's rows as SQLite gives them; None when any fails
    (``check_rows`` then says which row and why). The payloads are neither parsed nor
    decoded: a listing that trusts a journal's final record (companion/final_record.py)
    needs no more, and costs about a tenth of a replay."""
    n = len(rows)
    if not n or len(rows[0]) != _FETCHED:
        return None
    seqs, batches, ats, sources, types_, datas, statuses, stored = zip(*rows)
    if not _in_order(seqs, batches, statuses):
        return None
    try:
        if not (set(sources) <= _SOURCES.keys() and _all_of(types_, str) and _all_of(datas, str)):
            return None
        times = _times_of(ats)
    except (ValueError, TypeError):
        return None
    if times is None:
        return None
    sha256 = hashlib.sha256
    hashes: list[str] = []
    keep = hashes.append
    prev = GENESIS
    for seq, b, at, source, type_, data in zip(seqs, batches, ats, sources, types_, datas):
        prev = sha256(f"{prev}\n{seq}\n{b}\n{at}\n{source}\n{type_}\n{data}".encode("utf-8", "surrogatepass")
                      ).hexdigest()
        keep(prev)
    if stored != tuple(hashes):
        return None
    active = statuses.count(ACTIVE)
    last_active = n - 1 - statuses[::-1].index(ACTIVE) if active else 0
    return Chain(stored, statuses, prev, n, active, times[ats[0]], times[ats[last_active]])


def _walk(rows: Iterable[RawRow], chained: bool, omitted: Mapping[int, tuple[int, str]],
          domain: Callable[[Any], None] | None) -> Checked:
    events: list[Event] = []
    statuses: list[str] = []
    hashes: list[str] = []
    prev, last, batch, batch_status = GENESIS, 0, 0, ""
    undone_from = 0
    kinds: dict[tuple[str, str], tuple[Any, Source, Callable[[Any], Any]]] = {}
    times: dict[str, Any] = {}
    payloads: dict[tuple[str, str, str], tuple[Any, Source]] = {}
    sha256, make_event = hashlib.sha256, _make_event
    for row in rows:
        seq, b, at, source, type_, data, status, stored_hash, line, parsed = row
        if type(seq) is not int or not 1 <= seq <= MAX_SEQ:
            raise Broken(last + 1 if type(seq) is not int else 0, line,
                         f"seq must be an integer from 1 to {MAX_SEQ}, got {_short(seq)}")
        expected = last + 1
        if omitted:
            hop = omitted.get(expected)
            if hop is not None and seq == hop[0] + 1:
                prev, expected = hop[1], seq
                batch = 0  # a batch never spans left-out events
        if seq != expected:
            if seq == last:
                raise Broken(seq, line, "this seq appears twice (a duplicated or copied event)")
            if seq < last:
                raise Broken(seq, line, f"out of order: comes after event {last}")
            gap = f"event {expected}" if seq == expected + 1 else f"events {expected} to {seq - 1}"
            raise Broken(seq, line, f"{gap} missing before it (lost or deleted); the file is incomplete")
        if status not in STATUSES:
            raise Broken(seq, line, f"unknown status {_short(status)} (expected one of {', '.join(STATUSES)})")
        if type(b) is not int:
            raise Broken(seq, line, f"batch must be an integer, got {_short(b)}")
        if b == seq:
            if undone_from and status == ACTIVE:
                raise Broken(seq, line, f"{status} batch {seq} comes after undone batch {undone_from}: only "
                                        f"the last commands can be undone (redoable)")
            if status == UNDONE and not undone_from:
                undone_from = seq
            batch, batch_status = seq, status
        elif b != batch:
            raise Broken(seq, line, f"belongs to batch {b}, but the command before it is batch {batch or 'none'} "
                                    f"(a batch is one command's consecutive events)")
        elif status != batch_status:
            raise Broken(seq, line, f"batch {b} mixes '{batch_status}' and '{status}' events (a command is "
                                    f"undone or redone whole)")
        if not (type(at) is str and type(source) is str and type(type_) is str and type(data) is str):
            for name, value in (("at", at), ("source", source), ("type", type_), ("data", data)):
                if type(value) is not str:
                    raise Broken(seq, line, f"{name} must be text, got {_short(value)}")
        # chain_hash, written out: this line runs for every event of every replay.
        digest = sha256(f"{prev}\n{seq}\n{b}\n{at}\n{source}\n{type_}\n{data}".encode("utf-8", "surrogatepass")
                        ).hexdigest()
        if chained and stored_hash != digest:
            stored = stored_hash
            if type(stored) is not str or len(stored) != 64 or not _HEX.issuperset(stored):
                broken = f"hash missing or malformed ({_short(stored)})"
            else:
                broken = ("the hash chain breaks here: this event was changed, or one before it was changed, "
                          "removed or inserted")
        else:
            broken = ""
        try:
            # Identical payload text of one type and source decodes to the same immutable
            # payload, already checked against its domain (and the type against the source):
            # decode and check it once (a match repeats many payloads).
            key = (type_, source, data)
            seen = payloads.get(key)
            if seen is None:
                kind = kinds.get((type_, source))
                if kind is None:
                    kind = kinds[(type_, source)] = _kind(type_, source)
                when = times.get(at)
                if when is None:
                    when = times[at] = parse_time(at)
                if parsed is None:
                    parsed = load_payload(data)
                try:
                    payload = kind[2](parsed)
                except DecodeError:  # decode again, naming the field that is wrong
                    payload = from_json(kind[0], parsed, "data")
                event = make_event(seq, b, when, kind[1], payload)
                if domain is not None:
                    domain(payload)
                payloads[key] = (payload, kind[1])
            else:
                when = times.get(at)
                if when is None:
                    when = times[at] = parse_time(at)
                event = make_event(seq, b, when, seen[1], seen[0])
        except (DecodeError, ValueError, RecursionError) as exc:
            reason = "nested too deeply" if isinstance(exc, RecursionError) else _one_line(exc)
            also = f" (and {broken[0].lower()}{broken[1:]})" if broken else ""
            raise Broken(seq, line, f"cannot be read ({reason}){also}") from None
        if broken:
            raise Broken(seq, line, broken)
        events.append(event)
        statuses.append(status)
        hashes.append(digest)
        prev, last = digest, seq
    return Checked(tuple(events), tuple(statuses), tuple(hashes), prev, last)


_make_event = constructor(Event)
# Event's twin (twins.py), when its __init__ only sets its slots (no __post_init__).
_EVENT_SLOTS = record_twin(Event)


def _kind(type_: str, source: str) -> tuple[Any, Source, Callable[[Any], Any]]:
    """The payload class a row's type names, the row's source, checked together (a derived
    event comes from the rules), and the class's fast decoder."""
    ptype = payload_type(type_)
    source_enum = _SOURCES.get(source)
    if source_enum is None:
        raise DecodeError("source", f"expected one of {', '.join(_SOURCES)}, got {_short(source)}")
    if ptype.DERIVED and source_enum is not Source.RULES:
        raise DecodeError("source", f"{type_} is derived by the rules; its source must be 'rules'")
    return ptype, source_enum, fast_decoder(ptype)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _one_line(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


__all__ = ["Broken", "RawRow", "Checked", "Chain", "check_rows", "check_chain", "chain_hash", "load_json", "dump_json", "GENESIS",
           "MAX_SEQ", "MAX_EVENTS", "STATUSES", "ACTIVE", "UNDONE", "DISCARDED"]
