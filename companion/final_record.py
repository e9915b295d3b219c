"""A finished match's final record: what its result is, kept in its journal for listings.

A listing of a season (``touchline history``, ``league``, the app's Matches screen) wants
each match's teams, score and result. Replaying every event through the rules to learn them
costs about twice a bare read of the journal; a cache beside the matches saves that on the
next listing, not the first (a folder copied in, the first look after an update).

So at the final whistle the journal keeps the result too: in its header table, under
``final``, the summary's few fields a listing shows (``FIELDS``), with the hash of the
journal's last row and the number of its active events, written in the same transaction as
the events that finished the match. A write that leaves the match unfinished (an undo of
the whistle, a later event) removes it in its own transaction; a redo writes it again. The
app's anchor of the journal (companion/anchors.py, kept outside it) holds the record's
digest: a listing trusts the record only where this tablet's anchor names it and the
journal's chain ends where the record says, and replays the match otherwise (a journal from
another tablet, one written before this record existed, a record edited by hand). The
record is a convenience for listings, never the truth: opening the match replays every event.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Mapping

from .journal_chain import dump_json, load_json

KEY = "final"                                         # its key in the journal's header table
FIELDS = ("teams", "score", "result", "shootout")     # what a listing reads of a summary
MAX_TEXT = 16 * 1024                                  # a record is a few hundred bytes
_HASH = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class FinalRecord:
    """The result of a finished match (``summary``: its summary's ``FIELDS``) as of the
    journal's last row ``head`` with ``active`` active events."""

    head: str
    active: int
    summary: Mapping[str, Any]

    def text(self) -> str:
        """The record as stored: compact JSON, the same text for the same record."""
        return dump_json({"head": self.head, "active": self.active, "summary": dict(self.summary)})

    def digest(self) -> str:
        """What the anchor keeps of it."""
        return digest_of(self.text())

    def __repr__(self) -> str:
        return f"FinalRecord(head={self.head[:12]!r}..., active={self.active}, summary={dict(self.summary)!r})"


def fields_of(summary: Mapping[str, Any]) -> dict[str, Any] | None:
    """The summary's fields a final record keeps, or None while the match has no result."""
    if not isinstance(summary.get("result"), dict):
        return None
    return {k: summary[k] for k in FIELDS if k in summary}


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def read_record(text: object) -> FinalRecord | None:
    """The record stored as ``text``, or None for anything that is not one (too long, not
    JSON, fields of the wrong kind): the listing then replays the match."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return None
    try:
        data = load_json(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    head, active, summary = data.get("head"), data.get("active"), data.get("summary")
    if not (isinstance(head, str) and _HASH.fullmatch(head) and type(active) is int and active >= 1
            and isinstance(summary, dict) and fields_of(summary) == summary):
        return None
    return FinalRecord(head, active, summary)


__all__ = ["KEY", "FIELDS", "FinalRecord", "fields_of", "digest_of", "read_record"]
