"""Before and between the kicks: strategy sheets, the opening roll, set-ups, kick-offs.

1.3: each coach writes where his ten outfield counters stand before a goal kick and before
a kick-off. 6.1: before a goal kick or a kick-off (only then) a coach may change three
positions and make three replacements over the match. Once both coaches confirm their
set-up the counters stand by the sheets and the kick is taken.
"""

from __future__ import annotations

from ..commands import PlaceFigure
from ..dice import DiceSpec, DieKind
from ..teams import Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import CallGoalKick, ChangeStrategy, ConfirmSetUp, CreateMatch, KickOff, Replace, WriteStrategy
from .model import POSITION_CHANGES, REPLACEMENTS, OpeningCtx, Period, Phase, RestartKind, Roll, Stage, Test
from .pitch import Space
from .resolve import close
from .tx import Tx, refuse

SHEETS = "1.3 Strategy Sheets"
CHANGES = "6.1 Strategy Sheet"
KICK_OFF = "3.9 Kick Off"


def create_match(tx: Tx, cmd: CreateMatch) -> None:
    if tx.state.created:
        raise refuse("2.1 Game in Progress", "this match has already been set up")
    tx.emit(ev.MatchCreated(cmd.home, cmd.away, cmd.components, cmd.options))


# --- strategy sheets ----------------------------------------------------------------------------

def is_grey(s, space: Space, team: Team) -> bool:
    b = q.board(s)
    key = space if q.own_end(s, team) == "low" else b.mirror(space)
    return b.space(key).grey


def check_layout(s, team: Team, spaces: dict[int, Space], kind: str, section: str) -> None:
    """One set-up of a sheet: real pitch spaces, none dark grey, room for the counters, and
    for a kick-off someone in a central space."""
    b = q.board(s)
    count: dict[Space, int] = {}
    for number, space in sorted(spaces.items()):
        if not b.has(space) or b.space(space).goal:
            raise refuse(section, f"#{number}: {space} is not a space of the pitch")
        if is_grey(s, space, team):
            raise refuse(section, f"#{number}: no counter can be placed in the dark grey space {b.label(space)}")
        count[space] = count.get(space, 0) + 1
        if count[space] > b.space(space).capacity:
            room = "one counter" if b.space(space).capacity == 1 else "two counters"
            raise refuse(section, f"{b.label(space)} has room for {room} of each team ({kind} set-up)")
    if kind == "kick_off" and spaces and not any(b.space(sp).central for sp in spaces.values()):
        raise refuse(section, "at least one counter stands in a central space for the kick-off")


def write_strategy(tx: Tx, cmd: WriteStrategy) -> None:
    s = tx.state
    if s.phase is not Phase.STRATEGY:
        raise refuse(SHEETS, "strategy sheets are written before the match; change them with position "
                             "changes and replacements before a goal kick or kick-off")
    if cmd.team in s.sheets:
        raise refuse(SHEETS, f"{cmd.team.label} has written a sheet already")
    sheet = cmd.sheet
    roster = s.roster(cmd.team)
    if sheet.goalkeeper != roster.goalkeeper.number:
        raise refuse(SHEETS, f"the goalkeeper is #{roster.goalkeeper.number}, who always stays in the goal space")
    if set(sheet.goal_kick) != set(sheet.kick_off):
        raise refuse(SHEETS, "the goal-kick and kick-off set-ups place the same ten counters")
    numbers = sorted(sheet.kick_off)
    outfield = {c.number for c in roster.counters if not c.goalkeeper}
    if len(numbers) != 10 or not set(numbers) <= outfield:
        raise refuse(SHEETS, f"place ten of {roster.name}'s outfield counters (the other three are substitutes)")
    check_layout(s, cmd.team, sheet.goal_kick, "goal_kick", SHEETS)
    check_layout(s, cmd.team, sheet.kick_off, "kick_off", SHEETS)
    tx.emit(ev.StrategyWritten(cmd.team, sheet))
    if len(tx.state.sheets) == 2:
        tx.emit(ev.PhaseSet(Phase.OPENING_ROLL))
        open_opening_roll(tx)


