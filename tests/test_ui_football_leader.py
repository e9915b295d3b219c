"""Football Leader on the tablet: the face's plain parts (board geometry, figures, scoreboard,
bars, chips, preset sheets) without a window, and a short match played headless by touches
(tests/ui_play_football_leader.py) with screenshots of the live screen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion.football_leader import commands as c  # noqa: E402
from companion.football_leader.model import Phase  # noqa: E402
from companion.teams import Team  # noqa: E402
from companion.view import summary_of  # noqa: E402
from football_leader_kit import A, C, H, d12, new_match, to_kick_off  # noqa: E402
from test_ui_app import not_blank, run_scenario  # noqa: E402
from ui.games.football_leader import (PRESETS, FootballLeaderFace, SpaceGeometry, board_shapes,  # noqa: E402
                                      counter_spots, preset_sheet)


@pytest.fixture(scope="module")
def face() -> FootballLeaderFace:
    return FootballLeaderFace()


def test_setup_options_default_to_the_rulebooks_readings(face):
    keys = {o.key: o.default for o in face.options}
    assert keys["tackle_loop_rule"] is True and keys["second_yellow_sends_off"] is True
    plain = face.create("lions", "blues", keys, None).options
    assert plain.tackle_loop_rule and plain.second_yellow_sends_off and not plain.pass_one_loses_in_origin
    off = face.create("lions", "blues", {"tackle_loop_rule": False, "second_yellow_sends_off": False}, None).options
    assert not off.tackle_loop_rule and not off.second_yellow_sends_off


def test_every_space_is_a_cell_under_its_own_centre(face):
    m = new_match()
    board = m.state.components.board
    g = face.geometry(board)
    assert isinstance(g, SpaceGeometry)
    assert g.length_mm == pytest.approx(960) and g.width_mm == pytest.approx(500)   # the goals stick out
    for sp in board.spaces:
        assert g.cell_at(*g.cell_centre(sp.key)) == sp.key
        assert g.point(sp.key) == sp.center                  # rules' millimetres, for tap_move
    assert g.cell_at(-1, -1) is None
    assert face.geometry(board) is g                          # built once per board


def test_the_board_prints_labels_shooting_numbers_and_dotted_lines():
    m = new_match()
    board = m.state.components.board
    shapes = board_shapes(board)
    texts = {s.text for s in shapes if s.kind == "text"}
    assert {"A1", "D3", "G5"} <= texts and "6-10-14" in texts and "23" in texts
    dotted = [link for link in board.links if link.dotted]
    dashes = [s for s in shapes if s.kind == "line" and s.rgba == (1, 1, 1, 0.85)]
    assert dotted and len(dashes) >= len(dotted)


def test_figures_stand_on_their_own_goal_side_of_a_space(face):
    m = new_match()
    to_kick_off(m)
    s = m.state
    figures = {f.ref: f for f in face.figures(s)}
    assert len(figures) == 22
    assert figures[H(1)].goalkeeper and figures[H(1)].cell == (-1, 0)
    g = face.geometry(s.components.board)
    spots = counter_spots(s, g)
    # Home defends x = 0: its counters stand left of the away ones sharing a space.
    shared = [(p.ref, q.ref) for p in s.players.values() for q in s.players.values()
              if p.on_pitch and q.on_pitch and p.space == q.space and p.ref.team is Team.HOME
              and q.ref.team is Team.AWAY and p.space is not None and p.space[0] >= 0]
    assert shared
    for home, away in shared:
        assert spots[home][0] < spots[away][0]
    assert face.ball(s, s.components.board).carrier == s.ball


def test_moved_and_booked_counters_look_it_and_their_chips_say_so(face):
    m = new_match()
    to_kick_off(m)
    m.submit(c.Move(H(6), (2, 1), C("gold-2-4")))
    figures = {f.ref: f for f in face.figures(m.state)}
    assert figures[H(6)].dim and not figures[H(7)].dim
    chips = {ch.ref: ch.text for ch in face.chips(m.state)}
    assert chips[H(6)] == "6~" and chips[H(7)] == "7"
    # A booked counter: a hard tackle missed (a 1), the foul check's higher die 11.
    m.submit(c.EndTurn(Team.HOME))
    m.submit(c.Tackle(A(10), C("bronze-4-12"), hard=True))
    d12(m, Team.AWAY, 1)
    d12(m, Team.AWAY, 11, 3)
    assert m.state.players[A(10)].yellow == 1
    assert {ch.ref: ch.text for ch in face.chips(m.state)}[A(10)] == "10~Y"   # a hard tackle is a movement: a marker
    assert {f.ref: f for f in face.figures(m.state)}[A(10)].badge == "Y"


def test_scoreboard_bars_and_stepper_follow_the_match(face):
    m = new_match()
    board = face.scoreboard(summary_of(m.summary()))
    assert "0 - 0" in board.score and board.clock == "pre-match"
    assert face.stepper(m.state, summary_of(m.summary()))[1] == "strategy"
    to_kick_off(m)
    s = summary_of(m.summary())
    board = face.scoreboard(s)
    assert board.clock == "1st half, turn 1" and board.phase == "Home's turn: start"
    bars = face.bars(s)
    assert [b.caption for b in bars] == ["Home: deck 45, hand 5, moved 0/5", "Away: deck 45, hand 5, moved 0/5"]
    assert bars[0].maximum == 50 and bars[0].value == 45
    assert face.stepper(m.state, s)[1] == "main action"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_sheets_are_accepted_for_both_ends(name):
    m = new_match()
    for team in (Team.HOME, Team.AWAY):
        m.submit(c.WriteStrategy(team, preset_sheet(m.state, team, name)))
    assert m.state.phase is Phase.OPENING_ROLL


@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_a_short_football_leader_match_through_touches(size, tmp_path):
    result = run_scenario(size, tmp_path, "game:football_leader")
    assert result["error"] == "", result["error"]
    s = result["summary"]
    assert s["game"] == "football_leader"
    assert s["score"] == {"home": 1, "away": 0}
    assert s["goals"][0]["scorer"] == "home#10"
    # After the goal Away kicks off: both coaches set up again.
    assert s["phase"] == "set_up" and s["restart"]["kind"] == "kick_off" and s["restart"]["team"] == "away"
    assert s["position_changes_used"]["away"] == 1
    players = {p["player"]: p for p in s["players"]}
    assert players["away#7"]["space"]["label"] == "E2" and players["home#10"]["space"]["label"] == "F4"
    assert s["decks"]["home"]["played"]["silver-4-12"] == 1 and s["decks"]["home"]["played"]["gold-4-12"] == 1
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"fl_strategy", "fl_set_up", "fl_kick_off", "fl_turn", "fl_move_card", "fl_card_asked", "fl_pass_roll",
            "fl_passed", "fl_goal"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"


class FakeScreen:
    """What the face touches of the live screen, without a window: the UI state and what
    was submitted."""

    def __init__(self) -> None:
        self.mode, self.action, self.picked, self.form, self.selected = "", None, [], {}, None
        self.override = False
        self.ids: dict = {}
        self.sent: list = []

    def submit(self, command) -> None:
        self.mode, self.action, self.picked, self.selected = "", None, [], None
        self.sent.append(command)

    def set_mode(self, mode: str, keep_action: bool = False, keep_picked: bool = False) -> None:
        self.mode = mode
        if not keep_picked:
            self.picked = []

    def toggle_pick(self, ref) -> None:
        self.picked = [r for r in self.picked if r != ref] if ref in self.picked else [*self.picked, ref]

    def build_panel(self) -> None:
        pass

    def refresh_reach(self) -> None:
        pass


class FakeView:
    def __init__(self, m) -> None:
        self.state = m.state
        self.pending = m.pending()
        self.actions = m.ruleset.open_actions(m.state)


def test_action_forms_turn_touches_and_cards_into_commands(face):
    m = new_match()
    to_kick_off(m)
    view, sc = FakeView(m), FakeScreen()
    # Dodge supported by a teammate touched first, then the dodge card and the support card.
    face._start(sc, "dodge", {"team": Team.HOME})
    assert face.on_figure(sc, view, H(10))
    face._fill(sc, view.state, "dodge", "card", C("silver-4-12"))
    assert not sc.sent
    face._fill(sc, view.state, "dodge", "support_card", C("gold-4-10"))
    assert sc.sent[-1] == c.Dodge(C("silver-4-12"), H(10), C("gold-4-10"))
    # Pass and dodge: the receiver by touch, his dodge card, then the pass card.
    face._start(sc, "pass_dodge", {"team": Team.HOME, "two": "dodge"})
    face.on_figure(sc, view, A(9))          # an opponent is not a receiver
    face.on_figure(sc, view, H(10))
    face._fill(sc, view.state, "pass_dodge", "dodge_card", C("gold-4-11"))
    face._fill(sc, view.state, "pass_dodge", "card", C("silver-4-10"))
    assert sc.sent[-1] == c.Pass(H(10), C("silver-4-10"), dodge_card=C("gold-4-11"), two_dice_on="dodge")
    # Move: the counter, the card, then a touch on a space (or on a figure standing there).
    face._start(sc, "move", {"team": Team.HOME})
    face.on_figure(sc, view, H(6))
    assert sc.selected == H(6)               # the screen lights his range
    face._fill(sc, view.state, "move", "card", C("gold-2-4"))
    face.on_figure(sc, view, H(8))          # #8's space
    assert sc.sent[-1] == c.Move(H(6), view.state.players[H(8)].space, C("gold-2-4"))
    # Move and tackle (Away's turn in the rules; the form only builds the command).
    face._start(sc, "move_tackle", {"team": Team.AWAY})
    face.on_figure(sc, view, A(7))
    face._fill(sc, view.state, "move_tackle", "move_card", C("gold-2-5"))
    face._fill(sc, view.state, "move_tackle", "card", C("bronze-3-9"))
    assert sc.sent[-1] == c.Tackle(A(7), C("bronze-3-9"), hard=True, move_card=C("gold-2-5"))


def test_set_up_changes_and_a_sheet_written_by_touch(face):
    m = new_match()
    view, sc = FakeView(m), FakeScreen()
    face._start_sheet(sc, view.state, Team.HOME)
    assert sc.mode == "sheet" and len(sc.form["ko"]) == 10
    face._sheet_pick(sc, 11)
    face._sheet_place(sc, None)              # #11 to the bench
    face._sheet_pick(sc, 12)
    face.on_cell(sc, view, (3, 1))          # #12 takes his kick-off place
    face._set_form(sc, kind="goal_kick")
    face._sheet_pick(sc, 11)
    face._sheet_place(sc, None)
    face._sheet_pick(sc, 12)
    face.on_cell(sc, view, (3, 4))
    sheet = sc.form
    assert 11 not in sheet["ko"] and sheet["ko"][12] == (3, 1) and sheet["gk"][12] == (3, 4)
    m.submit(c.WriteStrategy(Team.HOME, preset_sheet(m.state, Team.HOME, "4-4-2")))
    m.submit(c.WriteStrategy(Team.AWAY, preset_sheet(m.state, Team.AWAY, "4-4-2")))
    d12(m, Team.HOME, 7)
    d12(m, Team.AWAY, 3)
    view = FakeView(m)
    figures = face.figures(view.state)      # the sheets' places, before anyone stands
    assert len([f for f in figures if f.dim]) == 20
    face._start(sc, "replace", {"team": Team.HOME})
    face.on_figure(sc, view, H(9))
    assert sc.form["off"] == H(9)
    face._start(sc, "change", {"team": Team.AWAY, "kind": "goal_kick"})
    face.on_figure(sc, view, A(4))
    face.on_cell(sc, view, (4, 2))
    assert sc.sent[-1] == c.ChangeStrategy(Team.AWAY, A(4), goal_kick=(4, 2))


def panel_buttons(face, m, sc=None) -> dict:
    """The action panel's buttons by their text (Kivy widgets, no window)."""
    widgets: list = []
    face.panel(sc or FakeScreen(), FakeView(m), widgets.append)
    out = {}

    def walk(w) -> None:
        if type(w).__name__ == "Button":
            out[w.text] = w
        for child in getattr(w, "children", []):
            walk(child)
    for w in widgets:
        walk(w)
    return out


