"""Action D, Take the Ball Out of the Opponent; fouls, yellow cards, sendings-off; the award
of a penalty.

The taker rolls his d12: 1 .. his strength takes the ball (and his side has three actions
from then), the foul number on his tile ("X 12") is a foul, anything else fails. A foul
books the fouler (a second yellow sends him off; no cards in Futboard Street), ends his
turn and starts the fouled side's; inside the area it is a penalty.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef
from . import events as ev
from . import queries as q
from .commands import TakeBall
from .kicks import close
from .model import YELLOWS_TO_SEND_OFF, Contest, Penalty, Phase, TakeCtx, Test
from .tx import Tx, refuse
from .turns import CORNER, check_action, corner, start_turn

TAKE = "D. Take the Ball Out of the Opponent"


def take_ball(tx: Tx, cmd: TakeBall) -> None:
    s = tx.state
    ref = cmd.player
    if ref not in s.players:
        raise refuse(TAKE, f"no player {ref} in this match")
    team = ref.team
    check_action(s, team, TAKE)
    p = s.players[ref]
    if not p.on_field or p.space is None:
        raise refuse(TAKE, f"{ref} is not on the field")
    carrier = s.ball
    if carrier is None or carrier.team is team:
        raise refuse(TAKE, "take the ball out of an opponent: your side has it already" if carrier else
                           "nobody has the ball")
    c = corner(s)
    if c is not None and c.step == "defence":
        raise refuse(CORNER, f"at a corner kick {team.label} has up to three moves; no taking the ball")
    cs = s.players[carrier].space
    if cs is None or not q.pitch(s).adjacent(p.space, cs):
        raise refuse(TAKE, f"{ref} is not next to {carrier}, who has the ball")
    tile = p.tile
    tx.emit(ev.TakeAttempted(ref, carrier))
    test = Test(team, f"Take the ball: {ref} (strength {tile.strength}, foul on {tile.foul})",
                DiceSpec((DieKind.D12,), team), ref, tile.strength, tile.foul)
    tx.emit(ev.PendingOpened(Contest(tx.next_id, (test,), TakeCtx(ref, carrier, tile.strength, tile.foul))))


def resolve_take(tx: Tx, contest: Contest) -> None:
    ctx: TakeCtx = contest.ctx
    t = contest.tests[0]
    if t.result is None:
        return
    said = f"{ctx.taker} rolls {t.result} to take the ball from {ctx.carrier} (strength {ctx.strength})"
    if t.result == ctx.foul:
        close(tx, contest, f"{said}: {t.result} is his foul number, foul")
        commit_foul(tx, ctx.taker, ctx.carrier)
    elif t.success:
        close(tx, contest, f"{said}: takes the ball")
        tx.emit(ev.BallSet(ctx.taker, "took the ball"))
        start_turn(tx, ctx.taker.team, "took the ball: three actions from now")
    else:
        close(tx, contest, f"{said}: fails")


def commit_foul(tx: Tx, fouler: PlayerRef, fouled: PlayerRef) -> None:
    s = tx.state
    space = s.players[fouled].space
    in_area = q.pitch(s).in_penalty_area(space, q.own_end(fouler.team))
    tx.emit(ev.FoulCommitted(fouler, fouled, space, in_area))
    if not s.street:
        yellow = s.players[fouler].yellow + 1
        tx.emit(ev.CardShown(fouler, yellow, yellow >= YELLOWS_TO_SEND_OFF))
    if in_area:
        tx.emit(ev.RestartSet(Penalty(fouled.team, fouler, fouled)))
        tx.emit(ev.PhaseStarted(Phase.PENALTY, "foul inside the area"))
        tx.emit(ev.BallSet(None, "penalty: the ball goes on the spot"))
        return
    start_turn(tx, fouled.team, "foul: the fouled side's turn")
