"""Shots on goal, the wall, deflections of shots, saves, catches, volleys, penalty kicks.

The shot's test comes first (skill minus the shot-on-goal tokens and the save attempt
token). A good shot may meet the wall (if its trajectory crosses it and it is not curved),
then defenders' deflections, then the goalkeeper's save in the Event phase: the save skill
minus 10 per MS dived (at most 3), a challenge against the shot's own result. A saved
ball may be caught (handling, the same diving penalty, must beat the shot's result).
"""

from __future__ import annotations

from dataclasses import replace

from ..board import Square, grid_distance
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from ..dice import DiceSpec
from .commands import Declare, Volley
from .components import Action, Skill
from .fouls import foul
from .model import (GK_DIVE_MAX_MS, GK_DIVE_PENALTY, WALL_VALUE_PER_PLAYER, Ball, CatchChoiceCtx, Contest,
                    Declaration, Flight, HandlingCtx, Modifier, Phase, Restart, RestartKind, SaveCtx, ShotPlan,
                    ShotDeflectionChoiceCtx, ShotDeflectionCtx, Status, Test, VolleyChoiceCtx, VolleyCtx, WallCtx)
from .resolve import challenge, close, open_scatter, verdict
from .restarts import award
from .tx import Tx, refuse

SHOT = "Shot on Goal"


def check_shot(s, cmd: Declare, start_ps: Square | None, attacked: str, penalty_kick: bool) -> ShotPlan:
    shot = cmd.shot
    if penalty_kick:
        shot = shot or ShotPlan(tokens=(), save_token=0)
        if shot.tokens or shot.save_token:
            raise refuse("Penalty Kicks", "shot-on-goal tokens are not used for a penalty kick")
        return shot
    if shot is None:
        raise refuse(SHOT, "a shot needs its shot-on-goal tokens and the save attempt token")
    keeper = q.goalkeeper(s, cmd.player.team.other)
    if keeper is not None and keeper.ms is None and shot.gk_dive is None:
        raise refuse("GK - Save", "the goalkeeper's position is not known: place him, or give his dive in MS "
                                  "with the shot")
    if not shot.tokens:
        raise refuse(SHOT, "place a shot-on-goal token on every PS of the trajectory (at least one)")
    if any(t not in (5, 10) for t in shot.tokens):
        raise refuse(SHOT, "shot-on-goal tokens count -5 or -10")
    if shot.save_token not in (5, 10):
        raise refuse("Central or Angled Shots", "the save attempt token is -5 (central) or -10 (angled)")
    if shot.chip and (any(t != 10 for t in shot.tokens) or shot.save_token != 10):
        raise refuse("Chip Shots", "a chip shot uses only -10 tokens, and the save attempt token on its -10 side")
    if shot.chip:
        gk = q.goalkeeper(s, cmd.player.team.other)
        if gk is not None and gk.ms is not None and q.ms_in(s, "goal_line", attacked, gk.ms):
            raise refuse("Chip Shots", "a chip shot needs the goalkeeper off his goal line")
    if shot.trajectory:
        path = shot.trajectory
        if len(path) != len(shot.tokens):
            raise refuse(SHOT, f"one token per PS of the trajectory: {len(path)} PS but {len(shot.tokens)} tokens")
        if start_ps is not None and path[0] != start_ps:
            raise refuse(SHOT, f"the trajectory starts in the shooter's PS {start_ps}")
        for a, b in zip(path, path[1:]):
            if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
                raise refuse(SHOT, f"the trajectory must run through neighbouring PS; {a} to {b} does not")
        expected = suggest_tokens(s, path, cmd.player.team, shot.chip)
        if tuple(shot.tokens) != expected:
            raise refuse("Outstanding Shots", f"along this trajectory the tokens are "
                                              f"{', '.join(f'-{t}' for t in expected)}: -10 on every PS behind the "
                                              f"outstanding-shot and zone lines, -5 once the ball crosses them")
    return shot


def suggest_tokens(s, trajectory: tuple[Square, ...], attacking_team, chip: bool = False) -> tuple[int, ...]:
    """Token sides for a trajectory: -5 inside the penalty area and the outstanding-shot
    areas of the attacked goal, -10 on every PS behind those lines (all -10 for a chip)."""
    end = q.attacked_end(s, attacking_team)
    if chip:
        return tuple(10 for _ in trajectory)
    return tuple(5 if (q.ps_in(s, "penalty_area", end, ps) or q.ps_in(s, "outstanding", end, ps)) else 10
                 for ps in trajectory)


