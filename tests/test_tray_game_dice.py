"""The dice tray with every game: each game's convention for the reference tray's wiring
gives each coach the dice that game's requests ask for, and the app picks the convention of
the match in play (or the table's own dice.json)."""

from __future__ import annotations

import pytest

from companion.dice import DieKind
from companion.games import GAMES
from companion.teams import Team
from firmware_bridge.owners import GAME_DICE, DiceOwners
from ui.controller import Controller

KINDS = {"fublet": DieKind.D10, "football_leader": DieKind.D12, "futboard": DieKind.D12,
         "fussball_liga": DieKind.D6}


def test_every_game_has_a_convention():
    assert set(GAME_DICE) == set(GAMES) == set(KINDS)


@pytest.mark.parametrize("game", sorted(KINDS))
def test_a_coachs_die_is_his_and_of_the_games_kind(game):
    owners = DiceOwners.for_game(game)
    die = owners.die("TL-0001", "home-black", KINDS[game], "black")
    assert die.owner is Team.HOME and die.kind is KINDS[game] and die.colour == "black"
    assert owners.die("TL-0001", "away-black", KINDS[game]).owner is Team.AWAY
    assert owners.check_tray("TL-0001", {"home-black": KINDS[game]}) == []


def test_football_leaders_black_die_is_named_black():
    owners = DiceOwners.for_game("football_leader")
    assert owners.die("TL-0001", "away-white", DieKind.D12).colour == "white"
    assert owners.die("TL-0001", "away-black", DieKind.D12).colour == "black"


def test_a_tray_of_the_wrong_dice_is_reported_not_guessed():
    problems = DiceOwners.for_game("fussball_liga").check_tray("TL-0001", {"home-black": DieKind.D10})
    assert problems and "d6" in problems[0] and "d10" in problems[0]


def test_the_app_takes_the_games_convention_or_the_tables_own_file(tmp_path):
    from companion.futboard import commands as fc
    from companion.futboard.components import load_components, shipped_team

    ctl = Controller(threaded=False, data_dir=tmp_path)
    assert ctl._dice_owners().name == "the fublet dice convention"
    ctl.new_match(fc.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(),
                                 fc.Options(time_limit_min=10)), game="futboard")
    assert ctl._dice_owners().name == "the futboard dice convention"
    (tmp_path / "dice.json").write_text('{"version": 1, "dice": {}, "trays": {"TL-A": "home"}}', encoding="utf-8")
    assert ctl._dice_owners().trays == {"TL-A": Team.HOME}
    (tmp_path / "dice.json").write_text("{not json", encoding="utf-8")
    assert ctl._dice_owners().name == "the futboard dice convention"
    assert any("dice.json" in line and "not valid JSON" in line for line in ctl._log)
    ctl.close()
