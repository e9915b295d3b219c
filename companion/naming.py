"""Figures by name in texts the rules write with ids: "foul by away#9" -> "foul by Harbour
Athletic #9 Zed" (a team named once a line, "#9 Zed" after that; a figure with no card name:
"Away #9"). What the reports and other read-only folds say; the tablet's own words live in
ui/words.py (``Names``), which says them the same way."""

from __future__ import annotations

import re
from collections.abc import Mapping

PLAYER_ID = re.compile(r"\b(home|away)#(\d{1,2})\b")
SIDES = {"home": "Home", "away": "Away"}


def named_line(text: str, teams: Mapping[str, str] | None, players: Mapping[str, str] | None) -> str:
    """``text`` with each "home#7" said as its team, number and name. ``teams``: "home" ->
    "Touchline Rovers"; ``players``: "home#7" -> "Kit"."""
    if not text or "#" not in text:
        return text
    teams, players = teams or {}, players or {}
    said: set[str] = set()

    def one(m: re.Match) -> str:
        side, number = m.group(1), m.group(2)
        team = "" if side in said else (teams.get(side) or SIDES[side])
        said.add(side)
        return " ".join(part for part in (team, f"#{number}", players.get(m.group(0), "")) if part)
    return PLAYER_ID.sub(one, text)
