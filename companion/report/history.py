"""Match history and league tables: every match in the data folder, read but never changed.

``scan(folder)`` lists each file of the matches folder: a journal or a JSON Lines export is
replayed (read as every reader reads: companion/opener.py, companion/journal_guard.py) to its
game, teams, score, date and result; a damaged or foreign file is listed with what is wrong,
never raised, and a hostile one (a FIFO, a view where the events are) is refused at once, so
the rest of the folder still reads. Files of one match are told apart by their hash chains:
a copy that agrees with the original (an export, an earlier copy) is listed under it, one that
does not, or that is marked altered, is listed beside it as altered. From the finished
matches: a league table per game (3 points a win, 1 a draw: Fublet's championship rule and
the Fußball-Liga tournament rule; Football Leader and Futboard are silent, so the same;
a result that carries its own points, as the Fußball-Liga's does, keeps them), head-to-head
records, and each side's record. Journals do not name the coaches, so a side is its team
(roster) name. Pure Python: no plotting, no UI.
"""

from __future__ import annotations

import json
import logging
import operator
import os
import pickle
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Iterable, Iterator

from .. import opener, outfiles
from ..anchors import AnchorBook
from ..errors import TouchlineError
from ..events import format_time
from ..journal import read_stored
from ..loading import Finished, default_anchors, is_journal_file, read_finished, read_match  # as `touchline replay` reads
from .entry_store import EntryStore, Keys

if TYPE_CHECKING:   # notes are read when a listing is made, not at import
    from .notes import Note

log = logging.getLogger(__name__)

try:   # the cache's lines (10,000 matches: 4 MB) parsed and written by orjson, as the journals' payloads are
    from orjson import dumps as _dumps, loads as _loads
except ImportError:  # pragma: no cover - a platform without orjson's wheel
    def _loads(data: bytes) -> Any:
        return json.loads(data.decode("utf-8"))

    def _dumps(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":")).encode("utf-8")

MATCH_SUFFIXES = (".sqlite", ".sqlite3", ".db", ".jsonl")
IGNORED_SUFFIXES = ("-wal", "-shm", "-journal", ".partial")
GAME_NAMES = {"fublet": "Fublet", "football_leader": "Football Leader", "fussball_liga": "Fußball-Liga",
              "futboard": "Futboard"}
WIN, DRAW = 3, 1
FORM = 5   # results a side's form shows


@dataclass(frozen=True, slots=True)   # slots: a season of 10,000 entries is held at once
class Entry:
    """One file of the matches folder. ``problem`` says why it is not a readable match."""

    path: Path
    game: str = ""
    home: str = ""
    away: str = ""
    home_goals: int = 0
    away_goals: int = 0
    date: str = ""
    finished: bool = False
    winner: str | None = None            # "home", "away", or None (a draw, or not finished)
    decided_by: str = ""
    points: tuple[int, int] | None = None  # (home, away) when the result carries them
    shootout: tuple[int, int] | None = None
    events: int = 0
    problem: str = ""
    copies: tuple[str, ...] = ()          # other files of the same match (an export, an older copy)
    last: str = ""                        # the time of its last event
    stage: str = ""                       # where an unfinished match stands ("2nd half, turn 12")
    title: str = ""                       # the coach's name for it (companion/report/notes.py)
    friendly: bool = False                # a friendly: out of the league table and the records
    altered: str = ""                     # why its events are not the match as recorded ('' if nothing says so)
    copy_of: str = ""                     # an altered file of a match listed from another file (its name)
    first: str = ""                       # the hash chain: event 1's hash (names the match), the last
    last_seq: int = 0                     # event's seq and hash (tell copies that agree from altered ones)
    head: str = ""
    unchained: bool = False               # an export with no hash chain of its own (computed here)

    @property
    def name(self) -> str:
        """What the coach calls the match: his title, else its teams."""
        return self.title or f"{self.home} v {self.away}"

    @property
    def ok(self) -> bool:
        return not self.problem

    @property
    def status(self) -> str:
        if self.problem:
            return "unreadable"
        if self.altered:
            return "altered"
        return "finished" if self.finished else "not finished"

    @property
    def score(self) -> str:
        if self.problem:
            return ""
        text = f"{self.home_goals}-{self.away_goals}"
        if self.shootout:
            text += f" ({self.shootout[0]}-{self.shootout[1]} pens)"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path.name, "game": self.game, "home": self.home, "away": self.away,
                "score": {"home": self.home_goals, "away": self.away_goals} if self.ok else None,
                "date": self.date, "status": self.status, "winner": self.winner, "decided_by": self.decided_by,
                "events": self.events, "problem": self.problem or None, "copies": list(self.copies),
                "last": self.last, "title": self.title, "friendly": self.friendly,
                "altered": self.altered or None, "copy_of": self.copy_of or None}


