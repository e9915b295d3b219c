"""The round sequence: phases, the end of a round, halves, extra time, the stopwatch.

``advance`` runs after every command: while nothing is pending it moves the match on
(Outcome done -> pace and stopwatch -> Movement; Event done -> Tactical movement; round
over -> substitutions, cards restored, next round, transition round, or end of a half).
"""

from __future__ import annotations

from dataclasses import replace

from ..board import grid_distance
from ..teams import PlayerRef, Team
from . import events as ev
from . import queries as q
from .components import Action, Skill
from .model import (INJURY_RESULTS, MAX_SUBSTITUTIONS, MP_CAP, Ball, BallControlCtx, Choice, ChoiceCtx, Contest,
                    ContestCtx, DisputeCtx, EngagementCtx, Flight, GoalkeeperChoiceCtx, Period, Phase,
                    ReceiverChoiceCtx, Restart, RestartKind, Result, RoundKind, Status, SubstituteChoiceCtx, Test,
                    VolleyChoiceCtx, Where)
from .tx import Tx


# --- opening pending items -----------------------------------------------------------------

def open_contest(tx: Tx, tests: tuple[Test, ...] | list[Test], ctx: ContestCtx, front: bool = False) -> Contest:
    contest = Contest(id=tx.next_id, tests=tuple(tests), ctx=ctx)
    tx.emit(ev.PendingOpened(contest, front))
    if contest.complete:  # every result was carried over from an earlier roll
        resolve_contest(tx, contest)
    return contest


def resolve_contest(tx: Tx, contest: Contest) -> None:
    """Every result is in: injuries first (25, 50, 75 on a test at risk), then what the
    contest means, by its kind."""
    s = tx.state
    for t in contest.tests:
        if (t.injury_risk and not t.carried and t.player is not None and t.result in INJURY_RESULTS
                and not s.players[t.player].injured):
            tx.emit(ev.PlayerInjured(t.player, t.result))
    tx.resolvers[type(contest.ctx)](tx, contest)  # the game's table, built in rules.py


def open_choice(tx: Tx, team: Team, question: str, options: tuple[str, ...], ctx: ChoiceCtx,
                player: PlayerRef | None = None, front: bool = False) -> Choice:
    choice = Choice(id=tx.next_id, team=team, question=question, options=options, ctx=ctx, player=player)
    tx.emit(ev.PendingOpened(choice, front))
    return choice


def reopen(tx: Tx, contest: Contest, reason: str) -> None:
    """A tie between two successful tests: both are void and rolled again."""
    tx.emit(ev.ContestResolved(contest.id, reason))
    fresh = tuple(replace(t, result=None, carried=False) for t in contest.tests)
    open_contest(tx, fresh, contest.ctx, front=True)


# --- players' states ------------------------------------------------------------------------

def stun(tx: Tx, ref: PlayerRef) -> None:
    """Stunned: no movement in the next round's movement phases; recovers at its end."""
    tx.emit(ev.StatusSet(ref, Status.STUNNED, tx.state.round + 1))


def exhaust(tx: Tx, ref: PlayerRef) -> None:
    p = tx.state.players[ref]
    if p.status is Status.READY:
        tx.emit(ev.StatusSet(ref, Status.EXHAUSTED, 0))


def change_mp(tx: Tx, team: Team, delta: int, reason: str) -> None:
    """Earn or spend MP; the total stays within 0..20 (points over 20 are lost)."""
    before = tx.state.mp[team]
    total = max(0, min(MP_CAP, before + delta))
    tx.emit(ev.MpChanged(team, total - before, total, reason))


# --- phases -----------------------------------------------------------------------------------

def start_phase(tx: Tx, phase: Phase, round_no: int | None = None, kind: RoundKind | None = None,
                attacking: Team | None | str = "same") -> None:
    s = tx.state
    tx.emit(ev.PhaseStarted(phase=phase, round=s.round if round_no is None else round_no,
                            round_kind=s.round_kind if kind is None else kind,
                            attacking=s.attacking if attacking == "same" else attacking))


