"""The fold: how each Fublet event changes the match state. No rules are decided here;
``decide`` already wrote its conclusions into the events, so this stays small and fast."""

from __future__ import annotations

from typing import Any, Callable

from ..events import EventPayload
from ..records import changed as _with  # a record's changed copy, fast (see records.py)
from ..records import player_changed as _player, player_put as _put
from ..teams import PlayerRef, Team
from . import events as ev
from .components import Skill
from .model import (ActionCtx, Ball, Booking, Choice, Contest, Engagement, FubletState, Goal, Period, Phase, PlayerState,
                    Restart, RestartKind, ShootoutKick, Status, Where)

# Enum members the fold reads per event, as module names (and the other side by lookup, not
# the ``Team.other`` property): in Python 3.11 ``Where.PITCH`` goes through the enum
# metaclass's ``__getattr__`` hook, some forty times slower than a global.
_PITCH, _EXHAUSTED = Where.PITCH, Status.EXHAUSTED
_MOVING = (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT)  # the phases a move exhausts the mover in
_EVENT, _TACTICAL = Phase.EVENT, Phase.TACTICAL_MOVEMENT
_OTHER = {Team.HOME: Team.AWAY, Team.AWAY: Team.HOME}




def _remove_pending(state: FubletState, kind: type, item_id: int) -> FubletState:
    return _with(state, queue=tuple(p for p in state.queue if not (isinstance(p, kind) and p.id == item_id)))


def match_created(s: FubletState, e: ev.MatchCreated) -> FubletState:
    players = {}
    for team, roster in ((Team.HOME, e.home), (Team.AWAY, e.away)):
        for card in roster.players:
            ref = PlayerRef.of(team, card.number)  # shared instances: lookups by identity
            starter = card.number in roster.starters
            players[ref] = PlayerState(ref=ref, card=card, where=Where.PITCH if starter else Where.BENCH,
                                       goalkeeper=card.goalkeeper and starter)
    return FubletState(created=True, home=e.home, away=e.away, components=e.components, options=e.options,
                       players=players, phase=Phase.OPENING_ROLL)


def dice_rolled(s: FubletState, e: ev.DiceRolled) -> FubletState:
    item_id, _, index = e.request[1:].partition(".")
    cid, idx = int(item_id), int(index or 0)
    queue = []
    for item in s.queue:
        if isinstance(item, Contest) and item.id == cid:
            tests = list(item.tests)
            tests[idx] = _with(tests[idx], result=e.reading)
            item = _with(item, tests=tuple(tests))
        queue.append(item)
    return _with(s, queue=tuple(queue))


def pending_opened(s: FubletState, e: ev.PendingOpened) -> FubletState:
    queue = (e.item,) + s.queue if e.front else s.queue + (e.item,)
    return _with(s, queue=queue, next_id=max(s.next_id, e.item.id + 1))


def contest_resolved(s: FubletState, e: ev.ContestResolved) -> FubletState:
    return _with(_remove_pending(s, Contest, e.id), last_outcome=e.outcome)


def pending_dropped(s: FubletState, e: ev.PendingDropped) -> FubletState:
    drop = set(e.ids)
    return _with(s, queue=tuple(p for p in s.queue if p.id not in drop))


def choice_made(s: FubletState, e: ev.ChoiceMade) -> FubletState:
    return _remove_pending(s, Choice, int(e.request[1:]))


def board_chosen(s: FubletState, e: ev.BoardChosen) -> FubletState:
    return _with(s, boards={**s.boards, e.team: e.board})


def figure_placed(s: FubletState, e: ev.FigurePlaced) -> FubletState:
    ref = e.player
    p = s.players[ref]
    facing = e.facing if e.facing is not None else p.facing
    where = _PITCH if e.ms is not None else p.where
    return _put(s, ref, _with(p, ms=e.ms, facing=facing, where=where, manual=e.correction))


