"""Where each game's rules have its figures, in board millimetres (``Ruleset.standing``): what the
camera checks the ids it reads against. Every figure the rules place on the board has the
rectangle of its own square or space, and a sighting anywhere in it changes nothing."""

from __future__ import annotations

import pytest

import football_leader_kit as fl
import fublet_kit as fb
import fussball_liga_kit as liga
import futboard_kit as fut
from companion.sightings import Sighting, Standing
from companion.teams import PlayerRef, Team


def fublet_match():
    m = fb.fixed_match()
    fb.to_first_round(m)
    return m


def football_leader_match():
    m = fl.new_match(home=fl.plain_team("Home"), away=fl.plain_team("Away"))
    fl.to_kick_off(m)
    return m


def on_board(game, state):
    """The figures the game's own model has on the board."""
    players = state.players.values()
    if game == "futboard":
        return {p.ref for p in players if p.on_field and p.space is not None}
    if game == "fussball_liga":
        return {p.ref for p in players if p.placed}
    if game == "fublet":
        return {p.ref for p in players if p.on_pitch and p.ms is not None}
    return {p.ref for p in players if p.on_pitch and p.space is not None}


CASES = [("fublet", fublet_match), ("futboard", fut.kicked_off), ("football_leader", football_leader_match),
         ("fussball_liga", liga.kicked_off)]


@pytest.mark.parametrize("game,make", CASES, ids=[c[0] for c in CASES])
def test_every_placed_figure_stands_in_its_own_square_and_nowhere_else(game, make):
    m = make()
    rules, state = m.ruleset, m.state
    standing = rules.standing(state)
    assert {s.player for s in standing} == on_board(game, state) and len(standing) >= 11
    for s in standing:
        assert isinstance(s, Standing) and s.x1_mm > s.x0_mm and s.y1_mm > s.y0_mm
        x, y = s.centre_mm
        # anywhere inside its rectangle (1 mm from a corner too) the rules see it where it is
        for px, py in ((x, y), (s.x0_mm + 1, s.y0_mm + 1), (s.x1_mm - 1, s.y1_mm - 1)):
            assert s.contains(px, py)
            assert rules.command_for(state, Sighting(s.player, px, py, 0.0)) is None, (s, px, py)
        # just outside it, the figure would have moved
        assert not s.contains(s.x1_mm + 0.5, y) and s.contains(s.x1_mm + 0.5, y, margin_mm=1.0)


@pytest.mark.parametrize("game,make", CASES, ids=[c[0] for c in CASES])
def test_before_the_match_is_created_nothing_stands(game, make):
    rules = make().ruleset
    assert rules.standing(rules.initial_state()) == ()


def test_standing_reads_like_code():
    s = Standing(PlayerRef(Team.HOME, 7), 0.0, 20.0, 20.0, 40.0)
    assert repr(s) == f"Standing({PlayerRef(Team.HOME, 7)!r}, 0, 20, 20, 40)" and s.centre_mm == (10.0, 30.0)
