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
                         tap_shown, tap_figure, tinted)

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


def line_up(sc, preset: str | None = None):
    """The panel's line-up button, then a formation (the first offered: a side down to ten
    men is offered the formations for nine outfield players)."""
    import re

    from kivy.uix.button import Button
    from ui_harness import popups, widgets
    sc.press("Line up the teams...")
    yield "settle"
    sc.screenshot("fublet_lineup_popup")
    if preset is None:
        offered = [w.text for p in popups() for w in widgets(p) if isinstance(w, Button)
                   and re.fullmatch(r"\d(-\d)+", w.text)]
        preset = "4-4-2" if "4-4-2" in offered else offered[-1]
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
    tap_shown(sc, towards_goal(sc, yellow))
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
        if has_button(sc, "Who reached the ball..."):
            # A transition round the rules could not start alone: the panel names the nearest.
            sc.press("Who reached the ball...")
            yield "settle"
            sc.screenshot("fublet_who_reached")
            sc.press(next(b for b in button_texts(sc) if " it (" in b and b.endswith("MS)")))
            yield "settle"
            continue
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
            if digits is None:   # each side its own number: a challenge is never tied
                digits = "10" if req.text.startswith("Home") else "20" if req.text.startswith("Away") else "4"
            sc.log.append(f"roll {digits} for {req.text[:60]}")
            yield from roll(sc, digits)
        elif req.kind == "choice":
            option = next((o for key, o in choices.items() if key.lower() in req.text.lower()), None)
            if option is None:   # what a newcomer does with a question he did not expect: the first answer
                option = _choice_buttons(sc)[0]
            sc.log.append(f"answer {option} to {req.text[:60]}")
            yield from answer(sc, option)
        elif sc.state.phase.value in ("movement", "tactical_movement"):
            yield from end_movement(sc)
        else:
            return


def _choice_buttons(sc) -> list[str]:
    """The answer buttons, top first (as read)."""
    where = panel_buttons(sc)
    texts = [b for b in button_texts(sc) if b not in ("Substitution...",) and not b.startswith("Rulebook")]
    assert texts, f"a question with no answer button: {request_texts(sc)}"
    return sorted(texts, key=lambda t: (-where[t][1], where[t][0]))


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
    # The player with the ball selected: his runs join the colours; no button moves.
    before = panel_buttons(sc)
    tap_figure(sc, sc.state.ball.carrier)
    yield "settle"
    steady(sc, before, "selecting the ball carrier")
    sc.screenshot("fublet_carrier_selected")
    tap_figure(sc, sc.state.ball.carrier)
    yield "settle"
    # A wrong touch: a short pass to a square not highlighted. Nothing is sent; the words say
    # what was asked, why not, and what is taken; the form stays open.
    sc.press("Short Pass")
    yield "settle"
    shown = highlighted(sc)
    assert shown, "a short pass shows no square"
    far = max(((c, r) for c in range(48) for r in range(32) if (c, r) not in shown),
              key=lambda cell: abs(cell[0] - carrier_ms(sc)[0]))
    tap_any_cell(sc, far)
    yield "settle"
    said = sc.screen().error_text
    assert sc.state.declaration is None and sc.screen().mode == "target", error(sc)
    assert "not possible" in said and "a short pass travels 1 to 6 PS" in said and "highlighted PS" in said, said
    sc.screenshot("fublet_refused_pass")
    sc.press("Cancel")
    yield "settle"
    for _ in range(4):   # runs towards the goal until a shot is shown
        if tinted(sc, KIND_RGBA["shot"]):
            break
        yield from run_forward(sc)
        yield from play_on(sc, {"*": "50"}, until=lambda: sc.state.phase.value == "declaration")
        assert sc.state.phase.value == "declaration", (sc.state.phase, error(sc))
    sc.screenshot("fublet_shot_shown")
    tap_shown(sc, goal_line(sc))
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


# --- restarts ------------------------------------------------------------------------------------------------

def request_texts(sc) -> list[str]:
    """The request lines as the panel shows them (names, not ids)."""
    return [sc.screen().names.line(r.text) for r in pending(sc)]


def numbers_in(text: str) -> list[int]:
    import re
    return [int(n) for n in re.findall(r"#(\d+)", text)]


def figure(sc, ref):
    return next(f for f in sc.screen().ids.pitch.figures if f.ref == ref)


