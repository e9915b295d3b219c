"""The movement phase: 18 movement points a side, at most 6 a player, coaches alternating;
dribbling with the ball in close or loose control; taking a loose ball. (Paths are
paths.py; dribbling interception is dribbling.py.)

Alternation: the attacker moves one player, then the defender may spend points on one or
more players up to what the attacker has spent so far; when the attacker moves no more,
the defender may spend all he has left in his last step. A player cannot be moved again
once another player began to move.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import Move, MoveBall
from .discipline import book
from .model import Control, Phase, RestartKind
from .paths import BALL, MOVEMENT, front_steps, legal_path
from .pitch import STEPS, dist
from .placement import free_placement
from .restarts import setup_move
from .stoppages import award
from .tx import Tx, refuse

HOLD = "Goalkeeper"


# --- whose step ------------------------------------------------------------------------------------

def remaining(s, team: Team) -> int:
    return q.limits(s).mp_per_side - s.movement.spent[team]


def defender_allowance(s) -> int:
    """What the defender may still spend now: up to the attacker's total so far, or all he has
    left in his last step."""
    m = s.movement
    d = s.attacking.other
    if m.attacker_done:
        return remaining(s, d)
    return min(remaining(s, d), m.spent[s.attacking] - m.spent[d])


def check_mover(tx: Tx, ref: PlayerRef) -> None:
    """Alternation: refuse a move out of turn; a defender answering the attacker's step ends it."""
    s = tx.state
    m = s.movement
    team = ref.team
    if m.turn is not team:
        if team is not s.attacking and m.turn is s.attacking and m.attacker_moved:
            tx.emit(ev.StepChanged(team, False, "the defender answers"))
            return
        if team is s.attacking:
            raise refuse(MOVEMENT, "the defender is moving: he passes when his step is done")
        raise refuse(MOVEMENT, "the attacker moves first: wait for his step (or his pass)")
    if team is s.attacking and m.attacker_moved and m.current not in (None, ref):
        raise refuse(MOVEMENT, f"the attacker moves one player per step ({m.current}); the defender answers or "
                               f"passes first")
    if ref in m.by_player and m.current != ref:
        raise refuse(MOVEMENT, f"{ref} has moved in this phase already; a player cannot be moved again once "
                               f"another player began to move")


def check_common(s, ref: PlayerRef) -> None:
    if s.phase is not Phase.MOVEMENT:
        raise refuse(MOVEMENT, f"players move in the movement phase; it is the {s.phase.label} phase")
    if s.queue:
        raise refuse(MOVEMENT, "finish the pending roll or choice first")
    if s.phase_time_up:
        raise refuse("Time Limit", "the phase's time ran out: nobody may move anymore")
    p = s.players.get(ref)
    if p is None or not p.placed:
        raise refuse(MOVEMENT, f"{ref} is not on the board")
    if s.holding == ref and s.hold_turn == s.turn_no:
        raise refuse(HOLD, "the goalkeeper holding the ball does not move in this movement phase")


def charge(s, ref: PlayerRef, cost: int) -> None:
    m = s.movement
    limits = q.limits(s)
    used = m.by_player.get(ref, 0)
    if used + cost > limits.mp_per_player:
        raise refuse(MOVEMENT, f"no player may spend more than {limits.mp_per_player} points; {ref} has spent {used} "
                               f"and this costs {cost}")
    if cost > remaining(s, ref.team):
        raise refuse(MOVEMENT, f"{ref.team.label} has {remaining(s, ref.team)} movement points left; this costs {cost}")
    if ref.team is not s.attacking and cost > defender_allowance(s):
        raise refuse(MOVEMENT, f"the defender may spend up to what the attacker has spent so far: "
                               f"{defender_allowance(s)} left now, this costs {cost}")


# --- moving a figure --------------------------------------------------------------------------------

