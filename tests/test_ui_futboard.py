"""Futboard on the tablet: the face's pure parts without a window (the board drawn, figures,
chips, scoreboard, bars, line-ups, the highlighted spaces at corners and penalties), and a
short match played on the real app through touches (tests/ui_play_futboard.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from futboard_kit import T0, A, H, d12, fix, kicked_off, new_match

from companion.commands import PlaceFigure
from companion.futboard import commands as c
from companion.futboard.model import Phase, Variant
from companion.futboard.rules import FutboardRules
from companion.futboard.lineup import lineup_problems
from companion.match import Match
from companion.teams import Team
from ui.games.futboard import FutboardFace, lineup_commands
from companion.view import summary_of

RULES = FutboardRules()


def face_for_test() -> FutboardFace:
    face = FutboardFace()
    face.now = lambda: T0
    return face


def created(face: FutboardFace, **options) -> Match:
    m = Match(FutboardRules())
    m.submit(face.create("estrela", "mare", options, None))
    return m


def lined_up(m: Match) -> Match:
    for team in (Team.HOME, Team.AWAY):
        for command in lineup_commands(m.state, team):
            m.submit(command)
    return m


def goal_for_home(m: Match) -> None:
    """#8 (with the ball after the kit's kick-off) put on the wing and kicking: a goal."""
    fix(m, H(8), (14, 1))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 1)
    d12(m, Team.AWAY, 12)


# --- setup ---------------------------------------------------------------------------------------

def test_the_options_choose_the_limit_and_the_variant():
    face = face_for_test()
    assert [o.key for o in face.options] == ["street", "kick_off", "time", "goal_limit", "keeper_in_line"]
    plain = face.create("estrela", "mare", {o.key: o.default for o in face.options}, None)
    assert plain.options.kick_off is Team.HOME and not plain.options.keeper_in_line
    assert face.create("estrela", "mare", {"keeper_in_line": True}, None).options.keeper_in_line
    assert plain.options.time_limit_min == 20 and plain.options.goal_limit is None
    assert plain.options.variant is Variant.FUTBOARD and plain.components.pitch.yellow_lines is None
    goals = face.create("estrela", "mare", {"goals": True}, None)
    assert goals.options.goal_limit == 3 and goals.options.time_limit_min is None
    street = face.create("estrela", "mare", {"street": True}, None)
    assert street.options.variant is Variant.STREET and street.components.pitch.yellow_lines is not None
    chosen = face.create("estrela", "mare", {"kick_off": "Away", "time": "30", "goal_limit": "5"}, None)
    assert chosen.options.kick_off is Team.AWAY
    assert (chosen.options.time_limit_min, chosen.options.goal_limit) == (30, 5)
    only_goals = face.create("estrela", "mare", {"time": "none", "goal_limit": "2"}, None)
    assert (only_goals.options.time_limit_min, only_goals.options.goal_limit) == (None, 2)
    with pytest.raises(ValueError, match="time limit or a goal limit"):
        face.create("estrela", "mare", {"time": "none", "goal_limit": "none"}, None)


# --- drawing -------------------------------------------------------------------------------------

def test_the_board_has_a_cell_for_every_space_and_the_ring_outside():
    face = face_for_test()
    m = created(face)
    pitch = m.state.components.pitch
    geo = face.geometry(RULES.board(m.state))
    assert (geo.cols, geo.rows, geo.margin) == (pitch.lines, pitch.rows, 1)
    for space in ((0, 0), (19, 12), (9, 6), (-1, -1), (20, 13)):
        assert geo.cell_at(*geo.cell_centre(space)) == space
        # A touch travels to the rules as field millimetres: the same space comes back.
        assert pitch.space_at(*geo.point(space)) == space
    assert geo.cell_at(-1, -1) is None
    assert face.geometry(RULES.board(m.state)) is geo   # built once per board