def nearest_highlighted(sc, cell):
    cells = {tuple(c) for c in sc.screen().ids.pitch.reach}
    assert cells, f"nothing highlighted; panel: {button_texts(sc)}; error: {error(sc)}"
    return min(cells, key=lambda c: (max(abs(c[0] - cell[0]), abs(c[1] - cell[1])), c))


def move_away(sc, ref):
    """A figure the request names is touched, then the highlighted square nearest to him."""
    here = figure(sc, ref).cell
    tap_figure(sc, ref)
    yield "settle"
    tap_shown(sc, nearest_highlighted(sc, here))
    yield "settle"


def ball_point(sc):
    pitch = sc.screen().ids.pitch
    ball = pitch.ball
    if ball.carrier is not None and any(f.ref == ball.carrier for f in pitch.figures):
        return figure(sc, ball.carrier).cell
    if ball.at is not None:
        return pitch.geometry.cell_at(*ball.at)
    return (24, 16)


def set_up_restart(sc, taker_is_keeper: bool = False, bring_one: bool = False):
    """A restart made ready as the panel asks: the taker touched, players named by the
    requests moved to a highlighted square, each positioning step ended, the kicker put by
    the penalty spot (``bring_one``: at the kicking side's first positioning step, its
    player nearest the ball moves to the highlighted square nearest it, to receive). Returns
    when the taker may declare."""
    brought = not bring_one
    for _ in range(40):
        s = sc.state
        if s.phase.value != "restart" or (s.restart is not None and not _blocked(sc)):
            return
        if head(sc) is not None and head(sc).kind == "dice":
            yield from roll(sc, "10")
            continue
        texts = request_texts(sc)
        team = s.restart.team
        if has_button(sc, "Choose the taker (touch him)"):
            sc.press("Choose the taker (touch him)")
            yield "settle"
            spot = ball_point(sc)
            mates = [f for f in sc.screen().ids.pitch.figures if f.ref.team is team and f.goalkeeper == taker_is_keeper]
            taker = min(mates, key=lambda f: (max(abs(f.cell[0] - spot[0]), abs(f.cell[1] - spot[1])), f.ref.number))
            tap_figure(sc, taker.ref)
            yield "settle"
            continue
        if has_button(sc, "Put #", startswith=True):
            sc.press(first_button(sc, "Put #"))
            yield "settle"
            continue
        named = next((t for t in texts if "beyond" in t or "must leave it" in t), None)
        if named is not None:
            refs = named_refs(sc, named)
            assert refs, f"nobody found for {named!r}"
            yield from move_away(sc, refs[0])
            continue
        step = next((b for b in button_texts(sc) if b.endswith(": end this step")), None)
        if step is not None and not brought and step.startswith(team.label) and s.restart.taker is not None:
            brought = True
            spot = ball_point(sc)
            mates = [f for f in sc.screen().ids.pitch.figures if f.ref.team is team and not f.goalkeeper
                     and f.ref != s.restart.taker]
            runner = min(mates, key=lambda f: (max(abs(f.cell[0] - spot[0]), abs(f.cell[1] - spot[1])), f.ref.number))
            tap_figure(sc, runner.ref)
            yield "settle"
            tap_shown(sc, nearest_highlighted(sc, spot))
            yield "settle"
            continue
        if step is not None:
            sc.press(step)
            yield "settle"
            continue
        raise AssertionError(f"stuck at the restart: {texts}; buttons {button_texts(sc)}; error {error(sc)}")
    raise AssertionError("the restart never became ready")


def named_refs(sc, text: str) -> list:
    """The figures a request line names ("#4 Kit"), found by number and name as a coach
    reads them."""
    import re
    out = []
    for number, name in re.findall(r"#(\d+) (\w+)", text):
        out += [p.ref for p in sc.state.players.values() if p.on_pitch and p.ref.number == int(number)
                and p.card.name.startswith(name)]
    return out


def _blocked(sc) -> bool:
    return not any(a.id == "declare" for a in view(sc).actions)


def shot_at_goal(sc):
    """A red square touched (where the ball may go: a shot), then the shot's button and
    "Shoot" with the form's tokens (a penalty kick has none)."""
    tap_shown(sc, goal_line(sc))
    yield "settle"
    text = next((b for b in button_texts(sc) if b.startswith(("Penalty kick at", "Finalization at", "Long Shot at"))),
                None)
    assert text, f"no shot offered: {button_texts(sc)}"
    sc.press(text)
    yield "settle"
    if has_button(sc, "Shoot at the chosen goal-line PS"):
        sc.press("Shoot at the chosen goal-line PS")
        yield "settle"
    assert sc.state.declaration is not None, error(sc)


