"""The Fußball-Liga variant as a ruleset on the Touchline core: commands in, events out."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from ..commands import Choose, PlaceFigure, SubmitRoll
from ..events import Event
from ..ruleset import Command, GameRules, Request
from ..sightings import Sighting, Standing
from ..teams import PlayerRef
from . import (bonus, discipline, dribbling, interception, kicks, landing, movement, restarts, resolve, setup,
               timing)
from . import commands as c
from . import events as ev
from .flow import advance
from .model import (AdvantageCtx, Ask, BonusCtx, Choice, DribbleCtx, EndsCtx, GoalPostCtx, GoalShotCtx, InterceptCtx,
                    KeeperCtx, LigaState, PenaltyCtx, Phase, ReceiverCtx, SaveCtx, TakePassCtx, TossCtx, TossPickCtx)
from .pitch import Pitch
from .open_actions import open_actions
from .ranges import reachable
from .sightings import command_for, standing
from .summary import log_line, pending, summary
from .timing import stamp as _stamp
from .tx import Tx, refuse


def pass_turn(tx: Tx, cmd: c.PassTurn) -> None:
    phase = tx.state.phase
    if phase is Phase.SHOT:
        kicks.pass_turn_shot(tx, cmd.team)
    elif phase is Phase.MOVEMENT:
        movement.pass_turn_movement(tx, cmd.team)
    elif phase is Phase.SET_UP and tx.state.restart is not None and tx.state.restart.kind.value != "penalty_kick":
        restarts.pass_turn_setup(tx, cmd.team)
    else:
        raise refuse("Game Turn", f"there is nothing to pass in the {phase.label} phase")


HANDLERS: dict[type, Callable[[Tx, Any], None]] = {
    c.CreateMatch: setup.create_match,
    SubmitRoll: resolve.submit_roll,
    Choose: resolve.choose,
    PlaceFigure: setup.place_figure,
    c.PlaceBall: setup.place_ball,
    c.Kick: kicks.kick,
    c.Intercept: interception.intercept,
    c.HoldBall: kicks.hold_ball,
    c.Move: movement.move,
    c.MoveBall: movement.move_ball,
    c.Tackle: dribbling.tackle,
    c.PassTurn: pass_turn,
    c.TakePenalty: restarts.take_penalty,
    c.CallMisconduct: discipline.call_misconduct,
    c.Substitute: discipline.substitute,
    c.PauseClock: timing.pause_clock,
    c.ResumeClock: timing.resume_clock,
    c.CallTimeUp: timing.call_time_up,
}

# What a roll means, by the kind of roll (its context's type): (tx, ask, original, modified).
RESOLVERS: dict[type, Callable[[Tx, Ask, int, int], None]] = {
    DribbleCtx: dribbling.resolve_dribble,
    InterceptCtx: interception.resolve_intercept,
    SaveCtx: interception.resolve_save,
    GoalShotCtx: landing.resolve_goal_shot,
    GoalPostCtx: landing.resolve_post,
    TakePassCtx: landing.resolve_take_pass,
    PenaltyCtx: restarts.resolve_penalty,
}

# What a coach's answer to a choice means, by the kind of choice.
CHOICES: dict[type, Callable[[Tx, Choice, str], None]] = {
    BonusCtx: bonus.choose_bonus,
    AdvantageCtx: discipline.choose_advantage,
    KeeperCtx: discipline.choose_keeper,
    ReceiverCtx: landing.choose_receiver,
    TossCtx: setup.choose_toss,
    TossPickCtx: setup.choose_toss_pick,
    EndsCtx: setup.choose_ends,
}


class RulesTx(Tx):
    """The transaction handlers get: the Fußball-Liga fold, and the tables above for the code below."""

    __slots__ = ()
    resolvers = RESOLVERS
    choices = CHOICES


class FussballLigaRules(GameRules):
    game = "fussball_liga"
    title = "Fußball-Liga"
    created_type = ev.MatchCreated
    create_command = c.CreateMatch
    handlers = HANDLERS
    transaction = RulesTx
    advance = staticmethod(advance)
    actions_now = staticmethod(open_actions)
    over_phase = Phase.OVER
    setup_section = "Set-Up"
    ending_section = "Game Duration"

    envelope = staticmethod(_stamp)  # the clocks brought to each event's time (timing.stamp)

    def initial_state(self) -> LigaState:
        return LigaState()

    def stop_clocks(self, state: LigaState, at: datetime, why: str) -> Command | None:
        """The half's clock (and with it the phase timer or chess clock) paused, when it runs."""
        c_ = state.clocks
        if (not state.created or state.phase is Phase.OVER or not c_.half_on or c_.paused
                or not state.period.timed):
            return None
        return c.PauseClock(why)

    def start_clocks(self, state: LigaState, at: datetime) -> Command | None:
        if not state.created or state.phase is Phase.OVER or not state.clocks.paused:
            return None
        return c.ResumeClock()

    def pending(self, state: LigaState) -> tuple[Request, ...]:
        return pending(state)

    def summary(self, state: LigaState) -> dict[str, Any]:
        return summary(state)

    def command_for(self, state: LigaState, sighting: Sighting) -> Command | None:
        return command_for(state, sighting)

    def standing(self, state: LigaState) -> tuple[Standing, ...]:
        return standing(state)

    def board(self, state: LigaState) -> Pitch | None:
        return state.components.pitch if state.components is not None else None

    def reachable(self, state: LigaState, player: PlayerRef) -> frozenset:
        return reachable(state, player)

    def log_line(self, state_before: LigaState, event: Event) -> str | None:
        return log_line(state_before, event.payload)
