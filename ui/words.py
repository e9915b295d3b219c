"""What the tablet calls things: names for the ids and raw values the rules and the
settings use, so a coach reads "Touchline Rovers" and "Software dice", never "rovers" or
"software". Plain Python (no Kivy): the screens and the tests both read it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.view import Summary, summary_of

# Setup's dice sources and cameras: the stored value -> what the coach reads.
DICE = {"software": "Software dice", "manual": "Keypad (real dice)", "tray": "Dice tray"}
CAMERA = {"none": "No camera", "device": "USB camera", "demo": "Demo table"}
TEAM_SIDE = {"home": "Home", "away": "Away"}


def named(table: dict[str, str], value: str) -> str:
    return table.get(value, value.replace("_", " ").capitalize())


def value_of(table: dict[str, str], name: str) -> str:
    """The stored value behind a shown name (the name itself when it is already a value)."""
    for key, shown in table.items():
        if shown == name:
            return key
    return name


def phase_name(phase: str) -> str:
    """A phase id as a coach reads it: "tactical_movement" -> "Tactical movement"."""
    text = str(phase).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def option_name(option: str) -> str:
    """A request's option id as a button says it."""
    text = str(option).replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text.islower() else text


def minute_of(summary: Summary | Mapping[str, Any]) -> str:
    """The match minute a game counts (Fublet's, by its rounds), as "12'"; "" for the others."""
    summary = summary_of(summary) if isinstance(summary, Mapping) else summary
    minute = summary.clock.minute
    return f"{minute}'" if minute is not None else ""


def match_line(summary: Summary | Mapping[str, Any], clock: str = "") -> str:
    """One line naming a match: "Touchline Rovers 0-0 Harbour Athletic, 12'" (from the typed
    summary, or a game's JSON summary)."""
    summary = summary_of(summary) if isinstance(summary, Mapping) else summary
    (home, away), (h, a) = summary.teams, summary.score
    line = f"{home} {h}-{a} {away}"
    if summary.over:
        return f"{line}, full time"
    when = minute_of(summary) or clock.strip()
    return f"{line}, {when}" if when else line


def journal_line(path: Path) -> str:
    """The match in a journal file as one line (read through a private copy: reading never
    changes it); the file's name when it cannot be read."""
    try:
        from companion.cli import load_match
        match = load_match(Path(path))
        summary = match.summary()
    except Exception:  # a damaged journal still gets a button; resuming it says what is wrong
        return Path(path).stem
    clock = ""
    try:
        from .games import face_for
        clock = face_for(match.ruleset.game).scoreboard(summary_of(summary)).clock
    except Exception:
        pass
    return match_line(summary, clock)
