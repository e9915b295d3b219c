"""The fold: how each Futboard event changes the match state. No rules are decided here;
``decide`` already wrote its conclusions into the events, so this stays small and fast."""

from __future__ import annotations

from typing import Any, Callable

from ..events import EventPayload, parse_time
from ..records import changed as _with  # a record's changed copy, fast (see records.py)
from ..records import player_changed as _player, player_put as _put
from ..teams import PlayerRef, Team
from . import events as ev
from .model import Booking, Clock, FutboardState, Goal, KickOff, Phase, PlayerState, Where

# Enum members the fold reads per event, as module names: in Python 3.11 ``Phase.PLAY`` goes
# through the enum metaclass's ``__getattr__`` hook, some forty times slower than a global.
_PLAY = Phase.PLAY




def match_created(s: FutboardState, e: ev.MatchCreated) -> FutboardState:
    players = {}
    for team, roster, lineup in ((Team.HOME, e.home, e.home_lineup), (Team.AWAY, e.away, e.away_lineup)):
        for tile in roster.tiles:
            ref = PlayerRef.of(team, tile.number)  # shared instances: lookups by identity
            where = Where.FIELD if tile.number in lineup else Where.RESERVE
            players[ref] = PlayerState(ref=ref, tile=tile, where=where)
    return FutboardState(created=True, home=e.home, away=e.away, components=e.components, options=e.options,
                         players=players, phase=Phase.LINEUP, restart=KickOff(e.options.kick_off))


def figure_placed(s: FutboardState, e: ev.FigurePlaced) -> FutboardState:
    ref = e.player
    return _put(s, ref, _with(s.players[ref], space=e.space, manual=e.correction))


def player_moved(s: FutboardState, e: ev.PlayerMoved) -> FutboardState:
    ref = e.player
    players = dict(s.players)
    players[ref] = _with(players[ref], space=e.to, manual=False)
    if not e.action:
        return _with(s, players=players)
    # The player's changes and the turn's in one changed state (runs for most moves).
    return _with(s, players=players, moved=s.moved | {ref}, actions_left=s.actions_left - 1,
                 ball_moved=s.ball_moved or s.ball == ref)


def ball_passed(s: FutboardState, e: ev.BallPassed) -> FutboardState:
    return _with(s, ball=e.receiver, ball_moved=True, actions_left=s.actions_left - 1)


def kick_taken(s: FutboardState, e: ev.KickTaken) -> FutboardState:
    return _with(s, ball_moved=True, actions_left=s.actions_left - 1)


def take_attempted(s: FutboardState, e: ev.TakeAttempted) -> FutboardState:
    return _with(s, actions_left=s.actions_left - 1)


def dice_rolled(s: FutboardState, e: ev.DiceRolled) -> FutboardState:
    item_id, _, index = e.request[1:].partition(".")
    cid, idx = int(item_id), int(index or 0)
    queue = []
    for item in s.queue:
        if item.id == cid:
            tests = list(item.tests)
            tests[idx] = _with(tests[idx], result=e.reading)
            item = _with(item, tests=tuple(tests))
        queue.append(item)
    return _with(s, queue=tuple(queue))


def turn_ended(s: FutboardState, e: ev.TurnEnded) -> FutboardState:
    return _with(s, actions_left=0)


def substitution_made(s: FutboardState, e: ev.SubstitutionMade) -> FutboardState:
    space = s.players[e.off].space
    s = _player(s, e.off, where=Where.RESERVE, space=None, manual=False)
    return _player(s, e.on, where=Where.FIELD, space=space, manual=False)


def clock_started(s: FutboardState, e: ev.ClockStarted) -> FutboardState:
    return _with(s, clock=Clock(elapsed_s=s.clock.elapsed_s, since=e.at, last=e.at))


def clock_paused(s: FutboardState, e: ev.ClockPaused) -> FutboardState:
    return _with(s, clock=Clock(elapsed_s=s.clock.elapsed_at(parse_time(e.at)), since=None, last=e.at))


