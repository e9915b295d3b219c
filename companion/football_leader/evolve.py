"""The fold: how each Football Leader event changes the match state. No rules are decided
here; ``decide`` already wrote its conclusions into the events, so this stays small and fast."""

from __future__ import annotations

from typing import Any, Callable

from ..events import EventPayload
from ..records import changed as _with  # a record's changed copy, fast (see records.py)
from ..records import player_changed as _player, player_put as _put
from ..teams import PlayerRef, Team
from . import events as ev
from .model import (Booking, CardBook, Choice, FootballLeaderState, Goal, Period, Phase, PlayerState, Roll,
                    ShootoutKick, Stage, StrategySheet, Turn, Where)

# Enum members the fold reads per event, as module names: in Python 3.11 ``Where.PITCH`` goes
# through the enum metaclass's ``__getattr__`` hook, some forty times slower than a global.
_PITCH, _DONE, _SET_UP = Where.PITCH, Stage.DONE, Phase.SET_UP




def _book(s: FootballLeaderState, team: Team, **changes: Any) -> FootballLeaderState:
    return _with(s, cards={**s.cards, team: _with(s.cards[team], **changes)})


def _turn(s: FootballLeaderState, **changes: Any) -> FootballLeaderState:
    return _with(s, turn=_with(s.turn, **changes))


def _sheet_without(sheet: StrategySheet, number: int) -> StrategySheet:
    return StrategySheet(sheet.goalkeeper, {n: sp for n, sp in sheet.goal_kick.items() if n != number},
                         {n: sp for n, sp in sheet.kick_off.items() if n != number})


def match_created(s: FootballLeaderState, e: ev.MatchCreated) -> FootballLeaderState:
    players = {}
    for team, roster in ((Team.HOME, e.home), (Team.AWAY, e.away)):
        for counter in roster.counters:
            ref = PlayerRef.of(team, counter.number)  # shared instances: lookups by identity
            players[ref] = PlayerState(ref=ref, counter=counter)
    return FootballLeaderState(created=True, home=e.home, away=e.away, components=e.components, options=e.options,
                               players=players, phase=Phase.STRATEGY)


def strategy_written(s: FootballLeaderState, e: ev.StrategyWritten) -> FootballLeaderState:
    players = dict(s.players)
    starters = set(e.sheet.kick_off) | {e.sheet.goalkeeper}
    goal = s.components.board.goal_space("low" if (e.team is Team.HOME) == s.options.home_defends_low else "high")
    for ref, p in s.players.items():
        if ref.team is e.team:
            on = ref.number in starters
            keeper = ref.number == e.sheet.goalkeeper
            players[ref] = _with(p, where=Where.PITCH if on else Where.BENCH, goalkeeper=keeper,
                                 space=goal if keeper else None)
    return _with(s, players=players, sheets={**s.sheets, e.team: e.sheet})


def dice_rolled(s: FootballLeaderState, e: ev.DiceRolled) -> FootballLeaderState:
    item_id, _, index = e.request[1:].partition(".")
    rid, idx = int(item_id), int(index or 0)
    queue = []
    for item in s.queue:
        if isinstance(item, Roll) and item.id == rid:
            tests = list(item.tests)
            tests[idx] = _with(tests[idx], result=e.reading, miss=e.miss)
            item = _with(item, tests=tuple(tests))
        queue.append(item)
    return _with(s, queue=tuple(queue))


def choice_made(s: FootballLeaderState, e: ev.ChoiceMade) -> FootballLeaderState:
    cid = int(e.request[1:])
    return _with(s, queue=tuple(p for p in s.queue if not (isinstance(p, Choice) and p.id == cid)))


def strategy_changed(s: FootballLeaderState, e: ev.StrategyChanged) -> FootballLeaderState:
    sheet = s.sheets[e.team]
    gk = dict(sheet.goal_kick)
    ko = dict(sheet.kick_off)
    if e.goal_kick is not None:
        gk[e.player.number] = e.goal_kick
    if e.kick_off is not None:
        ko[e.player.number] = e.kick_off
    return _with(s, sheets={**s.sheets, e.team: StrategySheet(sheet.goalkeeper, gk, ko)},
                 changes_used={**s.changes_used, e.team: s.changes_used[e.team] + 1})


