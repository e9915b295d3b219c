"""The Fußball-Liga variant as it is drawn: the square grid with its ring, figures on their
squares (the moved ones dimmed, as the rulebook turns them upside-down), the ball at a
holder's feet, in its square or on the centre mark, and the scoreboard: the half's clock read
as of now and what the match waits for."""

from __future__ import annotations

from datetime import datetime

from companion.fussball_liga.model import LigaState, Phase, RestartKind
from companion.fussball_liga.pitch import Pitch
from companion.view import Summary

from ..base import BallMark, Figure, Look, RectGeometry, Scoreboard, scoreline
from .board import geometry_of


def mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


class FussballLigaLook(Look):
    game = "fussball_liga"
    title = "Fußball-Liga"
    tick_s = 0.5

    def geometry(self, board: Pitch) -> RectGeometry:
        return self.cached_geometry(board, geometry_of)

    def figures(self, state: LigaState) -> list[Figure]:
        m = state.movement
        moving = state.phase is Phase.MOVEMENT
        out = []
        for p in state.players.values():
            if not p.placed:
                continue
            # Moved players are dimmed (the rulebook turns them upside-down), bar the one moving now.
            moved = moving and p.ref in m.by_player and p.ref != m.current
            out.append(Figure(p.ref, p.square, dim=moved, crossed=p.ref in m.committed and moving,
                              goalkeeper=p.goalkeeper or p.stand_in, manual=p.manual, badge="Y" * p.yellow))
        return out

    def ball(self, state: LigaState, board: Pitch | None) -> BallMark:
        ball = state.ball
        if board is None:
            return BallMark()
        if ball.holder is not None and state.players[ball.holder].square == ball.square:
            return BallMark(carrier=ball.holder)
        f = state.flight
        if f is not None and ball.square == f.origin and state.players[f.kicker].square == f.origin:
            return BallMark(carrier=f.kicker)   # at the kicker's feet until the flight resolves
        if ball.square is not None:
            return BallMark(cell=ball.square)
        if state.restart is not None and state.restart.kind is RestartKind.KICK_OFF:
            # On the centre mark, between squares.
            g = self.geometry(board)
            return BallMark(at=g.to_board(board.centre[0] * board.square_mm, board.centre[1] * board.square_mm))
        return BallMark()

    def scoreboard(self, summary: Summary, now: datetime | None = None) -> Scoreboard:
        if not summary.created:
            return Scoreboard("Fußball-Liga", "", "")
        shoot = summary.shootout
        pens = f"  ({shoot[0]}-{shoot[1]} pens)" if shoot is not None else ""
        text = scoreline(summary) + pens
        clock = summary.clock
        half = clock.period
        w = clock.match
        if w is not None and w.limit_s:
            time = mmss(min(w.elapsed_at(now), w.limit_s))
            if clock.time_up:
                time += " up"
            elif clock.paused:
                time += " paused"
            when = f"{time}  {half}"
        else:
            when = half
        phase = summary.phase
        result = summary.result
        if result is not None:
            line = f"Final {result.home}-{result.away} ({result.decided_by})"
        elif phase in ("shot", "movement"):
            turn = summary.turn
            att = turn.team.label if turn is not None and turn.team is not None else ""
            line = f"Turn {turn.number if turn else 0}: {att} attacks, {phase} phase"
        else:
            line = phase.replace("_", "-")
            rs = summary.restart
            if rs is not None:
                line = f"{rs.kind.replace('_', ' ').capitalize()} for {rs.team.label}: {line}"
        return Scoreboard(text, when, line)
