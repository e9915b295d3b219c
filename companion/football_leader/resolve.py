"""Rolls and choices arriving for pending requests.

A roll is one d12 (or two, keeping the best, for a special ability; or two for a foul
check, keeping the lower or the higher) plus the card's bonus, against a difficulty: equal
or more succeeds; a 1 always misses (with two dice only the black die's 1, 1.6).
"""

from __future__ import annotations

from ..commands import Choose, SubmitRoll
from ..errors import DiceMismatch
from . import events as ev
from .cards import read
from .model import Choice, Roll, Test, request_id
from .tx import Tx, refuse

DICE = "1.6 Dice"


def submit_roll(tx: Tx, cmd: SubmitRoll) -> None:
    s = tx.state
    if not s.queue:
        raise refuse(DICE, "no roll is pending right now; play an action first")
    head = s.queue[0]
    if isinstance(head, Choice):
        raise refuse(DICE, f"a choice comes first: {head.question} ({', '.join(head.options)})")
    open_tests = [(i, t) for i, t in enumerate(head.tests) if t.result is None]
    if cmd.request is not None:
        wanted = [(i, t) for i, t in open_tests if request_id(head, i) == cmd.request]
        if not wanted:
            ids = ", ".join(request_id(head, i) for i, _ in open_tests)
            raise refuse(DICE, f"request {cmd.request} is not waiting for dice; pending: {ids}")
        index, test = wanted[0]
    else:
        fits = [(i, t) for i, t in open_tests if _fits(t, cmd.roll)]
        if not fits:
            index, test = open_tests[0]
            test.dice.check(cmd.roll, _rule(), describe_test(s, test))
            raise DiceMismatch(_rule(), f"this roll fits no pending request; {describe_test(s, test)}")
        if len(fits) > 1:
            ids = ", ".join(f"{request_id(head, i)} ({t.team.label})" for i, t in fits)
            raise DiceMismatch(_rule(), f"this roll fits more than one request ({ids}); say which one it is for")
        index, test = fits[0]
    test.dice.check(cmd.roll, _rule(), describe_test(s, test))
    reading, miss = read(cmd.roll, test.pick)
    tx.emit(ev.DiceRolled(request_id(head, index), cmd.roll, reading, miss))
    item = tx.state.queue[0]
    if isinstance(item, Roll) and item.id == head.id and item.complete:
        tx.resolvers[type(item.ctx)](tx, item)  # the game's table, built in rules.py


def _rule() -> str:
    return f"Football Leader rulebook, {DICE}"


def _fits(test: Test, roll) -> bool:
    if sorted(k.value for k in test.dice.kinds) != sorted(k.value for k in roll.kinds):
        return False
    owners = {d.die.owner for d in roll.dice if d.die.owner is not None}
    return test.dice.owner is None or not owners or owners == {test.dice.owner}


def describe_test(s, t: Test) -> str:
    """The request text, e.g. "Home: pass by #10: difficulty 18, card bonus +10: roll 1d12
    (8 or more; a 1 always misses)"."""
    who = t.team.label
    dice = t.dice.describe()
    if not t.is_test:
        return f"{who}: {t.label}, roll {dice}"
    need = t.difficulty - t.bonus
    two = len(t.dice.kinds) == 2
    if need <= 1:
        target = "anything but a 1 on the black die" if two else "anything but a 1"
    elif need > 12:
        target = f"{need} or more: only a miss is possible"
    else:
        target = f"{need} or more"
    best = ", keep the best (a 1 on the black die misses)" if two else ""
    return (f"{who}: {t.label}: difficulty {t.difficulty}, card bonus +{t.bonus}: roll {dice}{best}, "
            f"{target}")


def describe_pending(s, item) -> str:
    """What the head of the queue waits for, in the words of its request."""
    if isinstance(item, Choice):
        return f"{item.question} ({', '.join(item.options)})"
    return "; ".join(describe_test(s, t) for t in item.tests if t.result is None)


def verdict(t: Test) -> str:
    if not t.is_test:
        return f"{t.label}: {t.result}"
    if t.miss:
        return f"{t.label}: rolled {t.result} with a 1 (automatic miss) vs {t.difficulty}, failure"
    ok = "success" if t.success else "failure"
    return f"{t.label}: {t.result} + {t.bonus} = {t.total} vs {t.difficulty}, {ok}"


def close(tx: Tx, item: Roll, outcome: str) -> None:
    tx.emit(ev.RollResolved(item.id, outcome))


# --- choices ---------------------------------------------------------------------------------

def choose(tx: Tx, cmd: Choose) -> None:
    s = tx.state
    choice = next((p for p in s.queue if isinstance(p, Choice) and f"c{p.id}" == cmd.request), None)
    if choice is None:
        pending = ", ".join(f"c{p.id}" for p in s.queue if isinstance(p, Choice)) or "none"
        raise refuse("2.1 Game in Progress", f"choice {cmd.request} is not pending (pending choices: {pending})")
    if s.queue[0] is not choice:
        raise refuse("2.1 Game in Progress", f"resolve the earlier request first: {describe_pending(s, s.queue[0])}")
    if cmd.option not in choice.options:
        raise refuse("2.1 Game in Progress", f"{cmd.option!r} is not an answer to {choice.question!r}; choose one "
                                             f"of {', '.join(choice.options)}")
    tx.emit(ev.ChoiceMade(cmd.request, cmd.option))
    tx.choices[type(choice.ctx)](tx, choice, cmd.option)
