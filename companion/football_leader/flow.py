"""The turn machine: turns, their stages, card draws, restarts, set-ups, halves.

Its steps are driven by ``advance`` (advance.py) after every command: a finished turn draws
its cards and hands over to the other coach, a deck run out ends the half, both coaches'
confirmations line the counters up for a kick.
"""

from __future__ import annotations

from ..teams import PlayerRef, Team
from . import events as ev
from . import queries as q
from .cards import draw_count
from .components import Card
from .model import (EXTRA_TIME_DECK, GOAL_KICK_HAND, HAND, Choice, ChoiceCtx, Period, Phase, Restart, RestartKind,
                    Result, Roll, RollCtx, Stage, Test)
from .resolve import describe_pending
from .tx import Tx, refuse

CARDS = "1.7 Action Cards"


# --- pending items ------------------------------------------------------------------------------

def open_roll(tx: Tx, tests: tuple[Test, ...], ctx: RollCtx, front: bool = False) -> Roll:
    item = Roll(id=tx.next_id, tests=tuple(tests), ctx=ctx)
    tx.emit(ev.PendingOpened(item, front))
    return item


def open_choice(tx: Tx, team: Team, question: str, options: tuple[str, ...], ctx: ChoiceCtx,
                front: bool = False) -> Choice:
    item = Choice(id=tx.next_id, team=team, question=question, options=options, ctx=ctx)
    tx.emit(ev.PendingOpened(item, front))
    return item


def set_stage(tx: Tx, stage: Stage) -> None:
    if tx.state.turn is not None and tx.state.turn.stage is not stage:
        tx.emit(ev.StageSet(stage))


def note(tx: Tx, what: str, player: PlayerRef | None = None) -> None:
    tx.emit(ev.TurnNoted(what, player))


# --- cards --------------------------------------------------------------------------------------

def check_cards(s, team: Team, cards: list[Card], section: str) -> None:
    """Refuse cards the coach cannot hold: more than in his hand, or one his deck has no
    copy of left this period (every copy already played)."""
    book = s.cards[team]
    if len(cards) > book.hand:
        raise refuse(section, f"{team.label} holds {book.hand} card(s) and this needs {len(cards)}")
    left = q.cards_left(s, team)
    for card in set(cards):
        n = cards.count(card)
        if left.get(card, 0) < n:
            have = q.deck_counts(s).get(card, 0)
            if not have:
                raise refuse(CARDS, f"{team.label}'s deck has no {card} card; name the card you play")
            raise refuse(CARDS, f"all {have} {card} cards of {team.label}'s deck were played this period; "
                                f"name the card you play")


def play(tx: Tx, team: Team, card: Card, purpose: str) -> None:
    tx.emit(ev.CardPlayed(team, card, purpose))


def draw(tx: Tx, team: Team, count: int, reason: str, end_of_turn: bool = False) -> None:
    """Draw up to ``count`` cards. The coach who picks the last card of his deck has one turn
    left, and so has the other coach: the half ends after both (2.2). When the other coach
    then picks his own last card, his last turn comes later and the half waits for it: the
    half ends after the later of the two last turns."""
    s = tx.state
    book = s.cards[team]
    n = min(count, book.deck)
    if n <= 0:
        return
    tx.emit(ev.CardsDrawn(team, n, reason))
    if book.deck - n == 0 and s.period in (Period.FIRST_HALF, Period.SECOND_HALF, Period.EXTRA_FIRST,
                                           Period.EXTRA_SECOND):
        number = s.turn.number if s.turn is not None else s.turns
        last = number + (2 if end_of_turn else 1)
        if s.last_turn is None or last > s.last_turn:
            tx.emit(ev.LastTurnSet(team, last))


def draw_to(tx: Tx, team: Team, size: int, reason: str) -> None:
    short = size - tx.state.cards[team].hand
    if short > 0:
        draw(tx, team, short, reason)


