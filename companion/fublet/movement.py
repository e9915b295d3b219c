"""Phase 3 (Movement, MP use), Phase 5 (Tactical movement), offside, and figure placement.

Coaches move alternately. Single movement: one ready player, at most the round pace (big
number) and his speed, for the board's MP. Zone movement: players of one zone, at most the
small number each (free in transition rounds). A moved player is exhausted for the round.
Backward moves cost 2 more MS; at round pace 2 or lower a player cannot run backwards.
Tactical movement: single movements only, each needing a tactical perception test; the MP
are spent whether or not it succeeds.
"""

from __future__ import annotations

from ..board import Square
from ..commands import PlaceFigure
from ..teams import Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import CallOffside, Move, PassTurn, ReachBall, TacticalMove, ZoneMove
from .components import Skill
from .event_phase import end_of_movement
from .model import (Contest, Flight, OffsideCtx, OffsideEscapeCtx, Phase, PlayerState, RestartKind, RoundKind,
                    Status, TacticalMoveCtx, Where)
from .resolve import challenge, close, verdict
from .restarts import award, check_square, pass_step, positioning_move
from .tx import Tx, refuse

MOVEMENT = "Phase 3: Movement"
TACTICAL = "Phase 5: Tactical Movement"
OFFSIDE = "Offside"


def check_turn(s, team: Team, section: str) -> None:
    if s.queue:
        raise refuse(section, "finish the pending test or choice first")
    if s.turn is not None and s.turn is not team:
        raise refuse(section, f"coaches move alternately: it is {s.turn.label}'s turn (or {s.turn.label} passes)")


def check_mover(s, p: PlayerState, section: str) -> None:
    ref = p.ref
    if not p.on_pitch:
        raise refuse(section, f"{ref} is not on the pitch")
    if p.injured:
        raise refuse("Injuries", f"{ref} is injured and waits to be substituted")
    if p.status is Status.STUNNED:
        raise refuse("Stun", f"{ref} is stunned and cannot move until the end of round {p.stunned_until}")
    if p.status is Status.EXHAUSTED:
        raise refuse("Ready and Exhausted Players", f"{ref} is exhausted: he already moved (or received the ball) "
                                                   f"this round")
    if s.ball.carrier == ref:
        raise refuse(section, f"{ref} has the ball; the ball carrier moves only by a declared action")


def check_distance(s, p: PlayerState, to: Square, limit: int, what: str, section: str) -> int | None:
    if q.is_backward(p, to) and s.pace <= 2:
        raise refuse("Backwards Movement", f"with round pace {s.pace} a player cannot run backwards, only turn on "
                                           f"the spot")
    cost = q.move_cost(s, p, to)
    if cost is not None and cost > limit:
        extra = " (including 2 for running backwards)" if q.is_backward(p, to) else ""
        raise refuse(section, f"{p.ref} would cover {cost} MS{extra}; the limit is {limit} ({what})")
    return cost


def pay(tx: Tx, team: Team, cost: int, what: str, section: str) -> None:
    have = tx.state.mp[team]
    if cost > have:
        raise refuse("Movement Points", f"{what} costs {cost} MP and {team.label} has {have}")
    if cost:
        flow.change_mp(tx, team, -cost, what)


def cost_of(s, team: Team, kind: str) -> int:
    board = q.tactical_board(s, team)
    return getattr(board.costs, kind) if board is not None else 0


# --- single movement ---------------------------------------------------------------------------

def move(tx: Tx, cmd: Move) -> None:
    s = tx.state
    if cmd.player not in s.players:
        raise refuse(MOVEMENT, f"no player {cmd.player}")
    if s.phase is Phase.RESTART or s.phase is Phase.KICK_OFF:
        positioning_move(tx, cmd)
        return
    if s.phase is Phase.TACTICAL_MOVEMENT:
        raise refuse(TACTICAL, "in the Tactical movement phase each move needs a tactical perception test: "
                               "use a tactical move")
    if s.phase is not Phase.MOVEMENT:
        raise refuse(MOVEMENT, f"players move in the Movement phase; it is the {s.phase.label} phase")
    if s.round_kind is RoundKind.TRANSITION:
        raise refuse("Transition Round", "in a transition round players move only by zone movements")
    team = cmd.player.team
    check_turn(s, team, MOVEMENT)
    p = s.players[cmd.player]
    check_mover(s, p, MOVEMENT)
    check_square(s, cmd.player, cmd.to)
    limit = min(s.pace, p.speed)
    cost = check_distance(s, p, cmd.to, limit, f"round pace {s.pace}, speed {p.speed}", MOVEMENT)
    tackle = ""
    if cmd.engage:
        tackle = check_engagement(s, p, cmd.to, cost, limit, cmd.tackle)
    tx.emit(ev.PlayerMoved(cmd.player, cmd.to, cmd.facing, cost, cmd.engage, tackle))
    pay(tx, team, cost_of(s, team, "single"), f"single movement of {cmd.player}", MOVEMENT)


