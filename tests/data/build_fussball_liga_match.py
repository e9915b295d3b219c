"""Build tests/data/fussball_liga_full_match.jsonl: a whole Fußball-Liga variant match played
through the rules core command by command, exported as JSON Lines.

Two halves on the real-time clock, with: the coin toss, line-ups seen by the camera, kick-offs,
passes and a failed and a successful interception, dribbling in close and loose control, a
dribbling interception ending in a foul, a direct free-kick scored, an off-side, a phase's egg
timer running out, a shot aimed off the field called as misconduct, a throw-in, a missed goal
shot and its goal-kick, the goalkeeper catching and holding the ball, a clock pause, a
substitution, a corner-kick with a follow-up, a penalty-kick, a second yellow card, and the
tournament's points. The clock is fixed (one second per command from a fixed start, plus the
waits the script makes) so rebuilding gives the same bytes; tests/test_fussball_liga_full_match.py
checks that and replays the file through ``touchline replay``.

Where a situation needs figures far from where play left them, the script stages it with
corrections (as a coach would, with the tablet) instead of many more moves.

Run: python tests/data/build_fussball_liga_match.py [OUT.jsonl]
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from companion.commands import Choose, PlaceFigure, SubmitRoll  # noqa: E402
from companion.dice import DieKind, roll_of  # noqa: E402
from companion.events import Source  # noqa: E402
from companion.fussball_liga import commands as c  # noqa: E402
from companion.fussball_liga.clock import Instant  # noqa: E402
from companion.fussball_liga.components import load_components, shipped_team  # noqa: E402
from companion.fussball_liga.model import Control, Options, Phase  # noqa: E402
from companion.fussball_liga.rules import FussballLigaRules  # noqa: E402
from companion.jsonl import export_lines  # noqa: E402
from companion.match import Match  # noqa: E402
from companion.teams import PlayerRef, Team  # noqa: E402

START = datetime(2026, 11, 30, 19, 0, 0, tzinfo=timezone.utc)
HOME, AWAY = Team.HOME, Team.AWAY

# Kick-off shapes for the side kicking off from the low half, and the side waiting in the high half.
KICKING = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
           10: (9, 16), 9: (14, 9), 11: (13, 12)}
WAITING = {1: (29, 9), 2: (25, 16), 3: (25, 11), 4: (25, 7), 5: (25, 3), 6: (20, 15), 7: (20, 11),
           8: (20, 7), 10: (20, 3), 9: (18, 10), 11: (18, 7)}


def H(n: int) -> PlayerRef:
    return PlayerRef(HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(AWAY, n)


def mirror(sq):
    return (29 - sq[0], 19 - sq[1])


class Script:
    def __init__(self) -> None:
        self.now = START
        self.m = Match(FussballLigaRules(), clock=lambda: self.now)
        self.tray = 0

    @property
    def s(self):
        return self.m.state

    def do(self, command, source: Source = Source.MANUAL, wait: float = 1.0):
        self.now += timedelta(seconds=wait)
        return self.m.submit(command, source)

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def roll(self, team: Team, *faces: int):
        """Dice from the tray (the keypad now and then)."""
        self.tray += 1
        source = Source.TRAY if self.tray % 4 else Source.MANUAL
        device = "tray-1" if source is Source.TRAY else "keypad"
        self.do(SubmitRoll(roll_of(DieKind.D6, *faces, owner=team, source=source, device=device)), source)

    def choose(self, option: str):
        req = next(r for r in self.m.pending() if r.kind == "choice")
        self.do(Choose(req.id, option))

    def see(self, ref: PlayerRef, square):
        """The camera sees a figure settle (a placement or a move, as the rules read it)."""
        pitch = self.s.components.pitch
        x, y = pitch.centre_mm(square)
        from companion.sightings import Sighting

        self.now += timedelta(seconds=1)
        return self.m.sight(Sighting(ref, x, y))

    def stage(self, ref: PlayerRef, square):
        """A coach's correction on the tablet."""
        self.do(PlaceFigure(ref, square=square, correction=True))

    def move(self, ref: PlayerRef, to, path=()):
        self.do(c.Move(ref, to, path))

    def done(self, team: Team):
        self.do(c.PassTurn(team))

    def end_movement(self):
        turn = self.s.turn_no
        while self.s.phase is Phase.MOVEMENT and self.s.turn_no == turn and not self.s.queue:
            self.done(self.s.movement.turn)

    def time_up(self, kind: str, team: Team | None = None):
        self.do(c.CallTimeUp(kind, Instant.of(self.now + timedelta(seconds=1)), team), wait=1.0)

    def lineup(self):
        """Every figure lifted and put down in the kick-off shapes for the ends of this half."""
        s = self.s
        kicking = s.restart.team
        for ref, p in s.players.items():
            if p.square is not None:
                self.do(PlaceFigure(ref, None), Source.VISION)
        for team in (HOME, AWAY):
            shape = KICKING if team is kicking else WAITING
            low = s.end_of(team) == "low"
            if (team is kicking) != low:
                shape = {n: mirror(sq) for n, sq in shape.items()}
            players = sorted(p.ref for p in s.players.values() if p.on_pitch and p.ref.team is team)
            # Each to his number's place; a substitute to the place of the man he replaced.
            free = [n for n in shape if n not in {r.number for r in players}]
            for ref in players:
                self.see(ref, shape[ref.number] if ref.number in shape else shape[free.pop(0)])


