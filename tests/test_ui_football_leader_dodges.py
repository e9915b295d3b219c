"""Football Leader on the tablet: the ball carrier's dodges planned before he moves (4.1, 4.2),
without a window: the face's form driven with a fake screen, its panel's buttons pressed.

The situation is tests/test_football_leader_dodge_plans.py's: Home's #10 with the ball in C3
[2, 2] with #3 and two Away defenders; moving to E3 [4, 2] leaves C3 and D3 (Home's #9 and
Away's #10 there), both forward.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion.football_leader import commands as c  # noqa: E402
from companion.football_leader.model import DodgeCardCtx, DodgePlan  # noqa: E402
from companion.teams import Team  # noqa: E402
from football_leader_kit import A, C, H, choose, d12, new_match, place, to_kick_off  # noqa: E402
from test_football_leader_dodge_plans import B3, C3, D3, E3, carrier_match  # noqa: E402
from test_ui_football_leader import FakeScreen, FakeView  # noqa: E402
from ui.games.football_leader import DODGES, FootballLeaderFace  # noqa: E402


@pytest.fixture(scope="module")
def face() -> FootballLeaderFace:
    return FootballLeaderFace()


class Controller:
    def __init__(self) -> None:
        self.moves: list = []

    def tap_move(self, ref, x_mm, y_mm) -> None:
        self.moves.append((ref, x_mm, y_mm))


def screen() -> FakeScreen:
    sc = FakeScreen()
    sc.controller = Controller()
    return sc


def panel(face, sc, m) -> dict:
    """The mode's panel: each button by its text (the card buttons too)."""
    widgets: list = []
    assert face.mode_panel(sc, FakeView(m), widgets.append)
    out = {}

    def walk(w) -> None:
        if hasattr(w, "bind") and type(w).__name__ == "Button":
            out[w.text] = w
        for child in getattr(w, "children", []):
            walk(child)
    for w in widgets:
        walk(w)
    return out


def press(face, sc, m, start: str) -> None:
    """Press the button whose text is ``start`` (or the one that starts so)."""
    buttons = panel(face, sc, m)
    hits = [text for text in buttons if text.lstrip("> ") == start]
    hits = hits or [text for text in buttons if text.lstrip("> ").startswith(start)]
    assert len(hits) == 1, (start, sorted(buttons))
    buttons[hits[0]].dispatch("on_release")


def test_the_move_form_of_the_carrier_opens_the_dodge_form_and_sends_a_supported_plan(face):
    m = carrier_match("gold")
    view, sc = FakeView(m), screen()
    face._start(sc, "move", {"team": Team.HOME, "mover": H(10)})
    face._fill(sc, view.state, "move", "card", C("gold-3-9"))
    assert face.on_cell(sc, view, E3)
    assert not sc.sent and sc.mode == DODGES                  # two dodges on the way: planned first
    assert sc.form["plan"].path == (D3, E3) and sc.form["target"] == ("dodge", 0)
    assert face.marked(sc, view) == [C3, D3]
    buttons = panel(face, sc, m)
    assert "1. leaving C3 (#2, #4), forward, difficulty 18: card asked then" in {b.lstrip("> ") for b in buttons}
    assert "supported by #3 (free)" in buttons and "supported by #9 (a SILVER card)" in buttons
    # The first dodge's card from the hand buttons, #3 touched to support it: halved to 9.
    press(face, sc, m, "GOLD 4-11")
    assert face.on_figure(sc, view, H(3))
    assert sc.form["dodges"][0] == {"card": C("gold-4-11"), "supporter": H(3)}
    assert any("difficulty 9: GOLD 4-11" in t for t in panel(face, sc, m))
    # The second dodge's card, then Move.
    assert sc.form["target"] == ("dodge", 1)
    press(face, sc, m, "GOLD 4-12")
    press(face, sc, m, "Move")
    sent = sc.sent[-1]
    assert sent == c.Move(H(10), E3, C("gold-3-9"), path=(D3, E3),
                          dodges=(DodgePlan(C("gold-4-11"), H(3)), DodgePlan(C("gold-4-12"))))
    # The rules take it and resolve it as the rulebook says.
    m.submit(sent)
    assert m.state.queue[0].tests[0].difficulty == 9
    d12(m, Team.HOME, 12)
    assert m.state.queue[0].tests[0].difficulty == 11               # #10's defence 5 + 6, unsupported
    d12(m, Team.HOME, 12)
    assert m.state.players[H(10)].space == E3 and m.state.ball == H(10)