def open_opening_roll(tx: Tx) -> None:
    tests = tuple(Test(team=t, label="Opening roll (the higher kicks off)", dice=DiceSpec((DieKind.D12,), t))
                  for t in (Team.HOME, Team.AWAY))
    flow.open_roll(tx, tests, OpeningCtx())


def resolve_opening(tx: Tx, item: Roll) -> None:
    home, away = item.tests
    if home.result == away.result:
        close(tx, item, f"Opening roll: both {home.result}, roll again")
        open_opening_roll(tx)
        return
    winner = Team.HOME if home.result > away.result else Team.AWAY
    close(tx, item, f"Opening roll: Home {home.result}, Away {away.result}; {winner.label} is the first player "
                    f"and kicks off")
    tx.emit(ev.FirstPlayerSet(winner))
    flow.start_period(tx, Period.FIRST_HALF, winner)


# --- changes before a goal kick or kick-off ---------------------------------------------------------

def check_window(s, team: Team) -> None:
    if s.phase is not Phase.SET_UP:
        raise refuse(CHANGES, "strategy sheet modifications can be made only before either a goal kick or a "
                              "kick off")
    if team in s.ready:
        raise refuse(CHANGES, f"{team.label} has confirmed the set-up already")


def change_strategy(tx: Tx, cmd: ChangeStrategy) -> None:
    s = tx.state
    check_window(s, cmd.team)
    if s.changes_used[cmd.team] >= POSITION_CHANGES:
        raise refuse(CHANGES, f"{cmd.team.label} has made its {POSITION_CHANGES} position modifications")
    p = s.players.get(cmd.player)
    if p is None or cmd.player.team is not cmd.team or not p.on_pitch or p.goalkeeper:
        raise refuse(CHANGES, f"change the position of one of {cmd.team.label}'s outfield counters on the pitch")
    if cmd.goal_kick is None and cmd.kick_off is None:
        raise refuse(CHANGES, "name the new goal-kick space, kick-off space, or both")
    sheet = s.sheets[cmd.team]
    if cmd.goal_kick is not None:
        check_layout(s, cmd.team, {**sheet.goal_kick, cmd.player.number: cmd.goal_kick}, "goal_kick", CHANGES)
    if cmd.kick_off is not None:
        check_layout(s, cmd.team, {**sheet.kick_off, cmd.player.number: cmd.kick_off}, "kick_off", CHANGES)
    tx.emit(ev.StrategyChanged(cmd.team, cmd.player, cmd.goal_kick, cmd.kick_off))


def replace(tx: Tx, cmd: Replace) -> None:
    s = tx.state
    check_window(s, cmd.team)
    if s.replacements_used[cmd.team] >= REPLACEMENTS:
        raise refuse(CHANGES, f"{cmd.team.label} has made its {REPLACEMENTS} replacements")
    off, on = s.players.get(cmd.off), s.players.get(cmd.on)
    if off is None or cmd.off.team is not cmd.team or not off.on_pitch or off.goalkeeper:
        raise refuse(CHANGES, f"replace one of {cmd.team.label}'s outfield counters on the pitch")
    if on is None or cmd.on.team is not cmd.team or on.ref not in {b.ref for b in q.bench(s, cmd.team)}:
        raise refuse(CHANGES, f"the new counter comes from {cmd.team.label}'s substitutes "
                              f"({', '.join(str(b.ref) for b in q.bench(s, cmd.team)) or 'none left'})")
    sheet = s.sheets[cmd.team]
    goal_kick = cmd.goal_kick if cmd.goal_kick is not None else sheet.goal_kick.get(cmd.off.number)
    kick_off = cmd.kick_off if cmd.kick_off is not None else sheet.kick_off.get(cmd.off.number)
    gk = {n: sp for n, sp in sheet.goal_kick.items() if n != cmd.off.number} | {cmd.on.number: goal_kick}
    ko = {n: sp for n, sp in sheet.kick_off.items() if n != cmd.off.number} | {cmd.on.number: kick_off}
    check_layout(s, cmd.team, gk, "goal_kick", CHANGES)
    check_layout(s, cmd.team, ko, "kick_off", CHANGES)
    tx.emit(ev.PlayerReplaced(cmd.team, cmd.off, cmd.on, goal_kick, kick_off))


