"""Board geometry: millimetres to squares, distances, scatter directions, facing."""

from __future__ import annotations

import pytest

from companion.board import Area, GridBoard, MmRect, Rect, grid_distance, is_behind, scatter_step

# 24 x 16 pass squares of 2 x 2 movement squares on a 960 x 640 mm pitch: MS are 20 x 20 mm.
BOARD = GridBoard(
    name="test", length_mm=960.0, width_mm=640.0, ps_cols=24, ps_rows=16, ms_per_ps=2,
    areas={
        "box_low": Area("PS", (Rect(0, 3, 3, 12),)),
        "spot": Area("MS", (Rect(5, 15, 5, 16),)),
        "bench_home": Area("mm", mm=(MmRect(100.0, -80.0, 400.0, -10.0),)),
    },
)


def test_sizes():
    assert (BOARD.ms_cols, BOARD.ms_rows) == (48, 32)
    assert BOARD.ms_size_mm == (20.0, 20.0)
    assert BOARD.ps_size_mm == (40.0, 40.0)


@pytest.mark.parametrize("x, y, ms, ps", [
    (0.0, 0.0, (0, 0), (0, 0)),               # the corner at the origin
    (19.99, 19.99, (0, 0), (0, 0)),
    (20.0, 0.0, (1, 0), (0, 0)),              # a line belongs to the square after it
    (40.0, 40.0, (2, 2), (1, 1)),
    (479.0, 321.0, (23, 16), (11, 8)),
    (959.99, 639.99, (47, 31), (23, 15)),
    (960.0, 640.0, (47, 31), (23, 15)),       # the far lines count in, in the last square
    (960.0, 0.0, (47, 0), (23, 0)),
    (0.0, 640.0, (0, 31), (0, 15)),
])
def test_mm_to_squares(x, y, ms, ps):
    assert BOARD.mm_to_ms(x, y) == ms
    assert BOARD.mm_to_ps(x, y) == ps
    assert BOARD.on_pitch(x, y)


@pytest.mark.parametrize("x, y", [
    (-0.01, 10.0), (10.0, -0.01), (960.01, 10.0), (10.0, 640.01), (-50.0, -50.0), (2000.0, 300.0),
])
def test_off_pitch_is_none(x, y):
    assert not BOARD.on_pitch(x, y)
    assert BOARD.mm_to_ms(x, y) is None
    assert BOARD.mm_to_ps(x, y) is None


def test_off_pitch_areas():
    assert BOARD.off_pitch_area(200.0, -40.0) == "bench_home"
    assert BOARD.off_pitch_area(50.0, -40.0) is None


@pytest.mark.parametrize("ms", [(0, 0), (47, 31), (23, 16), (10, 5)])
def test_square_centres_map_back(ms):
    assert BOARD.mm_to_ms(*BOARD.ms_center_mm(ms)) == ms


def test_ps_centres_and_cells():
    assert BOARD.ps_center_mm((0, 0)) == (20.0, 20.0)
    assert BOARD.mm_to_ps(*BOARD.ps_center_mm((23, 15))) == (23, 15)
    assert BOARD.ps_cells((1, 2)) == ((2, 4), (2, 5), (3, 4), (3, 5))
    assert {BOARD.ms_to_ps(c) for c in BOARD.ps_cells((7, 9))} == {(7, 9)}


@pytest.mark.parametrize("square, grid", [((48, 0), "ms"), ((0, 32), "ms"), ((-1, 0), "ms"), ((24, 0), "ps"),
                                          ((0, 16), "ps")])
def test_squares_off_the_grid_are_refused(square, grid):
    with pytest.raises(ValueError, match="off the"):
        (BOARD.check_ms if grid == "ms" else BOARD.check_ps)(square)
    with pytest.raises(ValueError):
        (BOARD.ms_center_mm if grid == "ms" else BOARD.ps_center_mm)(square)