def set_pace(tx: Tx, pace: int) -> None:
    """Move the round pace marker, then the stopwatch by the small number under it."""
    s = tx.state
    bar = s.components.pace_bar
    pace = max(1, min(pace, bar.max_pace))
    small = bar.small_for(pace)
    tx.emit(ev.PaceSet(pace, small))
    minute = s.minute + small
    tx.emit(ev.ClockAdvanced(small, minute, minute >= s.period.minutes))


def action_pace(s) -> int:
    """Round pace from the declared action and where the ball actually went."""
    d = s.declaration
    if d is None:
        return 1
    if d.action is Action.CROSS:
        return 2
    if d.action.is_shot:
        return 1
    if d.action.is_pass:
        end = q.ball_ps(s)
        if d.start_ps is not None and end is not None:
            return max(1, grid_distance(d.start_ps, end))
        return d.distance
    runner = s.players[d.player]
    if d.start_ms is not None and runner.ms is not None:
        return max(1, grid_distance(d.start_ms, runner.ms))
    return d.distance


def stop_round(tx: Tx, reason: str, restart: Restart | None = None) -> None:
    """Play stops (goal, ball out, foul, offside, missed shot): pending tests are void, the
    round ends, and the game restarts as ``restart`` says."""
    s = tx.state
    if s.queue:
        tx.emit(ev.PendingDropped(tuple(p.id for p in s.queue), f"play stopped: {reason}"))
    if s.round_kind is RoundKind.REGULAR and s.declaration is not None and s.pace == 0:
        set_pace(tx, action_pace(tx.state))
    tx.emit(ev.RoundStopped(reason))
    if restart is not None:
        tx.emit(ev.RestartSet(restart, reason))
        if restart.taker is None:
            tx.emit(ev.BallSet(Ball(ps=restart.spot_ps, last_touch=tx.state.ball.last_touch)))


def advance(tx: Tx) -> None:
    """Move the match on as far as it can go without a coach or a die."""
    for _ in range(50):
        s = tx.state
        if s.phase is Phase.OVER or s.queue:
            return
        if s.round_ended_by and s.phase in (Phase.DECLARATION, Phase.OUTCOME, Phase.MOVEMENT, Phase.EVENT,
                                            Phase.TACTICAL_MOVEMENT):
            start_phase(tx, Phase.ROUND_END)
            continue
        if s.phase is Phase.OUTCOME:
            set_pace(tx, action_pace(s))
            start_phase(tx, Phase.MOVEMENT)
            continue
        if s.phase is Phase.EVENT:
            start_phase(tx, Phase.TACTICAL_MOVEMENT)
            continue
        if s.phase is Phase.ROUND_END:
            if not finish_round(tx):
                return
            continue
        return
    raise RuntimeError("the round sequence did not settle; this is a bug in the Fublet rules")


# --- the Event phase ---------------------------------------------------------------------------

def open_engagement(tx: Tx, eng) -> None:
    s = tx.state
    if s.ball.carrier != eng.attacker:
        return
    carrier = s.players[eng.attacker]
    # A goalkeeper engaged inside his own penalty area always tests his rush out.
    if carrier.goalkeeper and q.ms_in(s, "penalty_area", q.own_end(s, eng.attacker.team), carrier.ms):
        attacker = q.skill_test(s, eng.attacker, Skill.RUSH_OUT, "Rush Out (engaged)", "event")
    else:
        attacker = q.skill_test(s, eng.attacker, Skill.DRIBBLING, "Dribbling (engagement)", "event")
    defender = q.skill_test(s, eng.defender, eng.skill, f"{eng.skill.label} (engagement)", "event")
    open_contest(tx, (attacker, defender), EngagementCtx(foul_ms=s.players[eng.attacker].ms))