def read_entry(path: Path, anchors: AnchorBook | None = None) -> Entry:
    """Replay one file to its entry; anything wrong becomes the entry's problem. ``anchors``:
    this tablet's (companion/anchors.py), which name a cut or rewritten journal
    (``anchors_for`` the file's folder when not given)."""
    book = anchors if anchors is not None else anchors_for(path.parent)
    try:
        stored = read_stored(path) if is_journal_file(path) else None
        finished = read_finished(stored, book) if stored is not None else None
        if finished is not None:
            entry = _finished_entry(finished)
            if entry is not None:
                return entry
        reading = read_match(path, book, stored)
        match = reading.match
        events = match.events
        summary = match.summary()
    except (TouchlineError, OSError, ValueError) as exc:
        return Entry(path, problem=_without_path(_first_line(exc), path))
    except Exception as exc:  # a file no reader foresaw: listed as such, the scan goes on
        log.warning("%s: unreadable", path, exc_info=True)
        return Entry(path, problem=f"cannot be read ({type(exc).__name__}: {_first_line(exc)})")
    fields = summary_fields(summary)
    if fields is None:
        return Entry(path, game=match.ruleset.game, events=len(events), date=_date(events),
                     problem="the match was never set up (no teams)")
    return Entry(
        path, game=match.ruleset.game, date=_date(events), events=len(events),
        last=format_time(events[-1].at) if events else "", altered=reading.altered, first=reading.first,
        last_seq=reading.last_seq, head=reading.head, unchained=reading.unchained, **fields)


def _finished_entry(f: Finished) -> Entry | None:
    """A finished journal's entry from its final record: what its replay would list."""
    fields = summary_fields(f.summary)
    if fields is None or not fields["finished"]:
        return None
    c = f.chain
    return Entry(f.path, game=f.game, date=format_time(c.first_at), events=c.active, last=format_time(c.last_at),
                 altered=f.altered, first=c.hashes[0], last_seq=c.last_seq, head=c.head, **fields)


def summary_fields(summary: dict[str, Any]) -> dict[str, Any] | None:
    """What an Entry takes from a match's summary (teams, score, result, where it stands), or
    None when the match was never set up. The club server (companion/club/) reads its matches
    the same way."""
    teams, score = summary.get("teams"), summary.get("score")
    if not isinstance(teams, dict) or not isinstance(score, dict):
        return None
    result = summary.get("result") if isinstance(summary.get("result"), dict) else None
    shootout = summary.get("shootout") if isinstance(summary.get("shootout"), dict) else None
    points = None
    if result and isinstance(result.get("points"), dict):
        points = (int(result["points"]["home"]), int(result["points"]["away"]))
    return dict(
        home=str(teams.get("home")), away=str(teams.get("away")),
        home_goals=int(score.get("home", 0)), away_goals=int(score.get("away", 0)),
        finished=result is not None, winner=(result or {}).get("winner"),
        decided_by=str((result or {}).get("decided_by", "")), points=points,
        shootout=(int(shootout["home"]), int(shootout["away"])) if shootout and result else None,
        stage="" if result else stage_of(summary))


def stage_of(summary: dict[str, Any]) -> str:
    """Where a match stands, in a few words: the period and the minute, round or turn."""
    from ..view import summary_of   # the typed reading every screen uses

    try:
        s = summary_of(summary)
    except Exception:   # a summary the typed reading does not know: no words, the score says enough
        return ""
    parts = [s.clock.period] if s.clock.period else []
    if s.clock.minute is not None:
        parts.append(f"{s.clock.minute}'")
    elif s.round is not None:
        parts.append(f"round {s.round}")
    elif s.turn is not None and s.turn.number:
        parts.append(f"turn {s.turn.number}")
    return ", ".join(parts)


def _without_path(text: str, path: Path) -> str:
    """The reason alone: the listing names the file already."""
    for sep in (": ", ", "):
        if text.startswith(str(path) + sep):
            return text[len(str(path)) + len(sep):]
    return text


def _date(events) -> str:
    return format_time(events[0].at) if events else ""


def _first_line(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0]


def anchors_for(folder: Path) -> AnchorBook:
    """The anchors that speak for ``folder``: its data folder's when it is one's ``matches``
    (the app's), else this computer's."""
    book = AnchorBook.of_data_dir(Path(folder).parent)
    return book if Path(folder).name == "matches" and book.folder.is_dir() else default_anchors()


CACHE_FILE = "history-cache.json"   # JSON Lines since version 7; the name the app and the commands share
CACHE_HEAD = b'{"version":'   # how every cache this module writes begins
CACHE_MAX_BYTES = 64 * 1024 * 1024   # 10,000 matches take about 5 MB; a larger file is no cache of ours


def cache_path(data_dir: Path) -> Path:
    """The history's cache of a data folder's matches: ``<data dir>/reports/history-cache.json``,
    beside ``matches/``. The app's Matches screen, Home and the commands share it."""
    return Path(data_dir) / "reports" / CACHE_FILE


def scan(folder: Path, cache: Path | None = None, anchors: AnchorBook | None = None) -> list[Entry]:
    """Every match file in ``folder`` (not its subfolders), newest first; unreadable ones last:
    ``listing``'s entries as a list (the app's Matches screen shows them all)."""
    with listing(folder, cache, anchors) as found:
        return list(found)


def listing(folder: Path, cache: Path | None = None, anchors: AnchorBook | None = None) -> Listing:
    """Every match file in ``folder`` (not its subfolders), as a ``Listing`` to iterate (as often
    as needed) and then close: newest first, unreadable ones last, files of one match listed
    once (``_settle``).

    With ``cache`` (a JSON Lines file: ``cache_path`` for a data folder's matches), a file whose
    stamp has not changed since the last scan is not replayed again: its size, its modification
    and change times and its inode, its write-ahead log's and its anchor's (``_stamp``). A season of
    matches lists at once. The folder's names and the cache's lines are both in name order, so
    they are read side by side, a line at a time; the cache is written again (``_write_cache``)
    only when something differs, so a warm listing writes nothing. A cache that cannot be read
    (missing, damaged, half written, of another version, not a regular file) is ignored and
    written anew, a damaged line only costs its file's replay; one that cannot be written only
    makes the next listing slower. The names and the entries are
    kept in the listing's own temporary database (companion/report/entry_store.py), not in
    memory: a listing's memory does not grow with the folder. ``anchors``: the anchors that
    name a cut journal (``anchors_for(folder)`` when not given)."""
    store = EntryStore()
    try:
        if folder.is_dir():
            _fill(store, folder, cache, anchors if anchors is not None else anchors_for(folder))
    except BaseException:
        store.close()
        raise
    return Listing(store, folder)