def test_the_printed_numbers_are_drawn():
    face = face_for_test()
    m = created(face)
    pitch = m.state.components.pitch
    texts = [s for s in face.geometry(RULES.board(m.state)).shapes() if s.kind == "text"]
    side = [s.text for s in texts if s.width == 17]
    assert len(side) == 2 * pitch.lines            # both sides of the field
    assert side.count("-4") == 4                   # the two lines at the halfway line, top and bottom
    reductions = [k for k in pitch.keeper.spaces if k.reduction]
    assert len([s for s in texts if s.width == 12]) == 2 * len(reductions)
    outlines = [s.rgba for s in face.geometry(RULES.board(m.state)).shapes() if s.kind == "outline"]
    assert (1, 0.88, 0.15, 1) not in outlines      # no yellow lines on the Futboard board
    street = created(face, street=True)
    outlines = [s.rgba for s in face.geometry(RULES.board(street.state)).shapes() if s.kind == "outline"]
    assert (1, 0.88, 0.15, 1) in outlines


def test_a_resumed_or_unknown_board_is_still_drawn():
    """A face that never saw the match created finds the shipped field; a table's own field
    it has not seen yet is drawn from the grid alone."""
    m = new_match()
    fresh = face_for_test()
    texts = [s for s in fresh.geometry(RULES.board(m.state)).shapes() if s.kind == "text"]
    assert "-4" in {s.text for s in texts}
    own = replace(m.state.components.pitch, name="Our table's board")
    geo = face_for_test().geometry(own.grid())
    assert (geo.cols, geo.rows) == (own.lines, own.rows)


def test_figures_ball_and_chips_show_the_players_states():
    face = face_for_test()
    m = kicked_off(to=8)
    figures = {f.ref: f for f in face.figures(m.state)}
    assert len(figures) == 22 and figures[H(1)].goalkeeper and not figures[H(2)].goalkeeper
    assert face.ball(m.state, RULES.board(m.state)).carrier == H(8)
    m.submit(c.Move(H(7), (7, 5)))
    fix(m, A(9), (10, 5))
    figures = {f.ref: f for f in face.figures(m.state)}
    assert figures[H(7)].dim and not figures[H(8)].dim     # moved this turn
    assert figures[A(9)].manual and figures[A(9)].cell == (10, 5)
    chips = {ch.ref: ch for ch in face.chips(m.state)}
    assert chips[H(7)].text == "7~" and chips[H(8)].text == "8"
    assert len(chips) == 22                                # reserves stay off the chips


def test_a_yellow_card_and_a_sending_off_mark_the_chip():
    face = face_for_test()
    m = kicked_off(to=8)
    m.submit(c.EndTurn(Team.HOME))
    pitch = m.state.components.pitch
    for booking in (1, 2):
        # Away's #9 put next to the carrier tries to take the ball: his foul number.
        taken = {p.space for p in m.state.players.values() if p.on_field}
        cs = m.state.players[m.state.ball].space
        fix(m, A(9), next(sq for sq in pitch.neighbours(cs) if sq not in taken and pitch.inside(sq)))
        m.submit(c.TakeBall(A(9)))
        d12(m, Team.AWAY, m.state.players[A(9)].tile.foul)
        assert m.state.turn is Team.HOME
        if booking == 1:
            assert {ch.ref: ch.text for ch in face.chips(m.state)}[A(9)] == "9Y"
            carrier = m.state.ball
            m.submit(c.Pass(carrier, face.receivers(m.state, carrier)[0]))
            m.submit(c.EndTurn(Team.HOME))
    chip = {ch.ref: ch for ch in face.chips(m.state)}[A(9)]
    assert chip.text == "9YYR" and not chip.enabled
    assert A(9) not in {f.ref for f in face.figures(m.state)}


# --- panels ----------------------------------------------------------------------------------------

