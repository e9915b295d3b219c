"""How each game's match is drawn, in plain Python (see base.py): shared by the tablet's faces
(ui/games/) and the scoreboard web page (ui/web/), which imports nothing of Kivy."""

from __future__ import annotations

import importlib

from .base import Look

# game name -> "module:class", imported when a match of that game is drawn.
LOOKS: dict[str, str] = {
    "fublet": "ui.looks.fublet:FubletLook",
    "futboard": "ui.looks.futboard:FutboardLook",
    "football_leader": "ui.looks.football_leader:FootballLeaderLook",
    "fussball_liga": "ui.looks.fussball_liga:FussballLigaLook",
}


def look_for(game: str) -> Look:
    """A new look of ``game`` (its caches are its own: one per thread that draws)."""
    target = LOOKS.get(game)
    if target is None:
        raise KeyError(f"there is no drawing of game {game!r} (known: {', '.join(LOOKS)})")
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)()
