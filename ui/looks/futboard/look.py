"""Futboard as it is drawn: the printed field of spaces (with the ring outside it), figures on
their spaces, the ball at a carrier's feet or on its mark, and the scoreboard: the match clock
read as of now or the turn, and one line of what the match waits for."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from companion.board import GridBoard
from companion.futboard import queries as q
from companion.futboard.model import ACTIONS_PER_TURN, KickOff, Penalty, Phase
from companion.futboard.pitch import Pitch
from companion.teams import Team
from companion.view import Summary

from ..base import BallMark, Figure, Look, RectGeometry, Scoreboard, scoreline
from .board import board_shapes, pitch_from_grid, shipped_pitches


def mmss(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class FutboardLook(Look):
    game = "futboard"
    title = "Futboard"
    tick_s = 1.0

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._pitches: dict[int, tuple[GridBoard, Pitch]] = {}
        self._geometry: tuple[GridBoard, Pitch | None, RectGeometry] | None = None

    # --- the field -------------------------------------------------------------------------------
    def _learn(self, pitch: Pitch) -> None:
        """Remember which field a GridBoard is drawn from: the tablet hands ``geometry`` the
        GridBoard only, and the printed kick penalties and reductions live on the Pitch."""
        grid = pitch.grid()
        self._pitches[id(grid)] = (grid, pitch)

    def _learn_state(self, state: Any) -> None:
        if state is not None and getattr(state, "components", None) is not None \
                and id(state.components.pitch.grid()) not in self._pitches:
            self._learn(state.components.pitch)

    def pitch_for(self, board: GridBoard) -> Pitch | None:
        known = self._pitches.get(id(board))
        if known is not None and known[0] is board:
            return known[1]
        for pitch in shipped_pitches():
            # Pitch.grid() is cached by the pitch's value: the same object only for the same field.
            if pitch.grid() is board:
                self._learn(pitch)
                return pitch
        return None

    def geometry(self, board: GridBoard) -> RectGeometry:
        pitch = self.pitch_for(board)
        cached = self._geometry
        if cached is not None and cached[0] is board and cached[1] is pitch:
            return cached[2]
        drawn = pitch if pitch is not None else pitch_from_grid(board)
        geo = RectGeometry(board.length_mm, board.width_mm, drawn.lines, drawn.rows, board_shapes(drawn),
                           margin=drawn.margin, radius=0.42)
        self._geometry = (board, pitch, geo)
        return geo

    def figures(self, state: Any) -> list[Figure]:
        self._learn_state(state)
        out = []
        for p in state.players.values():
            if not p.on_field or p.space is None:
                continue
            # Dim: moved this turn (a player moves once a turn).
            out.append(Figure(p.ref, tuple(p.space), dim=p.ref in state.moved, goalkeeper=p.goalkeeper,
                              manual=p.manual, badge="Y" * p.yellow))
        return out

    def ball(self, state: Any, board: GridBoard) -> BallMark:
        if state.ball is not None:
            return BallMark(carrier=state.ball)
        if state.components is None or board is None:
            return BallMark()
        p, geo = state.components.pitch, self.geometry(board)
        r = state.restart
        if state.phase is Phase.LINEUP and isinstance(r, KickOff):
            return BallMark(at=geo.to_board(p.length_mm / 2, p.width_mm / 2))
        if state.phase is Phase.PENALTY and isinstance(r, Penalty):
            return BallMark(at=geo.to_board(*p.centre_mm(p.spot(q.attacked_end(r.team)))))
        return BallMark()

    # --- the scoreboard ----------------------------------------------------------------------------
    def scoreboard(self, summary: Summary, now: datetime | None = None) -> Scoreboard:
        clock = summary.clock
        w = clock.match
        if w is not None and w.limit_s:
            state = "" if w.running or clock.time_up else "  (stopped)"
            clock_text = f"{mmss(min(w.elapsed_at(now), w.limit_s))} / {mmss(w.limit_s)}{state}"
        else:
            clock_text = f"Turn {summary.turn.number if summary.turn else 0}"
        if summary.goal_limit:
            clock_text += f"   first to {summary.goal_limit}"
        return Scoreboard(scoreline(summary), clock_text, self.phase_line(summary))

    @staticmethod
    def phase_line(summary: Summary) -> str:
        """One short line: what the match is waiting for."""
        phase = summary.phase
        restart = summary.restart
        side = (restart.team if restart is not None else Team.HOME).label
        street = "Street: " if summary.variant == "street" else ""
        if phase == "over":
            winner = summary.result.winner if summary.result is not None else None
            return f"Full time: {winner.label} win" if winner else "Full time: a draw"
        if phase == "lineup":
            return f"{street}Line-up, {side} kicks off"
        if phase == "corner":
            return f"Corner kick for {side}"
        if phase == "penalty":
            return f"Penalty for {side}"
        turn = summary.turn
        if turn is None or turn.team is None:
            return f"{street}Round {summary.round or 0}"
        corner = " (corner)" if restart is not None and restart.kind == "corner" else ""
        return f"{street}{turn.team.label}'s turn{corner}: {turn.actions_left or 0} of " \
               f"{turn.actions_per_turn or ACTIONS_PER_TURN} actions left"
