"""The game turn and its phases, stoppages, halves and the end of the match.

A game turn is a shot phase (the attacker may kick once, plus one follow-up) and a
movement phase (coaches alternate steps). ``advance`` runs after every command: while
nothing is pending it moves the match on (a shot phase with no kick left -> movement; a
phase whose time ran out -> the next). A change of possession or a stoppage ends the turn
at once. When playing time is up, the current phase is the half's last.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from .bonus import ask_with_bonus
from .model import (Ball, Choice, ChoiceCtx, Control, Period, Phase, Restart, RestartKind, Result, RollPlan,
                    SetupStep)
from .tx import Tx


# --- pending items ---------------------------------------------------------------------------

def open_choice(tx: Tx, team: Team | None, question: str, options: tuple[str, ...], ctx: ChoiceCtx,
                front: bool = False) -> Choice:
    choice = Choice(id=tx.next_id, team=team, question=question, options=options, ctx=ctx)
    tx.emit(ev.PendingOpened(choice, front))
    return choice


def open_roll(tx: Tx, plan: RollPlan, front: bool = False) -> None:
    """Ask for a roll; with the optional bonus points, the coaches' bonus decisions first."""

    ask_with_bonus(tx, plan, front)


def drop_pending(tx: Tx, reason: str) -> None:
    s = tx.state
    if s.queue:
        tx.emit(ev.PendingDropped(tuple(p.id for p in s.queue), reason))


# --- phases and turns --------------------------------------------------------------------------

def start_phase(tx: Tx, phase: Phase, turn: int | None = None, attacking: Team | None | str = "same") -> None:
    s = tx.state
    tx.emit(ev.PhaseStarted(phase=phase, turn=s.turn_no if turn is None else turn,
                            attacking=s.attacking if attacking == "same" else attacking))


def next_turn(tx: Tx, team: Team) -> None:
    """A new game turn for ``team``, beginning with its shot phase (or the half ends)."""
    if tx.state.half_time_up:
        end_period(tx, "playing time is up")
        return
    start_phase(tx, Phase.SHOT, tx.state.turn_no + 1, team)


def begin_movement(tx: Tx) -> None:
    if tx.state.half_time_up:
        end_period(tx, "playing time is up")
        return
    start_phase(tx, Phase.MOVEMENT)


def end_movement(tx: Tx) -> None:
    next_turn(tx, tx.state.attacking)


def set_ball(tx: Tx, square: Square | None, holder: PlayerRef | None = None, control: Control | None = None,
             last_team: Team | None = None) -> None:
    """Put the ball somewhere; a restart's kicker may touch it again once someone else has."""
    s = tx.state
    no_touch = s.ball.no_touch if holder is None or holder == s.ball.no_touch else None
    last = last_team or (holder.team if holder is not None else s.ball.last_team)
    tx.emit(ev.BallSet(Ball(square=square, holder=holder, control=control, last_team=last, no_touch=no_touch)))


def end_flight(tx: Tx, reason: str) -> None:
    if tx.state.flight is not None:
        tx.emit(ev.FlightEnded(reason))


def release_hold(tx: Tx) -> None:
    if tx.state.holding is not None:
        tx.emit(ev.HoldingSet(None, 0))


def gain_possession(tx: Tx, ref: PlayerRef, square: Square, control: Control, reason: str) -> None:
    """The defender gets the ball: the turn ends at once and his side attacks a new turn."""
    drop_pending(tx, reason)
    end_flight(tx, reason)
    release_hold(tx)
    set_ball(tx, square, ref, control)
    next_turn(tx, ref.team)


def stop_play(tx: Tx, reason: str, restart: Restart) -> None:
    """A stoppage: pending requests are void, the turn ends, the ball is placed for the
    restart, and the coaches re-position (or, when time is up, the half may end here)."""
    drop_pending(tx, f"play stopped: {reason}")
    end_flight(tx, reason)
    release_hold(tx)
    s = tx.state
    if s.half_time_up and restart.kind.forfeited_at_time_up:
        end_period(tx, f"playing time is up; the {restart.kind.label} is forfeited")
        return
    tx.emit(ev.RestartSet(restart, reason))
    tx.emit(ev.BallSet(Ball(square=restart.spot, last_team=s.ball.last_team)))  # a restart starts afresh
    phase = Phase.LINE_UP if restart.kind is RestartKind.KICK_OFF else Phase.SET_UP
    start_phase(tx, phase, tx.state.turn_no + 1, restart.team)


def restart(kind: RestartKind, team: Team, spot: Square | None, reason: str = "") -> Restart:
    step = SetupStep.FREE if kind in (RestartKind.PENALTY, RestartKind.KICK_OFF) else SetupStep.DEFENDER
    return Restart(kind=kind, team=team, spot=spot, step=step, reason=reason)


