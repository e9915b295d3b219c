"""Where each match this tablet recorded ended, kept outside its journal.

The hash chain finds an event changed, removed or inserted anywhere but at the end: a journal
with its last 200 events deleted is a shorter journal with a sound chain, and one rewritten
with a fresh chain is sound too. What tells them from the real match is its end, anchored
where the journal is not: the app writes, beside every append, the count and the last hash
of each journal it plays in the data folder (``<data dir>/anchors/<journal name>.json``)::

    {"version": 1, "file": "/…/matches/2026-12-06-1830.sqlite", "first": "<hash of event 1>",
     "start": "<time of event 1>", "last_seq": 1309, "head": "<hash of event 1309>",
     "final": "<digest of its final record>", "marks": {"128": "<hash>", "256": …}}

``first`` names the match (its creation event's hash: every copy of it shares it) and
``start`` its creation's time (a copy whose creation event was edited still shares it), ``marks``
keep the hash of every 128th event, so a shorter copy (an export taken mid-match) is checked
against the match too. Because each event's hash covers every event before it, a file whose
hash at ``last_seq`` is ``head`` holds exactly the recorded events up to there.

Reading a file, ``verdict`` compares it with its anchor:

- the journal at the anchored path, shorter than the anchor: "ends early: events after 1109
  are missing"; its first event or its hash at the anchor's count another: rewritten;
- any other file of the same match (an export, a copy): altered when its hash at the anchor's
  count, or at a mark within it, differs; else an earlier copy, or one that went further.

The anchor is written after the journal's own commit (a crash between the two leaves the
anchor one command behind, never ahead), over its own bytes (``record``); it is not fsynced,
so a power cut can leave it an append or two behind or torn: an anchor that cannot be read
counts as none (logged). A forger who can rewrite both the journal and
the data folder defeats it: it anchors against loss and edits of a file, it is no signature.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from .events import format_time
from .journal_chain import Checked
from .opener import open_text, resolved

log = logging.getLogger(__name__)

FOLDER = "anchors"
VERSION = 1
MARK_EVERY = 128
MAX_ANCHOR_BYTES = 1024 * 1024
PAGE = 4096   # an anchor file is padded to a multiple of this, and rewritten in place
_HASH = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Anchor:
    """Where the journal at ``file`` stood when the app last appended to it."""

    file: str
    first: str
    last_seq: int
    head: str
    marks: Mapping[int, str] = field(default_factory=dict)
    start: str = ""
    final: str = ""      # the digest of the journal's final record ('' when it has none)

    def hash_at(self, seq: int) -> str | None:
        return self.head if seq == self.last_seq else self.marks.get(seq)


@dataclass(frozen=True)
class Verdict:
    """What a file is beside the anchor of its match. ``kind``: "" (no anchor, or it agrees),
    "ends_early", "rewritten" (the anchored journal itself: refused), "altered" (another
    file of the match that differs from it), "earlier" (a shorter copy that agrees so far)."""

    kind: str = ""
    text: str = ""

    @property
    def refused(self) -> bool:
        return self.kind in ("ends_early", "rewritten")


def _file_name(journal_name: str) -> str:
    """The name of a journal's anchor in the anchors folder."""
    return f"{journal_name}.json"


