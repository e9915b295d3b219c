"""Restarts: free kicks, penalty kicks, corners, throw-ins, goal kicks, kick-offs, and the
tactical positioning that comes before them.

Positioning order for free kicks and corners (after the defenders within 5 MS of the spot
are moved away): defending coach from his defense zone, attacking from attack, defending
from midfield, attacking from midfield, defending from attack, attacking from defense.
Throw-ins: two alternate positionings per team, attacking coach first, each within the
moved player's speed; a defender's positioning needs a tactical perception test.
"""

from __future__ import annotations

from dataclasses import replace

from ..board import Square, grid_distance
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import ChooseTaker, Move, PassTurn, SetWall
from .components import Skill
from .model import (FREE_KICK_DISTANCE_MS, MAX_WALL, Contest, Phase, Restart, RestartKind,
                    ThrowInPositionCtx, Zone)
from .resolve import close, verdict
from .tx import Tx, refuse

POSITIONING = "Tactical Positioning Rules"

# (attacking side?, zone) per step of the free-kick / corner order.
ORDERED_STEPS: tuple[tuple[bool, Zone], ...] = (
    (False, Zone.DEFENSE), (True, Zone.ATTACK), (False, Zone.MIDFIELD),
    (True, Zone.MIDFIELD), (False, Zone.ATTACK), (True, Zone.DEFENSE),
)
THROW_IN_STEPS: tuple[bool, ...] = (True, False, True, False)


def award(tx: Tx, kind: RestartKind, team: Team, reason: str, spot_ms: Square | None = None,
          spot_ps: Square | None = None, corner_end: str | None = None, near_row: int = 0) -> None:
    """Stop the round and give ``team`` a restart."""
    s = tx.state
    b = q.board(s)
    if kind is RestartKind.CORNER and corner_end is not None:
        corners = b.area_squares(f"corner_{corner_end}")
        spot_ms = min(corners, key=lambda c: abs(c[1] - near_row))
    if spot_ms is not None and spot_ps is None:
        spot_ps = b.ms_to_ps(spot_ms)
    flow.stop_round(tx, reason, Restart(kind=kind, team=team, spot_ms=spot_ms, spot_ps=spot_ps))


def steps(kind: RestartKind) -> int:
    if kind in (RestartKind.FREE_KICK, RestartKind.CORNER):
        return len(ORDERED_STEPS)
    if kind is RestartKind.THROW_IN:
        return len(THROW_IN_STEPS)
    return 0


def step_team(r: Restart) -> Team | None:
    if r.step >= steps(r.kind):
        return None
    attacking = ORDERED_STEPS[r.step][0] if steps(r.kind) == 6 else THROW_IN_STEPS[r.step]
    return r.team if attacking else r.team.other


def too_close(s, r: Restart) -> list[PlayerRef]:
    """Defenders within 5 MS of a free-kick or corner spot (they must be moved away)."""
    if r.kind not in (RestartKind.FREE_KICK, RestartKind.CORNER) or r.spot_ms is None:
        return []
    return [p.ref for p in q.on_pitch(s, r.team.other)
            if p.ms is not None and grid_distance(p.ms, r.spot_ms) <= FREE_KICK_DISTANCE_MS]


def in_penalty_area(s, r: Restart) -> list[PlayerRef]:
    """Penalty kick: nobody but the goalkeeper and the kicker "inside the penalty area and its
    arc" (the arc's MS are board data, ``penalty_arc_<end>``)."""
    end = q.own_end(s, r.team.other)
    return [p.ref for p in q.on_pitch(s) if p.ms is not None
            and (q.ms_in(s, "penalty_area", end, p.ms) or q.ms_in(s, "penalty_arc", end, p.ms))
            and p.ref != r.taker and not (p.goalkeeper and p.ref.team is r.team.other)]


def penalty_spot(s, r: Restart) -> tuple[Square, ...]:
    """The two MS next to the penalty spot the kicker stands on ("places it in one of the two
    MS close to the penalty spot"): board data, ``penalty_spot_<end>`` (assumptions F43a)."""
    name = f"penalty_spot_{q.own_end(s, r.team.other)}"
    b = q.board(s)
    return b.area_squares(name) if b.has_area(name) else ()


def kicker_off_the_spot(s, r: Restart) -> bool:
    """A penalty's kicker chosen, his place known, and not on one of the two MS by the spot."""
    if r.kind is not RestartKind.PENALTY or r.taker is None:
        return False
    ms = s.players[r.taker].ms
    spot = penalty_spot(s, r)
    return ms is not None and bool(spot) and ms not in spot


