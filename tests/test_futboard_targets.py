"""Where the ball or a figure may go in Futboard (companion/futboard/targets.py), and a
refused touch in a coach's words: the targets are exactly what the rules take over the states
of the shipped whole match (the movement's shortcut, one space asked for the turn's checks,
included), and the words say what was asked, why not and what is taken."""

from __future__ import annotations

from pathlib import Path

import pytest
from futboard_kit import A, H, d12, fix, kicked_off, new_match

from companion.commands import PlaceFigure
from companion.errors import RuleViolation
from companion.futboard import commands as c
from companion.futboard import targets as ft
from companion.futboard.model import Phase
from companion.futboard.rules import FutboardRules
from companion.jsonl import read_file
from companion.teams import Team

RULES = FutboardRules()
MATCH = Path(__file__).parent / "data" / "futboard_full_match.jsonl"


def takes(s, command) -> bool:
    try:
        RULES.decide(s, command)
    except RuleViolation:
        return False
    return True


@pytest.fixture(scope="module")
def turns():
    s = RULES.initial_state()
    out = []
    for e in read_file(MATCH).events:
        s = RULES.evolve(s, e)
        if s.created and not s.queue and s.phase in (Phase.PLAY, Phase.PENALTY, Phase.CORNER, Phase.LINEUP):
            out.append(s)
    assert len(out) > 30
    return out[::12]


def test_the_targets_are_what_the_rules_take(turns):
    for s in turns:
        who = ft.kicker(s)
        if who is not None:
            found = ft.ball_targets(s)
            passes = {t.command.to for t in found if t.kind == "pass"}
            assert passes == {p.ref for p in s.players.values() if p.on_field and takes(s, c.Pass(who, p.ref))}
            assert any(t.kind == "kick" for t in found) == takes(s, c.Kick(who))
        if s.phase not in (Phase.PLAY, Phase.PENALTY):
            continue
        # Every square within six of a figure asked (a tile moves at most four).
        movers = sorted((p for p in s.players.values() if p.on_field and p.space is not None),
                        key=lambda p: (p.ref.team is not s.turn, p.ref != s.ball, p.ref.number))[:4]
        for p in movers:
            near = [sq for sq in s.components.pitch.board_squares()
                    if max(abs(sq[0] - p.space[0]), abs(sq[1] - p.space[1])) <= 6]
            shown = {t.place for t in ft.figure_targets(s, p.ref) if t.kind in ("move", "run", "take", "leave")}
            assert shown == {sq for sq in near if takes(s, c.Move(p.ref, sq))}, (s.phase, p.ref)


def test_the_player_with_the_ball_is_shown_his_passes_his_kick_and_his_runs():
    m = kicked_off(to=8)
    assert {"pass", "run"} <= {t.kind for t in ft.ball_targets(m.state)}
    assert all(t.command.player == H(8) for t in ft.ball_targets(m.state) if t.kind == "pass")
    fix(m, H(8), (14, 1))
    found = ft.ball_targets(m.state)
    kick = next(t for t in found if t.kind == "kick")
    assert kick.words.startswith("kick at goal (hits on 1-") and kick.command == c.Kick(H(8))
    assert any(t.kind == "run" for t in found)


def test_a_refused_pass_names_the_receivers_the_rules_take():
    m = kicked_off(to=8)
    s = m.state
    passes = tuple(t for t in ft.ball_targets(s) if t.kind == "pass")
    far = next(p.ref for p in s.players.values() if p.on_field and p.ref.team is Team.HOME and p.ref != H(8)
               and p.ref not in {t.command.to for t in passes})
    text = ft.refusal(s, c.Pass(H(8), far), passes)
    assert text.startswith(f"Pass from home#8 to {far}: not possible, ")
    assert "Passes go to #" in text and text.endswith("(highlighted).")


def test_before_the_kick_off_a_figure_goes_to_his_own_field_and_the_words_say_so():
    m = new_match()
    found = ft.figure_targets(m.state, H(7))
    p = m.state.components.pitch
    circle = set(p.centre_circle)   # Home kicks off: his player with the ball may stand in the circle
    assert found and all(t.place[0] < p.lines // 2 or t.place in circle for t in found)
    assert any(t.place[0] >= p.lines // 2 for t in found)
    text = ft.refusal(m.state, PlaceFigure(H(7), square=(15, 5)), found)
    assert "own field" in text and text.startswith("home#7 placed on that space: not possible, ")


def test_a_corner_shows_the_free_slots_to_the_corners_side_only():
    from companion.futboard import queries as q
    m = kicked_off(to=8)
    fix(m, H(8), (14, 1))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 3)
    d12(m, Team.AWAY, 3)
    s = m.state
    assert s.phase is Phase.CORNER
    slots = {t.place for t in ft.figure_targets(s, H(7))}
    assert slots and slots <= set(s.components.pitch.corners(q.attacked_end(Team.HOME)))
    assert all(takes(s, PlaceFigure(H(7), square=sq)) for sq in slots)
    assert ft.figure_targets(s, A(7)) == ()


def test_a_defender_is_shown_the_spaces_next_to_the_ball():
    m = kicked_off(to=8)
    m.submit(c.Move(H(8), (m.state.players[H(8)].space[0] + 1, m.state.players[H(8)].space[1])))
    m.submit(c.EndTurn(Team.HOME))
    s = m.state
    assert s.turn is Team.AWAY
    carrier = s.players[s.ball].space
    shown = [t for p in s.players.values() if p.on_field and p.ref.team is Team.AWAY
             for t in ft.figure_targets(s, p.ref) if t.kind == "take"]
    assert shown and all(max(abs(t.place[0] - carrier[0]), abs(t.place[1] - carrier[1])) == 1 for t in shown)
    assert all(takes(s, t.command) for t in shown)
