"""Phase 1 (Declaration, MP gain) and Phase 2 (Outcome) of a regular round.

The ball carrier declares one action; both coaches earn MP from their own tactical
boards by the declared action (never by its outcome), the attacking coach only when the
declared distance reaches the bar's minimum pace for short pass, keep and run and speed
dribbling. The action's skill test (with the board's Outcome boost) decides it.
"""

from __future__ import annotations

from ..board import Square, grid_distance
from ..teams import PlayerRef
from . import events as ev
from . import flow
from . import queries as q
from .commands import CallDeflection, Declare
from .components import Action, Skill
from .model import (ActionCtx, Ball, Contest, Declaration, EngagementResponseCtx, Flight, Modifier, Phase,
                    RestartKind, RoundKind)
from .fouls import foul
from .resolve import challenge, close, open_scatter, verdict
from .restarts import blockers, check_square, kicker_off_the_spot, penalty_spot, place_the_kicker
from .shots import check_shot, open_penalty, resolve_shot
from .tx import Tx, refuse

DECLARATION = "Phase 1: Declaration"
PASS = "Pass"
SHOT = "Shot on Goal"

PASS_RANGE = {Action.SHORT_PASS: (1, 6), Action.LONG_PASS: (7, 12)}
GOAL_KICK_MAX = 15
RESTART_ACTIONS = {
    RestartKind.FREE_KICK: (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS, Action.LONG_SHOT),
    RestartKind.CORNER: (Action.CROSS, Action.SHORT_PASS, Action.LONG_PASS, Action.LONG_SHOT),
    RestartKind.GOAL_KICK: (Action.SHORT_PASS, Action.LONG_PASS),
    RestartKind.THROW_IN: (Action.SHORT_PASS,),
    RestartKind.PENALTY: (Action.FINALIZATION,),
}


def reconcile(measured: int | None, given: int | None, unit: str, section: str) -> int:
    """A distance from the figures' positions, or from the coach when positions are unknown."""
    if measured is not None:
        if given is not None and given != measured:
            raise refuse(section, f"the figures' positions give {measured} {unit}, not {given}; correct the "
                                  f"positions or leave the distance out")
        return measured
    if given is None:
        raise refuse(section, f"the positions are not known: give the distance in {unit}")
    if given < 0:
        raise refuse(section, f"a distance cannot be negative ({given})")
    return given


