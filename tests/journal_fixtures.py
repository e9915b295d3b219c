"""Journals made from the scripted matches in tests/data, as the tablet writes them.

The scripted matches are JSON Lines written without a header or hashes (``export_lines``), so
``touchline import`` (and ``import_to_journal``) refuses them unless told ``--accept-altered``,
and then marks the journal altered for good: right for a file from outside, wrong for a test
that wants a match played on this tablet. ``journal_of`` writes the events into a new journal
with their chain computed as the app computes it when it appends, and no mark.
"""

from __future__ import annotations

from pathlib import Path

from companion.journal import Journal
from companion.jsonl import read_file


def journal_of(export: Path, target: Path) -> Path:
    """A journal at ``target`` holding the events of the JSON Lines file ``export``."""
    imported = read_file(export)
    Journal.create_with(target, imported.game, imported.raw).close()
    return target
