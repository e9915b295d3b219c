"""3.3 Pass, 3.4 Dodge, 4.2 Supported Dodge, 4.3 Pass and Dodge, Game Vision, and losing the ball.

A pass needs its distance (4 a space forward or backward, 3 sideways, 2 across a dotted
line) plus 3 per defending counter at both ends; a dodge 6 plus the defence of every
defender in the space. A missed pass goes to a defender at the destination, else next to
it, else at the origin; with none of them the pass never fails.
"""

from __future__ import annotations

from dataclasses import replace

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .cards import bonus
from .commands import Dodge, Pass
from .components import Ability, Card
from .difficulty import dodge_difficulty, halve, pass_difficulty
from .model import (Choice, DodgeCtx, InterceptCtx, PassCtx, ReceiverDodgeCtx, Roll, Stage,
                    Test, Unmarked)
from .movement import check_support
from .possession import lose_ball, take_ball
from .resolve import close, verdict
from .tx import Tx, refuse

PASS = "3.3 Pass"
OFFSIDE = '3.3 Pass (Football Leader "Offside")'
DODGE = "3.4 Dodge and Unmarked Players"
SUPPORT = "4.2 Supported Dodge"
PASS_DODGE = "4.3 Pass and Dodge"
NOT_ALLOWED = "4.7 Actions NOT allowed"
VISION = "5 Special Abilities (Game Vision)"


def dice(two: bool, team: Team) -> DiceSpec:
    return DiceSpec((DieKind.D12, DieKind.D12) if two else (DieKind.D12,), team)


def defenders_of(s, team: Team):
    """Counts the opponents of ``team`` in a space."""
    return lambda space: q.count_in(s, space, team.other)


# --- pass ----------------------------------------------------------------------------------------

PASS_KINDS = {Stage.START: "pass", Stage.AFTER_MAIN: "vision", Stage.FREE_KICK: "free_kick",
              Stage.GOAL_KICK: "goal_kick"}


def pass_ball(tx: Tx, cmd: Pass) -> None:
    s = tx.state
    passer = s.ball
    if passer is None:
        raise refuse(PASS, "nobody has the ball")
    team = passer.team
    flow.check_turn(s, team, PASS)
    stage = s.turn.stage
    kind = PASS_KINDS.get(stage)
    if kind is None:
        if stage is Stage.CARRIER_MOVED:
            raise refuse(NOT_ALLOWED, "move and pass with the same counter is never permitted")
        if stage in (Stage.PASSED, Stage.VISION_PASSED):
            raise refuse(NOT_ALLOWED, "the receiver may shoot (pass and shoot) or the turn goes on with the extra "
                                      "movement; a second pass is not allowed")
        raise refuse(PASS, "a direct free kick or penalty is a shot")
    if kind == "vision":
        if not q.has(s, passer, Ability.GAME_VISION):
            raise refuse(PASS, "the main action is over: only an extra movement is left (or end the turn)")
        if passer in s.turn.moved or passer in s.turn.markers:  # a hard tackle is a movement too
            raise refuse(VISION, f"{passer} moved this turn; a Game Vision pass needs a counter not moved")
        if cmd.dodge_card is not None:
            raise refuse(VISION, "a Game Vision pass can be a simple pass or a pass and shoot, not a pass and dodge")
    if cmd.dodge_card is not None and kind != "pass":
        raise refuse(PASS_DODGE, f"a {kind.replace('_', ' ')} is a simple pass")
    r = s.players.get(cmd.receiver)
    if r is None or cmd.receiver.team is not team or not r.on_pitch or r.space is None:
        raise refuse(PASS, f"pass to one of {team.label}'s counters on the pitch")
    if cmd.receiver == passer:
        raise refuse(PASS, "the receiver is another counter")
    if r.goalkeeper:
        raise refuse(PASS, "the ball goes back to the goalkeeper only by a tackle or a missed pass (see "
                           "docs/assumptions.md)")
    if q.offside(s, cmd.receiver):
        raise refuse(OFFSIDE, f"{cmd.receiver} is offside: no defender in his row nor in any row up to the "
                              f"goalkeeper; he cannot receive a pass")
    origin = s.players[passer].space
    keeper = s.players[passer].goalkeeper
    b = q.board(s)
    diff = pass_difficulty(b, origin, r.space, q.towards_high(s, team), defenders_of(s, team),
                           ignore_origin=kind == "free_kick")
    card_bonus = bonus(s.players[passer].counter.passing, cmd.card, any_colour=keeper)
    unmark = q.has(s, passer, Ability.UNMARK) or q.has(s, cmd.receiver, Ability.UNMARK)
    if cmd.two_dice_on:
        if cmd.dodge_card is None or cmd.two_dice_on not in ("dodge", "pass"):
            raise refuse("5 Special Abilities (Unmark)", "two dice by Unmark are rolled in a pass and dodge, on the "
                                                         "'dodge' or on the 'pass'")
        if not unmark:
            raise refuse("5 Special Abilities (Unmark)", "neither counter has the Unmark ability")
    two_pass = (cmd.two_dice_on == "pass") if cmd.dodge_card is not None else q.has(s, cmd.receiver,
                                                                                    Ability.BALL_CONTROL)
    cards = [cmd.card] + ([cmd.dodge_card] if cmd.dodge_card is not None else [])
    flow.check_cards(s, team, cards, PASS)
    ctx = PassCtx(passer, cmd.receiver, origin, r.space, cmd.card, kind, two_pass)
    if cmd.dodge_card is not None:
        if q.count_in(s, r.space, team.other) == 0:
            raise refuse(PASS_DODGE, f"{cmd.receiver} is not marked: no defender in {b.label(r.space)} to dodge")
    tx.emit(ev.PassDeclared(passer, cmd.receiver, cmd.card, cmd.dodge_card, cmd.two_dice_on))
    if kind == "free_kick":
        tx.emit(ev.RestartSet(None, "indirect kick taken"))
    if cmd.dodge_card is not None:
        _receiver_dodge(tx, ctx, cmd.dodge_card, cmd.two_dice_on == "dodge", diff.total, card_bonus)
        return
    flow.play(tx, team, cmd.card, kind.replace("_", " ") if kind != "pass" else "pass")
    _roll_pass(tx, ctx, diff.total, card_bonus, diff.describe())


