"""A short Fußball-Liga match on the real tablet app, by touches (run by tests/ui_scenario.py
in mode ``game:fussball_liga``): setup with no phase time limit (a slow machine must not
lose a phase to the egg timer), the coin toss, the standard line-up and one figure placed
by touch, the kick-off aimed by touch, moves by touch, the ball moved around its carrier,
a pass intercepted in vain (the roll through the keypad), a yellow card called on the
tablet, a step-by-step move in the set-up, and the indirect free-kick."""

from __future__ import annotations

from ui_harness import tap, widgets

from companion.teams import PlayerRef, Team

TITLE = "Fußball-Liga"


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


def option(sc, label: str) -> None:
    """Switch a setup option on: the toggle next to its label."""
    box = sc.screen().ids.options
    kids = box.children[::-1]
    i = next(i for i, w in enumerate(kids) if getattr(w, "text", "") == label)
    toggle = kids[i + 1]
    x, y = toggle.to_window(toggle.center_x, toggle.center_y)
    tap(x, y)
    sc.log.append(f"option {label}")


def steps_done(sc):
    """Each coach ends his movement steps until the shot phase of the next turn."""
    for _ in range(8):
        if sc.state.phase.value != "movement":
            return
        press_ending(sc, ": step done")
        yield "settle"


def press_ending(sc, tail: str) -> None:
    from kivy.uix.button import Button

    b = next(w for w in widgets(sc.screen()) if isinstance(w, Button) and w.text.endswith(tail)
             and not w.disabled)
    sc.scroll_to(b)
    x, y = b.to_window(b.center_x, b.center_y)
    tap(x, y)
    sc.log.append(f"press {b.text}")