def declare(tx: Tx, cmd: Declare) -> None:
    s = tx.state
    restart = None
    if s.phase is Phase.RESTART and s.restart is not None:
        r = s.restart
        if kicker_off_the_spot(s, r) and cmd.player == r.taker:
            ms = s.players[r.taker].ms
            spot = penalty_spot(s, r)
            away = min(grid_distance(ms, sq) for sq in spot)
            also = [text for _, text in blockers(s) if text != place_the_kicker(r)]
            raise refuse("Penalty Kicks", f"the kicker places himself in one of the two MS close to the penalty spot "
                                          f"({' or '.join(map(str, spot))}); {q.label(r.taker, s)} stands at {ms}, "
                                          f"{away} MS from it: move him there first"
                                          + "".join(f"; also {text}" for text in also))
        waiting = blockers(s)
        if waiting:
            raise refuse("Tactical Positioning Rules", "the restart is not ready: " + "; ".join(t for _, t in waiting))
        restart = s.restart
        allowed = RESTART_ACTIONS[restart.kind]
        if cmd.action not in allowed:
            raise refuse("Throw-ins, Corner Kicks and Goal Kicks" if restart.kind is not RestartKind.FREE_KICK
                         else "Free Kicks", f"a {restart.kind.label} is taken as "
                         f"{' or '.join(a.label.lower() for a in allowed)}, not {cmd.action.label.lower()}")
    elif s.phase is not Phase.DECLARATION:
        raise refuse(DECLARATION, f"actions are declared in the Declaration phase; it is the {s.phase.label} phase")
    carrier = s.ball.carrier
    if cmd.player != carrier:
        holder = q.label(carrier, s) if carrier else "nobody"
        raise refuse(DECLARATION, f"only the player in ball possession declares; {holder} has the ball")
    p = s.players[cmd.player]
    team = cmd.player.team
    b = q.board(s)
    start_ms = p.ms
    start_ps = b.ms_to_ps(p.ms) if p.ms is not None else None
    if restart is not None and restart.spot_ps is not None:
        # A set piece starts where the ball was placed, wherever the taker's figure stands.
        start_ms, start_ps = restart.spot_ms, restart.spot_ps
    attacked = q.attacked_end(s, team)
    action = cmd.action
    target_ps, target_ms, shot = cmd.target_ps, cmd.target_ms, None
    penalty_kick = restart is not None and restart.kind is RestartKind.PENALTY

    if action.is_pass:
        if target_ps is None:
            raise refuse(PASS, "name the PS the ball is passed to")
        if not b.is_ps(target_ps):
            raise refuse(PASS, f"PS {target_ps} is off the board")
        measured = grid_distance(start_ps, target_ps) if start_ps is not None else None
        distance = reconcile(measured, cmd.distance, "PS", PASS)
        if action is Action.CROSS:
            if start_ps is not None and not q.ps_in(s, "cross_area", attacked, start_ps):
                raise refuse("Cross", f"a cross starts from the cross area; {cmd.player} is in PS {start_ps}")
            if not q.ps_in(s, "penalty_area", attacked, target_ps):
                raise refuse("Cross", f"a cross ends inside the penalty area; PS {target_ps} is outside it")
        else:
            low, high = PASS_RANGE[action]
            if action is Action.LONG_PASS and restart is not None and restart.kind is RestartKind.GOAL_KICK:
                high = GOAL_KICK_MAX
            if not low <= distance <= high:
                raise refuse(PASS, f"a {action.label.lower()} travels {low} to {high} PS; this one is {distance}")
    elif action.is_shot:
        if start_ps is not None and not q.ps_in(s, "half", attacked, start_ps) and not penalty_kick:
            raise refuse(SHOT, "a player shoots on goal only from the opponents' half")
        in_box = q.ps_in(s, "penalty_area", attacked, start_ps)
        if start_ps is not None and not penalty_kick:
            if action is Action.FINALIZATION and not in_box:
                raise refuse("Phase 1: Declaration", "finalization is a shot from inside the penalty area; "
                                                     "declare a long shot")
            if action is Action.LONG_SHOT and in_box:
                raise refuse("Phase 1: Declaration", "a long shot is taken from outside the penalty area; "
                                                     "declare finalization")
        shot = check_shot(s, cmd, start_ps, attacked, penalty_kick)
        goal_line = b.area_squares(f"goal_line_{attacked}")
        if target_ps is None:
            target_ps = shot.trajectory[-1] if shot.trajectory else goal_line[0]
        if target_ps not in goal_line:
            raise refuse(SHOT, f"a shot ends in one of the goal-line PS {', '.join(map(str, goal_line))}")
        distance = 1
    else:
        if target_ms is None:
            raise refuse(DECLARATION, f"name the MS {cmd.player} runs to")
        check_square(s, cmd.player, target_ms)
        measured = q.move_cost(s, p, target_ms)
        distance = reconcile(measured, cmd.distance, "MS", DECLARATION)
        if distance > p.speed:
            raise refuse(DECLARATION, f"{q.label(cmd.player, s)} runs at most his speed, {p.speed} MS; this run is "
                                      f"{distance}")
        if action is Action.SPEED_DRIBBLING:
            if not cmd.opponents:
                raise refuse("Speed Dribbling", "name the opponents challenged on the way")
            for opp in cmd.opponents:
                o = s.players.get(opp)
                if o is None or opp.team is team or not o.on_pitch or o.injured:
                    raise refuse("Speed Dribbling", f"{opp} is not an opponent on the pitch")
    keeper = q.goalkeeper(s, team.other) if shot is not None else None
    decl = Declaration(team=team, player=cmd.player, action=action, distance=distance, start_ms=start_ms,
                       start_ps=start_ps, target_ps=target_ps, target_ms=target_ms, shot=shot,
                       opponents=cmd.opponents, wall=restart.wall if restart else (),
                       restart=restart.kind if restart else None, penalty_kick=penalty_kick,
                       gk_ms=keeper.ms if keeper is not None else None)

    if restart is not None:
        flow.start_phase(tx, Phase.DECLARATION, s.round + 1, RoundKind.REGULAR, team)
    tx.emit(ev.ActionDeclared(decl))
    if not penalty_kick:
        earn_mp(tx, decl)
    flow.start_phase(tx, Phase.OUTCOME)
    open_outcome(tx, decl)


def earn_mp(tx: Tx, decl: Declaration) -> None:
    s = tx.state
    bar = s.components.pace_bar
    for team, column in ((decl.team, "attack"), (decl.team.other, "defence")):
        board = q.tactical_board(s, team)
        if board is None:
            continue
        gain = getattr(board.mp[decl.action], column)
        reason = f"{decl.action.label} declared ({board.name}, {column.upper()[:3]})"
        minimum = bar.min_pace_for_mp.get(decl.action)
        if column == "attack" and minimum is not None and decl.distance < minimum:
            gain, reason = 0, f"{decl.action.label} of {decl.distance} is under the minimum pace {minimum}: no MP"
        if gain:
            flow.change_mp(tx, team, gain, reason)
        elif column == "attack" and minimum is not None:
            flow.change_mp(tx, team, 0, reason)