def check_engagement(s, p: PlayerState, to: Square, cost: int | None, limit: int, tackle: str) -> str:
    """An engagement: reach one of the 8 MS around the ball carrier with at least 1 movement
    to spare. Orthogonal: tackle or sliding tackle; diagonal: sliding tackle only. A
    goalkeeper in his penalty area rushes out, from any of the 8."""
    section = "Engagement"
    carrier = s.ball.carrier
    if carrier is None or carrier.team is p.ref.team:
        raise refuse(section, "engage the opposing ball carrier; nobody on the other side has the ball")
    c = s.players[carrier]
    if cost is not None and cost + 1 > limit:
        raise refuse(section, f"an engaging player needs at least 1 movement left; {p.ref} uses {cost} of {limit}")
    diagonal = False
    if c.ms is not None:
        dx, dy = abs(to[0] - c.ms[0]), abs(to[1] - c.ms[1])
        if max(dx, dy) != 1:
            raise refuse(section, f"MS {to} is not one of the 8 MS around {carrier}")
        diagonal = dx == 1 and dy == 1
    if p.goalkeeper and q.ms_in(s, "penalty_area", q.own_end(s, p.ref.team), to):
        return Skill.RUSH_OUT.value
    tackle = tackle or (Skill.SLIDING_TACKLE.value if diagonal else Skill.TACKLE.value)
    if tackle not in (Skill.TACKLE.value, Skill.SLIDING_TACKLE.value):
        raise refuse(section, f"engage with a tackle or a sliding tackle, not {tackle!r}")
    if diagonal and tackle != Skill.SLIDING_TACKLE.value:
        raise refuse(section, "from a diagonal MS only a sliding tackle is allowed")
    return tackle


# --- zone movement -------------------------------------------------------------------------------

def zone_move(tx: Tx, cmd: ZoneMove) -> None:
    s = tx.state
    if s.phase is not Phase.MOVEMENT:
        raise refuse(MOVEMENT, f"zone movements happen in the Movement phase; it is the {s.phase.label} phase")
    if s.round_kind is RoundKind.TRANSITION and s.pace == 0:
        raise refuse("Transition Round", "first say who reaches the loose ball")
    check_turn(s, cmd.team, MOVEMENT)
    if not cmd.moves:
        raise refuse(MOVEMENT, "a zone movement moves at least one player")
    movers = [ref for ref, _ in cmd.moves]
    if len(set(movers)) != len(movers) or len({to for _, to in cmd.moves}) != len(cmd.moves):
        raise refuse(MOVEMENT, "each player and each target MS appears once in a zone movement")
    for ref, to in cmd.moves:
        p = s.players.get(ref)
        if p is None or ref.team is not cmd.team:
            raise refuse(MOVEMENT, f"{ref} is not one of {cmd.team.label}'s players")
        check_mover(s, p, MOVEMENT)
        if p.ms is not None and q.zone_of(s, cmd.team, p.ms) is not cmd.zone:
            raise refuse(MOVEMENT, f"{ref} is in the {q.zone_of(s, cmd.team, p.ms).value} zone, not the "
                                   f"{cmd.zone.value} zone")
        check_square(s, ref, to, ignore=tuple(movers))
        check_distance(s, p, to, min(s.zone_pace, p.speed), f"zone pace {s.zone_pace}, speed {p.speed}", MOVEMENT)
    _check_ps_limits(s, cmd.team, cmd.moves)
    tx.emit(ev.ZoneMoved(cmd.team, cmd.zone.value, cmd.moves))
    if s.round_kind is not RoundKind.TRANSITION:
        pay(tx, cmd.team, cost_of(s, cmd.team, "zone"), f"zone movement ({cmd.zone.value})", MOVEMENT)