def first_half(sc: Script) -> None:
    do, roll = sc.do, sc.roll
    opts = Options(half_minutes=20, tournament=True, carried_yellows=(A(8),))
    do(c.CreateMatch(shipped_team("rotstein"), shipped_team("gruenwald"), load_components(), opts))
    sc.choose("home")       # Home won the toss ...
    sc.choose("kick_off")   # ... and takes the kick-off;
    sc.choose("high")       # Away defends the high goal.
    sc.lineup()
    sc.wait(30)
    do(c.Kick(H(9), (12, 11)))                      # kick-off: #9 to the square next to #11 (wide control)
    # Turn 1, movement: #9 runs on; Away's #7 answers; #11 takes the ball into close control.
    sc.see(H(9), (19, 12))
    sc.see(A(7), (18, 11))
    sc.done(AWAY)
    do(c.MoveBall(H(11), (13, 12)))
    sc.done(HOME)
    sc.done(AWAY)
    sc.done(HOME)                                   # Home moves no more: Away's last step
    sc.see(A(8), (16, 9))
    sc.done(AWAY)
    # Turn 2: #11 passes along the row to #9; Away's #7 tries next to the target and fails.
    do(c.Kick(H(11), (19, 12)))
    do(c.Intercept(A(7), (18, 12)))
    roll(AWAY, 2)
    do(c.PassTurn(HOME))                            # no follow-up
    # Movement: #9 dribbles 3 squares in close control (6 points); #3 steps up and tackles.
    sc.see(H(9), (22, 12))
    sc.see(A(3), (23, 11))
    do(c.Tackle(A(3)))
    roll(AWAY, 2)                                   # a 2: a foul
    sc.choose("free_kick")
    # The direct free-kick: Away's #3 back to 3 squares, #9 next to the ball, a shot at goal.
    sc.see(A(3), (25, 11))
    sc.done(AWAY)
    sc.see(H(9), (21, 12))
    sc.done(HOME)
    do(c.Kick(H(9), (30, 12)))
    do(c.Intercept(A(3), (26, 12)))
    roll(AWAY, 6)                                   # 6 - 2 = 4: not enough next to the path
    roll(HOME, 5)                                   # 8 squares: 5 hits. 1-0


def away_kick_off(sc: Script) -> None:
    do, roll = sc.do, sc.roll
    sc.lineup()
    do(c.Kick(A(9), (17, 8)))                       # to the square next to #11
    # Turn 4, movement: Away's #7 runs into Home's half, Home's #9 steps up; #11 gathers the ball.
    sc.see(A(7), (14, 9))
    sc.see(H(9), (14, 8))
    sc.done(HOME)
    do(c.MoveBall(A(11), (16, 7)))
    sc.done(AWAY)
    sc.done(HOME)
    sc.done(AWAY)                                   # Away moves no more
    sc.see(H(8), (12, 12))
    sc.done(HOME)
    # Turn 5: #11's pass to #7 is intercepted by Home's #9, next to the path and the origin.
    do(c.Kick(A(11), (14, 9)))
    do(c.Intercept(H(9), (15, 8)))
    roll(HOME, 5)                                   # 5 + 1 = 6: Home has the ball (wide control)


