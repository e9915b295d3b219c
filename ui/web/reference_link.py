"""Which rulebook section a pending request or a refusal rests on (the page's "Rulebook:" line)."""

from __future__ import annotations


def rule_link(game: str, request_id: str, text: str = "") -> dict[str, str] | None:
    """{"section": id, "title": rulebook title} for a pending request, or for a refusal when
    ``request_id`` is empty and ``text`` is the refusal; None when no section is known."""
    from companion.errors import DataFileError
    from companion.reference import for_game

    try:
        ref = for_game(game)
    except (KeyError, DataFileError):
        return None
    section = ref.for_request(request_id, text) if request_id else ref.for_rule(text)
    return {"section": section.id, "title": section.title} if section is not None else None
