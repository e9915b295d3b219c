"""Which rulebook section a pending request or a refusal rests on (for the page and the tablet)."""

from __future__ import annotations


def rule_link(game: str, key: str) -> dict[str, str] | None:
    try:
        from companion.reference import for_game
    except ImportError:
        return None
    try:
        ref = for_game(game)
    except (KeyError, ValueError):
        return None
    section = ref.for_request(key) or ref.for_rule(key)
    return {"section": section.id, "title": section.title} if section is not None else None
