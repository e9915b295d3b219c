"""Helpers for driving a Fußball-Liga variant match in tests: a settable clock, the toss, a
line-up, rolls by value, and short names for figures."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import DieKind, roll_of
from companion.fussball_liga import commands as c
from companion.fussball_liga.clock import Instant
from companion.fussball_liga.components import load_components, shipped_team
from companion.fussball_liga.model import Options, Phase
from companion.fussball_liga.rules import FussballLigaRules
from companion.match import Match
from companion.teams import PlayerRef, Team

START = datetime(2026, 11, 30, 18, 0, 0, tzinfo=timezone.utc)


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


class Clock:
    """A clock the test moves by hand: every command is recorded at ``now``."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    @property
    def instant(self) -> Instant:
        return Instant.of(self.now)


# Home defends the low goal (x = 0) in the first half and kicks off; Away mirrored.
HOME_LINEUP = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
               10: (9, 16), 9: (14, 9), 11: (13, 12)}
AWAY_LINEUP = {1: (29, 9), 2: (25, 16), 3: (25, 11), 4: (25, 7), 5: (25, 3), 6: (20, 15), 7: (20, 11),
               8: (20, 7), 10: (20, 3), 9: (18, 10), 11: (18, 7)}


def new_match(journal=None, clock: Clock | None = None, components=None, **options) -> Match:
    m = Match(FussballLigaRules(), journal, clock=clock or Clock())
    m.submit(c.CreateMatch(shipped_team("rotstein"), shipped_team("gruenwald"), components or load_components(),
                           Options(**options)))
    return m


def choose(m: Match, option: str):
    req = next(r for r in m.pending() if r.kind == "choice")
    return m.submit(Choose(req.id, option))


def toss(m: Match, winner: str = "home", pick: str = "kick_off", end: str | None = None) -> None:
    """The coin toss; by default Home wins, kicks off, and Away chooses to defend the high goal."""
    choose(m, winner)
    choose(m, pick)
    if end is None:  # Home defends the low goal
        chooser = winner if pick == "ends" else ("away" if winner == "home" else "home")
        end = "low" if chooser == "home" else "high"
    choose(m, end)


def lineup(m: Match, home=None, away=None) -> None:
    for n, sq in (HOME_LINEUP if home is None else home).items():
        m.submit(PlaceFigure(H(n), square=sq))
    for n, sq in (AWAY_LINEUP if away is None else away).items():
        m.submit(PlaceFigure(A(n), square=sq))


def die(m: Match, team: Team, face: int, request: str | None = None):
    return m.submit(SubmitRoll(roll_of(DieKind.D6, face, owner=team), request))


def dice(m: Match, team: Team, *faces: int):
    return m.submit(SubmitRoll(roll_of(DieKind.D6, *faces, owner=team)))


def kicked_off(clock: Clock | None = None, to: PlayerRef | None = None, target=(12, 11), **options) -> Match:
    """Toss, line-up, and Home's kick-off from #9 at (14, 9) to (12, 11), next to #11: Home's shot phase
    of turn 1 is over and the movement phase begins."""
    m = new_match(clock=clock, **options)
    toss(m)
    lineup(m)
    m.submit(c.Kick(H(9), target))
    if m.pending() and m.pending()[0].kind == "dice":  # "Taking a Pass": #11 takes it
        dice(m, Team.HOME, 6, 6)
    return m


def at(m: Match, ref: PlayerRef, square) -> None:
    """Put a figure somewhere by a correction (no movement rules)."""
    m.submit(PlaceFigure(ref, square=square, correction=True))


def phase(m: Match) -> Phase:
    return m.state.phase


def components_with(**limits):
    comps = load_components()
    return replace(comps, rules=replace(comps.rules, limits=replace(comps.rules.limits, **limits)))


def pass_movement(m: Match) -> None:
    """Both coaches pass until the movement phase is over."""
    turn = m.state.turn_no
    for _ in range(6):
        if m.state.phase is not Phase.MOVEMENT or m.state.queue or m.state.turn_no != turn:
            return
        m.submit(c.PassTurn(m.state.movement.turn))


def to_turn_two(clock: Clock | None = None, **options) -> Match:
    """After the kick-off both coaches pass: Home's shot phase of turn 2, #11 holding the ball."""
    m = kicked_off(clock=clock, **options)
    pass_movement(m)
    assert m.state.phase is Phase.SHOT and m.state.turn_no == 2
    return m


DEEP = {1: (29, 10), 2: (28, 3)}  # Away's last two: nobody of Home's is off-side in front of them


def scene(m: Match, home: dict, away: dict, ball=None, holder: PlayerRef | None = None, control=None) -> None:
    """Lift every figure off the board, put down the ones named, and place the ball."""
    from companion.fussball_liga.model import Control

    for ref, p in m.state.players.items():
        if p.square is not None:
            m.submit(PlaceFigure(ref, None, correction=True))
    for n, sq in home.items():
        at(m, H(n), sq)
    for n, sq in away.items():
        at(m, A(n), sq)
    if ball is not None:
        if holder is not None and control is None:
            control = Control.CLOSE if m.state.players[holder].square == ball else Control.LOOSE
        m.submit(c.PlaceBall(ball, holder, control))
