"""What each coach may declare or do now, for the tablet's buttons (``Ruleset.open_actions``).

Written from the same conditions the handlers refuse by: the phase, whose turn it is
(``movement.check_turn``), a restart's positioning steps and blockers (``restarts.step_team``,
``too_close``, ``in_penalty_area``), the pending head a deflection or a volley answers.
tests/test_open_actions.py plays whole matches and checks that the two agree.

Ids: "board", "kick_off", "declare" (``player``: the ball carrier or the restart's taker),
"deflection" (a defender deflects the declared pass), "volley" (``player``), "restart_step"
(``team`` ends its positioning step), "position" (a positioning move), "wall", "choose_taker",
"move", "zone_move", "tactical_move", "pass", "offside", "reach_ball", "shootout",
"substitute".
"""

from __future__ import annotations

from ..errors import RuleViolation
from ..ruleset import OpenAction
from ..teams import Team
from . import commands as c
from . import flow
from . import queries as q
from .model import ActionCtx, Contest, Flight, FubletState, Phase, RestartKind, RoundKind, Status, VolleyChoiceCtx
from .movement import MOVEMENT, TACTICAL, check_turn, cost_of
from .restarts import in_penalty_area, kicker_off_the_spot, step_team, steps, too_close
from .setup import picker


def open_actions(s: FubletState) -> tuple[OpenAction, ...]:
    out = list(_answers(s))
    if not s.queue:
        out.extend(_phase(s))
    if s.phase is not Phase.SHOOTOUT:
        out.extend(OpenAction("substitute", t, c.CallSubstitution, (("team", t),)) for t in (Team.HOME, Team.AWAY)
                   if flow.can_substitute(s, t))
    return tuple(out)


def _answers(s: FubletState) -> list[OpenAction]:
    """Actions taken while a test or a choice is pending: they answer it."""
    out = []
    head = s.queue[0] if s.queue else None
    d = s.declaration
    if s.phase is Phase.OUTCOME and d is not None and d.action.is_pass and any(
            isinstance(p, Contest) and isinstance(p.ctx, ActionCtx) and p.tests[0].result is None for p in s.queue):
        out.append(OpenAction("deflection", d.team.other, c.CallDeflection))
    if head is not None and isinstance(head.ctx, VolleyChoiceCtx):
        out.extend(OpenAction("volley", r.team, c.Volley, (("player", r),)) for r in flow.volleyers(head))
    return out


def _phase(s: FubletState) -> list[OpenAction]:
    phase = s.phase
    if phase is Phase.BOARD_PICK:
        team = picker(s)
        return [OpenAction("board", team, c.ChooseBoard, (("team", team),))]
    if phase is Phase.KICK_OFF and s.restart is not None:
        return [OpenAction("kick_off", s.restart.team, c.KickOff)]
    if phase is Phase.RESTART and s.restart is not None:
        return _restart(s)
    if phase is Phase.DECLARATION and s.ball.carrier is not None:
        carrier = s.ball.carrier
        return [OpenAction("declare", carrier.team, c.Declare, (("player", carrier),))]
    if phase in (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT):
        return _movement(s)
    if phase is Phase.SHOOTOUT and s.turn is not None:
        return [OpenAction("shootout", s.turn, c.TakeShootoutKick)]
    return []


def _restart(s: FubletState) -> list[OpenAction]:
    r = s.restart
    out = []
    if r.step < steps(r.kind):
        team = step_team(r)
        out.append(OpenAction("position", team, c.Move))
        if r.kind is RestartKind.FREE_KICK and r.step == 0 and not r.wall and team is r.team.other:
            out.append(OpenAction("wall", team, c.SetWall, (("team", team),)))
        out.append(OpenAction("restart_step", team, c.PassTurn, (("team", team),)))
    if r.taker is None:
        out.append(OpenAction("choose_taker", r.team, c.ChooseTaker))
    blocked = too_close(s, r) or r.step < steps(r.kind) or r.taker is None or (
        r.kind is RestartKind.PENALTY and (in_penalty_area(s, r) or kicker_off_the_spot(s, r)))
    if not blocked:
        out.append(OpenAction("declare", r.team, c.Declare, (("player", r.taker),)))
    return out


def _movement(s: FubletState) -> list[OpenAction]:
    tactical = s.phase is Phase.TACTICAL_MOVEMENT
    if s.round_kind is RoundKind.TRANSITION and s.pace == 0:
        return [] if tactical else [OpenAction("reach_ball", None, c.ReachBall)]
    out = []
    for team in (Team.HOME, Team.AWAY):
        try:
            check_turn(s, team, TACTICAL if tactical else MOVEMENT)
        except RuleViolation:
            continue
        if tactical:
            if _can_move(s, team, "tactical"):
                out.append(OpenAction("tactical_move", team, c.TacticalMove))
        else:
            if s.round_kind is not RoundKind.TRANSITION and _can_move(s, team, "single"):
                out.append(OpenAction("move", team, c.Move))
            if _can_move(s, team, "zone"):
                out.append(OpenAction("zone_move", team, c.ZoneMove, (("team", team),)))
        out.append(OpenAction("pass", team, c.PassTurn, (("team", team),)))
    d = s.declaration
    if (not tactical and s.moves_this_phase == 0 and d is not None and d.action.is_pass and s.ball.loose
            and s.ball.flight in (Flight.SHORT, Flight.HIGH)):
        out.append(OpenAction("offside", d.team.other, c.CallOffside))
    return out


def _can_move(s: FubletState, team: Team, kind: str) -> bool:
    """A movement of this kind could be made: the MP to pay for it (``movement.pay``; zone
    movements are free in a transition round) and a figure free to move (``check_mover``:
    on the pitch, ready, not injured, not the ball carrier). When none can, passing is all
    that is left, and the tablet passes by itself (ui/autoflow.py)."""
    free = kind == "zone" and s.round_kind is RoundKind.TRANSITION
    if not free and s.mp[team] < cost_of(s, team, kind):
        return False
    return any(p.status is Status.READY and not p.injured and s.ball.carrier != p.ref for p in q.on_pitch(s, team))