def _receiver_dodge(tx: Tx, ctx: PassCtx, card: Card, two: bool, pass_total: int, pass_bonus: int) -> None:
    """4.3: the receiver dodges before the pass; the pass card is spent only if he gets free."""
    s = tx.state
    team = ctx.receiver.team
    r = s.players[ctx.receiver]
    difficulty = dodge_difficulty([d.counter.defence.value for d in q.in_space(s, r.space, team.other)])
    flow.play(tx, team, card, "dodge (pass and dodge)")
    test = Test(team, f"dodge by #{ctx.receiver.number} before the pass", dice(two, team), ctx.receiver, difficulty,
                bonus(r.counter.dodge, card))
    flow.open_roll(tx, (test,), ReceiverDodgeCtx(ctx, pass_total, pass_bonus))


def _roll_pass(tx: Tx, ctx: PassCtx, difficulty: int, card_bonus: int, why: str) -> None:
    s = tx.state
    team = ctx.passer.team
    if not interceptors(s, ctx, miss=False)[0]:
        # 3.3: "If no one of the conditions are met the pass never fails".
        pass_arrives(tx, ctx, "no defender can take it: the pass never fails")
        return
    test = Test(team, f"{ctx.how.replace('_', ' ')} by #{ctx.passer.number} to #{ctx.receiver.number} ({why})",
                dice(ctx.two_dice, team), ctx.passer, difficulty, card_bonus)
    flow.open_roll(tx, (test,), ctx)


def interceptors(s, ctx: PassCtx, miss: bool) -> tuple[list[PlayerRef], bool]:
    """Who may take a missed pass, and whether he moves to the destination to take it (3.3):
    defenders at the destination, else next to it (a goalkeeper included), else at the
    origin. An indirect kick's own space never takes it. With the optional rule a 1 loses
    the ball at the origin instead."""
    defending = ctx.passer.team.other
    b = q.board(s)
    at_origin = [] if ctx.how == "free_kick" else [p.ref for p in q.in_space(s, ctx.origin, defending)]
    if miss and s.options.pass_one_loses_in_origin and at_origin:
        return sorted(at_origin), False
    at_dest = [p.ref for p in q.in_space(s, ctx.dest, defending)]
    if at_dest:
        return sorted(at_dest), False
    near = [p.ref for space, _ in b.neighbours(ctx.dest) for p in q.in_space(s, space, defending)
            if not (ctx.how == "free_kick" and space == ctx.origin)]
    if near:
        return sorted(set(near)), True
    return sorted(at_origin), False


def resolve_pass(tx: Tx, item: Roll) -> None:
    ctx: PassCtx = item.ctx
    t = item.tests[0]
    if t.success:
        close(tx, item, verdict(t) + f": #{ctx.receiver.number} has the ball")
        pass_arrives(tx, ctx)
        return
    close(tx, item, verdict(t) + ": the pass is lost")
    intercept(tx, ctx, miss=t.miss)


def pass_arrives(tx: Tx, ctx: PassCtx, reason: str = "") -> None:
    s = tx.state
    tx.emit(ev.BallSet(ctx.receiver, reason or ctx.how.replace("_", " ")))
    if s.unmarked is not None and s.unmarked.player == ctx.passer:
        tx.emit(ev.UnmarkedSet(None))
    if ctx.after_dodge:
        flow.note(tx, "dodged", ctx.receiver)
        flow.set_stage(tx, Stage.AFTER_MAIN)
    elif ctx.how in ("free_kick", "goal_kick"):
        # 3.7, 3.8: the receiver is "starting" the turn: no pass and shoot, one space at most.
        flow.note(tx, "startup", ctx.receiver)
        flow.set_stage(tx, Stage.START)
    else:
        flow.note(tx, "receiver", ctx.receiver)
        flow.set_stage(tx, Stage.VISION_PASSED if ctx.how == "vision" else Stage.PASSED)