def test_the_set_up_offers_a_position_change_only_while_some_are_left(face):
    """Three position changes a match (6.1): once Home has made them the rules refuse a fourth,
    and the face, drawing from the open actions, no longer offers one."""
    from companion.errors import RuleViolation

    m = new_match()
    m.submit(c.WriteStrategy(Team.HOME, preset_sheet(m.state, Team.HOME, "4-4-2")))
    m.submit(c.WriteStrategy(Team.AWAY, preset_sheet(m.state, Team.AWAY, "4-4-2")))
    d12(m, Team.HOME, 7)
    d12(m, Team.AWAY, 3)
    assert m.state.phase is Phase.SET_UP
    buttons = panel_buttons(face, m)
    assert {"Home: change a position...", "Away: change a position...", "Home: confirm the set-up"} <= set(buttons)
    sheet = m.state.sheets[Team.HOME]
    for number in (9, 10, 11):
        m.submit(c.ChangeStrategy(Team.HOME, H(number), goal_kick=sheet.goal_kick[number]))
    with pytest.raises(RuleViolation, match="position modifications"):
        m.ruleset.decide(m.state, c.ChangeStrategy(Team.HOME, H(8), goal_kick=sheet.goal_kick[8]))
    buttons = panel_buttons(face, m)
    assert "Home: change a position..." not in buttons and "Away: change a position..." in buttons
    sc = FakeScreen()
    panel_buttons(face, m, sc)["Home: confirm the set-up"].dispatch("on_release")
    assert sc.sent == [c.ConfirmSetUp(Team.HOME)]


