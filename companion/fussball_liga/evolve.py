"""The fold: how each event changes the match state. No rules are decided here; ``decide``
already wrote its conclusions into the events, so this stays small and fast. (The clocks
are brought up to an event's time by timing.stamp, which needs the envelope's time.)"""

from __future__ import annotations

from typing import Any, Callable

from ..events import EventPayload
from ..records import changed as _with  # a record's changed copy, fast (see records.py)
from ..records import player_changed as _player, player_put as _put
from ..teams import PlayerRef, Team
from . import events as ev
from .clock import STOPPED
from .model import (EMPTY_MOVEMENT, Ball, Booking, Choice, Ask, Attempt, Control, Flight, Foul, Goal, LigaState,
                    Period, Phase, PlayerState, RestartKind, ShootoutKick, Where)

RESTART_KINDS = frozenset(k.value for k in RestartKind)
# Enum members the fold reads per event, as module names: in Python 3.11 ``Where.PITCH``
# goes through the enum metaclass's ``__getattr__`` hook, some forty times slower.
_PITCH, _MOVEMENT, _SHOT = Where.PITCH, Phase.MOVEMENT, Phase.SHOT
_CLOSE, _LOOSE = Control.CLOSE, Control.LOOSE
_HOME, _AWAY = Team.HOME, Team.AWAY




def _remove(s: LigaState, kind: type, item_id: int) -> LigaState:
    return _with(s, queue=tuple(p for p in s.queue if not (isinstance(p, kind) and p.id == item_id)))


def match_created(s: LigaState, e: ev.MatchCreated) -> LigaState:
    players = {}
    for team, roster in ((Team.HOME, e.home), (Team.AWAY, e.away)):
        for card in roster.players:
            ref = PlayerRef.of(team, card.number)  # shared instances: lookups by identity
            starter = card.number in roster.starters
            players[ref] = PlayerState(ref=ref, card=card, where=Where.PITCH if starter else Where.BENCH,
                                       goalkeeper=card.goalkeeper and starter)
    return LigaState(created=True, home=e.home, away=e.away, components=e.components, options=e.options,
                     players=players, phase=Phase.TOSS)


def dice_rolled(s: LigaState, e: ev.DiceRolled) -> LigaState:
    return s  # the roll's meaning follows in roll_resolved


def choice_made(s: LigaState, e: ev.ChoiceMade) -> LigaState:
    return _remove(s, Choice, int(e.request[1:]))


def figure_placed(s: LigaState, e: ev.FigurePlaced) -> LigaState:
    ref = e.player
    p = s.players[ref]
    where = _PITCH if e.square is not None else p.where
    return _put(s, ref, _with(p, square=e.square, where=where, manual=e.correction))


def ball_placed(s: LigaState, e: ev.BallPlaced) -> LigaState:
    return _with(s, ball=e.ball)


def kick_taken(s: LigaState, e: ev.KickTaken) -> LigaState:
    flight = Flight(kicker=e.player, origin=e.origin, target=e.target, path=e.path, distance=len(e.path),
                    kind=e.kind, receiver=e.receiver)
    no_touch = e.player if e.kind in RESTART_KINDS else None
    ball = Ball(square=e.origin, holder=None, control=None, last_team=e.player.team, no_touch=no_touch)
    restart = None if e.kind in RESTART_KINDS else s.restart
    return _with(s, flight=flight, ball=ball, kicked=True, restart=restart)


def interception_called(s: LigaState, e: ev.InterceptionCalled) -> LigaState:
    f = s.flight
    return _with(s, flight=_with(f, attempts=f.attempts + (Attempt(e.player, e.index),)))


def player_moved(s: LigaState, e: ev.PlayerMoved) -> LigaState:
    # _player's changes and the movement books in one changed state (runs for most moves).
    ref, cost = e.player, e.cost
    players = dict(s.players)
    players[ref] = _with(players[ref], square=e.path[-1], where=_PITCH, manual=False)
    m = s.movement
    by_player = {**m.by_player, ref: m.by_player.get(ref, 0) + cost}
    if s.phase is _MOVEMENT:
        team = ref.team
        spent = {**m.spent, team: m.spent[team] + cost}
        moved = m.attacker_moved or team is s.attacking
        return _with(s, players=players, movement=_with(m, spent=spent, by_player=by_player, current=ref,
                                                          attacker_moved=moved))
    return _with(s, players=players, movement=_with(m, by_player=by_player))


def ball_moved(s: LigaState, e: ev.BallMoved) -> LigaState:
    holder = s.players[e.player]
    control = _CLOSE if e.to == holder.square else _LOOSE
    s = _with(s, ball=_with(s.ball, square=e.to, control=control))
    m = s.movement
    team = e.player.team
    return _with(s, movement=_with(m, spent={**m.spent, team: m.spent[team] + e.cost},
                                   by_player={**m.by_player, e.player: m.by_player.get(e.player, 0) + e.cost},
                                   current=e.player, attacker_moved=True, tackled=False))


