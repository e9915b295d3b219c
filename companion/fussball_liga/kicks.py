"""The shot phase: shots and passes, follow-ups, interceptions, goal shots, and where the
ball ends up (a teammate, a defender, a loose ball, the goal, or out of play).

Rulebook: a shot is a straight line (row, column or diagonal) from the ball to an
announced target square; from loose control the target must be nearer the ball than the
shooter. Defenders on or next to the path may try to intercept, square by square, before
the ball arrives. A goal shot rolls on the goal-shot table by distance (a follow-up counts
its own distance). A pass goes to the receiver's square (close control) or next to him
(wide control).
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .bonus import plan_roll
from .commands import HoldBall, Intercept, Kick
from .model import (Ask, Choice, Control, Flight, GoalPostCtx, GoalShotCtx, InterceptCtx, Modifier, Phase,
                    ReceiverCtx, RestartKind, SaveCtx, TakePassCtx)
from .pitch import dist, lofted_path, straight_path
from .resolve import CHOICES, RESOLVERS, player_option, resolved, roll_text
from .tx import Tx, refuse

SHOTS = "Shots"
PASSES = "Passes"
GOAL_SHOTS = "Goal Shots"
INTERCEPTION = "Pass Interception"
OFFSIDE = "Off-Side"
GOALIE = "Goalkeeper"

NO_OFFSIDE = frozenset((RestartKind.GOAL_KICK.value, RestartKind.THROW_IN.value, RestartKind.CORNER.value,
                        RestartKind.KICK_OFF.value))
NO_GOAL = frozenset((RestartKind.INDIRECT_FREE_KICK.value, RestartKind.THROW_IN.value, RestartKind.KICK_OFF.value))


# --- the kick command -------------------------------------------------------------------------------

def kick(tx: Tx, cmd: Kick) -> None:
    from .restarts import kick_off, restart_kick

    s = tx.state
    if cmd.player not in s.players:
        raise refuse(SHOTS, f"no player {cmd.player}")
    if s.phase is Phase.LINE_UP:
        kick_off(tx, cmd)
        return
    if s.phase is not Phase.SHOT:
        raise refuse(SHOTS, f"only in the shot phase may an attacker shoot; it is the {s.phase.label} phase")
    if s.queue:
        raise refuse(SHOTS, "finish the pending roll or choice first")
    if s.flight is not None:
        raise refuse(SHOTS, "the ball is still on its way: the defender calls interception attempts or lets it go")
    if cmd.player.team is not s.attacking:
        raise refuse(SHOTS, f"only an attacker can shoot; {s.attacking.label} attacks this turn")
    p = s.players[cmd.player]
    if not p.placed:
        raise refuse(SHOTS, f"{cmd.player} is not on the board; place the figure first")
    if s.phase_time_up:
        raise refuse("Time Limit", "the phase's time ran out: no more shots in this phase")
    if s.kicked:
        follower = flow.follow_up_player(s)
        if follower is None:
            raise refuse(SHOTS, "the shot phase's kick is used (multiple follow-ups are not allowed)")
        if cmd.player != follower:
            raise refuse(SHOTS, f"only the attacker in the target square, {follower}, may make the follow-up")
        launch(tx, cmd.player, s.ball.square, cmd.target, "follow_up", cmd.receiver, q.limits(s).max_follow_up)
        return
    if s.restart is not None:
        restart_kick(tx, cmd)
        return
    if s.holding is not None:
        drop_and_kick(tx, cmd)
        return
    ball = s.ball
    if cmd.drop is not None:
        raise refuse(GOALIE, "only a goalkeeper who held the ball for a turn drops it before his kick")
    if ball.holder == cmd.player:
        loose = ball.control is Control.LOOSE
        launch(tx, cmd.player, ball.square, cmd.target, "shot", cmd.receiver, q.limits(s).max_shot, loose=loose)
        return
    h = q.holder(s)
    if (h is not None and ball.control is Control.HANDS and h.ref.team is cmd.player.team
            and q.near(p.square, ball.square) and ball.square != h.square):
        # The goalkeeper lets an adjacent teammate kick the ball he caught next to him.
        launch(tx, cmd.player, ball.square, cmd.target, "shot", cmd.receiver, q.limits(s).max_shot, loose=True)
        return
    raise refuse(SHOTS, f"to shoot a ball the player must control it; {q.label(ball.holder, s)} has it")


def drop_and_kick(tx: Tx, cmd: Kick) -> None:
    """Rulebook: "In the next shot phase, he must drop the ball to an adjacent, free space
    and then kicks it, following the usual rules for shooting"; neither he nor the ball may
    leave the penalty area before the shot."""
    s = tx.state
    gk = s.players[s.holding]
    if cmd.player != s.holding:
        raise refuse(GOALIE, f"{s.holding} holds the ball: he drops it and kicks")
    if cmd.drop is None:
        raise refuse(GOALIE, "the goalkeeper must first drop the ball to a free square next to him: give drop")
    end = s.end_of(cmd.player.team)
    if not q.near(gk.square, cmd.drop) or cmd.drop == gk.square or q.occupant(s, cmd.drop) is not None:
        raise refuse(GOALIE, f"drop the ball to a free square next to {cmd.player}")
    if not q.in_penalty_area(s, end, cmd.drop):
        raise refuse(GOALIE, "the ball may not leave the penalty area before the goalkeeper's kick")
    flow.release_hold(tx)
    flow.set_ball(tx, cmd.drop, cmd.player, Control.LOOSE)
    launch(tx, cmd.player, cmd.drop, cmd.target, "shot", cmd.receiver, q.limits(s).max_shot, loose=True)


def launch(tx: Tx, kicker: PlayerRef, origin: Square, target: Square, kind: str, receiver: PlayerRef | None,
           limit: int, loose: bool = False, lofted_into: str | None = None) -> None:
    """Check a kick against the rules for shooting, then send the ball on its way."""
    s = tx.state
    pitch = q.pitch(s)
    section = PASSES if kind == "kick_off" else SHOTS
    if not pitch.on_board(target):
        raise refuse(SHOTS, f"target {target} is off the board: aim at a field square, a goal square, or the "
                            f"first square beyond a line")
    path = straight_path(origin, target)
    if path is None and lofted_into is not None:
        ends = pitch.ends[lofted_into]
        if ends.in_penalty_area(target) or target in ends.penalty_circle:
            path = lofted_path(origin, target)
    if path is None:
        raise refuse(SHOTS, f"a shot is always in a straight line, horizontally, vertically or diagonally; "
                            f"{target} is on no such line from {origin}")
    if len(path) > limit:
        raise refuse(section, f"this kick may carry up to {limit} squares; {target} is {len(path)} away")
    kicker_sq = s.players[kicker].square
    if loose and dist(target, origin) >= dist(target, kicker_sq):
        raise refuse(SHOTS, "from loose control the target square must be closer to the ball than to the "
                            "shooting player")
    goal_end = pitch.goal_end(target)
    if goal_end is not None:
        if goal_end != s.attacked_end(kicker.team):
            raise refuse(GOAL_SHOTS, "aim at the opponents' goal, not your own")
        if kind in NO_GOAL:
            what = {"indirect_free_kick": "an indirect free-kick may not target the goal",
                    "throw_in": "you cannot score a goal directly from a throw-in",
                    "kick_off": "the kick-off must be a pass to another player"}[kind]
            raise refuse(SHOTS, what)
    receiver = pick_receiver(s, kicker, target, receiver, kind)
    if kind == "kick_off" and receiver is None:
        raise refuse("Kick-Off", "the player kicking off must pass the ball to another player: aim at a teammate's "
                                 "square or a square next to him")
    no_touch = s.ball.no_touch
    if no_touch is not None and kicker == no_touch and kind in ("follow_up", "shot"):
        raise refuse("Restarts", f"{kicker} took the restart: he may only play the ball again after another player")
    tx.emit(ev.KickTaken(kicker, origin, target, path, kind, receiver))
    if kind not in NO_OFFSIDE and offside(tx, kicker, origin, target):
        return
    continue_flight(tx)


def pick_receiver(s, kicker: PlayerRef, target: Square, named: PlayerRef | None, kind: str) -> PlayerRef | None:
    """The teammate taking the pass: in the target square, or next to it (named when several)."""
    if q.pitch(s).goal_end(target) is not None:
        if named is not None:
            raise refuse(PASSES, "a goal shot has no receiver")
        return None
    occupant = q.occupant(s, target)
    if occupant is not None:
        if occupant.team is not kicker.team:
            if named is not None:
                raise refuse(PASSES, f"{target} holds {occupant}, an opponent")
            return None
        if named is not None and named != occupant:
            raise refuse(PASSES, f"{occupant} stands in the target square: he is the receiver")
        return occupant
    mates = sorted(p.ref for p in q.placed(s, kicker.team) if p.ref != kicker and q.near(p.square, target))
    if named is not None:
        if named not in mates:
            raise refuse(PASSES, f"{named} is not next to {target}: pass to his square or a square next to him")
        return named
    if len(mates) > 1:
        raise refuse(PASSES, f"several teammates stand next to {target} ({', '.join(map(str, mates))}): name the "
                             f"receiver")
    return mates[0] if mates else None


# --- off-side ------------------------------------------------------------------------------------

def offside_players(s, kicker: PlayerRef, origin: Square) -> list[PlayerRef]:
    """Attackers nearer the opponents' goal line than the ball with fewer than 2 opponents
    (the goalkeeper included) nearer still; never in their own half."""
    pitch = q.pitch(s)
    end = s.attacked_end(kicker.team)
    ball_depth = pitch.depth(origin, end)
    opponents = [pitch.depth(p.square, end) for p in q.placed(s, kicker.team.other)]
    out = []
    for p in q.placed(s, kicker.team):
        if p.ref == kicker or q.in_own_half(s, p.ref.team, p.square):
            continue
        depth = pitch.depth(p.square, end)
        if depth < ball_depth and sum(1 for d in opponents if d < depth) < 2:
            out.append(p.ref)
    return out


def offside(tx: Tx, kicker: PlayerRef, origin: Square, target: Square) -> bool:
    """Penalised only in the shot phase and only when the ball is passed in the general
    direction of the opponents' goal line: an indirect free-kick from the offender's square."""
    from .restarts import award

    s = tx.state
    if (target[0] - origin[0]) * q.forward(s, kicker.team) <= 0:
        return False
    if q.pitch(s).goal_end(target) is not None:
        return False  # a shot at goal is not a pass (assumptions, LV)
    offenders = offside_players(s, kicker, origin)
    if not offenders:
        return False
    end = s.attacked_end(kicker.team)
    worst = min(offenders, key=lambda r: (q.pitch(s).depth(s.players[r].square, end), r.number))
    square = s.players[worst].square
    tx.emit(ev.OffsideGiven(worst, square))
    award(tx, RestartKind.INDIRECT_FREE_KICK, kicker.team.other, f"off-side: {worst}", square)
    return True


# --- interception of a kick ----------------------------------------------------------------------------

def group_of(s, ref: PlayerRef) -> set[PlayerRef]:
    """The defenders standing together with ``ref`` (next to one another, in a chain)."""
    mates = {p.ref: p.square for p in q.placed(s, ref.team)}
    group, todo = {ref}, [ref]
    while todo:
        cur = todo.pop()
        for other, sq in mates.items():
            if other not in group and q.near(mates[cur], sq):
                group.add(other)
                todo.append(other)
    return group


def attempt_problem(s, f: Flight, ref: PlayerRef, index: int) -> str | None:
    """Why ``ref`` may not try to intercept at path square ``index`` (None: he may)."""
    p = s.players[ref]
    gk = p.goalkeeper
    if index >= len(f.path) - 1:
        return "the ball must be stopped before it arrives at the target square"
    if not q.near(p.square, f.path[index]):
        return f"{ref} is not in or next to {f.path[index]}"
    last = max((a.index for a in f.attempts), default=-1)
    if index < last:
        return f"the ball has passed {f.path[index]} already; attempts follow its path"
    if index == last and not gk:
        return f"an attempt was made in {f.path[index]} already (only the goalkeeper may try twice in one square)"
    own = sum(1 for a in f.attempts if a.player == ref)
    if own >= (2 if gk else 1):
        return f"{ref} has tried already on this kick"
    if not gk:
        group = group_of(s, ref)
        tried = [a.player for a in f.attempts if a.player in group and not s.players[a.player].goalkeeper]
        if tried:
            return f"{tried[0]} of the same group of players has tried already on this kick"
    return None


def can_intercept(s) -> bool:
    f = s.flight
    if f is None:
        return False
    for p in q.placed(s, f.kicker.team.other):
        for i in range(len(f.path) - 1):
            if attempt_problem(s, f, p.ref, i) is None:
                return True
    return False


def continue_flight(tx: Tx) -> None:
    """The ball moves on: the defender may still try, or it arrives."""
    if tx.state.phase_time_up or not can_intercept(tx.state):
        arrive(tx)


def intercept(tx: Tx, cmd: Intercept) -> None:
    s = tx.state
    f = s.flight
    if s.phase is not Phase.SHOT or f is None:
        raise refuse(INTERCEPTION, "there is no kick on its way to intercept")
    if s.queue:
        raise refuse(INTERCEPTION, "finish the pending roll or choice first")
    if s.phase_time_up:
        raise refuse("Time Limit", "the phase's time ran out: no more interception attempts")
    p = s.players.get(cmd.player)
    if p is None or cmd.player.team is f.kicker.team:
        raise refuse(INTERCEPTION, "only a defender may try to intercept")
    if not p.placed:
        raise refuse(INTERCEPTION, f"{cmd.player} is not on the board")
    if cmd.square not in f.path:
        raise refuse(INTERCEPTION, f"{cmd.square} is not on the ball's path {list(f.path)}")
    index = f.path.index(cmd.square)
    problem = attempt_problem(s, f, cmd.player, index)
    if problem:
        raise refuse(INTERCEPTION, problem)
    through = p.square == cmd.square
    m = q.tables(s).interception.modifiers
    mods = []
    gap = min(dist(cmd.square, f.origin), dist(cmd.square, f.target))
    if gap <= 1:
        mods.append(Modifier("next to the ball's origin or target", m.near))
    elif gap == 2:
        mods.append(Modifier("2 squares from origin or target", m.at_two))
    else:
        mods.append(Modifier("more than 2 squares from origin and target", m.beyond_two))
    if q.keeper_in_area(s, cmd.player, "penalty_area"):
        mods.append(Modifier("goalkeeper in his goal or penalty area", m.goalkeeper))
    tx.emit(ev.InterceptionCalled(cmd.player, cmd.square, index))
    needs = "3+" if through else "5+"
    label = (f"interception by {cmd.player} in {cmd.square} ({'through' if through else 'adjacent'}: needs {needs}; "
             f"an original 1 always fails)")
    plan = plan_roll(s, cmd.player.team, label, InterceptCtx(cmd.player, cmd.square, index, through), tuple(mods),
                     cmd.player, bonus_for=((cmd.player, 1),))
    flow.open_roll(tx, plan)


def resolve_intercept(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    s = tx.state
    ctx: InterceptCtx = ask.ctx
    ok = q.tables(s).interception.succeeds(ctx.through, original, modified)
    text = f"{q.label(ctx.player, s)} {roll_text(original, modified)}: "
    if not ok:
        why = "an original 1 always loses" if original in q.tables(s).interception.original_fails else "missed"
        resolved(tx, ask, original, modified, text + f"interception fails ({why})")
        continue_flight(tx)
        return
    resolved(tx, ask, original, modified, text + f"intercepted in {ctx.square}")
    p = s.players[ctx.player]
    end = s.end_of(ctx.player.team)
    if s.options.goalkeeper_save and p.goalkeeper and q.in_penalty_area(s, end, ctx.square):
        plan = plan_roll(s, ctx.player.team, f"goalkeeper's save by {ctx.player} (optional rule)",
                         SaveCtx(ctx.player, ctx.square), player=ctx.player)
        flow.open_roll(tx, plan, front=True)
        return
    take_interception(tx, ctx.player, ctx.square)


def take_interception(tx: Tx, ref: PlayerRef, square: Square) -> None:
    s = tx.state
    p = s.players[ref]
    end = s.end_of(ref.team)
    if p.goalkeeper and (q.in_penalty_area(s, end, p.square) or q.in_own_goal(s, ref, p.square)):
        control = Control.HANDS
    else:
        control = Control.CLOSE if p.square == square else Control.LOOSE
    flow.gain_possession(tx, ref, square, control, f"{ref} intercepted the ball")


def resolve_save(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    """Optional rule "Goalkeeper's Save" (its table is a placeholder: data)."""
    from .restarts import award, corner_for

    s = tx.state
    ctx: SaveCtx = ask.ctx
    result = q.tables(s).save.results[min(max(modified, 1), 6)]
    resolved(tx, ask, original, modified, f"goalkeeper's save {roll_text(original, modified)}: {result}")
    if result == "hold":
        take_interception(tx, ctx.player, ctx.square)
        return
    f = s.flight
    if result == "corner":
        kind, spot = corner_for(s, s.end_of(ctx.player.team), ctx.square)
        award(tx, kind, ctx.player.team.other, "the goalkeeper turned the ball round the post", spot)
        return
    # A parry: the ball drops back one square along its path, then the nearest take it.
    index = f.path.index(ctx.square)
    square = f.path[index - 1] if index > 0 else f.origin
    rebound(tx, square, f.kicker.team, "parried")


# --- the ball arrives ------------------------------------------------------------------------------

def pass_turn_in_flight(tx: Tx, team: Team) -> None:
    s = tx.state
    if team is s.flight.kicker.team:
        raise refuse(INTERCEPTION, "the defender decides now: call an interception attempt or let the ball go")
    tx.emit(ev.TurnPassed(team))
    arrive(tx)


def pass_turn_shot(tx: Tx, team: Team) -> None:
    """The attacker makes no kick (or no follow-up) in this shot phase."""
    s = tx.state
    if s.queue:
        raise refuse(SHOTS, "finish the pending roll or choice first")
    if s.flight is not None:
        pass_turn_in_flight(tx, team)
        return
    if team is not s.attacking:
        raise refuse(SHOTS, f"{s.attacking.label} decides in this shot phase")
    if s.restart is not None:
        raise refuse("Restarts", f"take the {s.restart.kind.label}")
    if s.holding is not None and s.hold_turn < s.turn_no:
        raise refuse(GOALIE, "the goalkeeper who held the ball must drop it and kick it in this shot phase")
    tx.emit(ev.TurnPassed(team))
    ball = s.ball
    if ball.control is Control.HANDS:  # he puts the ball down instead of kicking it
        h = ball.holder
        flow.set_ball(tx, ball.square, h, q.control_of(s, h, ball.square))
    flow.begin_movement(tx)


def arrive(tx: Tx) -> None:
    s = tx.state
    f = s.flight
    pitch = q.pitch(s)
    attackers = f.kicker.team
    target = f.target
    occupant = q.occupant(s, target)
    if occupant is not None and occupant.team is not attackers:
        p = s.players[occupant]
        end = s.end_of(occupant.team)
        control = Control.HANDS if p.goalkeeper and (q.in_penalty_area(s, end, target)
                                                     or q.in_own_goal(s, occupant, target)) else Control.CLOSE
        flow.gain_possession(tx, occupant, target, control, f"the ball went to {occupant}, a defender")
        return
    if pitch.goal_end(target) is not None:
        post = s.options.goal_posts and crosses_post(s, f)
        need = q.tables(s).goal_shot.needs(f.distance)
        label = f"goal shot by {f.kicker} from {f.distance} squares (hits on {need}+)"
        plan = plan_roll(s, attackers, label, GoalShotCtx(f.distance, post), player=f.kicker,
                         bonus_for=((f.kicker, 1),))
        flow.open_roll(tx, plan)
        return
    if not pitch.in_field(target):
        from .restarts import ball_out

        out = next(sq for sq in f.path if not pitch.in_field(sq))
        flow.end_flight(tx, "out of play")
        ball_out(tx, out, attackers, f"{f.kicker} kicked the ball out of play")
        return
    if f.receiver is not None:
        receive(tx, f.receiver)
        return
    flow.end_flight(tx, "landed")
    flow.set_ball(tx, target, last_team=attackers)


def receive(tx: Tx, ref: PlayerRef) -> None:
    s = tx.state
    f = s.flight
    if s.options.taking_a_pass:
        plan = plan_roll(s, ref.team, f"taking the pass: {ref}, 2d6 against the distance {f.distance}",
                         TakePassCtx(ref, f.distance), player=ref, dice=2)
        flow.open_roll(tx, plan)
        return
    control = q.control_of(s, ref, f.target)
    flow.end_flight(tx, "received")
    flow.set_ball(tx, f.target, ref, control)


def crosses_post(s, f: Flight) -> bool:
    """The shot's last step enters the goal diagonally across a goal-post edge."""
    goal = q.pitch(s).ends[q.pitch(s).goal_end(f.target)].goal
    rows = {sq[1] for sq in goal}
    prev = f.path[-2] if len(f.path) > 1 else f.origin
    return prev[1] != f.target[1] and prev[1] not in rows


