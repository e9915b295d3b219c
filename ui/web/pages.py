"""The scoreboard's HTML: the page itself (page.html), one-line message pages (a wrong code, a
page that does not exist) and the rules reference of the game shown. Every name and text is
escaped; the pages carry no script but page.html's own."""

from __future__ import annotations

from html import escape
from importlib import resources


def page_html() -> bytes:
    return resources.files(__package__).joinpath("page.html").read_bytes()


TABLET_FOOTER = b"<footer>Read-only scoreboard from the coach's tablet."
CLUB_FOOTER = (b"<footer><a href='../../' style='color:#9cc9ff;font-size:18px'>&larr; Every table</a><br>"
               b"Read-only scoreboard from the club's copy of this table's match.")


def club_page_html() -> bytes:
    """The same page as the tablet's, as the club server serves it for one table: its footer
    says where it comes from and links back to the page of every table."""
    page = page_html()
    if TABLET_FOOTER not in page:
        raise RuntimeError("page.html's footer changed: club_page_html no longer finds it")
    return page.replace(TABLET_FOOTER, CLUB_FOOTER, 1)


def message_page(title: str, text: str) -> bytes:
    return (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>{escape(title)}</title><body style='font:20px system-ui,sans-serif;background:#111;color:#eee;"
            f"padding:2em'><h1>{escape(title)}</h1><p>{escape(text)}</p></body></html>").encode("utf-8")


def rules_page(game: str) -> bytes:
    """The game's rules reference as one page: every section's summary, anchored by its id."""
    from companion.errors import DataFileError
    from companion.reference import for_game

    try:
        ref = for_game(game)
    except (KeyError, DataFileError):
        return message_page("No rules reference", "There is no rules reference for this match's game.")
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
             f"<meta name=referrer content=no-referrer><title>{escape(ref.rulebook)}</title>"
             f"<style>body{{font:18px/1.4 system-ui,sans-serif;background:#111;color:#eee;margin:0;padding:1em 1.4em}}"
             f"h2{{color:#ffd84a;margin:1.2em 0 .2em}}:target{{background:#2b2411}}a{{color:#9cc9ff}}"
             f"small{{color:#9aa3ad}}</style><p><a href='./'>&larr; back to the scoreboard</a></p>"
             f"<h1>{escape(ref.rulebook)}</h1><p><small>Summaries written for Touchline; the printed rulebook is "
             f"the authority.</small></p>"]
    for section in ref.sections:
        readings = f"<p><small>Touchline's readings: {escape(', '.join(section.readings))} " \
                   f"(the tablet's Rules screen tells each one)</small></p>" if section.readings else ""
        parts.append(f"<section id='{escape(section.id)}'><h2>{escape(section.title)}</h2>"
                     f"<p>{escape(section.summary)}</p>{readings}</section>")
    return "".join(parts).encode("utf-8")
