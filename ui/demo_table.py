"""The demo's rendered table: a board, its figures in the demo's kick-off shape, and a hand
that moves them when told. The camera service shows it as the "demo" camera; the demo's
director (ui/demo.py) plays a match on it.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, replace

from companion.teams import PlayerRef, Team

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731

# Kick-off shape (movement squares); Home defends x = 0, Away is its mirror image.
HOME_SHAPE = {1: (1, 15), 2: (8, 4), 3: (8, 12), 4: (8, 19), 5: (8, 27), 6: (16, 4), 7: (16, 12), 8: (18, 19),
              10: (16, 27), 9: (22, 12), 11: (22, 19)}
SHAPE = {**{H(n): ms for n, ms in HOME_SHAPE.items()},
         **{A(n): (47 - ms[0], 31 - ms[1]) for n, ms in HOME_SHAPE.items()}}


def shape_for(board) -> dict[PlayerRef, tuple[int, int]]:
    """SHAPE on another board's grid (the demo camera watching another game's table): the same
    places as shares of the pitch."""
    if (board.ms_cols, board.ms_rows) == (48, 32):
        return SHAPE
    return {ref: (min(board.ms_cols - 1, ms[0] * board.ms_cols // 48),
                  min(board.ms_rows - 1, ms[1] * board.ms_rows // 32)) for ref, ms in SHAPE.items()}


@dataclass(frozen=True)
class SetUp:
    """Every figure stood anew between two frames (the coaches lining up for a kick-off)."""

    figures: tuple


class DemoTable:
    """A rendered table: the board, its figures, and a hand that moves them when told.

    ``frames()`` yields ``(image, time)`` for ``vision.sources.IterSource``: idle frames, or the
    frames of a queued move (a hand comes down, lifts the figure, carries it, lets go).
    ``squares`` says where each figure stands, or will once the queued moves are played."""

    def __init__(self, board, size: tuple[int, int] = (1920, 1080), fps: float = 30.0, seed: int = 3) -> None:
        from vision.config import MarkerMap, MarkerSet
        from vision.synth import random_scene

        self.markers = MarkerSet()
        self.marker_map = MarkerMap.default(self.markers)
        self.marker_of = {e.player: m for m, e in self.marker_map.entries.items()}
        scene = random_scene(seed, board, self.markers, size=size, hand=False, distortion=0.0, look_strength=0.3)
        self.board = board
        self.fps = fps
        self.scene = replace(scene, figures=(), hands=())
        self._moves: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._frame = 0
        self._playing = False
        self._busy = False      # a hand is moving a figure
        self._idle_run = 0      # idle frames since the hand let go
        self.squares: dict[PlayerRef, tuple[int, int]] = {}

    def set_up(self, positions: dict[PlayerRef, tuple[int, int]]) -> None:
        """Stand figures on their squares (the coaches set up): at once before the camera
        starts, else after the moves already queued, between two frames."""
        from vision.synth import FigurePose

        figures = []
        for ref, ms in positions.items():
            x, y = self.board.ms_center_mm(ms)
            figures.append(FigurePose(self.marker_of[ref], x, y, 0.0 if ref.team is Team.HOME else 180.0,
                                      team=ref.team.value))
        self.squares = dict(positions)
        if self._playing:
            self._busy, self._idle_run = True, 0
            self._moves.put(SetUp(tuple(figures)))
        else:
            self.scene = replace(self.scene, figures=tuple(figures))

    def move(self, ref: PlayerRef, ms: tuple[int, int], facing: float | None = None) -> None:
        """A coach's hand moves a figure to a square (queued; the camera sees it happen)."""
        from vision.scenario import Move

        x, y = self.board.ms_center_mm(ms)
        marker = self.marker_of[ref]
        current = next(f for f in self.scene.figures if f.marker == marker)
        self.squares[ref] = ms
        self._busy, self._idle_run = True, 0   # before the queue shows it: never "settled" in between
        self._moves.put(Move(marker, x, y, current.facing_deg if facing is None else facing))

    def stop(self) -> None:
        self._stop.set()

    def settled(self, frames: int) -> bool:
        """Nothing queued, no hand over the table, and ``frames`` idle frames shown since."""
        return self._moves.empty() and not self._busy and self._idle_run >= frames

    def frames(self):
        from vision.scenario import Idle, frames
        from vision.synth import render

        self._playing = True
        while not self._stop.is_set():
            try:
                step = self._moves.get_nowait()
            except queue.Empty:
                step = Idle(1)
            if isinstance(step, SetUp):
                self.scene = replace(self.scene, figures=step.figures)
                step = Idle(1)
            for scene, _t, _truth in frames(self.scene, [step], self.fps, vary_look=False, seed=self._frame):
                image, _ = render(scene)
                self._frame += 1
                yield image, self._frame / self.fps
                last = scene
            if not isinstance(step, Idle):
                self.scene = replace(last, hands=())
            elif self._moves.empty():
                self._busy = False
                self._idle_run += 1
