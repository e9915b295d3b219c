"""Rolls arriving for pending requests, from any source (tray, keypad, software dice).

Futboard rolls one d12 per coach. A roll without a request id goes to the only open test
its die fits (by kind and owning coach); a kick and a penalty each wait for both coaches'
dice, so a keypad roll with no owner must name its request.
"""

from __future__ import annotations

from typing import Callable

from ..commands import Choose, SubmitRoll
from ..dice import DiceSpec, Roll
from ..errors import DiceMismatch, RuleViolation
from . import events as ev
from .kicks import KICK, resolve_kick
from .model import Contest, KickCtx, PenaltyKickCtx, TakeCtx, Test, request_id
from .penalty import PENALTY, resolve_penalty
from .tackles import TAKE, resolve_take
from .tx import Tx, refuse

SECTIONS: dict[type, str] = {KickCtx: KICK, TakeCtx: TAKE, PenaltyKickCtx: PENALTY}
RESOLVERS: dict[type, Callable[[Tx, Contest], None]] = {KickCtx: resolve_kick, TakeCtx: resolve_take,
                                                          PenaltyKickCtx: resolve_penalty}


def describe_test(t: Test) -> str:
    """The request text a coach acts on."""
    who = t.team.label
    if t.foul:
        return f"{who}: {t.label}: takes it on 1-{t.target}, a foul on {t.foul}; roll {t.dice.describe()}"
    if t.target:
        return f"{who}: {t.label}: succeeds on 1-{t.target}; roll {t.dice.describe()}"
    if "Penalty" in t.label:
        return f"{who}: {t.label}: goal if the two numbers fall in different groups (1-4, 5-8, 9-12); " \
               f"roll {t.dice.describe()}"
    return f"{who}: {t.label}: no defence left, only the kick's own number would give a corner; " \
           f"roll {t.dice.describe()}"


def _fits(spec: DiceSpec, roll: Roll) -> bool:
    if sorted(k.value for k in spec.kinds) != sorted(k.value for k in roll.kinds):
        return False
    owners = {d.die.owner for d in roll.dice if d.die.owner is not None}
    return spec.owner is None or not owners or owners == {spec.owner}


def submit_roll(tx: Tx, cmd: SubmitRoll) -> None:
    s = tx.state
    if not s.queue:
        raise refuse("Start", "no roll is awaited now; play an action first")
    head = s.queue[0]
    rule = f"Futboard rulebook, {SECTIONS[type(head.ctx)]}"
    open_tests = [(i, t) for i, t in enumerate(head.tests) if t.result is None]
    if cmd.request is not None:
        wanted = [(i, t) for i, t in open_tests if request_id(head, i) == cmd.request]
        if not wanted:
            ids = ", ".join(request_id(head, i) for i, _ in open_tests)
            raise RuleViolation(rule, f"request {cmd.request} is not waiting for dice; waiting: {ids}")
        index, test = wanted[0]
    else:
        fits = [(i, t) for i, t in open_tests if _fits(t.dice, cmd.roll)]
        if not fits:
            index, test = open_tests[0]
            test.dice.check(cmd.roll, rule, describe_test(test))
            raise DiceMismatch(rule, f"this roll fits no waiting request; {describe_test(test)}")
        if len(fits) > 1:
            ids = ", ".join(f"{request_id(head, i)} ({t.team.label})" for i, t in fits)
            raise DiceMismatch(rule, f"this roll fits more than one request ({ids}); say which one it is for")
        index, test = fits[0]
    test.dice.check(cmd.roll, rule, describe_test(test))
    tx.emit(ev.DiceRolled(request_id(head, index), cmd.roll, cmd.roll.dice[0].value))
    contest = tx.state.queue[0]
    RESOLVERS[type(contest.ctx)](tx, contest)


def choose(tx: Tx, cmd: Choose) -> None:
    raise refuse("Start", f"Futboard asks the coaches no questions (choice {cmd.request!r}): play an action, "
                          f"place a figure or roll")
