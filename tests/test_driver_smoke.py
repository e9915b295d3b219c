"""The benchmark's auto-driver plays Fublet without an unexpected refusal or error.

An ``UnexpectedRefusal`` here means the rules refused a command the driver had checked to
be legal (a roll of the requested dice, a pass of the turn by the coach whose turn it is,
a short pass in range...): look at the message, it names the command, the reason and the
state.
"""

from __future__ import annotations

import pytest

from benchmarks.driver import AutoDriver, busy_components, long_match
from companion.fublet import commands as c
from companion.fublet.rules import FubletRules
from companion.match import Match


@pytest.mark.parametrize("seed, positions, slow", [(1, True, False), (2, False, False), (3, True, True)])
def test_driver_plays_300_commands(seed, positions, slow):
    driver = AutoDriver.new(seed=seed, positions=positions, slow=slow)
    played = driver.play(commands=300)
    assert played == 300 or driver.over
    m = driver.match
    assert m.last_seq > played
    # Whatever it played folds back to the same state.
    assert Match.from_events(FubletRules(), m.events).state == m.state
    # Only speculative commands (a move, a call, a risky declaration) may be refused.
    speculative = (c.Move, c.TacticalMove, c.ZoneMove, c.CallOffside, c.CallDeflection, c.CallSubstitution,
                   c.SetWall, c.Volley, c.Declare)
    assert all(isinstance(r.command, speculative) for r in driver.refusals)


def test_driver_is_deterministic():
    a, b = AutoDriver.new(seed=5), AutoDriver.new(seed=5)
    a.play(commands=120)
    b.play(commands=120)
    assert [e.payload for e in a.match.events] == [e.payload for e in b.match.events]


def test_long_match_for_the_benchmark():
    driver = long_match(1500)
    assert driver.match.last_seq >= 1500
    assert driver.match.state.components == busy_components()
