"""Restarts after a stoppage: the re-positioning before free-kicks, throw-ins, corner-kicks
and goal-kicks ("Set-Up after Stoppages"), and penalty-kicks. The stoppage itself is
stoppages.py; the restart's kick and the kick-off are kicks (kicks.py).

After a stoppage the ball is placed, the defending coach re-positions first (up to 6
movement points per player, at least 3 squares from the ball; out of the kicking side's
penalty area before a goal-kick), then the attacker, one of whose players must take up the
kicker's position. The kick is the shot phase of a new game turn.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import Move, TakePenalty
from .landing import score_goal
from .model import Ask, Control, PenaltyCtx, Phase, Restart, RestartKind, SetupStep
from .paths import legal_path
from .penalty import PENALTY, open_penalty, penalty_result
from .pitch import dist
from .resolve import resolved, roll_text
from .shootout import resolve_shootout_kick, shootout_kick
from .stoppages import award, goal_kick
from .tx import Tx, refuse

SETUP = "Set-Up after Stoppages"




# --- re-positioning ------------------------------------------------------------------------------------

def setup_mover(s) -> Team | None:
    r = s.restart
    if r is None:
        return None
    if r.step is SetupStep.DEFENDER:
        return r.team.other
    if r.step is SetupStep.ATTACKER:
        return r.team
    return None


def taker_squares(s, r: Restart, team: Team) -> tuple[Square, ...]:
    """Where the kicker of a restart must stand."""
    pitch = q.pitch(s)
    if r.kind in (RestartKind.THROW_IN, RestartKind.CORNER):
        return (r.spot,)
    if r.kind is RestartKind.GOAL_KICK:
        return tuple(sq for rect in pitch.ends[s.end_of(team)].goal_area for sq in rect.squares())
    if r.kind in (RestartKind.FREE_KICK, RestartKind.INDIRECT_FREE_KICK):
        return tuple(sq for sq in pitch.field_squares() if dist(sq, r.spot) == 1)
    return ()


def setup_move(tx: Tx, cmd: Move) -> None:
    s = tx.state
    r = s.restart
    mover = setup_mover(s)
    if mover is None:
        raise refuse(SETUP, "the set-up is done: take the kick")
    if s.queue:
        raise refuse(SETUP, "finish the pending choice first")
    if cmd.player.team is not mover:
        first = "the defending coach moves all his players first" if r.step is SetupStep.DEFENDER else \
            "the defending coach has finished"
        raise refuse(SETUP, f"{mover.label} re-positions now ({first})")
    p = s.players[cmd.player]
    if not p.placed:
        raise refuse(SETUP, f"{cmd.player} is not on the board; place him with a correction")
    limit = q.limits(s).setup_mp_per_player
    used = s.movement.by_player.get(cmd.player, 0)
    spots = taker_squares(s, r, mover) if mover is r.team else ()
    allow_out = r.spot if (r.kind is RestartKind.THROW_IN and mover is r.team and cmd.to == r.spot) else None
    path, cost = legal_path(s, cmd.player, cmd.to, cmd.path, allow_out=allow_out)
    if used + cost > limit:
        exceed = cmd.to in spots and no_taker_near(s, r, cmd.player)
        if not exceed:
            raise refuse(SETUP, f"each player may use up to {limit} movement points in the set-up; {cmd.player} has "
                                f"used {used} and this move costs {cost}")
    tx.emit(ev.PlayerMoved(cmd.player, path, cost))


def no_taker_near(s, r: Restart, ref: PlayerRef) -> bool:
    """"If no attacker is within the 6-square-distance of the ball position, the one nearest
    to it may exceed his movement limit to get there"."""
    ball = r.spot if r.spot is not None else next(iter(taker_squares(s, r, r.team)))
    mates = [p for p in q.placed(s, r.team)]
    if any(dist(p.square, ball) <= q.limits(s).setup_mp_per_player for p in mates):
        return False
    nearest = min(dist(p.square, ball) for p in mates)
    return dist(s.players[ref].square, ball) == nearest


