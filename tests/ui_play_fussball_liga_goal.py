"""A Fußball-Liga newcomer from the toss to the first goal (run by tests/ui_scenario.py in
mode ``game:fussball_liga_goal``), touching only what the screen shows (tests/ui_newcomer.py):
the toss buttons, the standard line-up, "Kick off by #9" and the kick-off's lit squares (a tap
on a teammate no pass can reach is refused in words first: the issue's kick-off), then turn
after turn the ball carrier's lit squares: the pass or the run that gains most ground, until a
pink square (a shot at goal) is lit; the goal-shot die on the keypad."""

from __future__ import annotations

from ui_newcomer import H, check, has_button, lit, press_start, roll, tap_cell, tap_figure, tap_lit, view

TITLE = "Fußball-Liga"


def new_match(sc, *options: str):
    from ui_play_fussball_liga import option

    sc.press("New match")
    yield "settle"
    sc.screen().ids.game.text = TITLE
    yield "settle"
    for label in ("No phase time limit (trying out tactics)", *options):
        option(sc, label)
        yield "settle"
    sc.press("Start match")
    yield "settle"


def toss_and_line_up(sc):
    """Home wins the toss and kicks off; Away picks the high goal; the standard line-up."""
    sc.press("Home (SV Rotstein)")
    yield "settle"
    sc.press("Kick off")
    yield "settle"
    sc.press("High")
    yield "settle"
    sc.press("Standard line-up")
    yield "settle"


def kick_off(sc, shots: bool = True):
    """The kick-off as the issue met it: the button, a teammate out of reach (refused in words),
    then #11, whom the lit squares show a pass can reach."""
    kicker = press_start(sc, "Kick off by #")
    yield "settle"
    check(sc, sc.screen().mode == "kick" and "pass" in lit(sc).values(), f"{kicker}: no pass lit")
    if shots:
        sc.screenshot("liga_kick_off_aim")
    tap_figure(sc, H(2))   # ten squares away: no kick-off reaches him
    yield "settle"
    said = sc.screen().error_text
    check(sc, "cannot take a pass" in said and "straight line" in said and "#11" in said, f"the refusal: {said!r}")
    check(sc, sc.state.phase.value == "line_up", "a refused tap changed the match")
    if shots:
        sc.screenshot("liga_kick_off_refused")
    tap_figure(sc, H(11))
    yield "settle"
    check(sc, sc.state.ball.holder == H(11), "the kick-off to #11")


def let_it_go(sc):
    for side in ("Away", "Home"):
        if has_button(sc, f"{side}: let it go"):
            sc.press(f"{side}: let it go")
            yield "settle"


def forward(team_attacks_high: bool):
    """Cells ordered by the ground they gain toward the attacked goal."""
    return (lambda c: (-c[0], c[1])) if team_attacks_high else (lambda c: (c[0], c[1]))


def movement(sc, attacker: str, run: bool = True):
    """The attacker's carrier runs with the ball over the lit squares that gain most ground,
    then the two teammates nearest him run ahead too (one figure a step); the defender ends
    his steps."""
    movers: list = []
    for _ in range(12):
        if sc.state.phase.value != "movement" or any(r.kind in ("dice", "choice") for r in view(sc).pending):
            return
        turn = sc.state.movement.turn.label
        holder = sc.state.ball.holder
        if run and turn == attacker and holder is not None and holder.team.label == attacker and not movers:
            near = sorted((p for p in sc.state.players.values() if p.placed and p.ref.team is holder.team
                           and not p.goalkeeper and p.ref != holder),
                          key=lambda p: max(abs(p.square[0] - sc.state.players[holder].square[0]),
                                            abs(p.square[1] - sc.state.players[holder].square[1])))
            movers = [holder] + [p.ref for p in near[:2]]
        if turn == attacker and movers and movers[0] is not None:
            who = movers.pop(0)
            tap_figure(sc, who)
            yield "settle"
            kind = "dribble" if who == holder else "move"
            if kind == "dribble" and "liga_dribble_lit" not in " ".join(sc.shots):
                sc.screenshot("liga_dribble_lit")
            if kind in lit(sc).values():
                tap_lit(sc, kind, forward(sc.state.end_of(who.team) == "low"))
                yield "settle"
            else:
                tap_figure(sc, who)   # nothing lit: let go of him
                yield "settle"
            if not movers:
                movers = [None]       # done: the next step ends the attacker's movement
        elif turn == attacker and movers == [None]:
            movers = []
            run = False
        if sc.state.phase.value == "movement" and has_button(sc, f"{turn}: step done"):
            sc.press(f"{turn}: step done")
            yield "settle"


def play_to_goal(sc, team_label: str = "Home", turns: int = 14, shots: bool = True):
    """Turn after turn, the attacker's best lit pass or a shot when one is lit."""
    start = dict(sc.state.score)
    for _turn in range(turns):
        if sc.state.score != start:
            return
        phase = sc.state.phase.value
        if phase == "movement":
            yield from movement(sc, team_label)
            continue
        check(sc, phase == "shot", f"a shot phase expected, not {phase}")
        holder = sc.state.ball.holder
        if holder is None or holder.team.label != team_label or not has_button(sc, "Shoot or pass (#", True):
            if has_button(sc, f"{team_label}: no kick this phase"):
                sc.press(f"{team_label}: no kick this phase")
                yield "settle"
            continue
        # The ball touched (or, at his feet, its holder): where it may go lights up.
        ball = sc.state.ball.square
        if ball != sc.state.players[holder].square:
            tap_cell(sc, ball)
        else:
            tap_figure(sc, holder)
        yield "settle"
        check(sc, sc.screen().selected == holder, "touching the ball selects its holder")
        if shots and "liga_ball_selected" not in " ".join(sc.shots):
            sc.screenshot("liga_ball_selected")
        kinds = set(lit(sc).values())
        ahead = forward(sc.state.end_of(holder.team) == "low")
        if "shot" in kinds:
            if shots:
                sc.screenshot("liga_shot_lit")
            tap_lit(sc, "shot", ahead)
            yield "settle"
            yield from let_it_go(sc)
            roll(sc, "6")
            yield "settle"
            check(sc, sc.state.score != start, "the shot from close range")
            return
        mine = sc.state.players[holder].square
        d = 1 if sc.state.end_of(holder.team) == "low" else -1
        gain = [c for c, k in lit(sc).items() if k == "pass" and (c[0] - mine[0]) * d >= 2]
        if not gain:   # no pass gains ground: keep the ball and run with it
            tap_figure(sc, holder)   # let go of him
            yield "settle"
            sc.press(f"{team_label}: no kick this phase")
            yield "settle"
            continue
        tap_lit(sc, "pass", ahead)
        yield "settle"
        yield from let_it_go(sc)
    check(sc, sc.state.score != start, f"no goal in {turns} turns")


def play(sc):
    yield from new_match(sc)
    yield from toss_and_line_up(sc)
    yield from kick_off(sc)
    yield from play_to_goal(sc)
    check(sc, sc.state.score[H(1).team] == 1, "Home's first goal")
    sc.screenshot("liga_first_goal")
    check(sc, sc.state.phase.value == "line_up" and sc.state.restart.team.label == "Away",
          "after the goal the other side kicks off")
    sc.press("Standard line-up")
    yield "settle"
    check(sc, has_button(sc, "Kick off by #", True), "Away's kick-off offered after the line-up")