def player_replaced(s: FootballLeaderState, e: ev.PlayerReplaced) -> FootballLeaderState:
    sheet = _sheet_without(s.sheets[e.team], e.off.number)
    sheet = StrategySheet(sheet.goalkeeper, {**sheet.goal_kick, e.on.number: e.goal_kick},
                          {**sheet.kick_off, e.on.number: e.kick_off})
    s = _player(s, e.off, where=Where.OUT, space=None, markers=0, replaced=True)
    s = _player(s, e.on, where=Where.PITCH, space=None)
    return _with(s, sheets={**s.sheets, e.team: sheet},
                 replacements_used={**s.replacements_used, e.team: s.replacements_used[e.team] + 1})


def set_up_confirmed(s: FootballLeaderState, e: ev.SetUpConfirmed) -> FootballLeaderState:
    return _with(s, ready=s.ready + (e.team,))


def kick_off_taken(s: FootballLeaderState, e: ev.KickOffTaken) -> FootballLeaderState:
    return _with(s, ball=e.player, restart=None)


def unchanged(s: FootballLeaderState, e: EventPayload) -> FootballLeaderState:
    return s  # the derived events that follow carry the consequences


def turn_end_called(s: FootballLeaderState, e: ev.TurnEndCalled) -> FootballLeaderState:
    return _turn(s, stage=_DONE)


def shootout_order_set(s: FootballLeaderState, e: ev.ShootoutOrderSet) -> FootballLeaderState:
    return _with(s, shootout_order={**s.shootout_order, e.team: e.kickers})


def figure_placed(s: FootballLeaderState, e: ev.FigurePlaced) -> FootballLeaderState:
    ref = e.player
    p = s.players[ref]
    where = _PITCH if e.space is not None else p.where
    return _put(s, ref, _with(p, space=e.space, where=where, manual=e.correction))


def pending_opened(s: FootballLeaderState, e: ev.PendingOpened) -> FootballLeaderState:
    queue = (e.item,) + s.queue if e.front else s.queue + (e.item,)
    return _with(s, queue=queue, next_id=max(s.next_id, e.item.id + 1))


def roll_resolved(s: FootballLeaderState, e: ev.RollResolved) -> FootballLeaderState:
    queue = tuple(p for p in s.queue if not (isinstance(p, Roll) and p.id == e.id))
    return _with(s, queue=queue, last_outcome=e.outcome)


def first_player_set(s: FootballLeaderState, e: ev.FirstPlayerSet) -> FootballLeaderState:
    return _with(s, first_player=e.team)


def period_started(s: FootballLeaderState, e: ev.PeriodStarted) -> FootballLeaderState:
    return _with(s, period=e.period, last_turn=None, ball=None, unmarked=None, guard=None, movement=None)


def phase_set(s: FootballLeaderState, e: ev.PhaseSet) -> FootballLeaderState:
    if e.phase is _SET_UP:
        return _with(s, phase=e.phase, ready=())
    return _with(s, phase=e.phase)


def deck_shuffled(s: FootballLeaderState, e: ev.DeckShuffled) -> FootballLeaderState:
    played = {} if e.fresh else s.cards[e.team].played
    return _with(s, cards={**s.cards, e.team: CardBook(deck=e.size, hand=0, size=e.size, played=played)})


def cards_drawn(s: FootballLeaderState, e: ev.CardsDrawn) -> FootballLeaderState:
    book = s.cards[e.team]
    return _book(s, e.team, deck=book.deck - e.count, hand=book.hand + e.count)


def card_played(s: FootballLeaderState, e: ev.CardPlayed) -> FootballLeaderState:
    book = s.cards[e.team]
    played = dict(book.played)
    played[e.card] = played.get(e.card, 0) + 1
    return _book(s, e.team, hand=book.hand - 1, played=played)


