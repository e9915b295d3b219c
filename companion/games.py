"""Which rulesets exist. The core knows games only by name through this table; a game's
module is imported only when a match of that game is created or read."""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the table sits below everything it names: events load games through it
    from .ruleset import Ruleset

# game name -> "module:class". The name prefixes the game's event types ("fublet.goal_scored").
GAMES: dict[str, str] = {
    "fublet": "companion.fublet.rules:FubletRules",
    "football_leader": "companion.football_leader.rules:FootballLeaderRules",
    "futboard": "companion.futboard.rules:FutboardRules",
    "fussball_liga": "companion.fussball_liga.rules:FussballLigaRules",
}


def available() -> list[str]:
    """The games whose rules this Touchline has."""
    out = []
    for name, target in GAMES.items():
        module = target.partition(":")[0]
        if importlib.util.find_spec(module.rpartition(".")[0]) is not None:
            out.append(name)
    return out


def ruleset_for(game: str) -> Ruleset:
    target = GAMES.get(game)
    if target is None:
        raise KeyError(f"no ruleset for game {game!r} (this Touchline knows: {', '.join(available())})")
    module, _, cls = target.partition(":")
    try:
        return getattr(importlib.import_module(module), cls)()
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise KeyError(f"no ruleset for game {game!r} in this Touchline (it knows: "
                           f"{', '.join(available())})") from None
        raise


def rulesets() -> dict[str, Ruleset]:
    return {name: ruleset_for(name) for name in available()}