@pytest.mark.parametrize("a, b, distance", [
    ((0, 0), (0, 0), 0),
    ((0, 0), (5, 0), 5),                      # straight: 1 each
    ((0, 0), (0, -3), 3),
    ((0, 0), (1, 1), 1),                      # diagonal steps count 1, 2, 1, 2...
    ((0, 0), (2, 2), 3),
    ((0, 0), (3, 3), 4),
    ((0, 0), (4, 4), 6),                      # rulebook: 4 diagonal steps count 6
    ((0, 0), (6, 3), 7),                      # rulebook: 3 straight plus 3 diagonal count 7
    ((0, 0), (3, 6), 7),
    ((10, 10), (4, 7), 7),                    # any direction
    ((2, 9), (7, 3), 6 + 5 // 2),
])
def test_grid_distance(a, b, distance):
    assert grid_distance(a, b) == distance
    assert grid_distance(b, a) == distance
    assert BOARD.ms_distance(a, b) == BOARD.ps_distance(a, b) == distance


def test_distance_to_reach_a_pass_square():
    assert BOARD.ms_to_ps_distance((2, 2), (1, 1)) == 0       # already inside
    assert BOARD.ms_to_ps_distance((0, 0), (1, 1)) == 3       # to (2, 2): two diagonal steps
    assert BOARD.ms_to_ps_distance((0, 4), (3, 2)) == 6       # straight to (6, 4)


# Face 1 points at the defended goal; then clockwise seen from above, with y up.
TOWARDS_HIGH_X = [(1, (1, 0)), (2, (1, -1)), (3, (0, -1)), (4, (-1, -1)), (5, (-1, 0)), (6, (-1, 1)),
                  (7, (0, 1)), (8, (1, 1))]


@pytest.mark.parametrize("face, step", TOWARDS_HIGH_X)
def test_scatter_towards_the_high_goal(face, step):
    assert scatter_step(face, towards_high_x=True) == step


@pytest.mark.parametrize("face, step", TOWARDS_HIGH_X)
def test_scatter_towards_the_low_goal_is_turned_half_round(face, step):
    assert scatter_step(face, towards_high_x=False) == (-step[0], -step[1])


def test_scatter_faces_are_all_eight_neighbours():
    assert {scatter_step(f, True) for f in range(1, 9)} == {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                                                            if (dx, dy) != (0, 0)}


@pytest.mark.parametrize("face", [0, 9, -1])
def test_scatter_face_out_of_range(face):
    with pytest.raises(ValueError, match="1..8"):
        scatter_step(face, True)


@pytest.mark.parametrize("end, facing, behind", [
    ((4, 5), 0, True),        # facing +x, one step back
    ((6, 5), 0, False),       # ahead
    ((5, 6), 0, False),       # exactly to the side counts as in front
    ((5, 4), 0, False),
    ((4, 9), 0, True),        # back and far to the side
    ((6, 5), 180, True),      # facing -x
    ((5, 4), 90, True),       # facing +y: lower y is behind
    ((5, 6), 90, False),
    ((4, 4), 45, True),       # facing the diagonal
    ((6, 4), 45, False),      # perpendicular to a diagonal facing
    ((5, 5), 0, False),       # not moving at all
])
def test_is_behind(end, facing, behind):
    assert is_behind((5, 5), end, facing) is behind


def test_areas():
    assert BOARD.ps_in("box_low", (3, 12)) and not BOARD.ps_in("box_low", (4, 12))
    assert BOARD.ms_in("box_low", (7, 25)) and not BOARD.ms_in("box_low", (8, 25))
    assert BOARD.ms_in("spot", (5, 16)) and BOARD.ps_in("spot", (2, 8)) and not BOARD.ps_in("spot", (3, 8))
    assert not BOARD.ps_in("bench_home", (0, 0))
    assert len(BOARD.area_squares("box_low")) == 4 * 10
    with pytest.raises(KeyError, match="no area 'nowhere'"):
        BOARD.area("nowhere")


@pytest.mark.parametrize("build, message", [
    (lambda: Rect(3, 0, 2, 0), "empty rectangle"),
    (lambda: MmRect(0.0, 0.0, 0.0, 5.0), "empty rectangle"),
    (lambda: Area("XX", (Rect(0, 0, 1, 1),)), "grid must be"),
    (lambda: Area("mm", (Rect(0, 0, 1, 1),)), "millimetres lists 'mm' rectangles only"),
    (lambda: Area("PS", mm=(MmRect(0.0, 0.0, 1.0, 1.0),)), "lists 'rects' only"),
    (lambda: GridBoard("b", 0.0, 10.0, 4, 4, 2), "positive length"),
    (lambda: GridBoard("b", 10.0, 10.0, 1, 4, 2), "at least 2 x 1"),
    (lambda: GridBoard("b", 10.0, 10.0, 4, 4, 2, {"a": Area("PS", (Rect(0, 0, 4, 0),))}), "outside the PS grid"),
])
def test_invalid_geometry_is_refused(build, message):
    with pytest.raises(ValueError, match=message):
        build()