def kick_off_taken(s: FubletState, e: ev.KickOffTaken) -> FubletState:
    return _with(s, ball=Ball(carrier=e.player, last_touch=e.team), restart=None)


def action_declared(s: FubletState, e: ev.ActionDeclared) -> FubletState:
    return _with(s, declaration=e.declaration, restart=None)


def deflection_called(s: FubletState, e: ev.DeflectionCalled) -> FubletState:
    d = s.declaration
    queue = []
    joined = False
    for item in s.queue:
        if not joined and isinstance(item, Contest) and isinstance(item.ctx, ActionCtx):
            item = _with(item, tests=item.tests + (e.test,), ctx=ActionCtx(item.ctx.defenders + (e.defender,)))
            joined = True
        queue.append(item)
    return _with(s, queue=tuple(queue), declaration=_with(d, deflectors=d.deflectors + (e.defender,)))


def player_moved(s: FubletState, e: ev.PlayerMoved) -> FubletState:
    # The player's changes and the state's in one changed state (runs for most moves).
    ref = e.player
    p = s.players[ref]
    moving = s.phase in _MOVING
    players = dict(s.players)
    players[ref] = _with(p, ms=e.to if e.to is not None else p.ms,
                         facing=e.facing if e.facing is not None else p.facing,
                         where=_PITCH, manual=False, status=_EXHAUSTED if moving else p.status)
    changes: dict[str, Any] = {"players": players}
    if e.engage and s.ball.carrier is not None:
        changes["engagements"] = s.engagements + (Engagement(ref, s.ball.carrier, Skill(e.tackle)),)
    if moving:
        changes.update(turn=_OTHER[ref.team], passes=0, moves_this_phase=s.moves_this_phase + 1)
    return _with(s, **changes)


def zone_moved(s: FubletState, e: ev.ZoneMoved) -> FubletState:
    players = dict(s.players)
    for ref, to in e.moves:
        players[ref] = _with(players[ref], ms=to, status=_EXHAUSTED, manual=False)
    return _with(s, players=players, turn=_OTHER[e.team], passes=0, moves_this_phase=s.moves_this_phase + 1)


def tactical_move_attempted(s: FubletState, e: ev.TacticalMoveAttempted) -> FubletState:
    return _with(s, turn=_OTHER[e.player.team], passes=0, moves_this_phase=s.moves_this_phase + 1)


def offside_called(s: FubletState, e: ev.OffsideCalled) -> FubletState:
    return _with(s, turn=e.attacker.team, passes=0, moves_this_phase=s.moves_this_phase + 1)


def turn_passed(s: FubletState, e: ev.TurnPassed) -> FubletState:
    return _with(s, turn=_OTHER[e.team], passes=s.passes + 1)


def substitution_called(s: FubletState, e: ev.SubstitutionCalled) -> FubletState:
    return _with(s, subs_pending=s.subs_pending + ((e.off, e.on),))


def wall_set(s: FubletState, e: ev.WallSet) -> FubletState:
    players = dict(s.players)
    for ref in e.players:
        players[ref] = _with(players[ref], status=_EXHAUSTED)
    return _with(s, players=players, restart=_with(s.restart, wall=e.players))


def goalkeeper_assigned(s: FubletState, e: ev.GoalkeeperAssigned) -> FubletState:
    card = s.players[e.card_of].card
    s = _player(s, e.card_of, goalkeeper=False)
    return _player(s, e.player, goalkeeper=True, gk_card=card)


def taker_chosen(s: FubletState, e: ev.TakerChosen) -> FubletState:
    return _with(s, restart=_with(s.restart, taker=e.player),
                 ball=Ball(carrier=e.player, last_touch=e.player.team))


def ball_reached(s: FubletState, e: ev.BallReached) -> FubletState:
    return s  # the derived events that follow carry its consequences


def shootout_kick_taken(s: FubletState, e: ev.ShootoutKickTaken) -> FubletState:
    return s


