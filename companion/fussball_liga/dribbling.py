"""Dribbling interception: in the movement phase a defender next to the ball an attacker has
at his feet tries to win it, supported by others next to the attacker or the ball; an
original 1 or 2 is a foul unless he declared fair play (rulebook, Dribbling table).
"""

from __future__ import annotations

from . import events as ev
from . import flow
from . import queries as q
from .bonus import plan_roll
from .commands import Tackle
from .discipline import foul
from .model import Ask, Control, DribbleCtx, Modifier
from .movement import HOLD, check_common
from .resolve import resolved, roll_text
from .tx import Tx, refuse

DRIBBLING = "Dribbling Interception"


def tackle(tx: Tx, cmd: Tackle) -> None:
    s = tx.state
    check_common(s, cmd.principal)
    ball = s.ball
    holder = q.holder(s)
    if holder is None or holder.ref.team is not s.attacking or ball.control not in (Control.CLOSE, Control.LOOSE):
        raise refuse(DRIBBLING, "a dribbling interception goes for a ball an attacker has at his feet")
    if s.holding is not None:
        raise refuse(HOLD, "opponents are not allowed to attack the goalkeeper holding the ball")
    m = s.movement
    committed = set(m.committed)
    players = (cmd.principal,) + cmd.supporters
    if len(set(players)) != len(players):
        raise refuse(DRIBBLING, "name each defender once")
    for ref in players:
        p = s.players.get(ref)
        if p is None or ref.team is s.attacking or not p.placed:
            raise refuse(DRIBBLING, f"{ref} is not a defender on the board")
        if ref in committed:
            raise refuse(DRIBBLING, f"{ref} committed himself already in this movement phase")
    if m.tackled:
        raise refuse(DRIBBLING, "an attempt was made at the ball already; wait until it has moved on")
    if not q.near(s.players[cmd.principal].square, ball.square):
        raise refuse(DRIBBLING, f"the defender trying to get control, {cmd.principal}, must be next to the ball")
    for ref in cmd.supporters:
        sq = s.players[ref].square
        if not (q.near(sq, ball.square) or q.near(sq, holder.square)):
            raise refuse(DRIBBLING, f"{ref} supports only from a square next to the attacker or the ball")
    table = q.tables(s).dribbling
    mm = table.modifiers
    mods = []
    if cmd.supporters:
        mods.append(Modifier(f"{len(cmd.supporters)} supporting defender(s)", mm.per_additional_defender *
                             len(cmd.supporters)))
    next_to_attacker = any(q.near(s.players[r].square, holder.square) for r in players)
    if not next_to_attacker:
        mods.append(Modifier("no committed defender next to the attacker", mm.none_adjacent_to_attacker))
    if s.players[cmd.principal].square == ball.square:
        mods.append(Modifier("ball dribbled into the defender's square", mm.ball_through_defender))
    if q.keeper_in_area(s, cmd.principal, "goal_area"):
        mods.append(Modifier("goalkeeper in his goal or goal area", mm.goalkeeper))
    if cmd.fair_play:
        mods.append(Modifier("fair play", mm.fair_play))
    close = ball.control is Control.CLOSE
    tx.emit(ev.TackleCalled(cmd.principal, cmd.supporters, cmd.fair_play))
    needs = "5+" if close else "3+"
    label = (f"dribbling interception by {cmd.principal} against {holder.ref} ({'close' if close else 'wide'} control: "
             f"needs {needs}; an original 1 or 2 is a foul" + (")" if not cmd.fair_play else ", but fair play)"))
    ctx = DribbleCtx(cmd.principal, cmd.supporters, cmd.fair_play, close, next_to_attacker)
    plan = plan_roll(s, cmd.principal.team, label, ctx, tuple(mods), cmd.principal,
                     bonus_for=((cmd.principal, 1), (holder.ref, -1)))
    flow.open_roll(tx, plan)


def resolve_dribble(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    s = tx.state
    ctx: DribbleCtx = ask.ctx
    table = q.tables(s).dribbling
    ball = s.ball
    attacker = ball.holder
    text = f"{ctx.principal} {roll_text(original, modified)}: "
    fouled = table.fouls(original, ctx.fair_play, ctx.foul_possible)
    if table.succeeds(ctx.close, original, modified, fouled):
        resolved(tx, ask, original, modified, text + "wins the ball")
        control = q.control_of(s, ctx.principal, ball.square)
        flow.gain_possession(tx, ctx.principal, ball.square, control, f"{ctx.principal} won the ball")
        return
    if fouled:
        yellow = original in table.yellow_on
        resolved(tx, ask, original, modified, text + ("foul, yellow card" if yellow else "foul"))
        foul(tx, ctx.principal, ball.square, yellow, s.players[attacker].square)
        return
    resolved(tx, ask, original, modified, text + "the attacker keeps the ball")
