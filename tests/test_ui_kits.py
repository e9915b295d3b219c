"""Team colours from the box: readable text on each shirt, and two sides that never look
alike on the pitch (ui/theme.py ``kits``, ui/kits.py)."""

from __future__ import annotations

import json

from companion.teams import Team
from ui import theme
from ui.kits import match_kits


def test_text_on_a_shirt_is_black_or_white_by_luminance():
    assert theme.text_on(theme.rgba_of("#ffffff")) == theme.BLACK
    assert theme.text_on(theme.rgba_of("#ffe000")) == theme.BLACK      # yellow: black numbers
    assert theme.text_on(theme.rgba_of("#0a1f5c")) == theme.TEXT       # navy: white numbers
    assert theme.text_on(theme.rgba_of("#c81e1e")) == theme.TEXT
    for shirt in ("#ffffff", "#ffe000", "#0a1f5c", "#c81e1e", "#2ecc40", "#808080"):
        kit = theme.Kit.of(theme.rgba_of(shirt))
        assert theme.contrast(kit.shirt, kit.text) >= 4.5, shirt     # WCAG AA for normal text


def test_no_colours_entered_gives_the_tablets_blue_and_red():
    kits = theme.kits()
    assert kits[Team.HOME].shirt == theme.HOME and kits[Team.AWAY].shirt == theme.AWAY


def test_a_clash_puts_the_away_side_in_its_second_colour():
    kits = theme.kits(("#c81e1e", "#ffffff"), ("#d02020", "#101010"))
    assert kits[Team.AWAY].shirt == theme.rgba_of("#101010") and "clash" in kits[Team.AWAY].note
    assert theme.distance(kits[Team.HOME].shirt, kits[Team.AWAY].shirt) >= theme.CLASH


def test_a_clash_with_no_second_colour_takes_the_spare_shirt_that_differs_most():
    kits = theme.kits(("#ffffff",), ("#fafafa",))
    away = kits[Team.AWAY]
    assert theme.distance(kits[Team.HOME].shirt, away.shirt) >= theme.CLASH and away.note
    assert theme.contrast(away.shirt, away.text) >= 4.5


def test_a_trim_too_like_the_shirt_is_not_the_ring():
    kit = theme.Kit.of(theme.rgba_of("#0a1f5c"), theme.rgba_of("#0b205d"))
    assert kit.ring == kit.text
    kit = theme.Kit.of(theme.rgba_of("#0a1f5c"), theme.rgba_of("#ffd700"))
    assert kit.ring == theme.rgba_of("#ffd700")


def test_a_matchs_kits_come_from_the_tables_box_by_team_name(tmp_path):
    (tmp_path / "colours.json").write_text(json.dumps({"teams": {"rovers": ["#ffe000", "#000000"]}}))
    kits = match_kits("fublet", tmp_path, {"teams": {"home": "Touchline Rovers", "away": "Harbour Athletic"}})
    assert kits[Team.HOME].shirt == theme.rgba_of("#ffe000") and kits[Team.HOME].text == theme.BLACK
    assert kits[Team.AWAY] == theme.DEFAULT_KITS[Team.AWAY]
    (tmp_path / "colours.json").write_text("{not json")
    assert match_kits("fublet", tmp_path, {"teams": {"home": "Touchline Rovers"}}) == theme.kits()