def open_outcome(tx: Tx, decl: Declaration) -> None:
    s = tx.state
    if decl.penalty_kick:
        open_penalty(tx)
        return
    if decl.action.is_pass:
        test = q.skill_test(s, decl.player, decl.action.skill, decl.action.label, "outcome")
        flow.open_contest(tx, (test,), ActionCtx())
    elif decl.action.is_shot:
        shot = decl.shot
        mods = (Modifier("shot-on-goal tokens", -sum(shot.tokens)), Modifier("save attempt token", -shot.save_token))
        test = q.skill_test(s, decl.player, decl.action.skill, decl.action.label, "outcome", mods)
        flow.open_contest(tx, (test,), ActionCtx())
    elif decl.action is Action.KEEP_AND_RUN:
        run_to(tx, decl.player, decl.target_ms, "keeps the ball and runs")
    else:
        ask_engagement(tx, decl.opponents[0])


def run_to(tx: Tx, ref: PlayerRef, ms: Square | None, reason: str) -> None:
    p = tx.state.players[ref]
    if ms is not None and ms != p.ms:
        tx.emit(ev.PlayerRelocated(ref, ms, p.where, reason))
    flow.exhaust(tx, ref)


# --- deflection of a pass or cross -----------------------------------------------------------

def call_deflection(tx: Tx, cmd: CallDeflection) -> None:
    s = tx.state
    d = s.declaration
    section = "Deflection of a Pass or Shot"
    if s.phase is not Phase.OUTCOME or d is None or not d.action.is_pass:
        raise refuse(section, "a pass or cross can be deflected right after its declaration; for a shot, answer "
                              "the deflection question after the shot's test")
    contest = next((c for c in s.queue if isinstance(c, Contest) and isinstance(c.ctx, ActionCtx)), None)
    if contest is None or contest.tests[0].result is not None:
        raise refuse(section, "too late: the pass has been rolled")
    o = s.players.get(cmd.defender)
    if o is None or cmd.defender.team is d.team or not o.on_pitch or o.injured:
        raise refuse(section, f"{cmd.defender} is not a defending player on the pitch")
    if cmd.defender in d.deflectors:
        raise refuse(section, f"{cmd.defender} is already trying to deflect")
    passer = s.players[d.player]
    if o.ms is not None and passer.ms is not None:
        if abs(o.ms[0] - passer.ms[0]) + abs(o.ms[1] - passer.ms[1]) != 1:
            raise refuse(section, f"only a defender orthogonally adjacent to {d.player} can deflect")
    test = q.skill_test(s, cmd.defender, Skill.SLIDING_TACKLE, "Sliding Tackle (deflection)", "outcome")
    tx.emit(ev.DeflectionCalled(cmd.defender, test))


# --- outcome of the declared action ----------------------------------------------------------

def resolve_action(tx: Tx, contest: Contest) -> None:
    d = tx.state.declaration
    if d.action.is_pass:
        resolve_pass(tx, contest)
    elif d.action.is_shot:
        resolve_shot(tx, contest)
    else:
        resolve_speed_dribble(tx, contest)


def resolve_pass(tx: Tx, contest: Contest) -> None:
    s = tx.state
    d = s.declaration
    attacker = contest.tests[0]
    long_ball = d.action in (Action.LONG_PASS, Action.CROSS)
    spread = 2 if long_ball else 1
    lines = [verdict(s, attacker)]
    for _i, t in enumerate(contest.tests[1:], start=1):
        outcome = challenge(attacker, t)
        if outcome == "tie":
            flow.reopen(tx, contest, "; ".join(lines + [verdict(s, t), "tie: both roll again"]))
            return
        if outcome == "b":
            close(tx, contest, "; ".join(lines + [verdict(s, t), f"{t.player} deflects the ball"]))
            open_scatter(tx, q.ps_of(s, t.player), spread, "deflection", t.player.team)
            return
        lines.append(verdict(s, t) + f"; deflection fails, {t.player} is stunned")
        flow.stun(tx, t.player)
    if attacker.success:
        close(tx, contest, "; ".join(lines + [f"the ball reaches PS {d.target_ps}"]))
        flight = Flight.HIGH if long_ball else Flight.SHORT
        tx.emit(ev.BallSet(Ball(ps=d.target_ps, flight=flight, last_touch=d.team)))
        for ref in q.players_in_ps(tx.state, d.target_ps, d.team):
            flow.exhaust(tx, ref)  # receiving a pass in his PS exhausts a player
    else:
        close(tx, contest, "; ".join(lines + ["the pass goes astray"]))
        tx.emit(ev.BallSet(Ball(ps=d.target_ps, flight=Flight.LOOSE, last_touch=d.team)))
        open_scatter(tx, d.target_ps, spread, "pass", d.team)


