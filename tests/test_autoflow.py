"""With the tray and the camera on, a normal action takes the declaration and only the taps
that are the coach's own decisions: rolls fill their requests, moves seen become commands,
steps the rules leave no choice about are taken by themselves (journaled, undoable), and a
doubtful sighting asks. Played on a simulated table (tests/autoflow_table.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.events import Source
from companion.fublet import commands as c
from companion.fublet.model import Phase
from companion.teams import Team
from ui.autoflow import Auto

from autoflow_scenarios import GAMES, A, H, FaceScreen, centre, fublet, fussball_liga, play
from autoflow_table import DECLARATION, Table

# What each remaining tap is: the coach's own choice, never something the rules knew.
AFTER = {
    "fublet": ["pass", "pass"],            # Away passes, with MP left, in each movement phase
    "futboard": [],
    "football_leader": [],
    "fussball_liga": ["pass", "pass"],     # the attacker moves no more; the defender's last step
}
BEFORE_EXTRA = {"fublet": 2, "futboard": 0, "football_leader": 1, "fussball_liga": 1}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_normal_action_needs_only_the_declaration_and_the_coachs_own_choices(tmp_path, game):
    before = play(game, tmp_path / "before", Auto.OFF)
    after = play(game, tmp_path / "after", Auto.DEVICES)
    assert after.declarations == before.declarations >= 1
    assert [t.kind for t in after.others] == AFTER[game], [t.what for t in after.others]
    assert len(before.others) - len(after.others) == BEFORE_EXTRA[game], [t.what for t in before.others]
    assert not any(t.kind in ("roll", "choice") for t in after.taps if t.kind != DECLARATION)


def test_a_forced_step_goes_through_the_rules_journaled_with_the_camera(tmp_path):
    table = Table(tmp_path, "fussball_liga")
    table.ctl.auto = Auto.DEVICES
    fussball_liga(table)
    m = table.ctl.match
    # The defender's answer spent all he may: his pass came with the camera's sighting.
    passed = [e for e in m.events if type(e.payload).__name__ == "TurnPassed"]
    forced = [e for e in passed if e.source is Source.VISION]
    assert len(forced) == 1 and forced[0].payload.team is Team.AWAY
    assert any(line.startswith("Automatic: Away passes") for line in table.view.log)
    # (the log names the figure: "FC Gruenwald #11 ... moves", ui/words.py Names)
    assert any(" #11 " in line and " moves " in line and line.endswith("(camera)") for line in table.view.log)
    table.close()


def test_one_undo_takes_back_a_forced_pass_alone(tmp_path):
    table = Table(tmp_path, "fublet")
    table.ctl.auto = Auto.DEVICES
    _to_movement(table)
    # Home has 1 MP left and a move costs 2: after Away's pass the tablet passes for Home, in
    # the Movement phase and again in the Tactical movement phase (each its own step).
    table.ctl.submit(c.PassTurn(Team.AWAY))
    assert table.state.phase is Phase.TACTICAL_MOVEMENT and table.state.turn is Team.AWAY
    assert sum(line.startswith("Automatic: Home passes") for line in table.view.log) == 2
    table.ctl.undo()
    assert table.state.phase is Phase.TACTICAL_MOVEMENT and table.state.turn is None
    table.ctl.undo()
    assert table.state.phase is Phase.MOVEMENT and table.state.turn is Team.HOME
    assert table.view.can_redo == 2
    table.close()


def _to_movement(table: Table) -> bool:
    """Fublet's short pass played up to Home's move in the Movement phase (as the scenario)."""
    played = []

    original = table.see

    def see(ref, point, facing=None):
        original(ref, point, facing)
        played.append(ref)
        raise _Stop

    table.see = see
    try:
        fublet(table)
    except _Stop:
        pass
    finally:
        table.see = original
    return bool(played)


class _Stop(Exception):
    pass


def test_with_automatic_steps_off_the_coach_passes_himself(tmp_path):
    table = Table(tmp_path, "fublet")
    table.ctl.auto = Auto.OFF
    _to_movement(table)
    table.ctl.submit(c.PassTurn(Team.AWAY))
    assert table.state.phase is Phase.MOVEMENT and table.state.turn is Team.HOME
    assert not table.view.auto
    table.close()


def test_automatic_steps_follow_the_devices_by_default(tmp_path):
    table = Table(tmp_path, "fublet")
    from companion.fublet.components import load_components, shipped_team
    table.ctl.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()), seed=1)
    assert table.ctl.auto is Auto.DEVICES and not table.view.auto      # keypad and taps only
    table.connect_camera()
    assert table.view.auto
    table.ctl.set_auto("off")
    table.ctl.note("")
    assert not table.view.auto
    table.close()


def test_a_doubtful_sighting_asks_and_one_tap_takes_it(tmp_path):
    table = Table(tmp_path, "fublet")
    _to_movement(table)
    # Away's turn now; the camera turns unsure (corner markers covered) and sees Away #7 move.
    table.ctl.set_health("camera", "degraded", "corner markers hidden")
    spot = table.state.players[A(7)].ms
    to = (spot[0] - 2, spot[1])
    table.see(A(7), centre(table.view.board, to))
    assert table.state.players[A(7)].ms == spot       # nothing booked yet
    (proposal,) = table.view.proposals
    assert "Away #7" in proposal.text and "unsure" in proposal.text
    table.ctl.take_proposal(proposal.id)               # one tap
    assert table.state.players[A(7)].ms == to and not table.view.proposals
    moved = table.ctl.match.events[-1]
    assert moved.source is Source.VISION
    table.close()


def test_a_sighting_the_rules_refuse_is_offered_as_a_correction_and_can_be_dropped(tmp_path):
    table = Table(tmp_path, "fublet")
    _to_movement(table)
    # It is Away's turn: Home #3 moved now is no move of the rules.
    spot = table.state.players[H(3)].ms
    table.see(H(3), centre(table.view.board, (spot[0] + 1, spot[1])))
    assert table.state.players[H(3)].ms == spot
    assert "correction" in table.view.error and len(table.view.proposals) == 1
    table.ctl.drop_proposal(table.view.proposals[0].id)
    assert not table.view.proposals and table.state.players[H(3)].ms == spot
    table.close()


def test_a_camera_move_says_so_in_the_log_also_after_a_resume(tmp_path):
    from ui.controller import Controller

    played = play("futboard", tmp_path)
    said = [line for line in played.log if line.endswith("(camera)")]
    # Home's #7 by his team and name (ui/words.py Names), once a move.
    assert any(" #7 " in line for line in said) and len(said) == 2, played.log
    again = Controller(threaded=False, data_dir=tmp_path)
    again.resume()
    assert [line for line in again.view.log if line.endswith("(camera)")] == said
    again.close()


def test_a_run_declared_on_the_tablet_takes_its_target_from_the_camera(tmp_path):
    from companion.fublet.components import Action
    from ui.games.fublet import FubletFace

    table = Table(tmp_path, "fublet")
    table.ctl.auto = Auto.DEVICES
    _declaration_point(table)
    carrier = table.state.ball.carrier
    here = table.state.players[carrier].ms
    FubletFace._expect_run(FaceScreen(table.ctl), Action.KEEP_AND_RUN, ())   # "Keep and run" touched
    assert table.view.expecting == carrier
    to = (here[0] - 2, here[1])
    table.see(carrier, centre(table.view.board, to))          # the coach runs the figure there
    declared = table.state.declaration
    assert declared is not None and declared.action is Action.KEEP_AND_RUN and table.view.expected == 1
    assert table.view.expecting is None and not table.view.proposals
    assert any(e.source is Source.VISION and type(e.payload).__name__ == "ActionDeclared"
               for e in table.ctl.match.events), [type(e.payload).__name__ for e in table.ctl.match.events[-4:]]
    table.close()


def test_a_declared_move_the_rules_refuse_keeps_the_form_open(tmp_path):
    from companion.football_leader import queries as q
    from ui.games.football_leader import FootballLeaderFace

    table = Table(tmp_path, "football_leader")
    table.ctl.auto = Auto.DEVICES
    from autoflow_scenarios import football_leader
    original = table.see
    table.see = lambda *a, **k: (_ for _ in ()).throw(_Stop())
    try:
        football_leader(table)
    except _Stop:
        pass
    table.see = original
    s = table.state
    mover = next(p for p in sorted(q.outfield(s, Team.HOME), key=lambda p: p.ref.number)
                 if p.ref != s.ball and q.can_take_marker(s, p.ref))
    weakest = min(q.cards_left(s, Team.HOME), key=lambda cd: (cd.move, cd.sort_key))
    FootballLeaderFace._expect_space(FaceScreen(table.ctl), mover.ref, weakest)
    board = q.board(s)
    from companion.errors import RuleViolation
    from companion.football_leader import commands as flc

    def refused(key) -> bool:
        try:
            table.ctl.match.ruleset.decide(s, flc.Move(mover.ref, key, weakest))
        except RuleViolation:
            return True
        return False

    far = next(sp.key for sp in board.spaces if not sp.goal and sp.key != mover.space
               and q.room(s, sp.key, Team.HOME) > 0 and refused(sp.key))
    table.see(mover.ref, centre(board, far))          # too far for the card named
    assert table.view.error and table.view.expecting == mover.ref and table.view.expected == 0
    table.close()


def _declaration_point(table: Table) -> None:
    """Fublet set up to Away's first declaration (the scenario's set-up)."""
    original = table.ctl.submit
    from companion.fublet.commands import Declare

    def submit(command, *a, **k):
        if isinstance(command, Declare):
            raise _Stop
        return original(command, *a, **k)

    table.ctl.submit = submit
    try:
        fublet(table)
    except _Stop:
        pass
    finally:
        table.ctl.submit = original


def test_a_figure_seen_on_the_line_between_two_squares_asks(tmp_path):
    table = Table(tmp_path, "fublet")
    _to_movement(table)
    spot = table.state.players[A(7)].ms
    to = (spot[0] - 2, spot[1])
    x, y = centre(table.view.board, to)
    edge = x - table.view.board.ms_size_mm[0] / 2 + 0.4      # 0.4 mm inside the square's edge
    table.see(A(7), (edge, y))
    assert table.state.players[A(7)].ms == spot
    (proposal,) = table.view.proposals
    assert "line" in proposal.text
    table.see(A(7), (x, y))                                   # set down squarely: taken, asked no more
    assert table.state.players[A(7)].ms == to and not table.view.proposals
    table.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_taps_through_the_tray_simulator_on_a_pty_and_the_apps_threads(tmp_path, game):
    memory = play(game, tmp_path / "memory")
    pty = play(game, tmp_path / "pty", wire="pty")
    assert pty.taps == memory.taps
    assert [line for line in pty.log if "rolled" in line] == [line for line in memory.log if "rolled" in line]


def test_on_the_tablet_a_run_is_finished_by_the_camera_and_an_unsure_move_asks(tmp_path):
    from test_ui_app import not_blank, run_scenario

    result = run_scenario("1280x800", tmp_path, "game:autoflow")   # tests/ui_play_autoflow.py
    assert result["error"] == "", result["error"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"live_run_declared", "live_run_booked", "live_camera_asks", "live_camera_taken"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