def _fill(store: EntryStore, folder: Path, cache: Path | None, book: AnchorBook) -> None:
    from .notes import load   # the coach's titles and friendlies: read at every listing (never cached)

    with os.scandir(folder) as found:   # a DirEntry knows whether it is a folder without a stat of its own
        store.add_names((d.name, _is_dir(d)) for d in found)
    noted = load(folder)
    prefix = os.path.join(os.fspath(folder), "")
    changed = False
    with _OldCache(cache) as old:
        for name, is_dir in store.names():
            if not _listed_name(name, is_dir):
                continue
            path = folder / name
            if path.suffix.lower() not in MATCH_SUFFIXES:
                entry = Entry(path, problem="not a match file (a journal .sqlite or an export .jsonl)")
            else:
                entry, line, hit = _cached_entry(path, old.take(name), book, prefix + name)
                if not hit:   # kept aside: the cache is written again only if something differs
                    store.put_line(name, line)
                    changed = True
            _put(store, _with_note(entry, noted.get(name)))
        if old.finish() or changed:
            _write_cache(cache, store)
    for date, game in store.shared_dates():
        group = [_unpack(folder, b) for b in store.sharing(date, game)]
        for e in group:
            store.drop(e.path.name)
        for e in _settle(group, book, {}):   # a file is of one group: its hashes read again serve no other
            _put(store, e)


def _listed_name(name: str, is_dir: bool) -> bool:
    """Whether the folder's entry ``name`` is listed: no folder, no hidden file (the notes), no
    journal's side file."""
    return not (is_dir or name.startswith(".") or name.endswith(IGNORED_SUFFIXES))


def _write_cache(cache: Path | None, store: EntryStore) -> None:
    """The cache again, after a listing found it differs (a file new, changed or gone, a line
    damaged): for each match file, in name order, its new line (kept aside in the store) or
    else the old cache's, read again a line at a time. A warm listing never comes here, so it
    writes nothing, not even a temporary file."""
    if cache is None:
        return
    with _OldCache(cache) as old, _NewCache(cache) as new:
        for name, is_dir, changed, line in store.names_and_lines():
            if not _listed_name(name, is_dir) or Path(name).suffix.lower() not in MATCH_SUFFIXES:
                continue
            if changed:
                new.put(line)
            else:
                kept = old.take(name)
                if kept is not None:
                    new.put(kept[3])
        new.commit()


_FIELDS = operator.attrgetter(*(f.name for f in fields(Entry)[1:]))   # an entry packed: its file's name, then these


def _put(store: EntryStore, e: Entry) -> None:
    # Packed by pickle (a tuple of the file's name and the entry's other fields): the store is
    # this process's own temporary database, which no one else can write, and unpacking is the
    # listing's cost per row shown (a pickled Entry with its Path took twice as long).
    packed = pickle.dumps((e.path.name,) + _FIELDS(e), pickle.HIGHEST_PROTOCOL)
    store.put(Keys(e.path.name, e.ok, e.date, e.game, bool(e.copy_of), e.ok and e.finished and not e.copy_of,
                   e.friendly, bool(e.title)), packed)


def _unpack(folder: Path, blob: bytes) -> Entry:
    values = pickle.loads(blob)
    return Entry(folder / values[0], *values[1:])


