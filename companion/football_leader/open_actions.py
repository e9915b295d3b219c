"""What each coach may declare or do now, for the tablet's buttons (``Ruleset.open_actions``).

Written from the same conditions the handlers refuse by: ``flow.check_turn`` (whose turn,
nothing pending, no movement under way), the turn's stage, and ``actions.PASS_KINDS`` (which
pass the stage allows). tests/test_open_actions.py plays whole matches and checks that the
two agree. The face maps each id to a form: "move" (``extra``: the turn's extra movement;
``carrier``: the counter with the ball may be the one moving), "pass" (``kind``: pass, vision,
free_kick or goal_kick; ``goalkeeper``: he passes), "dodge", "shoot" (``kind``: shot or direct;
``follow_up``: after a move or a pass), "tackle", "call_goal_kick",
"end_turn"; and outside the turn "strategy", "set_up", "change_strategy", "replace", "kick_off",
"shootout_order", "shootout_kick".
"""

from __future__ import annotations

from ..errors import RuleViolation
from ..ruleset import OpenAction
from ..teams import Team
from . import commands as c
from . import flow
from . import queries as q
from .actions import PASS_KINDS
from .components import Ability
from .model import POSITION_CHANGES, REPLACEMENTS, FootballLeaderState, Phase, Stage

MAIN_STAGES = (Stage.START, Stage.FREE_KICK, Stage.GOAL_KICK, Stage.DIRECT_KICK)  # a card must be played first
SHOT_STAGES = (Stage.START, Stage.CARRIER_MOVED, Stage.PASSED, Stage.VISION_PASSED)


def open_actions(s: FootballLeaderState) -> tuple[OpenAction, ...]:
    if s.queue:
        return ()
    if s.phase is Phase.STRATEGY:
        return tuple(OpenAction("strategy", t, c.WriteStrategy, (("team", t),)) for t in (Team.HOME, Team.AWAY)
                     if t not in s.sheets)
    if s.phase is Phase.SET_UP:
        return tuple(a for t in (Team.HOME, Team.AWAY) if t not in s.ready for a in _set_up(s, t))
    if s.phase is Phase.KICK_OFF and s.restart is not None:
        return (OpenAction("kick_off", s.restart.team, c.KickOff),)
    if s.phase is Phase.SHOOTOUT:
        missing = [t for t in (Team.HOME, Team.AWAY) if t not in s.shootout_order]
        if missing:
            return tuple(OpenAction("shootout_order", t, c.SetShootoutOrder, (("team", t),)) for t in missing)
        from_team = s.shootout_first if len(s.shootout) % 2 == 0 else s.shootout_first.other
        return (OpenAction("shootout_kick", from_team, c.TakeShootoutKick, (("team", from_team),)),)
    if s.phase is Phase.TURN and s.turn is not None:
        return _turn(s)
    return ()


def _set_up(s: FootballLeaderState, t: Team) -> list[OpenAction]:
    """Confirm the set-up; a position change or a replacement while the side has some left
    (``setup.change_strategy``, ``setup.replace``: three of each a match, 6.1)."""
    out = [OpenAction("set_up", t, c.ConfirmSetUp, (("team", t),))]
    if s.changes_used[t] < POSITION_CHANGES:
        out.append(OpenAction("change_strategy", t, c.ChangeStrategy, (("team", t),)))
    if s.replacements_used[t] < REPLACEMENTS and q.bench(s, t):
        out.append(OpenAction("replace", t, c.Replace, (("team", t),)))
    return out


def _turn(s: FootballLeaderState) -> tuple[OpenAction, ...]:
    t = s.turn
    team = t.team
    try:
        flow.check_turn(s, team, "2.1 Game in Progress")
    except RuleViolation:
        return ()
    stage = t.stage
    carrier = s.ball
    ours = carrier is not None and carrier.team is team
    keeper = ours and s.players[carrier].goalkeeper
    out: list[OpenAction] = []

    def add(id: str, command: type, **args) -> None:
        out.append(OpenAction(id, team, command, tuple(args.items())))

    kind = PASS_KINDS.get(stage)
    if ours and kind is not None and (kind != "vision" or (q.has(s, carrier, Ability.GAME_VISION)
                                                         and carrier not in t.moved and carrier not in t.markers)):
        add("pass", c.Pass, passer=carrier, kind=kind, goalkeeper=keeper)
    if stage is Stage.START and ours and keeper:
        add("call_goal_kick", c.CallGoalKick, team=team)
    if stage is Stage.START and ours and not keeper:
        if q.in_space(s, s.players[carrier].space, team.other) and not q.is_unmarked(s, carrier):
            add("dodge", c.Dodge, player=carrier)
    if stage is Stage.DIRECT_KICK:
        add("shoot", c.Shoot, kind="direct")
    elif stage in SHOT_STAGES and ours and not keeper:
        add("shoot", c.Shoot, shooter=carrier, kind="shot", follow_up=stage is not Stage.START)
    if stage is Stage.START and carrier is not None and not ours and not q.board(s).space(s.players[carrier].space).goal:
        add("tackle", c.Tackle, carrier=carrier)
    if stage not in (Stage.FREE_KICK, Stage.GOAL_KICK, Stage.DIRECT_KICK, Stage.VISION_PASSED) and \
            any(q.can_take_marker(s, p.ref) and not p.goalkeeper and not (stage is not Stage.START and p.ref == carrier)
                for p in q.on_pitch(s, team) if p.space is not None):
        add("move", c.Move, extra=stage is not Stage.START,
            carrier=carrier if ours and not keeper and stage is Stage.START else None)
    if s.cards[team].hand == 0 or stage not in MAIN_STAGES:
        add("end_turn", c.EndTurn, team=team)
    return tuple(out)