class AnchorBook:
    """The anchors of one data folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._every: list[Anchor] | None = None  # of_match's reading of the folder, once per book

    @classmethod
    def of_data_dir(cls, data_dir: Path) -> "AnchorBook":
        return cls(Path(data_dir) / FOLDER)

    def path_for(self, journal: Path) -> Path:
        return self.folder / _file_name(Path(journal).name)

    def text_for(self, journal_name: str) -> str:
        """``path_for`` as text, from the journal's file name: a warm listing asks it of every
        journal, and a Path made and parsed for each was a sixth of that listing's CPU."""
        return os.path.join(os.fspath(self.folder), _file_name(journal_name))

    # --- writing (the app, as it appends) -------------------------------------------------
    def record(self, journal: Path, first: str, last_seq: int, head: str, marks: Mapping[int, str],
               start: str = "", final: str = "") -> None:
        """Anchor ``journal`` at ``last_seq``/``head``. Never raises: the match itself is safe in
        its journal, a missing anchor only means a cut cannot be told (logged).

        The file is rewritten in place, padded with spaces to a multiple of 4 kB, so an append
        allocates nothing on the disk: a new file renamed over the old at every append made each
        following fsync of the journal flush it too (ext4 does, for a rename over a file), about
        3 ms a command on this project's test machine. Only when the marks outgrow the padding is
        a new file renamed into place. A write torn by a power cut leaves text that does not
        parse: read as no anchor. ``final``: the digest of the journal's final record
        (companion/final_record.py), which a listing trusts only when it is named here."""
        target = self.path_for(journal)
        body = json.dumps({"version": VERSION, "file": str(resolved(journal)), "first": first, "start": start,
                           "last_seq": last_seq, "head": head, **({"final": final} if final else {}),
                           "marks": {str(k): v for k, v in sorted(marks.items())}}, separators=(",", ":")).encode()
        try:
            if self._overwrite(target, body):
                return
            self.folder.mkdir(parents=True, exist_ok=True)
            size = -(-(len(body) + 1) // PAGE) * PAGE
            tmp = target.with_name(f".{target.name}.{os.getpid()}.partial")
            try:
                with open(tmp, "wb") as fh:
                    fh.write(body.ljust(size))
                os.replace(tmp, target)
            finally:
                if tmp.exists():
                    tmp.unlink()
        except OSError as exc:
            log.warning("%s: the anchor of %s was not written (%s): a cut at its end could not be told",
                        target, journal, exc.strerror or exc)

    @staticmethod
    def _overwrite(target: Path, body: bytes) -> bool:
        """Write ``body`` over the file's own bytes when it fits; False when it does not (or
        there is no such regular file)."""
        try:
            fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return False
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size < len(body) or st.st_size > MAX_ANCHOR_BYTES:
                return False
            os.pwrite(fd, body.ljust(st.st_size), 0)
            return True
        finally:
            os.close(fd)

    # --- reading --------------------------------------------------------------------------
    def lookup(self, journal: Path) -> Anchor | None:
        """The anchor of the journal at this very path, if the app played it here."""
        anchor = self._read(self.path_for(journal))
        if anchor is None or anchor.file != str(resolved(journal)):
            return None
        return anchor

    def of_match(self, first: str, start: str = "") -> list[Anchor]:
        """Every anchor of the match whose first event has hash ``first``, or was created at
        ``start``. The folder is read once per book (a listing of a season's matches asks this
        of each copy): make a new book to see anchors written since."""
        if self._every is None:
            self._every = []
            try:
                names = sorted(p for p in self.folder.iterdir()
                               if p.name.endswith(".json") and not p.name.startswith("."))
            except OSError:
                names = []
            for p in names:
                anchor = self._read(p)
                if anchor is not None:
                    self._every.append(anchor)
        return [a for a in self._every if a.first == first or (start and a.start == start)]

    def _read(self, path: Path) -> Anchor | None:
        try:
            with open_text(path, "an anchor file", MAX_ANCHOR_BYTES) as fh:
                data = json.loads(fh.read())
        except FileNotFoundError:
            return None
        except Exception as exc:  # an anchor is a hint: one that cannot be read counts as none
            if "no such file" not in str(exc):
                log.warning("%s: anchor not read (%s)", path, exc)
            return None
        return _anchor(data, path)


def _anchor(data: object, path: Path) -> Anchor | None:
    try:
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError("not an anchor this Touchline writes")
        file, first, last_seq, head = data["file"], data["first"], data["last_seq"], data["head"]
        marks_raw, start, final = data.get("marks", {}), data.get("start", ""), data.get("final", "")
        if not (isinstance(file, str) and _is_hash(first) and _is_hash(head) and type(last_seq) is int
                and last_seq >= 1 and isinstance(marks_raw, dict) and isinstance(start, str)
                and (final == "" or _is_hash(final))):
            raise ValueError("fields of the wrong kind")
        marks = {int(k): v for k, v in marks_raw.items() if _is_hash(v)}
    except (KeyError, ValueError, TypeError) as exc:
        log.warning("%s: anchor not read (%s)", path, exc)
        return None
    return Anchor(file, first, last_seq, head, marks, start, final)


def _is_hash(value: object) -> bool:
    return isinstance(value, str) and _HASH.fullmatch(value) is not None


def marks_of(seqs_and_hashes) -> dict[int, str]:
    """The marks (every MARK_EVERY-th event's hash) among (seq, hash) pairs."""
    return {seq: digest for seq, digest in seqs_and_hashes if not seq % MARK_EVERY}


def verdict(book: AnchorBook | None, path: Path, first: str, last_seq: int,
            hash_at: Callable[[int], str | None], journal: bool, start: str = "") -> Verdict:
    """Compare a checked file (its first hash, last seq, its hash at any seq it holds, the
    time of its first event) with this tablet's anchors. ``journal``: the file is a journal
    (only a journal can be the anchored file itself)."""
    if book is None or not first:
        return Verdict()
    own = book.lookup(path) if journal else None
    if own is not None:
        if own.first != first:
            return Verdict("rewritten", f"not the match this tablet recorded in this file (its first event "
                                        f"differs): the file was replaced or rewritten; it was left untouched")
        if last_seq < own.last_seq:
            return Verdict("ends_early", f"ends early: events after {last_seq} are missing (this tablet recorded "
                                         f"{own.last_seq}); it was left untouched. Restore it from an export if "
                                         f"you have one")
        if hash_at(own.last_seq) != own.head:
            return Verdict("rewritten", f"the events up to {own.last_seq} are not the ones this tablet recorded "
                                        f"(the chain was rewritten); it was left untouched")
        return Verdict()
    for anchor in book.of_match(first, start):
        name = Path(anchor.file).name
        if anchor.first != first:
            return Verdict("altered", f"altered: its first event differs from that of the match this tablet "
                                      f"recorded in {name} (the teams, the options or the time were changed)")
        if last_seq >= anchor.last_seq:
            if hash_at(anchor.last_seq) != anchor.head:
                return Verdict("altered", f"altered: its events differ from the match this tablet recorded in "
                                          f"{name} (at or before event {anchor.last_seq})")
            continue
        at = max((seq for seq in anchor.marks if seq <= last_seq), default=0)
        if at and hash_at(at) != anchor.marks[at]:
            return Verdict("altered", f"altered: its events differ from the match this tablet recorded in {name} "
                                      f"(at or before event {at})")
        return Verdict("earlier", f"an earlier copy: this tablet recorded the match further, to event "
                                  f"{anchor.last_seq} in {name}")
    return Verdict()


def anchored(book: AnchorBook | None, path: Path, checked: Checked,
             omitted: Mapping[int, tuple[int, str]] | None = None, journal: bool = True) -> Verdict:
    """``verdict`` for checked rows (a journal's or an export's; ``omitted``: the runs an
    active-only file left out, whose last hashes it still names)."""
    if book is None or not checked.hashes or checked.events[0].seq != 1:
        return Verdict()
    table: dict[int, str] = {}

    def hash_at(seq: int) -> str | None:
        if not table:  # built once, and only when an anchor asks
            table.update(zip((e.seq for e in checked.events), checked.hashes))
            table.update((last, digest) for last, digest in (omitted or {}).values())
        return table.get(seq)
    last = max(checked.last_seq, max((last for last, _ in (omitted or {}).values()), default=0))
    return verdict(book, path, checked.hashes[0], last, hash_at, journal, format_time(checked.events[0].at))


__all__ = ["Anchor", "AnchorBook", "Verdict", "verdict", "anchored", "marks_of", "MARK_EVERY", "FOLDER"]
