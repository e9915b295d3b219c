"""Futboard as a ruleset on the Touchline core: commands in, events out."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from ..board import GridBoard
from ..commands import Choose, PlaceFigure, SubmitRoll
from ..events import Event
from ..ruleset import Command, GameRules, Request
from ..sightings import Sighting, Standing
from ..teams import PlayerRef
from . import clock, kicks, move_the_ball, movement, passing, resolve, setup, tackles
from . import commands as c
from . import events as ev
from .advance import advance
from .model import FutboardState, Phase
from .open_actions import open_actions
from .ranges import reachable
from .sightings import command_for, standing
from .summary import log_line, pending, summary
from .tx import Tx

HANDLERS: dict[type, Callable[[Tx, Any], None]] = {
    c.CreateMatch: setup.create_match,
    SubmitRoll: resolve.submit_roll,
    Choose: resolve.choose,
    PlaceFigure: setup.place_figure,
    c.Substitute: setup.substitute,
    c.Move: movement.move,
    c.Pass: passing.pass_ball,
    c.Kick: kicks.kick,
    c.TakeBall: tackles.take_ball,
    c.EndTurn: move_the_ball.end_turn,
    c.StartClock: clock.start_clock,
    c.PauseClock: clock.pause_clock,
    c.CallTimeUp: clock.call_time_up,
}


class FutboardRules(GameRules):
    game = "futboard"
    title = "Futboard"
    created_type = ev.MatchCreated
    create_command = c.CreateMatch
    handlers = HANDLERS
    transaction = Tx
    advance = staticmethod(advance)
    actions_now = staticmethod(open_actions)
    over_phase = Phase.OVER
    setup_section = "Start"
    ending_section = "Start"

    def stop_clocks(self, state: FutboardState, at: datetime, why: str) -> Command | None:
        if not state.created or state.phase is Phase.OVER or not state.clock.running:
            return None
        return c.PauseClock(at, why)

    def start_clocks(self, state: FutboardState, at: datetime) -> Command | None:
        """The match clock started (again), where the match plays against a time limit."""
        if (not state.created or state.phase is Phase.OVER or state.clock.running or state.time_up
                or state.options.time_limit_min is None):
            return None
        return c.StartClock(at)

    def initial_state(self) -> FutboardState:
        return FutboardState()

    def pending(self, state: FutboardState) -> tuple[Request, ...]:
        return pending(state)

    def summary(self, state: FutboardState) -> dict[str, Any]:
        return summary(state)

    def command_for(self, state: FutboardState, sighting: Sighting) -> Command | None:
        return command_for(state, sighting)

    def standing(self, state: FutboardState) -> tuple[Standing, ...]:
        return standing(state)

    def board(self, state: FutboardState) -> GridBoard | None:
        """The field as a GridBoard (one square a space) for the tablet to draw."""
        return state.components.pitch.grid() if state.components is not None else None

    def reachable(self, state: FutboardState, player: PlayerRef) -> frozenset:
        if player not in state.players:
            return frozenset()
        return reachable(state, player)

    def log_line(self, state_before: FutboardState, event: Event) -> str | None:
        return log_line(state_before, event.payload)
