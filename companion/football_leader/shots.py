"""3.5 Shoot, 4.4 Move and Shoot, 4.5 Pass and Shoot, and direct and penalty kicks (3.7).

The space's printed numbers give the difficulty: X-Y-Z by the defenders in it (an unmarked
shooter counts one fewer) plus the goalkeeper's parry (his defence from inside the goal
area), or a bare 23 or 24. A goal brings a kick-off for the other side; a miss a goal kick.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .cards import bonus
from .commands import Shoot
from .components import Ability, Card
from .difficulty import direct_kick_difficulty, penalty_difficulty, shot_difficulty
from .model import RestartKind, Roll, ShotCtx, Stage, Test
from .pitch import Space
from .resolve import close, verdict
from .tx import Tx, refuse

SHOOT = "3.5 Shoot"
NOT_ALLOWED = "4.7 Actions NOT allowed"
FREE_KICK = "3.7 Foul Check (Direct Kick and Penalty Kick)"


def shoot(tx: Tx, cmd: Shoot) -> None:
    s = tx.state
    if s.ball is None:
        raise refuse(SHOOT, "nobody has the ball")
    team = s.ball.team
    flow.check_turn(s, team, SHOOT)
    stage = s.turn.stage
    if stage is Stage.DIRECT_KICK:
        direct_kick(tx, cmd)
        return
    if cmd.taker is not None and cmd.taker != s.ball:
        raise refuse(SHOOT, f"the counter with the ball shoots ({s.ball})")
    if stage is Stage.AFTER_MAIN:
        if s.turn.dodged == s.ball:
            raise refuse(NOT_ALLOWED, "dodge (to get unmarked) and shoot in the same turn is not permitted")
        raise refuse(SHOOT, "the main action is over: only an extra movement is left (or end the turn)")
    if stage in (Stage.FREE_KICK, Stage.GOAL_KICK):
        raise refuse(SHOOT, f"the {stage.value.replace('_', ' ')} is taken as a pass")
    shooter = s.ball
    p = s.players[shooter]
    if p.goalkeeper:
        raise refuse(SHOOT, "the goalkeeper does not shoot")
    space = p.space
    b = q.board(s)
    numbers = b.space(space).shoot
    if numbers is None:
        raise refuse(SHOOT, f"{b.label(space)} has no shooting numbers: shots are made from spaces that print them")
    if b.end_of(space) != q.attacked_end(s, team):
        raise refuse(SHOOT, f"{b.label(space)}'s shooting numbers are for a shot at {team.label}'s own goal")
    defenders = q.count_in(s, space, team.other)
    if not numbers.three and defenders:
        raise refuse(SHOOT, f"from a {numbers.to_json()} space no defender counter can be in the space")
    moved = stage is Stage.CARRIER_MOVED
    passed = stage in (Stage.PASSED, Stage.VISION_PASSED)
    parry, keeper_defence = q.keeper_values(s, team.other)
    inside = q.in_goal_area(s, space, team.other)
    difficulty = shot_difficulty(numbers, defenders, q.is_unmarked(s, shooter), keeper_defence if inside else parry,
                                 parry, combined=moved or passed,
                                 on_the_fly=passed and q.has(s, shooter, Ability.SHOOT_ON_THE_FLY))
    two = q.has(s, shooter, Ability.SHOOT) and not passed
    what = "move and shoot" if moved else "pass and shoot" if passed else "shot"
    _declare(tx, shooter, cmd.card, space, difficulty, two, what, "shot")


def direct_kick(tx: Tx, cmd: Shoot) -> None:
    """3.7: the attacking coach picks the taker; difficulty as with one defender in the space
    (a penalty: 4 + the goalkeeper's parry)."""
    s = tx.state
    r = s.restart
    team = r.team
    taker = cmd.taker or s.ball
    p = s.players.get(taker)
    if p is None or taker.team is not team or not p.on_pitch or p.goalkeeper:
        raise refuse(FREE_KICK, f"one of {team.label}'s outfield counters takes the kick")
    parry, _ = q.keeper_values(s, team.other)
    if r.kind is RestartKind.PENALTY:
        difficulty, what = penalty_difficulty(parry), "penalty kick"
    else:
        difficulty, what = direct_kick_difficulty(q.board(s).space(r.space).shoot, parry), "direct free kick"
    tx.emit(ev.RestartSet(None, f"{what} taken"))
    _declare(tx, taker, cmd.card, r.space, difficulty, q.has(s, taker, Ability.SHOOT), what,
             "penalty" if r.kind is RestartKind.PENALTY else "direct")


def _declare(tx: Tx, shooter: PlayerRef, card: Card, space: Space, difficulty: int, two: bool, what: str,
             kind: str) -> None:
    s = tx.state
    team = shooter.team
    flow.check_cards(s, team, [card], SHOOT)
    tx.emit(ev.ShotDeclared(shooter, card))
    flow.play(tx, team, card, what)
    kinds = (DieKind.D12, DieKind.D12) if two else (DieKind.D12,)
    test = Test(team, f"{what} by #{shooter.number} from {q.where(s, space)}", DiceSpec(kinds, team), shooter,
                difficulty, bonus(s.players[shooter].counter.shoot, card))
    flow.open_roll(tx, (test,), ShotCtx(shooter, space, kind))


def resolve_shot(tx: Tx, item: Roll) -> None:
    ctx: ShotCtx = item.ctx
    t = item.tests[0]
    team = ctx.shooter.team
    if t.success:
        close(tx, item, verdict(t) + ": GOAL")
        score_goal(tx, team, ctx.shooter)
    else:
        close(tx, item, verdict(t) + ": missed, goal kick")
        miss(tx, team.other)
    flow.turn_over(tx)


def score_goal(tx: Tx, team: Team, scorer: PlayerRef | None) -> None:
    tx.emit(ev.GoalScored(team, scorer))
    if tx.state.unmarked is not None:
        tx.emit(ev.UnmarkedSet(None))
    tx.emit(ev.BallSet(None, "goal"))
    flow.award(tx, RestartKind.KICK_OFF, team.other, "goal")


def miss(tx: Tx, defending: Team) -> None:
    """1.4: "a failed shot is always followed by a goal kick"; the goalkeeper holds the ball."""
    if tx.state.unmarked is not None:
        tx.emit(ev.UnmarkedSet(None))
    keeper = q.keeper(tx.state, defending)
    tx.emit(ev.BallSet(keeper.ref if keeper else None, "missed shot"))
    flow.award(tx, RestartKind.GOAL_KICK, defending, "missed shot")