def last_turn_set(s: FootballLeaderState, e: ev.LastTurnSet) -> FootballLeaderState:
    return _with(s, last_turn=e.turn)


def turn_started(s: FootballLeaderState, e: ev.TurnStarted) -> FootballLeaderState:
    return _with(s, turn=Turn(number=e.number, team=e.team, stage=e.stage), turns=max(s.turns, e.number))


def stage_set(s: FootballLeaderState, e: ev.StageSet) -> FootballLeaderState:
    return _turn(s, stage=e.stage)


def turn_noted(s: FootballLeaderState, e: ev.TurnNoted) -> FootballLeaderState:
    if e.what == "supported":
        return _turn(s, supported=True)
    return _turn(s, **{e.what: e.player})


def turn_finished(s: FootballLeaderState, e: ev.TurnFinished) -> FootballLeaderState:
    return _with(s, turn=None, movement=None)


def counter_moved(s: FootballLeaderState, e: ev.CounterMoved) -> FootballLeaderState:
    ref = e.player
    s = _put(s, ref, _with(s.players[ref], space=e.to, manual=False))
    if e.moved and s.turn is not None and e.player not in s.turn.moved:
        s = _turn(s, moved=s.turn.moved + (e.player,))
    return s


def marker_placed(s: FootballLeaderState, e: ev.MarkerPlaced) -> FootballLeaderState:
    players = dict(s.players)
    players[e.player] = _with(players[e.player], markers=players[e.player].markers + 1)
    for ref in e.cleared:
        players[ref] = _with(players[ref], markers=0)
    s = _with(s, players=players)
    if s.turn is not None:
        s = _turn(s, markers=s.turn.markers + (e.player,))
    return s


def movement_set(s: FootballLeaderState, e: ev.MovementSet) -> FootballLeaderState:
    return _with(s, movement=e.movement)


def ball_set(s: FootballLeaderState, e: ev.BallSet) -> FootballLeaderState:
    return _with(s, ball=e.player)


def unmarked_set(s: FootballLeaderState, e: ev.UnmarkedSet) -> FootballLeaderState:
    return _with(s, unmarked=e.unmarked)


def guard_set(s: FootballLeaderState, e: ev.GuardSet) -> FootballLeaderState:
    return _with(s, guard=(e.player, e.turn))


def card_shown(s: FootballLeaderState, e: ev.CardShown) -> FootballLeaderState:
    p = s.players[e.player]
    s = _with(s, bookings=s.bookings + (Booking(e.player, e.colour, s.period, s.turn.number if s.turn else s.turns,
                                                  e.sent_off),))
    changes: dict[str, Any] = {"yellow": p.yellow + (1 if e.colour == "yellow" else 0)}
    if e.sent_off:
        changes.update(sent_off=True, where=Where.OUT, space=None, markers=0, goalkeeper=False,
                       acting_keeper=False)
        team = e.player.team
        if team in s.sheets:
            s = _with(s, sheets={**s.sheets, team: _sheet_without(s.sheets[team], e.player.number)})
    return _player(s, e.player, **changes)


def keeper_assigned(s: FootballLeaderState, e: ev.KeeperAssigned) -> FootballLeaderState:
    team = e.player.team
    goal = s.components.board.goal_space("low" if (team is Team.HOME) == s.options.home_defends_low else "high")
    s = _player(s, e.player, where=Where.PITCH, space=goal, goalkeeper=True, acting_keeper=True, markers=0)
    sheet = s.sheets.get(team)
    if sheet is not None:
        sheet = _sheet_without(sheet, e.player.number)
        s = _with(s, sheets={**s.sheets, team: StrategySheet(e.player.number, sheet.goal_kick, sheet.kick_off)})
    if e.substitute:
        s = _with(s, replacements_used={**s.replacements_used, team: s.replacements_used[team] + 1})
    return s


def restart_set(s: FootballLeaderState, e: ev.RestartSet) -> FootballLeaderState:
    return _with(s, restart=e.restart)