# --- a newcomer: only what the screen shows (tests/ui_newcomer.py) -----------------------------------

def shots_of(result) -> set[str]:
    return {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}


def test_a_newcomer_plays_from_the_opening_roll_to_the_first_goal(tmp_path):
    """The kick-off by touching the carrier's lit space, then lit passes and moves until the
    lit goal: a pass and shoot scores."""
    result = run_scenario("1280x800", tmp_path, "game:football_leader_goal")
    assert result["error"] == "", result["error"]
    assert result["summary"]["score"] == {"home": 1, "away": 0}
    assert {"fl_kick_off_lit", "fl_pass_lit", "fl_first_goal"} <= shots_of(result)


@pytest.mark.parametrize("restart", ["indirect", "direct", "penalty", "goal_kick", "shootout"])
def test_every_restart_by_what_the_screen_shows(restart, tmp_path, monkeypatch):
    """Resumed just before it: a foul made on the tablet (Away's tackle lit on the carrier, a
    miss, the foul check) and Home's free kick or penalty; or a shot at the lit goal missed and
    Away's goal kick passed to a lit teammate."""
    import ui_scenes

    data = tmp_path / "data"
    ui_scenes.write(f"football_leader:{restart}", data)
    monkeypatch.setenv("TOUCHLINE_SCENE", f"football_leader:{restart}")
    result = run_scenario("1280x800", tmp_path, "game:restart", data_dir=data)
    assert result["error"] == "", result["error"]
    if restart in ("direct", "penalty"):
        assert result["summary"]["score"]["home"] == 1
    if restart == "shootout":
        assert result["summary"]["phase"] == "over"


def test_a_newcomer_plays_from_the_opening_roll_to_full_time(tmp_path):
    """No extra time (a setup option): both halves as long as the decks, a lit move and the end
    of every turn, the second half's kick-off, then the penalty kick series decides it."""
    result = run_scenario("1280x800", tmp_path, "game:football_leader_full_time")
    assert result["error"] == "", result["error"]
    s = result["summary"]
    assert s["phase"] == "over" and s["score"] == {"home": 0, "away": 0}
    assert {"fl_half_time", "fl_shootout", "fl_full_time"} <= shots_of(result)
