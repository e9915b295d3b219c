"""A short Futboard match on the real tablet app, by touches (run by tests/ui_scenario.py in
mode ``game:futboard``; checked by tests/test_ui_futboard.py).

New match (20 minutes on the clock), both default line-ups, one figure placed by touch, the
clock started, the kick-off passed by touching the receiver, a run into the attacking half by
touch, a kick at goal with both dice typed on the keypad (a goal), a substitution, the
line-ups again, Away's kick-off through the receiver's button, Away ends its turn, and a Home
player runs next to the ball and tries to take it: his foul number on the keypad, a yellow card.
"""

from __future__ import annotations

from companion.futboard import queries as q
from companion.futboard.kicks import kick_problem
from companion.futboard.ranges import reachable
from companion.teams import PlayerRef, Team


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


def error(scenario) -> str:
    return scenario.app.controller.view.error


def kick_space(s, ref: PlayerRef):
    """A space in ``ref``'s range from where he may kick at goal (the nearest the goal)."""
    p = q.pitch(s)
    end = q.attacked_end(ref.team)
    good = []
    for sq in reachable(s, ref):
        if q.in_own_field(s, ref.team, sq):
            continue
        if sum(1 for o in q.on_field(s, ref.team.other) if o.space is not None and p.adjacent(sq, o.space)) >= 2:
            continue
        good.append(sq)
    assert good, f"{ref} cannot reach a space to kick from"
    return min(good, key=lambda sq: (p.lines_from_goal(sq, end), abs(sq[1] - p.rows // 2), sq))


def take_runner(s, team: Team):
    """A player of ``team`` who can move next to the opposing ball carrier, and where to."""
    p = q.pitch(s)
    cs = s.players[s.ball].space
    for pl in sorted(q.on_field(s, team), key=lambda pl: pl.ref.number):
        if pl.goalkeeper:
            continue
        for sq in sorted(reachable(s, pl.ref)):
            if p.adjacent(sq, cs):
                return pl.ref, sq
    raise AssertionError(f"no {team.label} player can reach {s.ball}")


def play(scenario):
    yield from scenario.new_match("Futboard")
    s = scenario.state
    assert s is not None and s.created, error(scenario)
    assert s.phase.value == "lineup" and s.options.time_limit_min == 20, s.options
    scenario.screenshot("live_empty")

    # Line-ups: both defaults through the buttons, then one figure moved by touch.
    scenario.press("Home: default line-up")
    yield "settle"
    scenario.press("Away: default line-up")
    yield "settle"
    s = scenario.state
    assert all(p.space is not None for p in s.players.values() if p.on_field), error(scenario)
    start = s.players[H(11)].space
    target = (start[0], start[1] - 2)
    scenario.card(H(11))
    yield "settle"
    scenario.screenshot("live_place")
    scenario.tap_square(target)
    yield "settle"
    assert scenario.state.players[H(11)].space == target, error(scenario)
    scenario.screenshot("live_lineup")

    scenario.press("Start the clock")
    yield "settle"
    assert scenario.state.clock.running, error(scenario)

    # The kick-off: #9 in the centre circle passes; the receiver is touched on the pitch.
    scenario.press("Kick off: #9 passes...")
    yield "settle"
    scenario.screenshot("live_pass")
    scenario.tap_square(target)
    yield "settle"
    s = scenario.state
    assert s.phase.value == "play" and s.ball == H(11) and s.actions_left == 2, (s.phase, s.ball, error(scenario))

    # #11 runs into the attacking half by touch (his range is highlighted once selected).
    scenario.card(H(11))
    yield "settle"
    scenario.screenshot("live_reach")
    goal_run = kick_space(s, H(11))
    scenario.tap_square(goal_run)
    yield "settle"
    s = scenario.state
    assert s.players[H(11)].space == goal_run and s.actions_left == 1, error(scenario)
    assert kick_problem(s, H(11)) is None

    # The kick: Home rolls 1 (a hit), the goalkeeper 12 (no save), both on the keypad.
    scenario.press("Kick at goal (#11", startswith=True)
    yield "settle"
    assert scenario.state.queue, error(scenario)
    scenario.screenshot("live_kick")
    scenario.keypad("1")
    yield "settle"
    scenario.keypad("12")
    yield "settle"
    s = scenario.state
    assert s.score[Team.HOME] == 1 and s.phase.value == "lineup", (s.score, s.phase, error(scenario))
    scenario.screenshot("live_goal")

    # Before the restart: #14 comes on for #10 (touch the player, then the reserve's button).
    scenario.press("Substitution...")
    yield "settle"
    off_space = scenario.state.players[H(10)].space
    scenario.tap_square(off_space)
    yield "settle"
    scenario.press("#14", startswith=True)
    yield "settle"
    s = scenario.state
    assert s.players[H(14)].space == off_space and s.players[H(10)].where.value == "reserve", error(scenario)

    # Each team back in its own field; Away kicks off to the first receiver offered.
    scenario.press("Home: default line-up")
    yield "settle"
    scenario.press("Away: default line-up")
    yield "settle"
    assert not [r for r in scenario.app.controller.view.pending if r.id.startswith("lineup_")], \
        scenario.app.controller.view.pending
    scenario.press("Kick off: #9 passes...")
    yield "settle"
    scenario.press("to #", startswith=True)
    yield "settle"
    s = scenario.state
    assert s.phase.value == "play" and s.turn is Team.AWAY and s.ball.team is Team.AWAY, error(scenario)
    scenario.press("Away: end the turn")
    yield "settle"
    assert scenario.state.turn is Team.HOME, error(scenario)

    # A Home player runs next to the carrier and tries to take the ball: his foul number.
    runner, next_to = take_runner(scenario.state, Team.HOME)
    scenario.card(runner)
    yield "settle"
    scenario.tap_square(next_to)
    yield "settle"
    s = scenario.state
    assert s.players[runner].space == next_to, error(scenario)
    carrier = s.ball
    scenario.screenshot("live_turn")
    scenario.press(f"#{runner.number} {s.players[runner].tile.name} takes the ball from #{carrier.number}",
                   startswith=True)
    yield "settle"
    scenario.screenshot("live_take")
    scenario.keypad(str(s.players[runner].tile.foul))
    yield "settle"
    s = scenario.state
    assert s.players[runner].yellow == 1 and s.turn is Team.AWAY, (s.players[runner], error(scenario))
    scenario.screenshot("live_card")
    scenario.log.append(f"booked {runner}")


# --- as a newcomer plays it (tests/ui_newcomer.py): only what the screen shows is touched ---------------
#
# Variants run by tests/test_ui_futboard_newcomer.py: ``first_goal`` (setup with a 20-minute
# clock, the default line-ups, the clock started without moving the kick-off button, the
# kick-off to a receiver shown in blue, runs and a kick: a goal), ``restarts`` (after the goal
# the kick-off again, a corner from equal rolls, the goalkeeper's ball after a miss, a penalty
# from a foul in the area, a foul outside it), ``full_time`` (first to 2 goals, chosen in setup).

from ui_newcomer import (about_to_press, button_texts, first_button, has_button, panel_buttons,  # noqa: E402
                         steady, tap_shown, tap_figure, tinted)

from ui.games.futboard.face import KIND_RGBA  # noqa: E402


def choose_option(sc, label: str, value: str):
    """A setup option chosen as a coach does: its spinner touched, then the value."""
    from kivy.uix.label import Label
    from kivy.uix.spinner import Spinner
    from ui_harness import widgets
    box = sc.screen().ids.options
    kids = box.children[::-1]
    at = next(i for i, w in enumerate(kids) if isinstance(w, Label) and not isinstance(w, Spinner)
              and w.text == label)
    spinner = kids[at + 1]
    sc.tap_widget(spinner)
    yield "settle"
    sc.press(value)
    yield "settle"
    assert spinner.text == value, (label, spinner.text)
    sc.log.append(f"option {label}: {value}")


def setup(sc, **options):
    sc.press("New match")
    yield "settle"
    sc.screen().ids.game.text = "Futboard"   # the game spinner's choice
    yield "settle"
    for label, value in options.items():
        yield from choose_option(sc, label, value)
    sc.screenshot("futboard_setup")
    sc.press("Start match")
    yield "settle"
    assert sc.state is not None and sc.state.created, error(sc)


def line_ups(sc):
    sc.press("Home: default line-up")
    yield "settle"
    sc.press("Away: default line-up")
    yield "settle"
    assert all(p.space is not None for p in sc.state.players.values() if p.on_field), error(sc)


def team_of_turn(sc):
    return sc.state.turn


def attacks_high(team: Team) -> bool:
    return team is Team.HOME


def goalwards(team: Team, cells):
    return max(cells, key=lambda c: (c[0] if attacks_high(team) else -c[0], -abs(c[1] - 6)))


def kick_off_pass(sc, screenshot: str | None = None):
    """The kick-off: the centre circle's player passes; a receiver shown in blue is touched."""
    text = first_button(sc, "Kick off: #")
    sc.press(text)
    yield "settle"
    blue = tinted(sc, KIND_RGBA["pass"])
    assert blue, f"no receiver shown in blue: {button_texts(sc)}"
    if screenshot:
        sc.screenshot(screenshot)
    team = sc.state.restart.team
    receiver = next(f.ref for f in sorted(sc.screen().ids.pitch.figures, key=lambda f: f.ref.number)
                    if tuple(f.cell) in blue and f.ref.team is team and tuple(f.cell) == goalwards(team, blue & {
                        tuple(g.cell) for g in sc.screen().ids.pitch.figures if g.ref.team is team}))
    tap_figure(sc, receiver)
    yield "settle"
    assert sc.state.phase.value == "play" and sc.state.ball == receiver, error(sc)


def opponents_next_to(sc, cell, team: Team) -> int:
    return sum(1 for f in sc.screen().ids.pitch.figures if f.ref.team is not team
               and max(abs(f.cell[0] - cell[0]), abs(f.cell[1] - cell[1])) == 1)


def run_carrier(sc, team: Team, inside=None):
    """The player with the ball selected; the highlighted space nearest the goal (with fewer
    than two opponents next to it) touched."""
    carrier = sc.state.ball
    tap_figure(sc, carrier)
    yield "settle"
    reach = {tuple(c) for c in sc.screen().ids.pitch.reach}
    free = [c for c in reach if opponents_next_to(sc, c, team) < 2 and (inside is None or inside(c))] or list(reach)
    assert free, f"#{carrier.number} has no highlighted space"
    tap_shown(sc, goalwards(team, free))
    yield "settle"


def roll(sc, digits: str):
    req = sc.app.controller.view.pending[0]
    assert req.kind == "dice", (req, error(sc))
    sc.keypad(digits)
    yield "settle"
    sc.log.append(f"rolled {digits} for {req.text[:50]}")


def attack(sc, team: Team, kick: str = "1", keeper: str = "12", until_kick: bool = True):
    """``team``'s turns, action by action: the kick at goal as soon as its button shows (the
    dice typed: ``kick`` for the kicker, ``keeper`` for the goalkeeper), else a run towards
    goal; the other side ends its turns."""
    for _ in range(12):
        s = sc.state
        if s.phase.value != "play":
            return
        if s.turn is not team:
            sc.press(f"{s.turn.label}: end the turn")
            yield "settle"
            continue
        if has_button(sc, "Kick at goal (", startswith=True):
            sc.press(first_button(sc, "Kick at goal ("))
            yield "settle"
            yield from roll(sc, kick)
            if sc.app.controller.view.pending and sc.app.controller.view.pending[0].kind == "dice":
                yield from roll(sc, keeper)
            return
        if s.actions_left == 0 or not has_button(sc, f"Pass from #{s.ball.number}...") and s.ball.team is not team:
            sc.press(f"{team.label}: end the turn")
            yield "settle"
            continue
        yield from run_carrier(sc, team)
    raise AssertionError(f"{team.label} did not get a kick in: {error(sc)}")


def play_first_goal(sc):
    yield from setup(sc)
    s = sc.state
    assert s.options.time_limit_min == 20, s.options
    yield from line_ups(sc)
    # The tap: "Start the clock", then the kick-off where it was a moment ago.
    before = about_to_press(sc, "Start the clock")
    sc.screenshot("futboard_before_clock")
    sc.press("Start the clock")
    yield "settle"
    assert sc.state.clock.running, error(sc)
    steady(sc, before, "Start the clock")
    sc.screenshot("futboard_clock_started")
    kick_off_button = first_button(sc, "Kick off: #")
    assert before[kick_off_button] == panel_buttons(sc)[kick_off_button], "the kick-off button moved"
    # A wrong touch first: the kick-off to a player the ruler does not reach. Nothing is sent;
    # the words name the receivers the rules take.
    sc.press(first_button(sc, "Kick off: #"))
    yield "settle"
    blue = tinted(sc, KIND_RGBA["pass"])
    wrong = next(f.ref for f in sorted(sc.screen().ids.pitch.figures, key=lambda f: f.ref.number)
                 if f.ref.team is Team.HOME and not f.goalkeeper and tuple(f.cell) not in blue
                 and f.ref != sc.screen().action)
    tap_figure(sc, wrong)
    yield "settle"
    said = sc.screen().error_text
    assert sc.state.phase.value == "lineup" and sc.screen().mode == "pass", error(sc)
    assert "not possible" in said and "Passes go to #" in said, said
    sc.screenshot("futboard_refused_pass")
    sc.press("Cancel")
    yield "settle"
    yield from kick_off_pass(sc, "futboard_kick_off_receivers")
    before = about_to_press(sc, "Pause the clock")
    sc.press("Pause the clock")
    yield "settle"
    steady(sc, before, "Pause the clock")
    sc.press("Start the clock")
    yield "settle"
    yield from attack(sc, Team.HOME)
    assert sc.state.score[Team.HOME] == 1, (sc.state.score, error(sc))
    sc.screenshot("futboard_first_goal")


def select_who_can(sc, team: Team, colour: str, prefer=None):
    """``team``'s figures tried one by one (as a coach looks for a player who can do it): the
    first whose selection shows ``colour`` on the board; None when none does."""
    figures = sorted((f for f in sc.screen().ids.pitch.figures if f.ref.team is team and not f.goalkeeper),
                     key=prefer or (lambda f: f.ref.number))
    for f in figures:
        tap_figure(sc, f.ref)
        yield "settle"
        if tinted(sc, KIND_RGBA[colour]):
            return f.ref
        tap_figure(sc, f.ref)   # unselect
        yield "settle"
    return None


def in_area(sc, team_defending: Team):
    p = sc.state.components.pitch
    from companion.futboard.queries import own_end
    return lambda cell: p.in_penalty_area(tuple(cell), own_end(team_defending))


def take_ball(sc, team: Team, foul: bool):
    """A ``team`` player shown next to the ball (orange) moves there and tries to take it:
    his foul number typed for a foul, 1 to take it."""
    carrier = sc.state.ball
    cs = sc.state.players[carrier].space
    ref = yield from select_who_can(
        sc, team, "take", prefer=lambda f: (max(abs(f.cell[0] - cs[0]), abs(f.cell[1] - cs[1])), f.ref.number))
    assert ref is not None, f"no {team.label} player can reach #{carrier.number}"
    orange = tinted(sc, KIND_RGBA["take"])
    tap_shown(sc, min(orange))
    yield "settle"
    players = sc.state.players
    text = first_button(sc, f"#{ref.number} {players[ref].tile.name} takes the ball from #{carrier.number} "
                            f"{players[carrier].tile.name} (")
    sc.screenshot("futboard_take")
    sc.press(text)
    yield "settle"
    foul_number = int(text.rsplit("foul ", 1)[1].rstrip(")"))
    yield from roll(sc, str(foul_number if foul else 1))
    return ref


def play_restarts(sc):
    yield from setup(sc, **{"Time limit (minutes)": "None", "Goal limit": "5"})
    assert sc.state.options.time_limit_min is None and sc.state.options.goal_limit == 5, sc.state.options
    yield from line_ups(sc)
    yield from kick_off_pass(sc)
    yield from attack(sc, Team.HOME)
    assert sc.state.score[Team.HOME] == 1, error(sc)
    # 1. The kick-off after a goal: both sides home again, Away kicks off.
    yield from line_ups(sc)
    sc.screenshot("futboard_restart_kick_off")
    yield from kick_off_pass(sc)
    assert sc.state.turn is Team.AWAY, error(sc)
    # 2. A corner: the kicker and the goalkeeper roll the same number.
    yield from attack(sc, Team.AWAY, kick="3", keeper="3")
    s = sc.state
    assert s.phase.value == "corner" and s.restart.team is Team.AWAY, (s.phase, error(sc))
    sc.screenshot("futboard_corner")
    taker = yield from _corner_taker(sc)
    assert sc.state.phase.value == "play" and sc.state.ball == taker, error(sc)
    sc.press("Home: end the turn")   # the defenders' three moves: none
    yield "settle"
    # Two Away players run towards the corner taker, then his pass (the corner is passed).
    slot = tuple(sc.state.players[taker].space)
    for _ in range(2):
        near = sorted((f for f in sc.screen().ids.pitch.figures if f.ref.team is Team.AWAY and f.ref != taker
                       and not f.goalkeeper and f.ref not in sc.state.moved),
                      key=lambda f: max(abs(f.cell[0] - slot[0]), abs(f.cell[1] - slot[1])))
        tap_figure(sc, near[0].ref)
        yield "settle"
        reach = {tuple(c) for c in sc.screen().ids.pitch.reach}
        tap_shown(sc, min(reach, key=lambda c: max(abs(c[0] - slot[0]), abs(c[1] - slot[1]))))
        yield "settle"
    sc.press(first_button(sc, "Pass from #"))
    yield "settle"
    blue = tinted(sc, KIND_RGBA["pass"])
    assert blue, f"nobody shown to receive the corner: {button_texts(sc)}"
    sc.screenshot("futboard_corner_pass")
    receiver = next(f.ref for f in sc.screen().ids.pitch.figures if tuple(f.cell) in blue)
    assert receiver.team is Team.AWAY, "the corner went to the goalkeeper: nobody could receive it"
    tap_figure(sc, receiver)
    yield "settle"
    assert sc.state.ball == receiver and sc.state.restart is None, error(sc)
    # 3. The goalkeeper's ball: Away kicks and misses.
    yield from attack(sc, Team.AWAY, kick="12", keeper="1")
    s = sc.state
    assert s.turn is Team.HOME and s.players[s.ball].goalkeeper, (s.ball, error(sc))
    sc.screenshot("futboard_keepers_ball")
    # 4. A penalty: Home runs into Away's area; an Away player takes the ball with his foul number.
    for _ in range(30):
        s = sc.state
        inside = in_area(sc, Team.AWAY)(s.players[s.ball].space)
        if s.turn is Team.AWAY:
            if inside:
                break
            sc.press("Away: end the turn")
            yield "settle"
            continue
        if inside or s.actions_left == 0:
            sc.press("Home: end the turn")
            yield "settle"
            continue
        yield from run_carrier(sc, Team.HOME)
        if not in_area(sc, Team.AWAY)(sc.state.players[sc.state.ball].space) and sc.state.actions_left \
                and has_button(sc, "Pass from #", startswith=True):
            # a pass to the teammate shown nearest the goal moves the ball on
            tap_figure(sc, sc.state.ball)
            yield "settle"
            blue = tinted(sc, KIND_RGBA["pass"])
            if blue:
                mate = goalwards(Team.HOME, blue)
                ref = next(f.ref for f in sc.screen().ids.pitch.figures if tuple(f.cell) == mate)
                tap_figure(sc, ref)
                yield "settle"
    s = sc.state
    assert s.turn is Team.AWAY and in_area(sc, Team.AWAY)(s.players[s.ball].space), (s.ball, error(sc))
    yield from take_ball(sc, Team.AWAY, foul=True)
    s = sc.state
    assert s.phase.value == "penalty" and s.restart.team is Team.HOME, (s.phase, error(sc))
    sc.screenshot("futboard_penalty")
    for _ in range(11):   # Away's players leave the area, each to a highlighted space
        leave = [f.ref for f in sc.screen().ids.pitch.figures if f.ref.team is Team.AWAY and not f.goalkeeper
                 and in_area(sc, Team.AWAY)(f.cell)]
        if not leave:
            break
        tap_figure(sc, leave[0])
        yield "settle"
        reach = {tuple(c) for c in sc.screen().ids.pitch.reach}
        assert reach, f"no way out of the area shown for {leave[0]}"
        tap_shown(sc, min(reach, key=lambda c: (abs(c[1] - 6), c)))
        yield "settle"
    sc.press(first_button(sc, "#"))   # "#N takes it (to the spot)"
    yield "settle"
    assert sc.state.restart.kicker is not None, error(sc)
    sc.screenshot("futboard_penalty_spot")
    yield from roll(sc, "1")
    yield from roll(sc, "12")
    assert sc.state.score[Team.HOME] == 2, (sc.state.score, error(sc))
    # 5. A foul outside the area: after Away's kick-off Home fouls the ball carrier.
    yield from line_ups(sc)
    yield from kick_off_pass(sc)
    sc.press("Away: end the turn")
    yield "settle"
    booked = yield from take_ball(sc, Team.HOME, foul=True)
    s = sc.state
    assert s.players[booked].yellow == 1 and s.turn is Team.AWAY and s.phase.value == "play", error(sc)
    sc.screenshot("futboard_foul")


def _corner_taker(sc):
    """The corner: the Away player whose tile passes furthest (the number on its right side)
    selected, and the corner slot shown nearest Away's most advanced player touched."""
    tiles = sc.state.players
    away = [f for f in sc.screen().ids.pitch.figures if f.ref.team is Team.AWAY and not f.goalkeeper]
    front = min(away, key=lambda f: f.cell[0])
    for f in sorted(away, key=lambda f: (-tiles[f.ref].tile.pass_ruler, f.ref.number)):
        tap_figure(sc, f.ref)
        yield "settle"
        slots = {tuple(c) for c in sc.screen().ids.pitch.reach}
        if slots:
            tap_shown(sc, min(slots, key=lambda c: abs(c[1] - front.cell[1])))
            yield "settle"
            return f.ref
    raise AssertionError("no corner slot shown for any Away player")


def play_full_time(sc):
    """First to two goals (chosen in setup): Home scores, Away scores, Home scores: full time."""
    yield from setup(sc, **{"Time limit (minutes)": "None", "Goal limit": "2"})
    yield from line_ups(sc)
    yield from kick_off_pass(sc)
    yield from attack(sc, Team.HOME)
    yield from line_ups(sc)
    yield from kick_off_pass(sc)
    yield from attack(sc, Team.AWAY)
    assert sc.state.score == {Team.HOME: 1, Team.AWAY: 1}, (sc.state.score, error(sc))
    yield from line_ups(sc)
    yield from kick_off_pass(sc)
    yield from attack(sc, Team.HOME)
    s = sc.state
    assert s.phase.value == "over" and s.result.winner is Team.HOME, (s.phase, error(sc))
    sc.screenshot("futboard_full_time")
