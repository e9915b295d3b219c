"""Fublet and Futboard on the real app as a newcomer plays them: every restart, the toss to
the first goal, and a whole match to the final whistle, touching only what the screen shows
(tests/ui_newcomer.py; the drivers are tests/ui_play_fublet.py and tests/ui_play_futboard.py,
each run in a subprocess by tests/ui_scenario.py). A drive that gets stuck fails here: no
button or highlighted square for what the match needs next. Every screenshot is checked by
ui/layout_check.py, and a step that moves a button still on the panel is a layout fault."""

from __future__ import annotations

import pytest

from test_ui_app import not_blank, run_scenario


def drive(tmp_path, mode: str, size: str = "1280x800") -> dict:
    result = run_scenario(size, tmp_path, mode)
    assert result["error"] == "", result["error"] + "\n" + "\n".join(result["log"][-20:])
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
    return result


def shots(result: dict) -> set[str]:
    from pathlib import Path
    return {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}


# --- Fublet --------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_fublet_from_the_toss_to_the_first_goal_with_a_refused_touch_said_in_words(size, tmp_path):
    result = drive(tmp_path, "game:fublet:first_goal", size)
    s = result["summary"]
    assert s["score"] == {"home": 0, "away": 1} and s["phase"] == "kick_off"
    assert {"fublet_toss", "fublet_kick_off", "fublet_declaration", "fublet_refused_pass", "fublet_shot_shown",
            "fublet_ball_at_goal_line", "fublet_shot_form", "fublet_goal"} <= shots(result)


def test_fublet_every_restart_penalty_kick_off_corner_goal_kick_throw_in_free_kick(tmp_path):
    result = drive(tmp_path, "game:fublet:restarts")
    s = result["summary"]
    assert s["score"] == {"home": 0, "away": 1} and s["goals"][0]["scorer"]
    assert {"fublet_penalty", "fublet_penalty_ready", "fublet_corner", "fublet_corner_ready", "fublet_goal_kick",
            "fublet_throw_in", "fublet_free_kick", "fublet_wall", "fublet_tackle_shown"} <= shots(result)
    assert any(line.startswith("press Penalty kick at this goal-line PS") for line in result["log"])
    assert any(line.startswith("press Set the wall") for line in result["log"])


def test_fublet_from_the_toss_to_the_final_whistle_through_extra_time_and_the_shoot_out(tmp_path):
    result = drive(tmp_path, "game:fublet:full_time")
    s = result["summary"]
    assert s["phase"] == "over" and s["match_minute"] == 120
    assert s["result"]["decided_by"] == "shoot-out" and s["result"]["winner"] == "home"
    assert {"fublet_shootout", "fublet_full_time"} <= shots(result)


# --- Futboard ------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_futboard_from_the_line_up_to_the_first_goal_and_the_clock_moves_no_button(size, tmp_path):
    result = drive(tmp_path, "game:futboard:first_goal", size)
    s = result["summary"]
    assert s["score"] == {"home": 1, "away": 0} and s["goals"][0]["how"] == "kick"
    assert {"futboard_before_clock", "futboard_clock_started", "futboard_refused_pass",
            "futboard_kick_off_receivers", "futboard_first_goal"} <= shots(result)


def test_futboard_every_restart_kick_off_corner_keepers_ball_penalty_and_a_foul(tmp_path):
    result = drive(tmp_path, "game:futboard:restarts")
    s = result["summary"]
    assert s["score"] == {"home": 2, "away": 0}
    assert [g["how"] for g in s["goals"]] == ["kick", "penalty"]
    assert len(s["cards"]) == 2   # the penalty's foul and the foul outside the area
    assert {"futboard_restart_kick_off", "futboard_corner", "futboard_corner_pass", "futboard_keepers_ball",
            "futboard_penalty", "futboard_penalty_spot", "futboard_foul"} <= shots(result)


def test_futboard_a_whole_match_to_the_goal_limit(tmp_path):
    result = drive(tmp_path, "game:futboard:full_time")
    s = result["summary"]
    assert s["phase"] == "over" and s["score"] == {"home": 2, "away": 1}
    assert "futboard_full_time" in shots(result)