def tackle_called(s: LigaState, e: ev.TackleCalled) -> LigaState:
    m = s.movement
    return _with(s, movement=_with(m, committed=m.committed + (e.principal,) + e.supporters, tackled=True))


def no_change(s: LigaState, e: Any) -> LigaState:
    return s  # the derived events that follow carry the consequences


def misconduct_called(s: LigaState, e: ev.MisconductCalled) -> LigaState:
    # A call of playing on after time ran out uses up that moment.
    return _with(s, time_ran_out_at=None) if e.offence == "played_on" else s


def substitution_made(s: LigaState, e: ev.SubstitutionMade) -> LigaState:
    off = s.players[e.off]
    s = _player(s, e.off, where=Where.OUT, square=None, substituted=True, goalkeeper=False, stand_in=False)
    if e.goalkeeper:
        players = dict(s.players)
        for ref, p in players.items():
            if ref.team is e.on.team and p.goalkeeper:
                players[ref] = _with(p, goalkeeper=False, stand_in=False)
        s = _with(s, players=players)
    s = _player(s, e.on, where=Where.PITCH, square=off.square, goalkeeper=e.goalkeeper, stand_in=False)
    used = {**s.subs_used, e.on.team: s.subs_used[e.on.team] + 1}
    return _with(s, subs_used=used)


def clock_paused(s: LigaState, e: ev.ClockPaused) -> LigaState:
    return _with(s, clocks=_with(s.clocks, paused=True))


def clock_resumed(s: LigaState, e: ev.ClockResumed) -> LigaState:
    return _with(s, clocks=_with(s.clocks, paused=False))


def time_up(s: LigaState, e: ev.TimeUp) -> LigaState:
    if e.kind == "half":
        return _with(s, half_time_up=True)
    return _with(s, phase_time_up=True, time_ran_out_at=s.ball.square)


def pending_opened(s: LigaState, e: ev.PendingOpened) -> LigaState:
    queue = (e.item,) + s.queue if e.front else s.queue + (e.item,)
    return _with(s, queue=queue, next_id=max(s.next_id, e.item.id + 1))


def roll_resolved(s: LigaState, e: ev.RollResolved) -> LigaState:
    return _with(_remove(s, Ask, e.id), last_outcome=e.outcome)


def pending_dropped(s: LigaState, e: ev.PendingDropped) -> LigaState:
    drop = set(e.ids)
    return _with(s, queue=tuple(p for p in s.queue if p.id not in drop))


def ball_set(s: LigaState, e: ev.BallSet) -> LigaState:
    if s.phase is _MOVEMENT and e.ball.square != s.ball.square:
        s = _with(s, movement=_with(s.movement, tackled=False))
    return _with(s, ball=e.ball)


def flight_ended(s: LigaState, e: ev.FlightEnded) -> LigaState:
    return _with(s, flight=None, last_kick=s.flight)


def phase_started(s: LigaState, e: ev.PhaseStarted) -> LigaState:
    movement = _with(EMPTY_MOVEMENT, turn=e.attacking) if e.phase is _MOVEMENT else EMPTY_MOVEMENT
    clocks = _with(s.clocks, phase=STOPPED, chess={_HOME: STOPPED, _AWAY: STOPPED})
    # The last kick is kept through a stoppage's set-up (a coach may call it misconduct).
    last_kick = None if e.phase is _SHOT else s.last_kick
    return _with(s, phase=e.phase, turn_no=e.turn, attacking=e.attacking, movement=movement, kicked=False,
                 last_kick=last_kick, phase_time_up=False, clocks=clocks)


def step_changed(s: LigaState, e: ev.StepChanged) -> LigaState:
    m = s.movement
    return _with(s, movement=_with(m, turn=e.turn, attacker_done=e.attacker_done, current=None,
                                   attacker_moved=False if e.turn is s.attacking else m.attacker_moved))


def restart_set(s: LigaState, e: ev.RestartSet) -> LigaState:
    return _with(s, restart=e.restart)


def foul_committed(s: LigaState, e: ev.FoulCommitted) -> LigaState:
    s = _player(s, e.player, fouls=e.fouls)
    return _with(s, fouls=s.fouls + (Foul(e.player, e.spot, s.period, s.turn_no),))


def card_shown(s: LigaState, e: ev.CardShown) -> LigaState:
    p = s.players[e.player]
    s = _with(s, bookings=s.bookings + (Booking(e.player, e.colour, e.reason, s.period, s.turn_no, e.sent_off),))
    changes: dict[str, Any] = {"yellow": p.yellow + 1}
    if e.sent_off:
        changes.update(sent_off=True, where=Where.OUT, square=None, goalkeeper=False, stand_in=False)
    return _player(s, e.player, **changes)


