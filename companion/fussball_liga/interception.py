"""Interception of a kick: a defender in or next to the ball's path tries to stop it, square
by square along the path, before it arrives (rulebook, "Pass Interception" and the Shot
Interception table), and the goalkeeper's save (optional rule).
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .bonus import plan_roll
from .commands import Intercept
from .landing import arrive, rebound
from .model import Ask, Control, Flight, InterceptCtx, Modifier, Phase, SaveCtx
from .pitch import dist
from .resolve import resolved, roll_text
from .stoppages import award, corner_for
from .tx import Tx, refuse

INTERCEPTION = "Pass Interception"


def group_of(s, ref: PlayerRef) -> set[PlayerRef]:
    """The defenders standing together with ``ref`` (next to one another, in a chain)."""
    mates = {p.ref: p.square for p in q.placed(s, ref.team)}
    group, todo = {ref}, [ref]
    while todo:
        cur = todo.pop()
        for other, sq in mates.items():
            if other not in group and q.near(mates[cur], sq):
                group.add(other)
                todo.append(other)
    return group


def attempt_problem(s, f: Flight, ref: PlayerRef, index: int) -> str | None:
    """Why ``ref`` may not try to intercept at path square ``index`` (None: he may)."""
    p = s.players[ref]
    gk = p.goalkeeper
    if index >= len(f.path) - 1:
        return "the ball must be stopped before it arrives at the target square"
    if not q.near(p.square, f.path[index]):
        return f"{ref} is not in or next to {f.path[index]}"
    last = max((a.index for a in f.attempts), default=-1)
    if index < last:
        return f"the ball has passed {f.path[index]} already; attempts follow its path"
    if index == last and not gk:
        return f"an attempt was made in {f.path[index]} already (only the goalkeeper may try twice in one square)"
    own = sum(1 for a in f.attempts if a.player == ref)
    if own >= (2 if gk else 1):
        return f"{ref} has tried already on this kick"
    if not gk:
        group = group_of(s, ref)
        tried = [a.player for a in f.attempts if a.player in group and not s.players[a.player].goalkeeper]
        if tried:
            return f"{tried[0]} of the same group of players has tried already on this kick"
    return None


def can_intercept(s) -> bool:
    f = s.flight
    if f is None:
        return False
    for p in q.placed(s, f.kicker.team.other):
        for i in range(len(f.path) - 1):
            if attempt_problem(s, f, p.ref, i) is None:
                return True
    return False


def continue_flight(tx: Tx) -> None:
    """The ball moves on: the defender may still try, or it arrives."""
    if tx.state.phase_time_up or not can_intercept(tx.state):
        arrive(tx)


def intercept(tx: Tx, cmd: Intercept) -> None:
    s = tx.state
    f = s.flight
    if s.phase is not Phase.SHOT or f is None:
        raise refuse(INTERCEPTION, "there is no kick on its way to intercept")
    if s.queue:
        raise refuse(INTERCEPTION, "finish the pending roll or choice first")
    if s.phase_time_up:
        raise refuse("Time Limit", "the phase's time ran out: no more interception attempts")
    p = s.players.get(cmd.player)
    if p is None or cmd.player.team is f.kicker.team:
        raise refuse(INTERCEPTION, "only a defender may try to intercept")
    if not p.placed:
        raise refuse(INTERCEPTION, f"{cmd.player} is not on the board")
    if cmd.square not in f.path:
        raise refuse(INTERCEPTION, "that square is not on the ball's path: the attempt is made where the ball passes")
    index = f.path.index(cmd.square)
    problem = attempt_problem(s, f, cmd.player, index)
    if problem:
        raise refuse(INTERCEPTION, problem)
    through = p.square == cmd.square
    m = q.tables(s).interception.modifiers
    mods = []
    gap = min(dist(cmd.square, f.origin), dist(cmd.square, f.target))
    if gap <= 1:
        mods.append(Modifier("next to the ball's origin or target", m.near))
    elif gap == 2:
        mods.append(Modifier("2 squares from origin or target", m.at_two))
    else:
        mods.append(Modifier("more than 2 squares from origin and target", m.beyond_two))
    if q.keeper_in_area(s, cmd.player, "penalty_area"):
        mods.append(Modifier("goalkeeper in his goal or penalty area", m.goalkeeper))
    tx.emit(ev.InterceptionCalled(cmd.player, cmd.square, index))
    needs = "3+" if through else "5+"
    label = (f"interception by {cmd.player} in {cmd.square} ({'through' if through else 'adjacent'}: needs {needs}; "
             f"an original 1 always fails)")
    plan = plan_roll(s, cmd.player.team, label, InterceptCtx(cmd.player, cmd.square, index, through), tuple(mods),
                     cmd.player, bonus_for=((cmd.player, 1),))
    flow.open_roll(tx, plan)


def resolve_intercept(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    s = tx.state
    ctx: InterceptCtx = ask.ctx
    ok = q.tables(s).interception.succeeds(ctx.through, original, modified)
    text = f"{q.label(ctx.player, s)} {roll_text(original, modified)}: "
    if not ok:
        why = "an original 1 always loses" if original in q.tables(s).interception.original_fails else "missed"
        resolved(tx, ask, original, modified, text + f"interception fails ({why})")
        continue_flight(tx)
        return
    resolved(tx, ask, original, modified, text + f"intercepted in {ctx.square}")
    p = s.players[ctx.player]
    end = s.end_of(ctx.player.team)
    if s.options.goalkeeper_save and p.goalkeeper and q.in_penalty_area(s, end, ctx.square):
        plan = plan_roll(s, ctx.player.team, f"goalkeeper's save by {ctx.player} (optional rule)",
                         SaveCtx(ctx.player, ctx.square), player=ctx.player)
        flow.open_roll(tx, plan, front=True)
        return
    take_interception(tx, ctx.player, ctx.square)


def take_interception(tx: Tx, ref: PlayerRef, square: Square) -> None:
    s = tx.state
    p = s.players[ref]
    end = s.end_of(ref.team)
    if p.goalkeeper and (q.in_penalty_area(s, end, p.square) or q.in_own_goal(s, ref, p.square)):
        control = Control.HANDS
    else:
        control = Control.CLOSE if p.square == square else Control.LOOSE
    flow.gain_possession(tx, ref, square, control, f"{ref} intercepted the ball")


def resolve_save(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    """Optional rule "Goalkeeper's Save" (its table is a placeholder: data)."""

    s = tx.state
    ctx: SaveCtx = ask.ctx
    result = q.tables(s).save.results[min(max(modified, 1), 6)]
    resolved(tx, ask, original, modified, f"goalkeeper's save {roll_text(original, modified)}: {result}")
    if result == "hold":
        take_interception(tx, ctx.player, ctx.square)
        return
    f = s.flight
    if result == "corner":
        kind, spot = corner_for(s, s.end_of(ctx.player.team), ctx.square)
        award(tx, kind, ctx.player.team.other, "the goalkeeper turned the ball round the post", spot)
        return
    # A parry: the ball drops back one square along its path, then the nearest take it.
    index = f.path.index(ctx.square)
    square = f.path[index - 1] if index > 0 else f.origin
    rebound(tx, square, f.kicker.team, "parried")


def pass_turn_in_flight(tx: Tx, team: Team) -> None:
    s = tx.state
    if team is s.flight.kicker.team:
        raise refuse(INTERCEPTION, "the defender decides now: call an interception attempt or let the ball go")
    tx.emit(ev.TurnPassed(team))
    arrive(tx)
