"""Scripted synthetic sequences for the live tracker: idle frames, a hand hovering over figures
(occlusion, no move), and moves (a hand reaches in, lifts a figure, carries it, sets it down
and leaves), at a fixed frame rate, with the ground truth of every move."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterator

import numpy as np

from .synth import FigurePose, Hand, Scene, render


@dataclass(frozen=True, slots=True)
class Idle:
    frames: int


@dataclass(frozen=True, slots=True)
class Hover:
    """A hand over a board point for ``frames`` frames; nothing moves."""

    x_mm: float
    y_mm: float
    frames: int
    z_mm: float = 90.0


@dataclass(frozen=True, slots=True)
class Sweep:
    """A hand passing over the board from ``(x0, y0)`` to ``(x1, y1)`` in ``frames`` frames,
    ``z_mm`` above it, pausing ``pause_frames`` half-way (as a hand hesitates over the figures);
    nothing moves."""

    x0: float
    y0: float
    x1: float
    y1: float
    frames: int
    z_mm: float = 80.0
    pause_frames: int = 0


@dataclass(frozen=True, slots=True)
class Move:
    """Carry figure ``marker`` to ``(x_mm, y_mm)`` facing ``facing_deg``."""

    marker: int
    x_mm: float
    y_mm: float
    facing_deg: float
    reach_frames: int = 5
    carry_frames: int = 9
    leave_frames: int = 5


@dataclass(frozen=True, slots=True)
class Lift:
    """Pick figure ``marker`` up, hold it still ``lift_mm`` above where it stood for
    ``hold_frames``, and put it back down where it was: no move happened."""

    marker: int
    lift_mm: float
    hold_frames: int = 15
    reach_frames: int = 5
    raise_frames: int = 4
    leave_frames: int = 5


@dataclass(frozen=True, slots=True)
class MoveTruth:
    """A move as it happened: the figure rested at its new place from ``down_s`` (the first frame
    with the hand gone from its marker is ``visible_s``)."""

    marker: int
    x_mm: float
    y_mm: float
    facing_deg: float
    down_s: float
    visible_s: float | None = None


Step = Idle | Hover | Sweep | Move | Lift


def _hand_from(board_w: float, x: float, y: float, z: float) -> Hand:
    towards = 90.0 if y < board_w / 2 else 270.0
    return Hand(x - 45 * math.cos(math.radians(towards)), y - 45 * math.sin(math.radians(towards)), towards, z)


def _hand_beside(board_w: float, x: float, y: float, z: float) -> Hand:
    """A hand whose fingertips reach the figure at (x, y) from the nearer touch line, holding it
    by its base: the fingers stop at the cap's edge."""
    towards = 90.0 if y < board_w / 2 else 270.0
    a = math.radians(towards)
    return Hand(x - 120 * math.cos(a), y - 120 * math.sin(a), towards, z)


