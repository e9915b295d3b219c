"""6.3 Penalty Kick Series.

Each coach names the order of his kickers; the decks are shuffled and five cards drawn, a
new card after each kick. Kicks alternate; each is a penalty (4 + the goalkeeper's parry).
After five each the one who scored more wins; level, sudden death: the first to miss loses
if the other scores.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import Team
from . import events as ev
from . import flow
from . import queries as q
from .cards import bonus
from .commands import SetShootoutOrder, TakeShootoutKick
from .components import Ability
from .difficulty import penalty_difficulty
from .model import SHOOTOUT_KICKS, Phase, Roll, ShootoutCtx, Test
from .resolve import close, verdict
from .tx import Tx, refuse

SERIES = "6.3 Penalty Kick Series"


def set_order(tx: Tx, cmd: SetShootoutOrder) -> None:
    s = tx.state
    if s.phase is not Phase.SHOOTOUT:
        raise refuse(SERIES, "there is no penalty kick series now")
    if cmd.team in s.shootout_order:
        raise refuse(SERIES, f"{cmd.team.label} has named its order already")
    mine = {p.ref for p in q.on_pitch(s, cmd.team)}
    if len(set(cmd.kickers)) != len(cmd.kickers) or not set(cmd.kickers) <= mine:
        raise refuse(SERIES, f"name different counters of {cmd.team.label} on the pitch")
    if len(cmd.kickers) < min(SHOOTOUT_KICKS, len(mine)):
        raise refuse(SERIES, f"name at least {min(SHOOTOUT_KICKS, len(mine))} kickers")
    tx.emit(ev.ShootoutOrderSet(cmd.team, tuple(cmd.kickers)))


def next_team(s) -> Team:
    taken = len(s.shootout)
    return s.shootout_first if taken % 2 == 0 else s.shootout_first.other


def next_kicker(s, team: Team):
    order = s.shootout_order[team]
    done = sum(1 for k in s.shootout if k.team is team)
    return order[done % len(order)]


def take_kick(tx: Tx, cmd: TakeShootoutKick) -> None:
    s = tx.state
    if s.phase is not Phase.SHOOTOUT:
        raise refuse(SERIES, "there is no penalty kick series now")
    if s.queue:
        raise refuse(SERIES, "finish the kick in progress first")
    if len(s.shootout_order) < 2:
        missing = [t.label for t in (Team.HOME, Team.AWAY) if t not in s.shootout_order]
        raise refuse(SERIES, f"both coaches first determine the order of their kickers ({', '.join(missing)})")
    team = next_team(s)
    if cmd.team is not team:
        raise refuse(SERIES, f"it is {team.label}'s kick")
    flow.check_cards(s, team, [cmd.card], SERIES)
    kicker = next_kicker(s, team)
    p = s.players[kicker]
    parry, _ = q.keeper_values(s, team.other)
    tx.emit(ev.ShootoutKickTaken(team, kicker, cmd.card))
    flow.play(tx, team, cmd.card, "penalty kick (series)")
    two = q.has(s, kicker, Ability.SHOOT)
    kinds = (DieKind.D12, DieKind.D12) if two else (DieKind.D12,)
    test = Test(team, f"penalty kick by #{kicker.number}", DiceSpec(kinds, team), kicker, penalty_difficulty(parry),
                bonus(p.counter.shoot, cmd.card))
    flow.open_roll(tx, (test,), ShootoutCtx(kicker))


def resolve_kick(tx: Tx, item: Roll) -> None:
    ctx: ShootoutCtx = item.ctx
    t = item.tests[0]
    scored = t.success
    close(tx, item, verdict(t) + (": scores" if scored else ": no goal"))
    tx.emit(ev.ShootoutKickResolved(ctx.kicker.team, ctx.kicker, scored))
    flow.draw(tx, ctx.kicker.team, 1, "penalty kick series: a new card after each kick")
    if decided(tx.state):
        flow.finish_match(tx, "penalty kicks")


def decided(s) -> bool:
    kicks = {t: [k for k in s.shootout if k.team is t] for t in (Team.HOME, Team.AWAY)}
    goals = {t: sum(1 for k in kicks[t] if k.scored) for t in kicks}
    taken = {t: len(kicks[t]) for t in kicks}
    if max(taken.values()) <= SHOOTOUT_KICKS:
        for t in (Team.HOME, Team.AWAY):
            if goals[t] + (SHOOTOUT_KICKS - taken[t]) < goals[t.other]:
                return True
        return False
    return taken[Team.HOME] == taken[Team.AWAY] and goals[Team.HOME] != goals[Team.AWAY]