def test_scoreboard_clock_and_bars():
    face = face_for_test()
    m = lined_up(created(face))
    board = face.scoreboard(summary_of(m.summary()), T0)
    assert board.score == "Estrela FC  0 - 0  Mare Azul"
    assert board.clock == "0:00 / 20:00  (stopped)" and board.phase == "Line-up, Home kicks off"
    m.submit(c.StartClock(T0))
    m.submit(c.Pass(H(9), face.receivers(m.state, H(9))[0]))
    board = face.scoreboard(summary_of(m.summary()), T0 + timedelta(seconds=75))
    assert board.clock == "1:15 / 20:00" and board.phase == "Home's turn: 2 of 3 actions left"
    face.now = lambda: T0 + timedelta(seconds=75)
    bars = face.bars(summary_of(m.summary()))
    assert [b.caption for b in bars] == ["Home actions 2/3", "Time left 18:45"]
    assert bars[1].value == pytest.approx(1125)
    assert face.stepper(m.state, summary_of(m.summary()))[1] == "action 2"
    assert face.tile_text(m.state, H(9)).startswith("#9 ") and "dribble" in face.tile_text(m.state, H(9))
    assert face.kick_odds(m.state, H(9)) == "1-5"     # accuracy 9, four lines from the halfway line
    goals = created(face, goals=True)
    assert face.scoreboard(summary_of(goals.summary())).clock == "Turn 0   first to 3"
    assert [b.caption for b in face.bars(summary_of(goals.summary()))] == ["Actions 0/3", "Home 0 of 3 goals", "Away 0 of 3 goals"]


def test_the_tablet_notices_the_end_of_time():
    """The tick proposes "time is up" once the clock passed the limit, once, and the match ends."""
    class Screen:
        def __init__(self, m):
            self.controller = self
            self.m = m
            self.sent = []

        def build_bars(self, summary):
            pass

        def submit(self, command):
            self.sent.append(command)
            self.m.submit(command)

        def time_up(self):   # the chime
            self.chimes = getattr(self, "chimes", 0) + 1

    class View:
        def __init__(self, m):
            self.state, self.summary = m.state, summary_of(m.summary())

    face = face_for_test()
    m = lined_up(created(face))
    m.submit(c.StartClock(T0))
    screen = Screen(m)
    face.tick(screen, View(m), T0 + timedelta(minutes=19))
    assert screen.sent == []
    face.tick(screen, View(m), T0 + timedelta(minutes=20, seconds=1))
    assert [type(x) for x in screen.sent] == [c.CallTimeUp]
    assert m.state.phase is Phase.OVER
    face.tick(screen, View(m), T0 + timedelta(minutes=20, seconds=2))
    assert len(screen.sent) == 1 and screen.chimes == 1
    assert face.phase_line(summary_of(m.summary())) == "Full time: a draw"


# --- line-ups ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"street": True}, {"goals": True, "street": True}])
def test_the_default_line_ups_allow_the_kick_off(options):
    face = face_for_test()
    m = lined_up(created(face, **options))
    assert lineup_problems(m.state) == []
    kicker = face.kick_off_player(m.state, None)
    assert kicker is not None and kicker.team is Team.HOME
    # A selected figure's free spaces: his own field, and the centre circle for the kicking side.
    pitch = m.state.components.pitch
    home = face.reach(RULES, m.state, H(2))
    assert home and all(pitch.half(sq) is pitch.half((0, 0)) or sq in pitch.centre_circle for sq in home)
    assert any(pitch.half(sq) is not pitch.half((0, 0)) for sq in home)    # the circle beyond halfway
    away = face.reach(RULES, m.state, A(2))
    assert away and not any(pitch.half(sq) is pitch.half((0, 0)) for sq in away)
    receivers = face.receivers(m.state, kicker)
    assert receivers
    m.submit(c.Pass(kicker, receivers[0]))
    assert m.state.phase is Phase.PLAY and m.state.ball == receivers[0]


def test_after_a_goal_the_line_ups_bring_everyone_home():
    face = face_for_test()
    m = kicked_off(to=8)
    goal_for_home(m)
    assert m.state.score[Team.HOME] == 1 and m.state.phase is Phase.LINEUP
    assert lineup_problems(m.state)        # #8 stands in Away's half
    lined_up(m)
    assert lineup_problems(m.state) == []
    kicker = face.kick_off_player(m.state, None)
    assert kicker is not None and kicker.team is Team.AWAY
    assert face.phase_line(summary_of(m.summary())) == "Line-up, Away kicks off"


# --- what a selected figure may do ------------------------------------------------------------------------

