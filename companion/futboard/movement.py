"""Action C, Movement; and the moves out of the area before a penalty.

A player moves once a turn, up to his tile's movement, space by space; never over another
figure; never to end outside the field; never making five of his side in one line.
"""

from __future__ import annotations

from ..board import Square
from . import events as ev
from . import queries as q
from .commands import Move
from .model import MAX_PER_LINE, FutboardState, Penalty, Phase
from .ranges import destinations
from .tx import Tx, refuse
from .move_the_ball import check_ball_rule
from .turns import CORNER, LINE, check_action, corner

MOVEMENT = "C. Movement"
OUTSIDE = "Move From Outside"


def move(tx: Tx, cmd: Move) -> None:
    s = tx.state
    p = s.players.get(cmd.player)
    if p is None:
        raise refuse(MOVEMENT, f"no player {cmd.player} in this match")
    if s.phase is Phase.PENALTY:
        clear_area_move(tx, cmd)
        return
    team = cmd.player.team
    check_action(s, team, MOVEMENT)
    if not p.on_field:
        raise refuse(MOVEMENT, f"{cmd.player} is not on the field")
    if cmd.player in s.moved:
        raise refuse(MOVEMENT, f"{cmd.player} has moved this turn already: a player moves once a turn")
    c = corner(s)
    if c is not None and c.step == "attack" and cmd.player == c.taker and s.ball == c.taker:
        raise refuse(CORNER, "the corner taker passes the ball; he does not run with it")
    if c is not None and c.step == "attack" and s.ball == c.taker and s.actions_left == 1:
        raise refuse(CORNER, "this is the last action: the corner must be passed now")
    check_ball_rule(s, team, moves_ball=s.ball == cmd.player)
    steps = check_destination(s, cmd.player, cmd.to)
    tx.emit(ev.PlayerMoved(cmd.player, p.space, tuple(cmd.to), steps))


def check_destination(s: FutboardState, ref, to: Square, limit: int | None = None) -> int:
    """The steps of a legal movement of ``ref`` to ``to``; refuses with the rule it breaks."""
    p = s.players[ref]
    b = q.pitch(s)
    to = tuple(to)
    if p.space is None:
        raise refuse(MOVEMENT, f"where {ref} stands is not known: place him first")
    if to == p.space:
        raise refuse(MOVEMENT, f"{ref} is already on {to}")
    if not b.on_board(to):
        raise refuse(MOVEMENT, f"space {to} is not on the board")
    if not b.inside(to, s.street):
        where = "beyond the yellow lines" if s.street and b.inside(to) else "outside the field"
        raise refuse(OUTSIDE, f"{to} is {where}: you may move through it but not end your movement there")
    other = q.occupant(s, to)
    if other is not None:
        raise refuse(MOVEMENT, f"{to} is taken by {other}")
    if q.line_full(s, ref, to):
        raise refuse(LINE, f"{ref.team.label} already has {MAX_PER_LINE} players in line {to[0]}; no more than "
                           f"{MAX_PER_LINE} of a team in the same line")
    reach = destinations(s, ref, limit)
    if to in reach:
        return reach[to]
    movement = p.tile.movement if limit is None else limit
    steps = destinations(s, ref, 99, dribble=True).get(to)
    if steps is None:
        raise refuse(MOVEMENT, f"{ref} cannot reach {to}: figures cannot move over other players")
    if steps > movement:
        raise refuse(MOVEMENT, f"{to} is {steps} spaces away for {ref}; his tile allows {movement}")
    raise refuse(MOVEMENT, f"{ref} has the ball and no dribble symbol: his movement ends as soon as he comes next "
                           f"to an opponent, before {to}")


def clear_area_move(tx: Tx, cmd: Move) -> None:
    """Before a penalty the side that fouled moves its players out of the area, following
    the movement rules (these moves are not actions)."""
    s = tx.state
    pen: Penalty = s.restart
    section = "Penalty"
    defending = pen.team.other
    end = q.own_end(defending)
    b = q.pitch(s)
    p = s.players[cmd.player]
    if cmd.player.team is not defending or p.goalkeeper:
        raise refuse(section, f"only {defending.label}'s outfield players in the area move now, to leave it")
    if not b.in_penalty_area(p.space, end):
        raise refuse(section, f"{cmd.player} is not in the penalty area")
    if b.in_penalty_area(tuple(cmd.to), end):
        raise refuse(section, f"{tuple(cmd.to)} is still in the penalty area: move {cmd.player} out of it")
    steps = check_destination(s, cmd.player, cmd.to)
    tx.emit(ev.PlayerMoved(cmd.player, p.space, tuple(cmd.to), steps, action=False))


def must_leave_area(s: FutboardState) -> list:
    """The fouling side's outfield players still inside the penalty area."""
    pen = s.restart
    if not isinstance(pen, Penalty):
        return []
    defending = pen.team.other
    end = q.own_end(defending)
    b = q.pitch(s)
    return [p.ref for p in q.on_field(s, defending) if not p.goalkeeper and b.in_penalty_area(p.space, end)]
