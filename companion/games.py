"""Which rulesets exist. The core knows games only by name through this table."""

from __future__ import annotations

from .ruleset import Ruleset


def rulesets() -> dict[str, Ruleset]:
    from .fublet.rules import FubletRules

    return {"fublet": FubletRules()}


def ruleset_for(game: str) -> Ruleset:
    table = rulesets()
    try:
        return table[game]
    except KeyError:
        known = ", ".join(sorted(table))
        raise KeyError(f"no ruleset for game {game!r} (this Touchline knows: {known})") from None