# --- turns ----------------------------------------------------------------------------------------

def check_turn(s, team: Team, section: str) -> None:
    """A coach acts only in his own turn, with nothing else pending."""
    if s.phase is not Phase.TURN or s.turn is None:
        raise refuse(section, f"no turn is being played now ({s.phase.label})")
    if s.queue:
        raise refuse(section, f"first: {describe_pending(s, s.queue[0])}")
    if s.movement is not None:
        raise refuse(section, "finish the movement in progress first")
    if s.turn.team is not team:
        raise refuse("2.1 Game in Progress", f"it is {s.turn.team.label}'s turn")


def start_turn(tx: Tx, team: Team) -> None:
    s = tx.state
    number = s.turns + 1
    tx.emit(ev.TurnStarted(team, number))
    r = s.restart
    if r is None or r.team is not team:
        return
    if r.kind.set_up:
        tx.emit(ev.PhaseSet(Phase.SET_UP))
        return
    if r.kind is RestartKind.INDIRECT_KICK:
        draw(tx, team, 1, "indirect kick: an extra card")
        tx.emit(ev.BallSet(r.player, "indirect kick"))
        set_stage(tx, Stage.FREE_KICK)
        return
    set_stage(tx, Stage.DIRECT_KICK)


def finish_turn(tx: Tx, reason: str = "") -> None:
    """Draw (2.1), then the other coach's turn, or the end of the half."""
    s = tx.state
    turn = s.turn
    draw(tx, turn.team, draw_count(s.cards[turn.team].hand), "end of turn", end_of_turn=True)
    tx.emit(ev.TurnFinished(turn.team, turn.number, reason))
    s = tx.state
    if s.last_turn is not None and turn.number >= s.last_turn:
        end_period(tx)
        return
    start_turn(tx, turn.team.other)


def turn_over(tx: Tx) -> None:
    """The turn ends now (a missed action, a foul, a shot): no extra movement. ``advance``
    then draws the cards and hands over."""
    set_stage(tx, Stage.DONE)


# --- set-ups, kick-offs, goal kicks -----------------------------------------------------------------

def formation(s, kind: str) -> tuple[tuple[PlayerRef, tuple[int, int]], ...]:
    """Where every counter on the pitch stands by its coach's sheet."""
    out = []
    for team in (Team.HOME, Team.AWAY):
        sheet = s.sheets[team]
        spaces = sheet.kick_off if kind == "kick_off" else sheet.goal_kick
        for p in q.on_pitch(s, team):
            if p.goalkeeper:
                out.append((p.ref, q.goal_space(s, team)))
            elif p.ref.number in spaces:
                out.append((p.ref, spaces[p.ref.number]))
    return tuple(out)


def apply_set_up(tx: Tx) -> None:
    """Both coaches confirmed: the counters stand by the sheets, markers come off; a kick-off
    waits for the kicker's choice, a goal kick completes the hands and gives the goalkeeper
    the ball (3.8)."""
    s = tx.state
    r = s.restart
    tx.emit(ev.FormationSet(r.kind.value, formation(s, r.kind.value)))
    if r.kind is RestartKind.KICK_OFF:
        tx.emit(ev.BallSet(None, "kick-off"))
        tx.emit(ev.PhaseSet(Phase.KICK_OFF))
        return
    draw_to(tx, r.team.other, HAND, "goal kick: hand completed")
    draw_to(tx, r.team, GOAL_KICK_HAND, "goal kick: hand completed, one extra")
    gk = q.keeper(tx.state, r.team)
    tx.emit(ev.BallSet(gk.ref if gk else None, "goal kick"))
    tx.emit(ev.RestartSet(None, "goal kick taken"))
    tx.emit(ev.PhaseSet(Phase.TURN))
    set_stage(tx, Stage.GOAL_KICK)


