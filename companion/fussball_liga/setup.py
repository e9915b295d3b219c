"""Setting up a match: the teams and box data, the coin toss, and figures placed freely
(the line-up before a kick-off, the placement before a penalty-kick, corrections)."""

from __future__ import annotations

from ..board import Square
from ..commands import PlaceFigure
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import CreateMatch, Move, PlaceBall
from .model import Ball, Choice, EndsCtx, Period, Phase, RestartKind, SetupStep, TossCtx, TossPickCtx
from .movement import move
from .placement import SETUP, free_placement
from .tx import Tx, refuse



def create_match(tx: Tx, cmd: CreateMatch) -> None:
    if tx.state.created:
        raise refuse(SETUP, "this match has already been set up")
    o = cmd.options
    for team, roster in ((Team.HOME, cmd.home), (Team.AWAY, cmd.away)):
        numbers = {p.number for p in roster.players}
        for ref in o.suspended + o.carried_yellows:
            if ref.team is team and ref.number not in numbers:
                raise refuse("Tournament Play", f"{ref} is not on {roster.name}'s roster")
        for ref in o.suspended:
            if ref.team is team and ref.number in roster.starters:
                raise refuse("Tournament Play", f"{ref} is suspended and may not be fielded: leave him out of the "
                                                f"starting eleven")
    tx.emit(ev.MatchCreated(cmd.home, cmd.away, cmd.components, cmd.options))
    flow.open_choice(tx, None, "Coin toss: which coach won it?", ("home", "away"), TossCtx())


def choose_toss(tx: Tx, choice: Choice, option: str) -> None:
    winner = Team(option)
    flow.open_choice(tx, winner, f"{winner.label} won the toss: take the first kick-off, or the choice of ends?",
                     ("kick_off", "ends"), TossPickCtx(winner))


def choose_toss_pick(tx: Tx, choice: Choice, option: str) -> None:
    winner = choice.ctx.winner
    kicker = winner if option == "kick_off" else winner.other
    chooser = winner.other if option == "kick_off" else winner
    flow.open_choice(tx, chooser, f"{chooser.label}: which goal do you defend in the first half? (low: the goal "
                                  f"line at x = 0)", ("low", "high"), EndsCtx(kicker, winner))


def choose_ends(tx: Tx, choice: Choice, option: str) -> None:
    chooser = choice.team
    home_end = option if chooser is Team.HOME else ("high" if option == "low" else "low")
    tx.emit(ev.KickOffSet(choice.ctx.winner, choice.ctx.kicker, home_end))
    flow.start_period(tx, Period.FIRST_HALF, choice.ctx.kicker, home_end)


# --- placing figures ---------------------------------------------------------------------------

FREE_PHASES = (Phase.TOSS, Phase.LINE_UP)


def place_figure(tx: Tx, cmd: PlaceFigure) -> None:
    s = tx.state
    if not s.created:
        raise refuse(SETUP, "create the match first")
    p = s.players.get(cmd.player)
    if p is None:
        raise refuse(SETUP, f"no player {cmd.player}")
    square = cmd.square
    if square is None and cmd.x_mm is not None and cmd.y_mm is not None:
        square = q.pitch(s).square_at(cmd.x_mm, cmd.y_mm)
        if square is None:
            raise refuse(SETUP, f"({cmd.x_mm:.0f}, {cmd.y_mm:.0f}) mm is off the board")
    if cmd.correction:
        correct(tx, cmd.player, square)
        return
    if square is None:
        if s.phase in FREE_PHASES or penalty_setup(s) or s.phase is Phase.SHOOTOUT:
            tx.emit(ev.FigurePlaced(cmd.player, None))
            return
        raise refuse(SETUP, f"{cmd.player} left the board: put him back, or mark it as a correction")
    if s.phase in FREE_PHASES or penalty_setup(s) or s.phase is Phase.SHOOTOUT:
        free_placement(tx, cmd.player, square)
        return
    if s.phase in (Phase.SET_UP, Phase.MOVEMENT):
        move(tx, Move(cmd.player, square))
        return
    raise refuse(SETUP, f"figures do not move in the {s.phase.label} phase; mark it as a correction if the board "
                        f"was wrong")


def penalty_setup(s) -> bool:
    r = s.restart
    return s.phase is Phase.SET_UP and r is not None and r.kind is RestartKind.PENALTY and r.step is SetupStep.FREE


def correct(tx: Tx, ref: PlayerRef, square: Square | None) -> None:
    """A person overrides where a figure stands; the rules only keep squares single."""
    s = tx.state
    if square is not None:
        if not q.pitch(s).on_board(square):
            raise refuse(SETUP, "that square is off the board")
        other = q.occupant(s, square)
        if other is not None and other != ref:
            raise refuse(SETUP, f"{other} stands on that square: move him first")
        if not s.players[ref].on_pitch:
            raise refuse(SETUP, f"{ref} is not in the team on the pitch; substitute him in first")
    tx.emit(ev.FigurePlaced(ref, square, correction=True))


def place_ball(tx: Tx, cmd: PlaceBall) -> None:
    """A correction of the ball (it never changes the phase; the rules go on from there)."""
    s = tx.state
    if s.flight is not None or s.queue:
        raise refuse(SETUP, "correct the ball once the kick or the pending request is resolved")
    if cmd.square is not None and not q.pitch(s).on_board(cmd.square):
        raise refuse(SETUP, "that square is off the board")
    if cmd.holder is not None:
        h = s.players.get(cmd.holder)
        if h is None or not h.placed or cmd.square is None or not q.near(h.square, cmd.square):
            raise refuse(SETUP, "the ball's holder stands on or next to the ball's square")
        if cmd.control is None:
            raise refuse(SETUP, "say how he controls it (close, loose or hands)")
    tx.emit(ev.BallPlaced(Ball(square=cmd.square, holder=cmd.holder, control=cmd.control if cmd.holder else None,
                               last_team=cmd.holder.team if cmd.holder else s.ball.last_team)))