def intercept(tx: Tx, ctx: PassCtx, miss: bool) -> None:
    s = tx.state
    candidates, move = interceptors(s, ctx, miss)
    defending = ctx.passer.team.other
    if len(candidates) == 1:
        take_ball(tx, candidates[0], ctx.dest if move else None, "missed pass")
    else:
        where = q.where(s, ctx.dest)
        question = (f"{defending.label}: the pass to {where} is lost: which counter takes the ball"
                    + (f" (he moves to {where})?" if move else "?"))
        flow.open_choice(tx, defending, question, tuple(str(c) for c in candidates),
                         InterceptCtx(ctx.dest, move), front=True)
    flow.turn_over(tx)


def choose_interceptor(tx: Tx, choice: Choice, option: str) -> None:
    ctx: InterceptCtx = choice.ctx
    take_ball(tx, PlayerRef.parse(option), ctx.dest if ctx.move else None, "missed pass")


def resolve_receiver_dodge(tx: Tx, item: Roll) -> None:
    ctx: ReceiverDodgeCtx = item.ctx
    t = item.tests[0]
    p = ctx.pass_ctx
    if not t.success:
        # 4.3: the pass card is not wasted, the ball is kept, the turn ends at once.
        close(tx, item, verdict(t) + ": the receiver stays marked; the pass is not made and the turn ends")
        flow.turn_over(tx)
        return
    close(tx, item, verdict(t) + f": #{p.receiver.number} is unmarked")
    s = tx.state
    tx.emit(ev.UnmarkedSet(Unmarked(p.receiver, p.dest, s.turn.number + 2)))
    flow.play(tx, p.passer.team, p.card, "pass (pass and dodge)")
    _roll_pass(tx, replace(p, after_dodge=True), ctx.pass_difficulty, ctx.pass_bonus, "pass and dodge")


# --- dodge ---------------------------------------------------------------------------------------

def dodge(tx: Tx, cmd: Dodge) -> None:
    s = tx.state
    ref = s.ball
    if ref is None:
        raise refuse(DODGE, "nobody has the ball")
    team = ref.team
    flow.check_turn(s, team, DODGE)
    stage = s.turn.stage
    if stage is Stage.CARRIER_MOVED:
        raise refuse("4.1 Move and Dodge", "a movement cannot end with a simple dodge")
    if stage is not Stage.START:
        raise refuse(DODGE, "a dodge is the turn's main action; the main action is over")
    p = s.players[ref]
    if p.goalkeeper:
        raise refuse(DODGE, "the goalkeeper has no dodge")
    defenders = q.in_space(s, p.space, team.other)
    if not defenders:
        raise refuse(DODGE, f"no defender marks {ref} in {q.where(s, p.space)}")
    if q.is_unmarked(s, ref):
        raise refuse(DODGE, "an unmarked player cannot try a dodge again in order to remain unmarked")
    difficulty = dodge_difficulty([d.counter.defence.value for d in defenders])
    cards = [cmd.card]
    if cmd.supporter is not None:
        if s.turn.supported:
            raise refuse(SUPPORT, "no more than one dodge of a turn can be supported")
        check_support(s, ref, p.space, cmd.supporter, cmd.support_card)
        difficulty = halve(difficulty)
        if cmd.support_card is not None:
            cards.append(cmd.support_card)
    elif cmd.support_card is not None:
        raise refuse(SUPPORT, "a support card goes with a supporting counter")
    flow.check_cards(s, team, cards, DODGE)
    tx.emit(ev.DodgeDeclared(ref, cmd.card, cmd.supporter, cmd.support_card))
    flow.play(tx, team, cmd.card, "dodge")
    if cmd.support_card is not None:
        flow.play(tx, team, cmd.support_card, "supported dodge")
    if cmd.supporter is not None:
        flow.note(tx, "supported", cmd.supporter)
    label = f"{'supported ' if cmd.supporter else ''}dodge by #{ref.number} in {q.where(s, p.space)}"
    test = Test(team, label, dice(q.has(s, ref, Ability.DODGE), team), ref, difficulty,
                bonus(p.counter.dodge, cmd.card))
    flow.open_roll(tx, (test,), DodgeCtx(ref, p.space))


def resolve_dodge(tx: Tx, item: Roll) -> None:
    ctx: DodgeCtx = item.ctx
    t = item.tests[0]
    if t.success:
        close(tx, item, verdict(t) + f": #{ctx.player.number} is unmarked")
        tx.emit(ev.UnmarkedSet(Unmarked(ctx.player, ctx.space, tx.state.turn.number + 2)))
        flow.note(tx, "dodged", ctx.player)
        flow.set_stage(tx, Stage.AFTER_MAIN)
        return
    close(tx, item, verdict(t) + ": the ball is lost")
    lose_ball(tx, ctx.space, ctx.player.team.other, "failed dodge")
