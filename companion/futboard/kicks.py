"""Action B, Kick; the goalkeeper's defence; the corner kick.

The kicker hits the goal on 1 .. (his accuracy minus the penalty printed for his line); the
goalkeeper rolls at the same time and defends on 1 .. (his defence force minus the
reduction of his space). A miss needs no keeper's roll. A hit the keeper does not defend is
a goal; the same number on both dice is a corner kick (not in Futboard Street). A miss or
a save gives the goalkeeper the ball and his side the turn.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef, Team
from . import events as ev
from . import queries as q
from .commands import Kick
from .flow import score_goal
from .model import Contest, Corner, FutboardState, KickCtx, Phase, Test
from .tx import Tx, refuse
from .turns import CORNER, LINE, check_action, corner, start_turn

KICK = "B. Kick"
D12 = (DieKind.D12,)


def kick_problem(s: FutboardState, kicker: PlayerRef) -> tuple[str, str] | None:
    p = s.players[kicker]
    if s.ball != kicker:
        return KICK, f"only the player with the ball kicks; {s.ball or 'nobody'} has it"
    if p.space is None:
        return KICK, f"where {kicker} stands is not known: place him first"
    if q.in_own_field(s, kicker.team, p.space):
        return KICK, f"{kicker} is in his defensive field (line {p.space[0]}): you cannot kick to the goal from there"
    if q.blocked(s, kicker):
        return KICK, f"{kicker} is next to 2 or more opposing players and cannot kick the ball to goal"
    c = corner(s)
    if c is not None and c.step == "attack" and s.ball == c.taker:
        return CORNER, "the corner must be passed to one of your players first"
    return None


def kick(tx: Tx, cmd: Kick) -> None:
    s = tx.state
    if cmd.player not in s.players:
        raise refuse(KICK, f"no player {cmd.player} in this match")
    team = cmd.player.team
    check_action(s, team, KICK)
    problem = kick_problem(s, cmd.player)
    if problem is not None:
        raise refuse(*problem)
    b = q.pitch(s)
    p = s.players[cmd.player]
    penalty = b.kick_penalty(p.space, q.attacked_end(team))
    keeper = q.keeper(s, team.other)
    defence = reduction = 0
    if keeper is not None:
        defence = keeper.tile.defence or 0
        reduction = b.keeper_reduction(keeper.space, q.own_end(team.other)) if keeper.space is not None else 0
    ctx = KickCtx(cmd.player, keeper.ref if keeper else None, p.tile.accuracy, penalty, defence, reduction)
    tx.emit(ev.KickTaken(cmd.player, p.space))
    target = max(0, p.tile.accuracy - penalty)
    tests = [Test(team, f"Kick by {cmd.player} (accuracy {p.tile.accuracy} - field penalty {penalty})",
                  DiceSpec(D12, team), cmd.player, target)]
    saves = max(0, defence - reduction)
    if keeper is not None and (saves or not s.street):  # with no defence left his die can only make a corner
        tests.append(Test(team.other, f"Defence by goalkeeper {keeper.ref} (defence {defence} - space {reduction})",
                          DiceSpec(D12, team.other), keeper.ref, saves))
    contest = Contest(tx.next_id, tuple(tests), ctx)
    tx.emit(ev.PendingOpened(contest))
    if target == 0:  # no number hits: the kick misses without a roll
        close(tx, contest, f"{cmd.player} kicks: accuracy {p.tile.accuracy} - {penalty} leaves no number to hit, "
                           f"the kick misses")
        keeper_ball(tx, team.other, "the kick missed")


def resolve_kick(tx: Tx, contest: Contest) -> None:
    """Settle a kick as soon as its dice tell: a miss at once, a hit with the keeper's roll."""
    ctx: KickCtx = contest.ctx
    shot = contest.tests[0]
    team = ctx.kicker.team
    if shot.result is None:
        return
    said = f"{ctx.kicker} kicks {shot.result} (hits on 1-{shot.target})"
    if not shot.success:
        close(tx, contest, f"{said}: misses the goal")
        keeper_ball(tx, team.other, "the kick missed")
        return
    if len(contest.tests) == 1:
        close(tx, contest, f"{said}: no goalkeeper can defend it: GOAL")
        score_goal(tx, team, ctx.kicker, "kick")
        return
    save = contest.tests[1]
    if save.result is None:
        return
    said += f"; {ctx.keeper} rolls {save.result} (defends on 1-{save.target})" if save.target else \
        f"; {ctx.keeper} rolls {save.result} (no defence left)"
    if save.result == shot.result and not tx.state.street:
        close(tx, contest, f"{said}: the same number, corner kick")
        award_corner(tx, team)
        return
    if save.success:
        close(tx, contest, f"{said}: defended")
        keeper_ball(tx, team.other, "the goalkeeper defended")
        return
    close(tx, contest, f"{said}: GOAL")
    score_goal(tx, team, ctx.kicker, "kick")


def close(tx: Tx, contest: Contest, outcome: str) -> None:
    tx.emit(ev.ContestResolved(contest.id, outcome))


def keeper_ball(tx: Tx, team: Team, reason: str) -> None:
    """The goalkeeper gets possession and his side's turn begins. Without a goalkeeper on
    the field the ball goes to the player nearest the goal."""
    s = tx.state
    keeper = q.keeper(s, team)
    holder = keeper.ref if keeper is not None else nearest_to_goal(s, team)
    tx.emit(ev.BallSet(holder, reason))
    start_turn(tx, team, f"{reason}: the goalkeeper has the ball")


def nearest_to_goal(s: FutboardState, team: Team) -> PlayerRef | None:
    goal = q.pitch(s).goal(q.own_end(team))
    placed = [p for p in q.on_field(s, team) if p.space is not None]
    if not placed:
        return None
    best = min(placed, key=lambda p: (max(abs(p.space[0] - goal[0]), abs(p.space[1] - goal[1])), p.ref.number))
    return best.ref


def award_corner(tx: Tx, team: Team) -> None:
    tx.emit(ev.RestartSet(Corner(team)))
    tx.emit(ev.PhaseStarted(Phase.CORNER, "equal rolls on a kick"))
    tx.emit(ev.BallSet(None, "corner kick"))


def place_corner_taker(tx: Tx, ref: PlayerRef, space) -> None:
    """"Choose any of your players and place them in one of the corner slots of your choice
    with the ball on it." Then the other side has up to three moves."""
    s = tx.state
    c: Corner = s.restart
    slots = q.pitch(s).corners(q.attacked_end(c.team))
    if ref.team is not c.team:
        raise refuse(CORNER, f"{c.team.label} takes the corner: put one of their players on a corner slot")
    if space is None or tuple(space) not in slots:
        raise refuse(CORNER, f"put the taker on a corner slot: {', '.join(str(sl) for sl in slots)}")
    other = q.occupant(s, space)
    if other is not None and other != ref:
        raise refuse(CORNER, f"corner slot {tuple(space)} is taken by {other}")
    if q.line_full(s, ref, space):
        raise refuse(LINE, f"{c.team.label} already has 4 players in line {space[0]}")
    tx.emit(ev.FigurePlaced(ref, tuple(space)))
    tx.emit(ev.BallSet(ref, "corner taker"))
    tx.emit(ev.RestartSet(Corner(c.team, ref, "defence")))
    tx.emit(ev.PhaseStarted(Phase.PLAY, "corner kick"))
    start_turn(tx, c.team.other, "corner kick: the side without the ball has up to three moves")
