"""Rolls and choices arriving for pending requests.

Every roll here is one coach's: a d6 (two for the optional "Taking a Pass"), read as the
total of its faces. The roll's ``original`` value decides the automatic results (an
interception's 1, a dribbling foul's 1 or 2); the ``modified`` value (original plus the
cumulative bonus effects) is looked up in the table.
"""

from __future__ import annotations

from ..commands import Choose, SubmitRoll
from ..teams import PlayerRef
from . import events as ev
from .model import Ask, Choice, Modifier, request_id
from .tx import Tx, refuse

DICE = "Dice"


def submit_roll(tx: Tx, cmd: SubmitRoll) -> None:
    s = tx.state
    if not s.queue:
        raise refuse(DICE, "no roll is pending right now")
    head = s.queue[0]
    if isinstance(head, Choice):
        raise refuse(DICE, f"a choice comes first: {head.question} ({', '.join(head.options)})")
    rid = request_id(head)
    if cmd.request is not None and cmd.request != rid:
        raise refuse(DICE, f"request {cmd.request} is not waiting for dice; the pending roll is {rid}: "
                           f"{describe_ask(head)}")
    head.dice.check(cmd.roll, f"Fußball-Liga rulebook, {DICE}", describe_ask(head))
    reading = cmd.roll.total
    tx.emit(ev.DiceRolled(rid, cmd.roll, reading))
    tx.resolvers[type(head.ctx)](tx, head, reading, reading + head.bonus)  # the game's table, built in rules.py


def resolved(tx: Tx, ask: Ask, original: int, modified: int, outcome: str) -> None:
    tx.emit(ev.RollResolved(ask.id, original, modified, outcome))


def describe_mods(mods: tuple[Modifier, ...]) -> str:
    return "".join(f", {'+' if m.value >= 0 else '-'}{abs(m.value)} {m.label}" for m in mods)


def describe_ask(ask: Ask) -> str:
    return f"{ask.team.label}: {ask.label}{describe_mods(ask.modifiers)}; roll {ask.dice.describe()}"


def roll_text(original: int, modified: int) -> str:
    return f"rolled {original}" + (f" ({modified} with the bonus effects)" if modified != original else "")


# --- choices -------------------------------------------------------------------------------------

def choose(tx: Tx, cmd: Choose) -> None:
    s = tx.state
    choice = next((p for p in s.queue if isinstance(p, Choice) and request_id(p) == cmd.request), None)
    if choice is None:
        pending = ", ".join(request_id(p) for p in s.queue if isinstance(p, Choice)) or "none"
        raise refuse("Choices", f"choice {cmd.request} is not pending (pending choices: {pending})")
    if s.queue[0] is not choice:
        raise refuse("Choices", f"resolve the earlier request first: {describe_pending(s.queue[0])}")
    if cmd.option not in choice.options:
        raise refuse("Choices", f"{cmd.option!r} is not an answer to {choice.question!r}; choose one of "
                                f"{', '.join(choice.options)}")
    tx.emit(ev.ChoiceMade(cmd.request, cmd.option))
    tx.choices[type(choice.ctx)](tx, choice, cmd.option)


def describe_pending(item) -> str:
    if isinstance(item, Choice):
        who = item.team.label if item.team else "Either coach"
        return f"{who}: {item.question} ({', '.join(item.options)})"
    return describe_ask(item)


def player_option(option: str) -> PlayerRef:
    return PlayerRef.parse(option)
