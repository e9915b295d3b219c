"""Which match to resume: the matches this tablet played, and the unfinished ones among them.

The controller writes down each journal it opens for writing (a new match, a resumed one) in
``<data dir>/played-here.json``, the most recent last. Resume offers only those, unfinished,
the last one played first: a finished match, or a journal copied or imported into the matches
folder (which this tablet never played on), is never offered, whatever its file's time says.
A data folder from before this record existed has none, so nothing is offered there until a
match is started or resumed (through Matches and league, whose report of an unfinished match
has Resume): a journal's file says nothing of which tablet wrote it.

Reading is cheap: the record is a short list, and each match's teams, score and status come
from the history's cache (companion/report/history.py), which replays only a journal that
changed since it was last read. Plain Python: the controller and Home both use it.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path

from companion.events import format_time
from companion.outfiles import write_text
from companion.report import history as h

log = logging.getLogger(__name__)

RECORD_FILE = "played-here.json"
RECORD_VERSION = 1
KEEP = 100          # journals remembered: far more than a tablet has unfinished at once


def record_path(data_dir: Path) -> Path:
    return Path(data_dir) / RECORD_FILE


def cache_path(data_dir: Path) -> Path:
    """The history's cache of the matches folder (the history screen uses the same)."""
    return Path(data_dir) / "reports" / "history-cache.json"


def _load(data_dir: Path) -> list[dict] | None:
    """The record's entries, oldest first; None when this data folder has no record at all."""
    try:
        data = json.loads(record_path(data_dir).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("%s not read (%s): it is written anew when a match is played", record_path(data_dir), exc)
        return None
    if not isinstance(data, dict) or data.get("version") != RECORD_VERSION or not isinstance(data.get("played"), list):
        return None
    return [p for p in data["played"] if isinstance(p, dict) and isinstance(p.get("file"), str)]


def note_played(data_dir: Path, journal: Path, now: datetime | None = None) -> None:
    """This tablet opened ``journal`` to play it (it goes to the front). A record that cannot
    be written is logged, never raised: the match itself is safe in its journal."""
    journal = Path(journal)
    played = [p for p in (_load(data_dir) or []) if p.get("file") != journal.name]
    played.append({"file": journal.name, "opened": format_time(now or datetime.now(UTC))})
    path = record_path(data_dir)
    try:   # a new temporary file renamed in: never half a record, never through a link
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps({"version": RECORD_VERSION, "played": played[-KEEP:]}, indent=1), force=True)
    except OSError as exc:
        log.warning("%s not written (%s): after a restart, resume may not know this match", path, exc)


def played_files(data_dir: Path, folder: Path) -> list[Path]:
    """The journals this tablet played that are still in ``folder``, the last played first."""
    played = _load(data_dir) or []
    return [folder / p["file"] for p in reversed(played) if (folder / p["file"]).is_file()]


def unfinished(data_dir: Path, folder: Path) -> list[h.Entry]:
    """The unfinished matches this tablet played, the last played first; one that can no longer
    be read (cut short, damaged) stays among them, so Home never silently forgets the match
    the coach was playing: resuming it says what is wrong."""
    files = played_files(data_dir, folder)
    if not files:
        return []
    return [e for e in h.read_files(files, cache_path(data_dir)) if not e.finished]


def when(stamp: str, now: datetime | None = None) -> str:
    """A journal time as a coach says it: "today 14:32", "yesterday 09:05", "3 May 18:00"
    (local time)."""
    from companion.errors import TouchlineError
    from companion.events import parse_time

    try:
        at = parse_time(stamp).astimezone()
    except (TouchlineError, TypeError, ValueError):
        return ""
    today = (now or datetime.now(UTC)).astimezone().date()
    clock = at.strftime("%H:%M")
    days = (today - at.date()).days
    if days == 0:
        return f"today {clock}"
    if days == 1:
        return f"yesterday {clock}"
    return f"{at.day} {at.strftime('%b')} {clock}" if at.year == today.year else \
        f"{at.day} {at.strftime('%b')} {at.year}"


def resume_line(entry: h.Entry, now: datetime | None = None) -> str:
    """One unfinished match as Home offers it: teams and score, where it stands, when it was
    last played: "SV Rotstein 1-0 FC Gruenwald, 1st half, turn 5 · today 14:32"."""
    if not entry.ok:
        return f"the match you were playing (it cannot be read: {entry.problem})"
    line = f"{entry.home} {entry.score} {entry.away}"
    if entry.title:
        line = f"{entry.title}: {line}"
    if entry.stage:
        line += f", {entry.stage}"
    said = when(entry.last or entry.date, now)
    return f"{line} · {said}" if said else line
