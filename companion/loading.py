"""Reading a match file: a journal or a JSON Lines export, checked, folded into its match,
and weighed against this tablet's anchors (companion/anchors.py).

Every reader of a whole match goes through here: the commands (companion/cli.py), the report
and the history (companion/report/), the app's screens. It sits below all of them, so the
report layer does not stand on the command line. What is wrong with a file is a
``MatchFileError`` (a TouchlineError) naming the file: one line, never a traceback.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Sequence

from .anchors import AnchorBook, Verdict, anchored
from .errors import TouchlineError
from .events import Event
from .final_record import KEY as FINAL_KEY, digest_of, read_record
from .journal import Loaded, Stored, check_stored, read_stored
from .journal_chain import Chain, Checked, check_chain
from .jsonl import Imported, read_file
from .match import Match
from .opener import read_head
from .paths import user_data_dir
from .ruleset import Ruleset

log = logging.getLogger("touchline")

SQLITE_HEADER = b"SQLite format 3\x00"
JOURNAL_SUFFIXES = (".sqlite", ".sqlite3", ".db")


class MatchFileError(TouchlineError):
    """A match file that does not read to a match (no events, another game's, a refused
    anchor...): the message names the file. It was not modified."""


def is_journal_file(path: Path) -> bool:
    """A journal by its suffix, or by the SQLite header whatever it is called (read without
    blocking: a FIFO or a device is no journal, and is refused when it is read as an export)."""
    if path.suffix.lower() in JOURNAL_SUFFIXES:
        return True
    try:
        return read_head(path, len(SQLITE_HEADER)) == SQLITE_HEADER
    except TouchlineError:
        return False


def ruleset_named(game: str, name: str = "") -> Ruleset:
    """The rules of ``game``; when this Touchline has none, the refusal names the file."""
    from .games import ruleset_for

    try:
        return ruleset_for(game)
    except KeyError as exc:
        raise MatchFileError(f"{name}: {exc.args[0]}; it was left untouched" if name else exc.args[0]) from None


def game_of(events: Sequence[Event], name: str) -> str:
    """The game a JSON Lines file belongs to: the prefix of its first event's type."""
    if not events:
        raise MatchFileError(f"{name}: holds no events; a match starts with its creation event")
    game, dot, _ = events[0].type.partition(".")
    if not dot:
        raise MatchFileError(f"{name}: event {events[0].seq} has type {events[0].type!r}, which names no game "
                       f"(expected '<game>.<event>')")
    return game


def build_match(ruleset: Ruleset, loaded: Loaded | Imported, name: str) -> Match:
    """Fold stored events into a match; a failure names the file and the event's seq."""
    events = loaded.events
    if events and not isinstance(events[0].payload, ruleset.created_type):
        raise MatchFileError(f"{name}: event {events[0].seq} is {events[0].type}; a {ruleset.game} match starts with "
                       f"{ruleset.created_type.TYPE}")
    try:
        return Match.from_events(ruleset, events, loaded.redo)
    except TouchlineError as exc:
        raise MatchFileError(f"{name}: {exc}") from None


def load_export(path: Path) -> tuple[Imported, str, Match]:
    """A JSON Lines export checked line by line, its game, and the match it replays to."""
    imported = read_file(path)
    game = game_of(tuple(event for event, _ in imported.all_rows), str(path))
    match = build_match(ruleset_named(game, str(path)), imported, str(path))
    return imported, game, match


@dataclass(frozen=True)
class Reading:
    """A match file read, checked and folded, with what its chain and this tablet's anchors
    (companion/anchors.py) say of it."""

    path: Path
    game: str
    match: Match
    source: Loaded | Imported
    rows: tuple[tuple[Event, str], ...]
    note: str          # what the chain cannot vouch for ('' when it vouches for every event)
    altered: str       # why its events are not the match as recorded ('' when nothing says so)
    unchained: bool    # an export with no hash chain at all (stripped, or of an older Touchline)
    journal: bool
    checked: Checked | None

    @property
    def head(self) -> str:
        header = getattr(self.source, "header", None)
        if header is not None:
            return header.head
        return self.checked.head if self.checked else ""

    @property
    def last_seq(self) -> int:
        header = getattr(self.source, "header", None)
        if header is not None:
            return header.last_seq
        return self.checked.last_seq if self.checked else 0

    @property
    def first(self) -> str:
        c = self.checked
        return c.hashes[0] if c and c.hashes and c.events[0].seq == 1 else ""

    def hash_at(self, seq: int) -> str | None:
        """The file's hash at ``seq`` (computed for an unchained file), None where it has none."""
        c = self.checked
        if c is None:
            return None
        found = next((h for e, h in zip(c.events, c.hashes) if e.seq == seq), None)
        if found is None:
            omitted = getattr(self.source, "omitted", None)
            found = next((h for last, h in (omitted or {}).values() if last == seq), None)
        return found


