"""The rules say what can be done now (``Ruleset.open_actions``), and they agree with the checks
that refuse: whole matches played by the auto-drivers, with the commands they try that the
rules refuse, check at every step that

* every command the rules accept was open (its kind and side among the open actions), and
* every open action whose command the rules can fill in alone (end the turn, call a goal
  kick, confirm a set-up...) is accepted, so it is never refused for being unavailable.
"""

from __future__ import annotations

import dataclasses

import pytest

from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.errors import RuleViolation
from companion.ruleset import OpenAction
from companion.teams import Team

IGNORED = (SubmitRoll, Choose, PlaceFigure)  # answers to pending requests and the camera's sightings


def _team_of(cmd, state) -> Team | None:
    if getattr(cmd, "team", None) is not None:
        return cmd.team
    defenders = getattr(cmd, "defenders", None)  # an offside call: the defending side's
    player = (getattr(cmd, "player", None) or getattr(cmd, "kicker", None) or getattr(cmd, "defender", None)
              or getattr(cmd, "off", None) or getattr(cmd, "principal", None)
              or (defenders[0] if defenders else None))
    if player is not None:
        return player.team
    ball = getattr(state, "ball", None)
    carrier = getattr(ball, "carrier", ball)  # Fublet's ball has a carrier; Football Leader's ball is one
    return getattr(carrier, "team", None)


def _filled(action: OpenAction):
    """The command for an open action whose arguments the rules know, or None."""
    fields = {f.name for f in dataclasses.fields(action.command)}
    required = {f.name for f in dataclasses.fields(action.command)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    known = {k: v for k, v in action.args if k in fields and v is not None}
    return action.command(**known) if required <= set(known) else None


class Watch:
    """Wraps a match's submit: before each command, checks it against the open actions."""

    def __init__(self, match) -> None:
        self.match = match
        self.accepted: dict[str, int] = {}
        self.filled = 0
        self._submit = match.submit
        match.submit = self.submit

    def submit(self, cmd, *args, **kwargs):
        m = self.match
        state = m.state
        actions = m.ruleset.open_actions(state)
        self._check_filled(state, actions)
        events = self._submit(cmd, *args, **kwargs)  # raises when refused: nothing to check then
        if not isinstance(cmd, IGNORED) and state.created:  # creating the match is no open action
            team = _team_of(cmd, state)
            kinds = {(a.command, a.team) for a in actions}
            assert (type(cmd), team) in kinds or (type(cmd), None) in kinds, (
                f"accepted but not open: {repr(cmd)[:300]} by {team}; open: {actions!r}; phase {state.phase}")
            self.accepted[type(cmd).__name__] = self.accepted.get(type(cmd).__name__, 0) + 1
        return events

    def _check_filled(self, state, actions) -> None:
        for action in actions:
            cmd = _filled(action)
            if cmd is None:
                continue
            try:
                self.match.ruleset.decide(state, cmd)
            except RuleViolation as exc:
                raise AssertionError(f"open but refused: {action!r} -> {exc}") from None
            self.filled += 1


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_football_leader_open_actions_agree_with_the_rules(seed):
    from benchmarks.football_leader_driver import AutoDriver

    driver = AutoDriver.new(seed=seed)
    watch = Watch(driver.match)
    driver.play()  # a whole match, with its shoot-out when it comes to one
    assert driver.over
    assert {"Move", "Pass", "EndTurn", "ConfirmSetUp"} <= set(watch.accepted), watch.accepted
    assert watch.filled > 50


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fublet_open_actions_agree_with_the_rules(seed):
    from benchmarks.driver import AutoDriver

    driver = AutoDriver.new(seed=seed)
    watch = Watch(driver.match)
    driver.play()  # a whole match
    assert driver.over
    assert {"Declare", "Move", "PassTurn", "ChooseBoard", "KickOff"} <= set(watch.accepted), watch.accepted
    assert watch.filled > 50


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_futboard_open_actions_agree_with_the_rules(seed):
    from benchmarks.futboard_driver import FutboardDriver as AutoDriver

    driver = AutoDriver.new(seed=seed)
    watch = Watch(driver.match)
    driver.play()  # a whole match
    assert driver.over
    assert {"Pass", "Move", "EndTurn"} <= set(watch.accepted), watch.accepted
    assert watch.filled > 50


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_fussball_liga_open_actions_agree_with_the_rules(seed):
    from benchmarks.fussball_liga_driver import LigaDriver

    driver = LigaDriver.new(seed=seed)
    watch = Watch(driver.match)
    driver.play()  # a whole match
    assert driver.over
    assert {"Kick", "Move", "PassTurn"} <= set(watch.accepted), watch.accepted
    assert watch.filled > 50


def test_open_actions_are_empty_before_the_match_and_after_it():
    from benchmarks.football_leader_driver import AutoDriver

    driver = AutoDriver.new(seed=1)
    ruleset = driver.match.ruleset
    assert ruleset.open_actions(ruleset.initial_state()) == ()
    over = dataclasses.replace(driver.match.state, phase=ruleset.over_phase)
    assert ruleset.open_actions(over) == ()


def test_an_open_action_reads_like_code():
    from companion.football_leader import commands as c

    action = OpenAction("end_turn", Team.HOME, c.EndTurn, (("team", Team.HOME),))
    assert repr(action) == "OpenAction('end_turn', Team.HOME, EndTurn, team=Team.HOME)"
    assert action.arg("team") is Team.HOME and action.arg("card") is None