class Listing:
    """A listed folder's entries (``listing``), read from its store a row at a time each time
    it is iterated: in the list's order, or (``finished``) the matches that count, oldest
    first. ``selected`` is the same listing seen through a filter. Close it (or use ``with``)
    when done: its temporary database goes."""

    def __init__(self, store: EntryStore, folder: Path, game: str | None = None, team: str | None = None,
                 owner: bool = True):
        self._store = store
        self.folder = folder
        self.game = game or None
        self._needle = (team or "").strip().casefold()
        self._owner = owner

    @classmethod
    def of(cls, entries: Iterable[Entry], folder: Path) -> Listing:
        """A listing of these entries (files of ``folder``), kept as ``listing`` keeps a
        folder's: in its store, in the list's order (files of one match are not looked for)."""
        store = EntryStore()
        try:
            for e in entries:
                _put(store, e)
        except BaseException:
            store.close()
            raise
        return cls(store, folder)

    def selected(self, game: str | None = None, team: str | None = None) -> Listing:
        """The entries of one game and/or with a team whose name contains ``team`` (any case),
        as ``select`` picks them: the same store, closed with this listing."""
        return Listing(self._store, self.folder, game, team, owner=False)

    @property
    def filtered(self) -> bool:
        return self.game is not None or bool(self._needle)

    def matches(self, e: Entry) -> bool:
        """Whether ``e`` passes this listing's filter."""
        if self.game is not None and e.game != self.game:
            return False
        return not self._needle or self._needle in e.home.casefold() or self._needle in e.away.casefold()

    def __iter__(self) -> Iterator[Entry]:
        for blob in self._store.in_list_order(self.game):
            e = _unpack(self.folder, blob)
            if not self._needle or self.matches(e):
                yield e

    def left_out(self) -> Iterator[Entry]:
        """The unreadable files this filter leaves out (a listing keeps them in sight: they
        belong to no game or team), in the list's order."""
        if not self.filtered:
            return
        for blob in self._store.in_list_order():
            e = _unpack(self.folder, blob)
            if not e.ok and not self.matches(e):
                yield e

    def finished(self, game: str | None = None, friendlies: bool = False,
                 only_friendlies: bool = False) -> Iterator[Entry]:
        """What ``finished`` picks, in its order, a row at a time (``only_friendlies``: the
        friendlies among them)."""
        if game is not None and self.game is not None and game != self.game:
            return
        for blob in self._store.counted(game or self.game, friendlies, only_friendlies):
            e = _unpack(self.folder, blob)
            if not self._needle or self.matches(e):
                yield e

    def count_finished(self, game: str | None = None, only_friendlies: bool = False) -> int:
        """How many ``finished`` gives (counted by the store when no team is asked for)."""
        if self._needle or (game is not None and self.game is not None and game != self.game):
            return sum(1 for _ in self.finished(game, only_friendlies, only_friendlies))
        return self._store.count(game or self.game, only_friendlies, only_friendlies)

    def games(self) -> list[str]:
        """The games of the readable entries (``games_in``)."""
        if self._needle:
            return sorted({e.game for e in self if e.ok and e.game})
        return [g for g in self._store.games() if self.game is None or g == self.game]

    def titled(self) -> bool:
        """Whether an entry shown has the coach's title."""
        if self._needle:
            return any(e.title for e in self)
        return self._store.titled(self.game)

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None

    def close(self) -> None:
        if self._owner:
            self._store.close()

    def __enter__(self) -> Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_files(paths: Iterable[Path], cache: Path | None = None) -> list[Entry]:
    """The entries of these match files only (those that exist), in the order given, through
    the same cache as ``scan`` (what it knows of other files is kept): Home asks this of the
    few matches this tablet played, not of a whole season."""
    wanted = [Path(p) for p in paths]
    wanted = [p for p in wanted if p.is_file()]
    names = {p.name for p in wanted}
    with _OldCache(cache) as old:
        known = {line[0]: line for line in old.lines() if line[0] in names}
    entries = []
    changed: dict[str, bytes | None] = {}
    books: dict[Path, AnchorBook] = {}
    for path in wanted:
        book = books.get(path.parent) or books.setdefault(path.parent, anchors_for(path.parent))
        entry, line, hit = _cached_entry(path, known.get(path.name), book)
        if not hit:
            changed[path.name] = line
        entries.append(entry)
    if cache is not None and changed:
        _rewrite_cache(cache, changed)
    by_folder: dict[Path, list[Entry]] = {}
    for e in entries:
        by_folder.setdefault(e.path.parent, []).append(e)
    noted = {e.path: e for folder, group in by_folder.items() for e in _with_notes(folder, group)}
    return [noted[e.path] for e in entries]


CachedLine = tuple[str, str, Any, bytes]   # a cache line: file name, stamp, the entry's CACHED fields, its bytes


def _cached_entry(path: Path, line: CachedLine | None, book: AnchorBook,
                  where: str | None = None) -> tuple[Entry, bytes | None, bool]:
    """The file's entry, its cache line, and whether the cache held it: from ``line`` (the
    cache's line of that name) when the file's size and times (and its anchor's) are
    unchanged, else replayed. A line the cache held is passed on as its own bytes, never
    written out again. ``where``: the path as text, when the caller has it."""
    stamp = _stamp(path, book, where)
    if line is not None and line[1] == stamp:
        entry = _from_cache(path, line[2])
        if entry is not None:
            return entry, line[3], True
    entry = read_entry(path, book)
    return entry, _cache_line(path.name, stamp, entry), False


def _is_dir(d: os.DirEntry) -> bool:
    try:
        return d.is_dir()
    except OSError:  # gone, or a link that cannot be followed: listed, and its reading says why
        return False


def _with_notes(folder: Path, entries: list[Entry]) -> list[Entry]:
    """The coach's titles and friendlies (companion/report/notes.py), read at every listing:
    they change without the match files changing, so they are never cached."""
    from .notes import load

    noted = load(folder)
    if not noted:
        return entries
    return [_with_note(e, noted.get(e.path.name)) for e in entries]


def _with_note(e: Entry, note: Note | None) -> Entry:
    return e if note is None else replace(e, title=note.title, friendly=note.friendly)


CACHE_VERSION = 7   # 2: the last event's time and stage; 3: the anchors' fields; 4: both; 5: the stamp's
#                     change time and inode; 6: a file is [stamp text, [its entry's CACHED fields]]
#                     (no key names repeated per file: 10,000 matches parse to 8 MB, not 21); 7: JSON
#                     Lines, a header line then [name, stamp, [fields]] a file, in name order, so a
#                     listing reads and writes it a line at a time (its memory no longer grows by
#                     the whole cache parsed: 1.3 kB a match)
CACHE_HEADER = b'{"version":%d}\n' % CACHE_VERSION   # begins with CACHE_HEAD
HEADER_MAX = 64   # a longer first line is no header of ours (a version 6 cache is one line of MBs)