def default_anchors() -> AnchorBook:
    """This computer's anchors (the data folder's, ``TOUCHLINE_DATA_DIR`` when set)."""
    return AnchorBook.of_data_dir(user_data_dir())


_DEFAULT = object()


def read_match(path: Path, anchors: Any = _DEFAULT, stored: Stored | None = None) -> Reading:
    """A match from a journal (one consistent read-only snapshot) or a JSON Lines export,
    checked against this tablet's anchors (``anchors``: an AnchorBook, None for none, or this
    computer's by default). A journal cut short of its anchor, or rewritten, is refused.
    ``stored``: the journal at ``path`` as ``read_stored`` just read it (not read again)."""
    book = default_anchors() if anchors is _DEFAULT else anchors
    path = Path(path)
    if is_journal_file(path):
        stored, loaded = (stored, check_stored(stored)) if stored is not None else read_journal(path)
        found = anchored(book, path, loaded.checked, stored.omitted, journal=True) if loaded.checked else Verdict()
        if found.refused:  # the app may have appended (and anchored) since the read: read again once
            stored, loaded = read_journal(path)
            found = anchored(book, path, loaded.checked, stored.omitted, journal=True) if loaded.checked else Verdict()
        if found.refused:
            raise MatchFileError(f"{path}: {found.text}")
        match = build_match(ruleset_named(loaded.game, str(path)), loaded, str(path))
        source: Loaded | Imported = loaded
        game, checked, rows, unchained = loaded.game, loaded.checked, loaded.checked.rows if loaded.checked else (), False
    else:
        imported, game, match = load_export(path)
        source, checked, rows, unchained = imported, imported.checked, imported.all_rows, imported.unchained
        found = anchored(book, path, checked, imported.omitted, journal=False) if checked else Verdict()
    altered = source.altered or (found.text.partition(": ")[2] if found.kind == "altered" else "")
    note = source.note
    if found.kind == "earlier":
        note = f"{note}; {found.text}" if note else f"{path}: {found.text}"
    return Reading(path, game, match, source, rows, note, altered, unchained, isinstance(source, Loaded), checked)


@dataclass(frozen=True)
class Finished:
    """A finished match read from its journal's final record (companion/final_record.py):
    the chain checked, this tablet's anchor agreeing, the events not replayed. ``summary``:
    the summary's fields the record keeps (teams, score, result, shootout)."""

    path: Path
    game: str
    summary: dict[str, Any]
    chain: Chain
    altered: str


def read_finished(stored: Stored, anchors: AnchorBook | None) -> Finished | None:
    """The journal's result from its final record, or None where a listing must replay it:
    no record, or one this tablet's anchor of the journal does not name, a chain that does
    not check or ends elsewhere than the record and the anchor say, a game this Touchline
    does not know, a journal of an older schema or with events left out. The replay then
    says what is wrong, if anything is."""
    text = stored.meta.get(FINAL_KEY)
    if text is None or anchors is None or not stored.chained or "omitted" in stored.meta \
            or stored.game not in _known_games():
        return None
    record = read_record(text)
    own = anchors.lookup(stored.path) if record is not None else None
    if own is None or own.final != digest_of(text):
        return None
    chain = check_chain(stored.fetched)
    if chain is None or (chain.head, chain.active) != (record.head, record.active) \
            or (own.first, own.last_seq, own.head) != (chain.hashes[0], chain.last_seq, chain.head):
        return None
    return Finished(stored.path, stored.game, dict(record.summary), chain, stored.altered)


@cache
def _known_games() -> frozenset[str]:
    """The games this Touchline plays (looked up once: a listing asks for every journal)."""
    from .games import available

    return frozenset(available())


def read_journal(path: Path) -> tuple[Stored, Loaded]:
    """A journal as stored (one consistent read-only snapshot) and its checked contents."""
    stored = read_stored(path)
    return stored, check_stored(stored)


def load_match(path: Path, notes: bool = True) -> Match:
    """A match from a journal (one consistent read-only snapshot) or a JSON Lines export.
    What the file's chain cannot vouch for is logged as a note (unless ``notes`` is off); a
    file marked altered is said as a warning."""
    reading = read_match(path)
    if reading.altered and notes:
        log.warning("%s: altered: %s", path, reading.altered)
    elif reading.note and notes:  # not a fault: `touchline verify` prints it, -v shows it here
        log.info("%s", reading.note)
    return reading.match


def load_journal(path: Path) -> Loaded:
    """A journal's checked contents, read as one consistent snapshot without writing."""
    return check_stored(read_stored(path))


__all__ = ["MatchFileError", "Reading", "Finished", "read_finished", "SQLITE_HEADER", "JOURNAL_SUFFIXES", "is_journal_file", "ruleset_named", "game_of",
           "build_match", "load_export", "default_anchors", "read_match", "read_journal", "load_match", "load_journal"]