def frames(scene: Scene, script: list[Step], fps: float = 30.0, vary_look: bool = True,
           seed: int = 0) -> Iterator[tuple[Scene, float, MoveTruth | None]]:
    """Scenes frame by frame with their times; the frame where a figure is set down carries its
    :class:`MoveTruth`. Noise is drawn anew for every frame when ``vary_look``."""
    rng = np.random.default_rng(seed)
    figures = {f.marker: f for f in scene.figures}
    W = scene.board.width_mm
    k = 0

    def emit(figs: dict[int, FigurePose], hands: tuple[Hand, ...], truth: MoveTruth | None = None):
        nonlocal k
        look = replace(scene.look, seed=int(rng.integers(1 << 30))) if vary_look else scene.look
        out = (replace(scene, figures=tuple(figs.values()), hands=hands, look=look), k / fps, truth)
        k += 1
        return out

    for step in script:
        if isinstance(step, Idle):
            for _ in range(step.frames):
                yield emit(figures, ())
        elif isinstance(step, Hover):
            for i in range(step.frames):
                wobble = 6 * math.sin(i / 3)
                yield emit(figures, (_hand_from(W, step.x_mm + wobble, step.y_mm, step.z_mm),))
        elif isinstance(step, Sweep):
            path = [i / max(step.frames - 1, 1) for i in range(step.frames)]
            half = len(path) // 2
            path = path[:half] + [path[half]] * step.pause_frames + path[half:]
            for a in path:
                x, y = step.x0 + (step.x1 - step.x0) * a, step.y0 + (step.y1 - step.y0) * a
                yield emit(figures, (_hand_from(W, x, y, step.z_mm),))
        elif isinstance(step, Lift):
            f = figures[step.marker]
            side = 150 if f.y_mm < W / 2 else -150
            for i in range(step.reach_frames):
                a = (i + 1) / step.reach_frames
                yield emit(figures, (_hand_from(W, f.x_mm, f.y_mm + (1 - a) * side, 75 + 120 * (1 - a)),))
            lifts = [step.lift_mm * (i + 1) / step.raise_frames for i in range(step.raise_frames)]
            lifts += [step.lift_mm] * step.hold_frames + lifts[::-1][1:] + [0.0]
            for lift in lifts:  # up, held still (hand and figure), down again, by the base: the cap shows
                yield emit({**figures, f.marker: replace(f, lift_mm=lift)}, (_hand_beside(W, f.x_mm, f.y_mm, 30 + lift),))
            for i in range(step.leave_frames):
                a = (i + 1) / step.leave_frames
                yield emit(figures, (_hand_from(W, f.x_mm, f.y_mm + a * side, 80 + 100 * a),))
        elif isinstance(step, Move):
            f = figures[step.marker]
            for i in range(step.reach_frames):  # the hand comes down onto the figure
                a = (i + 1) / step.reach_frames
                yield emit(figures, (_hand_from(W, f.x_mm, f.y_mm + (1 - a) * (150 if f.y_mm < W / 2 else -150),
                                                75 + 120 * (1 - a)),))
            for i in range(step.carry_frames):  # lifted, carried, turned
                a = (i + 1) / step.carry_frames
                x = f.x_mm + (step.x_mm - f.x_mm) * a
                y = f.y_mm + (step.y_mm - f.y_mm) * a
                turn = ((step.facing_deg - f.facing_deg + 180) % 360) - 180
                lift = 40 * math.sin(math.pi * a)
                moving = replace(f, x_mm=x, y_mm=y, facing_deg=f.facing_deg + turn * a, lift_mm=lift)
                yield emit({**figures, f.marker: moving}, (_hand_from(W, x, y, 75 + lift),))
            figures = {**figures, f.marker: replace(f, x_mm=step.x_mm, y_mm=step.y_mm, facing_deg=step.facing_deg,
                                                    lift_mm=0.0)}
            truth = MoveTruth(f.marker, step.x_mm, step.y_mm, step.facing_deg, k / fps)
            for i in range(step.leave_frames):  # the hand lets go and leaves
                a = (i + 1) / step.leave_frames
                away = 1 if step.y_mm < W / 2 else -1
                yield emit(figures, (_hand_from(W, step.x_mm, step.y_mm - away * 160 * a, 80 + 100 * a),),
                           truth if i == 0 else None)


def render_sequence(scene: Scene, script: list[Step], fps: float = 30.0, seed: int = 0
                    ) -> Iterator[tuple[np.ndarray, float, MoveTruth | None, dict]]:
    """Rendered frames: (image, time, move truth or None, marker truths)."""
    for sc, t, truth in frames(scene, script, fps, seed=seed):
        image, markers = render(sc)
        yield image, t, truth, markers


def random_script(rng: np.random.Generator, scene: Scene, moves: int = 6, hovers: int = 3) -> list[Step]:
    """Idle, then moves to free squares and hovers in random order, with idle frames between."""
    board = scene.board
    taken = {board.mm_to_ms(f.x_mm, f.y_mm) for f in scene.figures}
    figs = [f for f in scene.figures if not f.ball and board.mm_to_ms(f.x_mm, f.y_mm) is not None]
    steps: list[Step] = [Idle(8)]
    kinds = ["move"] * moves + ["hover"] * hovers
    rng.shuffle(kinds)
    for kind in kinds:
        if kind == "move":
            f = figs[int(rng.integers(len(figs)))]
            sq = board.mm_to_ms(f.x_mm, f.y_mm)
            for _ in range(50):
                dest = (int(np.clip(sq[0] + rng.integers(-6, 7), 1, board.ms_cols - 2)),
                        int(np.clip(sq[1] + rng.integers(-5, 6), 1, board.ms_rows - 2)))
                if dest not in taken:
                    break
            taken.discard(sq)
            taken.add(dest)
            x, y = board.ms_center_mm(dest)
            steps.append(Move(f.marker, x + rng.uniform(-3, 3), y + rng.uniform(-3, 3), float(rng.uniform(0, 360))))
            figs = [replace(g, x_mm=x, y_mm=y) if g.marker == f.marker else g for g in figs]
        else:
            f = figs[int(rng.integers(len(figs)))]
            steps.append(Hover(f.x_mm, f.y_mm, int(rng.integers(8, 20))))
        steps.append(Idle(int(rng.integers(8, 14))))
    return steps