def formation_set(s: FootballLeaderState, e: ev.FormationSet) -> FootballLeaderState:
    players = {ref: (_with(p, markers=0) if p.markers else p) for ref, p in s.players.items()}
    for ref, space in e.positions:
        players[ref] = _with(players[ref], space=space, where=_PITCH, manual=False)
    return _with(s, players=players, unmarked=None, guard=None, movement=None)


def goal_scored(s: FootballLeaderState, e: ev.GoalScored) -> FootballLeaderState:
    return _with(s, score={**s.score, e.team: s.score[e.team] + 1},
                 goals=s.goals + (Goal(e.team, e.scorer, s.period, s.turn.number if s.turn else s.turns),))


def shootout_started(s: FootballLeaderState, e: ev.ShootoutStarted) -> FootballLeaderState:
    return _with(s, period=Period.SHOOTOUT, phase=Phase.SHOOTOUT, shootout_first=e.first, turn=None, ball=None,
                 restart=None, unmarked=None, movement=None, last_turn=None)


def shootout_kick_resolved(s: FootballLeaderState, e: ev.ShootoutKickResolved) -> FootballLeaderState:
    return _with(s, shootout=s.shootout + (ShootoutKick(e.team, e.kicker, e.scored),))


def match_ended(s: FootballLeaderState, e: ev.MatchEnded) -> FootballLeaderState:
    return _with(s, result=e.result, period=Period.FULL_TIME, phase=Phase.OVER, queue=(), turn=None, movement=None)


HANDLERS: dict[type, Callable[[FootballLeaderState, Any], FootballLeaderState]] = {
    ev.MatchCreated: match_created, ev.StrategyWritten: strategy_written, ev.DiceRolled: dice_rolled,
    ev.ChoiceMade: choice_made, ev.StrategyChanged: strategy_changed, ev.PlayerReplaced: player_replaced,
    ev.SetUpConfirmed: set_up_confirmed, ev.KickOffTaken: kick_off_taken, ev.MoveDeclared: unchanged,
    ev.PassDeclared: unchanged, ev.DodgeDeclared: unchanged, ev.ShotDeclared: unchanged,
    ev.TackleDeclared: unchanged, ev.TurnEndCalled: turn_end_called, ev.GoalKickCalled: unchanged,
    ev.ShootoutOrderSet: shootout_order_set, ev.ShootoutKickTaken: unchanged, ev.FigurePlaced: figure_placed,
    ev.PendingOpened: pending_opened, ev.RollResolved: roll_resolved,
    ev.FirstPlayerSet: first_player_set, ev.PeriodStarted: period_started, ev.PhaseSet: phase_set,
    ev.DeckShuffled: deck_shuffled, ev.CardsDrawn: cards_drawn, ev.CardPlayed: card_played,
    ev.LastTurnSet: last_turn_set, ev.TurnStarted: turn_started, ev.StageSet: stage_set,
    ev.TurnNoted: turn_noted, ev.TurnFinished: turn_finished, ev.CounterMoved: counter_moved,
    ev.MarkerPlaced: marker_placed, ev.MovementSet: movement_set, ev.BallSet: ball_set,
    ev.UnmarkedSet: unmarked_set, ev.GuardSet: guard_set, ev.CardShown: card_shown,
    ev.KeeperAssigned: keeper_assigned, ev.RestartSet: restart_set, ev.FormationSet: formation_set,
    ev.GoalScored: goal_scored, ev.ShootoutStarted: shootout_started,
    ev.ShootoutKickResolved: shootout_kick_resolved, ev.MatchEnded: match_ended,
}


def evolve_payload(state: FootballLeaderState, payload: EventPayload) -> FootballLeaderState:
    try:
        handler = HANDLERS[type(payload)]
    except KeyError:
        raise ValueError(f"Football Leader cannot apply event type {payload.TYPE!r}") from None
    return handler(state, payload)


# A replay dispatches on the table itself (companion/match.py): one call less per event.
evolve_payload.handlers = HANDLERS  # type: ignore[attr-defined]