def detect_loose_ball(tx: Tx, after_tactical: bool) -> None:
    """Who is in the loose ball's PS: nobody (it stays loose), one side (a reception or
    ball control), or both sides (a dispute)."""
    s = tx.state
    if not s.ball.loose or s.ball.ps is None:
        return
    ps = s.ball.ps
    present = [r for r in q.players_in_ps(s, ps) if not s.players[r].injured]
    if not present:
        return
    teams = {r.team for r in present}
    if len(teams) == 2:
        aerial = s.ball.flight is Flight.HIGH and not after_tactical
        volleyers = tuple(r for r in present if aerial and can_volley(s, r))
        if volleyers:
            # "Defenders, or goalkeeper, in the same PS can try to prevent the attacker's
            # volley shot": the receiver may still volley; else the aerial dispute (F29).
            who = " or ".join(q.label(r, s) for r in volleyers)
            open_choice(tx, volleyers[0].team, f"{who} meets the high ball in PS {ps} with opponents there: declare "
                                               f"a volley (they challenge it with aerial tackle) or play the aerial "
                                               f"dispute", ("dispute", "volley"),
                        VolleyChoiceCtx(contested=True, receivers=volleyers),
                        player=volleyers[0] if len(volleyers) == 1 else None)
            return
        open_dispute(tx, present, aerial=aerial)
        return
    if len(present) > 1:
        team = present[0].team
        open_choice(tx, team, f"{team.label}: two players reach the ball in PS {ps}; which one takes it?",
                    tuple(str(r) for r in present), ReceiverChoiceCtx())
        return
    receive(tx, present[0], after_tactical)


def receive(tx: Tx, ref: PlayerRef, after_tactical: bool = False) -> None:
    """One player meets the loose ball: a high ball needs ball control (or a volley in the
    opponents' half); otherwise he simply has it."""
    s = tx.state
    if s.ball.flight is Flight.HIGH and not after_tactical:
        if can_volley(s, ref):
            open_choice(tx, ref.team, f"{q.label(ref, s)} meets the high ball in the opponents' half: "
                                      f"ball control, or declare a volley", ("ball_control", "volley"),
                        VolleyChoiceCtx(receivers=(ref,)), player=ref)
            return
        open_ball_control(tx, ref)
        return
    give_ball(tx, ref)


def can_volley(s, ref: PlayerRef) -> bool:
    """An attacker meeting a long pass or cross in the opponents' half may volley it ("can be
    called, only in opponent's midfield", read as their half: F29)."""
    p = s.players[ref]
    return p.ms is not None and ref.team is s.attacking and not q.in_own_half(s, ref.team, p.ms)


def volleyers(choice: Choice) -> tuple[PlayerRef, ...]:
    """Who may answer a volley choice with a volley (an older journal's choice names one)."""
    return choice.ctx.receivers or ((choice.player,) if choice.player is not None else ())


def open_ball_control(tx: Tx, ref: PlayerRef) -> None:
    test = q.skill_test(tx.state, ref, Skill.BALL_CONTROL, "Ball Control", "event")
    open_contest(tx, (test,), BallControlCtx())


def give_ball(tx: Tx, ref: PlayerRef) -> None:
    tx.emit(ev.BallSet(Ball(carrier=ref, last_touch=ref.team)))


def open_dispute(tx: Tx, present: list[PlayerRef], aerial: bool) -> None:
    s = tx.state
    sides = []
    for team in (s.attacking or Team.HOME, (s.attacking or Team.HOME).other):
        mine = [r for r in present if r.team is team]
        best = max(mine, key=lambda r: dispute_skill(s, r, aerial)[1])
        skill, _ = dispute_skill(s, best, aerial)
        sides.append(q.skill_test(s, best, skill, f"{skill.label} ({'aerial' if aerial else 'ground'} dispute)",
                                  "event"))
    open_contest(tx, tuple(sides), DisputeCtx(aerial=aerial))


def dispute_skill(s, ref: PlayerRef, aerial: bool) -> tuple[Skill, int]:
    """The skill a player contests a loose ball with: aerial tackle in the air, his better of
    tackle and dribbling on the ground; a goalkeeper in his own penalty area rushes out."""
    p = s.players[ref]
    if p.goalkeeper and q.ms_in(s, "penalty_area", q.own_end(s, ref.team), p.ms):
        return Skill.RUSH_OUT, p.skill(Skill.RUSH_OUT)
    if aerial:
        return Skill.AERIAL_TACKLE, p.skill(Skill.AERIAL_TACKLE)
    options = [(Skill.TACKLE, p.skill(Skill.TACKLE)), (Skill.DRIBBLING, p.skill(Skill.DRIBBLING))]
    return max(options, key=lambda o: o[1])


