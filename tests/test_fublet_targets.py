"""Where the ball or a figure may go in Fublet (companion/fublet/targets.py), and a refused
touch said in a coach's words: the targets are exactly what the rules take, over the states
of the shipped whole match, and the words say what was asked, why not and what is taken."""

from __future__ import annotations

from pathlib import Path

import pytest
from fublet_kit import A, H, lineup, new_match, pct, to_kick_off

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.fublet import commands as c
from companion.fublet import targets as ft
from companion.fublet.components import Action
from companion.fublet.model import Phase, RestartKind
from companion.fublet.rules import FubletRules
from companion.jsonl import read_file
from companion.teams import Team

RULES = FubletRules()
MATCH = Path(__file__).parent / "data" / "fublet_full_match.jsonl"


def states():
    """Every state of the shipped whole match (two halves, extra time, a shoot-out)."""
    s = RULES.initial_state()
    for e in read_file(MATCH).events:
        s = RULES.evolve(s, e)
        yield s


def takes(s, command) -> bool:
    try:
        RULES.decide(s, command)
    except RuleViolation:
        return False
    return True


@pytest.fixture(scope="module")
def declarations():
    out = [s for s in states() if not s.queue and ft.declarer(s) is not None]
    assert len(out) > 40 and any(s.phase is Phase.RESTART for s in out)
    return out[::9]


def test_every_ball_target_is_taken_by_the_rules_and_none_is_missed(declarations):
    b = declarations[0].components.board
    for s in declarations:
        who = ft.declarer(s)
        found = ft.ball_targets(s)
        for action in (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS):
            shown = {t.place for t in found if t.action is action}
            taken = {(col, row) for col in range(b.ps_cols) for row in range(b.ps_rows)
                     if takes(s, c.Declare(who, action, target_ps=(col, row)))}
            assert shown == taken, (s.phase, s.round, action)
        # Runs: the whole board asked, not only the squares near him.
        runs = {t.place for t in found if t.kind == "run"}
        every = {ms for ms in b.ms_squares() if ms != s.players[who].ms
                 and takes(s, c.Declare(who, Action.KEEP_AND_RUN, target_ms=ms))}
        assert runs == every, (s.phase, s.round)


def test_what_a_place_means_is_said_by_its_action_and_distance():
    m = new_match()
    to_kick_off(m)
    m.submit(c.KickOff(A(8)))
    found = ft.ball_targets(m.state)
    kinds = {t.kind for t in found}
    assert {"short_pass", "long_pass", "run"} <= kinds and "cross" not in kinds
    short = next(t for t in found if t.kind == "short_pass")
    assert short.words.startswith("short pass, ") and short.words.endswith(" PS") and short.unit == "PS"
    assert len(short.cells(m.state)) == 4   # a PS is drawn as its four MS
    assert all(t.command.player == A(8) for t in found)


def test_a_refused_pass_says_what_was_asked_why_not_and_what_is_taken():
    m = new_match()
    to_kick_off(m)
    m.submit(c.KickOff(A(8)))
    s = m.state
    start = ft.start_ps(s, A(8))
    far = next(t.place for t in ft.ball_targets(s, Action.LONG_PASS))
    shorts = ft.ball_targets(s, Action.SHORT_PASS)
    text = ft.refusal(s, c.Declare(A(8), Action.SHORT_PASS, target_ps=far), shorts)
    from companion.board import grid_distance
    n = grid_distance(start, far)
    assert text.startswith(f"Short Pass by away#8 to that PS ({n} PS away): not possible, a short pass travels 1 "
                           f"to 6 PS; this one is {n}.")
    assert "Touch a highlighted PS (short pass)" in text
    assert text.endswith("to reach that PS declare long pass.")