def test_a_corner_highlights_the_free_corner_slots():
    face = face_for_test()
    m = kicked_off(to=8)
    fix(m, H(8), (14, 1))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 3)
    d12(m, Team.AWAY, 3)
    assert m.state.phase is Phase.CORNER
    assert face.reach(RULES, m.state, H(7)) == [(19, 0), (19, 12)]
    assert face.reach(RULES, m.state, A(7)) == []
    assert face.stepper(m.state, summary_of(m.summary()))[1] == "corner kick"
    assert face.phase_line(summary_of(m.summary())) == "Corner kick for Home"


def test_a_penalty_highlights_the_spot_and_the_way_out_of_the_area():
    face = face_for_test()
    m = kicked_off(to=8)
    fix(m, H(8), (14, 1))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 12)                  # a miss: Away's goalkeeper has the ball, Away's turn
    fix(m, A(1), (2, 8))
    fix(m, A(9), (3, 4))                   # in Home's area, level with the last defender
    m.submit(c.Pass(A(1), A(9)))
    m.submit(c.EndTurn(Team.AWAY))
    m.submit(c.TakeBall(H(3)))
    d12(m, Team.HOME, m.state.players[H(3)].tile.foul)
    assert m.state.phase is Phase.PENALTY
    assert face.reach(RULES, m.state, A(9)) == [(2, 6)]
    pitch = m.state.components.pitch
    out = face.reach(RULES, m.state, H(4))
    assert out and not any(pitch.in_penalty_area(sq, pitch.half((0, 0))) for sq in out)
    assert {ch.ref: ch.text for ch in face.chips(m.state)}[H(3)] == "3Y"
    ball = face.ball(m.state, RULES.board(m.state))
    assert ball.carrier is None and ball.at is not None


# --- the app -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["1280x800", "1920x1200"])
def test_a_short_futboard_match_through_touches(size, tmp_path):
    from test_ui_app import not_blank, run_scenario

    result = run_scenario(size, tmp_path, "game:futboard")
    assert result["error"] == "", result["error"]
    assert result["window"] == [int(v) for v in size.split("x")]
    s = result["summary"]
    assert s["game"] == "futboard" and s["limits"]["time_min"] == 20 and s["clock"]["running"]
    assert s["score"] == {"home": 1, "away": 0}
    assert s["goals"][0] == {"team": "home", "scorer": "home#11", "how": "kick", "turn": 1}
    players = {p["player"]: p for p in s["players"]}
    assert players["home#14"]["where"] == "field" and players["home#10"]["where"] == "reserve"
    booked = [b["player"] for b in s["cards"]]
    assert len(booked) == 1 and players[booked[0]]["yellow_cards"] == 1
    assert s["phase"] == "play" and s["turn"] == "away"
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"setup", "live_lineup", "live_pass", "live_reach", "live_kick", "live_goal", "live_take",
            "live_card", "live_place", "live_turn"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
    assert Path(result["journal"]).exists()


# --- the buttons in each situation (widgets stood in by plain records) ------------------------------------

class FakeScreen:
    def __init__(self, selected=None, mode="", action=None, picked=()):
        self.selected, self.mode, self.action, self.picked = selected, mode, action, list(picked)
        self.sent = []

    def submit(self, command):
        self.sent.append(command)


class FakeView:
    def __init__(self, m: Match):
        self.state, self.summary, self.pending = m.state, summary_of(m.summary()), m.pending()
        self.actions = m.ruleset.open_actions(m.state)


def panel_texts(face: FutboardFace, m: Match, monkeypatch, **screen) -> tuple[list[str], dict, FakeScreen]:
    import ui.games.futboard.actions as fb

    buttons: dict[str, object] = {}
    texts: list[str] = []

    def button(text, fn):
        buttons[text] = fn
        return text

    def wrap_label(text, *_args, **_kwargs):
        return text

    def legend(items, rows=1, hint=""):
        return "legend: " + (", ".join(text for text, _rgba in items) or hint)

    monkeypatch.setattr(fb, "_widgets", lambda: (button, wrap_label))
    monkeypatch.setattr(fb, "_steady", lambda: (wrap_label, legend))
    fake = FakeScreen(**screen)
    if fake.mode:
        assert face.mode_panel(fake, FakeView(m), texts.append)
    else:
        face.panel(fake, FakeView(m), texts.append)
    return texts, buttons, fake


