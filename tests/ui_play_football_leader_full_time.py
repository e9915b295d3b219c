"""A Football Leader newcomer from the opening roll to the final whistle (run by
tests/ui_scenario.py in mode ``game:football_leader_full_time``), only by what the screen
shows. No extra time on a draw (a setup option), so a draw goes to penalties. A half lasts as
long as the decks (2.2): every turn the coach in turn moves one counter over a lit space (the
card asked afterwards, as the board tells it) and ends his turn; a coach with no card left just
ends it. The second half's kick-off by the button the panel offers; the shoot-out by its
buttons and card grid, the dice on the keypad (Home scores with a 12, Away misses with a 1)."""

from __future__ import annotations

from ui_newcomer import H, check, has_button, press_start, roll_all
from ui_play_football_leader_goal import ahead, end_turn, kick_off, run_ahead


def setup_and_roll(sc):
    from ui_play_fussball_liga import option

    sc.press("New match")
    yield "settle"
    sc.screen().ids.game.text = "Football Leader"
    yield "settle"
    option(sc, "Extra time on a draw")   # off: a draw goes straight to penalties
    yield "settle"
    check(sc, sc.screen().options.get("extra_time") is False, "extra time switched off")
    sc.press("Start match")
    yield "settle"
    sc.press("Home 4-4-2")
    yield "settle"
    sc.press("Away 4-4-2")
    yield "settle"
    sc.keypad("7")
    yield "settle"
    sc.keypad("3")
    yield "settle"


def confirm(sc):
    for team in ("Home", "Away"):
        if has_button(sc, f"{team}: confirm the set-up"):
            sc.press(f"{team}: confirm the set-up")
            yield "settle"


def play_half(sc, turns: int = 120):
    """Turns until the period changes: a move over a lit space and the end of the turn."""
    period = sc.state.period
    for i in range(turns):
        s = sc.state
        if s.period is not period or s.phase.value != "turn":
            return
        team = s.turn.team
        if not has_button(sc, f"{team.label}: end the turn"):
            # Forward and back in turn, so the counters never run out of lit spaces.
            yield from run_ahead(sc, team, ahead(sc, team), exclude=s.ball, backward=i % 4 >= 2)
        yield from end_turn(sc)
    check(sc, sc.state.period is not period, f"the {period.value} did not end in {turns} turns")


def shootout(sc):
    from ui_play_football_leader_goal import best_card

    for team in ("Home", "Away"):
        sc.press(f"{team}: kickers by number")
        yield "settle"
    from companion.football_leader.shootout import next_kicker, next_team
    for _ in range(14):
        s = sc.state
        if s.phase.value == "over":
            return
        team = next_team(s)
        kicker = next_kicker(s, team)
        sc.press(best_card(sc, s.players[kicker].counter.shoot.colour))
        yield "settle"
        roll_all(sc, 12 if team.label == "Home" else 1)
        yield "settle"
    check(sc, False, "the shoot-out did not end")


def play(sc):
    yield from setup_and_roll(sc)
    yield from confirm(sc)
    yield from kick_off(sc, H(9), shots=False)
    yield from play_half(sc)
    sc.screenshot("fl_half_time")
    yield from confirm(sc)
    check(sc, sc.state.phase.value == "kick_off", "the second half's kick-off")
    press_start(sc, "Kick off to #")
    yield "settle"
    yield from play_half(sc)
    check(sc, sc.state.phase.value == "shootout", f"a draw goes to penalties, not {sc.state.phase.value}")
    sc.screenshot("fl_shootout")
    yield from shootout(sc)
    check(sc, sc.state.phase.value == "over", "the final whistle")
    sc.screenshot("fl_full_time")