def place_the_kicker(r: Restart) -> str:
    return f"{r.team.label}: place the kicker {r.taker} on one of the two MS next to the penalty spot"


def place_kicker(s, r: Restart) -> Square | None:
    """The free MS by the penalty spot nearest the kicker (None when both are taken)."""
    p = s.players[r.taker]
    free = [sq for sq in penalty_spot(s, r) if q.occupant(s, sq, ignore=(r.taker,)) is None]
    if not free:
        return None
    return min(free, key=lambda sq: grid_distance(p.ms, sq) if p.ms is not None else 0)


def blockers(s) -> list[tuple[Team | None, str]]:
    """What must happen, and by whom, before the restart can be taken (empty when it can)."""
    r = s.restart
    out: list[tuple[Team | None, str]] = []
    close_ones = too_close(s, r)
    if close_ones:
        out.append((r.team.other, f"{r.team.other.label}: move {', '.join(str(x) for x in close_ones)} beyond "
                                  f"{FREE_KICK_DISTANCE_MS} MS of the {r.kind.label} spot"))
    if r.step < steps(r.kind):
        team = step_team(r)
        if r.kind is RestartKind.THROW_IN:
            out.append((team, f"{team.label}: throw-in positioning step {r.step + 1} of 4 (move a player within "
                              f"his speed, or pass)"))
        else:
            attacking, zone = ORDERED_STEPS[r.step]
            out.append((team, f"{team.label}: position players from your {zone.value} zone (step {r.step + 1} "
                              f"of 6), then pass"))
    if r.taker is None:
        out.append((r.team, f"{r.team.label}: choose who takes the {r.kind.label}"))
    if r.kind is RestartKind.PENALTY:
        inside = in_penalty_area(s, r)
        if inside:
            out.append((None, f"clear the penalty area: {', '.join(str(x) for x in inside)} must leave it"))
        if kicker_off_the_spot(s, r):
            out.append((r.team, place_the_kicker(r)))
    return out


def choose_taker(tx: Tx, cmd: ChooseTaker) -> None:
    s = tx.state
    r = s.restart
    if s.phase is not Phase.RESTART or r is None:
        raise refuse(POSITIONING, "there is no restart to take")
    p = s.players.get(cmd.player)
    if p is None or cmd.player.team is not r.team or not p.on_pitch:
        raise refuse(POSITIONING, f"the {r.kind.label} is {r.team.label}'s: choose one of their players on the pitch")
    if r.kind is RestartKind.GOAL_KICK and not p.goalkeeper:
        raise refuse("Throw-ins, Corner Kicks and Goal Kicks", "the goalkeeper takes the goal kick")
    if r.kind in (RestartKind.FREE_KICK, RestartKind.CORNER, RestartKind.THROW_IN) and p.goalkeeper:
        raise refuse("Throw-ins, Corner Kicks and Goal Kicks" if r.kind is not RestartKind.FREE_KICK
                     else "Free Kicks", f"any player except the goalkeeper takes a {r.kind.label}")
    tx.emit(ev.TakerChosen(cmd.player))
    if r.kind is RestartKind.FREE_KICK and r.spot_ms is not None and p.ms != r.spot_ms:
        holder = q.occupant(tx.state, r.spot_ms, ignore=(cmd.player,))
        if holder is None:
            tx.emit(ev.PlayerRelocated(cmd.player, r.spot_ms, p.where, "takes the free kick from the spot"))
    if r.kind in (RestartKind.CORNER, RestartKind.THROW_IN):
        # The taker stands outside the field, next to the spot.
        tx.emit(ev.PlayerRelocated(cmd.player, None, p.where, f"stands outside the field for the {r.kind.label}"))