def carried(t: Test, label: str = "") -> Test:
    """The shot's result, reused against the wall, a deflection, the save or the catch."""
    return replace(t, carried=True, label=label or t.label)


def shot_test(s) -> Test:
    d = s.declaration
    shot = d.shot
    mods = (Modifier("shot-on-goal tokens", -sum(shot.tokens)), Modifier("save attempt token", -shot.save_token))
    test = q.skill_test(s, d.player, d.action.skill, d.action.label, "outcome", mods)
    return replace(test, result=d.shot_result, carried=True)


def resolve_shot(tx: Tx, contest: Contest) -> None:
    s = tx.state
    d = s.declaration
    t = contest.tests[0]
    if not t.success:
        close(tx, contest, verdict(s, t) + "; the shot misses the goal")
        missed(tx, d.team)
        return
    close(tx, contest, verdict(s, t) + "; the shot is on target")
    tx.emit(ev.DeclarationSet(replace(d, shot_result=t.result)))
    after_shot_test(tx)


def after_shot_test(tx: Tx) -> None:
    s = tx.state
    d = s.declaration
    if d.wall and d.shot.crosses_wall and not d.shot.curved:
        wall = Test(team=d.team.other, label=f"Wall ({len(d.wall)} players)", dice=DiceSpec(q.TWO_D10, d.team.other),
                    base=WALL_VALUE_PER_PLAYER * len(d.wall), target=WALL_VALUE_PER_PLAYER * len(d.wall))
        flow.open_contest(tx, (carried(shot_test(s)), wall), WallCtx(shot_result=d.shot_result))
        return
    offer_shot_deflection(tx)


def resolve_wall(tx: Tx, contest: Contest) -> None:
    d = tx.state.declaration
    wall_ps = next((q.ps_of(tx.state, r) for r in d.wall if q.ps_of(tx.state, r) is not None), None)
    resolve_block(tx, contest, "the wall", wall_ps)


def resolve_block(tx: Tx, contest: Contest, who: str, block_ps: Square | None) -> None:
    """A good shot against something in its way (the wall, a defender's deflection): the
    blocker must succeed and beat the shot's result, or the shot flies on."""
    s = tx.state
    d = s.declaration
    shooter, blocker = contest.tests
    outcome = challenge(shooter, blocker)
    text = f"{verdict(s, shooter)}; {verdict(s, blocker)}"
    if outcome == "tie":
        flow.reopen(tx, contest, text + "; tie: both roll again")
        return
    if not shooter.success:  # only after a re-roll
        close(tx, contest, text + "; the shot misses the goal")
        missed(tx, d.team)
        return
    if outcome == "b":
        close(tx, contest, text + f"; {who} deflects the shot")
        tx.emit(ev.DeclarationSet(replace(d, shot_result=None, wall=())))
        tx.emit(ev.BallSet(Ball(ps=block_ps, flight=Flight.LOOSE, last_touch=d.team.other)))
        open_scatter(tx, block_ps, 2, "deflection", d.team.other)
        return
    if blocker.player is not None:
        close(tx, contest, text + f"; the deflection fails, {blocker.player} is stunned")
        flow.stun(tx, blocker.player)
    else:
        close(tx, contest, text + "; the ball flies over the wall")
    tx.emit(ev.DeclarationSet(replace(tx.state.declaration, shot_result=shooter.result, wall=())))
    offer_shot_deflection(tx)


def deflection_candidates(s) -> list[PlayerRef]:
    d = s.declaration
    shooter = s.players[d.player]
    out = []
    for p in q.on_pitch(s, d.team.other):
        if p.goalkeeper or p.injured or p.ref in d.deflectors:
            continue
        if shooter.ms is not None and p.ms is not None:
            if abs(p.ms[0] - shooter.ms[0]) + abs(p.ms[1] - shooter.ms[1]) != 1:
                continue
        elif shooter.ms is not None or p.ms is not None:
            continue
        out.append(p.ref)
    return out


def offer_shot_deflection(tx: Tx) -> None:
    s = tx.state
    d = s.declaration
    candidates = deflection_candidates(s)
    if not candidates or d.penalty_kick:
        shot_on_its_way(tx)
        return
    flow.open_choice(tx, d.team.other, f"{d.team.other.label}: deflect {d.player}'s shot with an orthogonally "
                                       f"adjacent defender, or let it go to the goalkeeper",
                     tuple(str(r) for r in candidates) + ("none",), ShotDeflectionChoiceCtx(d.shot_result))


