"""Line-ups worked out without a window (ui/lineups.py): every preset puts each figure of
each game's side on a square of its own half that no other figure takes, and the rules
accept every placement."""

from __future__ import annotations

import pytest

from companion.events import Source
from companion.games import ruleset_for
from companion.journal import Journal
from companion.match import Match
from companion.teams import Team
from ui import lineups as L
from ui.games import face_for


def new_match(game: str, tmp_path):
    face = face_for(game)
    home, away = face.default_pair()
    options = {o.key: ("" if o.text else o.default) for o in face.options}
    match = Match(ruleset_for(game), Journal.create(tmp_path / f"{game}-1.sqlite", game))
    match.submit(face.create(home, away, options, None), Source.MANUAL)
    return face, match


@pytest.mark.parametrize("game", ["fublet", "futboard", "fussball_liga"])
@pytest.mark.parametrize("preset", L.PRESETS[10])
def test_every_preset_is_accepted_by_the_rules(game, preset, tmp_path):
    face, match = new_match(game, tmp_path)
    geometry = face.geometry(match.ruleset.board(match.state))
    for team in Team:
        target = L.formation(match.state, geometry, team, preset)
        assert len(target) == 11
        for command in L.placements(match.state, face.figures(match.state), geometry, target):
            match.submit(command, Source.MANUAL)
    figures = face.figures(match.state)
    assert len(figures) == 22 and len({f.cell for f in figures}) == 22
    length, _ = L.field_size(geometry)
    for f in figures:
        x, _ = f.at if f.at is not None else geometry.point(f.cell)
        assert (x <= length / 2) == (f.ref.team is Team.HOME), f   # each side in its own half
    match.close()


def test_the_last_matchs_line_up_comes_back_by_shirt_number(tmp_path):
    face, match = new_match("fublet", tmp_path)
    geometry = face.geometry(match.ruleset.board(match.state))
    for team in Team:
        for command in L.placements(match.state, (), geometry, L.formation(match.state, geometry, team, "5-3-2")):
            match.submit(command, Source.MANUAL)
    placed = {f.ref: f.cell for f in face.figures(match.state)}
    name = match.state.home.name
    match.close()
    shape = L.last_lineup(tmp_path.glob("*.sqlite"), "fublet", name, face)
    assert shape is not None and len(shape) == 11
    again = L.as_last(match.state, geometry, Team.HOME, shape)
    assert {ref: geometry.cell_at(*geometry.to_board(*xy)) for ref, xy in again.items()} == \
        {ref: cell for ref, cell in placed.items() if ref.team is Team.HOME}


def test_presets_for_a_street_side_and_odd_sizes():
    assert L.presets(6) == ("2-2-2", "3-2-1", "2-3-1")
    assert L.presets(8) == ("4-2-2",)
    assert L.shape("4-4-2")[0] == (L.FIRST_LINE, 0.125) and len(L.shape("4-4-2")) == 10