def offside_and_corner(sc: Script) -> None:
    do, roll = sc.do, sc.roll
    # Turn 6: #10 has drifted beyond Away's defenders (the tablet corrects the camera's miss);
    # #11 is onside. #9's pass forward makes #10's position off-side.
    sc.stage(H(10), (26, 15))
    sc.stage(H(11), (24, 10))
    do(c.Kick(H(9), (21, 8)))
    # Away's indirect free-kick from #10's square: Home re-positions first.
    sc.see(H(10), (23, 13))
    sc.done(HOME)
    sc.done(AWAY)                                   # #2 stands next to the ball already
    do(c.Kick(A(2), (26, 11)))                      # to the square next to #3
    # Turn 7: the egg timer runs out before anyone moves.
    sc.wait(31)
    sc.time_up("phase")
    # Turn 8: #3 clears the ball over his own goal line: a corner-kick for Home.
    do(c.Kick(A(3), (30, 15)))
    sc.done(AWAY)                                   # the set-up: Away's players are far enough
    sc.see(H(10), (29, 19))                         # the kicker to the corner area
    sc.see(H(11), (27, 12))
    sc.done(HOME)
    do(c.Kick(H(10), (27, 12)))                     # into the penalty area, off the rows
    do(c.Kick(H(11), (30, 12)))                     # the follow-up header, 3 squares
    roll(HOME, 2)                                   # needs 3: high. A goal-kick for Away


def goal_kick_and_touch_line(sc: Script) -> None:
    do, roll = sc.do, sc.roll
    sc.see(H(11), (24, 12))                         # out of the penalty area
    sc.done(HOME)
    sc.done(AWAY)                                   # the goalkeeper is in the goal area
    do(c.Kick(A(1), (21, 9)))                       # the goal-kick lands loose
    # Turn 10, movement: Away's #8 takes the loose ball; Home's #9 answers with one point.
    sc.see(A(8), (20, 8))
    sc.see(H(9), (15, 8))
    sc.done(HOME)
    sc.done(AWAY)
    sc.done(HOME)
    # Turn 11: #8 kicks the ball out over the touch line to waste time; Home calls it.
    do(c.Kick(A(8), (21, 20)))
    do(c.CallMisconduct(A(8), "shot_out"))          # a yellow card (he brought one from an earlier match)
    # Home's throw-in: nobody is within 6 squares, so the nearest, #10, may run 8 to take it.
    sc.done(AWAY)
    sc.see(H(10), (21, 20))
    sc.see(H(11), (24, 17))
    sc.done(HOME)
    do(c.Kick(H(10), (24, 17)))                     # to #11's square
    do(c.Kick(H(11), (30, 11)))                     # his follow-up at goal, 6 squares diagonally
    do(c.Intercept(A(2), (25, 16)))
    roll(AWAY, 1)                                   # an original 1 always loses
    roll(HOME, 6)                                   # 6 squares: 4 hits. 2-0


def half_time(sc: Script) -> None:
    do = sc.do
    sc.lineup()
    do(c.Kick(A(9), (17, 8)))
    sc.do(c.PauseClock("a figure fell off the table"))
    sc.wait(90)
    sc.do(c.ResumeClock())
    sc.see(A(7), (16, 12))
    sc.see(H(9), (12, 10))
    sc.done(HOME)
    sc.wait(1200)                                   # the coaches discuss the next move
    sc.time_up("half")                              # the movement phase is the half's last
    sc.done(AWAY)
    sc.done(HOME)


