"""The rules reference as a coach uses it (run by tests/test_ui_reference.py through
tests/ui_scenario.py ... game:reference): the pending request's rulebook link, a refused move
and its "why" link, the Rules button, the search box."""

from __future__ import annotations

from companion.teams import PlayerRef, Team

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731


def play(sc):
    yield from sc.start_match()
    # The opening roll is pending: its rulebook section is one touch away.
    sc.button("Rulebook: Game Setup", startswith=True)
    sc.screenshot("reference_live_link")
    sc.press("Rulebook: Game Setup", startswith=True)
    yield "settle"
    screen = sc.screen()
    assert screen.name == "reference", screen.name
    assert screen.section_title == "Game Setup", screen.section_title
    assert "F4." in screen.readings_text, screen.readings_text
    sc.screenshot("reference_setup")
    # Search: two words narrow the list; the first hit opens.
    screen.ids.search.text = "offside trap"
    yield "settle"
    titles = [b.text for b in screen.ids.sections.children[::-1]]
    assert titles and titles[0] == "Offside", titles
    sc.press("Offside")
    yield "settle"
    assert screen.section_title == "Offside"
    sc.screenshot("reference_search")
    sc.press("Back")
    yield "settle"
    assert sc.screen().name == "live"
    # Rolls to the kick-off with a home figure in the other half: the kick-off is refused.
    sc.keypad("7")
    yield "settle"
    sc.keypad("3")
    yield "settle"
    sc.press("High defence line, short passing, offensive")
    yield "settle"
    sc.press("Low defence line, long passing, offensive")
    yield "settle"
    for ref, ms in ((A(8), (29, 12)), (H(5), (30, 8))):   # Home #5 put in the other half
        sc.card(ref)
        yield "settle"
        sc.tap_square(ms)
        yield "settle"
    sc.card(A(8))
    yield "settle"
    # The panel offers only kick-offs the rules take (a button per lit receiver) and only the
    # substitutions they take, so the refused call comes as a coach's wrong one would reach
    # the rules: a substitution bringing on a player who is already on the pitch.
    from companion.fublet import commands as fc
    sc.screen().submit(fc.CallSubstitution(Team.HOME, H(5), H(2)))
    yield "settle"
    error = sc.app.controller.view.error
    assert error.startswith("Fublet rulebook, "), error
    link = sc.button("Why refused", startswith=True)
    sc.log.append(f"refusal: {error} -> {link.text}")
    sc.screenshot("reference_refusal_link")
    sc.press("Why refused", startswith=True)
    yield "settle"
    assert sc.screen().name == "reference"
    assert error.split(", ", 1)[1].startswith(sc.screen().section_title), (error, sc.screen().section_title)
    sc.screenshot("reference_refusal_section")
    sc.press("Back")
    yield "settle"
    sc.press("More")
    yield "settle"
    sc.press("Rules")
    yield "settle"
    assert sc.screen().name == "reference"
    sc.press("Back")
    yield "settle"
