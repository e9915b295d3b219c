"""Rolls and choices arriving for pending requests, and the helpers every contest's resolver
uses. What each kind of contest or choice means lives with the rule it belongs to; rules.py
builds the table that maps one to the other, and the transaction carries it here.

Skill tests: 2d10 read as a percentile; success when the result is at or under the skill.
Challenges: both succeed -> the higher result wins (a tie voids both and they roll again);
one fails -> in a physical challenge he fouls the other; both fail -> the chart's entry.
Any skill test but tactical perception injures the player on 25, 50 or 75.
"""

from __future__ import annotations

from ..board import Square
from ..commands import Choose, SubmitRoll
from ..dice import DiceSpec, DieKind
from ..errors import DiceMismatch
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .model import Choice, Contest, ScatterCtx, Test, request_id
from .tx import Tx, refuse

SKILL_TESTS = "Skill Tests"


# --- rolls -------------------------------------------------------------------------------------

def submit_roll(tx: Tx, cmd: SubmitRoll) -> None:
    s = tx.state
    if not s.queue:
        raise refuse(SKILL_TESTS, "no roll is pending right now; declare or move first")
    head = s.queue[0]
    if isinstance(head, Choice):
        raise refuse(SKILL_TESTS, f"a choice comes first: {head.question} ({', '.join(head.options)})")
    open_tests = [(i, t) for i, t in enumerate(head.tests) if t.result is None]
    if cmd.request is not None:
        wanted = [(i, t) for i, t in open_tests if request_id(head, i) == cmd.request]
        if not wanted:
            ids = ", ".join(request_id(head, i) for i, _ in open_tests)
            raise refuse(SKILL_TESTS, f"request {cmd.request} is not waiting for dice; pending: {ids}")
        index, test = wanted[0]
    else:
        fits = [(i, t) for i, t in open_tests if _fits(t.dice, cmd.roll)]
        if not fits:
            index, test = open_tests[0]
            test.dice.check(cmd.roll, _rule(), describe_test(s, test))
            raise DiceMismatch(_rule(), f"this roll fits no pending request; {describe_test(s, test)} "
                                        f"needs {test.dice.describe()}")
        if len(fits) > 1:
            ids = ", ".join(f"{request_id(head, i)} ({t.team.label if t.team else 'either coach'})" for i, t in fits)
            raise DiceMismatch(_rule(), f"this roll fits more than one request ({ids}); say which one it is for")
        index, test = fits[0]
    test.dice.check(cmd.roll, _rule(), describe_test(s, test))
    if test.dice.kinds == (DieKind.D10, DieKind.D10):
        reading = s.options.percentile.read(cmd.roll)
    else:
        reading = cmd.roll.dice[0].value
    tx.emit(ev.DiceRolled(request_id(head, index), cmd.roll, reading))
    contest = tx.state.queue[0]
    if isinstance(contest, Contest) and contest.id == head.id and contest.complete:
        flow.resolve_contest(tx, contest)


def _rule() -> str:
    return f"Fublet rulebook, {SKILL_TESTS}"


def _fits(spec: DiceSpec, roll) -> bool:
    if sorted(k.value for k in spec.kinds) != sorted(k.value for k in roll.kinds):
        return False
    owners = {d.die.owner for d in roll.dice if d.die.owner is not None}
    return spec.owner is None or not owners or owners == {spec.owner}


def describe_test(s, t: Test) -> str:
    """The request text: "Home: skill test, Short Pass by #8, skill 64 + boost 5: success if
    <= 69, roll 2d10"."""
    who = t.team.label if t.team else "Either coach"
    if not t.is_skill_test:
        return f"{who}: {t.label}, roll {t.dice.describe()}"
    by = f" by #{t.player.number}" if t.player else ""
    mods = "".join(f" {'+' if m.value >= 0 else '-'} {m.label} {abs(m.value)}" for m in t.modifiers)
    base = "wall value" if t.player is None else "skill"
    return (f"{who}: skill test, {t.label}{by}, {base} {t.base}{mods}: success if <= {t.target}, "
            f"roll {t.dice.describe()}")


def verdict(s, t: Test) -> str:
    who = q.label(t.player, s) if t.player else (t.team.label if t.team else "")
    if not t.is_skill_test:
        return f"{t.label}: {t.result}"
    ok = "success" if t.success else "failure"
    return f"{who} {t.label}: {t.result} vs {t.target}, {ok}"


def close(tx: Tx, contest: Contest, outcome: str) -> None:
    tx.emit(ev.ContestResolved(contest.id, outcome))


def challenge(a: Test, b: Test) -> str:
    """Compare two tests: "a" or "b" wins, "tie" (both succeed, equal: roll again),
    "both_fail"."""
    if a.success and b.success:
        if a.result == b.result:
            return "tie"
        return "a" if a.result > b.result else "b"
    if a.success:
        return "a"
    if b.success:
        return "b"
    return "both_fail"


# --- scatter -------------------------------------------------------------------------------------

def open_scatter(tx: Tx, origin: Square | None, distance: int, cause: str, last_touch: Team | None) -> None:
    s = tx.state
    defending = s.defending or (last_touch.other if last_touch else Team.HOME)
    test = Test(team=None, label=f"Scatter ({cause}, {distance} PS)", dice=DiceSpec((DieKind.D8,)))
    flow.open_contest(tx, (test,), ScatterCtx(origin=origin, distance=distance, cause=cause, last_touch=last_touch,
                                              towards_team_goal=defending), front=True)


# --- choices -------------------------------------------------------------------------------------

def choose(tx: Tx, cmd: Choose) -> None:
    s = tx.state
    choice = next((p for p in s.queue if isinstance(p, Choice) and f"c{p.id}" == cmd.request), None)
    if choice is None:
        pending = ", ".join(f"c{p.id}" for p in s.queue if isinstance(p, Choice)) or "none"
        raise refuse("Phase 4: Event", f"choice {cmd.request} is not pending (pending choices: {pending})")
    if s.queue[0] is not choice:
        raise refuse("Phase 4: Event", f"resolve the earlier request first: {describe_pending(s, s.queue[0])}")
    if cmd.option not in choice.options:
        raise refuse("Phase 4: Event", f"{cmd.option!r} is not an answer to {choice.question!r}; "
                                       f"choose one of {', '.join(choice.options)}")
    tx.emit(ev.ChoiceMade(cmd.request, cmd.option))
    tx.choices[type(choice.ctx)](tx, choice, cmd.option)


def describe_pending(s, item) -> str:
    if isinstance(item, Choice):
        return f"{item.team.label}: {item.question} ({', '.join(item.options)})"
    open_tests = [t for t in item.tests if t.result is None]
    return "; ".join(describe_test(s, t) for t in open_tests)


def player_option(option: str) -> PlayerRef:
    return PlayerRef.parse(option)
