"""A short Football Leader match on the real tablet app, by touches (run by tests/ui_scenario.py
in mode ``game:football_leader``; tests/test_ui_football_leader.py checks the result).

Preset strategy sheets, the opening roll on the keypad, a position change by touch in the
set-up, the kick-off, a movement through the Move button (counter, card, space), a movement
by touch with the card asked afterwards, a pass and a pass and shoot with their cards from
the card buttons and their dice on the keypad: a goal for Home.
"""

from __future__ import annotations

from companion.teams import PlayerRef, Team
from ui_harness import tap


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


def tap_figure(sc, ref: PlayerRef) -> None:
    """Touch a counter where the pitch drew it (a space may hold four)."""
    pitch = sc.screen().ids.pitch
    spot = next(s for s in pitch._spots if s[0] == ref)   # noqa: SLF001  (where it was drawn)
    x, y = pitch.to_window(spot[1], spot[2])
    tap(x, y)
    sc.log.append(f"tap figure {ref}")


def tap_space(sc, space) -> None:
    """Touch an empty space at its centre."""
    sc.tap_square(space)


def phase(sc) -> str:
    return sc.state.phase.value


def check(sc, ok: bool, what: str) -> None:
    if not ok:
        view = sc.app.controller.view
        raise AssertionError(f"{what}; error {view.error!r}; pending {[r.text for r in view.pending]}")


def cards_hint_shown(sc) -> bool:
    """The player-card band says what comes there (no card before the sides are lined up)."""
    from kivy.uix.label import Label

    from ui_harness import widgets

    return any(isinstance(w, Label) and w.text.startswith("The players' cards come here") and w.opacity > 0.5
               for w in widgets(sc.screen()))


def play(sc):
    yield from sc.new_match("Football Leader")
    check(sc, phase(sc) == "strategy", "a new match starts with the strategy sheets")
    check(sc, cards_hint_shown(sc), "the empty card band says what comes there")
    sc.screenshot("fl_strategy")
    sc.press("Home 4-4-2")
    yield "settle"
    sc.press("Away 4-4-2")
    yield "settle"
    check(sc, phase(sc) == "opening_roll", "both sheets written")
    # The opening roll on the keypad: Home 7, Away 3: Home kicks off.
    sc.keypad("7")
    yield "settle"
    sc.keypad("3")
    yield "settle"
    check(sc, phase(sc) == "set_up", "the opening roll decided")
    # Away changes #11's kick-off space by touch (his chip: no figure stands yet), then both confirm.
    sc.screenshot("fl_set_up_start")
    check(sc, not cards_hint_shown(sc), "the cards, not the hint, once the sides are lined up")
    sc.press("Away: change a position...")
    yield "settle"
    sc.card(A(11))
    yield "settle"
    tap_space(sc, (4, 3))
    yield "settle"
    check(sc, sc.state.sheets[Team.AWAY].kick_off[11] == (4, 3), "the position change")
    sc.screenshot("fl_set_up")
    sc.press("Home: confirm the set-up")
    yield "settle"
    sc.press("Away: confirm the set-up")
    yield "settle"
    check(sc, phase(sc) == "kick_off", "both confirmed")
    check(sc, sc.state.players[A(11)].space == (4, 3), "the counters stand by the sheets")
    sc.screenshot("fl_kick_off")
    sc.press("Kick off to #9")
    yield "settle"
    check(sc, sc.state.ball == H(9) and phase(sc) == "turn", "the kick-off")
    sc.screenshot("fl_turn")  # the turn's buttons: the open actions the rules list
    # Turn 1, Home: #10 runs to F4 with the Move button: the counter, the card, the space.
    sc.press("Move another counter...")
    yield "settle"
    tap_figure(sc, H(10))
    yield "settle"
    sc.screenshot("fl_move_card")
    sc.press("SILVER 4-10")
    yield "settle"
    tap_space(sc, (5, 3))
    yield "settle"
    check(sc, sc.state.players[H(10)].space == (5, 3), "#10 moved to F4")
    sc.press("Home: end the turn")
    yield "settle"
    # Turn 2, Away: a movement by touch (the figure, an empty space); the card is asked after.
    check(sc, sc.state.turn.team is Team.AWAY, "Away's turn")
    tap_figure(sc, A(7))
    yield "settle"
    tap_space(sc, (4, 1))
    yield "settle"
    check(sc, sc.app.controller.view.pending[0].kind == "choice", "the card of the move is asked")
    sc.screenshot("fl_card_asked")
    sc.press("Gold-4-11")
    yield "settle"
    check(sc, sc.state.players[A(7)].space == (4, 1), "Away #7 moved to E2")
    sc.press("Away: end the turn")
    yield "settle"
    # Turn 3, Home: #9 passes to #10 (receiver by touch, then the card), the die on the keypad.
    sc.press("Pass...")
    yield "settle"
    tap_figure(sc, H(10))
    yield "settle"
    sc.press("SILVER 4-12")
    yield "settle"
    check(sc, sc.app.controller.view.pending[0].kind == "dice", "the pass waits for its die")
    sc.screenshot("fl_pass_roll")
    sc.keypad("12")
    yield "settle"
    check(sc, sc.state.ball == H(10), "the pass arrived")
    sc.screenshot("fl_passed")  # after a pass: shoot, the extra movement, or end the turn
    # Pass and shoot from F4: 4 + parry 10 + 4 = 18.
    sc.press("Shoot (#10)...")
    yield "settle"
    sc.press("GOLD 4-12")
    yield "settle"
    sc.keypad("12")
    yield "settle"
    check(sc, sc.state.score[Team.HOME] == 1, "a goal for Home")
    sc.screenshot("fl_goal")
