"""Fublet as a ruleset on the Touchline core: commands in, events out."""

from __future__ import annotations

from typing import Any, Callable

from ..commands import Choose, PlaceFigure, SubmitRoll
from ..events import Event
from ..ruleset import Command, GameRules, Request
from ..board import GridBoard
from ..sightings import Sighting, Standing
from ..teams import PlayerRef
from . import actions, challenges, fouls, movement, restarts, resolve, scatter, setup, shots
from . import commands as c
from . import events as ev
from .flow import advance
from .model import (ActionCtx, BallControlCtx, CatchChoiceCtx, Choice, Contest, DisputeCtx, EngagementCtx,
                    EngagementResponseCtx, FoulChoiceCtx, FubletState, GoalkeeperChoiceCtx, HandlingCtx, OffsideCtx,
                    OffsideEscapeCtx, OpeningCtx, Phase, ReceiverChoiceCtx, SaveCtx, ScatterCtx, ShootoutCtx,
                    ShotDeflectionChoiceCtx, ShotDeflectionCtx, SubstituteChoiceCtx, TacticalMoveCtx,
                    ThrowInPositionCtx, VolleyChoiceCtx, VolleyCtx, WallCtx)
from .sightings import command_for, standing
from .open_actions import open_actions
from .ranges import reachable
from .summary import log_line, pending, summary
from .tx import Tx

HANDLERS: dict[type, Callable[[Tx, Any], None]] = {
    c.CreateMatch: setup.create_match,
    SubmitRoll: resolve.submit_roll,
    Choose: resolve.choose,
    PlaceFigure: movement.place_figure,
    c.ChooseBoard: setup.choose_board,
    c.KickOff: setup.kick_off,
    c.Declare: actions.declare,
    c.CallDeflection: actions.call_deflection,
    c.Volley: shots.volley,
    c.Move: movement.move,
    c.ZoneMove: movement.zone_move,
    c.TacticalMove: movement.tactical_move,
    c.CallOffside: movement.call_offside,
    c.PassTurn: movement.pass_turn,
    c.ReachBall: movement.reach_ball,
    c.CallSubstitution: fouls.call_substitution,
    c.SetWall: restarts.set_wall,
    c.ChooseTaker: restarts.choose_taker,
    c.TakeShootoutKick: setup.take_shootout_kick,
}

# What a contest's results mean, by the kind of contest (its context's type).
RESOLVERS: dict[type, Callable[[Tx, Contest], None]] = {
    ScatterCtx: scatter.resolve_scatter,
    ActionCtx: actions.resolve_action,
    BallControlCtx: challenges.resolve_ball_control,
    DisputeCtx: challenges.resolve_dispute,
    EngagementCtx: challenges.resolve_engagement,
    TacticalMoveCtx: movement.resolve_tactical_move,
    OffsideCtx: movement.resolve_offside,
    OffsideEscapeCtx: movement.resolve_offside_escape,
    ThrowInPositionCtx: restarts.resolve_throw_in_position,
    OpeningCtx: setup.resolve_opening,
    ShootoutCtx: setup.resolve_shootout,
    WallCtx: shots.resolve_wall,
    ShotDeflectionCtx: shots.resolve_shot_deflection,
    SaveCtx: shots.resolve_save,
    HandlingCtx: shots.resolve_handling,
    VolleyCtx: shots.resolve_volley,
}

# What a coach's answer to a choice means, by the kind of choice.
CHOICES: dict[type, Callable[[Tx, Choice, str], None]] = {
    EngagementResponseCtx: actions.on_engagement_response,
    ReceiverChoiceCtx: challenges.on_receiver_choice,
    FoulChoiceCtx: fouls.on_foul_choice,
    SubstituteChoiceCtx: fouls.on_substitute_choice,
    GoalkeeperChoiceCtx: fouls.on_goalkeeper_choice,
    ShotDeflectionChoiceCtx: shots.on_shot_deflection_choice,
    CatchChoiceCtx: shots.on_catch_choice,
    VolleyChoiceCtx: shots.on_volley_choice,
}

# What an advantage after a foul goes on with, by the foul's ``on_advantage`` (fouls.py).
AFTER_ADVANTAGE: dict[str, Callable[[Tx, FoulChoiceCtx], None]] = {
    "dribble_on": lambda tx, ctx: actions.next_opponent(tx, ctx.fouler),
    "volley_on": lambda tx, ctx: shots.shot_on_its_way(tx),
}


class RulesTx(Tx):
    """The transaction handlers get: Fublet's fold, and the tables above for the code below."""

    __slots__ = ()
    resolvers = RESOLVERS
    choices = CHOICES
    after_advantage = AFTER_ADVANTAGE


class FubletRules(GameRules):
    game = "fublet"
    title = "Fublet"
    created_type = ev.MatchCreated
    create_command = c.CreateMatch
    handlers = HANDLERS
    transaction = RulesTx
    advance = staticmethod(advance)
    actions_now = staticmethod(open_actions)
    over_phase = Phase.OVER
    setup_section = "Game Setup"
    ending_section = "Winning the Match"

    def initial_state(self) -> FubletState:
        return FubletState()

    def pending(self, state: FubletState) -> tuple[Request, ...]:
        return pending(state)

    def summary(self, state: FubletState) -> dict[str, Any]:
        return summary(state)

    def command_for(self, state: FubletState, sighting: Sighting) -> Command | None:
        return command_for(state, sighting)

    def standing(self, state: FubletState) -> tuple[Standing, ...]:
        return standing(state)

    def board(self, state: FubletState) -> GridBoard | None:
        return state.components.board if state.components is not None else None

    def reachable(self, state: FubletState, player: PlayerRef) -> frozenset:
        return reachable(state, player)

    def log_line(self, state_before: FubletState, event: Event) -> str | None:
        return log_line(state_before, event.payload)
