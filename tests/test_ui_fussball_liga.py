"""The Fußball-Liga face on the tablet: its pure parts without a window (board cells,
figures, ball, scoreboard, bars, the clock's time-up calls, the standard line-up), and a
short match played through touches on the real app, headless."""

from __future__ import annotations

from datetime import timedelta
import os
from pathlib import Path

import pytest
from fussball_liga_kit import A, Clock, H, kicked_off, new_match, toss
from test_ui_app import not_blank, run_scenario

from companion.commands import PlaceFigure
from companion.fussball_liga import commands as c
from companion.fussball_liga.model import PhaseLimit
from companion.teams import Team
from companion.view import summary_of
from ui.games.fussball_liga import FussballLigaFace, bar_specs, expired, standard_lineup


@pytest.fixture(scope="module")
def face() -> FussballLigaFace:
    return FussballLigaFace()


def test_the_board_has_a_ring_of_cells_for_goals_and_throw_ins(face):
    m = new_match()
    pitch = m.ruleset.board(m.state)
    g = face.geometry(pitch)
    assert (g.cols, g.rows, g.margin) == (30, 20, 1)
    assert g.length_mm == pytest.approx(32 * 22) and g.width_mm == pytest.approx(22 * 22)
    # A goal square behind the low goal line and a throw-in square beyond a touch line are touchable.
    for sq in ((-1, 9), (30, 10), (12, -1), (12, 20), (0, 0), (29, 19)):
        x, y = g.cell_centre(sq)
        assert g.cell_at(x, y) == sq
        # ... and what the tablet sends for them is the rules' own square.
        assert pitch.square_at(*g.point(sq)) == sq
    assert g.cell_at(-30, 5) is None
    texts = {s.text for s in g.shapes() if s.kind == "text"}
    assert {"1", "2", "3", "4", "low goal", "high goal"} <= texts
    # The ends' names stand in the ring below the touch line (the drawing starts a ring's
    # square before the field), clear of the goal lines.
    for end in (s for s in g.shapes() if s.kind == "text" and s.text.endswith(" goal")):
        x, y = end.data
        assert 0 < y < 22 and 22 + 2 * 22 <= x <= 22 + 28 * 22, (end.text, x, y)
    assert face.geometry(pitch) is g   # built once per board


def test_figures_ball_and_chips_follow_the_books(face):
    m = kicked_off()
    s = m.state
    figures = {f.ref: f for f in face.figures(s)}
    assert figures[H(9)].cell == (14, 9) and figures[H(1)].goalkeeper and not figures[H(9)].goalkeeper
    # #11 has the ball next to him (loose control): drawn in its square.
    assert face.ball(s, s.components.pitch).cell == (12, 11)
    m.submit(c.Move(H(9), (16, 9)))
    s = m.state
    m.submit(c.PassTurn(Team.HOME))
    figures = {f.ref: f for f in face.figures(m.state)}
    assert figures[H(9)].dim                       # moved this phase (turned upside-down)
    chips = {ch.ref: ch.text for ch in face.chips(m.state)}
    assert chips[H(9)] == "9~" and chips[A(9)] == "9"
    m.submit(c.CallMisconduct(A(9), "other"))
    chips = {ch.ref: ch.text for ch in face.chips(m.state)}
    assert chips[A(9)] == "9Y"


def test_the_ball_lies_on_the_centre_mark_before_a_kick_off(face):
    m = new_match()
    toss(m)
    pitch = m.state.components.pitch
    mark = face.ball(m.state, pitch)
    g = face.geometry(pitch)
    assert mark.at == g.to_board(15 * 22, 10 * 22)


def test_scoreboard_and_bars_read_the_clocks(face):
    clock = Clock()
    m = kicked_off(clock=clock)
    clock.tick(0)
    summary = summary_of(m.summary())
    board = face.scoreboard(summary, clock.now + timedelta(seconds=75))
    assert board.score.endswith("0 - 0  FC Gruenwald") and board.score.startswith("SV Rotstein")
    assert board.clock == "01:15  1st half"
    assert board.phase == "Turn 1: Home attacks, movement phase"
    home, away, defender, timer, half = bar_specs(summary, clock.now + timedelta(seconds=12))
    assert (home.caption, home.value, away.maximum) == ("Home MP 18/18", 18, 18)
    assert defender.caption == "Defender MP 0"
    assert timer.caption == "Timer 18 s" and timer.value == pytest.approx(18, abs=0.01)   # 30 s egg timer
    assert half.caption == "Half 00:12"


