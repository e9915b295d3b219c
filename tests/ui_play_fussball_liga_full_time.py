"""A Fußball-Liga newcomer from the toss to the final whistle (run by tests/ui_scenario.py in
mode ``game:fussball_liga_full_time``), only by what the screen shows: a draw goes to extra
time and penalties (a setup option). Each half: the standard line-up, the kick-off at a lit
square, and the half ended with the clock's own button ("Time up: the half ends now", under
"Clock and ball corrections...": time is driven, never waited for); then the shoot-out: each
goalkeeper onto a lit numbered goal square, the offered kicker, the die on the keypad (Home
scores with a 5, Away misses with a 6)."""

from __future__ import annotations

from ui_newcomer import check, has_button, lit, press_start, roll, tap_figure, tap_lit, view
from ui_play_fussball_liga_goal import new_match, toss_and_line_up

PERIODS = ("first_half", "second_half", "extra_time_first", "extra_time_second")


def kick_off(sc):
    if not has_button(sc, "Kick off by #", True):
        sc.press("Standard line-up")
        yield "settle"
    press_start(sc, "Kick off by #")
    yield "settle"
    tap_lit(sc, "pass")
    yield "settle"
    check(sc, sc.state.phase.value in ("shot", "movement"), "the kick-off was taken")


def time_up(sc, shots: bool):
    period = sc.state.period.value
    sc.press("Clock and ball corrections...")
    yield "settle"
    sc.press("Time up: the half ends now")
    yield "settle"
    # "the current game turn phase must be completed": the coaches end it.
    for _ in range(8):
        if sc.state.period.value != period or sc.state.phase.value in ("line_up", "shootout", "over"):
            break
        for text in ("Home: step done", "Away: step done", "Home: no kick this phase", "Away: no kick this phase",
                     "Home: let it go", "Away: let it go"):
            if has_button(sc, text):
                sc.press(text)
                yield "settle"
                break
        else:
            break
    if shots:
        sc.screenshot(f"liga_end_{period}")


def shootout(sc, shots: bool):
    from companion.fussball_liga import queries as q
    for _ in range(30):
        s = sc.state
        if s.phase.value == "over":
            return
        check(sc, s.phase.value == "shootout", f"the shoot-out, not {s.phase.value}")
        if has_button(sc, "Penalty by #", True):
            kicking = s.attacking
            press_start(sc, "Penalty by #")
            yield "settle"
            roll(sc, "5" if kicking.label == "Home" else "6")
            yield "settle"
            continue
        keeper = q.goalkeeper(s, s.attacking.other)
        tap_figure(sc, keeper.ref)
        yield "settle"
        check(sc, "keeper" in lit(sc).values(), "the goalkeeper's numbered goal squares are lit")
        if shots:
            sc.screenshot("liga_shootout_keeper_lit")
            shots = False
        tap_lit(sc, "keeper")
        yield "settle"
    check(sc, False, "the shoot-out did not end")


def play(sc):
    yield from new_match(sc, "A draw goes to extra time and penalties")
    yield from toss_and_line_up(sc)
    for period in PERIODS:
        check(sc, sc.state.period.value == period and sc.state.phase.value == "line_up",
              f"the {period}'s kick-off, not {sc.state.period.value} {sc.state.phase.value}")
        yield from kick_off(sc)
        yield from time_up(sc, shots=period in ("first_half", "extra_time_second"))
    yield from shootout(sc, True)
    check(sc, sc.state.phase.value == "over" and view(sc).summary.result is not None, "the final whistle")
    sc.screenshot("liga_full_time")