def on_shot_deflection_choice(tx: Tx, choice, option: str) -> None:
    s = tx.state
    if option == "none":
        shot_on_its_way(tx)
        return
    defender = PlayerRef.parse(option)
    d = s.declaration
    tx.emit(ev.DeclarationSet(replace(d, deflectors=d.deflectors + (defender,))))
    test = q.skill_test(tx.state, defender, Skill.SLIDING_TACKLE, "Sliding Tackle (deflection)", "outcome")
    flow.open_contest(tx, (carried(shot_test(tx.state)), test), ShotDeflectionCtx(d.shot_result), front=True)


def resolve_shot_deflection(tx: Tx, contest: Contest) -> None:
    defender = contest.tests[1].player
    resolve_block(tx, contest, str(defender), q.ps_of(tx.state, defender))


def shot_on_its_way(tx: Tx) -> None:
    """The ball flies on to the goal; the save comes in the Event phase (or at once, for a
    volley, which is already in it)."""
    s = tx.state
    d = s.declaration
    tx.emit(ev.BallSet(Ball(ps=d.target_ps, flight=Flight.SHOT, last_touch=d.team)))
    if s.phase is Phase.EVENT:
        open_save(tx)


# --- the goalkeeper --------------------------------------------------------------------------

def dive_distance(s) -> int | None:
    """MS the goalkeeper dives, counted from where he stood when the shot was declared: a
    step he took in the Movement phase is the first MS of his dive, not extra reach."""
    d = s.declaration
    gk = q.goalkeeper(s, d.team.other)
    shot = d.shot
    start = d.gk_ms if d.gk_ms is not None else (gk.ms if gk is not None else None)
    if start is not None:
        target = shot.save_ms
        if target is None and d.target_ps is not None:
            cells = q.board(s).ps_cells(d.target_ps)
            target = min(cells, key=lambda c: grid_distance(start, c))
        if target is not None:
            return grid_distance(start, target)
    return shot.gk_dive


def save_ps(s) -> Square | None:
    d = s.declaration
    if d.penalty_kick:
        return d.target_ps
    if d.shot.save_ms is not None:
        return q.board(s).ms_to_ps(d.shot.save_ms)
    gk = q.goalkeeper(s, d.team.other)
    return (q.ps_of(s, gk.ref) if gk is not None else None) or d.target_ps


def open_save(tx: Tx) -> None:
    s = tx.state
    d = s.declaration
    gk = q.goalkeeper(s, d.team.other)
    dive = dive_distance(s)
    if gk is None:
        score_goal(tx, d.team, d.player, "no goalkeeper to save it")
        return
    if dive is None:
        raise refuse("GK - Save", "place the goalkeeper and the save attempt token, or give the goalkeeper's dive "
                                  "in MS with the shot")
    if dive > GK_DIVE_MAX_MS:
        score_goal(tx, d.team, d.player, f"the goalkeeper would need to dive {dive} MS (at most {GK_DIVE_MAX_MS})")
        return
    mods = (Modifier(f"dive {dive} MS", -GK_DIVE_PENALTY * dive),) if dive else ()
    save = q.skill_test(s, gk.ref, Skill.SAVE, "Save", "event", mods)
    flow.open_contest(tx, (carried(shot_test(s)), save), SaveCtx(shot_result=d.shot_result, dive=dive), front=True)


def open_penalty(tx: Tx) -> None:
    s = tx.state
    d = s.declaration
    gk = q.goalkeeper(s, d.team.other)
    if gk is None:
        score_goal(tx, d.team, d.player, "no goalkeeper to face the penalty")
        return
    dive = dive_distance(s) or 0
    kicker = q.skill_test(s, d.player, Skill.FINALIZATION, "Finalization (penalty kick)", "outcome")
    if dive > GK_DIVE_MAX_MS:
        # "All regular shot and save rules are applied": he "can dive for a maximum of 3 MS",
        # so he cannot reach the ball and only the kicker rolls (assumptions F43).
        flow.open_contest(tx, (kicker,), SaveCtx(dive=dive, penalty_kick=True))
        return
    mods = (Modifier(f"dive {dive} MS", -GK_DIVE_PENALTY * dive),) if dive else ()
    keeper = q.skill_test(s, gk.ref, Skill.PENALTY_KICK, "Penalty Kick save", "outcome", mods)
    flow.open_contest(tx, (kicker, keeper), SaveCtx(dive=dive, penalty_kick=True))