def keeper_holds(sc: Script) -> None:
    do, roll = sc.do, sc.roll
    do(c.Substitute(H(4), H(13)))                   # at the half-time line-up
    sc.lineup()
    sc.wait(600)                                    # the half-time interval
    do(c.Kick(A(9), (12, 11)))                      # Away kicks off towards the high goal now
    # Turn 15: #11 takes the ball into close control; #9 runs ahead.
    do(c.MoveBall(A(11), (13, 12)))
    sc.done(AWAY)
    sc.done(HOME)
    sc.see(A(9), (20, 12))
    sc.done(AWAY)
    sc.done(HOME)
    sc.done(AWAY)
    sc.done(HOME)
    # Turn 16: #11 passes along the row to #9; Home's #7 tries next to the target and fails.
    do(c.Kick(A(11), (20, 12)))
    do(c.Intercept(H(7), (19, 12)))
    roll(HOME, 3)
    sc.done(AWAY)                                   # no follow-up
    do(c.Move(A(9), (23, 12)))                      # close control: 3 squares, 6 points
    sc.see(H(1), (29, 11))                          # the goalkeeper moves across
    sc.done(HOME)
    sc.done(AWAY)
    sc.done(HOME)
    # Turn 17: #9 shoots from 7 squares; #3 fails, the goalkeeper catches it next to the goal.
    do(c.Kick(A(9), (30, 12)))
    do(c.Intercept(H(3), (25, 12)))
    roll(HOME, 4)                                   # 4 - 1 = 3: not enough next to the path
    do(c.Intercept(H(1), (29, 12)))
    roll(HOME, 3)                                   # 3 + 1 + 1 = 5: caught
    # Turn 18: he holds the ball for a turn; the opponents keep 3 squares away.
    do(c.HoldBall(H(1)))
    sc.see(H(9), (22, 10))
    do(c.Move(A(9), (26, 12)))
    sc.done(AWAY)
    sc.done(HOME)
    sc.done(AWAY)
    # Turn 19: he drops the ball next to him and kicks it to #9.
    do(c.Kick(H(1), (22, 11), drop=(28, 11)))
    do(c.Intercept(A(9), (27, 11)))
    roll(AWAY, 2)


def penalty_and_full_time(sc: Script) -> None:
    do, roll = sc.do, sc.roll
    # Turn 19, later: #9 has carried the ball into Away's penalty area (staged by corrections).
    sc.stage(A(8), (3, 9))
    sc.stage(H(9), (3, 10))
    do(c.PlaceBall((2, 10), H(9), Control.LOOSE))
    sc.done(HOME)                                   # Home moves no more: Away's last step
    do(c.Tackle(A(8)))
    roll(AWAY, 1)                                   # a 1: a foul and his second yellow card
    sc.choose("penalty_kick")
    # The penalty-kick: free placement; Away's goalkeeper on goal square 2.
    s = sc.s
    box = s.components.pitch.ends["low"]
    for p in sorted(s.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
        if p.square is None or p.ref in (H(9), A(1)):
            continue
        own_half_for_away = p.ref.team is AWAY and s.components.pitch.half_of(p.square) == "high"
        if box.in_penalty_area(p.square) or p.square in box.penalty_circle or own_half_for_away:
            sc.see(p.ref, free_square_near(sc, (8, p.square[1]) if p.ref.team is HOME else (7, p.square[1])))
    sc.see(A(1), box.goal_numbers[2])
    do(c.TakePenalty(H(9)))
    roll(HOME, 2)                                   # aimed at square 2: saved, he holds it
    do(c.Kick(A(1), (8, 0)))                        # from his goal square, diagonally up the wing
    sc.wait(1200)
    sc.time_up("half")
    while sc.s.phase in (Phase.SHOT, Phase.MOVEMENT) and not sc.s.queue:
        s = sc.s
        sc.done(s.movement.turn if s.phase is Phase.MOVEMENT else s.attacking)


def free_square_near(sc: Script, want):
    from companion.fussball_liga.pitch import dist

    taken = {p.square for p in sc.s.players.values() if p.square is not None}
    box = sc.s.components.pitch.ends["low"]
    options = [sq for sq in sc.s.components.pitch.field_squares() if sq not in taken and not box.in_penalty_area(sq)
               and sq not in box.penalty_circle and sq[0] < 15]
    return min(options, key=lambda sq: (dist(sq, want), sq))


def build() -> Script:
    sc = Script()
    first_half(sc)
    away_kick_off(sc)
    offside_and_corner(sc)
    goal_kick_and_touch_line(sc)
    half_time(sc)
    keeper_holds(sc)
    penalty_and_full_time(sc)
    return sc


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE / "fussball_liga_full_match.jsonl"
    sc = build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    out.write_text(buf.getvalue(), encoding="utf-8")
    s = sc.m.summary()
    print(f"{out}: {len(sc.m.events)} events; {s['score']}; {s['period']} {s['phase']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
