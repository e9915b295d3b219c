"""The one decide every game shares (companion/ruleset.py GameRules): the same steps, in the
same order, refusing with the game's own rulebook sections."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.commands import Choose
from companion.errors import RuleViolation
from companion.ruleset import Command, GameRules

import fublet_kit
import football_leader_kit
import fussball_liga_kit
import futboard_kit

KITS = {"fublet": fublet_kit, "football_leader": football_leader_kit, "futboard": futboard_kit,
        "fussball_liga": fussball_liga_kit}


class Stranger(Command):
    """A command no game knows."""

    __slots__ = ()


def created(game: str):
    return KITS[game].new_match()


@pytest.mark.parametrize("game", KITS)
def test_every_game_decides_through_the_shared_decide(game):
    ruleset = created(game).ruleset
    assert isinstance(ruleset, GameRules)
    assert "decide" not in type(ruleset).__dict__  # a game declares what differs, not the steps


@pytest.mark.parametrize("game", KITS)
def test_a_command_the_game_does_not_know_is_refused_by_name(game):
    m = created(game)
    with pytest.raises(RuleViolation, match=f"Stranger is not a {m.ruleset.title} command"):
        m.ruleset.decide(m.state, Stranger())


@pytest.mark.parametrize("game", KITS)
def test_before_the_match_is_created_only_the_create_command_is_taken(game):
    ruleset = created(game).ruleset
    with pytest.raises(RuleViolation, match=f"^{ruleset.title} rulebook, {ruleset.setup_section}: create the match "
                                            "first"):
        ruleset.decide(ruleset.initial_state(), Choose("c1", "yes"))


@pytest.mark.parametrize("game", KITS)
def test_once_the_match_is_over_nothing_is_taken_not_even_a_new_create_command(game):
    m = created(game)
    over = replace(m.state, phase=m.ruleset.over_phase)
    create = m.events[0].payload  # the MatchCreated payload holds what CreateMatch said
    command = m.ruleset.create_command(**{f: getattr(create, f) for f in m.ruleset.create_command.__dataclass_fields__})
    for cmd in (command, Choose("c1", "yes")):
        with pytest.raises(RuleViolation, match=f"^{m.ruleset.title} rulebook, {m.ruleset.ending_section}: the match "
                                                "is over; nothing more can be recorded"):
            m.ruleset.decide(over, cmd)


@pytest.mark.parametrize("game", KITS)
def test_a_refused_command_changes_nothing(game):
    m = created(game)
    before, events = m.state, m.events
    with pytest.raises(RuleViolation):
        m.submit(Choose("c999", "yes"))
    assert m.state is before and m.events == events