def resolve_save(tx: Tx, contest: Contest) -> None:
    s = tx.state
    d = s.declaration
    ctx: SaveCtx = contest.ctx
    if len(contest.tests) == 1:   # a penalty kick the goalkeeper cannot reach
        shooter = contest.tests[0]
        if shooter.success:
            close(tx, contest, verdict(s, shooter) + f"; the goalkeeper would need to dive {ctx.dive} MS (at most "
                                                     f"{GK_DIVE_MAX_MS}): GOAL")
            score_goal(tx, d.team, d.player)
        else:
            close(tx, contest, verdict(s, shooter) + "; the kick misses the goal")
            missed(tx, d.team)
        return
    shooter, keeper = contest.tests
    outcome = challenge(shooter, keeper)
    text = f"{verdict(s, shooter)}; {verdict(s, keeper)}"
    if outcome == "tie":
        flow.reopen(tx, contest, text + "; tie: both roll again")
        return
    if not shooter.success:
        close(tx, contest, text + "; the shot misses the goal")
        missed(tx, d.team)
        return
    if outcome == "a":
        close(tx, contest, text + "; GOAL")
        score_goal(tx, d.team, d.player)
        return
    close(tx, contest, text + f"; {keeper.player} saves")
    tx.emit(ev.DeclarationSet(replace(d, shot_result=shooter.result)))
    flow.stun(tx, keeper.player)  # diving to save stuns the goalkeeper
    flow.open_choice(tx, keeper.player.team, f"{q.label(keeper.player, s)} saved: try to catch the ball "
                                             f"(handling) or let it scatter?", ("catch", "no"),
                     CatchChoiceCtx(shot_result=shooter.result, dive=ctx.dive, save_ps=save_ps(s)),
                     player=keeper.player, front=True)


def on_catch_choice(tx: Tx, choice, option: str) -> None:
    s = tx.state
    ctx: CatchChoiceCtx = choice.ctx
    keeper = choice.player
    if option == "no":
        tx.emit(ev.BallSet(Ball(ps=ctx.save_ps, flight=Flight.LOOSE, last_touch=keeper.team)))
        open_scatter(tx, ctx.save_ps, 2, "save", keeper.team)
        return
    mods = (Modifier(f"dive {ctx.dive} MS", -GK_DIVE_PENALTY * ctx.dive),) if ctx.dive else ()
    handling = q.skill_test(s, keeper, Skill.HANDLING, "Handling", "event", mods)
    shooter = carried(shot_test(s))
    flow.open_contest(tx, (shooter, handling), HandlingCtx(shot_result=ctx.shot_result, save_ps=ctx.save_ps),
                      front=True)


def resolve_handling(tx: Tx, contest: Contest) -> None:
    """The goalkeeper holds on only with a good handling test higher than the shot's result."""
    s = tx.state
    ctx: HandlingCtx = contest.ctx
    shooter, handling = contest.tests
    keeper = handling.player
    if handling.success and handling.result == shooter.result:
        flow.reopen(tx, contest, f"{verdict(s, handling)}: equal to the shot's {shooter.result}, roll again")
        return
    if handling.success and handling.result > shooter.result:
        close(tx, contest, f"{verdict(s, handling)}, higher than the shot's {shooter.result}: caught")
        tx.emit(ev.BallSet(Ball(carrier=keeper, last_touch=keeper.team)))
        tx.emit(ev.StatusSet(keeper, Status.READY, 0))  # holding the ball, he recovers from the stun
        return
    close(tx, contest, f"{verdict(s, handling)} against the shot's {shooter.result}: the ball spills")
    tx.emit(ev.BallSet(Ball(ps=ctx.save_ps, flight=Flight.LOOSE, last_touch=keeper.team)))
    open_scatter(tx, ctx.save_ps, 2, "handling", keeper.team)


# --- volleys -----------------------------------------------------------------------------------