def time_up_called(s: FutboardState, e: ev.TimeUpCalled) -> FutboardState:
    # The match clock stops at the limit.
    return _with(s, time_up=True, clock=Clock(elapsed_s=e.elapsed_s, since=None, last=e.at))


def pending_opened(s: FutboardState, e: ev.PendingOpened) -> FutboardState:
    return _with(s, queue=s.queue + (e.item,), next_id=max(s.next_id, e.item.id + 1))


def contest_resolved(s: FutboardState, e: ev.ContestResolved) -> FutboardState:
    return _with(s, queue=tuple(c for c in s.queue if c.id != e.id), last_outcome=e.outcome)


def kick_off_taken(s: FutboardState, e: ev.KickOffTaken) -> FutboardState:
    return _with(s, round=s.round + 1, phase=_PLAY, restart=None, ball=e.player)


def turn_started(s: FutboardState, e: ev.TurnStarted) -> FutboardState:
    return _with(s, turn=e.team, actions_left=e.actions, turn_no=s.turn_no + 1, moved=frozenset(), ball_moved=False)


def ball_set(s: FutboardState, e: ev.BallSet) -> FutboardState:
    return _with(s, ball=e.carrier)


def phase_started(s: FutboardState, e: ev.PhaseStarted) -> FutboardState:
    if e.phase is _PLAY:
        return _with(s, phase=e.phase)
    return _with(s, phase=e.phase, turn=None, actions_left=0, moved=frozenset(), ball_moved=False)


def restart_set(s: FutboardState, e: ev.RestartSet) -> FutboardState:
    return _with(s, restart=e.restart)


def foul_committed(s: FutboardState, e: ev.FoulCommitted) -> FutboardState:
    team = e.fouler.team
    return _with(s, fouls={**s.fouls, team: s.fouls[team] + 1})


def card_shown(s: FutboardState, e: ev.CardShown) -> FutboardState:
    s = _with(s, bookings=s.bookings + (Booking(e.player, e.yellow_cards, e.sent_off, s.turn_no),))
    if e.sent_off:
        return _player(s, e.player, yellow=e.yellow_cards, where=Where.OFF, space=None)
    return _player(s, e.player, yellow=e.yellow_cards)


def goal_scored(s: FutboardState, e: ev.GoalScored) -> FutboardState:
    return _with(s, score={**s.score, e.team: s.score[e.team] + 1},
                 goals=s.goals + (Goal(e.team, e.scorer, e.how, s.turn_no),))


def match_ended(s: FutboardState, e: ev.MatchEnded) -> FutboardState:
    return _with(s, result=e.result, phase=Phase.OVER, queue=(), turn=None, actions_left=0, restart=None)


HANDLERS: dict[type, Callable[[FutboardState, Any], FutboardState]] = {
    ev.MatchCreated: match_created, ev.FigurePlaced: figure_placed, ev.PlayerMoved: player_moved,
    ev.BallPassed: ball_passed, ev.KickTaken: kick_taken, ev.TakeAttempted: take_attempted,
    ev.DiceRolled: dice_rolled, ev.TurnEnded: turn_ended, ev.SubstitutionMade: substitution_made,
    ev.ClockStarted: clock_started, ev.ClockPaused: clock_paused, ev.TimeUpCalled: time_up_called,
    ev.PendingOpened: pending_opened, ev.ContestResolved: contest_resolved, ev.KickOffTaken: kick_off_taken,
    ev.TurnStarted: turn_started, ev.BallSet: ball_set, ev.PhaseStarted: phase_started,
    ev.RestartSet: restart_set, ev.FoulCommitted: foul_committed, ev.CardShown: card_shown,
    ev.GoalScored: goal_scored, ev.MatchEnded: match_ended,
}


def evolve_payload(state: FutboardState, payload: EventPayload) -> FutboardState:
    try:
        handler = HANDLERS[type(payload)]
    except KeyError:
        raise ValueError(f"Futboard cannot apply event type {payload.TYPE!r}") from None
    return handler(state, payload)


# A replay dispatches on the table itself (companion/match.py): one call less per event.
evolve_payload.handlers = HANDLERS  # type: ignore[attr-defined]

