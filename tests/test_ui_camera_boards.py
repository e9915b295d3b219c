"""The demo camera and vision work with every game's board, not only Fublet's grid: vision
gets a GridBoard of the board's size, the demo table stands its figures on it, and the
rendered table calibrates from its corner markers."""

from __future__ import annotations

import pytest

from companion.board import GridBoard
from companion.football_leader.components import load_board as leader_board
from companion.fublet.components import load_board as fublet_board
from companion.fussball_liga.components import load_pitch as liga_pitch
from companion.futboard.components import load_pitch as futboard_pitch
from ui.camera import synthetic_setup, vision_board
from ui.demo_table import SHAPE, DemoTable, shape_for

BOARDS = {
    "fublet": fublet_board,
    "futboard": lambda: futboard_pitch().grid(),
    "football_leader": leader_board,
    "fussball_liga": liga_pitch,
}


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_vision_gets_a_grid_of_the_boards_size(game):
    board = BOARDS[game]()
    grid = vision_board(board)
    assert isinstance(grid, GridBoard)
    assert (grid.length_mm, grid.width_mm) == (board.length_mm, board.width_mm)
    assert grid.mm_to_ms(grid.length_mm / 2, grid.width_mm / 2) is not None
    if isinstance(board, GridBoard):
        assert grid is board


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_the_demo_shape_stands_on_every_board(game):
    grid = vision_board(BOARDS[game]())
    shape = shape_for(grid)
    assert set(shape) == set(SHAPE)
    assert len(set(shape.values())) == len(shape)      # no two figures on one square
    assert all(grid.is_ms(ms) for ms in shape.values())


@pytest.mark.parametrize("game", ["fussball_liga", "football_leader"])
def test_a_rendered_table_of_another_game_calibrates(game):
    grid = vision_board(BOARDS[game]())
    table = DemoTable(grid, size=(1280, 720))
    table.set_up(shape_for(grid))
    setup = synthetic_setup(table)
    assert setup is not None
