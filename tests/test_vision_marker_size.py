"""The markers' printed size measured, not assumed (issue 31 item 1): calibration measures the
caps it sees and stores their size; a reader with no size given or stored measures it on the
frame; a size given that the frame disagrees with is told in words, with the measured size
offered. Rendered tables whose caps carry 11 mm markers where the shipped sheet has 17."""

from __future__ import annotations

from dataclasses import replace

import pytest

from calibration.corners import calibrate_from_frame
from calibration.errors import CalibrationError
from calibration.store import Calibration
from vision.config import MarkerSet
from vision.detect import to_gray
from vision.locate import VisionSetup, read_frame
from vision.marker_size import MarkerSizes, disagreement
from vision.synth import compact_board, random_scene, render

BOARD = compact_board()
ELEVEN = MarkerSet(figure_marker_mm=11.0, cap_mm=14.0, ball_marker_mm=11.0, ball_token_mm=14.0)
SHIPPED = MarkerSet()


@pytest.fixture(scope="module")
def table():
    """An 11 mm table at 1280 x 720: the frame with the figures, and the empty board."""
    scene = random_scene(61, BOARD, ELEVEN, size=(1280, 720), hand=False, distortion=0.0, look_strength=0.5,
                         figures=10)
    image, truth = render(scene)
    empty, _ = render(replace(scene, figures=()))
    visible = {m for m, t in truth.items() if t.seen and m in ELEVEN.figure_ids}
    assert len(visible) >= 8
    return image, empty, visible


def placed(result) -> set[int]:
    return {s.marker for s in result.figures}


def test_calibration_measures_the_caps_and_the_reader_uses_what_it_stored(table):
    image, _, visible = table
    cal = calibrate_from_frame(image, BOARD, SHIPPED)   # told nothing: the shipped sheet's 17 mm
    sizes = cal.marker_sizes
    assert abs(sizes["figure_marker_mm"] - 11.0) <= 0.4 and sizes["caps_measured"] >= 5, sizes
    again = Calibration.from_json(cal.to_json())         # saved with the calibration
    assert again.marker_sizes == sizes
    setup = VisionSetup.from_calibration(again, BOARD, markers=SHIPPED, size_source="assumed")
    assert setup.size_source == "measured" and setup.markers.figure_marker_mm == sizes["figure_marker_mm"]
    result = read_frame(setup, to_gray(image))
    assert len(placed(result) & visible) >= 0.9 * len(visible)
    assert result.read_at is None  # nothing left to measure
    # the size given on purpose stands: the stored one does not override it
    given = VisionSetup.from_calibration(again, BOARD, markers=SHIPPED, size_source="given")
    assert given.markers.figure_marker_mm == 17.0


def test_with_no_size_stored_the_frame_is_measured_and_read_again(table):
    image, empty, visible = table
    cal = calibrate_from_frame(empty, BOARD, SHIPPED)    # an empty board: no cap to measure
    assert cal.marker_sizes == {}
    setup = VisionSetup.from_calibration(cal, BOARD, markers=SHIPPED, size_source="assumed")
    result = read_frame(setup, to_gray(image))
    assert len(placed(result) & visible) >= 0.9 * len(visible)
    assert abs(result.read_at.figure_mm - 11.0) <= 0.4
    assert any("the caps' markers measure" in w and "read at the measured size" in w for w in result.warnings)
    # the next frame of this camera reads at once at the measured size
    kept = setup.with_sizes(result.read_at)
    assert read_frame(kept, to_gray(image)).read_at is None


def test_a_size_given_that_the_frame_disagrees_with_is_said_with_the_measured_one(table):
    image, empty, _ = table
    cal = calibrate_from_frame(empty, BOARD, SHIPPED)
    result = read_frame(VisionSetup.from_calibration(cal, BOARD, markers=SHIPPED, size_source="given"),
                        to_gray(image))
    said = [w for w in result.warnings if "--marker-mm 11" in w]
    assert said, result.warnings  # never a silently empty board
    assert "the size given" in said[0]


def test_a_table_printed_as_shipped_reads_as_before():
    scene = random_scene(62, BOARD, SHIPPED, size=(1280, 720), hand=False, distortion=0.0, look_strength=0.5,
                         figures=10)
    image, _ = render(scene)
    cal = calibrate_from_frame(render(replace(scene, figures=()))[0], BOARD, SHIPPED)
    result = read_frame(VisionSetup.from_calibration(cal, BOARD, markers=SHIPPED, size_source="assumed"),
                        to_gray(image))
    assert result.read_at is None and not any("measure" in w for w in result.warnings)
    assert abs(result.marker_sizes.figure_mm - 17.0) <= 0.6


@pytest.mark.parametrize("obj", [{"figure_marker_mm": 0.5}, {"figure_marker_mm": "11"}, {"ball_marker_mm": 500},
                                 {"figure_marker_mm": True}, []])
def test_stored_sizes_no_marker_has_are_refused(obj, table):
    _, empty, _ = table
    data = calibrate_from_frame(empty, BOARD, SHIPPED).to_json()
    data["marker_sizes"] = obj
    with pytest.raises(CalibrationError, match="damaged calibration"):
        Calibration.from_json(data)
    with pytest.raises(ValueError):
        MarkerSizes.from_json(obj)


def test_the_words_offer_the_measured_size():
    words = disagreement(SHIPPED, MarkerSizes(11.0, 12, 9.5), "given")
    assert "11 mm across (12 caps), not 17 mm" in words and "--marker-mm 11 --ball-marker-mm 9.5" in words
    assert disagreement(SHIPPED, MarkerSizes(16.8, 20, 17.2), "given") is None  # within 8 %: the same print
    assert disagreement(SHIPPED, MarkerSizes(), "assumed") is None