# --- the end of a round ------------------------------------------------------------------------

def finish_round(tx: Tx) -> bool:
    """Substitutions, cards turned back up, then the next round, a restart, or the end of a
    half. Returns False while a coach still has to choose something."""
    s = tx.state
    # An injured player must come off; his coach names the substitute.
    for p in q.on_pitch(s):
        if p.injured and not any(off == p.ref for off, _ in s.subs_pending) and can_substitute(s, p.ref.team):
            open_choice(tx, p.ref.team, f"{q.label(p.ref, s)} is injured and must be substituted: choose "
                                        f"the substitute", tuple(str(b.ref) for b in q.bench(s, p.ref.team)),
                        SubstituteChoiceCtx(injured=p.ref), player=p.ref)
            return False
    ball_at = q.ball_ps(s)
    for off, on in s.subs_pending:
        tx.emit(ev.SubstitutionMade(off, on))
    for p in q.on_pitch(tx.state):
        if p.injured:
            tx.emit(ev.SubstitutionMade(p.ref, None))
    carrier = tx.state.ball.carrier
    if carrier is not None and not tx.state.players[carrier].on_pitch:
        # The ball stays where the player who left had it.
        tx.emit(ev.BallSet(Ball(ps=ball_at, flight=Flight.LOOSE, last_touch=carrier.team)))
    for team in (Team.HOME, Team.AWAY):
        if not missing_goalkeeper(tx, team):
            return False
    restore_cards(tx)
    s = tx.state
    if s.time_up and period_over(s):
        end_period(tx)
        return True
    if s.restart is not None:
        begin_restart(tx)
    elif s.ball.carrier is not None:
        start_phase(tx, Phase.DECLARATION, s.round + 1, RoundKind.REGULAR, s.ball.carrier.team)
    else:
        begin_transition(tx)
    return True


def can_substitute(s, team: Team) -> bool:
    pending = sum(1 for off, _ in s.subs_pending if off.team is team)
    return s.subs_used[team] + pending < MAX_SUBSTITUTIONS and bool(q.bench(s, team))


def missing_goalkeeper(tx: Tx, team: Team) -> bool:
    """With no goalkeeper on the pitch, a coach hands the goalkeeper's card to an outfield
    player. Returns False while that choice is open."""
    s = tx.state
    players = q.on_pitch(s, team)
    if not players or any(p.goalkeeper for p in players):
        return True
    gone = [p for p in s.players.values() if p.ref.team is team and p.card.goalkeeper and p.where is Where.OUT]
    card_of = gone[-1].ref if gone else None
    open_choice(tx, team, f"{team.label} has no goalkeeper on the pitch: choose who takes the goalkeeper's card",
                tuple(str(p.ref) for p in players), GoalkeeperChoiceCtx(card_of=card_of))
    return False


def restore_cards(tx: Tx) -> None:
    s = tx.state
    for p in s.players.values():
        if p.status is Status.EXHAUSTED or (p.status is Status.STUNNED and p.stunned_until <= s.round):
            tx.emit(ev.StatusSet(p.ref, Status.READY, 0))


def period_over(s) -> bool:
    """Time is up: the half ends after this round unless the ball is still inside a penalty
    box (then play goes on until it leaves the box, goes out of play or a goal is scored).
    A penalty kick already awarded is still taken."""
    if s.restart is not None and s.restart.kind is RestartKind.PENALTY:
        return False
    if s.round_ended_by:
        return True
    ps = q.ball_ps(s)
    return not (q.ps_in(s, "penalty_area", "low", ps) or q.ps_in(s, "penalty_area", "high", ps))