def _stamp(path: Path, anchors: AnchorBook | None = None, where: str | None = None) -> str:
    """What the file's entry depends on: the size, modification time, change time and inode
    of the file, of its write-ahead log and of its anchor. Any write to a file moves its
    change time, which no program can set back (``utime`` sets only the access and
    modification times), so a journal rewritten to its old size with its old time put back is
    still read again; and so is one swapped for another file (a new inode). The journal's last
    hash is what the entry keeps (``head``, which tells its copies apart): reading it again at
    every listing would open every journal (SQLite, hardened: journal_guard.py), some ten times
    the cost of a warm listing (docs/benchmarks.md). The app's anchor of a journal holds that
    hash, and the anchor's own stamp moves with it."""
    # Strings, not Paths: a season of matches is 30,000 of these a listing. ``where`` (the path as
    # text, made by the caller) spares ``path`` the text of itself it would keep (90 bytes a match).
    name = where if where is not None else os.fspath(path)
    out: list[str] = []
    for p in (name, name + "-wal") + ((anchors.text_for(path.name),) if anchors is not None else ()):
        try:
            st = os.stat(p)
            out.append(f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}")
        except OSError:
            out.append("-")
    return " ".join(out)


CACHED = ("game", "home", "away", "home_goals", "away_goals", "date", "finished", "winner", "decided_by", "points",
          "shootout", "events", "problem", "last", "stage", "altered", "first", "last_seq", "head", "unchained")


def _to_cache(e: Entry) -> list[Any]:
    return [e.game, e.home, e.away, e.home_goals, e.away_goals, e.date, e.finished, e.winner, e.decided_by,
            list(e.points) if e.points else None, list(e.shootout) if e.shootout else None, e.events, e.problem,
            e.last, e.stage, e.altered, e.first, e.last_seq, e.head, e.unchained]


def _from_cache(path: Path, values: Any) -> Entry | None:
    """The entry a cache line's fields hold, or None when they are of another shape. The
    words a season repeats (its game, teams, how a match was decided, where one stands, what
    is wrong with a file) are held once (``sys.intern``), not once a match."""
    if type(values) is not list or len(values) != len(CACHED):
        return None
    d = dict(zip(CACHED, values))
    try:
        return Entry(path, game=_word(d["game"]), home=_word(d["home"]), away=_word(d["away"]),
                     home_goals=int(d["home_goals"]), away_goals=int(d["away_goals"]), date=str(d["date"]),
                     finished=bool(d["finished"]),
                     winner=_WINNERS.get(d["winner"]) if type(d["winner"]) is str else None,
                     decided_by=_word(d["decided_by"]),
                     points=(int(d["points"][0]), int(d["points"][1])) if d["points"] else None,
                     shootout=(int(d["shootout"][0]), int(d["shootout"][1])) if d["shootout"] else None,
                     events=int(d["events"]), problem=_word(d["problem"]), last=str(d["last"]),
                     stage=_word(d["stage"]), altered=_word(d["altered"]), first=str(d["first"]),
                     last_seq=int(d["last_seq"]), head=str(d["head"]), unchained=bool(d["unchained"]))
    except (KeyError, TypeError, ValueError, IndexError):
        return None  # an entry of another shape: read the file again


_WINNERS = {"home": "home", "away": "away"}


def _word(value: Any) -> str:
    return sys.intern(value) if type(value) is str else str(value)


def _cache_line(name: str, stamp: str, e: Entry) -> bytes | None:
    """A file's line of the cache; None for a name JSON cannot carry (not UTF-8): that file is
    replayed at every listing, the others are cached."""
    try:
        return _dumps([name, stamp, _to_cache(e)]) + b"\n"
    except (TypeError, ValueError):
        return None


def _parse_line(raw: bytes) -> CachedLine | None:
    """A cache line read back, or None when it is cut short, damaged or of another shape."""
    if not raw.endswith(b"\n"):   # the last line of a file cut short
        return None
    try:
        value = _loads(raw)
    except (ValueError, RecursionError):
        return None
    if type(value) is list and len(value) == 3 and type(value[0]) is str and type(value[1]) is str:
        return value[0], value[1], value[2], raw
    return None


class _OldCache:
    """The cache as a listing left it, read a line at a time. ``take`` is asked for the files
    in name order, the cache's own, so only the line at hand is held. It is opened as any file
    that came from anywhere (opener.py: a FIFO or a device in its place is refused without
    blocking, a huge one by its size). ``differs`` is set by anything the next cache should not
    keep: a header not ours, a damaged line, one out of order or twice, a file gone."""

    def __init__(self, cache: Path | None):
        self.cache = cache
        self.differs = False
        self.unused = 0   # lines damaged, cut, out of order or twice
        self._fh: BinaryIO | None = None
        self._next: CachedLine | None = None
        self._last = ""
        if cache is not None:
            self._open(cache)

    def __enter__(self) -> _OldCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()

    def _open(self, cache: Path) -> None:
        if not os.path.lexists(cache):   # none yet: nothing to say, and nothing to rewrite unless files are cached
            return
        try:
            self._fh = opener.open_binary(cache, "a history cache", CACHE_MAX_BYTES)
            head = self._fh.readline(HEADER_MAX)
            version = _loads(head).get("version") if head.startswith(CACHE_HEAD) and head.endswith(b"\n") else None
        except (OSError, ValueError, AttributeError, RecursionError, TouchlineError) as exc:
            self._drop(_first_line(exc))
            return
        if version != CACHE_VERSION:   # damaged, foreign, or of another version
            self._drop(f"version {version}" if type(version) is int else "no cache header")
            return
        self._advance()

    def _drop(self, why: str) -> None:
        log.info("history cache %s not used (%s): the matches are read again", self.cache, why)
        self.differs = True
        self._close()

    def _close(self) -> None:
        self._next = None
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            if self.unused:
                log.info("history cache %s: %d line(s) damaged or out of order, not used: their files are read "
                         "again", self.cache, self.unused)

    def _advance(self) -> None:
        """The next sound line, in order, into ``_next`` (None at the end)."""
        self._next = None
        while self._fh is not None:
            try:
                raw = self._fh.readline()
            except OSError as exc:
                self._drop(_first_line(exc))
                return
            if not raw:
                self._close()
                return
            line = _parse_line(raw)
            if line is None or line[0] <= self._last:   # damaged, or out of order or twice: its file is read again
                self.differs = True
                self.unused += 1
                continue
            self._last = line[0]
            self._next = line
            return

    def take(self, name: str) -> CachedLine | None:
        """The line of the file ``name``, if the cache holds one; names asked in order."""
        while self._next is not None and self._next[0] < name:   # a file gone since
            self.differs = True
            self._advance()
        if self._next is not None and self._next[0] == name:
            line = self._next
            self._advance()
            return line
        return None

    def lines(self) -> Iterator[CachedLine]:
        """Every sound line from here on, in name order."""
        while self._next is not None:
            line = self._next
            self._advance()
            yield line

    def finish(self) -> bool:
        """Whether the next cache differs from this one: ``differs``, or lines left untaken."""
        if self._next is not None:
            self.differs = True
        self._close()
        return self.differs