def test_the_tablet_calls_time_up_once_per_expiry(face):
    clock = Clock()
    m = kicked_off(clock=clock)
    summary = summary_of(m.summary())
    assert expired(summary, clock.now + timedelta(seconds=29)) == []
    later = clock.now + timedelta(seconds=30.2)
    assert expired(summary, later) == [("phase", None)]

    sent = []

    class Ctl:
        def submit(self, command):
            sent.append(command)

    calls = []

    class Screen:
        controller = Ctl()

        def build_bars(self, summary):
            pass

        def time_up(self):   # the chime (muted or not: the screen's business)
            calls.append("chime")

    class View:
        pass

    view = View()
    view.summary = summary
    fresh = FussballLigaFace()
    fresh.tick(Screen(), view, later)
    fresh.tick(Screen(), view, later + timedelta(seconds=0.5))   # the same expiry: not again
    assert len(sent) == 1 and sent[0].kind == "phase" and sent[0].team is None
    assert calls == ["chime"]
    clock.now = later
    m.submit(sent[0])
    assert m.state.phase_time_up or m.state.turn_no == 2
    assert ("phase", None) not in expired(summary_of(m.summary()), later + timedelta(seconds=1))


def test_the_half_and_a_chess_clock_run_out(face):
    clock = Clock()
    m = kicked_off(clock=clock, phase_limit=PhaseLimit.CHESS_CLOCK, half_minutes=1)
    due = expired(summary_of(m.summary()), clock.now + timedelta(seconds=61))
    assert ("half", None) in due and ("phase", Team.HOME) in due


def test_the_standard_line_up_is_legal():
    m = new_match(phase_limit=PhaseLimit.NONE)
    toss(m)
    for ref, sq in standard_lineup(m.state):
        m.submit(PlaceFigure(ref, square=sq))
    m.submit(c.Kick(H(9), (12, 11)))   # the kick-off is accepted: everybody stands where he may
    assert m.state.ball.holder == H(11)


def test_options_map_to_the_rules_options(face):
    o = face.match_options({"no_limit": True, "optional_rules": True})
    assert o.phase_limit is PhaseLimit.NONE and o.goalkeeper_save and o.bonus_points and o.goal_posts
    o = face.match_options({"chess_clock": True, "taking_a_pass": True})
    assert o.phase_limit is PhaseLimit.CHESS_CLOCK and o.taking_a_pass and not o.goal_posts
    o = face.match_options({o.key: ("" if o.text else o.default) for o in face.options}
                           | {"half": "20", "keep_ends": True})
    assert (o.half_minutes, o.change_ends, o.extra_time, o.phase_limit) == (20, False, False, PhaseLimit.EGG_TIMER)
    assert not o.third_foul_two_cards and face.match_options({"third_foul_two_cards": True}).third_foul_two_cards


@pytest.mark.parametrize("size", ["1280x800", "1920x1200", "1024x600", "default"])
def test_a_short_match_through_touches(size, tmp_path):
    """Also in a 7" tablet's 1024x600 and the window's default 800x600: the bars under the
    pitch in a row of their own, the panel's buttons two to a row, each request folded to two
    lines and shown whole at a touch (tests/ui_play_fussball_liga.py)."""
    result = run_scenario(size, tmp_path, "game:fussball_liga")
    assert result["error"] == "", result["error"]
    s = result["summary"]
    assert s["game"] == "fussball_liga"
    players = {p["player"]: p for p in s["players"]}
    assert players["home#10"]["square"] == [10, 17]          # placed by touch in the line-up
    assert players["home#9"]["square"] == [16, 12]           # moved by touch, then in the set-up
    assert players["away#9"]["square"] == [14, 10]           # stepped back square by square
    assert players["away#9"]["yellow_cards"] == 1
    assert s["cards"][0]["player"] == "away#9"
    assert s["ball"]["holder"] == "home#11" and s["turn"] == 3 and s["phase"] == "shot"
    assert s["options"]["phase_limit"] == "none"
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"setup", "live_lineup", "live_movement", "live_intercept", "live_roll", "live_card", "live_path",
            "live_free_kick"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"


def test_tournament_bookings_and_suspensions_are_typed_at_setup(face):
    o = face.match_options({"carried_yellows": "home#4, Away#8", "suspended": "away#7"})
    assert o.tournament and o.carried_yellows == (H(4), A(8)) and o.suspended == (A(7),)
    assert not face.match_options({}).tournament
    create = face.create("rotstein", "gruenwald", {"tournament": True, "carried_yellows": "away#8"}, None)
    assert create.options.carried_yellows == (A(8),)
    with pytest.raises(ValueError, match="no player #99"):
        face.create("rotstein", "gruenwald", {"suspended": "home#99"}, None)
    with pytest.raises(ValueError, match="Home 4, Away 8"):
        face.match_options({"carried_yellows": "h8"})
    # As the hint shows them: side and shirt number.
    assert face.match_options({"carried_yellows": "Home 4, Away 8"}).carried_yellows == (H(4), A(8))


