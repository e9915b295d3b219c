"""Game setup, tactical-board picks, kick-offs, and the penalty shoot-out.

Each coach rolls a die: the higher picks a tactical board first, the lower takes the
kick-off. At the end of every half the boards are picked again, the first pick going to
the coach who did not pick first last time. Kick-off is a free action: the ball goes to a
teammate in the kicker's midfield zone, whose declaration starts the first round.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import ChooseBoard, CreateMatch, KickOff, TakeShootoutKick
from .components import Skill
from .model import (SHOOTOUT_KICKS, Contest, OpeningCtx, Period, Phase, RoundKind, ShootoutCtx, Test, Zone)
from .resolve import challenge, close, verdict
from .tx import Tx, refuse

SETUP = "Game Setup"


def create_match(tx: Tx, cmd: CreateMatch) -> None:
    if tx.state.created:
        raise refuse(SETUP, "this match has already been set up")
    if not cmd.components.tactical_boards or len(cmd.components.tactical_boards) < 2:
        raise refuse(SETUP, "two coaches need at least two tactical boards")
    tx.emit(ev.MatchCreated(cmd.home, cmd.away, cmd.components, cmd.options))
    open_opening_roll(tx)


def open_opening_roll(tx: Tx) -> None:
    tests = tuple(Test(team=t, label="Opening roll (highest picks a board first)", dice=DiceSpec((DieKind.D10,), t))
                  for t in (Team.HOME, Team.AWAY))
    flow.open_contest(tx, tests, OpeningCtx())


def resolve_opening(tx: Tx, contest: Contest) -> None:
    home, away = contest.tests
    if home.result == away.result:
        flow.reopen(tx, contest, f"Opening roll: both {home.result}, roll again")
        return
    winner = Team.HOME if home.result > away.result else Team.AWAY
    close(tx, contest, f"Opening roll: Home {home.result}, Away {away.result}; {winner.label} picks a board first, "
                       f"{winner.other.label} kicks off")
    tx.emit(ev.PeriodStarted(Period.FIRST_HALF))
    tx.emit(ev.PicksSet(first_picker=winner, kicker=winner.other))
    flow.start_phase(tx, Phase.BOARD_PICK, attacking=None)


def picker(s) -> Team:
    return s.first_picker if not s.boards else s.first_picker.other


def choose_board(tx: Tx, cmd: ChooseBoard) -> None:
    s = tx.state
    section = "Half-Time Strategy Change" if s.period is not Period.FIRST_HALF else SETUP
    if s.phase is not Phase.BOARD_PICK:
        raise refuse(section, "tactical boards are picked before the kick-off of each half")
    if cmd.team is not picker(s):
        raise refuse(section, f"{picker(s).label} picks now")
    try:
        board = s.components.tactical_board(cmd.board)
    except KeyError as exc:
        raise refuse(section, str(exc.args[0])) from None
    if cmd.board in s.boards.values():
        raise refuse(section, f"{board.name} is already in front of {s.first_picker.label}; pick another board")
    tx.emit(ev.BoardChosen(cmd.team, cmd.board))
    if len(tx.state.boards) == 2:
        flow.start_phase(tx, Phase.KICK_OFF, attacking=s.restart.team if s.restart else None)


def kick_off(tx: Tx, cmd: KickOff) -> None:
    s = tx.state
    # The rulebook says how a kick-off is taken under its "Round Sequence" heading ("Kick-off:
    # Kick-off of every half-time is always taken as a free action..."): a refusal names that
    # section, so the tablet links it (a "Kick-off" section the reference has not).
    section = "Round Sequence"
    if s.phase is not Phase.KICK_OFF or s.restart is None:
        raise refuse(section, "there is no kick-off to take now")
    team = s.restart.team
    p = s.players.get(cmd.player)
    if p is None or cmd.player.team is not team or not p.on_pitch:
        raise refuse(section, f"{team.label} kicks off: give the ball to one of their players on the pitch")
    if p.ms is not None and q.zone_of(s, team, p.ms) is not Zone.MIDFIELD:
        raise refuse(section, f"the ball goes to a teammate in the kicker's midfield zone; {cmd.player} is in the "
                              f"{q.zone_of(s, team, p.ms).value} zone")
    for other in q.on_pitch(s):
        if other.ms is not None and not q.in_own_half(s, other.ref.team, other.ms):
            raise refuse(SETUP, f"at kick-off every player stands in his own half; {other.ref} is in the "
                                f"opponents' half")
    for side in (Team.HOME, Team.AWAY):
        count = len(q.on_pitch(s, side))
        if count > 11:
            raise refuse(SETUP, f"{side.label} has {count} players on the pitch; at most eleven")
    tx.emit(ev.KickOffTaken(team, cmd.player))
    flow.start_phase(tx, Phase.DECLARATION, s.round + 1, RoundKind.REGULAR, team)


# --- the shoot-out -----------------------------------------------------------------------------

def take_shootout_kick(tx: Tx, cmd: TakeShootoutKick) -> None:
    """Kicks alternate, five each, then sudden death; a player kicks again only after every
    teammate on the pitch has kicked. Finalization against the goalkeeper's penalty kick
    skill; no shot-on-goal tokens."""
    s = tx.state
    section = "Winning the Match"
    if s.phase is not Phase.SHOOTOUT:
        raise refuse(section, "there is no penalty shoot-out now")
    if s.queue:
        raise refuse(section, "finish the kick in progress first")
    team = s.turn
    p = s.players.get(cmd.kicker)
    if p is None or cmd.kicker.team is not team or not p.on_pitch:
        raise refuse(section, f"it is {team.label}'s kick: choose one of their players on the pitch")
    taken = [k.kicker for k in s.shootout if k.team is team]
    eligible = [x.ref for x in q.on_pitch(s, team)]
    fresh = [r for r in eligible if taken.count(r) == min(taken.count(e) for e in eligible)]
    if cmd.kicker not in fresh:
        raise refuse(section, f"{cmd.kicker} has kicked already; first every teammate takes a kick "
                              f"({', '.join(str(r) for r in fresh)})")
    gk = q.goalkeeper(s, team.other)
    tx.emit(ev.ShootoutKickTaken(team, cmd.kicker))
    kicker = q.skill_test(s, cmd.kicker, Skill.FINALIZATION, "Finalization (shoot-out)")
    tests = [kicker]
    if gk is not None:
        tests.append(q.skill_test(s, gk.ref, Skill.PENALTY_KICK, "Penalty Kick save (shoot-out)"))
    flow.open_contest(tx, tuple(tests), ShootoutCtx())


def resolve_shootout(tx: Tx, contest: Contest) -> None:
    s = tx.state
    kicker = contest.tests[0]
    if len(contest.tests) == 1:
        scored, text = kicker.success, verdict(s, kicker)
    else:
        keeper = contest.tests[1]
        outcome = challenge(kicker, keeper)
        text = f"{verdict(s, kicker)}; {verdict(s, keeper)}"
        if outcome == "tie":
            flow.reopen(tx, contest, text + "; tie: both roll again")
            return
        scored = outcome == "a"
    close(tx, contest, text + ("; scores" if scored else "; no goal"))
    tx.emit(ev.ShootoutKickResolved(kicker.player.team, kicker.player, scored))
    if shootout_decided(tx.state):
        flow.finish_match(tx, "shoot-out")


def shootout_decided(s) -> bool:
    kicks = {t: [k for k in s.shootout if k.team is t] for t in (Team.HOME, Team.AWAY)}
    goals = {t: sum(1 for k in kicks[t] if k.scored) for t in kicks}
    taken = {t: len(kicks[t]) for t in kicks}
    if taken[Team.HOME] <= SHOOTOUT_KICKS and taken[Team.AWAY] <= SHOOTOUT_KICKS:
        for t in (Team.HOME, Team.AWAY):
            if goals[t] + (SHOOTOUT_KICKS - taken[t]) < goals[t.other]:
                return True
        return False
    return taken[Team.HOME] == taken[Team.AWAY] and goals[Team.HOME] != goals[Team.AWAY]
