"""Matches for tests of the matches folder: a finished match imported from the scripted full
matches (tests/data/*_full_match.jsonl), renamed and redated, the way a coach copies or imports
another tablet's matches; and matches started on this tablet through the controller."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def imported(folder: Path, name: str, game: str = "fussball_liga", home: str = "SV Rotstein",
             away: str = "FC Gruenwald", day: int = 1, cut: int | None = None, newest: bool = True) -> Path:
    """A journal imported into ``folder`` from a scripted match (finished unless ``cut`` after so
    many events), with these team names and this day of January 2027. ``newest``: its file's
    time is set an hour ahead, so a folder sorted by time would put it first."""
    from journal_fixtures import journal_of

    lines = (DATA / f"{game}_full_match.jsonl").read_text(encoding="utf-8").splitlines()
    if cut is not None:
        lines = lines[:cut]
    rows = []
    for line in lines:
        row = json.loads(line)
        row["at"] = f"2027-01-{day:02d}" + row["at"][10:]
        if row["type"].endswith(".match_created"):
            row["data"]["home"]["name"], row["data"]["away"]["name"] = home, away
        rows.append(json.dumps(row))
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "export.jsonl"
        source.write_text("\n".join(rows) + "\n", encoding="utf-8")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / name
        journal_of(source, target)   # as a tablet writes it (an import of a chainless file is marked altered)
    if newest:
        ahead = time.time() + 3600
        for part in folder.glob(f"{name}*"):
            os.utime(part, (ahead, ahead))
    return target
