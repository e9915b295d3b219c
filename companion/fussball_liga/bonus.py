"""Optional rule "Bonus Points": aces and wash-outs on the rolls the tables mark.

Reading of the lost list "Bonus points come in two forms" (docs/assumptions.md): a
"constant" bonus counts on every eligible roll; a "pool" is a number of points for the
match, spent a roll at a time. An ace's constant bonus counts by itself; an ace's pool is
spent by his coach; a wash-out's bonus is applied by the opposing coach, who picks the
roll and whether it counts for or against him.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef, Team
from . import events as ev
from .model import Ask, AskCtx, BonusCtx, Choice, LigaState, Modifier, RollPlan
from .tx import Tx


def plan_roll(s: LigaState, team: Team, label: str, ctx: AskCtx, modifiers: tuple[Modifier, ...] = (),
              player: PlayerRef | None = None, bonus_for: tuple[tuple[PlayerRef, int], ...] = (),
              dice: int = 1) -> RollPlan:
    """A roll for ``team``; ``bonus_for`` lists the players whose bonus counts on it, each
    with +1 when his bonus helps this roll and -1 when it works against it."""
    mods = list(modifiers)
    deciders = []
    if s.options.bonus_points:
        for ref, sign in bonus_for:
            bonus = s.players[ref].card.bonus
            if bonus is None:
                continue
            if bonus.kind == "ace" and bonus.form == "constant":
                mods.append(Modifier(f"{ref} ace", bonus.points * sign))
            else:
                deciders.append((ref, sign))
    spec = DiceSpec(tuple(DieKind.D6 for _ in range(dice)), team)
    return RollPlan(team=team, label=label, dice=spec, ctx=ctx, modifiers=tuple(mods), player=player,
                    deciders=tuple(deciders))


def _options(s: LigaState, ref: PlayerRef) -> tuple[str, ...]:
    bonus = s.players[ref].card.bonus
    if bonus.form == "constant":
        return ("none", f"favour:{bonus.points}", f"against:{bonus.points}")
    left = bonus.points - s.players[ref].pool_used
    if bonus.kind == "ace":
        return ("none",) + tuple(f"favour:{n}" for n in range(1, left + 1))
    return ("none",) + tuple(f"{way}:{n}" for way in ("favour", "against") for n in range(1, left + 1))


def ask_with_bonus(tx: Tx, plan: RollPlan, front: bool = False) -> None:
    s = tx.state
    while plan.deciders:
        ref, _sign = plan.deciders[0]
        options = _options(s, ref)
        if len(options) == 1:  # an empty pool: nothing to decide
            plan = RollPlan(plan.team, plan.label, plan.dice, plan.ctx, plan.modifiers, plan.player,
                            plan.deciders[1:])
            continue
        bonus = s.players[ref].card.bonus
        decider = ref.team if bonus.kind == "ace" else ref.team.other
        what = "ace" if bonus.kind == "ace" else "wash-out"
        # The choice as flow.open_choice makes it (flow asks for rolls through this module).
        choice = Choice(id=tx.next_id, team=decider, question=f"{decider.label}: bonus points of {ref} ({what}, "
                        f"{bonus.form}) on {plan.label}: apply them?", options=options, ctx=BonusCtx(ref, plan))
        tx.emit(ev.PendingOpened(choice, front))
        return
    ask = Ask(id=tx.next_id, team=plan.team, label=plan.label, dice=plan.dice, ctx=plan.ctx,
              modifiers=plan.modifiers, player=plan.player)
    tx.emit(ev.PendingOpened(ask, front))


def choose_bonus(tx: Tx, choice: Choice, option: str) -> None:
    ctx: BonusCtx = choice.ctx
    plan = ctx.plan
    ref, sign = plan.deciders[0]
    mods = plan.modifiers
    if option != "none":
        way, _, n = option.partition(":")
        points = int(n)
        if tx.state.players[ref].card.bonus.form == "pool":
            tx.emit(ev.BonusSpent(ref, points))
        value = points * sign * (1 if way == "favour" else -1)
        mods = mods + (Modifier(f"{ref} bonus", value),)
    rest = RollPlan(plan.team, plan.label, plan.dice, plan.ctx, mods, plan.player, plan.deciders[1:])
    ask_with_bonus(tx, rest, front=True)