def test_the_kick_off_goes_to_a_teammate_in_the_midfield_zone_and_says_why_when_none_may():
    m = new_match()
    to_kick_off(m)
    receivers = {t.command.player for t in ft.kick_off_targets(m.state)}
    assert receivers and all(r.team is Team.AWAY for r in receivers)
    for r in receivers:
        assert takes(m.state, c.KickOff(r))
    for p in m.state.players.values():
        if p.on_pitch and p.ref.team is Team.AWAY and p.ref not in receivers:
            assert not takes(m.state, c.KickOff(p.ref))
    assert ft.kick_off_problem(m.state) is None
    # Home #9 steps into the other half: nobody may receive it, and the reason is the line-up's.
    m.submit(PlaceFigure(H(9), square=(30, 12)))
    assert ft.kick_off_targets(m.state) == ()
    assert "own half" in ft.kick_off_problem(m.state)


def test_a_penalty_kick_has_its_goal_line_targets_and_takes_no_tokens():
    from test_fublet_rulings import _penalty
    m = _penalty((5, 20))
    s = m.state
    m.submit(c.Move(A(9), (5, 16)))
    s = m.state
    assert ft.penalty_kick(s)
    found = ft.ball_targets(s)
    assert found and {t.kind for t in found} == {"shot"}
    assert all(t.command.shot is None for t in found)
    m.submit(found[0].command)
    assert m.state.declaration is not None and m.state.declaration.penalty_kick


def test_placements_before_a_kick_off_keep_to_the_own_half_and_a_free_kicks_defenders_away():
    m = new_match()
    to_kick_off(m)
    shown = {t.place for t in ft.figure_targets(m.state, H(7))}
    b = m.state.components.board
    assert shown and all(b.ms_in("half_low", ms) for ms in shown)
    text = ft.refusal(m.state, PlaceFigure(H(7), square=(40, 10)), ft.figure_targets(m.state, H(7)))
    assert "at kick-off every player stands in his own half" in text


def test_a_movement_next_to_the_ball_carrier_is_a_tackle_target():
    m = new_match()
    to_kick_off(m)
    m.submit(c.KickOff(A(8)))
    h11 = m.state.players[H(11)].ms
    run = min((t for t in ft.ball_targets(m.state, Action.KEEP_AND_RUN)),
              key=lambda t: max(abs(t.place[0] - h11[0]), abs(t.place[1] - h11[1])))
    m.submit(run.command)
    assert m.state.phase is Phase.MOVEMENT
    carrier = m.state.players[A(8)].ms
    found = {ref: ft.figure_targets(m.state, ref) for ref in (H(n) for n in range(2, 12))}
    assert all(takes(m.state, t.command) for ts in found.values() for t in ts)
    tackles = [t for ts in found.values() for t in ts if t.kind == "tackle"]
    assert tackles, "no Home player is shown a tackle next to the carrier"
    assert all(max(abs(t.place[0] - carrier[0]), abs(t.place[1] - carrier[1])) == 1 and t.command.engage
               for t in tackles)
    assert {t.command.tackle for t in tackles} <= {"tackle", "sliding_tackle"}


def test_a_transition_round_the_rules_cannot_start_names_the_nearest_known_figure():
    from fublet_kit import pass_phase, scatter
    m = new_match()
    to_kick_off(m)
    m.submit(c.KickOff(A(8)))
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    m.submit(PlaceFigure(H(2), square=None, correction=True))   # Home #2's place no longer known
    pct(m, Team.AWAY, 95)                                        # the pass goes astray: PS (9, 7)
    scatter(m, 3)
    pass_phase(m)
    pass_phase(m)
    s = m.state
    assert s.phase is Phase.MOVEMENT and s.pace == 0 and s.ball.ps == (9, 7)   # the coach must say who
    who, far = ft.nearest_to_ball(s)
    b = s.components.board
    assert far == min(b.ms_to_ps_distance(p.ms, s.ball.ps) for p in s.players.values()
                      if p.on_pitch and p.ms is not None)
    assert all(b.ms_to_ps_distance(s.players[r].ms, s.ball.ps) == far for r in who)
    assert ft.reach_distance(s, who) == far
    m.submit(c.ReachBall(who, max(1, far)))
    assert m.state.pace == max(1, far)
