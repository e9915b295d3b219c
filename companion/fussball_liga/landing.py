"""Where a kick ends: a teammate takes the pass, a defender gets the ball, it lies loose, it
goes out of play, or it reaches the goal (the goal-shot roll, the optional goal posts). Also
the optional "Taking a Pass" roll and the rebound rule shared by posts, parries and missed
passes.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .bonus import plan_roll
from .model import Ask, Choice, Control, Flight, GoalPostCtx, GoalShotCtx, ReceiverCtx, RestartKind, TakePassCtx
from .resolve import player_option, resolved, roll_text
from .stoppages import award, ball_out, corner_for, goal_kick
from .tx import Tx

GOAL_SHOTS = "Goal Shots"


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
    if pitch.goal_end(target) is not None and f.receiver is not None:
        receive(tx, f.receiver)   # a back-pass to the goalkeeper standing in his goal (LV19)
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
    s = tx.state
    f = s.flight
    ctx: GoalShotCtx = ask.ctx
    hit = q.tables(s).goal_shot.hits(ctx.distance, modified)
    own = own_goal(s, f)
    if not hit and own is not None:
        # Over his own goal line: "the opposing side gets a corner-kick".
        resolved(tx, ask, original, modified, f"shot at his own goal {roll_text(original, modified)}: the ball went "
                                              f"high, corner-kick")
        kind, spot = corner_for(s, own, f.target)
        award(tx, kind, f.kicker.team.other, "shot over his own goal", spot)
        return
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
                                          + ("OWN GOAL" if own is not None else "GOAL"))
    score_shot(tx, f)


def own_goal(s, f: Flight) -> str | None:
    """The end of the kicker's own goal when he shot at it, else None."""
    end = q.pitch(s).goal_end(f.target)
    return end if end is not None and end != s.attacked_end(f.kicker.team) else None


def score_shot(tx: Tx, f: Flight) -> None:
    """A goal for the kicker's side, or for the other side when he shot at his own goal."""
    if own_goal(tx.state, f) is not None:
        score_goal(tx, f.kicker.team.other, None)
    else:
        score_goal(tx, f.kicker.team, f.kicker)


def resolve_post(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    s = tx.state
    f = s.flight
    result = q.tables(s).goal_post.results[min(max(modified, 1), 6)]
    if result == "in":
        resolved(tx, ask, original, modified, f"goal post roll {original}: in off the post, GOAL")
        score_shot(tx, f)
        return
    resolved(tx, ask, original, modified, f"goal post roll {original}: the ball hits the post")
    back = f.path[-2] if len(f.path) > 1 else f.origin
    rebound(tx, back, f.kicker.team, "off the post")


def resolve_take_pass(tx: Tx, ask: Ask, original: int, modified: int) -> None:
    """Optional rule "Taking a Pass": two dice against the distance (table: data)."""

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
    flow.end_flight(tx, "goal")
    tx.emit(ev.GoalScored(team, scorer))
    s = tx.state
    if s.period.extra and s.options.golden_goal:
        flow.drop_pending(tx, "golden goal")
        tx.emit(ev.PeriodEnded(s.period, "golden goal"))
        flow.finish_match(tx, "golden goal")
        return
    award(tx, RestartKind.KICK_OFF, team.other, f"goal by {team.label}", None)