def positioning_move(tx: Tx, cmd: Move) -> None:
    s = tx.state
    r = s.restart
    team = cmd.player.team
    p = s.players[cmd.player]
    check_square(s, cmd.player, cmd.to)
    if steps(r.kind) == 0:
        # Kick-offs, goal kicks and penalty kicks: free positioning for both teams.
        tx.emit(ev.PlayerMoved(cmd.player, cmd.to, cmd.facing))
        return
    expected = step_team(r)
    if expected is None:
        raise refuse(POSITIONING, f"positioning for this {r.kind.label} is over; take the kick")
    if team is not expected:
        raise refuse(POSITIONING, f"it is {expected.label}'s positioning step now")
    if r.kind is RestartKind.THROW_IN:
        if p.ms is not None and grid_distance(p.ms, cmd.to) > p.speed:
            raise refuse(POSITIONING, f"a throw-in positioning moves a player at most his speed "
                                      f"({p.speed} MS); this is {grid_distance(p.ms, cmd.to)}")
        if team is r.team:
            tx.emit(ev.PlayerMoved(cmd.player, cmd.to, cmd.facing))
            tx.emit(ev.RestartSet(replace(tx.state.restart, step=r.step + 1), "throw-in positioning"))
        else:
            test = q.skill_test(s, cmd.player, Skill.TACTICAL_PERCEPTION, "Tactical Perception (throw-in positioning)")
            flow.open_contest(tx, (test,), ThrowInPositionCtx(to=cmd.to, facing=cmd.facing))
        return
    _, zone = ORDERED_STEPS[r.step]
    if p.ms is not None and q.zone_of(s, team, p.ms) is not zone:
        raise refuse(POSITIONING, f"step {r.step + 1} positions players from {team.label}'s {zone.value} zone; "
                                  f"{cmd.player} is in the {q.zone_of(s, team, p.ms).value} zone")
    if r.spot_ms is not None and team is not r.team and grid_distance(cmd.to, r.spot_ms) <= FREE_KICK_DISTANCE_MS:
        raise refuse("Tactical Positioning Rules", f"defenders stay beyond {FREE_KICK_DISTANCE_MS} MS of the "
                                                   f"{r.kind.label} spot")
    tx.emit(ev.PlayerMoved(cmd.player, cmd.to, cmd.facing))


def resolve_throw_in_position(tx: Tx, contest: Contest) -> None:
    s = tx.state
    t = contest.tests[0]
    ctx: ThrowInPositionCtx = contest.ctx
    close(tx, contest, verdict(s, t) + ("; he moves" if t.success else "; he stays"))
    if t.success:
        p = s.players[t.player]
        tx.emit(ev.PlayerRelocated(t.player, ctx.to, p.where, "throw-in positioning", ctx.facing))
    tx.emit(ev.RestartSet(replace(tx.state.restart, step=tx.state.restart.step + 1), "throw-in positioning"))


def pass_step(tx: Tx, cmd: PassTurn) -> None:
    s = tx.state
    r = s.restart
    expected = step_team(r)
    if expected is None:
        raise refuse(POSITIONING, f"positioning for this {r.kind.label} is over; take the kick")
    if cmd.team is not expected:
        raise refuse(POSITIONING, f"it is {expected.label}'s positioning step")
    tx.emit(ev.TurnPassed(cmd.team))
    tx.emit(ev.RestartSet(replace(tx.state.restart, step=r.step + 1), "positioning step done"))


def set_wall(tx: Tx, cmd: SetWall) -> None:
    s = tx.state
    r = s.restart
    if s.phase is not Phase.RESTART or r is None or r.kind is not RestartKind.FREE_KICK:
        raise refuse("Free Kick Wall", "a wall is set only against a free kick")
    if cmd.team is not r.team.other:
        raise refuse("Free Kick Wall", "the defending coach sets the wall")
    if r.step != 0 or r.wall:
        raise refuse("Free Kick Wall", "the wall is set only as the defending coach's first positioning action")
    if not 1 <= len(cmd.players) <= MAX_WALL or len(set(cmd.players)) != len(cmd.players):
        raise refuse("Free Kick Wall", f"a wall has 1 to {MAX_WALL} different players")
    for ref in cmd.players:
        p = s.players.get(ref)
        if p is None or ref.team is not cmd.team or not p.on_pitch or p.injured:
            raise refuse("Free Kick Wall", f"{ref} is not one of {cmd.team.label}'s players on the pitch")
        if p.goalkeeper:
            raise refuse("Free Kick Wall", "the goalkeeper cannot stand in the wall")
    tx.emit(ev.WallSet(cmd.team, cmd.players))


def check_square(s, ref: PlayerRef, to: Square, ignore: tuple[PlayerRef, ...] = ()) -> None:
    """One figure per MS, at most two of a team per PS."""
    b = q.board(s)
    if not b.is_ms(to):
        raise refuse("Ball and Player Movements", f"MS {to} is off the {b.ms_cols} x {b.ms_rows} board")
    holder = q.occupant(s, to, ignore=(ref,) + ignore)
    if holder is not None:
        raise refuse("Player's Physical Engagement", f"MS {to} already holds {holder}; only one player at a time "
                                                     f"can take up a MS")
    ps = b.ms_to_ps(to)
    mates = [r for r in q.players_in_ps(s, ps, ref.team) if r != ref and r not in ignore]
    if len(mates) >= 2:
        raise refuse("Ball and Player Movements", f"PS {ps} already holds two {ref.team.label} players "
                                                  f"({mates[0]}, {mates[1]}); no more than two players per team "
                                                  f"are allowed inside a PS")