def mp_changed(s: FubletState, e: ev.MpChanged) -> FubletState:
    return _with(s, mp={**s.mp, e.team: e.total})


def ball_set(s: FubletState, e: ev.BallSet) -> FubletState:
    return _with(s, ball=e.ball)


def player_relocated(s: FubletState, e: ev.PlayerRelocated) -> FubletState:
    ref = e.player
    p = s.players[ref]
    facing = e.facing if e.facing is not None else p.facing
    return _put(s, ref, _with(p, ms=e.ms, where=e.where, facing=facing, manual=False))


def status_set(s: FubletState, e: ev.StatusSet) -> FubletState:
    ref = e.player
    return _put(s, ref, _with(s.players[ref], status=e.status, stunned_until=e.stunned_until))


def player_injured(s: FubletState, e: ev.PlayerInjured) -> FubletState:
    return _player(s, e.player, injured=True)


def card_shown(s: FubletState, e: ev.CardShown) -> FubletState:
    p = s.players[e.player]
    booking = Booking(e.player, e.colour, s.period, s.match_minute, e.sent_off)
    s = _with(s, bookings=s.bookings + (booking,))
    # A second yellow is a red card: the player is sent off.
    changes: dict[str, Any] = {"yellow": p.yellow + (1 if e.colour == "yellow" else 0),
                               "red": p.red or e.colour == "red" or e.sent_off}
    if e.sent_off:
        changes.update(sent_off=True, where=Where.OUT, ms=None, goalkeeper=False)
        s = _with(s, subs_pending=tuple(sp for sp in s.subs_pending if sp[0] != e.player))
    return _player(s, e.player, **changes)


def substitution_made(s: FubletState, e: ev.SubstitutionMade) -> FubletState:
    off = s.players[e.off]
    s = _player(s, e.off, where=Where.OUT, ms=None, substituted=e.on is not None, goalkeeper=False)
    s = _with(s, subs_pending=tuple(sp for sp in s.subs_pending if sp[0] != e.off))
    if e.on is None:
        return s
    used = {**s.subs_used, e.off.team: s.subs_used[e.off.team] + 1}
    on_card = s.players[e.on].card
    s = _player(s, e.on, where=Where.PITCH, ms=None, status=Status.READY,
                goalkeeper=off.goalkeeper and on_card.goalkeeper)
    return _with(s, subs_used=used)


def pace_set(s: FubletState, e: ev.PaceSet) -> FubletState:
    return _with(s, pace=e.pace, zone_pace=e.zone_pace)


def clock_advanced(s: FubletState, e: ev.ClockAdvanced) -> FubletState:
    return _with(s, minute=e.minute, time_up=e.time_up)


def phase_started(s: FubletState, e: ev.PhaseStarted) -> FubletState:
    changes: dict[str, Any] = {"phase": e.phase, "round": e.round, "round_kind": e.round_kind,
                               "attacking": e.attacking, "turn": None, "passes": 0, "moves_this_phase": 0}
    if e.round != s.round:
        changes.update(declaration=None, engagements=(), round_ended_by="", pace=0, zone_pace=0)
    if e.phase is _EVENT or e.phase is _TACTICAL:
        changes["engagements"] = s.engagements if e.phase is _EVENT else ()
    return _with(s, **changes)


def period_started(s: FubletState, e: ev.PeriodStarted) -> FubletState:
    return _with(s, period=e.period, minute=0, time_up=False, mp={Team.HOME: 0, Team.AWAY: 0},
                 boards={}, pace=0, zone_pace=0)


def picks_set(s: FubletState, e: ev.PicksSet) -> FubletState:
    first_kicker = s.first_kicker if s.first_kicker is not None else e.kicker
    return _with(s, first_picker=e.first_picker, first_kicker=first_kicker,
                 restart=Restart(kind=RestartKind.KICK_OFF, team=e.kicker))


