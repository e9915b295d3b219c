"""Options and commands hold the type they say: a wrong type is converted where unambiguous,
else refused at construction naming the field (companion/typed.py)."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from companion.errors import TouchlineError
from companion.ruleset import Command
from companion.teams import PlayerRef, Team
from companion.typed import FieldTypeError

GAMES = ("fublet", "football_leader", "futboard", "fussball_liga")
H9 = PlayerRef(Team.HOME, 9)


def test_the_egg_timer_given_as_text_is_the_egg_timer():
    from companion.fussball_liga.model import Options, PhaseLimit
    assert Options(phase_limit="egg_timer").phase_limit is PhaseLimit.EGG_TIMER
    assert Options(phase_limit="CHESS_CLOCK").phase_limit is PhaseLimit.CHESS_CLOCK
    assert Options(phase_seconds=30).phase_seconds == 30.0
    assert type(Options(phase_seconds=30).phase_seconds) is float


@pytest.mark.parametrize("game, field, value, where", [
    ("fussball_liga", "phase_limit", "sand_timer", "phase_limit"),
    ("fussball_liga", "half_minutes", "45", "half_minutes"),
    ("fussball_liga", "extra_time", 1, "extra_time"),
    ("fussball_liga", "phase_seconds", True, "phase_seconds"),
    ("fussball_liga", "suspended", ("home#3",), "suspended[0]"),
    ("fublet", "championship", "yes", "championship"),
    ("fublet", "percentile", {"tens": "black"}, "percentile"),
    ("football_leader", "extra_time", None, "extra_time"),
    ("futboard", "variant", "beach", "variant"),
    ("futboard", "kick_off", "visitors", "kick_off"),
    ("futboard", "time_limit_min", 10.5, "time_limit_min"),
])
def test_every_game_refuses_an_option_of_the_wrong_type_naming_it(game, field, value, where):
    Options = importlib.import_module(f"companion.{game}.model").Options
    with pytest.raises(FieldTypeError) as err:
        Options(**{field: value})
    assert err.value.field == where
    assert f"Options.{where}:" in str(err.value)
    assert isinstance(err.value, TouchlineError) and isinstance(err.value, TypeError)


def test_a_command_converts_lists_and_enum_values_and_refuses_the_rest():
    from companion.fublet import commands as c
    from companion.fublet.components import Action
    move = c.Move(H9, [3, 4])
    assert move.to == (3, 4) and type(move.to) is tuple
    assert c.Declare(H9, "short_pass", target_ps=(5, 5)).action is Action.SHORT_PASS
    with pytest.raises(FieldTypeError, match=r"Move\.player: expected PlayerRef, got 'home#9'"):
        c.Move("home#9", (3, 4))
    with pytest.raises(FieldTypeError, match=r"Move\.to\[1\]: expected a whole number"):
        c.Move(H9, (3, "4"))
    with pytest.raises(FieldTypeError, match=r"Declare\.action"):
        c.Declare(H9, "header")
    with pytest.raises(FieldTypeError, match=r"Declare\.opponents\[1\]"):
        c.Declare(H9, Action.SPEED_DRIBBLING, target_ms=(9, 9), opponents=(H9, 7))


def _commands():
    for game in GAMES:
        importlib.import_module(f"companion.{game}.commands")
    seen, todo = [], list(Command.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if dataclasses.is_dataclass(cls) and cls.__module__.startswith("companion."):
            seen.append(cls)
    return seen


def test_every_command_of_every_game_checks_its_fields():
    commands = _commands()
    assert len(commands) > 50
    checked = 0
    for cls in commands:
        for f in dataclasses.fields(cls):
            if f.type in ("int", "PlayerRef", "Team", "bool"):
                kwargs = {g.name: object() for g in dataclasses.fields(cls)
                          if g.default is dataclasses.MISSING and g.default_factory is dataclasses.MISSING}
                kwargs[f.name] = object()
                with pytest.raises(FieldTypeError):
                    cls(**kwargs)
                checked += 1
                break
    assert checked > 40