def play(sc):
    sc.press("New match")
    yield "settle"
    sc.screen().ids.game.text = TITLE
    yield "settle"
    option(sc, "No phase time limit (trying out tactics)")
    yield "settle"
    sc.screenshot("setup")
    # The optional rules and tournament play, folded under "More options": one turned on.
    setup = sc.screen()
    sc.press(setup._more_button.text)
    yield "settle"
    sc.screenshot("setup_more")
    rows = setup._more_grid.children[::-1]   # label, control, label, control...
    label = next(i for i, w in enumerate(rows) if getattr(w, "text", "") == "Optional rule: goal posts")
    sc.tap_widget(rows[label + 1])
    yield "settle"
    sc.press("Done")
    yield "settle"
    assert setup._more_button.text == "8 more: 1 on" and setup.options["goal_posts"] is True, setup.options
    sc.press("Start match")
    yield "settle"
    # The coin toss: Home wins and kicks off; Away defends the high goal.
    sc.press("Home (SV Rotstein)")   # the toss buttons name the teams
    yield "settle"
    sc.press("Kick off")
    yield "settle"
    sc.press("High")
    yield "settle"
    assert sc.state.phase.value == "line_up", sc.state.phase
    sc.screenshot("live_toss_done")
    # A narrow window folds the request to two lines (ui/widgets/folded.py): a touch shows it
    # whole, another folds it again; a wide one shows it whole.
    def request_line():
        return next(w for w in widgets(sc.screen().ids.panel)
                    if (getattr(w, "whole_text", None) or getattr(w, "text", "") or "").startswith("Home: place"))

    request = request_line()
    if sc.screen().narrow:
        assert request.text.endswith("... more") and len(request.text) < len(request.whole_text), request.text
        sc.tap_widget(request)
        yield "settle"
        request = request_line()
        assert request.text == request.whole_text, request.text
        sc.screenshot("live_request_whole")
        sc.tap_widget(request)
        yield "settle"
        assert request_line().text.endswith("... more"), request_line().text
    else:
        assert "more" not in request.text and not hasattr(request, "whole_text"), request.text
    sc.press("Standard line-up")
    yield "settle"
    assert all(p.square is not None for p in sc.state.players.values() if p.on_pitch)
    # One figure placed by touch: his chip, then the square.
    sc.card(H(10))
    yield "settle"
    sc.tap_square((10, 17))
    yield "settle"
    assert sc.state.players[H(10)].square == (10, 17), sc.app.controller.view.error
    sc.screenshot("live_lineup")
    # The kick-off: #9 on a kick-off square passes to the square next to #11.
    sc.card(H(9))
    yield "settle"
    sc.press("Kick off by #9: touch the target")
    yield "settle"
    sc.tap_square((12, 11))
    yield "settle"
    assert sc.state.ball.holder == H(11), (sc.state.ball, sc.app.controller.view.error)
    assert sc.state.phase.value == "movement"
    # Movement: #9 runs by touch (figure, then square); Away's #9 answers.
    sc.tap_square((14, 9))
    yield "settle"
    sc.tap_square((17, 12))
    yield "settle"
    assert sc.state.players[H(9)].square == (17, 12), sc.app.controller.view.error
    sc.screenshot("live_movement")
    sc.press("Home: step done")
    yield "settle"
    sc.tap_square((18, 10))
    yield "settle"
    sc.tap_square((16, 11))
    yield "settle"
    assert sc.state.players[A(9)].square == (16, 11), sc.app.controller.view.error
    sc.press("Away: step done")
    yield "settle"
    # #11 takes the ball into his own square (close control).
    sc.press("Move the ball around #11...")
    yield "settle"
    sc.tap_square((13, 12))
    yield "settle"
    assert sc.state.ball.square == (13, 12), sc.app.controller.view.error
    yield from steps_done(sc)
    assert sc.state.phase.value == "shot" and sc.state.turn_no == 2, (sc.state.phase, sc.app.controller.view.error)
    # Turn 2: #11 passes along the row to #9; Away's #9 tries next to the path.
    sc.press("Shoot or pass (#11): touch the target")
    yield "settle"
    sc.tap_square((17, 12))
    yield "settle"
    assert sc.state.flight is not None, sc.app.controller.view.error
    sc.screenshot("live_intercept")
    sc.press(f"#9 tries in square {sc.letter_of((16, 12))}")   # the square ringed on the board
    yield "settle"
    sc.screenshot("live_roll")
    sc.keypad("2")
    yield "settle"
    assert sc.state.ball.holder == H(9), (sc.state.ball, sc.app.controller.view.error)
    # Away's #9 is booked for a willful violation called on the tablet.
    sc.press("Call misconduct...")
    yield "settle"
    sc.tap_square((16, 11))
    yield "settle"
    sc.press("Other willful violation")
    yield "settle"
    assert sc.state.players[A(9)].yellow == 1, sc.app.controller.view.error
    sc.screenshot("live_card")
    # The set-up: Away's #9 steps back square by square to keep 3 squares from the ball.
    sc.tap_square((16, 11))
    yield "settle"
    sc.press("Move #9 square by square...")
    yield "settle"
    sc.tap_square((15, 10))
    yield "settle"
    sc.tap_square((14, 10))
    yield "settle"
    sc.screenshot("live_path")
    sc.press("Move along 2 square(s)")
    yield "settle"
    assert sc.state.players[A(9)].square == (14, 10), sc.app.controller.view.error
    sc.press("Away: set-up done")
    yield "settle"
    sc.tap_square((17, 12))
    yield "settle"
    sc.tap_square((16, 12))
    yield "settle"
    sc.press("Home: set-up done")
    yield "settle"
    assert sc.state.phase.value == "shot", (sc.state.phase, sc.app.controller.view.error)
    # The indirect free-kick: #9 next to the ball passes back along the row to #11.
    sc.card(H(9))
    yield "settle"
    sc.press("Take it: #9 kicks, touch the target")
    yield "settle"
    sc.tap_square((13, 12))
    yield "settle"
    sc.screenshot("live_free_kick")