def ball_to(sc, colour: str, pick, with_mate: bool = False):
    """The ball sent to a square of ``colour`` (chosen by ``pick`` among those shown, one
    with a teammate in it when ``with_mate``), through the panel's button for it."""
    cells = tinted(sc, KIND_RGBA[colour])
    assert cells, f"no {colour} shown; panel: {button_texts(sc)}; error: {error(sc)}"
    team = sc.state.restart.team if sc.state.restart is not None else sc.state.ball.carrier.team
    if with_mate:
        mates = {tuple(f.cell) for f in sc.screen().ids.pitch.figures if f.ref.team is team}
        cells = cells & mates or cells
    cell = pick(cells)
    tap_shown(sc, cell)
    yield "settle"
    words = {"short_pass": "Short pass", "long_pass": "Long pass", "cross": "Cross"}[colour]
    sc.press(first_button(sc, words))
    yield "settle"
    assert sc.state.declaration is not None, error(sc)


def nearest(point):
    return lambda cells: min(cells, key=lambda c: (max(abs(c[0] - point[0]), abs(c[1] - point[1])), c))


def engage(sc, defending: Team):
    """In the Movement phase a defender shown a tackle square (orange) moves there and tackles."""
    for f in sorted(sc.screen().ids.pitch.figures, key=lambda f: f.ref.number):
        if f.ref.team is not defending or f.goalkeeper:
            continue
        tap_figure(sc, f.ref)
        yield "settle"
        orange = tinted(sc, KIND_RGBA["tackle"])
        if orange:
            sc.screenshot("fublet_tackle_shown")
            tap_shown(sc, min(orange))
            yield "settle"
            sc.press(first_button(sc, "Move next to #"))
            yield "settle"
            return f.ref
        tap_figure(sc, f.ref)
        yield "settle"
    raise AssertionError(f"no {defending.label} player is shown a tackle; error {error(sc)}")


def face_towards(sc, team_passing: Team, step) -> str:
    """The scatter die's face that sends the ball one PS along ``step`` (the die the coach
    rolls: the test chooses which number it shows)."""
    from companion.board import scatter_step
    defending = team_passing.other
    high = sc.state.options.home_defends_low == (defending is Team.AWAY)
    return str(next(f for f in range(1, 9) if scatter_step(f, high) == step))


