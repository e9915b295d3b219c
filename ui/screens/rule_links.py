"""Links from the live screen to the rules reference: the rulebook section the pending request
and the last refusal rest on, as buttons under the request panel."""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.button import Button

from companion.errors import DataFileError

LINK_COLOUR = (0.22, 0.3, 0.42, 1)


def _reference(game: str):
    from companion.reference import for_game

    try:
        return for_game(game)
    except (KeyError, DataFileError):
        return None


def links_for(game: str, view) -> list[tuple[str, str]]:
    """(button text, section id) for the refusal shown and the first pending request."""
    ref = _reference(game)
    if ref is None:
        return []
    out = []
    if view.error:
        section = ref.for_rule(view.error)
        if section is not None:
            out.append((f"Why refused? Rulebook: {section.title}", section.id))
    if view.pending:
        head = view.pending[0]
        section = ref.for_request(head.id, head.text)
        if section is not None and all(sid != section.id for _, sid in out):
            out.append((f"Rulebook: {section.title}", section.id))
    return out


def fill_rule_links(screen, view) -> None:
    """The link buttons under the request panel (``screen.ids.links``), one touch target each:
    outside the panel's scrolling, so a link is never half cut at its bottom and the request's
    controls stay where the coach expects them (touching a link opens the reference there)."""
    box = screen.ids.links
    box.clear_widgets()
    if view is None or not view.active:
        return
    game = view.game
    for text, section_id in links_for(game, view):
        b = Button(text=text + "  >", size_hint_y=None, font_size=sp(18), halign="left", valign="middle",
                   background_color=LINK_COLOUR)
        # A long title wraps onto a second line rather than being cut.
        b.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(16), None)),
               texture_size=lambda w, ts: setattr(w, "height", max(dp(48), ts[1] + dp(8))))
        b.bind(on_release=lambda _b, sid=section_id, g=game: open_reference(g, sid))
        box.add_widget(b)


def open_reference(game: str, section_id: str | None = None) -> None:
    app = App.get_running_app()
    screen = app.root.get_screen("reference")
    screen.open_for(game, section_id, back_to=app.root.current)
    app.show("reference")


def open_rules(view) -> None:
    """The rules reference for the game in ``view``, at the section the panel links to."""
    if view is None or not view.active:
        return
    links = links_for(view.game, view)
    open_reference(view.game, links[0][1] if links else None)
