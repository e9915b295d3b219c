"""The demo's script (ui/demo_script.py) played on the rules core alone: a stand-in for the
director that turns each of its steps into the command the devices would send (a tray roll,
a camera sighting, a coach's tap), so the whole highlight is checked in a second, without a
window, a camera or a tray. tests/test_ui_demo.py plays the real thing."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.commands import Choose, PlaceFigure, SubmitRoll  # noqa: E402
from companion.dice import DieKind, roll_of  # noqa: E402
from companion.events import Source  # noqa: E402
from companion.fublet import commands as c  # noqa: E402
from companion.fublet.components import load_components, shipped_team  # noqa: E402
from companion.fublet.rules import FubletRules  # noqa: E402
from companion.match import Match  # noqa: E402
from companion.sightings import Sighting  # noqa: E402
from companion.teams import Team  # noqa: E402
from ui.demo import Caption, DemoDirector  # noqa: E402
from ui.demo_script import CHAPTERS  # noqa: E402
from ui.demo_table import SHAPE  # noqa: E402

START = datetime(2026, 12, 1, 18, 0, 0, tzinfo=timezone.utc)


class RulesOnly:
    """The director's steps, straight into a Match (the director's own wording helpers)."""

    team, name, who, minute, score, result = (DemoDirector.team, DemoDirector.name, DemoDirector.who,
                                              DemoDirector.minute, DemoDirector.score, DemoDirector.result)

    def __init__(self) -> None:
        ticks = iter(range(10**6))
        self.m = Match(FubletRules(), clock=lambda: START + timedelta(seconds=next(ticks)))
        self.captions: list[Caption] = []
        self.chapters: list[str] = []
        self.gestures: list[tuple[str, object]] = []
        self.sources: dict[str, int] = {}
        self._chapter = ""

    @property
    def state(self):
        return self.m.state

    def do(self, command, source: Source = Source.MANUAL) -> None:
        before = self.m.last_seq
        self.m.submit(command, source)
        assert self.m.last_seq > before, f"{command} changed nothing"

    # --- what the script calls --------------------------------------------------------------------
    def chapter(self, title: str) -> None:
        assert title in CHAPTERS
        self.chapters.append(title)
        self._chapter = title

    def say(self, text: str, hold: float = 1.0) -> None:
        self.captions.append(Caption(CHAPTERS.index(self._chapter) + 1, self._chapter, text))

    @contextmanager
    def faster(self):
        yield

    def start_devices(self) -> None:
        self.do(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()))
        # What the camera proposes when it first sees the table: every figure where it stands.
        self.camera_sees_line_up = True

    def wait(self, what: str, check) -> None:
        if what == "the camera to see the line-up":
            b = self.state.components.board
            for ref, ms in SHAPE.items():
                self.sighting(ref, b.ms_center_mm(ms))
        assert check(), f"waiting for {what}, which did not happen"

    def sighting(self, ref, at) -> None:
        command = self.m.ruleset.command_for(self.state, Sighting(ref, at[0], at[1], None))
        if command is not None:
            self.do(command, Source.VISION)

    def roll(self, group: str, faces: list[int], what: str) -> None:
        side = Team(group.partition("-")[0])
        colours = ("black", "white")[:len(faces)]
        self.do(SubmitRoll(roll_of(DieKind.D10, *faces, owner=side, colours=colours, source=Source.TRAY)),
                Source.TRAY)

    def submit(self, command, what: str) -> None:
        self.do(command)

    def choose(self, option: str, what: str) -> None:
        request = next(r for r in self.m.pending() if r.kind == "choice" and option in r.options)
        self.do(Choose(request.id, option))

    def hand_move(self, ref, ms, what: str) -> None:
        self.sighting(ref, self.state.components.board.ms_center_mm(ms))
        assert self.state.players[ref].ms == ms, f"{what}: the camera's move was not taken"

    def follow(self, what: str) -> None:
        pass   # the figures go where the rules put them: the camera sees nothing new

    def override(self, ref, ms, what: str) -> None:
        self.gestures.append(("override", ref))
        x, y = self.state.components.board.ms_center_mm(ms)
        self.do(PlaceFigure(ref, x_mm=x, y_mm=y, correction=True))

    def undo(self, what: str, check) -> None:
        assert self.m.undo(1)
        assert check(), what

    def lineup(self, what: str) -> None:
        on = [p.ref for p in self.state.players.values() if p.on_pitch]
        for ref in on:
            self.do(PlaceFigure(ref, square=None))
        for ref in on:
            self.do(PlaceFigure(ref, square=SHAPE[ref], facing=0 if ref.team is Team.HOME else 180))

    def pass_phase(self, phase) -> None:
        while self.state.phase is phase:
            self.do(c.PassTurn(self.state.turn or Team.HOME))

    def show_report(self) -> None:
        self.gestures.append(("report", None))