def end_period(tx: Tx) -> None:
    s = tx.state
    level = s.score[Team.HOME] == s.score[Team.AWAY]
    nxt = {Period.FIRST_HALF: Period.SECOND_HALF, Period.SECOND_HALF: Period.EXTRA_FIRST,
           Period.EXTRA_FIRST: Period.EXTRA_SECOND, Period.EXTRA_SECOND: Period.SHOOTOUT}[s.period]
    if s.period is Period.SECOND_HALF and (s.options.championship or not level):
        finish_match(tx, "full time")
        return
    if s.period is Period.EXTRA_SECOND:
        if not level:
            finish_match(tx, "extra time")
            return
        tx.emit(ev.RestartSet(None, "end of extra time"))
        tx.emit(ev.BallSet(Ball()))
        tx.emit(ev.ShootoutStarted(first=s.first_kicker.other))
        return
    if s.restart is not None:
        tx.emit(ev.RestartSet(None, f"end of the {s.period.label}"))
    tx.emit(ev.BallSet(Ball()))
    for p in s.players.values():
        if p.status is not Status.READY:
            tx.emit(ev.StatusSet(p.ref, Status.READY, 0))
    kicker = {Period.SECOND_HALF: s.first_kicker.other, Period.EXTRA_FIRST: s.first_kicker,
              Period.EXTRA_SECOND: s.first_kicker.other}[nxt]
    tx.emit(ev.PeriodStarted(nxt))
    tx.emit(ev.PicksSet(first_picker=s.first_picker.other, kicker=kicker))
    start_phase(tx, Phase.BOARD_PICK, attacking=None)


def finish_match(tx: Tx, how: str) -> None:
    s = tx.state
    home, away = s.score[Team.HOME], s.score[Team.AWAY]
    if how == "shoot-out":
        h = sum(1 for k in s.shootout if k.team is Team.HOME and k.scored)
        a = sum(1 for k in s.shootout if k.team is Team.AWAY and k.scored)
        winner = Team.HOME if h > a else Team.AWAY
    else:
        winner = None if home == away else (Team.HOME if home > away else Team.AWAY)
    points_home = points_away = None
    if s.options.championship:
        points_home = 1 if winner is None else (3 if winner is Team.HOME else 0)
        points_away = 1 if winner is None else (3 if winner is Team.AWAY else 0)
    decided = "draw" if winner is None else how
    tx.emit(ev.MatchEnded(Result(winner, home, away, decided, points_home, points_away)))


# --- restarts and transition rounds -------------------------------------------------------------

def begin_restart(tx: Tx) -> None:
    s = tx.state
    r = s.restart
    phase = Phase.KICK_OFF if r.kind is RestartKind.KICK_OFF else Phase.RESTART
    start_phase(tx, phase, attacking=r.team)


def begin_transition(tx: Tx) -> None:
    """Nobody has the ball: the nearest player(s) run to it; their run sets the pace."""
    s = tx.state
    start_phase(tx, Phase.MOVEMENT, s.round + 1, RoundKind.TRANSITION, None)
    s = tx.state
    ps = s.ball.ps
    if ps is None:
        return  # a coach must say who reached the ball (ReachBall)
    b = q.board(s)
    candidates = [p for p in q.on_pitch(s) if not p.injured and p.status is not Status.STUNNED]
    if not candidates or any(p.ms is None for p in candidates):
        return
    dist = {p.ref: b.ms_to_ps_distance(p.ms, ps) for p in candidates}
    best = min(dist.values())
    reach = [r for r, d in dist.items() if d == best]
    reach_ball(tx, tuple(reach), best)


def reach_ball(tx: Tx, players: tuple[PlayerRef, ...], distance: int) -> None:
    s = tx.state
    b = q.board(s)
    ps = s.ball.ps
    for ref in players:
        p = s.players[ref]
        if ps is not None and (p.ms is None or b.ms_to_ps(p.ms) != ps):
            free = [c for c in b.ps_cells(ps) if q.occupant(tx.state, c) is None]
            if free:
                target = min(free, key=lambda c: grid_distance(p.ms, c)) if p.ms is not None else free[0]
                tx.emit(ev.PlayerRelocated(ref, target, Where.PITCH, "runs to the loose ball"))
        exhaust(tx, ref)
    set_pace(tx, distance)
    if len(players) == 1:
        give_ball(tx, players[0])
