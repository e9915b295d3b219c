"""A normal action in each game, played at a table with the tray and the camera on, counting
the coach's taps (tests/autoflow_table.py): the declaration, and every other tap the tablet
still needed before the game waited for the next declaration.

Each scenario sets a match up (not counted), then plays one action as a coach would: the
declaration on the tablet, the dice thrown in the tray, the figures moved by hand where the
camera sees them. ``finish`` is the coach doing whatever the tablet still asks after that: a
roll the tray did not fill (keypad), a question (a choice), a pass or the end of a turn; each
is a tap, worded for the report. The scenarios' dice are fixed: the same taps every run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from companion.commands import PlaceFigure
from companion.teams import PlayerRef, Team
from ui.autoflow import CLOSING, Auto, filled

from autoflow_table import DECLARATION, Table, Tap

H = lambda n: PlayerRef(Team.HOME, n)  # noqa: E731
A = lambda n: PlayerRef(Team.AWAY, n)  # noqa: E731


@dataclass(frozen=True)
class Played:
    game: str
    action: str
    taps: tuple[Tap, ...]
    log: tuple[str, ...]    # the log lines the action added

    @property
    def declarations(self) -> int:
        return sum(1 for t in self.taps if t.kind == DECLARATION)

    @property
    def others(self) -> tuple[Tap, ...]:
        return tuple(t for t in self.taps if t.kind != DECLARATION)


def centre(board, cell) -> tuple[float, float]:
    """A cell's centre in board millimetres, whatever the game calls it."""
    for name in ("ms_center_mm", "centre_mm", "center_mm"):
        if hasattr(board, name):
            return getattr(board, name)(tuple(cell))
    raise AttributeError(f"{type(board).__name__} has no cell centre")


def finish(table: Table, done: Callable[[], bool], limit: int = 16) -> None:
    """The coach does what the tablet still asks until ``done``: each is a counted tap."""
    ctl = table.ctl
    for _ in range(limit):
        view = table.view
        if done():
            return
        head = view.pending[0] if view.pending else None
        if head is not None and head.kind == "dice":
            table.tap("roll", f"{head.team.label if head.team else 'either'}: roll typed (the tray did not fill it)",
                      lambda: ctl.roll_software(head))
            continue
        if head is not None and head.kind == "choice":
            table.tap("choice", f"answer: {head.text}", lambda: ctl.choose(head.id, head.options[0]))
            continue
        closing = [a for a in view.actions if a.id in CLOSING and filled(a) is not None
                   and (view.acting is None or a.team is view.acting)]
        if not closing:
            raise AssertionError(f"the coach has nothing to tap and the action is not over: {view.pending} "
                                 f"{view.actions} {view.error}")
        a = closing[0]
        table.tap(a.id, f"{a.team.label}: {a.id.replace('_', ' ')}", lambda: ctl.submit(filled(a)))
    raise AssertionError(f"the action did not end in {limit} taps: {table.view.pending}")


class FaceScreen:
    """What a game's face reaches of the live screen when it hands a move to the camera."""

    def __init__(self, ctl) -> None:
        self.ctl = ctl

    @property
    def view(self):
        return self.ctl.view

    def expect_move(self, expectation) -> None:
        self.ctl.expect_move(expectation)


def asked(table: Table) -> bool:
    """A roll or a question is waiting."""
    return any(r.kind in ("dice", "choice") for r in table.view.pending)


def _played(table: Table, action: str, start: int) -> Played:
    return Played(table.game, action, tuple(table.taps), tuple(table.view.log[start:]))


# --- Fublet: a short pass, and the round's movement up to the next declaration ----------------------

