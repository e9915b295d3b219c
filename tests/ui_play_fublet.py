"""Fublet on the real tablet app, played as a newcomer plays it (run by tests/ui_scenario.py in
mode ``game:fublet:<variant>``; checked by tests/test_ui_fublet_newcomer.py).

Only what the screen shows is touched (tests/ui_newcomer.py): buttons by their text,
figures by their number, board squares only where the screen colours or outlines them. The
dice are typed on the keypad. Where the driver needs a choice it takes it among what is
shown (the first highlighted square nearest the goal, say); it never reads the rules to
find a square.

Variants: ``first_goal`` (the toss, boards, line-up, kick-off, runs and a shot: a goal),
``restarts`` (a free kick, a goal kick, a throw-in, a corner and a penalty, each from the
play that causes it), ``full_time`` (a championship match to its final whistle, rounds kept
short by long passes), ``shootout`` (a drawn match through extra time to the shoot-out).
"""

from __future__ import annotations

from ui_newcomer import (button_texts, first_button, has_button, highlighted, panel_buttons, steady, tap_any_cell,
                         tap_cell, tap_figure, tinted)

from companion.teams import PlayerRef, Team
from ui.games.fublet import KIND_RGBA

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731
BOARDS = ("High defence line, short passing, offensive", "Low defence line, long passing, offensive")


def view(sc):
    return sc.app.controller.view


def error(sc) -> str:
    return view(sc).error or sc.screen().error_text


def pending(sc):
    return view(sc).pending


def head(sc):
    p = pending(sc)
    return p[0] if p else None


# --- the dice and the questions --------------------------------------------------------------------

def roll(sc, digits: str):
    """The pending roll typed on the keypad."""
    req = head(sc)
    assert req is not None and req.kind == "dice", (req, error(sc))
    sc.keypad(digits)
    yield "settle"


def answer(sc, option_text: str):
    sc.press(option_text)
    yield "settle"


# --- the opening -------------------------------------------------------------------------------------

def toss_to_kick_off(sc, home: str = "7", away: str = "3"):
    """New match, the opening roll on the keypad (Home 7, Away 3: Home picks a board first,
    Away kicks off), both boards, both teams lined up through the panel's button."""
    yield from sc.new_match("Fublet")
    s = sc.state
    assert s is not None and s.phase.value == "opening_roll", error(sc)
    sc.screenshot("fublet_toss")
    yield from roll(sc, home)
    yield from roll(sc, away)
    assert sc.state.phase.value == "board_pick", (sc.state.phase, error(sc))
    sc.press(BOARDS[0])
    yield "settle"
    sc.press(BOARDS[1])
    yield "settle"
    assert sc.state.phase.value == "kick_off", (sc.state.phase, error(sc))
    yield from line_up(sc)


def line_up(sc, preset: str = "4-4-2"):
    sc.press("Line up the teams...")
    yield "settle"
    sc.screenshot("fublet_lineup_popup")
    sc.press(preset)
    yield "settle"
    yield "settle"
    assert all(p.ms is not None for p in sc.state.players.values() if p.on_pitch), error(sc)


def kick_off(sc):
    """The kick-off to the first teammate the panel offers (each in green on the board)."""
    green = tinted(sc, KIND_RGBA["kick_off"])
    assert green, f"no receiver shown in green; panel: {button_texts(sc)}"
    text = first_button(sc, "Kick off to #")
    receiver = PlayerRef(sc.state.restart.team, int(text.rsplit("#", 1)[1]))
    assert tuple(sc.state.players[receiver].ms) in green, "the button's receiver is not the one shown in green"
    sc.screenshot("fublet_kick_off")
    sc.press(text)
    yield "settle"
    assert sc.state.ball.carrier == receiver and sc.state.phase.value == "declaration", error(sc)
    return receiver


# --- a round -----------------------------------------------------------------------------------------------

def carrier_ms(sc):
    s = sc.state
    return s.players[s.ball.carrier].ms


