"""The shot phase: shots and passes, follow-ups, off-side, the goalkeeper's options with the
ball in his hands; and the kicks that restart play (the kick-off, a restart's kick).

Rulebook: a shot is a straight line (row, column or diagonal) from the ball to an
announced target square; from loose control the target must be nearer the ball than the
shooter. A pass goes to the receiver's square (close control) or next to him (wide
control). Defenders then may try to intercept (interception.py); where the ball ends is
landing.py.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import HoldBall, Kick
from .interception import continue_flight, pass_turn_in_flight
from .model import Control, Phase, RestartKind, SetupStep
from .penalty import PENALTY
from .pitch import dist, lofted_path, straight_path
from .restarts import SETUP, taker_squares
from .stoppages import award
from .tx import Tx, refuse

SHOTS = "Shots"
PASSES = "Passes"
GOAL_SHOTS = "Goal Shots"
GOALIE = "Goalkeeper"

NO_OFFSIDE = frozenset((RestartKind.GOAL_KICK.value, RestartKind.THROW_IN.value, RestartKind.CORNER.value,
                        RestartKind.KICK_OFF.value))
NO_GOAL = frozenset((RestartKind.INDIRECT_FREE_KICK.value, RestartKind.THROW_IN.value, RestartKind.KICK_OFF.value))
KICK_OFF = "Kick-Off"

# A kick by its kind, in a coach's words (refusals).
KICK_WORDS = {"kick_off": "the kick-off", "throw_in": "a throw-in", "corner_kick": "a corner-kick",
              "goal_kick": "a goal-kick", "free_kick": "a free-kick", "indirect_free_kick": "an indirect free-kick",
              "follow_up": "a follow-up", "shot": "a shot or pass"}


def _line_hint(origin: Square, target: Square) -> str:
    """Which way the aim is off: a coach sees rows and diagonals, not numbers."""
    dc, dr = abs(target[0] - origin[0]), abs(target[1] - origin[1])
    if dc and dr and dc != dr:
        return f" (it is {max(dc, dr)} squares one way and {min(dc, dr)} the other: a diagonal needs the same number)"
    return ""

TAKER_WHERE = {RestartKind.THROW_IN: "on the throw-in square, beyond the touch line", RestartKind.CORNER:
               "on the corner area", RestartKind.GOAL_KICK: "on a square of his goal area"}

LIMITS = {RestartKind.THROW_IN: "max_throw_in", RestartKind.CORNER: "max_corner",
          RestartKind.GOAL_KICK: "max_goal_kick", RestartKind.FREE_KICK: "max_shot",
          RestartKind.INDIRECT_FREE_KICK: "max_shot"}


# --- the kick command -------------------------------------------------------------------------------

def kick(tx: Tx, cmd: Kick) -> None:
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
        raise refuse(GOALIE, "the goalkeeper must first drop the ball to a free square next to him, then kick it")
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
    # A kick-off is a pass (Kick-Off), not a shot: its refusals say so, in the Kick-Off's words.
    section = KICK_OFF if kind == "kick_off" else SHOTS
    what = KICK_WORDS.get(kind, "a kick")
    if not pitch.on_board(target):
        raise refuse(section, "that square is off the board: aim at a field square, a goal square, or the first "
                              "square beyond a line")
    path = straight_path(origin, target)
    if path is None and lofted_into is not None:
        ends = pitch.ends[lofted_into]
        if ends.in_penalty_area(target) or target in ends.penalty_circle:
            path = lofted_path(origin, target)
    if path is None:
        lead = "a kick-off is a pass, not a shot, but like every kick " if kind == "kick_off" else f"{what} "
        raise refuse(section, f"{lead}the ball travels in a straight line from where it lies: along a row, a column "
                              f"or a diagonal; the square aimed at is on none of them{_line_hint(origin, target)}")
    if len(path) > limit:
        raise refuse(section, f"{what} carries at most {limit} squares; the square aimed at is {len(path)} away")
    kicker_sq = s.players[kicker].square
    if loose and dist(target, origin) >= dist(target, kicker_sq):
        raise refuse(SHOTS, f"the ball lies next to {kicker} (loose control), not at his feet: from loose control "
                            f"the target square must be closer to the ball than to the shooting player, so he kicks "
                            f"it away from himself")
    goal_end = pitch.goal_end(target)
    occupant = q.occupant(s, target)
    back_pass = goal_end is not None and occupant is not None and occupant.team is kicker.team
    if goal_end is not None and not back_pass:
        # Any of "the 6+6 goal squares" may be the target (LV19): the kicker's own goal too.
        if kind in NO_GOAL:
            what = {"indirect_free_kick": "an indirect free-kick may not target the goal",
                    "throw_in": "you cannot score a goal directly from a throw-in",
                    "kick_off": "the kick-off must be a pass to another player"}[kind]
            raise refuse(SHOTS, what)
    receiver = pick_receiver(s, kicker, target, receiver, kind)
    if kind == "kick_off" and receiver is None:
        raise refuse(KICK_OFF, "a kick-off is a pass: the player kicking off must pass the ball to another player; "
                               "aim at a teammate's square or a square next to him")
    no_touch = s.ball.no_touch
    if no_touch is not None and kicker == no_touch and kind in ("follow_up", "shot"):
        raise refuse("Restarts", f"{kicker} took the restart: he may only play the ball again after another player")
    tx.emit(ev.KickTaken(kicker, origin, target, path, kind, receiver))
    if kind not in NO_OFFSIDE and offside(tx, kicker, origin, target):
        return
    continue_flight(tx)


def pick_receiver(s, kicker: PlayerRef, target: Square, named: PlayerRef | None, kind: str) -> PlayerRef | None:
    """The teammate taking the pass: in the target square, or next to it (named when several).
    In a goal square only the goalkeeper standing there takes it (a back-pass, LV19)."""
    occupant = q.occupant(s, target)
    if q.pitch(s).goal_end(target) is not None:
        if occupant is not None and occupant.team is kicker.team:
            if named is not None and named != occupant:
                raise refuse(PASSES, f"{occupant} stands in the target square: he is the receiver")
            return occupant
        if named is not None:
            raise refuse(PASSES, "a goal shot has no receiver")
        return None
    if occupant is not None:
        if occupant.team is not kicker.team:
            if named is not None:
                raise refuse(PASSES, f"the square aimed at holds {occupant}, an opponent: nobody of yours takes it there")
            return None
        if named is not None and named != occupant:
            raise refuse(PASSES, f"{occupant} stands in the target square: he is the receiver")
        return occupant
    mates = sorted(p.ref for p in q.placed(s, kicker.team) if p.ref != kicker and q.near(p.square, target))
    if named is not None:
        if named not in mates:
            raise refuse(PASSES, f"{named} is not next to the square aimed at: pass to his square or a square next to him")
        return named
    if len(mates) > 1:
        raise refuse(PASSES, f"several teammates stand next to the square aimed at ({', '.join(map(str, mates))}): name the "
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


# --- the kick-off -----------------------------------------------------------------------------------

def kick_off(tx: Tx, cmd: Kick) -> None:
    """Rulebook, Kick-Off: every player in his own half, an attacker on one of the two squares
    touching the ball, no defender in or touched by the centre circle; a pass of up to 6
    squares to another player, no follow-up."""
    s = tx.state
    r = s.restart
    if r is None or r.kind is not RestartKind.KICK_OFF:
        raise refuse(KICK_OFF, "there is no kick-off to take now")
    if s.queue:
        raise refuse(KICK_OFF, "finish the pending choice first")
    if cmd.player.team is not r.team:
        raise refuse(KICK_OFF, f"{r.team.label} kicks off")
    pitch = q.pitch(s)
    missing = [p.ref for p in q.on_pitch(s) if p.square is None]
    if missing:
        raise refuse(KICK_OFF, f"place every figure before the kick-off ({', '.join(map(str, missing[:4]))}"
                               f"{'...' if len(missing) > 4 else ''} not seen)")
    for p in q.placed(s):
        if pitch.half_of(p.square) != s.end_of(p.ref.team):
            raise refuse(KICK_OFF, f"all players must be set up in their own half; {p.ref} stands in the other half")
        if p.ref.team is not r.team and pitch.in_centre_circle(p.square):
            raise refuse(KICK_OFF, f"no defender may stand inside the centre circle or on a square it touches; "
                                   f"{p.ref} does")
    squares = pitch.kick_off_squares[s.end_of(r.team)]
    kicker = s.players[cmd.player]
    if kicker.square not in squares:
        raise refuse(KICK_OFF, f"the player kicking off stands on one of the two squares touching the ball, in his "
                               f"own half; {cmd.player} does not")
    if not s.clocks.half_on:
        tx.emit(ev.HalfClockStarted(s.period))
    flow.start_phase(tx, Phase.SHOT)
    flow.set_ball(tx, kicker.square, cmd.player, Control.CLOSE)
    launch(tx, cmd.player, kicker.square, cmd.target, RestartKind.KICK_OFF.value, cmd.receiver,
           q.limits(s).max_kick_off)


# --- the restart's kick -----------------------------------------------------------------------------------

def restart_kick(tx: Tx, cmd: Kick) -> None:
    s = tx.state
    r = s.restart
    if r.kind is RestartKind.PENALTY:
        raise refuse(PENALTY, "a penalty-kick is not aimed at a square: it is the penalty roll (the kicker rolls a die)")
    if r.step is not SetupStep.KICK:
        raise refuse(SETUP, "finish the re-positioning first")
    if cmd.player.team is not r.team:
        raise refuse(SETUP, f"{r.team.label} takes the {r.kind.label}")
    p = s.players[cmd.player]
    spots = taker_squares(s, r, r.team)
    if p.square not in spots:
        raise refuse(SETUP, f"{cmd.player} is not in position for the {r.kind.label}: the kicker stands "
                            f"{TAKER_WHERE.get(r.kind, 'next to the ball, inside the field')}")
    if r.kind in (RestartKind.FREE_KICK, RestartKind.INDIRECT_FREE_KICK):
        origin, control = r.spot, Control.LOOSE
    else:
        origin, control = p.square, Control.CLOSE  # the ball on top of the kicker
    flow.set_ball(tx, origin, cmd.player, control)
    limit = getattr(q.limits(s), LIMITS[r.kind])
    lofted = s.attacked_end(r.team) if r.kind is RestartKind.CORNER else None
    # A free-kick is a place-kick: the kicker next to the ball may aim anywhere (the
    # loose-control limit is for a ball moving in play; see assumptions, LV).
    launch(tx, cmd.player, origin, cmd.target, r.kind.value, cmd.receiver, limit, lofted_into=lofted)


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