def award(tx: Tx, kind: RestartKind, team: Team, reason: str, space=None, player: PlayerRef | None = None) -> None:
    tx.emit(ev.RestartSet(Restart(kind, team, space, player), reason))


# --- halves ------------------------------------------------------------------------------------------

def start_period(tx: Tx, period: Period, kicker: Team) -> None:
    s = tx.state
    tx.emit(ev.PeriodStarted(period))
    size = EXTRA_TIME_DECK if period in (Period.EXTRA_FIRST, Period.EXTRA_SECOND) else s.components.deck.size
    for team in (Team.HOME, Team.AWAY):
        tx.emit(ev.DeckShuffled(team, size, fresh=period is not Period.EXTRA_SECOND))
    for team in (Team.HOME, Team.AWAY):
        draw(tx, team, HAND, "start of the half")
    award(tx, RestartKind.KICK_OFF, kicker, f"start of the {period.label}")
    start_turn(tx, kicker)


def end_period(tx: Tx) -> None:
    s = tx.state
    level = s.score[Team.HOME] == s.score[Team.AWAY]
    first = s.first_player
    if s.restart is not None:
        tx.emit(ev.RestartSet(None, f"end of the {s.period.label}"))
    if s.period is Period.FIRST_HALF:
        start_period(tx, Period.SECOND_HALF, first.other)  # 2.2: the first kicker defends
    elif s.period is Period.SECOND_HALF:
        if not level:
            finish_match(tx, "full time")
        elif s.options.extra_time:
            start_period(tx, Period.EXTRA_FIRST, first)
        elif s.options.shootout:
            start_shootout(tx)
        else:
            finish_match(tx, "draw")
    elif s.period is Period.EXTRA_FIRST:
        start_period(tx, Period.EXTRA_SECOND, first.other)
    elif s.period is Period.EXTRA_SECOND:
        if not level:
            finish_match(tx, "extra time")
        elif s.options.shootout:
            start_shootout(tx)
        else:
            finish_match(tx, "draw")


def start_shootout(tx: Tx) -> None:
    s = tx.state
    tx.emit(ev.ShootoutStarted(first=s.first_player))
    for team in (Team.HOME, Team.AWAY):
        tx.emit(ev.DeckShuffled(team, s.components.deck.size))
    for team in (Team.HOME, Team.AWAY):
        draw(tx, team, HAND, "penalty kick series")


def finish_match(tx: Tx, how: str) -> None:
    s = tx.state
    home, away = s.score[Team.HOME], s.score[Team.AWAY]
    if how == "penalty kicks":
        h = sum(1 for k in s.shootout if k.team is Team.HOME and k.scored)
        a = sum(1 for k in s.shootout if k.team is Team.AWAY and k.scored)
        winner = Team.HOME if h > a else Team.AWAY
    else:
        winner = None if home == away else (Team.HOME if home > away else Team.AWAY)
    tx.emit(ev.MatchEnded(Result(winner, home, away, "draw" if winner is None else how)))


# --- ending a turn by hand --------------------------------------------------------------------------

def end_turn(tx: Tx, cmd) -> None:
    """EndTurn: no extra movement (or nothing more to do). A turn's main action cannot be
    skipped while the coach holds a card."""
    s = tx.state
    section = "2.1 Game in Progress"
    check_turn(s, cmd.team, section)
    stage = s.turn.stage
    if s.cards[cmd.team].hand > 0:
        if stage is Stage.START:
            raise refuse(section, "in his turn a player makes a simple or combined action: play a card first")
        if stage in (Stage.FREE_KICK, Stage.GOAL_KICK, Stage.DIRECT_KICK):
            raise refuse(section, f"take the {stage.value.replace('_', ' ')} first")
    if s.restart is not None and s.restart.team is cmd.team and not s.restart.kind.set_up:
        tx.emit(ev.RestartSet(None, "no card to take the kick"))
    tx.emit(ev.TurnEndCalled(cmd.team))
