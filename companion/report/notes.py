"""What a coach says about a match, kept beside its journal: a title ("Cup final") and whether
it was a friendly (kept out of the league table, head to head and team records).

The notes of a matches folder are one small JSON file in it, ``.touchline-notes.json``, keyed
by the match file's name; the journals themselves are never written (why: docs/matches.md).
The listing (companion/report/history.py) skips names that start with a dot, so the file is
never taken for a match. A notes file that cannot be read counts as no notes (a title is a
convenience, the journal is the match); writing goes through a temporary file and a rename,
so a crash never leaves half a file (companion/outfiles.py, as every file Touchline writes).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

from ..errors import TouchlineError
from ..outfiles import write_text

log = logging.getLogger(__name__)

NOTES_FILE = ".touchline-notes.json"
NOTES_VERSION = 1
TITLE_LIMIT = 60     # characters: a title fits one line of the match list


class NotesError(TouchlineError):
    """A note that cannot be kept (a title too long, a folder that cannot be written)."""


@dataclass(frozen=True)
class Note:
    title: str = ""
    friendly: bool = False

    @property
    def empty(self) -> bool:
        return not self.title and not self.friendly


def notes_path(folder: Path) -> Path:
    return Path(folder) / NOTES_FILE


def load(folder: Path) -> dict[str, Note]:
    """File name -> note, for every match of ``folder`` a coach said something about."""
    try:
        data = json.loads(notes_path(folder).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("%s: notes not read (%s); matches are listed without titles", notes_path(folder), exc)
        return {}
    if not isinstance(data, dict) or data.get("version") != NOTES_VERSION or not isinstance(data.get("matches"), dict):
        return {}
    out = {}
    for name, raw in data["matches"].items():
        if isinstance(name, str) and isinstance(raw, dict):
            title = raw.get("title")
            out[name] = Note(title=title.strip()[:TITLE_LIMIT] if isinstance(title, str) else "",
                             friendly=raw.get("friendly") is True)
    return out


def _save(folder: Path, notes: dict[str, Note]) -> None:
    path = notes_path(folder)
    body = {"version": NOTES_VERSION,
            "matches": {name: {"title": n.title, "friendly": n.friendly} for name, n in sorted(notes.items())
                        if not n.empty}}
    try:   # through a new temporary file and a rename, never through a link (companion/outfiles.py)
        write_text(path, json.dumps(body, ensure_ascii=False, indent=1), force=True)
    except OSError as exc:
        raise NotesError(f"cannot write the match notes in {folder} ({exc.strerror or exc}); the matches "
                         f"themselves are untouched") from None


def clean_title(title: str) -> str:
    """A title as it is kept: one line, spaces trimmed; refused when too long."""
    text = " ".join(str(title).split())
    if len(text) > TITLE_LIMIT:
        raise NotesError(f"a match name has at most {TITLE_LIMIT} characters (this one has {len(text)})")
    return text


def set_title(folder: Path, name: str, title: str) -> Note:
    """Name the match in file ``name`` (an empty title: back to its teams); returns its note."""
    notes = load(folder)
    note = Note(clean_title(title), notes.get(name, Note()).friendly)
    notes[name] = note
    _save(folder, notes)
    return note


def set_friendly(folder: Path, name: str, friendly: bool) -> Note:
    notes = load(folder)
    note = Note(notes.get(name, Note()).title, bool(friendly))
    notes[name] = note
    _save(folder, notes)
    return note


def forget(folder: Path, names: set[str]) -> None:
    """Drop the notes of matches gone for good (emptied from the trash)."""
    notes = load(folder)
    if names & notes.keys():
        _save(folder, {k: v for k, v in notes.items() if k not in names})