def goalkeeper_named(s: LigaState, e: ev.GoalkeeperNamed) -> LigaState:
    return _player(s, e.player, goalkeeper=True, stand_in=e.stand_in)


def goal_scored(s: LigaState, e: ev.GoalScored) -> LigaState:
    score = {**s.score, e.team: s.score[e.team] + 1}
    clock_s = round(s.clocks.half.reading(s.clock_at), 3)
    return _with(s, score=score, goals=s.goals + (Goal(e.team, e.scorer, s.period, s.turn_no, clock_s),))


def kick_off_set(s: LigaState, e: ev.KickOffSet) -> LigaState:
    return _with(s, toss_winner=e.toss_winner, first_kicker=e.kicker, home_end=e.home_end)


def period_started(s: LigaState, e: ev.PeriodStarted) -> LigaState:
    clocks = _with(s.clocks, half=STOPPED, half_on=False, paused=False)
    return _with(s, period=e.period, home_end=e.home_end, half_time_up=False, phase_time_up=False, clocks=clocks,
                 ball=Ball(), flight=None, holding=None)


def half_clock_started(s: LigaState, e: ev.HalfClockStarted) -> LigaState:
    return _with(s, clocks=_with(s.clocks, half_on=True))


def period_ended(s: LigaState, e: ev.PeriodEnded) -> LigaState:
    return _with(s, clocks=_with(s.clocks, half_on=False), half_time_up=False)


def holding_set(s: LigaState, e: ev.HoldingSet) -> LigaState:
    return _with(s, holding=e.player, hold_turn=e.turn)


def bonus_spent(s: LigaState, e: ev.BonusSpent) -> LigaState:
    return _player(s, e.player, pool_used=s.players[e.player].pool_used + e.points)


def shootout_started(s: LigaState, e: ev.ShootoutStarted) -> LigaState:
    return _with(s, period=Period.SHOOTOUT, phase=Phase.SHOOTOUT, shootout_first=e.first, attacking=e.first,
                 restart=None, ball=Ball(), flight=None)


def shootout_kick_resolved(s: LigaState, e: ev.ShootoutKickResolved) -> LigaState:
    return _with(s, shootout=s.shootout + (ShootoutKick(e.team, e.kicker, e.scored),), attacking=e.team.other)


def match_ended(s: LigaState, e: ev.MatchEnded) -> LigaState:
    return _with(s, result=e.result, period=Period.FULL_TIME, phase=Phase.OVER, queue=(), restart=None,
                 flight=None, clocks=_with(s.clocks, half_on=False))


HANDLERS: dict[type, Callable[[LigaState, Any], LigaState]] = {
    ev.MatchCreated: match_created, ev.DiceRolled: dice_rolled, ev.ChoiceMade: choice_made,
    ev.FigurePlaced: figure_placed, ev.BallPlaced: ball_placed, ev.KickTaken: kick_taken,
    ev.InterceptionCalled: interception_called, ev.PlayerMoved: player_moved, ev.BallMoved: ball_moved,
    ev.TackleCalled: tackle_called, ev.TurnPassed: no_change, ev.GoalkeeperHeld: no_change,
    ev.PenaltyTaken: no_change, ev.MisconductCalled: misconduct_called, ev.SubstitutionMade: substitution_made,
    ev.ClockPaused: clock_paused, ev.ClockResumed: clock_resumed, ev.TimeUp: time_up,
    ev.PendingOpened: pending_opened, ev.RollResolved: roll_resolved, ev.PendingDropped: pending_dropped,
    ev.BallSet: ball_set, ev.FlightEnded: flight_ended,
    ev.PhaseStarted: phase_started, ev.StepChanged: step_changed, ev.RestartSet: restart_set,
    ev.OffsideGiven: no_change, ev.FoulCommitted: foul_committed, ev.CardShown: card_shown,
    ev.GoalkeeperNamed: goalkeeper_named, ev.GoalScored: goal_scored, ev.KickOffSet: kick_off_set,
    ev.PeriodStarted: period_started, ev.HalfClockStarted: half_clock_started, ev.PeriodEnded: period_ended,
    ev.HoldingSet: holding_set, ev.BonusSpent: bonus_spent, ev.ShootoutStarted: shootout_started,
    ev.ShootoutKickResolved: shootout_kick_resolved, ev.MatchEnded: match_ended,
}


def evolve_payload(state: LigaState, payload: EventPayload) -> LigaState:
    try:
        handler = HANDLERS[type(payload)]
    except KeyError:
        raise ValueError(f"the Fußball-Liga variant cannot apply event type {payload.TYPE!r}") from None
    return handler(state, payload)


# A replay dispatches on the table itself (companion/match.py): one call less per event.
evolve_payload.handlers = HANDLERS  # type: ignore[attr-defined]