def setup_problems(s, r: Restart, team: Team) -> list[str]:
    pitch = q.pitch(s)
    out = []
    limit = q.limits(s).setup_distance
    if team is not r.team:
        for p in q.placed(s, team):
            if r.kind is RestartKind.GOAL_KICK:
                if q.in_penalty_area(s, s.end_of(r.team), p.square):
                    out.append(f"{p.ref} must leave the opponent's penalty area before the goal-kick")
                continue
            if r.spot is None or dist(p.square, r.spot) >= limit:
                continue
            excepted = r.kind in (RestartKind.FREE_KICK, RestartKind.INDIRECT_FREE_KICK) and \
                pitch.ends[s.end_of(team)].in_goal_area(p.square)
            if not excepted:
                gap = dist(p.square, r.spot)
                out.append(f"{p.ref} is {gap} square{'' if gap == 1 else 's'} from the ball; keep {limit} away")
        return out
    spots = taker_squares(s, r, team)
    if not any(p.square in spots for p in q.placed(s, team)):
        where = {RestartKind.THROW_IN: "on the throw-in square, beyond the touch line where the ball went out",
                 RestartKind.CORNER: "on the corner area",
                 RestartKind.GOAL_KICK: "on a square of the goal area",
                 }.get(r.kind, "next to the ball, inside the field")
        out.append(f"one attacking player must move into position for the {r.kind.label}, {where}")
    return out


def pass_turn_setup(tx: Tx, team: Team) -> None:
    s = tx.state
    r = s.restart
    mover = setup_mover(s)
    if mover is None:
        raise refuse(SETUP, "the set-up is done: take the kick")
    if team is not mover:
        raise refuse(SETUP, f"{mover.label} is re-positioning now")
    problems = setup_problems(s, r, team)
    if problems:
        raise refuse(SETUP, "; ".join(problems))
    tx.emit(ev.TurnPassed(team))
    if r.step is SetupStep.DEFENDER:
        tx.emit(ev.RestartSet(Restart(r.kind, r.team, r.spot, SetupStep.ATTACKER, r.reason), "defender set up"))
        return
    tx.emit(ev.RestartSet(Restart(r.kind, r.team, r.spot, SetupStep.KICK, r.reason), "attacker set up"))
    flow.start_phase(tx, Phase.SHOT)


# --- penalty-kicks (and the shoot-out's kicks) ---------------------------------------------------------

def take_penalty(tx: Tx, cmd: TakePenalty) -> None:
    s = tx.state
    if s.phase is Phase.SHOOTOUT:
        shootout_kick(tx, cmd)
        return
    r = s.restart
    if s.phase is not Phase.SET_UP or r is None or r.kind is not RestartKind.PENALTY:
        raise refuse(PENALTY, "there is no penalty-kick to take now")
    if s.queue:
        raise refuse(PENALTY, "finish the pending choice first")
    if cmd.kicker.team is not r.team:
        raise refuse(PENALTY, f"{r.team.label} takes the penalty-kick")
    pitch = q.pitch(s)
    end = s.end_of(r.team.other)
    areas = pitch.ends[end]
    kicker = s.players[cmd.kicker]
    if kicker.square not in areas.penalty_squares:
        raise refuse(PENALTY, f"the kicking player stands on one of the two squares behind the penalty mark; "
                              f"{cmd.kicker} does not (select him: the two squares light up)")
    gk = q.goalkeeper(s, r.team.other)
    for p in q.placed(s):
        if p.ref == cmd.kicker or (gk is not None and p.ref == gk.ref):
            continue
        if areas.in_penalty_area(p.square) or p.square in areas.penalty_circle:
            raise refuse(PENALTY, f"only the goalkeeper and the kicker may be inside the penalty area or on the "
                                  f"penalty circle's squares; {p.ref} stands there")
        if p.ref.team is not r.team and pitch.half_of(p.square) == s.end_of(r.team):
            raise refuse(PENALTY, f"the defender may not put players in the attacker's end; {p.ref} stands "
                                  f"there")
    open_penalty(tx, cmd.kicker)


def resolve_penalty(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    s = tx.state
    ctx: PenaltyCtx = ask.ctx
    if s.phase is Phase.SHOOTOUT:
        resolve_shootout_kick(tx, ask, original, modified)
        return
    result = penalty_result(s, ctx, modified)
    resolved(tx, ask, original, modified, f"penalty-kick by {ctx.kicker} {roll_text(original, modified)}: {result}")
    tx.emit(ev.RestartSet(None, "penalty-kick taken"))
    if result == "goal":
        score_goal(tx, ctx.kicker.team, ctx.kicker)
        return
    defenders = ctx.kicker.team.other
    if result == "miss":
        kind, spot = goal_kick(s, defenders)
        award(tx, kind, defenders, "penalty-kick missed", spot)
        return
    gk = q.goalkeeper(tx.state, defenders)
    if gk is None or gk.square is None:
        kind, spot = goal_kick(s, defenders)
        award(tx, kind, defenders, "penalty-kick saved", spot)
        return
    flow.gain_possession(tx, gk.ref, gk.square, Control.HANDS, "the goalkeeper saved the penalty-kick")
