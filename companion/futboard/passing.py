"""Action A, Pass the Ball; the kick-off (the first pass of a round); offside.

A pass reaches a teammate within the ruler measure on the passer's tile, laid from the
centre of his tile to the centre of the receiver's. No roll: a pass the ruler allows
arrives. A player next to two or more opponents cannot receive; a player in a line in front
of the last opponent's player is offside (not at a corner kick, not in Futboard Street).
"""

from __future__ import annotations

from ..teams import PlayerRef
from . import events as ev
from . import queries as q
from .commands import Pass
from .lineup import lineup_problems
from .model import RULER_TOLERANCE_MM, FutboardState, KickOff, Phase
from .tx import Tx, refuse
from .turns import CORNER, TURN, check_action, corner, start_turn

PASS = "A. Pass the Ball"
OFFSIDE = "Offside"


def pass_problem(s: FutboardState, passer: PlayerRef, receiver: PlayerRef,
                 corner_pass: bool = False) -> tuple[str, str] | None:
    """Why ``passer`` cannot pass to ``receiver`` now (rule section, message), or None."""
    p = s.players[passer]
    r = s.players.get(receiver)
    if r is None or not r.on_field:
        return PASS, f"{receiver} is not on the field"
    if receiver.team is not passer.team:
        return PASS, f"pass to a player of your own team, not {receiver}"
    if receiver == passer:
        return PASS, "pass the ball to another player"
    if p.space is None or r.space is None:
        return PASS, "place both players first: the ruler needs their tiles"
    assert s.components is not None
    mark = s.components.ruler.mark_mm
    marks = q.ruler_marks(s, p.space, r.space)
    if marks * mark > p.tile.pass_ruler * mark + RULER_TOLERANCE_MM:
        return PASS, (f"{receiver} is {marks:.1f} ruler marks away; {passer}'s pass reaches {p.tile.pass_ruler} "
                      f"(the right side of his tile)")
    if q.blocked(s, receiver):
        return PASS, f"{receiver} is next to 2 or more opposing players and cannot receive a pass"
    if not s.street and not corner_pass and q.offside(s, receiver):
        return OFFSIDE, (f"{receiver} is in line {r.space[0]}, in front of the last opponent's player (line "
                         f"{q.last_defender_line(s, receiver.team.other)}): offside")
    return None


def pass_ball(tx: Tx, cmd: Pass) -> None:
    s = tx.state
    if cmd.player not in s.players:
        raise refuse(PASS, f"no player {cmd.player} in this match")
    if s.phase is Phase.LINEUP:
        kick_off(tx, cmd)
        s = tx.state
    team = cmd.player.team
    check_action(s, team, PASS)
    if s.ball != cmd.player:
        raise refuse(PASS, f"only the player with the ball passes; {s.ball or 'nobody'} has it")
    c = corner(s)
    corner_pass = c is not None and c.step == "attack" and s.ball == c.taker
    keeper = q.keeper(s, team.other)
    if corner_pass and keeper is not None and cmd.to == keeper.ref:
        open_mates = [m.ref for m in q.on_field(s, team)
                      if m.ref != cmd.player and pass_problem(s, cmd.player, m.ref, True) is None]
        if open_mates:
            raise refuse(CORNER, f"{', '.join(map(str, open_mates))} can receive the corner: pass to the "
                                 f"opposing goalkeeper only when none of your players can")
        p = s.players[cmd.player]
        tx.emit(ev.BallPassed(cmd.player, cmd.to, round(q.ruler_marks(s, p.space, keeper.space), 2)))
        tx.emit(ev.RestartSet(None))
        start_turn(tx, team.other, "the corner went to the goalkeeper: his side's turn")
        return
    problem = pass_problem(s, cmd.player, cmd.to, corner_pass)
    if problem is not None:
        raise refuse(*problem)
    p, r = s.players[cmd.player], s.players[cmd.to]
    tx.emit(ev.BallPassed(cmd.player, cmd.to, round(q.ruler_marks(s, p.space, r.space), 2)))
    if corner_pass:
        tx.emit(ev.RestartSet(None))


def kick_off(tx: Tx, cmd: Pass) -> None:
    """"Position a player with the ball inside the Central Circle. Your first action should
    be a pass to another player in your team." The round starts with that pass."""
    s = tx.state
    ko = s.restart
    assert isinstance(ko, KickOff)
    if cmd.player.team is not ko.team:
        raise refuse(TURN, f"{ko.team.label} starts with the ball: the first action is {ko.team.label}'s pass")
    problems = lineup_problems(s)
    if problems:
        raise refuse(TURN, problems[0])
    p = s.players[cmd.player]
    if not p.on_field or p.space is None or tuple(p.space) not in q.pitch(s).centre_circle:
        raise refuse(TURN, f"the kick-off is a pass from the player with the ball inside the centre circle; "
                           f"{cmd.player} is not in it")
    tx.emit(ev.KickOffTaken(ko.team, cmd.player))
    start_turn(tx, ko.team, "kick-off")