def volley(tx: Tx, cmd: Volley) -> None:
    """A player meeting a long pass or cross in the opponents' half shoots first time. Any
    defenders in his PS challenge it (aerial tackle, or rush out for a goalkeeper); a volley
    that beats them all goes on to the save with the same result."""
    s = tx.state
    head = s.queue[0] if s.queue else None
    if head is None or not isinstance(head.ctx, VolleyChoiceCtx) or cmd.player not in flow.volleyers(head):
        raise refuse("Volley Shots", "a volley is called by a player receiving a long pass or a cross in the "
                                     "opponents' half, in the Event phase")
    attacked = q.attacked_end(s, cmd.player.team)
    p = s.players[cmd.player]
    start_ps = q.ps_of(s, cmd.player)
    shot = check_shot(s, Declare(cmd.player, Action.LONG_SHOT, shot=cmd.shot), start_ps, attacked, False)
    goal_line = q.board(s).area_squares(f"goal_line_{attacked}")
    target = cmd.target_ps or (shot.trajectory[-1] if shot.trajectory else goal_line[0])
    if target not in goal_line:
        raise refuse(SHOT, f"a shot ends in one of the goal-line PS {', '.join(map(str, goal_line))}")
    tx.emit(ev.ChoiceMade(f"c{head.id}", "volley"))
    keeper = q.goalkeeper(s, cmd.player.team.other)
    decl = Declaration(team=cmd.player.team, player=cmd.player, action=Action.FINALIZATION, distance=1,
                       start_ms=p.ms, start_ps=start_ps, target_ps=target, shot=shot,
                       gk_ms=keeper.ms if keeper is not None else None)
    tx.emit(ev.DeclarationSet(decl))
    mods = (Modifier("shot-on-goal tokens", -sum(shot.tokens)), Modifier("save attempt token", -shot.save_token))
    attacker = q.skill_test(tx.state, cmd.player, Skill.VOLLEY, "Volley", "event", mods)
    tests = [attacker]
    for ref in q.players_in_ps(tx.state, s.ball.ps, cmd.player.team.other):
        o = tx.state.players[ref]
        if o.injured:
            continue
        skill = Skill.RUSH_OUT if o.goalkeeper else Skill.AERIAL_TACKLE
        tests.append(q.skill_test(tx.state, ref, skill, f"{skill.label} (against the volley)", "event"))
    flow.open_contest(tx, tuple(tests), VolleyCtx(), front=True)


def on_volley_choice(tx: Tx, choice, option: str) -> None:
    if option == "volley":
        raise refuse("Volley Shots", "a volley needs its shot-on-goal tokens and save attempt token: declare it "
                                     "as a volley shot")
    if option == "dispute":
        s = tx.state
        present = [r for r in q.players_in_ps(s, s.ball.ps) if not s.players[r].injured]
        flow.open_dispute(tx, present, aerial=True)
        return
    flow.open_ball_control(tx, choice.player)


def resolve_volley(tx: Tx, contest: Contest) -> None:
    s = tx.state
    d = s.declaration
    attacker = contest.tests[0]
    lines = [verdict(s, attacker)]
    beaten: list[Test] = []   # defenders who failed against a good volley: they foul the volleyer
    for t in contest.tests[1:]:
        outcome = challenge(attacker, t)
        lines.append(verdict(s, t))
        if outcome == "tie":
            flow.reopen(tx, contest, "; ".join(lines) + "; tie: all roll again")
            return
        if outcome == "b":
            if not attacker.success:
                close(tx, contest, "; ".join(lines) + f"; {d.player} fouls {t.player}")
                foul(tx, d.player, attacker, t.player, "ball_to_fouled")
            else:
                close(tx, contest, "; ".join(lines) + f"; {t.player} wins the ball")
                flow.give_ball(tx, t.player)
            return
        if attacker.success and not t.success:
            beaten.append(t)
    if beaten:
        # The chart's "Defense Failure: Foul": the volleyer's coach takes the free kick (a
        # penalty in the defenders' area) or the advantage, and the volley goes on (F29).
        fouler = beaten[0]
        close(tx, contest, "; ".join(lines) + f"; {fouler.player} fouls {d.player}")
        tx.emit(ev.DeclarationSet(replace(d, shot_result=attacker.result)))
        foul(tx, fouler.player, fouler, d.player, "volley_on")
        return
    if not attacker.success:
        if len(contest.tests) > 1:
            close(tx, contest, "; ".join(lines) + "; all fail: the ball scatters 1 PS")
            open_scatter(tx, s.ball.ps, 1, "challenge", d.team)
        else:
            close(tx, contest, "; ".join(lines) + "; the volley misses the goal")
            missed(tx, d.team)
        return
    close(tx, contest, "; ".join(lines) + "; the volley is on target")
    tx.emit(ev.DeclarationSet(replace(d, shot_result=attacker.result)))
    shot_on_its_way(tx)


# --- goals and misses ----------------------------------------------------------------------------

def score_goal(tx: Tx, team: Team, scorer: PlayerRef | None, note: str = "") -> None:
    tx.emit(ev.GoalScored(team, scorer))
    flow.stop_round(tx, f"goal for {team.label}" + (f" ({note})" if note else ""),
                    Restart(kind=RestartKind.KICK_OFF, team=team.other))
    tx.emit(ev.BallSet(Ball()))


def missed(tx: Tx, shooting: Team) -> None:
    """A failed shot misses the goal: the defending team restarts with a free kick (taken
    from its goal area, see docs/assumptions.md)."""
    award(tx, RestartKind.FREE_KICK, shooting.other, "shot missed")