def confirm_set_up(tx: Tx, cmd: ConfirmSetUp) -> None:
    check_window(tx.state, cmd.team)
    tx.emit(ev.SetUpConfirmed(cmd.team))


def place_figure(tx: Tx, cmd: PlaceFigure) -> None:
    """A counter put or seen somewhere outside a movement: a correction anywhere, or, during a
    set-up, the space its sheet gives it."""
    s = tx.state
    p = s.players.get(cmd.player)
    if p is None:
        raise refuse("1.1 The Player Counters", f"no counter {cmd.player} in this match")
    b = q.board(s)
    space = cmd.square
    if space is None and cmd.x_mm is not None and cmd.y_mm is not None:
        space = b.space_at(cmd.x_mm, cmd.y_mm)
    if space is not None and not b.has(space):
        raise refuse("1.2 The Pitch", f"{space} is not a space of the board")
    if cmd.correction:
        tx.emit(ev.FigurePlaced(cmd.player, space, True))
        return
    if s.phase is not Phase.SET_UP or s.restart is None:
        raise refuse("3.1 Movement & Moved Markers", "counters move by a movement with an action card (or mark "
                                                     "the placement as a correction)")
    if p.goalkeeper:
        expected = q.goal_space(s, cmd.player.team)
    else:
        sheet = s.sheets[cmd.player.team]
        spaces = sheet.kick_off if s.restart.kind is RestartKind.KICK_OFF else sheet.goal_kick
        expected = spaces.get(cmd.player.number)
    if space != expected:
        raise refuse(SHEETS, f"the strategy sheet puts {cmd.player} in {b.label(expected)} for the "
                             f"{s.restart.kind.label}")
    tx.emit(ev.FigurePlaced(cmd.player, space))


# --- kicks --------------------------------------------------------------------------------------

def kick_off(tx: Tx, cmd: KickOff) -> None:
    s = tx.state
    if s.phase is not Phase.KICK_OFF or s.restart is None:
        raise refuse(KICK_OFF, "there is no kick-off to take now")
    team = s.restart.team
    p = s.players.get(cmd.player)
    if p is None or cmd.player.team is not team or not p.on_pitch or p.goalkeeper:
        raise refuse(KICK_OFF, f"{team.label} kicks off: give the ball to one of its counters")
    b = q.board(s)
    central = [c for c in q.outfield(s, team) if c.space is not None and b.space(c.space).central]
    if central and cmd.player not in {c.ref for c in central}:
        raise refuse(KICK_OFF, f"the ball goes to a counter on the two central spaces "
                               f"({', '.join(str(c.ref) for c in central)})")
    tx.emit(ev.KickOffTaken(team, cmd.player))
    tx.emit(ev.PhaseSet(Phase.TURN))
    flow.note(tx, "startup", cmd.player)


def call_goal_kick(tx: Tx, cmd: CallGoalKick) -> None:
    """3.6: the goalkeeper won the ball in a tackle; in his turn the coach takes a goal kick
    (or just passes, without stopping the game)."""
    s = tx.state
    section = "3.6 Tackle (Goalkeeper Tackle)"
    flow.check_turn(s, cmd.team, section)
    keeper = q.keeper(s, cmd.team)
    if keeper is None or s.ball != keeper.ref or s.turn.stage is not Stage.START:
        raise refuse(section, "a goal kick is called when the goalkeeper holds the ball at the start of the turn")
    tx.emit(ev.GoalKickCalled(cmd.team))
    flow.award(tx, RestartKind.GOAL_KICK, cmd.team, "the goalkeeper won the ball")
    tx.emit(ev.PhaseSet(Phase.SET_UP))