def fublet(table: Table) -> Played:
    from companion.fublet import commands as c
    from companion.fublet.components import Action, load_components, shipped_team
    from companion.fublet.model import Phase
    from fublet_kit import AWAY_LINEUP, HOME_LINEUP

    ctl = table.ctl
    ctl.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()), seed=5)
    table.connect_tray()
    table.connect_camera()
    table.tray.throw({"home-black": 7})   # the opening roll, one die each
    table.tray.throw({"away-black": 3})
    picker = table.state.first_picker
    ctl.submit(c.ChooseBoard(picker, "high_short_offensive"))
    ctl.submit(c.ChooseBoard(picker.other, "low_short_defensive"))
    ctl.submit_many([PlaceFigure(H(n), square=ms, facing=0) for n, ms in HOME_LINEUP.items()]
                    + [PlaceFigure(A(n), square=ms, facing=180) for n, ms in AWAY_LINEUP.items()])
    ctl.submit(c.KickOff(A(8)))
    assert table.state.phase is Phase.DECLARATION, table.view.error
    start = len(table.view.log)
    table.start_counting()
    table.declare(c.Declare(A(8), Action.SHORT_PASS, target_ps=(12, 9)), "Away #8: short pass to PS (12, 9)")
    table.tray.throw({"away-black": 1, "away-white": 2})          # 12: a success
    assert table.state.phase is Phase.MOVEMENT, table.view.error
    table.see(H(8), centre(table.view.board, (20, 19)), 0)         # Home steps up: the camera sees it
    assert table.state.players[H(8)].ms == (20, 19), table.view.error
    finish(table, lambda: table.state.phase is Phase.DECLARATION and not asked(table))
    return _played(table, "short pass, then the round's movement phases", start)


# --- Futboard: a move and a pass in one turn; the other coach's move and take-the-ball ---------------

def futboard(table: Table) -> Played:
    from companion.futboard import commands as c
    from companion.futboard.components import load_components, shipped_team
    from companion.futboard.model import Options
    from futboard_kit import HOME_442, away_of

    ctl = table.ctl
    ctl.new_match(c.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(),
                                Options(goal_limit=3)), game="futboard", seed=5)
    table.connect_tray()
    table.connect_camera()
    ctl.submit_many([PlaceFigure(H(n), square=sq) for n, sq in HOME_442.items()]
                    + [PlaceFigure(A(n), square=sq) for n, sq in away_of(HOME_442).items()])
    ctl.submit(c.Pass(H(9), H(8)))                                   # the kick-off: one of Home's 3 actions
    start = len(table.view.log)
    table.start_counting()
    table.see(H(7), centre(table.view.board, (7, 5)))                 # a movement: the camera's alone
    table.declare(c.Pass(H(8), H(7)), "Home: pass #8 to #7")          # the turn's third action
    assert table.state.turn is Team.AWAY, table.view.error
    table.see(A(9), centre(table.view.board, (8, 5)))                 # Away closes in on #7
    assert table.state.players[A(9)].space == (8, 5), table.view.error
    table.declare(c.TakeBall(A(9)), "Away #9: take the ball from #7")
    table.tray.throw({"away-black": 1})                               # 1: taken
    finish(table, lambda: not asked(table) and table.state.turn is Team.AWAY
           and any(a.id == "move" for a in table.view.actions))
    return _played(table, "a move and a pass; a move and take-the-ball", start)


# --- Football Leader: a pass with its roll, then the turn's end ---------------------------------------

