"""The app's camera path: the rules' positions handed to the vision worker whenever the match's
state changes (a resume, a coach's override), and a sighting the tracker doubts held for one
touch. A stand-in worker (its queues and what it was handed); the real controller, unthreaded."""

from __future__ import annotations

import queue
import threading

from companion.teams import PlayerRef, Team
from ui.camera import CameraRelay
from ui.controller import Controller
from vision.sighting import ConflictNotice, Sighting
from vision.tracker import expectations
from vision.config import MarkerMap, MarkerSet

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731


class Worker:
    """What the relay uses of a VisionWorker; records the positions it is handed."""

    def __init__(self) -> None:
        self.sightings: queue.Queue = queue.Queue()
        self.status: queue.Queue = queue.Queue()
        self.finished = threading.Event()
        self.health = "ok"
        self.handed: list[tuple] = []

    def expect(self, standing) -> None:
        self.handed.append(tuple(standing))


def lined_up(tmp_path) -> Controller:
    """A Fublet match in its first round (both line-ups on the pitch), resumed from its journal."""
    from companion.journal import Journal
    from fublet_kit import fixed_match, to_first_round

    path = tmp_path / "matches" / "fublet-resumed.sqlite"
    path.parent.mkdir(parents=True)
    m = fixed_match(journal=Journal.create(path, "fublet"))
    to_first_round(m)
    m.close()
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.resume(path)
    return ctl


def run_relay(worker: Worker, ctl: Controller) -> None:
    """The relay's loop on this thread until the worker's queues are empty."""
    worker.finished.set()
    CameraRelay(worker, ctl)._run()


def test_a_resumed_match_hands_the_rules_positions_over_and_again_after_an_override(tmp_path):
    ctl = lined_up(tmp_path)
    worker = Worker()
    run_relay(worker, ctl)
    rules, state = ctl.view.ruleset, ctl.view.state
    assert worker.handed == [rules.standing(state)] and len(worker.handed[0]) == 22
    # by marker, as the tracker checks them: home #8 carries marker 7 on the default map
    by_marker = {e.marker: e for e in expectations(worker.handed[0], MarkerMap.default(MarkerSet()))}
    ms = state.players[H(8)].ms
    assert by_marker[7].player == H(8) and by_marker[7].contains(*rules.board(state).ms_center_mm(ms))
    # the coach moves home #8 on the tablet: the camera is told where the rules have him now
    ctl.override(H(8), 490.0, 330.0)
    run_relay(worker, ctl)
    moved = {s.player: s for s in worker.handed[-1]}[H(8)]
    assert len(worker.handed) == 2 and moved.contains(490.0, 330.0)
    ctl.close()


def test_a_doubted_sighting_waits_for_one_touch_and_conflicts_are_said_once(tmp_path):
    ctl = lined_up(tmp_path)
    rules, state = ctl.view.ruleset, ctl.view.state
    home8 = state.players[H(8)].ms
    x, y = rules.board(state).ms_center_mm(home8)
    worker = Worker()
    doubt = "the rules have Home #8 there, whose marker does not read: covered, or moved?"
    worker.sightings.put(Sighting(A(9), x, y, 0.0, home8, None, 24, 5.0, None, doubt))
    worker.status.put(ConflictNotice(24, "marker 24 read where the rules have Home #8 (marker 7), unseen: taken "
                                         "for it, partly covered", 1.0))
    run_relay(worker, ctl)
    (proposal,) = ctl.view.proposals
    assert "Away #9" in proposal.text and doubt in proposal.text
    assert state.players[A(9)].ms != home8 and ctl.view.state.players[A(9)].ms == state.players[A(9)].ms
    said = [line for line in ctl.view.log if line.startswith("Camera: marker 24")]
    assert said == ["Camera: marker 24 read where the rules have Home #8 (marker 7), unseen: taken for it, partly "
                    "covered"]
    ctl.drop_proposal(proposal.id)   # one touch: home #8's marker was covered, nothing moved
    assert not ctl.view.proposals and ctl.view.state.players[A(9)].ms == state.players[A(9)].ms
    ctl.close()


def test_on_the_tablet_a_doubted_sighting_asks_and_one_touch_drops_it(tmp_path):
    from pathlib import Path

    from test_ui_app import not_blank, run_scenario

    result = run_scenario("1280x800", tmp_path, "game:doubt")   # tests/ui_play_doubt.py
    assert result["error"] == "", result["error"]
    names = {Path(p).stem.rstrip("0123456789") for p in result["screenshots"]}
    assert {"live_camera_doubt", "live_camera_doubt_dropped"} <= names
    for shot in result["screenshots"]:
        assert not_blank(shot), f"{shot} is blank"