def move(tx: Tx, cmd: Move) -> None:
    s = tx.state
    if cmd.player not in s.players:
        raise refuse(MOVEMENT, f"no player {cmd.player}")
    if s.phase is Phase.SET_UP and s.restart is not None and s.restart.kind is not RestartKind.PENALTY:
        setup_move(tx, cmd)
        return
    if s.phase in (Phase.LINE_UP, Phase.SET_UP, Phase.TOSS):
        free_placement(tx, cmd.player, cmd.to)
        return
    check_common(s, cmd.player)
    check_mover(tx, cmd.player)
    s = tx.state
    ref = cmd.player
    p = s.players[ref]
    ball = s.ball
    costs = q.costs(s)
    carrying = ball.holder == ref and ball.control in (Control.CLOSE, Control.LOOSE)
    if ball.holder == ref and ball.control is Control.HANDS:
        raise refuse(HOLD, "the goalkeeper with the ball in his hands kicks it, lets a teammate kick it, or holds it")
    if carrying and ref == ball.no_touch:
        raise refuse("Restarts", f"{ref} took the restart: he may only play the ball again after another player")
    budget = min(q.limits(s).mp_per_player - s.movement.by_player.get(ref, 0), remaining(s, ref.team))
    pitch = q.pitch(s)
    leaving = (pitch.on_board(cmd.to) and not pitch.in_field(cmd.to)
               and not (p.goalkeeper and q.in_own_goal(s, ref, cmd.to)))
    if leaving and carrying:
        raise refuse(BALL, "in the basic game the ball only leaves the field by intent: kick it out instead")
    if leaving:
        path, cost = legal_path(s, ref, cmd.to, cmd.path, costs.free, budget=budget, allow_out=cmd.to)
        charge(s, ref, cost)
        left_field(tx, ref, path, cost)
        return
    unit = costs.free if not carrying else (costs.loose_control if ball.control is Control.LOOSE else
                                            costs.close_control)
    charge(s, ref, unit * max(1, dist(p.square, cmd.to)))  # the cheapest this move could be
    if carrying and ball.control is Control.LOOSE:
        offset = (ball.square[0] - p.square[0], ball.square[1] - p.square[1])
        path, cost = legal_path(s, ref, cmd.to, cmd.path, costs.loose_control, front_steps(offset), budget=budget)
        ball_path = tuple((sq[0] + offset[0], sq[1] + offset[1]) for sq in path)
        if any(not q.pitch(s).in_field(b) for b in ball_path):
            raise refuse(BALL, "in the basic game the ball only leaves the field by intent: kick it out instead")
    elif carrying:
        path, cost = legal_path(s, ref, cmd.to, cmd.path, costs.close_control, budget=budget)
        ball_path = path
    else:
        path, cost = legal_path(s, ref, cmd.to, cmd.path, costs.free, budget=budget)
        ball_path = ()
    charge(s, ref, cost)
    if s.holding is not None and ref.team is not s.holding.team:
        gk = s.players[s.holding]
        if dist(path[-1], gk.square) < q.limits(s).hold_distance:
            raise refuse(HOLD, f"opponents must stay at least {q.limits(s).hold_distance} squares from the goalkeeper "
                               f"holding the ball")
    tx.emit(ev.PlayerMoved(ref, path, cost))
    if ball_path:
        after_dribble(tx, ref, ball_path[-1], cmd.hand_to)
    elif cmd.hand_to is not None:
        raise refuse(BALL, f"{ref} does not have the ball to hand over")
    else:
        take_loose_ball(tx, ref)


def left_field(tx: Tx, ref: PlayerRef, path: tuple[Square, ...], cost: int) -> None:
    """Rulebook: a player who leaves the playing field gives the opponent an indirect
    free-kick from his last square in the field, and is shown the yellow card (willful)."""

    s = tx.state
    last_in = next((sq for sq in reversed((s.players[ref].square,) + path[:-1]) if q.pitch(s).in_field(sq)),
                   s.players[ref].square)
    tx.emit(ev.PlayerMoved(ref, path, cost))
    book(tx, ref, "left the playing field")
    award(tx, RestartKind.INDIRECT_FREE_KICK, ref.team.other, f"{ref} left the playing field", last_in)


