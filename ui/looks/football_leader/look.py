"""Football Leader as it is drawn: the board of 38 spaces, counters in the half of their space
nearest their own goal (the sheets' places, dimmed, before the first kick-off), the ball at a
carrier's feet or on the centre spot, and the scoreboard: half and turn (the game has no
clock) and what the match waits for."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from companion.football_leader.model import Phase
from companion.football_leader.pitch import SpaceBoard
from companion.teams import PlayerRef
from companion.view import Summary

from ..base import BallMark, Figure, Look, Scoreboard, scoreline
from .board import SpaceGeometry, counter_spots


class FootballLeaderLook(Look):
    game = "football_leader"
    title = "Football Leader"

    def geometry(self, board: SpaceBoard) -> SpaceGeometry:
        return self.cached_geometry(board, SpaceGeometry)

    def figures(self, state: Any) -> list[Figure]:
        if state.components is None:
            return []
        g = self.geometry(state.components.board)
        spots = counter_spots(state, g)
        out = []
        for p in state.players.values():
            if p.ref in spots:
                # Dim: a Moved Marker on it; the badge: booked (a yellow card marker).
                out.append(Figure(p.ref, p.space, dim=p.markers > 0, goalkeeper=p.goalkeeper, manual=p.manual,
                                  at=spots[p.ref], badge="Y" * p.yellow))
        if state.phase is Phase.SET_UP:
            out.extend(self._sheet_preview(state, g, {f.ref for f in out}))
        return out

    @staticmethod
    def _sheet_preview(state: Any, g: SpaceGeometry, placed: set) -> list[Figure]:
        """Before the first kick-off no counter stands yet: the sheets' places, dimmed, so a
        coach can touch them (a position change) before both confirm."""
        if state.restart is None:
            return []
        kick_off = state.restart.kind.value == "kick_off"
        where = {}
        for team, sheet in state.sheets.items():
            for number, space in (sheet.kick_off if kick_off else sheet.goal_kick).items():
                ref = PlayerRef(team, number)
                p = state.players.get(ref)
                if ref not in placed and p is not None and p.on_pitch and g.board.has(space):
                    where[ref] = space
        spots = counter_spots(state, g, where)
        return [Figure(ref, space, dim=True, at=spots[ref]) for ref, space in where.items()]

    def ball(self, state: Any, board: SpaceBoard | None) -> BallMark:
        if state.ball is not None:
            return BallMark(carrier=state.ball)
        if board is None:
            return BallMark()
        # Before a kick-off the ball waits on the centre spot.
        g = self.geometry(board)
        return BallMark(at=g.to_drawing(board.length_mm / 2, board.width_mm / 2))

    def scoreboard(self, summary: Summary, now: datetime | None = None) -> Scoreboard:
        text = scoreline(summary)
        if summary.shootout is not None:
            text += f"  ({summary.shootout[0]}-{summary.shootout[1]} pens)"
        turn = summary.turn
        half = summary.clock.period
        # No clock: a half lasts as long as the decks; the turn counts the time.
        clock = f"{half}, turn {turn.number}" if turn else half
        if summary.last_turn:
            clock += f" of {summary.last_turn}"
        phase = summary.phase.replace("_", " ")
        r = summary.restart
        if turn and summary.phase == "turn":
            phase = f"{turn.team.label}'s turn: {turn.step.replace('_', ' ')}"
        elif r is not None and summary.phase in ("set_up", "kick_off"):
            phase = f"{phase.capitalize()}: {r.kind.replace('_', ' ')} for {r.team.label}"
        result = summary.result
        if result:
            phase = "Full time" + (f": {result.winner.label} win ({result.decided_by})" if result.winner else ": a draw")
        return Scoreboard(text, clock, phase)