def out_over_touch_line(sc, team: Team):
    """Of the shown squares, one on a touch line, and the die face that sends the ball over it."""
    def pick(cells):
        rows = sc.state.components.board.ps_rows * 2
        cell = min(cells, key=lambda c: (min(c[1], rows - 1 - c[1]), c))
        pick.face = face_towards(sc, team, (0, -1) if cell[1] < rows // 2 else (0, 1))
        return cell
    return pick


def play_restarts(sc):
    """One match through every restart: a penalty (a tackle in the box that fouls), the
    kick-off after its goal, a corner (a save over the bar), a goal kick (a cross out over
    the goal line), a throw-in (a long pass out over the touch line), a free kick (a missed
    shot) against a wall."""
    yield from toss_to_kick_off(sc)
    yield from kick_off(sc)
    until_declaration = lambda: sc.state.phase.value in ("declaration", "restart", "kick_off")  # noqa: E731
    # A penalty: Away runs into Home's box; a Home defender tackles him there and fails (99)
    # against a good dribble (05): a foul, the penalty kick chosen.
    for _ in range(3):
        yield from run_forward(sc)
        if sc.state.players[sc.state.ball.carrier].ms[0] < 8:   # in the box
            break
        yield from play_on(sc, {"*": "10"}, until=until_declaration)
    while sc.state.phase.value == "movement" and sc.state.turn is Team.AWAY:
        sc.press("Away: pass")
        yield "settle"
    yield from engage(sc, Team.HOME)
    yield from play_on(sc, {"dribbling": "05", "tackle": "99", "*": "10"}, {"fouls": "Penalty kick"},
                       until=until_declaration)
    s = sc.state
    assert s.phase.value == "restart" and s.restart.kind.value == "penalty_kick", (s.phase, error(sc))
    sc.screenshot("fublet_penalty")
    yield from set_up_restart(sc)
    sc.screenshot("fublet_penalty_ready")
    yield from shot_at_goal(sc)
    yield from play_on(sc, {"finalization": "05", "penalty kick save": "95", "*": "10"},
                       until=lambda: sc.state.score[Team.AWAY] == 1)
    assert sc.state.score[Team.AWAY] == 1, (sc.state.score, error(sc))
    # The kick-off after the goal (Home); Home runs into Away's half and shoots: the keeper
    # saves (10 against 05), no catch, the scatter over the bar (face 1): a corner for Home.
    assert sc.state.phase.value == "kick_off", (sc.state.phase, error(sc))
    yield from line_up(sc)
    yield from kick_off(sc)
    for _ in range(3):
        if tinted(sc, KIND_RGBA["shot"]):
            break
        yield from run_forward(sc)
        yield from play_on(sc, {"*": "10"}, until=until_declaration)
    yield from shot_at_goal(sc)
    yield from play_on(sc, {"long shot": "05", "finalization": "05", "save by": "10", "scatter": "1", "*": "10"},
                       {"catch": "No", "deflect": "None"}, until=until_declaration)
    s = sc.state
    assert s.phase.value == "restart" and s.restart.kind.value == "corner_kick", (s.phase, error(sc))
    sc.screenshot("fublet_corner")
    yield from set_up_restart(sc)
    sc.screenshot("fublet_corner_ready")
    # The corner crossed to the box's square nearest the corner; it fails (99), the scatter
    # (2 PS towards the goal line) takes it out: a goal kick for Away.
    corner = ball_point(sc)
    yield from ball_to(sc, "cross", lambda cells: max(cells, key=lambda c: (c[0], -abs(c[1] - corner[1]))))
    yield from play_on(sc, {"cross": "99", "scatter": face_towards(sc, Team.HOME, (1, 0)), "*": "10"},
                       until=until_declaration)
    s = sc.state
    assert s.phase.value == "restart" and s.restart.kind.value == "goal_kick", (s.phase, error(sc))
    sc.screenshot("fublet_goal_kick")
    yield from set_up_restart(sc, taker_is_keeper=True)
    # The goal kick: a long pass to a touch line's square; it fails, the scatter crosses the
    # touch line: a throw-in for Home.
    touch = out_over_touch_line(sc, Team.AWAY)
    yield from ball_to(sc, "long_pass", touch)
    yield from play_on(sc, {"long pass": "99", "scatter": touch.face, "*": "10"}, until=until_declaration)
    s = sc.state
    assert s.phase.value == "restart" and s.restart.kind.value == "throw_in", (s.phase, error(sc))
    sc.screenshot("fublet_throw_in")
    yield from set_up_restart(sc, bring_one=True)
    # The throw-in (a short pass) to the blue square with a teammate, else the nearest the goal.
    yield from ball_to(sc, "short_pass", lambda cells: towards_goal_for(sc, Team.HOME, cells), with_mate=True)
    yield from play_on(sc, {"short pass": "05", "*": "10"}, until=until_declaration)
    s = sc.state
    assert s.phase.value == "declaration", (s.phase, error(sc))
    sc.screenshot("fublet_after_throw_in")
    # A missed shot (99): a free kick for the other side, against a wall of two.
    shooter = s.ball.carrier.team
    for _ in range(4):
        if tinted(sc, KIND_RGBA["shot"]) or sc.state.phase.value != "declaration":
            break
        yield from run_forward(sc)
        yield from play_on(sc, {"*": "10"}, until=until_declaration)
    assert sc.state.ball.carrier is not None and sc.state.ball.carrier.team is shooter, error(sc)
    yield from shot_at_goal(sc)
    yield from play_on(sc, {"long shot": "99", "finalization": "99", "*": "10"}, {"deflect": "None"},
                       until=until_declaration)
    s = sc.state
    assert s.phase.value == "restart" and s.restart.kind.value == "free_kick", (s.phase, error(sc))
    sc.screenshot("fublet_free_kick")
    sc.press("Set a wall...")
    yield "settle"
    for f in sorted(sc.screen().ids.pitch.figures, key=lambda f: f.ref.number):
        if f.ref.team is shooter and not f.goalkeeper and len(sc.screen().picked) < 2:
            tap_figure(sc, f.ref)
            yield "settle"
    sc.screenshot("fublet_wall")
    sc.press("Set the wall")
    yield "settle"
    assert sc.state.restart.wall, error(sc)
    yield from set_up_restart(sc)
    kicker = shooter.other
    yield from ball_to(sc, "short_pass", lambda cells: towards_goal_for(sc, kicker, cells), with_mate=True)
    yield from play_on(sc, {"short pass": "05", "*": "10"}, until=until_declaration)
    assert sc.state.phase.value == "declaration", (sc.state.phase, error(sc))
    sc.screenshot("fublet_after_free_kick")


def towards_goal_for(sc, team: Team, cells):
    attacks_high = sc.state.options.home_defends_low == (team is Team.HOME)
    return max(cells, key=lambda c: (c[0] if attacks_high else -c[0], c))


# --- a whole match -------------------------------------------------------------------------------------------

def long_ball(sc):
    """A coach playing out time: the ball to the violet square furthest ahead (a teammate's
    if one stands in one), else the blue one, from the panel's button for it."""
    s = sc.state
    team = s.restart.team if s.phase.value == "restart" and s.restart is not None else s.ball.carrier.team
    for colour in ("long_pass", "short_pass"):
        if tinted(sc, KIND_RGBA[colour]):
            yield from ball_to(sc, colour, lambda cells: towards_goal_for(sc, team, cells), with_mate=True)
            return
    raise AssertionError(f"no pass shown: {button_texts(sc)}; {error(sc)}")


def pick_boards(sc):
    """Before a half: each coach touches the first tactical board offered."""
    names = {tb.name for tb in sc.state.components.tactical_boards}
    for _ in range(2):
        if sc.state.phase.value != "board_pick":
            return
        where = panel_buttons(sc)
        offered = sorted((b for b in button_texts(sc) if b in names), key=lambda t: -where[t][1])
        sc.press(offered[0])
        yield "settle"


def play_time(sc, until, rounds: int = 40):
    """Rounds of long balls until ``until()``: each declaration a pass (the rules' pace sets
    the minutes: a long pass of 12 PS is the most the stopwatch moves in a round), each
    restart made ready and passed the same way, each question answered as it comes."""
    stop = lambda: until() or sc.state.phase.value in ("declaration", "restart", "kick_off", "board_pick",  # noqa
                                                           "shootout", "over")
    for _ in range(rounds):
        if until():
            return
        phase = sc.state.phase.value
        if phase == "board_pick":
            yield from pick_boards(sc)
        elif phase == "kick_off":
            yield from line_up(sc)
            yield from kick_off(sc)
        elif phase == "restart":
            yield from set_up_restart(sc, taker_is_keeper=sc.state.restart.kind.value == "goal_kick")
            yield from long_ball(sc)
        elif phase == "declaration":
            yield from long_ball(sc)
        yield from play_on(sc, {}, {"ball control": "Ball control", "catch": "No", "deflect": "None",
                                    "volley": "Aerial dispute"}, until=stop, limit=40)
    assert until(), f"not there after {rounds} rounds: {sc.state.phase}, minute {sc.state.minute}; {error(sc)}"


def play_full_time(sc):
    """From the toss to the final whistle: no goal in the two halves nor in extra time (long
    balls run the stopwatch out), then the shoot-out, Home scoring and Away missing."""
    yield from toss_to_kick_off(sc)
    yield from kick_off(sc)
    yield from play_time(sc, lambda: sc.state.phase.value in ("shootout", "over"), rounds=80)
    s = sc.state
    assert s.phase.value == "shootout" and s.score == {Team.HOME: 0, Team.AWAY: 0}, (s.phase, s.score, error(sc))
    sc.screenshot("fublet_shootout")
    for _ in range(12):
        s = sc.state
        if s.phase.value == "over":
            break
        team = s.turn
        hint_before = panel_buttons(sc)
        taker = next(p.ref for p in sorted(s.players.values(), key=lambda p: -p.ref.number)
                     if p.on_pitch and p.ref.team is team and not p.goalkeeper
                     and not any(k.kicker == p.ref for k in s.shootout))
        tap_figure(sc, taker)
        yield "settle"
        steady(sc, hint_before, "selecting the penalty taker")
        sc.press(f"Penalty by #{taker.number}")
        yield "settle"
        yield from play_on(sc, {"finalization": "05" if team is Team.HOME else "99", "*": "95"},
                           until=lambda: not pending(sc) or head(sc).kind != "dice")
    s = sc.state
    assert s.phase.value == "over" and s.result.winner is Team.HOME and s.result.decided_by == "shoot-out", \
        (s.phase, s.result, error(sc))
    sc.screenshot("fublet_full_time")