def _check_ps_limits(s, team: Team, moves) -> None:
    b = q.board(s)
    moved = {ref: to for ref, to in moves}
    counts: dict[Square, int] = {}
    for p in q.on_pitch(s, team):
        ms = moved.get(p.ref, p.ms)
        if ms is not None:
            ps = b.ms_to_ps(ms)
            counts[ps] = counts.get(ps, 0) + 1
            if counts[ps] > 2:
                raise refuse("Ball and Player Movements", f"PS {ps} would hold three {team.label} players; no "
                                                          f"more than two per team are allowed inside a PS")


# --- passing the turn ----------------------------------------------------------------------------

def pass_turn(tx: Tx, cmd: PassTurn) -> None:
    s = tx.state
    if s.phase is Phase.RESTART:
        pass_step(tx, cmd)
        return
    if s.phase not in (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT):
        raise refuse(MOVEMENT, f"there is no movement to pass in the {s.phase.label} phase")
    if s.round_kind is RoundKind.TRANSITION and s.pace == 0:
        raise refuse("Transition Round", "first say who reaches the loose ball")
    check_turn(s, cmd.team, MOVEMENT if s.phase is Phase.MOVEMENT else TACTICAL)
    tx.emit(ev.TurnPassed(cmd.team))
    if tx.state.passes >= 2:
        end_of_movement(tx)


# --- tactical movement ---------------------------------------------------------------------------

def tactical_move(tx: Tx, cmd: TacticalMove) -> None:
    s = tx.state
    if s.phase is not Phase.TACTICAL_MOVEMENT:
        raise refuse(TACTICAL, f"tactical movements happen in the Tactical movement phase; it is the "
                               f"{s.phase.label} phase")
    if cmd.player not in s.players:
        raise refuse(TACTICAL, f"no player {cmd.player}")
    team = cmd.player.team
    check_turn(s, team, TACTICAL)
    p = s.players[cmd.player]
    check_mover(s, p, TACTICAL)
    check_square(s, cmd.player, cmd.to)
    check_distance(s, p, cmd.to, min(s.pace, p.speed), f"round pace {s.pace}, speed {p.speed}", TACTICAL)
    tx.emit(ev.TacticalMoveAttempted(cmd.player, cmd.to, cmd.facing))
    pay(tx, team, cost_of(s, team, "tactical"), f"tactical movement of {cmd.player}", TACTICAL)
    test = q.skill_test(tx.state, cmd.player, Skill.TACTICAL_PERCEPTION, "Tactical Perception (tactical movement)")
    flow.open_contest(tx, (test,), TacticalMoveCtx(to=cmd.to, facing=cmd.facing))


def resolve_tactical_move(tx: Tx, contest: Contest) -> None:
    s = tx.state
    t = contest.tests[0]
    ctx: TacticalMoveCtx = contest.ctx
    if t.success and q.occupant(s, ctx.to, ignore=(t.player,)) is None:
        close(tx, contest, verdict(s, t) + f"; {t.player} moves to MS {ctx.to}")
        tx.emit(ev.PlayerRelocated(t.player, ctx.to, Where.PITCH, "tactical movement", ctx.facing))
    else:
        close(tx, contest, verdict(s, t) + f"; {t.player} stays (MP spent anyway)")
    flow.exhaust(tx, t.player)


# --- offside -------------------------------------------------------------------------------------

