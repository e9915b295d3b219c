"""Penalty-kicks to resolve a tie ("the usual Laws of Soccer may be applied"): five kicks
each, alternating, then sudden death; each kick is read on the penalty-kick table."""

from __future__ import annotations

from ..teams import Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import TakePenalty
from .model import SHOOTOUT_KICKS, Ask
from .penalty import open_penalty, penalty_result
from .resolve import resolved, roll_text
from .tx import Tx, refuse

SECTION = "Winning the Game"


def shootout_kick(tx: Tx, cmd: TakePenalty) -> None:
    s = tx.state
    if s.queue:
        raise refuse(SECTION, "finish the kick in progress first")
    team = s.attacking
    p = s.players.get(cmd.kicker)
    if p is None or cmd.kicker.team is not team or not p.on_pitch:
        raise refuse(SECTION, f"it is {team.label}'s kick: choose one of their players on the pitch")
    taken = [k.kicker for k in s.shootout if k.team is team]
    eligible = [x.ref for x in q.on_pitch(s, team)]
    fewest = min(taken.count(e) for e in eligible)
    fresh = [r for r in eligible if taken.count(r) == fewest]
    if cmd.kicker not in fresh:
        raise refuse(SECTION, f"{cmd.kicker} has kicked already; first every teammate takes a kick "
                              f"({', '.join(str(r) for r in fresh)})")
    open_penalty(tx, cmd.kicker)


def resolve_shootout_kick(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    s = tx.state
    ctx = ask.ctx
    scored = penalty_result(s, ctx, modified) == "goal"
    resolved(tx, ask, original, modified, f"shoot-out kick by {ctx.kicker} {roll_text(original, modified)}: "
                                          f"{'scores' if scored else 'no goal'}")
    tx.emit(ev.ShootoutKickResolved(ctx.kicker.team, ctx.kicker, scored))
    if decided(tx.state):
        flow.finish_match(tx, "shoot-out")


def decided(s) -> bool:
    kicks = {t: [k for k in s.shootout if k.team is t] for t in (Team.HOME, Team.AWAY)}
    goals = {t: sum(1 for k in kicks[t] if k.scored) for t in kicks}
    taken = {t: len(kicks[t]) for t in kicks}
    if taken[Team.HOME] <= SHOOTOUT_KICKS and taken[Team.AWAY] <= SHOOTOUT_KICKS:
        for t in (Team.HOME, Team.AWAY):
            if goals[t] + (SHOOTOUT_KICKS - taken[t]) < goals[t.other]:
                return True
        return False
    return taken[Team.HOME] == taken[Team.AWAY] and goals[Team.HOME] != goals[Team.AWAY]