def test_the_buttons_follow_the_match(monkeypatch):
    face = face_for_test()
    m = created(face)
    texts, buttons, _ = panel_texts(face, m, monkeypatch)
    assert {"Home: default line-up", "Away: default line-up", "Substitution...", "Start the clock"} <= set(buttons)
    assert not any(t.startswith("Kick off") for t in buttons)        # nobody placed yet
    lined_up(m)
    texts, buttons, _ = panel_texts(face, m, monkeypatch)
    assert "Kick off: #9 passes..." in buttons
    texts, buttons, fake = panel_texts(face, m, monkeypatch, mode="pass", action=H(9))
    assert texts[0] == "Pass from #9: touch the receiver (in blue on the board)."
    next(fn for text, fn in buttons.items() if text.startswith("to #"))()
    assert isinstance(fake.sent[0], c.Pass) and fake.sent[0].player == H(9)
    m.submit(fake.sent[0])
    texts, buttons, _ = panel_texts(face, m, monkeypatch)
    carrier = m.state.ball
    assert f"Pass from #{carrier.number}..." in buttons and "Home: end the turn" in buttons
    assert any(t.startswith("No kick:") for t in texts)              # still in his own field
    # Substitutions: the reserves of the player's team, a goalkeeper only for a goalkeeper.
    fresh = created(face)
    _texts, buttons, _ = panel_texts(face, fresh, monkeypatch, mode="sub_on", picked=[H(1)])
    assert [t.split()[0] for t in buttons] == ["#12"]
    _texts, buttons, _ = panel_texts(face, fresh, monkeypatch, mode="sub_on", picked=[H(2)])
    assert [t.split()[0] for t in buttons] == ["#13", "#14", "#15", "#16"]
    street = created(face, street=True)
    _texts, buttons, _ = panel_texts(face, street, monkeypatch, mode="sub_on", picked=[H(2)])
    assert all("(defender)" in t for t in buttons) and buttons


def test_the_buttons_at_a_corner_and_a_penalty(monkeypatch):
    face = face_for_test()
    m = kicked_off(to=8)
    fix(m, H(8), (14, 1))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 3)
    d12(m, Team.AWAY, 3)
    texts, buttons, _ = panel_texts(face, m, monkeypatch)
    assert any("corner slot" in t for t in texts)
    m.submit(PlaceFigure(H(7), square=(19, 0)))
    texts, buttons, _ = panel_texts(face, m, monkeypatch)
    assert "Away: end the turn" in buttons and not any("takes the ball" in t for t in buttons)

    m = kicked_off(to=8)
    fix(m, H(8), (14, 1))
    m.submit(c.Kick(H(8)))
    d12(m, Team.HOME, 12)
    fix(m, A(1), (2, 8))
    fix(m, A(9), (3, 4))
    m.submit(c.Pass(A(1), A(9)))
    m.submit(c.EndTurn(Team.AWAY))
    texts, buttons, _ = panel_texts(face, m, monkeypatch)
    names = {r: m.state.players[r].tile.name for r in (H(3), A(9))}
    take = next(t for t in buttons if t.startswith(f"#3 {names[H(3)]} takes the ball from #9 {names[A(9)]} ("))
    buttons[take]()
    m.submit(c.TakeBall(H(3)))
    d12(m, Team.HOME, m.state.players[H(3)].tile.foul)
    texts, buttons, fake = panel_texts(face, m, monkeypatch)
    assert any("outside" in t for t in texts)
    buttons["#9 takes it (to the spot)"]()
    assert fake.sent == [PlaceFigure(A(9), square=(2, 6))]


