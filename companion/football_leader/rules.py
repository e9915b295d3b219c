"""Football Leader as a ruleset on the Touchline core: commands in, events out."""

from __future__ import annotations

from typing import Any, Callable

from ..commands import Choose, PlaceFigure, SubmitRoll
from ..events import Event
from ..ruleset import Command, GameRules, Request
from ..sightings import Sighting, Standing
from ..teams import PlayerRef
from . import actions, flow, movement, possession, resolve, setup, shootout, shots, tackles
from . import commands as c
from . import events as ev
from .advance import advance
from .model import (BallLostCtx, Choice, DodgeCardCtx, DodgeCtx, FootballLeaderState, FoulCheckCtx, InterceptCtx,
                    KeeperCtx, MoveCardCtx, MoveDodgeCtx, OpeningCtx, PassCtx, Phase, ReceiverDodgeCtx, Roll,
                    ShootoutCtx, ShotCtx, TackleCtx)
from .open_actions import open_actions
from .pitch import Space, SpaceBoard
from .ranges import reachable
from .sightings import command_for, standing
from .summary import log_line, pending, summary
from .tx import Tx

HANDLERS: dict[type, Callable[[Tx, Any], None]] = {
    c.CreateMatch: setup.create_match,
    c.WriteStrategy: setup.write_strategy,
    c.ChangeStrategy: setup.change_strategy,
    c.Replace: setup.replace,
    c.ConfirmSetUp: setup.confirm_set_up,
    c.KickOff: setup.kick_off,
    c.CallGoalKick: setup.call_goal_kick,
    PlaceFigure: setup.place_figure,
    SubmitRoll: resolve.submit_roll,
    Choose: resolve.choose,
    c.Move: movement.move,
    c.Pass: actions.pass_ball,
    c.Dodge: actions.dodge,
    c.Shoot: shots.shoot,
    c.Tackle: tackles.tackle,
    c.EndTurn: flow.end_turn,
    c.SetShootoutOrder: shootout.set_order,
    c.TakeShootoutKick: shootout.take_kick,
}

# What a roll's result means, by the kind of roll (its context's type).
RESOLVERS: dict[type, Callable[[Tx, Roll], None]] = {
    PassCtx: actions.resolve_pass,
    ReceiverDodgeCtx: actions.resolve_receiver_dodge,
    DodgeCtx: actions.resolve_dodge,
    MoveDodgeCtx: movement.resolve_move_dodge,
    OpeningCtx: setup.resolve_opening,
    ShootoutCtx: shootout.resolve_kick,
    ShotCtx: shots.resolve_shot,
    TackleCtx: tackles.resolve_tackle,
    FoulCheckCtx: tackles.resolve_foul_check,
}

# What a coach's answer to a choice means, by the kind of choice.
CHOICES: dict[type, Callable[[Tx, Choice, str], None]] = {
    InterceptCtx: actions.choose_interceptor,
    BallLostCtx: possession.choose_ball_taker,
    MoveCardCtx: movement.choose_move_card,
    DodgeCardCtx: movement.choose_dodge_card,
    KeeperCtx: tackles.choose_keeper,
}


class RulesTx(Tx):
    """The transaction handlers get: Football Leader's fold, and the tables above for the code below."""

    __slots__ = ()
    resolvers = RESOLVERS
    choices = CHOICES


class FootballLeaderRules(GameRules):
    game = "football_leader"
    title = "Football Leader"
    created_type = ev.MatchCreated
    create_command = c.CreateMatch
    handlers = HANDLERS
    transaction = RulesTx
    advance = staticmethod(advance)
    actions_now = staticmethod(open_actions)
    over_phase = Phase.OVER
    setup_section = "2.1 Game in Progress"
    ending_section = "2.2 Game Ending"

    def initial_state(self) -> FootballLeaderState:
        return FootballLeaderState()

    def pending(self, state: FootballLeaderState) -> tuple[Request, ...]:
        return pending(state)

    def summary(self, state: FootballLeaderState) -> dict[str, Any]:
        return summary(state)

    def command_for(self, state: FootballLeaderState, sighting: Sighting) -> Command | None:
        return command_for(state, sighting)

    def standing(self, state: FootballLeaderState) -> tuple[Standing, ...]:
        return standing(state)

    def board(self, state: FootballLeaderState) -> SpaceBoard | None:
        return state.components.board if state.components is not None else None

    def reachable(self, state: FootballLeaderState, player: PlayerRef) -> frozenset[Space]:
        return reachable(state, player)

    def log_line(self, state_before: FootballLeaderState, event: Event) -> str | None:
        return log_line(state_before, event.payload)
