"""Build tests/data/fublet_full_match.jsonl: a whole Fublet match played through the rules
core command by command, exported as JSON Lines.

Two halves, goals, a free kick with a wall, an offside trap, a transition round, a yellow
then a second yellow (red), an injury, three substitutions, extra time and a shoot-out. The
times in the file are fixed (one second per command from a fixed start) so rebuilding it
gives the same bytes; tests/test_fublet_full_match.py checks that, and replays the file
through ``touchline replay``.

Run: python tests/data/build_full_match.py [OUT.jsonl]
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent))

from companion.commands import Choose, PlaceFigure, SubmitRoll  # noqa: E402
from companion.dice import DieKind, roll_of  # noqa: E402
from companion.fublet import commands as c  # noqa: E402
from companion.fublet.components import Action, load_components, shipped_team  # noqa: E402
from companion.fublet.model import Period, Phase, ShotPlan  # noqa: E402
from companion.fublet.rules import FubletRules  # noqa: E402
from companion.jsonl import export_lines  # noqa: E402
from companion.match import Match  # noqa: E402
from companion.teams import PlayerRef, Team  # noqa: E402

START = datetime(2026, 11, 30, 18, 0, 0, tzinfo=timezone.utc)


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


HOME_SHAPE = {1: (1, 15), 2: (8, 4), 3: (8, 12), 4: (8, 19), 5: (8, 27), 6: (16, 4), 7: (16, 12),
              8: (18, 19), 10: (16, 27), 9: (22, 12), 11: (22, 19)}
AWAY_SHAPE = {n: (47 - ms[0], 31 - ms[1]) for n, ms in HOME_SHAPE.items()}


class Script:
    def __init__(self) -> None:
        ticks = iter(range(10**6))
        self.m = Match(FubletRules(), clock=lambda: START + timedelta(seconds=next(ticks)))

    @property
    def s(self):
        return self.m.state

    def do(self, command):
        return self.m.submit(command)

    def pct(self, team: Team, value: int):
        tens, units = (0, 0) if value == 100 else divmod(value, 10)
        self.do(SubmitRoll(roll_of(DieKind.D10, tens, units, owner=team, colours=("black", "white"))))

    def d8(self, face: int):
        self.do(SubmitRoll(roll_of(DieKind.D8, face)))

    def choose(self, option: str):
        req = next(r for r in self.m.pending() if r.kind == "choice")
        self.do(Choose(req.id, option))

    def pass_phase(self):
        phase, rnd = self.s.phase, self.s.round
        while self.s.phase is phase and self.s.round == rnd and not self.s.queue:
            self.do(c.PassTurn(self.s.turn or Team.HOME))

    def end_round(self):
        """Both coaches pass through Movement and Tactical movement (and any Event phase)."""
        rnd = self.s.round
        while self.s.round == rnd and self.s.phase in (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT) and not self.s.queue:
            self.pass_phase()

    def place(self, ref: PlayerRef, ms, facing=None):
        self.do(PlaceFigure(ref, square=ms, facing=facing, correction=self.s.phase not in (
            Phase.KICK_OFF, Phase.RESTART, Phase.BOARD_PICK)))

    def lineup(self):
        """Everyone back to the kick-off shape (substitutes where the man they replaced stood)."""
        shape = {}
        for team, base, facing in ((Team.HOME, HOME_SHAPE, 0), (Team.AWAY, AWAY_SHAPE, 180)):
            slots = dict(base)
            players = [p for p in self.s.players.values() if p.on_pitch and p.ref.team is team]
            free = [ms for n, ms in slots.items() if not any(p.ref.number == n for p in players)]
            for p in players:
                ms = slots.get(p.ref.number) or free.pop()
                shape[p.ref] = (ms, facing)
        for ref in shape:
            self.do(PlaceFigure(ref, square=None))
        for ref, (ms, facing) in shape.items():
            self.do(PlaceFigure(ref, square=ms, facing=facing))

    def burn(self, until_period_changes: bool = True, max_rounds: int = 40):
        """Keep-and-run back and forth in midfield until the half ends."""
        period = self.s.period
        for i in range(max_rounds):
            if self.s.period is not period or self.s.phase is Phase.OVER:
                return
            if self.s.phase is not Phase.DECLARATION:
                raise RuntimeError(f"expected a declaration, got {self.s.phase}")
            carrier = self.s.ball.carrier
            ms = self.s.players[carrier].ms
            step = 6 if i % 2 == 0 else -6
            col = ms[0] + max(-5, min(5, 24 - ms[0]))  # back towards midfield, away from the boxes
            wanted = (col, ms[1] + step if 3 <= ms[1] + step <= 28 else ms[1] - step)
            target = self.spot_for(carrier, wanted, within=self.s.players[carrier].speed)
            self.do(c.Declare(carrier, Action.KEEP_AND_RUN, target_ms=target))
            self.end_round()
        raise RuntimeError("the half did not end")

    def clear_spot(self):
        """Free kicks and corners: defenders within 5 MS of the spot step back to the nearest
        free MS beyond 5 MS."""
        from companion.board import grid_distance
        from companion.fublet.restarts import too_close
        r = self.s.restart
        for ref in too_close(self.s, r):
            here = self.s.players[ref].ms
            taken = {p.ms for p in self.s.players.values() if p.on_pitch}
            options = [(x, y) for x in range(48) for y in range(32)
                       if (x, y) not in taken and grid_distance((x, y), r.spot_ms) > 5]
            self.do(PlaceFigure(ref, square=min(options, key=lambda t: (grid_distance(t, here), t))))

    def spot_for(self, ref, wanted, within=None):
        """The MS nearest ``wanted`` that ``ref`` may stand on (free, at most two teammates
        per PS), within ``within`` MS of where he is if given."""
        from companion.board import grid_distance
        here = self.s.players[ref].ms
        taken = {p.ms for p in self.s.players.values() if p.on_pitch and p.ref != ref}
        mates = [p.ms for p in self.s.players.values() if p.on_pitch and p.ref.team is ref.team and p.ref != ref
                 and p.ms is not None]

        def ok(t):
            if t in taken:
                return False
            ps = (t[0] // 2, t[1] // 2)
            if sum(1 for m in mates if (m[0] // 2, m[1] // 2) == ps) >= 2:
                return False
            return within is None or grid_distance(here, t) <= within

        options = [(x, y) for x in range(48) for y in range(32) if ok((x, y))]
        return min(options, key=lambda t: (grid_distance(t, wanted), t))

    def free_ms_near(self, target, avoid=()):
        from companion.board import grid_distance
        taken = {p.ms for p in self.s.players.values() if p.on_pitch} | set(avoid)
        options = [(x, y) for x in range(48) for y in range(32) if (x, y) not in taken]
        return min(options, key=lambda t: (grid_distance(t, target), t))

    def run_carrier_to(self, target):
        """Keep and run towards ``target``, a round at a time (each within the runner's speed)."""
        from companion.board import grid_distance
        for _ in range(20):
            carrier = self.s.ball.carrier
            p = self.s.players[carrier]
            if p.ms == target:
                return
            dx = max(-1, min(1, target[0] - p.ms[0]))
            dy = max(-1, min(1, target[1] - p.ms[1]))
            step, pos = 0, p.ms
            while pos != target and step < p.speed - 1:
                nxt = (pos[0] + (dx if pos[0] != target[0] else 0), pos[1] + (dy if pos[1] != target[1] else 0))
                if grid_distance(p.ms, nxt) > p.speed - 1:
                    break
                pos = nxt
                step = grid_distance(p.ms, pos)
            pos = self.spot_for(carrier, pos, within=p.speed - 1)
            self.do(c.Declare(carrier, Action.KEEP_AND_RUN, target_ms=pos))
            self.end_round()
        raise RuntimeError("the run did not arrive")

    def engage(self, defender, tackle_roll, dribble_roll):
        """``defender`` engages the ball carrier from an orthogonal MS (brought within reach
        first if the round pace would not allow it); the Event phase settles it."""
        from companion.fublet import queries as qq
        carrier = self.s.ball.carrier
        cms = self.s.players[carrier].ms
        spots = [(cms[0] + 1, cms[1]), (cms[0] - 1, cms[1]), (cms[0], cms[1] + 1), (cms[0], cms[1] - 1)]
        taken = {p.ms for p in self.s.players.values() if p.on_pitch}
        spots = [t for t in spots if t not in taken and 0 <= t[0] < 48 and 0 <= t[1] < 32]
        p = self.s.players[defender]
        target = min(spots, key=lambda t: (qq.move_cost(self.s, p, t), t))
        if qq.move_cost(self.s, p, target) + 1 > min(self.s.pace, p.speed):
            self.place(defender, target)  # already there: he engages by turning on the spot
        self.do(c.PassTurn(carrier.team)) if self.s.turn is carrier.team else None
        self.do(c.Move(defender, target, engage=True))
        self.pass_phase()
        self.pct(carrier.team, dribble_roll)
        self.pct(defender.team, tackle_roll)

    def positioning_passes(self):
        while any("step" in r.text for r in self.m.pending()):
            team = next(r.team for r in self.m.pending() if "step" in r.text)
            self.do(c.PassTurn(team))


def build() -> Match:
    sc = Script()
    home = shipped_team("rovers")
    away = shipped_team("harbour")
    sc.do(c.CreateMatch(home, away, load_components()))

    # Opening roll: Home 8, Away 5 -> Home picks first, Away kicks off.
    sc.do(SubmitRoll(roll_of(DieKind.D10, 8, owner=Team.HOME)))
    sc.do(SubmitRoll(roll_of(DieKind.D10, 5, owner=Team.AWAY)))
    sc.do(c.ChooseBoard(Team.HOME, "high_short_offensive"))
    sc.do(c.ChooseBoard(Team.AWAY, "low_long_offensive"))
    sc.lineup()
    sc.do(c.KickOff(A(8)))

    # --- First half ----------------------------------------------------------------------------
    # Round 1: a short pass forward, then an offside trap on Away's #9 that works.
    sc.place(A(9), (21, 14))
    sc.place(H(3), (19, 10))
    sc.place(H(4), (19, 18))
    sc.do(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    sc.pct(Team.AWAY, 31)
    sc.do(c.CallOffside(A(9), (H(3), H(4)), ((22, 10), (22, 18))))
    sc.pct(Team.HOME, 40)       # the trap: 40 against the lower tactical perception
    sc.pct(Team.AWAY, 35)       # lower than 40: offside
    assert sc.s.phase is Phase.RESTART and sc.s.restart.team is Team.HOME
    sc.clear_spot()
    sc.positioning_passes()
    sc.do(c.ChooseTaker(H(3)))
    sc.do(c.Declare(H(3), Action.SHORT_PASS, target_ps=(14, 7)))
    sc.pct(Team.HOME, 22)
    sc.end_round()              # nobody in PS (14, 7): a transition round follows
    assert sc.s.phase is Phase.MOVEMENT and sc.s.round_kind.value == "transition"
    sc.end_round()

    # Away runs at Home's goal and scores with a long shot (Home's #3 fails to deflect it).
    sc.run_carrier_to((9, 14))
    shooter = sc.s.ball.carrier
    assert shooter.team is Team.AWAY
    sc.do(c.Declare(shooter, Action.LONG_SHOT, target_ps=(0, 7),
                    shot=ShotPlan(tokens=(10, 5, 5, 5, 5), save_token=5, save_ms=(1, 14))))
    sc.pct(Team.AWAY, 12)
    while any(r.kind == "choice" for r in sc.m.pending()):
        sc.choose("none")
    sc.pass_phase()
    sc.pct(Team.HOME, 93)           # the save fails: 0-1
    assert sc.s.score[Team.AWAY] == 1, sc.s.last_outcome

    # Home kicks off, runs at Away's box; Away's #4 tackles, fails and is booked.
    sc.lineup()
    sc.do(c.KickOff(H(8)))
    sc.run_carrier_to((31, 14))
    sc.do(c.Declare(sc.s.ball.carrier, Action.KEEP_AND_RUN, target_ms=(35, 14)))
    sc.engage(A(4), tackle_roll=84, dribble_roll=33)
    sc.choose("free_kick")
    assert sc.s.bookings[-1].colour == "yellow"
    # The free kick: Away sets a wall of three, Home shoots over it; the keeper saves and
    # fumbles the catch.
    sc.do(c.SetWall(Team.AWAY, (A(2), A(3), A(5))))
    spot = sc.s.restart.spot_ms
    for i, ref in enumerate((A(2), A(3), A(5))):
        sc.do(PlaceFigure(ref, square=sc.free_ms_near((spot[0] + 6, spot[1] - 1 + i))))
    sc.clear_spot()
    sc.positioning_passes()
    sc.do(c.ChooseTaker(H(10)))
    sc.do(c.Declare(H(10), Action.LONG_SHOT, target_ps=(23, 7),
                    shot=ShotPlan(tokens=(5, 5, 5, 5, 5, 5), save_token=5, save_ms=(46, 15))))
    sc.pct(Team.HOME, 18)
    sc.pct(Team.AWAY, 11)           # the wall's test is good but lower: over the wall
    while any(r.kind == "choice" for r in sc.m.pending()):
        sc.choose("none")
    sc.pass_phase()
    sc.pct(Team.AWAY, 40)           # saved
    sc.choose("catch")
    sc.pct(Team.AWAY, 10)           # handling 10 does not beat the shot's 18: it spills
    sc.d8(5)                        # away from goal
    sc.end_round()
    settle(sc)
    sc.burn()
    assert sc.s.period is Period.SECOND_HALF, sc.s.period

    # --- Second half: Away picks a board first; Home kicks off -------------------------------
    sc.do(c.ChooseBoard(Team.AWAY, "high_long_offensive"))
    sc.do(c.ChooseBoard(Team.HOME, "wing_offensive"))
    sc.lineup()
    sc.do(c.KickOff(H(7)))
    # Home's #7 passes to #9 with a roll of 50: a good pass, but #7 is injured; #14 comes on.
    sc.do(c.Declare(H(7), Action.SHORT_PASS, target_ps=(11, 6)))
    sc.pct(Team.HOME, 50)
    assert sc.s.players[H(7)].injured
    sc.end_round()
    sc.choose("home#14")
    assert sc.s.players[H(14)].on_pitch and sc.s.subs_used[Team.HOME] == 1
    sc.place(H(14), sc.spot_for(H(14), (24, 1)))
    # Two more substitutions, swapped at the end of the round.
    sc.do(c.CallSubstitution(Team.HOME, H(2), H(13)))
    sc.do(c.CallSubstitution(Team.HOME, H(5), H(15)))
    sc.run_carrier_to((25, 14))
    assert sc.s.subs_used[Team.HOME] == 3
    sc.place(H(13), sc.spot_for(H(13), (10, 5)))
    sc.place(H(15), sc.spot_for(H(15), (10, 26)))
    # Away's #4, already booked, tackles badly again: second yellow, sent off.
    sc.run_carrier_to((31, 14))
    carrier = sc.s.ball.carrier
    sc.do(c.Declare(carrier, Action.KEEP_AND_RUN, target_ms=sc.spot_for(carrier, (35, 14), within=5)))
    sc.engage(A(4), tackle_roll=86, dribble_roll=21)
    sc.choose("free_kick")
    assert sc.s.players[A(4)].sent_off
    # Home scores from the free kick: 1-1.
    sc.clear_spot()
    sc.positioning_passes()
    sc.do(c.ChooseTaker(H(10)))
    sc.do(c.Declare(H(10), Action.LONG_SHOT, target_ps=(23, 8),
                    shot=ShotPlan(tokens=(5, 5, 5, 5, 5, 5), save_token=10, save_ms=(46, 17))))
    sc.pct(Team.HOME, 9)
    while any(r.kind == "choice" for r in sc.m.pending()):
        sc.choose("none")
    sc.pass_phase()
    sc.pct(Team.AWAY, 77)
    assert sc.s.score == {Team.HOME: 1, Team.AWAY: 1}, sc.s.last_outcome
    sc.lineup()
    sc.do(c.KickOff(A(8)))
    sc.burn()
    assert sc.s.period is Period.EXTRA_FIRST, sc.s.period

    # --- Extra time: boards again, no goals ------------------------------------------------------
    sc.do(c.ChooseBoard(Team.HOME, "high_short_offensive"))
    sc.do(c.ChooseBoard(Team.AWAY, "low_short_defensive"))
    sc.lineup()
    sc.do(c.KickOff(A(8)))
    sc.burn()
    assert sc.s.period is Period.EXTRA_SECOND, sc.s.period
    sc.do(c.ChooseBoard(Team.AWAY, "wing_defensive"))
    sc.do(c.ChooseBoard(Team.HOME, "wing_offensive"))
    sc.lineup()
    sc.do(c.KickOff(H(8)))
    sc.burn()
    assert sc.s.period is Period.SHOOTOUT, sc.s.period

    # --- Penalty shoot-out: Home kicks first ------------------------------------------------------
    kicks = [(H(9), True), (A(9), True), (H(10), True), (A(10), False), (H(8), False), (A(11), True),
             (H(11), True), (A(8), False), (H(6), True)]
    for kicker, scores in kicks:
        sc.do(c.TakeShootoutKick(kicker))
        if scores:
            sc.pct(kicker.team, 20)
            sc.pct(kicker.team.other, 95)
        else:
            sc.pct(kicker.team, 97)
            sc.pct(kicker.team.other, 30)
    assert sc.s.phase is Phase.OVER and sc.s.result.winner is Team.HOME, sc.s.result
    return sc


def settle(sc: Script, rolls=(30, 60, 45, 20, 70, 15)) -> None:
    """Resolve whatever is pending with plain, fixed rolls and first answers, and finish the
    round; used after a loose ball, where who meets it depends on the scatter."""
    i = 0
    for _ in range(200):
        pending = sc.m.pending()
        if not pending or sc.s.phase is Phase.DECLARATION or sc.s.phase is Phase.OVER:
            return
        req = pending[0]
        if req.kind == "dice":
            if req.dice.kinds[0] is DieKind.D8:
                sc.d8(5)
            else:
                sc.pct(req.team, rolls[i % len(rolls)])
                i += 1
        elif req.kind == "choice":
            sc.choose("free_kick" if "free_kick" in req.options else req.options[0])
        elif sc.s.phase in (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT):
            sc.pass_phase()
        elif sc.s.phase in (Phase.RESTART, Phase.KICK_OFF):
            return
        else:
            raise RuntimeError(f"cannot settle: {req.text}")
    raise RuntimeError("settle did not finish")


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE / "fublet_full_match.jsonl"
    sc = build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    out.write_text(buf.getvalue(), encoding="utf-8")
    print(f"{out}: {len(sc.m.events)} events")
    if len(argv) <= 1:  # the shipped demo replays the same match
        demo = HERE.parent.parent / "companion" / "demo" / "fublet_demo.jsonl"
        demo.write_text(buf.getvalue(), encoding="utf-8")
        print(f"{demo}: copied")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