def test_end_the_turn_is_offered_only_when_the_rules_take_it(monkeypatch):
    """The buttons come from the rules' open actions: at the start of a turn with the ball,
    "end the turn" is refused (You Have to Move the Ball), so it is not offered."""
    from companion.errors import RuleViolation

    face = face_for_test()
    m = kicked_off(to=8)
    m.submit(c.EndTurn(Team.HOME))
    m.submit(c.EndTurn(Team.AWAY))
    assert m.state.turn is Team.HOME and m.state.ball == H(8)
    with pytest.raises(RuleViolation, match="Move the Ball"):
        m.ruleset.decide(m.state, c.EndTurn(Team.HOME))
    _texts, buttons, _ = panel_texts(face, m, monkeypatch)
    assert "Pass from #8..." in buttons and "Home: end the turn" not in buttons
    m.submit(c.Move(H(8), (m.state.players[H(8)].space[0] + 1, m.state.players[H(8)].space[1])))
    _texts, buttons, fake = panel_texts(face, m, monkeypatch)
    buttons["Home: end the turn"]()
    assert fake.sent == [c.EndTurn(Team.HOME)]


def test_the_kick_off_waits_for_legal_line_ups_and_the_clock_for_a_time_limit(monkeypatch):
    face = face_for_test()
    m = created(face, time="none", goal_limit="3")
    texts, buttons, _ = panel_texts(face, m, monkeypatch)
    assert lineup_problems(m.state)
    assert {"Home: default line-up", "Away: default line-up"} <= set(buttons)
    assert not any(t.startswith("Kick off") or "centre circle to kick off" in t for t in [*buttons, *texts])
    assert not any("clock" in t for t in buttons)      # a match to 3 goals runs against no clock
    lined_up(m)
    _texts, buttons, _ = panel_texts(face, m, monkeypatch)
    assert "Kick off: #9 passes..." in buttons


# --- nothing moves under a finger; a refused touch said (issue 29) ---------------------------------------

def request_and_panel(face, m, monkeypatch, **screen) -> list[str]:
    """What the panel holds from the top: the requests' lines (as the live screen adds them),
    then the face's."""
    texts, _buttons, _fake = panel_texts(face, m, monkeypatch, **screen)
    return [r.text for r in m.pending()] + texts


def test_starting_the_clock_keeps_every_line_in_its_place(monkeypatch):
    """The issue's tap: "Start the clock" took away the line "Start the match clock" and every
    button below moved up; the next tap opened "Substitution..." instead of the kick-off."""
    face = face_for_test()
    m = lined_up(created(face))
    stopped = request_and_panel(face, m, monkeypatch)
    m.submit(c.StartClock(T0))
    running = request_and_panel(face, m, monkeypatch)
    assert len(stopped) == len(running)
    i = stopped.index(next(t for t in stopped if t.startswith("Start the match clock")))
    assert running[i] == "Match clock running (pause it when play stops)"
    assert [t for t in stopped if "clock" not in t] == [t for t in running if "clock" not in t]
    assert stopped.index("Kick off: #9 passes...") == running.index("Kick off: #9 passes...")
    m.submit(c.PauseClock(T0 + timedelta(seconds=5)))
    assert len(request_and_panel(face, m, monkeypatch)) == len(stopped)


def test_selecting_a_figure_adds_its_tile_below_the_buttons(monkeypatch):
    face = face_for_test()
    m = lined_up(created(face))
    texts, _b, _f = panel_texts(face, m, monkeypatch)
    chosen, _b, _f = panel_texts(face, m, monkeypatch, selected=H(7))
    assert chosen[:len(texts)] == texts and chosen[-1].startswith("#7 ")


def test_a_pass_to_a_player_out_of_reach_is_not_sent_and_names_who_may_receive(monkeypatch):
    from types import SimpleNamespace
    from companion.futboard import targets as ft
    face = face_for_test()
    m = lined_up(created(face))
    fake = FakeScreen(mode="pass", action=H(9))
    fake.names = SimpleNamespace(line=lambda text: text)
    fake.error_text = ""
    receivers = {t.command.to for t in ft.ball_targets(m.state, H(9)) if t.kind == "pass"}
    far = next(p.ref for p in m.state.players.values() if p.ref.team is Team.HOME and p.on_field
               and p.ref not in receivers and p.ref != H(9))
    assert face.on_figure(fake, FakeView(m), far)
    assert fake.sent == [] and fake.error_text.startswith(f"Pass from home#9 to {far}: not possible, ")
    assert "Passes go to #" in fake.error_text
    near = sorted(receivers, key=lambda r: r.number)[0]
    face.on_figure(fake, FakeView(m), near)
    assert fake.sent == [c.Pass(H(9), near)]
