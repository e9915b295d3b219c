"""Fublet's face shows where the ball may go and says a refused touch in words (Kivy widgets
without a window, as tests/test_ui_fublet_rulings.py): the board's colours and their legend,
a touch on a coloured square offering the actions for it, a touch the rules would refuse
sent nowhere and answered in words, the buttons of a form that stay in place."""

from __future__ import annotations

from types import SimpleNamespace

from fublet_kit import A, H, new_match, to_kick_off
from test_ui_football_leader import FakeScreen, FakeView
from test_ui_fublet_rulings import buttons

from companion.fublet import commands as c
from companion.fublet import targets as ft
from companion.fublet.components import Action
from ui.games.fublet import KIND_RGBA, FubletFace


def screen_for(m) -> FakeScreen:
    sc = FakeScreen()
    sc.board = m.state.components.board
    sc.error_text = ""
    sc.names = SimpleNamespace(line=lambda text: text)
    sc.view = FakeView(m)
    return sc


def view_of(m):
    v = FakeView(m)
    v.ruleset = m.ruleset
    return v


def declaring():
    m = new_match()
    to_kick_off(m)
    m.submit(c.KickOff(A(8)))
    return m


def panel(face, sc, view) -> dict:
    out: list = []
    (face.mode_panel(sc, view, out.append) if sc.mode else face.panel(sc, view, out.append))
    return buttons(out)


def test_in_the_declaration_the_board_is_coloured_by_what_each_square_would_mean():
    m = declaring()
    face, sc, view = FubletFace(), screen_for(m), view_of(m)
    tints = face.tints(sc, view)
    colours = {rgba for _cell, rgba in tints}
    assert KIND_RGBA["short_pass"] in colours and KIND_RGBA["long_pass"] in colours
    assert [text for text, _ in face.legend_items(sc, view)] == ["Short pass", "Long pass", "Run (ball)"]
    # Each PS is drawn as its four MS, in its action's colour.
    shorts = {t.place for t in ft.ball_targets(m.state, Action.SHORT_PASS)}
    drawn = {cell for cell, rgba in tints if rgba == KIND_RGBA["short_pass"]}
    assert drawn == {ms for ps in shorts for ms in m.state.components.board.ps_cells(ps)}
    # Actions with no place open stay on the panel, greyed, with the reason.
    shown = panel(face, sc, view)
    assert not shown["Short Pass"].disabled
    cross = next(b for text, b in shown.items() if text.startswith("Cross: not now ("))
    assert cross.disabled and "cross area" in cross.text


def test_a_touch_on_a_coloured_square_offers_the_actions_for_it():
    m = declaring()
    face, sc, view = FubletFace(), screen_for(m), view_of(m)
    target = next(t for t in ft.ball_targets(m.state, Action.SHORT_PASS))
    cell = m.state.components.board.ps_cells(target.place)[0]
    assert face.on_cell(sc, view, cell)
    assert sc.mode == "ball_at" and sc.form["ms"] == cell
    shown = panel(face, sc, view)
    text = next(t for t in shown if t.startswith("Short pass, "))
    shown[text].dispatch("on_release")
    assert sc.sent == [target.command]


def test_a_refused_touch_is_not_sent_and_is_said_in_words_the_form_staying_open():
    m = declaring()
    face, sc, view = FubletFace(), screen_for(m), view_of(m)
    face._start_declaring(sc, Action.SHORT_PASS)
    assert sc.mode == "target"
    far = next(t.place for t in ft.ball_targets(m.state, Action.LONG_PASS))
    face.on_cell(sc, view, m.state.components.board.ps_cells(far)[0])
    assert sc.sent == [] and sc.mode == "target"
    said = sc.error_text
    assert said.startswith("Short Pass by away#8 to that PS (") and "a short pass travels 1 to 6 PS" in said
    assert "Touch a highlighted PS (short pass)" in said and said.endswith("declare long pass.")
    # A highlighted one is sent.
    near = next(t.place for t in ft.ball_targets(m.state, Action.SHORT_PASS))
    face.on_cell(sc, view, m.state.components.board.ps_cells(near)[0])
    assert sc.sent and isinstance(sc.sent[0], c.Declare) and sc.sent[0].target_ps == near


def test_a_move_the_rules_would_refuse_is_said_and_a_tackle_square_asks_which_move():
    m = declaring()
    h11 = m.state.players[H(11)].ms
    run = min(ft.ball_targets(m.state, Action.KEEP_AND_RUN),
              key=lambda t: max(abs(t.place[0] - h11[0]), abs(t.place[1] - h11[1])))
    m.submit(run.command)
    face, sc, view = FubletFace(), screen_for(m), view_of(m)
    defender = next(r for r in (H(n) for n in range(2, 12)) if any(
        t.kind == "tackle" for t in ft.figure_targets(m.state, r)))
    sc.selected = defender
    tackle = next(t for t in ft.figure_targets(m.state, defender) if t.kind == "tackle")
    assert face.on_cell(sc, view, tackle.place)
    assert sc.mode == "move_at" and sc.picked == [defender]
    shown = panel(face, sc, view)
    assert any(t.startswith("Move next to #8 and ") for t in shown)
    # Far beyond his pace: not sent, said.
    sc2 = screen_for(m)
    sc2.selected = defender
    far = (47, 31) if m.state.players[defender].ms[0] < 24 else (0, 0)
    assert face.on_cell(sc2, view, far)
    assert sc2.sent == [] and sc2.error_text.startswith(f"Move {defender} to that MS: not possible, ")


def test_the_kick_off_has_a_button_for_each_receiver_shown_in_green():
    m = new_match()
    to_kick_off(m)
    face, sc, view = FubletFace(), screen_for(m), view_of(m)
    receivers = [t.command.player for t in ft.kick_off_targets(m.state)]
    shown = panel(face, sc, view)
    assert [t for t in shown if t.startswith("Kick off to #")] == [f"Kick off to #{r.number}" for r in receivers]
    assert {rgba for _cell, rgba in face.tints(sc, view)} == {KIND_RGBA["kick_off"]}


def test_the_offside_call_is_offered_from_the_start_so_cancel_never_moves():
    m = declaring()
    face, sc, view = FubletFace(), screen_for(m), view_of(m)
    sc.mode = "offside"
    shown = panel(face, sc, view)
    assert shown["Call offside"].disabled
    sc.picked = [A(9), H(4)]
    shown = panel(face, sc, view)
    assert not shown["Call offside"].disabled
    assert sorted(face.marked(sc, view)) == sorted(m.state.players[r].ms for r in (A(9), H(4)))
