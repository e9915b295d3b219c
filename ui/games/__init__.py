"""Each game's face on the tablet (see base.py): the live screen asks ``face_for(game)``."""

from __future__ import annotations

import importlib

from .base import Face

# game name -> "module:class", imported when a match of that game is shown.
FACES: dict[str, str] = {
    "fublet": "ui.games.fublet:FubletFace",
    "futboard": "ui.games.futboard:FutboardFace",
    "football_leader": "ui.games.football_leader:FootballLeaderFace",
    "fussball_liga": "ui.games.fussball_liga:FussballLigaFace",
}

_cache: dict[str, Face] = {}


def face_for(game: str) -> Face:
    face = _cache.get(game)
    if face is None:
        target = FACES.get(game)
        if target is None:
            raise KeyError(f"the tablet has no face for game {game!r} (it knows: {', '.join(FACES)})")
        module, _, cls = target.partition(":")
        face = _cache[game] = getattr(importlib.import_module(module), cls)()
    return face


def ready() -> list[str]:
    """The games the tablet can show now (a face module exists)."""
    out = []
    for game, target in FACES.items():
        try:
            importlib.import_module(target.partition(":")[0])
        except ModuleNotFoundError:
            continue
        out.append(game)
    return out