class _NewCache:
    """The next cache, written a line at a time beside its place, then renamed in (``commit``);
    made only when the old one differs (``_write_cache``, ``_rewrite_cache``). A reader (another
    process: the app and a command at once) finds the old cache or the new, never half of one,
    and two writers each put a whole cache in place (the last one stays). The temporary file is
    made new (``mkstemp``: never through a link planted at its name)."""

    def __init__(self, cache: Path | None):
        self.cache = cache
        self._fh: BinaryIO | None = None
        self._tmp: str | None = None
        if cache is None:
            return
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            fd, self._tmp = tempfile.mkstemp(dir=cache.parent, prefix=f".{cache.name.lstrip('.')}.",
                                             suffix=".partial")
            self._fh = os.fdopen(fd, "wb")
            # It begins with CACHE_HEAD: `--cache FILE` writes over no file that does not.
            self._fh.write(CACHE_HEADER)
        except OSError as exc:
            self._fail(exc)

    def __enter__(self) -> _NewCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self._discard()

    def put(self, line: bytes | None) -> None:
        """The next file's line (None: the file has none)."""
        if self._fh is not None and line is not None:
            try:
                self._fh.write(line)
            except OSError as exc:
                self._fail(exc)

    def commit(self) -> None:
        """Put the new cache in place; the temporary goes if that fails."""
        if self._fh is None:
            return
        try:
            self._fh.close()
            self._fh = None
            os.replace(self._tmp, self.cache)
            self._tmp = None
        except OSError as exc:
            self._fail(exc)
        self._discard()

    def _fail(self, exc: OSError) -> None:
        log.info("history cache %s not written: %s", self.cache, exc)
        self._discard()

    def _discard(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None


def _rewrite_cache(cache: Path, changed: dict[str, bytes | None]) -> None:
    """The cache again with these files' lines put in (None: the file's line dropped), the
    others' lines copied as they were: both in name order, merged a line at a time."""
    mine = sorted(changed.items())
    i = 0
    with _OldCache(cache) as old, _NewCache(cache) as new:
        for line in old.lines():
            while i < len(mine) and mine[i][0] < line[0]:
                new.put(mine[i][1])
                i += 1
            if i < len(mine) and mine[i][0] == line[0]:
                continue   # replaced by the file's new line, put in just below
            new.put(line[3])
        for _, raw in mine[i:]:
            new.put(raw)
        new.commit()


def _settle(group: list[Entry], anchors: AnchorBook | None,
            hashes: dict[tuple[Path, int], str | None]) -> list[Entry]:
    """The files of one match (same game and first event's time), as the list shows them:
    those whose hash chains agree (one holds the other's events, or the same) once, as the
    copy that went furthest, a journal before an export, naming the others; a file that does
    not agree with the original (the file this tablet anchored, else the soundest and
    longest), or that is marked altered, beside it as altered, never hidden among its copies.
    ``hashes``: the chain's hashes read again, shared between groups."""
    original = max(group, key=lambda e: (not e.altered, _anchored(e, anchors), not e.unchained, e.last_seq,
                                          e.path.suffix.lower() != ".jsonl", e.path.name))
    # A copy agrees when the chains say one holds the other's events; one that nothing vouches
    # for (marked altered, or with no chain) counts as a copy only as far as the original
    # goes: events it adds beyond it could be anyone's.
    agree = [e for e in group if e is original or (_agree(original, e, hashes) and (
        e.last_seq <= original.last_seq or not (e.altered or e.unchained)))]
    agree.sort(key=lambda e: (-e.events, bool(e.altered), e.path.suffix.lower() == ".jsonl", e.path.name))
    best = agree[0]
    if len(agree) > 1:
        best = replace(best, copies=tuple(e.path.name for e in agree[1:]))
    out = [best]
    for e in group:
        if e not in agree:
            why = e.altered or _difference(original, e, hashes)
            out.append(replace(e, altered=why, copy_of=best.path.name))
    return out


def in_list_order(entries: Iterable[Entry]) -> list[Entry]:
    """The order of the list of matches: readable first, newest first, an altered copy after its
    match, then by name."""
    out = list(entries)
    _sort_for_list(out)
    return out


def _sort_for_list(out: list[Entry]) -> None:
    # Sorted from the last key to the first (each sort keeps the order of the one before among
    # equals), each key a string or a bool the entries already hold: a key of a tuple would be
    # 10,000 tuples at once for a season.
    out.sort(key=_name_of)
    out.sort(key=_is_copy)
    out.sort(key=_date_of, reverse=True)
    out.sort(key=_dated)   # a file with no date before the dated
    out.sort(key=_unreadable)


def _name_of(e: Entry) -> str:
    return e.path.name


def _is_copy(e: Entry) -> bool:
    return bool(e.copy_of)


def _date_of(e: Entry) -> str:
    return e.date


def _dated(e: Entry) -> bool:
    return bool(e.date)


def _unreadable(e: Entry) -> bool:
    return not e.ok


def _anchored(e: Entry, anchors: AnchorBook | None) -> bool:
    return anchors is not None and e.path.suffix.lower() != ".jsonl" and anchors.lookup(e.path) is not None


def _agree(a: Entry, b: Entry, hashes: dict[tuple[Path, int], str | None]) -> bool:
    """The two files hold the same events as far as the shorter goes (the chain: equal hashes
    at one seq mean equal events up to there). Reads the longer file again when needed."""
    if not a.first or a.first != b.first:
        return False
    short, long_ = (a, b) if a.last_seq <= b.last_seq else (b, a)
    if short.last_seq == long_.last_seq:
        return short.head == long_.head
    key = (long_.path, short.last_seq)
    if key not in hashes:
        hashes[key] = _hash_at(long_.path, short.last_seq)
    return hashes[key] == short.head


def _hash_at(path: Path, seq: int) -> str | None:
    try:
        return read_match(path, None).hash_at(seq)
    except Exception as exc:  # changed or gone since it was listed: no agreement can be shown
        log.info("%s: not read again (%s)", path, _first_line(exc))
        return None


def _difference(original: Entry, e: Entry, hashes: dict[tuple[Path, int], str | None]) -> str:
    if not e.first or e.first != original.first:
        return f"its first event differs from {original.path.name}'s (the teams, the options or the time were changed)"
    if _agree(original, e, hashes):  # it agrees, but goes further than anything vouches for
        return (f"it goes on past {original.path.name}'s last event ({original.last_seq}), and nothing vouches for "
                f"what it adds (it carries no hash chain of its own)")
    return f"its events differ from {original.path.name}'s by event {min(e.last_seq, original.last_seq)}"


def select(entries: Iterable[Entry], game: str | None = None, team: str | None = None) -> list[Entry]:
    """The entries of one game and/or with a team whose name contains ``team`` (any case)."""
    out = []
    needle = (team or "").strip().casefold()
    for e in entries:
        if game and e.game != game:
            continue
        if needle and needle not in e.home.casefold() and needle not in e.away.casefold():
            continue
        out.append(e)
    return out


@dataclass
class Record:
    """A side's record: played, won, drawn, lost, goals for and against, points."""

    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0
    form: list[str] = field(default_factory=list)   # W/D/L of its last FORM matches, oldest first

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    def add(self, scored: int, conceded: int, outcome: str, points: int) -> None:
        self.played += 1
        self.goals_for += scored
        self.goals_against += conceded
        self.points += points
        self.form.append(outcome)
        if len(self.form) > FORM:   # a side's form is its last few results: a season's are not held
            del self.form[0]
        if outcome == "W":
            self.won += 1
        elif outcome == "D":
            self.drawn += 1
        else:
            self.lost += 1

    def row(self) -> list[Any]:
        return [self.team, self.played, self.won, self.drawn, self.lost, self.goals_for, self.goals_against,
                self.goal_difference, self.points]


RECORD_HEADER = ["team", "P", "W", "D", "L", "GF", "GA", "GD", "Pts"]


def outcomes(e: Entry) -> tuple[tuple[str, int], tuple[str, int]]:
    """((home outcome, home points), (away outcome, away points)) of a finished match."""
    if e.winner == "home":
        result = ("W", "L")
    elif e.winner == "away":
        result = ("L", "W")
    else:
        result = ("D", "D")
    default = {"W": WIN, "D": DRAW, "L": 0}
    points = e.points or (default[result[0]], default[result[1]])
    return (result[0], points[0]), (result[1], points[1])


def finished(entries: Iterable[Entry], game: str | None = None, friendlies: bool = False) -> list[Entry]:
    """Finished, readable matches of ``game``, oldest first: the ones that count (a friendly
    counts in no table; an altered file listed beside its match's original does not count: the
    original does), or with ``friendlies`` the friendlies too."""
    return list(_finished(entries, game, friendlies))


def _finished(entries: Iterable[Entry], game: str | None = None, friendlies: bool = False) -> Iterable[Entry]:
    """``finished``'s matches in its order; from a ``Listing``, a row at a time (not held)."""
    if isinstance(entries, Listing):
        return entries.finished(game, friendlies)
    return sorted((e for e in entries if e.ok and e.finished and not e.copy_of and (game is None or e.game == game)
                   and (friendlies or not e.friendly)),
                  key=lambda e: (e.date, e.path.name))


def count_finished(entries: Iterable[Entry], game: str | None = None) -> int:
    """How many matches of ``game`` count (``finished``)."""
    if isinstance(entries, Listing):
        return entries.count_finished(game)
    return sum(1 for _ in _finished(entries, game))


def friendlies(entries: Iterable[Entry], game: str | None = None) -> list[Entry]:
    """The finished friendlies of ``game``: played, listed, counted in no table."""
    if isinstance(entries, Listing):
        return list(entries.finished(game, friendlies=True, only_friendlies=True))
    return [e for e in _finished(entries, game, friendlies=True) if e.friendly]


def league(entries: Iterable[Entry], game: str) -> list[Record]:
    """The league table of one game: points, then goal difference, goals scored, name."""
    return tables(entries, game).league(game)


def records(entries: Iterable[Entry]) -> dict[str, dict[str, Record]]:
    """Each side's record in every game it played, and over all games ("all")."""
    return tables(entries).records()


@dataclass
class HeadToHead:
    game: str
    first: str
    second: str
    played: int = 0
    first_wins: int = 0
    draws: int = 0
    second_wins: int = 0
    first_goals: int = 0
    second_goals: int = 0

    def row(self) -> list[Any]:
        return [GAME_NAMES.get(self.game, self.game), self.first, self.second, self.played, self.first_wins,
                self.draws, self.second_wins, f"{self.first_goals}-{self.second_goals}"]


H2H_HEADER = ["game", "team", "opponent", "P", "team wins", "draws", "opponent wins", "goals"]


def head_to_head(entries: Iterable[Entry], game: str | None = None) -> list[HeadToHead]:
    """Every pair of sides that met, per game, the names in alphabetical order."""
    return tables(entries, game).head_to_head()


def tables(entries: Iterable[Entry], game: str | None = None) -> Tables:
    """The league tables, records and head to head of the matches that count (``finished``, of
    ``game`` when given), made in one walk of them: a listing of a season walks its store once
    for all three, not once each."""
    out = Tables()
    for e in _finished(entries, game):
        out.add(e)
    return out


class Tables:
    """What the finished matches add up to, a match at a time (oldest first: a side's form is
    in the order played): each side's record per game (a game's league table is its sides'
    records there) and over all games, each pair's head to head, and the matches per game."""

    def __init__(self) -> None:
        self._records: dict[str, dict[str, Record]] = defaultdict(dict)
        self._pairs: dict[tuple[str, str, str], HeadToHead] = {}
        self.played: dict[str, int] = defaultdict(int)   # matches that count, per game

    def add(self, e: Entry) -> None:
        self.played[e.game] += 1
        (ho, hp), (ao, ap) = outcomes(e)
        for team, scored, conceded, outcome, pts in ((e.home, e.home_goals, e.away_goals, ho, hp),
                                                     (e.away, e.away_goals, e.home_goals, ao, ap)):
            mine = self._records[team]
            for key in (e.game, "all"):
                record = mine.get(key)
                if record is None:
                    record = mine[key] = Record(team)
                record.add(scored, conceded, outcome, pts)
        first, second = sorted((e.home, e.away), key=str.casefold)
        h = self._pairs.get((e.game, first, second))
        if h is None:
            h = self._pairs[(e.game, first, second)] = HeadToHead(e.game, first, second)
        h.played += 1
        if e.home == e.away:  # a side against itself: goals as played
            h.first_goals += e.home_goals
            h.second_goals += e.away_goals
        else:
            goals = {e.home: e.home_goals, e.away: e.away_goals}
            h.first_goals += goals[first]
            h.second_goals += goals[second]
        win = e.home if e.winner == "home" else e.away if e.winner == "away" else None
        if win is None:
            h.draws += 1
        elif win == first:
            h.first_wins += 1
        else:
            h.second_wins += 1

    def league(self, game: str) -> list[Record]:
        """The league table of one game: points, then goal difference, goals scored, name."""
        rows = [mine[game] for mine in self._records.values() if game in mine]
        return sorted(rows, key=lambda r: (-r.points, -r.goal_difference, -r.goals_for, r.team.casefold(), r.team))

    def records(self) -> dict[str, dict[str, Record]]:
        """Each side's record in every game it played, and over all games ("all")."""
        return dict(sorted(self._records.items(), key=lambda kv: kv[0].casefold()))

    def head_to_head(self, game: str | None = None) -> list[HeadToHead]:
        """Every pair of sides that met (in ``game``), per game, the names in alphabetical order."""
        return sorted((h for h in self._pairs.values() if game is None or h.game == game),
                      key=lambda h: (h.game, h.first.casefold(), h.second.casefold()))


HISTORY_HEADER = ["date", "game", "home", "away", "home goals", "away goals", "status", "result", "file", "problem",
                  "title", "friendly"]


def history_rows(entries: Iterable[Entry]) -> list[list[Any]]:
    return [history_row(e) for e in entries]


def history_row(e: Entry) -> list[Any]:
    """A match's row of the history's CSV (HISTORY_HEADER)."""
    result = ""
    if e.ok and e.finished:
        who = e.home if e.winner == "home" else e.away if e.winner == "away" else None
        result = (f"{who} win" if who else "draw") + (f" ({e.decided_by})" if e.decided_by else "")
    return [e.date, GAME_NAMES.get(e.game, e.game), e.home, e.away,
            e.home_goals if e.ok else "", e.away_goals if e.ok else "", e.status, result, e.path.name,
            e.problem or altered_text(e), e.title, "yes" if e.friendly else ""]


def altered_text(e: Entry) -> str:
    """Why an entry is listed as altered, naming the match's file it stands beside."""
    if not e.altered:
        return ""
    return f"altered: {e.altered}" + (f"; {e.copy_of} is the one that counts" if e.copy_of else "")


def write_csv(path: Path, header: list[str], rows: Iterable[list[Any]], force: bool = False) -> None:
    """One table through the project's one CSV writer (inert cells, never through a link)."""
    outfiles.write_csv(path, header, rows, force)


def games_in(entries: Iterable[Entry]) -> list[str]:
    if isinstance(entries, Listing):
        return entries.games()
    return sorted({e.game for e in entries if e.ok and e.game})