def call_offside(tx: Tx, cmd: CallOffside) -> None:
    """Only as the first call of the Movement phase, after a pass or cross from behind the
    attacker. The defenders' line tests the lowest tactical perception among them; if it
    succeeds they step one MS beyond the attacker, who escapes only with a successful
    tactical perception test higher than theirs. An attacker already beyond the line who can
    reach the ball is offside at once."""
    s = tx.state
    d = s.declaration
    if s.phase is not Phase.MOVEMENT or s.moves_this_phase != 0 or s.queue:
        raise refuse(OFFSIDE, "offside is called only as the first call of the Movement phase")
    if d is None or not d.action.is_pass or not s.ball.loose or s.ball.flight not in (Flight.SHORT, Flight.HIGH):
        raise refuse(OFFSIDE, "offside follows a pass or cross on its way to its PS")
    defending = d.team.other
    a = s.players.get(cmd.attacker)
    if a is None or cmd.attacker.team is not d.team or not a.on_pitch:
        raise refuse(OFFSIDE, f"{cmd.attacker} is not an attacking player on the pitch")
    b = q.board(s)
    fwd = q.forward(s, d.team)
    if a.ms is not None and d.start_ms is not None and (a.ms[0] - d.start_ms[0]) * fwd <= 0:
        raise refuse(OFFSIDE, "the pass starts from beyond the attacker: backward passes never trigger offside")
    if a.ms is not None and s.ball.ps is not None and b.ms_to_ps_distance(a.ms, s.ball.ps) > s.pace:
        raise refuse(OFFSIDE, f"{cmd.attacker} cannot reach PS {s.ball.ps} at round pace {s.pace}: no offside")
    if not cmd.defenders:
        # Already beyond the defensive line: offside without a test.
        outfield = [p for p in q.on_pitch(s, defending) if not p.goalkeeper]
        if a.ms is None or any(p.ms is None for p in outfield):
            raise refuse(OFFSIDE, "to call an attacker already beyond the line, the figures' positions must be known")
        if any((p.ms[0] - a.ms[0]) * fwd >= 0 for p in outfield):
            raise refuse(OFFSIDE, f"{cmd.attacker} is not beyond the defensive line; name the defenders who "
                                  f"step up")
        tx.emit(ev.OffsideCalled(cmd.attacker, (), ()))
        pay(tx, defending, cost_of(s, defending, "offside"), "offside movement", OFFSIDE)
        award(tx, RestartKind.FREE_KICK, defending, f"offside: {cmd.attacker} beyond the defensive line",
              spot_ms=a.ms)
        return
    if cmd.destinations and len(cmd.destinations) != len(cmd.defenders):
        raise refuse(OFFSIDE, "give one destination MS per defender, or none")
    for i, ref in enumerate(cmd.defenders):
        p = s.players.get(ref)
        if p is None or ref.team is not defending:
            raise refuse(OFFSIDE, f"{ref} is not a defending player")
        check_mover(s, p, OFFSIDE)
        if cmd.destinations:
            to = cmd.destinations[i]
            check_square(s, ref, to, ignore=cmd.defenders)
            if a.ms is not None and (to[0] - a.ms[0]) * -fwd != 1:
                raise refuse(OFFSIDE, f"the defenders move beyond the attacker by one MS: column "
                                      f"{a.ms[0] - fwd}, not {to[0]}")
            need = q.move_cost(s, p, to)
            if need is not None and need > s.zone_pace:
                raise refuse(OFFSIDE, f"{ref} would need {need} MS but the zone round pace is {s.zone_pace}: "
                                      f"offside cannot be called")
    tx.emit(ev.OffsideCalled(cmd.attacker, cmd.defenders, cmd.destinations))
    pay(tx, defending, cost_of(s, defending, "offside"), "offside movement", OFFSIDE)
    weakest = min(cmd.defenders, key=lambda r: (s.players[r].skill(Skill.TACTICAL_PERCEPTION), r))
    test = q.skill_test(tx.state, weakest, Skill.TACTICAL_PERCEPTION, "Tactical Perception (offside trap)")
    flow.open_contest(tx, (test,), OffsideCtx(attacker=cmd.attacker, defenders=cmd.defenders,
                                              destinations=cmd.destinations))


def resolve_offside(tx: Tx, contest: Contest) -> None:
    s = tx.state
    t = contest.tests[0]
    ctx: OffsideCtx = contest.ctx
    for ref in ctx.defenders:
        flow.exhaust(tx, ref)
    if not t.success:
        close(tx, contest, verdict(s, t) + "; the trap fails, the defenders stay (exhausted)")
        return
    close(tx, contest, verdict(s, t) + "; the defenders step up beyond the attacker")
    for ref, to in zip(ctx.defenders, ctx.destinations):
        tx.emit(ev.PlayerRelocated(ref, to, Where.PITCH, "offside trap"))
    escape = q.skill_test(tx.state, ctx.attacker, Skill.TACTICAL_PERCEPTION, "Tactical Perception (beat the trap)")
    flow.open_contest(tx, (escape,), OffsideEscapeCtx(defence_result=t.result, defender=t.player), front=True)