# --- speed dribbling -----------------------------------------------------------------------------

def ask_engagement(tx: Tx, opponent: PlayerRef) -> None:
    s = tx.state
    d = s.declaration
    flow.open_choice(tx, opponent.team, f"{q.label(d.player, s)} speed-dribbles at {q.label(opponent, s)}: accept "
                                        f"the engagement (tackle or sliding tackle) or let him go",
                     ("tackle", "sliding_tackle", "decline"), EngagementResponseCtx(), player=opponent)


def on_engagement_response(tx: Tx, choice, option: str) -> None:
    s = tx.state
    d = s.declaration
    defender = choice.player
    if option == "decline":
        next_opponent(tx, defender)
        return
    skill = Skill(option)
    attacker = q.skill_test(s, d.player, Skill.SPEED_DRIBBLING, "Speed Dribbling", "outcome")
    test = q.skill_test(s, defender, skill, f"{skill.label} (speed dribbling)", "outcome")
    flow.open_contest(tx, (attacker, test), ActionCtx(defenders=(defender,)), front=True)


def next_opponent(tx: Tx, done: PlayerRef) -> None:
    d = tx.state.declaration
    rest = d.opponents[d.opponents.index(done) + 1:]
    if rest:
        ask_engagement(tx, rest[0])
    else:
        run_to(tx, d.player, d.target_ms, "dribbles through to the declared MS")


def resolve_speed_dribble(tx: Tx, contest: Contest) -> None:
    """Whoever loses is stunned, even after a good test. The attacker who wins runs on; the
    one who loses stops next to the defender, who takes the ball; if both fail the ball is
    deflected 1 PS and both are stunned. A failed test against a good one is the failer's
    foul, as in every physical challenge (Referee's Calls; assumptions F20): the fouled
    coach chooses the advantage (the attacker runs on, or the defender has the ball) or
    the free kick from the fouled player's MS, next to the defender."""
    s = tx.state
    d = s.declaration
    a, t = contest.tests
    defender = t.player
    outcome = challenge(a, t)
    text = f"{verdict(s, a)}; {verdict(s, t)}"
    if outcome == "tie":
        flow.reopen(tx, contest, text + "; tie: both roll again")
        return
    stop = beside(s, defender, d.player)
    if outcome == "a":
        if not t.success:
            close(tx, contest, text + f"; {defender} fouls {d.player} and is stunned")
            run_to(tx, d.player, stop, "fouled next to the defender")
            flow.stun(tx, defender)
            foul(tx, defender, t, d.player, "dribble_on")
            return
        close(tx, contest, text + f"; {d.player} gets past, {defender} is stunned")
        flow.stun(tx, defender)
        next_opponent(tx, defender)
        return
    if outcome == "b":
        run_to(tx, d.player, stop, "stopped next to the defender")
        flow.stun(tx, d.player)
        if not a.success:
            close(tx, contest, text + f"; {d.player} fouls {defender} and is stunned")
            foul(tx, d.player, a, defender, "ball_to_fouled")
            return
        close(tx, contest, text + f"; {defender} wins the ball, {d.player} is stunned")
        tx.emit(ev.BallSet(Ball(carrier=defender, last_touch=defender.team)))
        return
    close(tx, contest, text + "; both fail: the ball is deflected 1 PS, both are stunned")
    run_to(tx, d.player, stop, "stopped next to the defender")
    flow.stun(tx, d.player)
    flow.stun(tx, defender)
    tx.emit(ev.BallSet(Ball(ps=q.ps_of(tx.state, defender), flight=Flight.LOOSE, last_touch=d.team)))
    open_scatter(tx, q.ps_of(tx.state, defender), 1, "deflection", d.team if a.result >= t.result else defender.team)


def beside(s, defender: PlayerRef, runner: PlayerRef) -> Square | None:
    """The free MS next to the defender nearest to where the runner came from."""
    dp, rp = s.players[defender], s.players[runner]
    if dp.ms is None:
        return rp.ms
    b = q.board(s)
    around = [(dp.ms[0] + i, dp.ms[1] + j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0)]
    free = [c for c in around if b.is_ms(c) and q.occupant(s, c, ignore=(runner,)) is None]
    if not free:
        return rp.ms
    origin = rp.ms or dp.ms
    return min(free, key=lambda c: (grid_distance(origin, c), c))
