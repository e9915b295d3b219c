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
    scenario.press(f"#{runner.number} takes the ball from #{carrier.number}", startswith=True)
    yield "settle"
    scenario.screenshot("live_take")
    scenario.keypad(str(s.players[runner].tile.foul))
    yield "settle"
    s = scenario.state
    assert s.players[runner].yellow == 1 and s.turn is Team.AWAY, (s.players[runner], error(scenario))
    scenario.screenshot("live_card")
    scenario.log.append(f"booked {runner}")