def goal_scored(s: FubletState, e: ev.GoalScored) -> FubletState:
    score = {**s.score, e.team: s.score[e.team] + 1}
    return _with(s, score=score, goals=s.goals + (Goal(e.team, e.scorer, s.period, s.match_minute),))


def restart_set(s: FubletState, e: ev.RestartSet) -> FubletState:
    return _with(s, restart=e.restart)


def declaration_set(s: FubletState, e: ev.DeclarationSet) -> FubletState:
    return _with(s, declaration=e.declaration)


def round_stopped(s: FubletState, e: ev.RoundStopped) -> FubletState:
    return _with(s, round_ended_by=e.reason)


def shootout_started(s: FubletState, e: ev.ShootoutStarted) -> FubletState:
    return _with(s, period=Period.SHOOTOUT, phase=Phase.SHOOTOUT, shootout_first=e.first, round_kind=None,
                 attacking=None, turn=e.first, minute=0, time_up=False)


def shootout_kick_resolved(s: FubletState, e: ev.ShootoutKickResolved) -> FubletState:
    return _with(s, shootout=s.shootout + (ShootoutKick(e.team, e.kicker, e.scored),), turn=e.team.other)


def match_ended(s: FubletState, e: ev.MatchEnded) -> FubletState:
    # Full time shows the minute the match ended on (the period's own count no longer applies).
    return _with(s, result=e.result, period=Period.FULL_TIME, phase=Phase.OVER, queue=(), turn=None,
                 minute=s.match_minute)


HANDLERS: dict[type, Callable[[FubletState, Any], FubletState]] = {
    ev.MatchCreated: match_created, ev.DiceRolled: dice_rolled, ev.PendingOpened: pending_opened,
    ev.ContestResolved: contest_resolved, ev.PendingDropped: pending_dropped, ev.ChoiceMade: choice_made, ev.BoardChosen: board_chosen,
    ev.FigurePlaced: figure_placed, ev.KickOffTaken: kick_off_taken, ev.ActionDeclared: action_declared,
    ev.DeflectionCalled: deflection_called, ev.PlayerMoved: player_moved, ev.ZoneMoved: zone_moved,
    ev.TacticalMoveAttempted: tactical_move_attempted, ev.OffsideCalled: offside_called,
    ev.TurnPassed: turn_passed, ev.SubstitutionCalled: substitution_called, ev.WallSet: wall_set,
    ev.GoalkeeperAssigned: goalkeeper_assigned, ev.TakerChosen: taker_chosen, ev.BallReached: ball_reached,
    ev.ShootoutKickTaken: shootout_kick_taken, ev.MpChanged: mp_changed, ev.BallSet: ball_set,
    ev.PlayerRelocated: player_relocated, ev.StatusSet: status_set, ev.PlayerInjured: player_injured,
    ev.CardShown: card_shown, ev.SubstitutionMade: substitution_made, ev.PaceSet: pace_set,
    ev.ClockAdvanced: clock_advanced, ev.PhaseStarted: phase_started, ev.PeriodStarted: period_started,
    ev.PicksSet: picks_set, ev.GoalScored: goal_scored, ev.RestartSet: restart_set,
    ev.DeclarationSet: declaration_set, ev.RoundStopped: round_stopped, ev.ShootoutStarted: shootout_started,
    ev.ShootoutKickResolved: shootout_kick_resolved, ev.MatchEnded: match_ended,
}


def evolve_payload(state: FubletState, payload: EventPayload) -> FubletState:
    try:
        handler = HANDLERS[type(payload)]
    except KeyError:
        raise ValueError(f"Fublet cannot apply event type {payload.TYPE!r}") from None
    return handler(state, payload)


# A replay dispatches on the table itself (companion/match.py): one call less per event.
evolve_payload.handlers = HANDLERS  # type: ignore[attr-defined]
