"""One restart played on the real app by what the screen shows (run by tests/ui_scenario.py in
mode ``game:restart``, the scene named by TOUCHLINE_SCENE, e.g. "fussball_liga:throw_in"): the
match is resumed from Home just before the restart (tests/ui_scenes.py wrote it), then the
coaches re-position by the lit squares, name the kicker, and kick at a lit square; the dice on
the keypad. Every square touched was lit; every button found by its text."""

from __future__ import annotations

import os

from ui_newcomer import A, H, check, has_button, keypad_faces, lit, press_start, roll, tap_figure, tap_lit, view

SCENE = os.environ.get("TOUCHLINE_SCENE", "fussball_liga:throw_in")


def dist(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def resume(sc):
    """Home's "Resume" (the app may open the match by itself: then it is on the screen)."""
    if sc.screen().name != "live":
        press_start(sc, "Resume")
        yield "settle"
        yield "settle"
    check(sc, sc.screen().name == "live", "the scene is resumed")


def choose(sc, option: str):
    from ui.screens.live import choice_text
    sc.press(choice_text(view(sc).summary, option, sc.screen().names))
    yield "settle"


# --- Fußball-Liga -----------------------------------------------------------------------------------

def liga_set_up(sc, team: str, shots: bool):
    """One side's re-positioning: every figure the panel names as wrongly placed goes to the
    lit square farthest from the ball (out of the area before a goal-kick); the attacker
    puts his nearest player on the kicker's lit square; then "set-up done"."""
    from companion.fussball_liga.restarts import setup_problems, taker_squares
    for _ in range(8):
        if has_button(sc, f"{team}: set-up done"):
            if shots:
                sc.screenshot(f"liga_{SCENE.split(':')[1]}_set_up_{team.lower()}")
            sc.press(f"{team}: set-up done")
            yield "settle"
            return
        s = sc.state
        r = s.restart
        side = r.team if r.team.label == team else r.team.other
        problems = " ".join(setup_problems(s, r, side))
        spots = taker_squares(s, r, r.team)
        anchor = r.spot or spots[0]
        if side is r.team:   # the attacker: his nearest player onto the kicker's square
            mover = min((p for p in s.players.values() if p.placed and p.ref.team is side),
                        key=lambda p: (min(dist(p.square, sq) for sq in spots), p.ref.number))
            tap_figure(sc, mover.ref)
            yield "settle"
            tap_lit(sc, "kicker")
            yield "settle"
            continue
        wrong = [p for p in s.players.values() if p.placed and p.ref.team is side and str(p.ref) in problems]
        check(sc, bool(wrong), f"{team} cannot finish the set-up and nobody is named: {problems}")
        tap_figure(sc, wrong[0].ref)
        yield "settle"
        tap_lit(sc, "move", lambda c: -dist(c, anchor))
        yield "settle"
    check(sc, False, f"{team}'s set-up never done")


def liga_kick(sc, shots: bool):
    name = SCENE.split(":")[1]
    press_start(sc, "Take it: #")
    yield "settle"
    kinds = set(lit(sc).values())
    if shots:
        sc.screenshot(f"liga_{name}_aim")
    tap_lit(sc, "pass" if "pass" in kinds else "loose")
    yield "settle"
    for side in ("Home", "Away"):
        if has_button(sc, f"{side}: let it go"):
            sc.press(f"{side}: let it go")
            yield "settle"
    check(sc, sc.state.restart is None, f"the {name} was taken")
    if shots:
        sc.screenshot(f"liga_{name}_taken")


def liga(sc, restart: str, shots: bool = True):
    if restart in ("free_kick", "penalty"):
        if shots:
            sc.screenshot(f"liga_{restart}_choice")
        yield from choose(sc, "penalty_kick" if restart == "penalty" else "free_kick")
    if restart == "penalty":
        yield from liga_penalty(sc, shots)
        return
    r = sc.state.restart
    check(sc, r is not None and sc.state.phase.value == "set_up", "a set-up before the restart")
    defending, attacking = r.team.other.label, r.team.label
    yield from liga_set_up(sc, defending, shots)
    yield from liga_set_up(sc, attacking, shots)
    yield from liga_kick(sc, shots)


def liga_penalty(sc, shots: bool):
    """The penalty's free placement by lit squares: the kicker behind the mark, the goalkeeper on
    a numbered goal square, everybody else out of the area; then the kick and its die."""
    from companion.fussball_liga import queries as q
    s = sc.state
    r = s.restart
    areas = s.components.pitch.ends[s.end_of(r.team.other)]
    kicker = min((p for p in s.players.values() if p.placed and p.ref.team is r.team),
                 key=lambda p: min(dist(p.square, sq) for sq in areas.penalty_squares))
    tap_figure(sc, kicker.ref)
    yield "settle"
    if shots:
        sc.screenshot("liga_penalty_kicker_lit")
    tap_lit(sc, "kicker")
    yield "settle"
    keeper = q.goalkeeper(sc.state, r.team.other)
    tap_figure(sc, keeper.ref)
    yield "settle"
    tap_lit(sc, "keeper", lambda c: c[1])
    yield "settle"
    for p in list(sc.state.players.values()):
        if not p.placed or p.ref in (kicker.ref, keeper.ref):
            continue
        if areas.in_penalty_area(p.square) or p.square in areas.penalty_circle:
            tap_figure(sc, p.ref)
            yield "settle"
            tap_lit(sc, "place", lambda c, sq=p.square: dist(c, sq))
            yield "settle"
    press_start(sc, "Penalty-kick by #")
    yield "settle"
    before = dict(sc.state.score)
    roll(sc, "5")   # the penalty table: 5 is a goal
    yield "settle"
    check(sc, sc.state.score != before, "the penalty is a goal")
    if shots:
        sc.screenshot("liga_penalty_goal")


def roll_if_asked(sc, digits: str):
    if any(r.kind == "dice" for r in view(sc).pending):
        roll(sc, digits)
        yield "settle"


# --- Football Leader ------------------------------------------------------------------------------

def fl_card(sc, colour):
    from ui_play_football_leader_goal import play_card
    yield from play_card(sc, colour)


def fl_foul(sc, shots: bool):
    """Away's #10 tackles #9 (touch #10, then the carrier lit for the tackle), misses on a 1, and
    the foul check's two dice (6 and 9) make it a foul."""
    tap_figure(sc, A(10))
    yield "settle"
    check(sc, "tackle" in lit(sc).values(), "the carrier's space is lit for #10's tackle")
    if shots:
        sc.screenshot(f"fl_{SCENE.split(':')[1]}_tackle_lit")
    tap_figure(sc, H(9))
    yield "settle"
    check(sc, sc.screen().mode == "tackle", "touching the carrier opens the tackle")
    yield from fl_card(sc, sc.state.players[A(10)].counter.defence.colour)
    roll(sc, "1")
    yield "settle"
    keypad_faces(sc, 6, 9)
    yield "settle"
    check(sc, sc.state.turn.team is H(1).team, "the foul gives Home the kick")


def fl_direct(sc, shots: bool):
    press_start(sc, "Choose the taker and shoot")
    yield "settle"
    tap_figure(sc, H(9))
    yield "settle"
    yield from fl_card(sc, sc.state.players[H(9)].counter.shoot.colour)
    before = dict(sc.state.score)
    roll(sc, "12")
    yield "settle"
    check(sc, sc.state.score != before, "the kick is a goal")
    if shots:
        sc.screenshot(f"fl_{SCENE.split(':')[1]}_goal")


def fl_indirect(sc, shots: bool):
    """The fouled counter passes: touch him (his passes light up), then the teammate."""
    tap_figure(sc, H(9))
    yield "settle"
    passes = [c for c, k in lit(sc).items() if k == "pass"]
    check(sc, bool(passes), "the indirect kick's passes are lit")
    if shots:
        sc.screenshot("fl_indirect_pass_lit")
    mate = next(p.ref for p in sorted(sc.state.players.values(), key=lambda p: p.ref.number)
                if p.space in passes and p.ref.team is H(1).team and p.ref != H(9))
    tap_figure(sc, mate)
    yield "settle"
    yield from fl_card(sc, sc.state.players[H(9)].counter.passing.colour)
    yield from roll_if_asked(sc, "12")   # a pass nobody can take away needs no die (3.3)
    check(sc, sc.state.ball == mate and sc.state.restart is None, "the indirect kick arrived")


def fl_goal_kick(sc, shots: bool):
    """Home's #9 shoots from the lit goal and misses (a 1): Away's goal kick, a pass from the
    goalkeeper to a lit teammate."""
    tap_figure(sc, H(9))
    yield "settle"
    goal = [c for c, k in lit(sc).items() if k == "shot"]
    check(sc, bool(goal), "the goal is lit for #9's shot")
    tap_figure(sc, A(1))   # the goalkeeper stands in the lit goal
    yield "settle"
    check(sc, sc.screen().mode == "shoot", "touching the lit goal opens the shot")
    yield from fl_card(sc, sc.state.players[H(9)].counter.shoot.colour)
    roll(sc, "1")
    yield "settle"
    for team in ("Home", "Away"):
        if has_button(sc, f"{team}: confirm the set-up"):
            sc.press(f"{team}: confirm the set-up")
            yield "settle"
    check(sc, sc.state.turn is not None and sc.state.turn.stage.value == "goal_kick", "Away's goal kick")
    tap_figure(sc, A(1))
    yield "settle"
    passes = [c for c, k in lit(sc).items() if k == "pass"]
    check(sc, bool(passes), "the goal kick's passes are lit")
    if shots:
        sc.screenshot("fl_goal_kick_pass_lit")
    mate = next(p.ref for p in sorted(sc.state.players.values(), key=lambda p: p.ref.number)
                if p.space in passes and p.ref.team is A(1).team and not p.goalkeeper)
    tap_figure(sc, mate)
    yield "settle"
    from companion.football_leader.components import Colour
    yield from fl_card(sc, Colour.GOLD)   # the goalkeeper passes with a card of any colour
    yield from roll_if_asked(sc, "12")
    check(sc, sc.state.ball == mate, "the goal kick arrived")


def football_leader(sc, restart: str, shots: bool = True):
    if restart == "shootout":
        from ui_play_football_leader_full_time import shootout
        if shots:
            sc.screenshot("fl_shootout_start")
        yield from shootout(sc)
        check(sc, sc.state.phase.value == "over", "the series decided the match")
        if shots:
            sc.screenshot("fl_shootout_over")
        return
    if restart == "goal_kick":
        yield from fl_goal_kick(sc, shots)
        return
    yield from fl_foul(sc, shots)
    if restart == "indirect":
        yield from fl_indirect(sc, shots)
    else:
        yield from fl_direct(sc, shots)


def play(sc):
    yield from resume(sc)
    game, restart = SCENE.split(":")
    if game == "fussball_liga":
        yield from liga(sc, restart)
    else:
        yield from football_leader(sc, restart)
