"""Stoppages and restarts: kick-off, free-kicks, penalty-kicks, throw-ins, corner-kicks and
goal-kicks, with the re-positioning before them ("Set-Up after Stoppages").

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
from .bonus import plan_roll
from .commands import Kick, Move, TakePenalty
from .model import Ask, Control, PenaltyCtx, Phase, Restart, RestartKind, SetupStep
from .pitch import dist
from .resolve import RESOLVERS, resolved, roll_text
from .tx import Tx, refuse

SETUP = "Set-Up after Stoppages"
KICK_OFF = "Kick-Off"
PENALTY = "Penalty-Kick"

LIMITS = {RestartKind.THROW_IN: "max_throw_in", RestartKind.CORNER: "max_corner",
          RestartKind.GOAL_KICK: "max_goal_kick", RestartKind.FREE_KICK: "max_shot",
          RestartKind.INDIRECT_FREE_KICK: "max_shot"}


def award(tx: Tx, kind: RestartKind, team: Team, reason: str, spot: Square | None) -> None:
    """Stop play and give ``team`` a restart."""
    flow.stop_play(tx, reason, flow.restart(kind, team, spot, reason))


def corner_for(s, end: str, near: Square) -> tuple[RestartKind, Square]:
    """The corner area of ``end`` on the side nearer ``near``."""
    corners = q.pitch(s).ends[end].corners
    return RestartKind.CORNER, min(corners, key=lambda c: (abs(c[1] - near[1]), c))


def goal_kick(s, team: Team) -> tuple[RestartKind, Square | None]:
    return RestartKind.GOAL_KICK, None  # the kicker picks one of the goal area's squares


def ball_out(tx: Tx, out: Square, last_team: Team, reason: str) -> None:
    """Across a touch line: a throw-in from the first square outside. Across a goal line (or
    diagonally across a corner): a corner-kick if the side defending that line played it
    out, else a goal-kick for them."""
    s = tx.state
    pitch = q.pitch(s)
    if 0 <= out[0] < pitch.cols:
        award(tx, RestartKind.THROW_IN, last_team.other, reason, out)
        return
    end = "low" if out[0] < 0 else "high"
    defenders = Team.HOME if s.end_of(Team.HOME) == end else Team.AWAY
    if last_team is defenders:
        kind, spot = corner_for(s, end, out)
        award(tx, kind, defenders.other, reason, spot)
    else:
        kind, spot = goal_kick(s, defenders)
        award(tx, kind, defenders, reason, spot)


# --- the kick-off -----------------------------------------------------------------------------------

def kick_off(tx: Tx, cmd: Kick) -> None:
    """Rulebook, Kick-Off: every player in his own half, an attacker on one of the two squares
    touching the ball, no defender in or touched by the centre circle; a pass of up to 6
    squares to another player, no follow-up."""
    s = tx.state
    r = s.restart
    if r is None or r.kind is not RestartKind.KICK_OFF:
        raise refuse(KICK_OFF, "there is no kick-off to take now")
    if s.queue:
        raise refuse(KICK_OFF, "finish the pending choice first")
    if cmd.player.team is not r.team:
        raise refuse(KICK_OFF, f"{r.team.label} kicks off")
    pitch = q.pitch(s)
    missing = [p.ref for p in q.on_pitch(s) if p.square is None]
    if missing:
        raise refuse(KICK_OFF, f"place every figure before the kick-off ({', '.join(map(str, missing[:4]))}"
                               f"{'...' if len(missing) > 4 else ''} not seen)")
    for p in q.placed(s):
        if pitch.half_of(p.square) != s.end_of(p.ref.team):
            raise refuse(KICK_OFF, f"all players must be set up in their own half; {p.ref} is at {p.square}")
        if p.ref.team is not r.team and pitch.in_centre_circle(p.square):
            raise refuse(KICK_OFF, f"no defender may stand inside the centre circle or touched by it; {p.ref} is at "
                                   f"{p.square}")
    squares = pitch.kick_off_squares[s.end_of(r.team)]
    kicker = s.players[cmd.player]
    if kicker.square not in squares:
        raise refuse(KICK_OFF, f"the player kicking off stands on one of the two squares touching the ball "
                               f"({', '.join(map(str, squares))})")
    if not s.clocks.half_on:
        tx.emit(ev.HalfClockStarted(s.period))
    flow.start_phase(tx, Phase.SHOT)
    flow.set_ball(tx, kicker.square, cmd.player, Control.CLOSE)
    from .kicks import launch

    launch(tx, cmd.player, kicker.square, cmd.target, RestartKind.KICK_OFF.value, cmd.receiver,
           q.limits(s).max_kick_off)


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
    from .paths import legal_path

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
                out.append(f"{p.ref} is {dist(p.square, r.spot)} squares from the ball; keep {limit} away")
        return out
    spots = taker_squares(s, r, team)
    if not any(p.square in spots for p in q.placed(s, team)):
        where = {RestartKind.THROW_IN: f"on the throw-in square {r.spot}",
                 RestartKind.CORNER: f"on the corner area {r.spot}",
                 RestartKind.GOAL_KICK: "on a square of the goal area",
                 }.get(r.kind, f"next to the ball at {r.spot}, inside the field")
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


# --- the restart's kick -----------------------------------------------------------------------------------

def restart_kick(tx: Tx, cmd: Kick) -> None:
    from .kicks import launch

    s = tx.state
    r = s.restart
    if r.kind is RestartKind.PENALTY:
        raise refuse(PENALTY, "a penalty-kick is taken with the penalty roll (take penalty)")
    if r.step is not SetupStep.KICK:
        raise refuse(SETUP, "finish the re-positioning first")
    if cmd.player.team is not r.team:
        raise refuse(SETUP, f"{r.team.label} takes the {r.kind.label}")
    p = s.players[cmd.player]
    spots = taker_squares(s, r, r.team)
    if p.square not in spots:
        raise refuse(SETUP, f"{cmd.player} is not in position for the {r.kind.label}")
    if r.kind in (RestartKind.FREE_KICK, RestartKind.INDIRECT_FREE_KICK):
        origin, control = r.spot, Control.LOOSE
    else:
        origin, control = p.square, Control.CLOSE  # the ball on top of the kicker
    flow.set_ball(tx, origin, cmd.player, control)
    limit = getattr(q.limits(s), LIMITS[r.kind])
    lofted = s.attacked_end(r.team) if r.kind is RestartKind.CORNER else None
    # A free-kick is a place-kick: the kicker next to the ball may aim anywhere (the
    # loose-control limit is for a ball moving in play; see assumptions, LV).
    launch(tx, cmd.player, origin, cmd.target, r.kind.value, cmd.receiver, limit, lofted_into=lofted)


# --- penalty-kicks (and the shoot-out's kicks) ---------------------------------------------------------

def take_penalty(tx: Tx, cmd: TakePenalty) -> None:
    s = tx.state
    if s.phase is Phase.SHOOTOUT:
        from .shootout import shootout_kick

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
        raise refuse(PENALTY, f"the kicking player stands on one of the two squares behind the penalty mark "
                              f"({', '.join(map(str, areas.penalty_squares))})")
    gk = q.goalkeeper(s, r.team.other)
    for p in q.placed(s):
        if p.ref == cmd.kicker or (gk is not None and p.ref == gk.ref):
            continue
        if areas.in_penalty_area(p.square) or p.square in areas.penalty_circle:
            raise refuse(PENALTY, f"only the goalkeeper and the kicker may be inside the penalty area or on the "
                                  f"penalty circle's squares; {p.ref} is at {p.square}")
        if p.ref.team is not r.team and pitch.half_of(p.square) == s.end_of(r.team):
            raise refuse(PENALTY, f"the defender may not put players in the attacker's end; {p.ref} is at "
                                  f"{p.square}")
    open_penalty(tx, cmd.kicker)


def keeper_number(s, team: Team) -> int | None:
    """The numbered goal square (1 to 4) the goalkeeper of ``team`` stands on."""
    gk = q.goalkeeper(s, team)
    if gk is None or gk.square is None:
        return None
    numbers = q.pitch(s).ends[s.end_of(team)].goal_numbers
    return next((n for n, sq in numbers.items() if sq == gk.square), None)


def open_penalty(tx: Tx, kicker: PlayerRef) -> None:
    s = tx.state
    number = keeper_number(s, kicker.team.other)
    if number is None and q.goalkeeper(s, kicker.team.other) is not None:
        raise refuse(PENALTY, "the defender first puts his goalkeeper in one of the goal squares numbered 1 to 4")
    tx.emit(ev.PenaltyTaken(kicker))
    where = f"goalkeeper on goal square {number}" if number is not None else "no goalkeeper"
    plan = plan_roll(s, kicker.team, f"penalty-kick by {kicker} ({where})", PenaltyCtx(kicker, number),
                     player=kicker)
    flow.open_roll(tx, plan)


def penalty_result(s, ctx: PenaltyCtx, face: int) -> str:
    """"goal", "saved" or "miss" for a penalty roll (the table is data: a placeholder)."""
    result = q.tables(s).penalty.results[min(max(face, 1), 6)]
    if result.startswith("aim:"):
        return "saved" if ctx.keeper_number == int(result[4:]) else "goal"
    return result


def resolve_penalty(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    from .landing import score_goal

    s = tx.state
    ctx: PenaltyCtx = ask.ctx
    if s.phase is Phase.SHOOTOUT:
        from .shootout import resolve_shootout_kick

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


RESOLVERS[PenaltyCtx] = resolve_penalty