def resolve_goal_shot(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    from .restarts import award, goal_kick

    s = tx.state
    f = s.flight
    ctx: GoalShotCtx = ask.ctx
    hit = q.tables(s).goal_shot.hits(ctx.distance, modified)
    if not hit:
        resolved(tx, ask, original, modified, f"goal shot from {ctx.distance} squares {roll_text(original, modified)}: "
                                              f"the ball went high, goal kick")
        kind, spot = goal_kick(s, f.kicker.team.other)
        award(tx, kind, f.kicker.team.other, "goal shot missed", spot)
        return
    if ctx.post:
        resolved(tx, ask, original, modified, f"goal shot {roll_text(original, modified)}: on target, across the "
                                              f"post's edge")
        plan = plan_roll(s, f.kicker.team, "goal post? (optional rule)", GoalPostCtx(), player=f.kicker)
        flow.open_roll(tx, plan, front=True)
        return
    resolved(tx, ask, original, modified, f"goal shot from {ctx.distance} squares {roll_text(original, modified)}: "
                                          f"GOAL")
    score_goal(tx, f.kicker.team, f.kicker)


def resolve_post(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    s = tx.state
    f = s.flight
    result = q.tables(s).goal_post.results[min(max(modified, 1), 6)]
    if result == "in":
        resolved(tx, ask, original, modified, f"goal post roll {original}: in off the post, GOAL")
        score_goal(tx, f.kicker.team, f.kicker)
        return
    resolved(tx, ask, original, modified, f"goal post roll {original}: the ball hits the post")
    back = f.path[-2] if len(f.path) > 1 else f.origin
    rebound(tx, back, f.kicker.team, "off the post")


def resolve_take_pass(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    """Optional rule "Taking a Pass": two dice against the distance (table: data)."""
    from .restarts import ball_out

    s = tx.state
    f = s.flight
    ctx: TakePassCtx = ask.ctx
    outcome = q.tables(s).taking_a_pass.outcome(modified, ctx.distance)
    if outcome == "taken":
        resolved(tx, ask, original, modified, f"{ctx.receiver} takes the pass ({modified} against {ctx.distance})")
        control = q.control_of(s, ctx.receiver, f.target)
        flow.end_flight(tx, "received")
        flow.set_ball(tx, f.target, ctx.receiver, control)
        return
    pitch = q.pitch(s)
    rsq = s.players[ctx.receiver].square
    # From his square when the ball's path crosses it, else from the first square next to him.
    start = rsq if rsq in f.path else next((sq for sq in f.path if q.near(sq, rsq)), f.target)
    prev = f.path[f.path.index(start) - 1] if f.path.index(start) > 0 else f.origin
    step = ((start[0] > prev[0]) - (start[0] < prev[0]), (start[1] > prev[1]) - (start[1] < prev[1]))
    square = start
    if outcome == "rebound":
        square = (start[0] + step[0], start[1] + step[1])
        while pitch.in_field(square) and q.occupant(s, square) is not None:
            square = (square[0] + step[0], square[1] + step[1])
        what = "bounces off him"
    else:
        k = max(1, ctx.distance - modified)
        square = (start[0] + k * step[0], start[1] + k * step[1])
        what = f"rolls on {k} square{'s' if k > 1 else ''}"
    resolved(tx, ask, original, modified, f"{ctx.receiver} misses the pass ({modified} against {ctx.distance}): "
                                          f"the ball {what}")
    if not pitch.in_field(square):
        out = square
        for k in range(1, 20):
            cand = (start[0] + k * step[0], start[1] + k * step[1])
            if not pitch.in_field(cand):
                out = cand
                break
        flow.end_flight(tx, "out of play")
        ball_out(tx, out, ctx.receiver.team, f"{ctx.receiver} could not take the pass")
        return
    rebound(tx, square, f.kicker.team, "a missed pass")


def rebound(tx: Tx, square: Square, attackers: Team, what: str) -> None:
    """A rebound: a player in the square gets close control at once; otherwise a player next
    to it gets control, an attacker first; otherwise the ball lies loose. Not a shot: it
    cannot be intercepted."""
    s = tx.state
    flow.end_flight(tx, what)
    occupant = q.occupant(s, square)
    if occupant is not None:
        take_rebound(tx, occupant, square)
        return
    near = [p.ref for p in q.placed(s) if q.near(p.square, square)]
    for side in (attackers, attackers.other):
        mine = sorted(r for r in near if r.team is side)
        if len(mine) == 1:
            take_rebound(tx, mine[0], square)
            return
        if len(mine) > 1:
            flow.set_ball(tx, square, last_team=attackers)
            flow.open_choice(tx, side, f"{side.label}: the ball rebounds to {square}, next to "
                                       f"{', '.join(map(str, mine))}: who takes it?", tuple(map(str, mine)),
                             ReceiverCtx(square))
            return
    flow.set_ball(tx, square, last_team=attackers)


def take_rebound(tx: Tx, ref: PlayerRef, square: Square) -> None:
    s = tx.state
    control = q.control_of(s, ref, square)
    if ref.team is not s.attacking:
        flow.gain_possession(tx, ref, square, control, f"{ref} got the rebound")
        return
    flow.set_ball(tx, square, ref, control)


def choose_receiver(tx: Tx, choice: Choice, option: str) -> None:
    take_rebound(tx, player_option(option), choice.ctx.square)


def score_goal(tx: Tx, team: Team, scorer: PlayerRef | None) -> None:
    from .restarts import award

    flow.end_flight(tx, "goal")
    tx.emit(ev.GoalScored(team, scorer))
    s = tx.state
    if s.period.extra and s.options.golden_goal:
        flow.drop_pending(tx, "golden goal")
        tx.emit(ev.PeriodEnded(s.period, "golden goal"))
        flow.finish_match(tx, "golden goal")
        return
    award(tx, RestartKind.KICK_OFF, team.other, f"goal by {team.label}", None)


# --- the goalkeeper's options after an interception --------------------------------------------------

def hold_ball(tx: Tx, cmd: HoldBall) -> None:
    """The goalie's "other and unique option": hold the ball for one turn."""
    s = tx.state
    ball = s.ball
    if s.phase is not Phase.SHOT or s.kicked or s.queue or s.flight is not None:
        raise refuse(GOALIE, "the goalkeeper decides to hold the ball at the start of the shot phase after his "
                             "interception")
    if ball.holder != cmd.player or ball.control is not Control.HANDS:
        raise refuse(GOALIE, "only a goalkeeper who just caught the ball (an interception) may hold it for a turn")
    p = s.players[cmd.player]
    if not q.in_penalty_area(s, s.end_of(cmd.player.team), p.square):
        raise refuse(GOALIE, "a goalkeeper holds the ball only inside his penalty area (step out of the goal first)")
    tx.emit(ev.GoalkeeperHeld(cmd.player))
    tx.emit(ev.HoldingSet(cmd.player, s.turn_no))
    flow.set_ball(tx, p.square, cmd.player, Control.CLOSE)
    flow.begin_movement(tx)


RESOLVERS[InterceptCtx] = resolve_intercept
RESOLVERS[SaveCtx] = resolve_save
RESOLVERS[GoalShotCtx] = resolve_goal_shot
RESOLVERS[GoalPostCtx] = resolve_post
RESOLVERS[TakePassCtx] = resolve_take_pass
CHOICES[ReceiverCtx] = choose_receiver
