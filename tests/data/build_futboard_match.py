"""Build tests/data/futboard_full_match.jsonl: a whole Futboard match played through the rules
core command by command, exported as JSON Lines.

Estrela FC (Home) against Mare Azul (Away), ten minutes on the match clock, Home starting
with the ball. Passes by the ruler, movements with and without the dribble symbol, kicks that
miss, are defended and score, a corner kick from equal rolls, attempts to take the ball that
fail, succeed and foul, a yellow card then a second one (sent off), a penalty, a substitute
after a goal, the clock paused and resumed, and the match ended when time is up. The times
in the file are fixed (five seconds per command from a fixed start, the same instants the
tablet's clock commands carry) so rebuilding it gives the same bytes;
tests/test_futboard_full_match.py checks that, and replays the file through ``touchline
replay``.

Run: python tests/data/build_futboard_match.py [OUT.jsonl]
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from companion.commands import PlaceFigure, SubmitRoll  # noqa: E402
from companion.dice import Die, DieKind, DieResult, Roll  # noqa: E402
from companion.events import Source  # noqa: E402
from companion.futboard import commands as c  # noqa: E402
from companion.futboard.components import load_components, shipped_team  # noqa: E402
from companion.futboard.model import Options, Phase  # noqa: E402
from companion.futboard.ranges import reachable  # noqa: E402
from companion.futboard.rules import FutboardRules  # noqa: E402
from companion.jsonl import export_lines  # noqa: E402
from companion.match import Match  # noqa: E402
from companion.teams import PlayerRef, Team  # noqa: E402

START = datetime(2026, 12, 5, 19, 0, 0, tzinfo=timezone.utc)
TICK = timedelta(seconds=5)

HOME_SHAPE = {1: (0, 6), 2: (3, 2), 3: (3, 5), 4: (3, 7), 5: (3, 10), 6: (6, 2), 7: (6, 5), 8: (6, 7), 10: (6, 10),
              9: (9, 6), 11: (8, 4)}
AWAY_SHAPE = {n: (19 - sq[0], sq[1]) for n, sq in HOME_SHAPE.items()}


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


class Script:
    def __init__(self) -> None:
        self.now = START
        self.rolls = 0
        self.m = Match(FutboardRules(), clock=lambda: self.now)

    @property
    def s(self):
        return self.m.state

    def do(self, command, source: Source = Source.MANUAL):
        self.now += TICK
        return self.m.submit(command, source)

    def d12(self, team: Team, face: int):
        """A roll from the dice tray, each die named by its owner."""
        self.rolls += 1
        die = DieResult(Die(DieKind.D12, "white" if team is Team.HOME else "blue", team), face)
        self.do(SubmitRoll(Roll((die,), Source.TRAY, f"tray-1 boot=3 #{self.rolls}")))

    def place(self, ref: PlayerRef, sq) -> None:
        self.do(PlaceFigure(ref, square=sq), Source.VISION)

    def move(self, ref: PlayerRef, sq) -> None:
        self.do(c.Move(ref, sq), Source.VISION)

    def walk(self, ref: PlayerRef, target) -> None:
        """Move ``ref`` to the space of his range nearest ``target``."""
        options = reachable(self.s, ref)
        best = min(options, key=lambda sq: (max(abs(sq[0] - target[0]), abs(sq[1] - target[1])), sq))
        self.move(ref, best)

    def end(self) -> None:
        self.do(c.EndTurn(self.s.turn))

    def clock(self, command) -> None:
        self.do(command(self.now + TICK))

    def lineup(self, home=HOME_SHAPE, away=AWAY_SHAPE) -> None:
        """Everyone back to the kick-off shape: figures lifted, then put down (the camera)."""
        shape = {H(n): sq for n, sq in home.items()} | {A(n): sq for n, sq in away.items()}
        for ref, p in self.s.players.items():
            if p.on_field and p.space is not None and shape.get(ref) != p.space:
                self.do(PlaceFigure(ref, None), Source.VISION)
        for ref, sq in shape.items():
            p = self.s.players[ref]
            if p.on_field and p.space != sq:
                self.place(ref, sq)


def build() -> Script:
    sc = Script()
    sc.do(c.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(),
                        Options(kick_off=Team.HOME, time_limit_min=10)))
    sc.lineup()
    sc.clock(c.StartClock)

    # --- Round 1: Home kicks off --------------------------------------------------------------------------
    sc.do(c.Pass(H(9), H(8)))                 # the kick-off: a pass from the centre circle
    sc.walk(H(8), (9, 8))                     # #8 dribbles forward
    sc.do(c.Pass(H(8), H(9)))
    assert sc.s.turn is Team.AWAY
    # Away closes down #9 and tries to take the ball: fails, then succeeds.
    sc.walk(A(9), (10, 7))
    sc.do(c.TakeBall(A(9)))
    sc.d12(Team.AWAY, 9)                      # above strength 3: fails
    sc.do(c.TakeBall(A(9)))
    sc.d12(Team.AWAY, 2)                      # takes the ball: three actions from now
    assert sc.s.ball == A(9) and sc.s.actions_left == 3
    sc.do(c.Pass(A(9), A(7)))
    sc.walk(A(7), (10, 5))
    sc.end()
    # Home's #9 tries to win it back and fouls: a yellow card; Away's turn.
    sc.do(c.TakeBall(H(9)))
    sc.d12(Team.HOME, 12)
    assert sc.s.players[H(9)].yellow == 1 and sc.s.turn is Team.AWAY
    # Away's #11 runs into Home's half and kicks from line 8 (accuracy 8 - 3): it misses.
    sc.do(c.Pass(A(7), A(11)))
    sc.walk(A(11), (8, 1))
    sc.do(c.Kick(A(11)))
    sc.d12(Team.AWAY, 10)
    assert sc.s.ball == H(1) and sc.s.turn is Team.HOME
    # Home builds from the back: goalkeeper to #3, #3 to #7, #7 runs with it.
    sc.do(c.Pass(H(1), H(3)))
    sc.do(c.Pass(H(3), H(7)))
    sc.walk(H(7), (9, 4))
    sc.walk(A(9), (12, 6))
    sc.walk(A(8), (12, 8))
    sc.end()
    # #7 finds #9, who runs at goal and kicks from line 13 (accuracy 9 - 2 against defence 8):
    # both dice show 5, a corner kick.
    sc.do(c.Pass(H(7), H(9)))
    sc.walk(H(9), (13, 6))
    sc.do(c.Kick(H(9)))
    sc.d12(Team.AWAY, 5)
    sc.d12(Team.HOME, 5)
    assert sc.s.phase is Phase.CORNER
    # The corner: #11 on the slot, Away's three moves, then #9 (in front of the last defender,
    # but there is no offside at a corner) receives and scores.
    sc.place(H(11), (19, 0))
    sc.walk(A(2), (17, 1))
    sc.walk(A(3), (17, 4))
    sc.end()
    sc.walk(H(9), (17, 3))
    sc.do(c.Pass(H(11), H(9)))
    sc.do(c.Kick(H(9)))
    sc.d12(Team.HOME, 3)
    sc.d12(Team.AWAY, 11)
    assert sc.s.score[Team.HOME] == 1 and sc.s.phase is Phase.LINEUP

    # --- Round 2: Away kicks off; Home brings on #16 for the booked #9 ------------------------------------
    sc.do(c.Substitute(H(9), H(16)))
    home = dict(HOME_SHAPE)
    home[16] = home.pop(9)
    sc.lineup(home=home)
    sc.do(c.Pass(A(9), A(8)))
    sc.end()
    # #16 closes down #8 and takes the ball: three actions from now.
    sc.walk(H(16), (12, 7))
    sc.do(c.TakeBall(H(16)))
    sc.d12(Team.HOME, 2)
    assert sc.s.ball == H(16) and sc.s.actions_left == 3
    sc.walk(H(16), (15, 7))
    sc.walk(H(8), (9, 7))
    sc.walk(H(10), (9, 10))
    # Away's #4 tries to stop him just outside the area: a foul, a yellow card.
    sc.do(c.TakeBall(A(4)))
    sc.d12(Team.AWAY, 12)
    assert sc.s.players[A(4)].yellow == 1 and sc.s.turn is Team.HOME
    # #16 goes into the area; #4 fouls him again: a second yellow, sent off, and a penalty.
    sc.move(H(16), (17, 8))
    sc.walk(H(8), (12, 8))
    sc.end()
    sc.do(c.TakeBall(A(4)))
    sc.d12(Team.AWAY, 12)
    assert sc.s.phase is Phase.PENALTY and not sc.s.players[A(4)].on_field
    # The penalty: the clock is paused while Away's #3 leaves the area and Home's #11 goes on
    # the spot; the keeper's number falls in the same group as the kick's: defended.
    sc.clock(c.PauseClock)
    sc.move(A(3), (15, 5))
    sc.place(H(11), (17, 6))
    sc.clock(c.StartClock)
    sc.d12(Team.HOME, 6)
    sc.d12(Team.AWAY, 7)
    assert sc.s.ball == A(1) and sc.s.turn is Team.HOME and sc.s.actions_left == 2
    # Home's two actions: #11 steps next to the goalkeeper and fails to take the ball.
    sc.move(H(11), (18, 6))
    sc.do(c.TakeBall(H(11)))
    sc.d12(Team.HOME, 8)
    assert sc.s.turn is Team.AWAY
    # Away plays out from the back down the left and #11 scores from line 8 (8 - 3 = 5).
    sc.do(c.Pass(A(1), A(2)))
    sc.do(c.Pass(A(2), A(6)))
    sc.walk(A(6), (10, 2))
    sc.walk(H(6), (8, 3))
    sc.end()
    sc.do(c.Pass(A(6), A(11)))
    sc.walk(A(11), (8, 5))
    sc.do(c.Kick(A(11)))
    sc.d12(Team.AWAY, 1)
    sc.d12(Team.HOME, 10)
    assert sc.s.score == {Team.HOME: 1, Team.AWAY: 1}

    # --- Round 3: Home kicks off; a kick defended, a correction, and time is up --------------------------
    away = {n: sq for n, sq in AWAY_SHAPE.items() if n != 4}
    sc.lineup(home=home, away=away)
    sc.do(c.Pass(H(16), H(11)))
    sc.walk(H(11), (11, 3))
    sc.walk(H(7), (9, 5))
    sc.walk(A(6), (12, 2))
    sc.walk(A(7), (12, 4))
    sc.end()
    # #11, hemmed in by three, cannot kick but can pass: #16 kicks from line 13 and the keeper
    # defends (4 against 1-7, 2 against 1-8).
    sc.do(c.Pass(H(11), H(16)))
    sc.walk(H(16), (13, 6))
    sc.do(c.Kick(H(16)))
    sc.d12(Team.HOME, 4)
    sc.d12(Team.AWAY, 2)
    assert sc.s.ball == A(1) and sc.s.turn is Team.AWAY
    # A figure knocked over on the table: a coach puts it back where it stood (a correction).
    sc.do(PlaceFigure(A(9), square=(11, 6), correction=True))
    sc.do(c.Pass(A(1), A(3)))
    sc.walk(A(3), (14, 5))
    sc.clock(c.CallTimeUp)
    assert sc.s.phase is Phase.OVER
    return sc


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE / "futboard_full_match.jsonl"
    sc = build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    out.write_text(buf.getvalue(), encoding="utf-8")
    print(f"{out}: {len(sc.m.events)} events")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