# --- the action panel: open actions to buttons (widgets without a window) -----------------------------

def panel_buttons(face, m, selected=None) -> tuple[dict, list]:
    """The panel's buttons by their text, and what pressing them submitted."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from test_ui_football_leader import FakeScreen
    from test_ui_football_leader import panel_buttons as buttons_of

    sc = FakeScreen()
    sc.selected = selected
    return buttons_of(face, m, sc), sc.sent


def test_set_up_done_is_offered_only_once_the_rules_would_take_it(face):
    """The Liga's set-up: "set-up done" is refused until an attacker stands in position for
    the throw-in; the button follows the rules' open actions, not the pending request."""
    from test_fussball_liga_restarts import throw_in_set_up

    from companion.errors import RuleViolation

    m = throw_in_set_up()
    assert {r.id for r in m.pending()} == {"set_up"}
    with pytest.raises(RuleViolation, match="into position"):
        m.ruleset.decide(m.state, c.PassTurn(Team.AWAY))
    buttons, _ = panel_buttons(face, m)
    assert "Away: set-up done" not in buttons
    assert "Clock and ball corrections..." in buttons and "Call misconduct..." in buttons
    m.submit(c.Move(A(4), (10, -1)))
    buttons, sent = panel_buttons(face, m)
    buttons["Away: set-up done"].dispatch("on_release")
    assert sent == [c.PassTurn(Team.AWAY)]


def test_the_shot_phase_offers_the_kick_and_letting_it_go(face):
    m = kicked_off()
    from fussball_liga_kit import pass_movement

    pass_movement(m)
    ids = {a.id for a in m.ruleset.open_actions(m.state)}
    buttons, _ = panel_buttons(face, m)
    if "kick" in ids:
        assert any(t.startswith("Shoot or pass (#") for t in buttons)
    assert "Home: no kick this phase" in buttons
    assert not any(t.endswith("holds the ball for a turn") for t in buttons)   # no keeper with the ball


# --- a newcomer: only what the screen shows (tests/ui_newcomer.py) -----------------------------------

def shots_of(result) -> set[str]:
    return {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}


def test_a_newcomer_plays_from_the_toss_to_the_first_goal(tmp_path):
    """The kick-off as the issue met it (a tap on a teammate no pass reaches is refused in
    words, then #11 takes it), then lit passes and runs until a lit shot scores."""
    result = run_scenario("1280x800", tmp_path, "game:fussball_liga_goal")
    assert result["error"] == "", result["error"]
    s = result["summary"]
    assert s["score"] == {"home": 1, "away": 0}
    assert {"liga_kick_off_aim", "liga_kick_off_refused", "liga_shot_lit", "liga_first_goal"} <= shots_of(result)
    # Only lit squares were touched on the board, never a coordinate the board does not light.
    assert not [line for line in result["log"] if line.startswith("tap MS")], result["log"]


@pytest.mark.parametrize("restart", ["throw_in", "corner", "goal_kick", "free_kick", "penalty"])
def test_every_restart_by_what_the_screen_shows(restart, tmp_path, monkeypatch):
    """Resumed just before the restart: the set-up by lit squares (the figures the panel names
    moved away, the kicker onto his lit square), "set-up done", the kick at a lit square."""
    import ui_scenes

    data = tmp_path / "data"
    ui_scenes.write(f"fussball_liga:{restart}", data)
    monkeypatch.setenv("TOUCHLINE_SCENE", f"fussball_liga:{restart}")
    result = run_scenario("1280x800", tmp_path, "game:restart", data_dir=data)
    assert result["error"] == "", result["error"]
    if restart == "penalty":
        assert result["summary"]["score"]["home"] == 1
    else:
        assert result["summary"]["restart"] is None, result["summary"]["restart"]


def test_a_newcomer_plays_from_the_toss_to_full_time(tmp_path):
    """A draw goes to extra time and penalties (a setup option): four halves, each kicked off at a
    lit square and ended by the clock's own button, then the shoot-out with each goalkeeper on a
    lit numbered goal square: Home wins it."""
    result = run_scenario("1280x800", tmp_path, "game:fussball_liga_full_time")
    assert result["error"] == "", result["error"]
    s = result["summary"]
    assert s["phase"] == "over", s["phase"]
    assert {"liga_end_first_half", "liga_shootout_keeper_lit", "liga_full_time"} <= shots_of(result)
