"""Fublet's face offers issue 34's rulings where the coach decides: the volley against a
defender from the choice's own button (its shot's tokens, then a touch on the goal line),
and the penalty kicker's two squares outlined with a button that puts him there. Kivy
widgets without a window (tests/test_ui_football_leader.py's FakeScreen)."""

from __future__ import annotations

from types import SimpleNamespace

from test_fublet_rulings import _cross_into_a_crowded_ps, _penalty
from test_ui_football_leader import FakeScreen, FakeView

from companion.fublet import commands as c
from companion.fublet.model import ShotPlan
from companion.teams import Team
from fublet_kit import A, pct
from ui.games.fublet import FubletFace


def buttons(widgets) -> dict:
    out = {}

    def walk(w) -> None:
        if type(w).__name__ == "Button":
            out[w.text] = w
        for child in getattr(w, "children", []):
            walk(child)
    for w in widgets:
        walk(w)
    return out


def test_the_volley_button_opens_the_shot_and_a_touch_on_the_goal_line_sends_it():
    m = _cross_into_a_crowded_ps()
    face, sc, view = FubletFace(), FakeScreen(), FakeView(m)
    chosen = []
    sc.controller = SimpleNamespace(choose=lambda rid, option: chosen.append((rid, option)))
    sc.board = m.state.components.board
    request = view.pending[0]
    assert face.choice_button(sc, view, request, "ball_control") is None   # the screen's own button
    dispute = buttons([face.choice_button(sc, view, request, "dispute")])
    assert list(dispute) == ["Aerial dispute"]
    dispute["Aerial dispute"].dispatch("on_release")
    assert chosen == [(request.id, "dispute")]
    volley = buttons([face.choice_button(sc, view, request, "volley")])
    assert list(volley) == ["Volley by #9..."]
    volley["Volley by #9..."].dispatch("on_release")
    assert sc.mode == "volley" and sc.picked == [A(9)]
    panel: list = []
    assert face.mode_panel(sc, view, panel.append)
    controls = buttons(panel)
    assert "Volley at the near goal-line PS" in controls and "-5 +" in controls
    face.on_cell(sc, view, (0, 17))          # an MS of goal-line PS (0, 8)
    sent = sc.sent[-1]
    assert isinstance(sent, c.Volley) and sent.player == A(9) and sent.target_ps == (0, 8)
    assert isinstance(sent.shot, ShotPlan)
    m.submit(sent)
    assert any("Volley by #9" in r.text for r in m.pending())
    assert any("Aerial Tackle" in r.text for r in m.pending())
    pct(m, Team.AWAY, 20)
    pct(m, Team.HOME, 10)
    assert "Save" in m.pending()[0].text


def test_the_penalty_spots_two_squares_are_outlined_and_a_button_puts_the_kicker_there():
    m = _penalty((5, 20))
    face, sc, view = FubletFace(), FakeScreen(), FakeView(m)
    assert sorted(face.marked(sc, view)) == [(5, 15), (5, 16)]
    panel: list = []
    face.panel(sc, view, panel.append)
    put = buttons(panel)["Put #9 by the penalty spot"]
    put.dispatch("on_release")
    assert sc.sent[-1] == c.Move(A(9), (5, 16))   # the nearer of the two
    m.submit(sc.sent[-1])
    panel = []
    face.panel(sc, FakeView(m), panel.append)
    assert "Put #9 by the penalty spot" not in buttons(panel)