def football_leader(table: Table) -> Played:
    from companion.football_leader import commands as c
    from companion.football_leader import queries as q
    from companion.football_leader.components import load_components, shipped_team
    from companion.football_leader.model import Options
    from football_leader_kit import sheet
    from ui.games.football_leader import FootballLeaderFace

    ctl = table.ctl
    ctl.new_match(c.CreateMatch(shipped_team("lions"), shipped_team("blues"), load_components(), Options()),
                  game="football_leader", seed=5)
    table.connect_tray()
    table.connect_camera()
    ctl.submit(c.WriteStrategy(Team.HOME, sheet()))
    ctl.submit(c.WriteStrategy(Team.AWAY, sheet(mirrored=True)))
    table.tray.throw({"home-black": 7})
    table.tray.throw({"away-black": 3})
    for team in (Team.HOME, Team.AWAY):
        ctl.submit(c.ConfirmSetUp(team))
    ctl.submit(c.KickOff(H(9)))
    start = len(table.view.log)
    table.start_counting()
    card = max(q.cards_left(table.state, Team.HOME), key=lambda cd: cd.sort_key)
    table.declare(c.Pass(H(8), card), f"Home: pass #9 to #8 with {card}")
    table.tray.throw({"home-black": 9})                               # 9: the pass arrives
    assert table.state.ball == H(8), table.view.error
    # The extra movement, declared on the tablet (the counter, the card) and then made by hand:
    # the face leaves the space to the camera.
    s = table.state
    board = q.board(s)
    mover = next(p for p in sorted(q.outfield(s, Team.HOME), key=lambda p: p.ref.number)
                 if p.ref != s.ball and q.can_take_marker(s, p.ref))
    to = next(sp for sp, _ in sorted(board.neighbours(mover.space))
              if not board.space(sp).goal and q.room(s, sp, Team.HOME) > 0)
    card = min(q.cards_left(s, Team.HOME), key=lambda cd: cd.sort_key)
    table.tap(DECLARATION, f"Home: extra movement, #{mover.ref.number} with {card}",
              lambda: FootballLeaderFace._expect_space(FaceScreen(ctl), mover.ref, card))
    table.see(mover.ref, centre(board, to))
    finish(table, lambda: not asked(table) and table.state.turn is not None and table.state.turn.team is Team.AWAY)
    return _played(table, "a pass with its roll; an extra movement declared, then made by hand", start)


# --- Fußball-Liga: a pass in the shot phase, the movement phase's steps --------------------------------

def fussball_liga(table: Table) -> Played:
    from companion.fussball_liga import commands as c
    from companion.fussball_liga.components import load_components, shipped_team
    from companion.fussball_liga.model import Options, Phase
    from fussball_liga_kit import AWAY_LINEUP, HOME_LINEUP

    ctl = table.ctl
    ctl.new_match(c.CreateMatch(shipped_team("rotstein"), shipped_team("gruenwald"), load_components(), Options()),
                  game="fussball_liga", seed=5)
    table.connect_tray()
    table.connect_camera()
    for option in ("home", "kick_off", "high"):
        ctl.choose(table.view.pending[0].id, option)
    ctl.submit_many([PlaceFigure(H(n), square=sq) for n, sq in HOME_LINEUP.items()]
                    + [PlaceFigure(A(n), square=sq) for n, sq in AWAY_LINEUP.items()])
    ctl.submit(c.Kick(H(9), (12, 11)))          # the kick-off to #11
    for _ in range(4):                          # nobody moves after the kick-off
        if table.state.phase is Phase.MOVEMENT:
            ctl.submit(c.PassTurn(table.state.movement.turn))
    assert table.state.phase is Phase.SHOT, table.view.error
    start = len(table.view.log)
    table.start_counting()
    table.declare(c.Kick(H(11), (10, 9)), "Home #11: pass to #7")
    assert table.state.phase is Phase.MOVEMENT, table.view.error
    table.see(H(6), centre(table.view.board, (12, 4)))      # the attacker's step: 3 points
    table.see(A(11), centre(table.view.board, (15, 7)))     # the defender answers with all he may: 3
    assert table.state.players[A(11)].square == (15, 7), table.view.error
    finish(table, lambda: table.state.phase is Phase.SHOT and not asked(table))
    return _played(table, "a pass, one step each in the movement phase", start)


GAMES: dict[str, Callable[[Table], Played]] = {"fublet": fublet, "futboard": futboard,
                                                "football_leader": football_leader, "fussball_liga": fussball_liga}


def play(game: str, data_dir: Path, auto: Auto = Auto.DEVICES, wire: str = "memory") -> Played:
    table = Table(Path(data_dir), game, wire)
    table.ctl.auto = auto
    try:
        return GAMES[game](table)
    finally:
        table.close()
