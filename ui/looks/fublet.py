"""Fublet as it is drawn: movement squares over the printed pass squares, figures on their
squares, a loose ball in its pass square, and the round's scoreboard."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from companion.board import GridBoard
from companion.view import Summary

from .base import BallMark, Figure, Look, RectGeometry, Scoreboard, grid_shapes, scoreline


def geometry_of(board: GridBoard) -> RectGeometry:
    # A Fublet figure stands on about two movement squares: drawn a little larger than one.
    return RectGeometry(board.length_mm, board.width_mm, board.ms_cols, board.ms_rows, grid_shapes(board),
                        radius=0.9)


class FubletLook(Look):
    game = "fublet"
    title = "Fublet"

    def geometry(self, board: GridBoard) -> RectGeometry:
        return self.cached_geometry(board, geometry_of)

    def figures(self, state: Any) -> list[Figure]:
        out = []
        for p in state.players.values():
            if not p.on_pitch or p.ms is None:
                continue
            status = p.status.value
            out.append(Figure(p.ref, p.ms, dim=status != "ready" or p.injured, crossed=status == "stunned",
                              goalkeeper=p.goalkeeper, manual=p.manual, badge="Y" * p.yellow))
        return out

    def ball(self, state: Any, board: GridBoard) -> BallMark:
        ball = state.ball
        if ball.carrier is not None:
            return BallMark(carrier=ball.carrier)
        if ball.ps is None or board is None:
            return BallMark()
        # A loose ball lies in a pass square: drawn at its centre.
        return BallMark(at=board.ps_center_mm(ball.ps))

    def scoreboard(self, summary: Summary, now: datetime | None = None) -> Scoreboard:
        shoot = summary.shootout
        extra = f"  ({shoot[0]}-{shoot[1]} pens)" if shoot is not None else ""
        turn = summary.turn
        kind = " (transition)" if turn is not None and turn.step == "transition" else ""
        clock = summary.clock
        return Scoreboard(scoreline(summary) + extra, f"{clock.minute or 0}'  {clock.period}",
                          f"Round {summary.round or 0}{kind}: {summary.phase.replace('_', ' ')}")