def after_dribble(tx: Tx, ref: PlayerRef, ball_sq: Square, hand_to: PlayerRef | None) -> None:
    """Where the ball ended: with the dribbler, or with a teammate who takes it over (at once
    when the ball ends in his square)."""
    s = tx.state
    occupant = q.occupant(s, ball_sq)
    if hand_to is not None:
        if hand_to.team is not ref.team or hand_to == ref or not q.near(s.players[hand_to].square, ball_sq):
            raise refuse(BALL, f"ball control may change to a teammate in or next to the ball's square, not {hand_to}")
        flow.set_ball(tx, ball_sq, hand_to, q.control_of(s, hand_to, ball_sq))
        return
    if occupant is not None and occupant != ref and occupant.team is ref.team:
        flow.set_ball(tx, ball_sq, occupant, Control.CLOSE)
        return
    flow.set_ball(tx, ball_sq, ref, q.control_of(s, ref, ball_sq))


def take_loose_ball(tx: Tx, ref: PlayerRef) -> None:
    """"A ball not under control of a player can be taken by the first player moving
    adjacent to it": a move ending next to (or on) a loose ball takes it."""
    s = tx.state
    ball = s.ball
    p = s.players[ref]
    if not ball.loose or ball.square is None or not q.pitch(s).in_field(ball.square):
        return
    if not q.near(p.square, ball.square) or ref == ball.no_touch:
        return
    control = q.control_of(s, ref, ball.square)
    if ref.team is not s.attacking:
        flow.gain_possession(tx, ref, ball.square, control, f"{ref} took the loose ball")
        return
    flow.set_ball(tx, ball.square, ref, control)


def move_ball(tx: Tx, cmd: MoveBall) -> None:
    """The ball moved around the player (1 point per 45 degrees), out of his square to one
    next to him, or into his square."""
    s = tx.state
    check_common(s, cmd.player)
    ball = s.ball
    if ball.holder != cmd.player or ball.control not in (Control.CLOSE, Control.LOOSE):
        raise refuse(BALL, f"{cmd.player} does not have the ball at his feet")
    check_mover(tx, cmd.player)
    s = tx.state
    p = s.players[cmd.player]
    if cmd.to == ball.square:
        raise refuse(BALL, "the ball is there already")
    if not q.near(p.square, cmd.to) or not q.pitch(s).in_field(cmd.to):
        raise refuse(BALL, "the ball moves to the player's own square or a field square next to him")
    if ball.control is Control.LOOSE and cmd.to != p.square:
        a = STEPS.index((ball.square[0] - p.square[0], ball.square[1] - p.square[1]))
        b = STEPS.index((cmd.to[0] - p.square[0], cmd.to[1] - p.square[1]))
        turns = min((a - b) % 8, (b - a) % 8)
    else:
        turns = 1
    cost = turns * q.costs(s).ball_around
    charge(s, cmd.player, cost)
    tx.emit(ev.BallMoved(cmd.player, cmd.to, cost))


# --- the end of a step and of the phase -----------------------------------------------------------------

def pass_turn_movement(tx: Tx, team: Team) -> None:
    s = tx.state
    m = s.movement
    if s.queue:
        raise refuse(MOVEMENT, "finish the pending roll or choice first")
    if m.turn is not team:
        raise refuse(MOVEMENT, f"it is {m.turn.label}'s step")
    if team is not s.attacking and m.attacker_done:
        check_hold_distance(s)
    tx.emit(ev.TurnPassed(team))
    if team is s.attacking:
        if m.attacker_moved:
            tx.emit(ev.StepChanged(team.other, False, "the attacker's step ends"))
        else:
            tx.emit(ev.StepChanged(team.other, True, "the attacker moves no more players"))
        return
    if m.attacker_done:
        flow.end_movement(tx)
        return
    tx.emit(ev.StepChanged(s.attacking, False, "the defender's step ends"))
    if remaining(tx.state, s.attacking) == 0:
        tx.emit(ev.StepChanged(team, True, "the attacker has no movement points left"))


def check_hold_distance(s) -> None:
    if s.holding is None or s.hold_turn != s.turn_no:
        return
    gk = s.players[s.holding]
    # Only players who can still move are held to it (the others have no way out).
    team = s.holding.team.other
    near = [p.ref for p in q.placed(s, team) if dist(p.square, gk.square) < q.limits(s).hold_distance
            and p.ref not in s.movement.by_player and remaining(s, team) > 0]
    if near:
        raise refuse(HOLD, f"all opposing players must be at least {q.limits(s).hold_distance} squares from the "
                           f"goalkeeper holding the ball after the movement phase ({', '.join(map(str, near))})")
