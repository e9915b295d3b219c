"""Fouls, the advantage rule, the referee's call board, cards, injuries and substitutions.

In a physical challenge, the player who fails while the other succeeds fouls him. The
fouled coach chooses: advantage (the fouler is stunned and play goes on) or the free kick
(a penalty kick inside the fouler's own penalty area), and only then the referee's call
board decides a yellow or red card from the fouler's failed result. A second yellow sends
him off.
"""

from __future__ import annotations

from ..teams import PlayerRef
from . import events as ev
from . import flow
from . import queries as q
from .commands import CallSubstitution
from .model import (FoulChoiceCtx, GoalkeeperChoiceCtx, Phase, RestartKind, Status, SubstituteChoiceCtx, Test,
                    Where)
from .restarts import award
from .tx import Tx, refuse

SUBSTITUTIONS = "Substitutions"


def foul(tx: Tx, fouler: PlayerRef, fouler_test: Test, fouled: PlayerRef, on_advantage: str) -> None:
    """``on_advantage``: "ball_to_fouled" (the fouled side wins the ball), "play_on", or a
    key of the transaction's ``after_advantage`` table (the action goes on; rules.py builds it)."""
    s = tx.state
    spot = s.players[fouled].ms or s.players[fouler].ms
    own_area = q.ms_in(s, "penalty_area", q.own_end(s, fouler.team), spot)
    options = ("advantage", "penalty_kick" if own_area else "free_kick")
    flow.open_choice(tx, fouled.team, f"{q.label(fouler, s)} fouls {q.label(fouled, s)}: play the advantage or "
                                      f"take the {'penalty kick' if own_area else 'free kick'}?", options,
                     FoulChoiceCtx(fouler=fouler, fouled=fouled, skill=fouler_test.skill, result=fouler_test.result,
                                   spot=spot, penalty=own_area, on_advantage=on_advantage),
                     player=fouled, front=True)


def on_foul_choice(tx: Tx, choice, option: str) -> None:
    ctx: FoulChoiceCtx = choice.ctx
    if option == "advantage":
        p = tx.state.players[ctx.fouler]
        if not (p.status is Status.STUNNED and p.stunned_until > tx.state.round):
            flow.stun(tx, ctx.fouler)  # the advantage rule always stuns the fouling player
        if ctx.on_advantage == "ball_to_fouled":
            flow.give_ball(tx, ctx.fouled)
        elif ctx.on_advantage in tx.after_advantage:
            tx.after_advantage[ctx.on_advantage](tx, ctx)
        return
    book(tx, ctx)
    kind = RestartKind.PENALTY if ctx.penalty else RestartKind.FREE_KICK
    award(tx, kind, ctx.fouled.team, f"foul by {ctx.fouler}", spot_ms=None if ctx.penalty else ctx.spot)


def book(tx: Tx, ctx: FoulChoiceCtx) -> None:
    s = tx.state
    if ctx.skill is None:
        return
    colour = s.components.referee.card_for(ctx.skill, ctx.result)
    if colour is None:
        return
    p = s.players[ctx.fouler]
    sent_off = colour == "red" or p.yellow >= 1
    tx.emit(ev.CardShown(ctx.fouler, colour, sent_off))
    if sent_off and s.ball.carrier == ctx.fouler:
        tx.emit(ev.BallSet(type(s.ball)(ps=q.ps_of(s, ctx.fouler), last_touch=ctx.fouler.team)))


# --- substitutions -----------------------------------------------------------------------------

def call_substitution(tx: Tx, cmd: CallSubstitution) -> None:
    s = tx.state
    if not s.created or s.phase is Phase.OVER or s.phase is Phase.SHOOTOUT:
        raise refuse(SUBSTITUTIONS, "substitutions are made during the match")
    off, on = s.players.get(cmd.off), s.players.get(cmd.on)
    if off is None or cmd.off.team is not cmd.team or not off.on_pitch:
        raise refuse(SUBSTITUTIONS, f"{cmd.off} is not one of {cmd.team.label}'s players on the pitch")
    if on is None or cmd.on.team is not cmd.team or on.where is not Where.BENCH:
        why = "was substituted and is out of play" if on is not None and on.where is Where.OUT else "is not on the bench"
        raise refuse(SUBSTITUTIONS, f"{cmd.on} {why}")
    if any(o == cmd.off for o, _ in s.subs_pending):
        raise refuse(SUBSTITUTIONS, f"{cmd.off} is already being substituted at the end of the round")
    if any(n == cmd.on for _, n in s.subs_pending):
        raise refuse(SUBSTITUTIONS, f"{cmd.on} is already coming on")
    if not flow.can_substitute(s, cmd.team):
        raise refuse(SUBSTITUTIONS, f"{cmd.team.label} has used all 3 substitutions")
    tx.emit(ev.SubstitutionCalled(cmd.team, cmd.off, cmd.on))
    if s.phase in (Phase.KICK_OFF, Phase.RESTART, Phase.BOARD_PICK, Phase.OPENING_ROLL):
        tx.emit(ev.SubstitutionMade(cmd.off, cmd.on))  # between rounds: swap at once


def on_substitute_choice(tx: Tx, choice, option: str) -> None:
    ctx: SubstituteChoiceCtx = choice.ctx
    on = PlayerRef.parse(option)
    tx.emit(ev.SubstitutionCalled(ctx.injured.team, ctx.injured, on))


def on_goalkeeper_choice(tx: Tx, choice, option: str) -> None:
    ctx: GoalkeeperChoiceCtx = choice.ctx
    player = PlayerRef.parse(option)
    tx.emit(ev.GoalkeeperAssigned(player, ctx.card_of or player))