def test_a_paid_support_asks_its_card_and_only_one_dodge_is_supported(face):
    m = carrier_match("silver")
    view, sc = FakeView(m), screen()
    face._start(sc, "move", {"team": Team.HOME, "mover": H(10)})
    face._fill(sc, view.state, "move", "card", C("gold-3-9"))
    face.on_cell(sc, view, E3)
    press(face, sc, m, "GOLD 4-11")
    press(face, sc, m, "supported by #3 (a SILVER card)")
    assert sc.form["target"] == ("support", 0)
    assert "Move" not in panel(face, sc, m)                   # the support's card is missing
    press(face, sc, m, "SILVER 3-9")
    # #9 supports the second dodge instead: #3's support (and its card) goes.
    press(face, sc, m, "supported by #9")
    assert sc.form["dodges"][0] == {"card": C("gold-4-11")} and sc.form["dodges"][1] == {"supporter": H(9)}
    assert "Move" not in panel(face, sc, m)                   # a supported dodge needs its card
    face.on_figure(sc, view, H(3))                            # back to #3, by touch
    assert sc.form["dodges"][0]["supporter"] == H(3) and "supporter" not in sc.form["dodges"][1]
    press(face, sc, m, "support card")
    press(face, sc, m, "SILVER 3-9")
    press(face, sc, m, "Move")
    sent = sc.sent[-1]
    assert sent.dodges == (DodgePlan(C("gold-4-11"), H(3), C("silver-3-9")),)   # the second: asked then
    hand = m.state.cards[Team.HOME].hand
    m.submit(sent)
    assert m.state.queue[0].tests[0].difficulty == 9 and m.state.cards[Team.HOME].hand == hand - 3
    d12(m, Team.HOME, 12)
    assert isinstance(m.state.queue[0].ctx, DodgeCardCtx) and m.state.queue[0].ctx.leaving == D3


def d3_without_a_teammate():
    """carrier_match with Home's #9 stepped out of D3: a touch there is then a move, not a pass
    to #9 (a space holding a teammate is lit as a pass; ui/games/football_leader/aims.py)."""
    m = carrier_match("gold")
    place(m, H(9), (1, 0))
    return m


def test_a_touch_on_a_space_plans_the_carriers_dodges_the_card_first(face):
    m = d3_without_a_teammate()
    view, sc = FakeView(m), screen()
    sc.selected = H(10)
    assert face.on_cell(sc, view, D3)
    assert sc.mode == DODGES and sc.form["card"] is None and sc.form["target"] == ("card", 0)
    assert "Move" not in panel(face, sc, m)                   # no movement card yet
    press(face, sc, m, "GOLD 3-9")
    assert sc.form["card"] == C("gold-3-9") and sc.form["target"] == ("dodge", 0)
    press(face, sc, m, "GOLD 4-11")
    press(face, sc, m, "supported by #3")
    press(face, sc, m, "Move")
    assert sc.sent[-1] == c.Move(H(10), D3, C("gold-3-9"), path=(D3,), dodges=(DodgePlan(C("gold-4-11"), H(3)),))
    m.submit(sc.sent[-1])
    assert "difficulty 9" in m.pending()[0].text


def test_skipping_the_plan_keeps_the_one_at_a_time_questions(face):
    m = d3_without_a_teammate()
    view, sc = FakeView(m), screen()
    sc.selected = H(10)
    face.on_cell(sc, view, D3)
    press(face, sc, m, "Move, the dodges' cards asked as they come")
    assert sc.sent[-1] == c.Move(H(10), D3, None, path=(D3,))
    m.submit(sc.sent[-1])
    choose(m, "gold-3-9")                                     # the movement's card, asked
    head = m.state.queue[0]
    assert isinstance(head.ctx, DodgeCardCtx) and head.ctx.leaving == C3
    choose(m, "gold-4-11")
    assert m.state.queue[0].tests[0].difficulty == 18
    # From the Move form with its card: the same, with the card already named.
    m2 = carrier_match("gold")
    sc2 = screen()
    face._start(sc2, "move", {"team": Team.HOME, "mover": H(10)})
    face._fill(sc2, m2.state, "move", "card", C("gold-3-9"))
    face.on_cell(sc2, FakeView(m2), D3)
    press(face, sc2, m2, "Move, the dodges")
    assert sc2.sent[-1] == c.Move(H(10), D3, C("gold-3-9"), path=(D3,))


def test_no_dodge_needed_moves_as_before(face):
    m = carrier_match("gold")
    view, sc = FakeView(m), screen()
    face._start(sc, "move", {"team": Team.HOME, "mover": H(10)})
    face._fill(sc, view.state, "move", "card", C("gold-3-9"))
    face.on_cell(sc, view, B3)                                 # backward: free
    assert sc.sent[-1] == c.Move(H(10), B3, C("gold-3-9")) and sc.mode == ""
    # A counter without the ball, by touch: the screen's own tap_move (the face lets it be).
    sc.selected = H(3)
    assert not face.on_cell(sc, view, D3)
    # After the kick-off, #9 with the ball steps back out of D3, by touch: nothing to plan.
    m2 = new_match()
    to_kick_off(m2)
    sc2 = screen()
    sc2.selected = m2.state.ball
    assert sc2.selected == H(9) and not face.on_cell(sc2, FakeView(m2), (2, 1))   # a lit move, no teammate there
    assert face.on_cell(sc2, FakeView(m2), (4, 2)) and sc2.mode == DODGES       # forward: a dodge


def test_the_carrier_touched_onto_a_figures_space_plans_too(face):
    """A space holding figures has no empty spot: touching an opponent there moves the selected
    counter to it (the file's existing touch), here through the dodge form."""
    m = d3_without_a_teammate()
    view, sc = FakeView(m), screen()
    sc.selected = H(10)
    assert face.on_figure(sc, view, A(10))                    # Away's #10 stands in D3
    assert sc.mode == DODGES and sc.form["space"] == D3 and not sc.controller.moves