def resolve_offside_escape(tx: Tx, contest: Contest) -> None:
    """The escape is a challenge against the defence's trap test: won with a successful result
    higher than the defence's. An equal successful result is a tie: "tests are null and dice
    must be rerolled" (both: the attacker's test and the defence's, F48)."""
    s = tx.state
    t = contest.tests[0]
    ctx: OffsideEscapeCtx = contest.ctx
    if len(contest.tests) == 2:   # rolled again after a tie: both tests are in the contest
        d = contest.tests[1]
        outcome = challenge(t, d)
        against = verdict(s, d)
    else:
        outcome = "a" if t.success and t.result > ctx.defence_result else (
            "tie" if t.success and t.result == ctx.defence_result else "b")
        against = f"the defence's {ctx.defence_result}"
    if outcome == "tie":
        if ctx.defender is None or len(contest.tests) == 2:
            # A contest opened before the trap's roller was recorded rolls the attacker again.
            flow.reopen(tx, contest, verdict(s, t) + f" against {against}: tie, roll again")
            return
        close(tx, contest, verdict(s, t) + f" against {against}: tie, both roll again")
        escape = q.skill_test(s, t.player, Skill.TACTICAL_PERCEPTION, "Tactical Perception (beat the trap)")
        trap = q.skill_test(s, ctx.defender, Skill.TACTICAL_PERCEPTION, "Tactical Perception (offside trap)")
        flow.open_contest(tx, (escape, trap), ctx, front=True)
        return
    if outcome == "a":
        close(tx, contest, verdict(s, t) + f", beats {against}: onside")
        return
    close(tx, contest, verdict(s, t) + f" against {against}: offside")
    award(tx, RestartKind.FREE_KICK, t.player.team.other, f"offside: {t.player}", spot_ms=s.players[t.player].ms)


# --- transition rounds ---------------------------------------------------------------------------

def reach_ball(tx: Tx, cmd: ReachBall) -> None:
    s = tx.state
    if s.round_kind is not RoundKind.TRANSITION or s.phase is not Phase.MOVEMENT or s.pace != 0:
        raise refuse("Transition Round", "say who reached the loose ball only at the start of a transition round")
    if not cmd.players or cmd.distance < 0:
        raise refuse("Transition Round", "name at least one player and the MS he ran (0 or more)")
    for ref in cmd.players:
        p = s.players.get(ref)
        if p is None or not p.on_pitch:
            raise refuse("Transition Round", f"{ref} is not on the pitch")
    tx.emit(ev.BallReached(cmd.players, cmd.distance))
    flow.reach_ball(tx, cmd.players, cmd.distance)


# --- placing figures (vision, or a coach's hand) ----------------------------------------------------

FREE_PLACEMENT = (Phase.OPENING_ROLL, Phase.BOARD_PICK, Phase.KICK_OFF, Phase.RESTART)


def place_figure(tx: Tx, cmd: PlaceFigure) -> None:
    s = tx.state
    if not s.created:
        raise refuse("Game Setup", "create the match first")
    p = s.players.get(cmd.player)
    if p is None:
        raise refuse("Game Setup", f"no figure {cmd.player} in this match")
    if p.where is Where.OUT:
        raise refuse("Substitutions", f"{cmd.player} is out of the match and cannot be placed on the pitch")
    b = q.board(s)
    ms = cmd.square
    if ms is None and cmd.x_mm is not None and cmd.y_mm is not None:
        ms = b.mm_to_ms(cmd.x_mm, cmd.y_mm)
    if ms is not None:
        if not b.is_ms(ms):
            raise refuse("Game Board", f"MS {ms} is off the {b.ms_cols} x {b.ms_rows} board")
        check_square(s, cmd.player, ms)
    if p.where is Where.BENCH and ms is not None:
        raise refuse("Substitutions", f"{cmd.player} is on the bench; call a substitution to bring him on")
    if s.phase not in FREE_PLACEMENT and not cmd.correction:
        raise refuse(MOVEMENT, f"in the {s.phase.label} phase figures move by the rules (single, zone or tactical "
                               f"movement); mark this placement as a correction to override")
    tx.emit(ev.FigurePlaced(cmd.player, ms, cmd.facing, cmd.correction))