# --- the end of the shot phase -----------------------------------------------------------------

def can_kick(s) -> bool:
    """The attacking side has a kick to make in this shot phase."""
    if s.restart is not None:
        return True
    h = s.ball.holder
    return h is not None and h.team is s.attacking and s.ball.control is not None


def follow_up_player(s) -> PlayerRef | None:
    """After a kick lands in an attacker's square, he may move the ball on once (not after a
    follow-up, a kick-off, or when the phase's time ran out)."""
    last = s.last_kick
    if last is None or s.phase_time_up or s.flight is not None:
        return None
    if last.follow_up or last.kind == RestartKind.KICK_OFF.value:
        return None
    h = s.ball.holder
    if h is None or h.team is not s.attacking or s.ball.control is not Control.CLOSE or s.ball.square != last.target:
        return None
    return h


def advance(tx: Tx) -> None:
    """Move the match on as far as it can go without a coach or a die."""
    for _ in range(20):
        s = tx.state
        if s.phase is Phase.OVER or s.queue:
            return
        if s.phase is Phase.SHOT:
            if s.flight is not None:
                return  # the defender decides on interceptions (or the time-up handler lands it)
            if s.phase_time_up:
                begin_movement(tx)
                continue
            if not s.kicked:
                if not can_kick(s) or (s.holding is not None and s.hold_turn == s.turn_no):
                    begin_movement(tx)
                    continue
                return
            if follow_up_player(s) is not None:
                return
            begin_movement(tx)
            continue
        if s.phase is Phase.MOVEMENT and s.phase_time_up:
            end_movement(tx)
            continue
        return
    raise RuntimeError("the game turn did not settle; this is a bug in the Fußball-Liga rules")


# --- halves and the end of the match -------------------------------------------------------------

NEXT = {Period.FIRST_HALF: Period.SECOND_HALF, Period.SECOND_HALF: Period.EXTRA_FIRST,
        Period.EXTRA_FIRST: Period.EXTRA_SECOND, Period.EXTRA_SECOND: Period.SHOOTOUT}


def end_period(tx: Tx, reason: str) -> None:
    drop_pending(tx, reason)
    end_flight(tx, reason)
    release_hold(tx)
    s = tx.state
    if s.restart is not None:
        tx.emit(ev.RestartSet(None, reason))
    tx.emit(ev.PeriodEnded(s.period, reason))
    level = s.score[Team.HOME] == s.score[Team.AWAY]
    o = s.options
    nxt = NEXT.get(s.period)
    if s.period is Period.SECOND_HALF and (not level or not (o.extra_time or o.shootout)):
        finish_match(tx, "full time")
        return
    if s.period is Period.SECOND_HALF and not o.extra_time:
        nxt = Period.SHOOTOUT
    if s.period is Period.EXTRA_SECOND and (not level or not o.shootout):
        finish_match(tx, "extra time")
        return
    if nxt is Period.SHOOTOUT:
        start_shootout(tx)
        return
    kicker = s.first_kicker if nxt is Period.EXTRA_FIRST else s.first_kicker.other
    if nxt is Period.EXTRA_SECOND:
        kicker = s.first_kicker.other
    home_end = s.home_end
    if o.change_ends:
        home_end = "high" if home_end == "low" else "low"
    start_period(tx, nxt, kicker, home_end)


def start_period(tx: Tx, period: Period, kicker: Team, home_end: str) -> None:
    tx.emit(ev.PeriodStarted(period, kicker, home_end))
    tx.emit(ev.RestartSet(restart(RestartKind.KICK_OFF, kicker, None), f"kick-off of the {period.label}"))
    start_phase(tx, Phase.LINE_UP, tx.state.turn_no + 1, kicker)


def start_shootout(tx: Tx) -> None:
    s = tx.state
    first = s.toss_winner or Team.HOME
    tx.emit(ev.ShootoutStarted(first))


def finish_match(tx: Tx, how: str) -> None:
    s = tx.state
    home, away = s.score[Team.HOME], s.score[Team.AWAY]
    if how == "shoot-out":
        h = sum(1 for k in s.shootout if k.team is Team.HOME and k.scored)
        a = sum(1 for k in s.shootout if k.team is Team.AWAY and k.scored)
        winner = Team.HOME if h > a else Team.AWAY
    else:
        winner = None if home == away else (Team.HOME if home > away else Team.AWAY)
    points_home = points_away = None
    if s.options.tournament:
        points_home = 1 if winner is None else (3 if winner is Team.HOME else 0)
        points_away = 1 if winner is None else (3 if winner is Team.AWAY else 0)
    tx.emit(ev.MatchEnded(Result(winner, home, away, how if winner is not None else "draw", points_home,
                                 points_away)))