def towards_goal(sc, cells):
    """Of the shown squares, the one nearest the goal the carrier attacks."""
    s = sc.state
    team = s.ball.carrier.team
    attacks_high = (s.options.home_defends_low == (team is Team.HOME))
    return max(cells, key=lambda c: (c[0] if attacks_high else -c[0], -abs(c[1] - 15.5)))


def run_forward(sc):
    """The carrier runs with the ball: a yellow square nearest the goal, then Keep And Run."""
    yellow = tinted(sc, KIND_RGBA["run"])
    assert yellow, f"no run shown; panel: {button_texts(sc)}"
    tap_cell(sc, towards_goal(sc, yellow))
    yield "settle"
    sc.press(first_button(sc, "Keep And Run here"))
    yield "settle"


def end_movement(sc):
    """The coaches pass the movement and tactical movement phases (the one whose turn it is,
    or Home first when either may), until a roll or another phase comes."""
    for _ in range(8):
        s = sc.state
        if s.phase.value not in ("movement", "tactical_movement") or (pending(sc) and head(sc).kind != "action"):
            return
        sc.press(first_button(sc, f"{s.turn.label if s.turn else 'Home'}: pass"))
        yield "settle"


def play_on(sc, rolls: dict[str, str], choices: dict[str, str] | None = None, until=None, limit: int = 30):
    """Answer what the panel asks until ``until()`` holds or nothing is asked: each roll by
    the first key of ``rolls`` found in its text (its digits typed on the keypad; "*" for
    any other roll), each choice by the button of ``choices``'s first key found in its
    question; movement phases passed."""
    choices = choices or {}
    for _ in range(limit):
        if until is not None and until():
            return
        req = head(sc)
        if req is None:
            return
        if req.kind == "dice":
            digits = next((d for key, d in rolls.items() if key != "*" and key.lower() in req.text.lower()),
                          rolls.get("*"))
            assert digits is not None, f"no roll planned for {req.text!r}"
            sc.log.append(f"roll {digits} for {req.text[:60]}")
            yield from roll(sc, digits)
        elif req.kind == "choice":
            option = next((o for key, o in choices.items() if key.lower() in req.text.lower()), None)
            assert option is not None, f"no answer planned for {req.text!r}: {button_texts(sc)}"
            yield from answer(sc, option)
        elif sc.state.phase.value in ("movement", "tactical_movement"):
            yield from end_movement(sc)
        else:
            return


def goal_line(sc):
    red = tinted(sc, KIND_RGBA["shot"])
    assert red, f"no shot shown; panel: {button_texts(sc)}"
    return towards_goal(sc, red)


# --- the variants -----------------------------------------------------------------------------------------------

def play_first_goal(sc):
    yield from toss_to_kick_off(sc)
    sc.screenshot("fublet_lined_up")
    yield from kick_off(sc)
    sc.screenshot("fublet_declaration")
    for _ in range(4):   # runs towards the goal until a shot is shown
        if tinted(sc, KIND_RGBA["shot"]):
            break
        yield from run_forward(sc)
        yield from play_on(sc, {"*": "50"}, until=lambda: sc.state.phase.value == "declaration")
        assert sc.state.phase.value == "declaration", (sc.state.phase, error(sc))
    sc.screenshot("fublet_shot_shown")
    tap_cell(sc, goal_line(sc))
    yield "settle"
    sc.screenshot("fublet_ball_at_goal_line")
    sc.press(first_button(sc, "Finalization at this goal-line PS") if has_button(
        sc, "Finalization at", startswith=True) else first_button(sc, "Long Shot at this goal-line PS"))
    yield "settle"
    sc.screenshot("fublet_shot_form")
    sc.press("Shoot at the chosen goal-line PS")
    yield "settle"
    assert sc.state.declaration is not None, error(sc)
    # The shot good (05), the keeper's save failed (99): a goal.
    yield from play_on(sc, {"finalization": "05", "long shot": "05", "save": "99", "*": "50"},
                       {"deflect": "no", "catch": "no"}, until=lambda: sc.state.score[Team.AWAY] == 1)
    assert sc.state.score[Team.AWAY] == 1, (sc.state.score, error(sc), pending(sc))
    sc.screenshot("fublet_goal")
