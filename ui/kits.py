"""The two sides' kits for a match: the colours the table entered in its box (Settings ->
Enter your box -> Team colours), found by the teams' names, told apart when they clash
(ui/theme.py ``kits``). Plain Python: the screens and the tests both read it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from companion import box
from companion.errors import DataFileError
from companion.teams import Team

from .theme import Kit, kits
from .words import team_names

log = logging.getLogger(__name__)


def match_kits(game: str, folder: Path | None, summary: Any) -> dict[Team, Kit]:
    """Each side's kit; the tablet's own blue and red for a side whose team has no colours
    entered (or whose box cannot be read: the colours are display only, never worth a stop)."""
    names = team_names(summary)   # the game's summary JSON or the typed Summary
    try:
        painted = box.colours(game, folder)
        by_name: dict[str, tuple[str, ...]] = {}
        for key in box.team_keys(game, folder):
            colours = painted.of(key)
            if not colours:
                continue
            try:
                by_name[str(box.team(game, key, folder).name)] = colours
            except (DataFileError, OSError, ValueError, KeyError):
                continue
    except (DataFileError, OSError, ValueError, KeyError) as exc:
        log.info("team colours not read: %s", exc)
        by_name = {}
    return kits(by_name.get(str(names.get("home", "")), ()), by_name.get(str(names.get("away", "")), ()))
